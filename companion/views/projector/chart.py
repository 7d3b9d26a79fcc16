"""The end-of-game damage summary: stacked bars per city, then the totals per kind.

Kinds are told apart by colour (Okabe-Ito) and by their fixed order in each bar, and every bar
carries its number, so the chart reads without colour vision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pygame

from companion.views.projector import palette, text
from companion.views.projector.layout import Rect


def paint_damage_chart(surface: Any, rect: Rect, title: str, rows: Sequence[tuple[str, Mapping[str, int]]],
                       kinds: Sequence[str], height: int, totals: Mapping[str, int] | None = None) -> Rect:
    """Horizontal stacked bars, one per row (label, {kind: amount}), a kind legend and totals under them.

    ``totals`` overrides the sums of the rows (a flooded road counts against both its cities, once in all)."""
    body = text.px(text.SMALL, height)
    head = text.px(text.BODY, height)
    y = rect.y
    text.draw(surface, title, (rect.x, y), head, palette.TEXT, bold=True, max_width=rect.w)
    y += head + 6
    label_w = rect.w * 2 // 5
    bar_w = rect.w - label_w - body * 2
    most = max([sum(v.values()) for _, v in rows] + [1])
    bar_h = max(6, min(body + 4, (rect.h - 4 * body) // max(1, len(rows) + len(kinds) + 2)))
    for label, values in rows:
        text.draw(surface, label, (rect.x, y + bar_h / 2), body, palette.TEXT, anchor="midleft", max_width=label_w - 4)
        x = rect.x + label_w
        for kind in kinds:
            n = values.get(kind, 0)
            w = round(bar_w * n / most)
            if w:
                pygame.draw.rect(surface, palette.KIND_COLOURS.get(kind, palette.TEXT_DIM), (x, y, w, bar_h - 2))
                x += w
        text.draw(surface, str(sum(values.values())), (x + 4, y + bar_h / 2), body, palette.TEXT, anchor="midleft")
        y += bar_h
    y += body // 2
    for kind in kinds:
        total = totals[kind] if totals is not None else sum(v.get(kind, 0) for _, v in rows)
        pygame.draw.rect(surface, palette.KIND_COLOURS.get(kind, palette.TEXT_DIM), (rect.x, y + 2, body, body - 4))
        text.draw(surface, f"{kind}: {total}", (rect.x + body + 6, y), body, palette.TEXT, max_width=rect.w - body)
        y += body + 2
    return Rect(rect.x, rect.y, rect.w, y - rect.y)
