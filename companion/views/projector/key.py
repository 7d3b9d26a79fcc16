"""The key to a board's symbols in the side panel: every area kind, location kind and link kind, and the
open cells of a growing grid, each drawn as it is on the map beside its name.

The map's symbols differ by more than colour (a letter, a shape, a dash pattern); the key names each,
so nothing on the map has to be guessed.
"""

from __future__ import annotations

from typing import Any

import pygame

from companion.places import SquareBoard
from companion.views.projector import palette, text
from companion.views.projector.board import MapData
from companion.views.projector.layout import Layout, Rect
from companion.views.projector.marks import draw_line, draw_mark
from companion.views.projector.symbols import words


def key_rows(data: MapData) -> list[tuple[str, str, str]]:
    """(what, kind, label) for each symbol on the map, in the order the key shows them:
    areas, open cells, locations, links."""
    rows: list[tuple[str, str, str]] = [("area", k, words(k)) for k in sorted(set(data.terrain.values()))]
    if isinstance(data.board, SquareBoard):
        rows.append(("open", "", "open: a tile may go here"))
    rows += [("spot", k, words(k)) for k in sorted({p.kind for p in data.places})]
    links = getattr(data.board, "links", {})
    rows += [("link", k, words(k)) for k in sorted(set(links.values()))]
    return rows


def paint_key(surface: Any, layout: Layout, rect: Rect, data: MapData, title: str = "Key") -> int:
    """The key under ``title`` from the top of ``rect``; returns the y below it. Rows that do not fit
    are left out (the side panel's height is the limit), never drawn over the legend below."""
    if data.symbols is None:
        return rect.y
    symbols = data.symbols
    head = text.px(text.BODY, layout.height)
    body = text.px(text.SMALL, layout.height)
    y = rect.y
    text.draw(surface, title, (rect.x, y), head, palette.TEXT, bold=True, max_width=rect.w)
    y += head + 4
    sw = body + 6  # a swatch is a little taller than the text beside it
    for what, kind, label in key_rows(data):
        if y + sw > rect.y + rect.h:
            break
        box = pygame.Rect(rect.x, y, sw, sw)
        centre = (box.centerx, box.centery)
        if what == "area":
            pygame.draw.rect(surface, symbols.fill(kind), box)
            pygame.draw.rect(surface, palette.GRID, box, 1)
            text.draw(surface, symbols.letters.get(kind, ""), centre, body, palette.CITY_EDGE, anchor="center")
        elif what == "open":
            pygame.draw.rect(surface, palette.GRID, box.inflate(-4, -4), 2)
        elif what == "spot":
            draw_mark(surface, symbols.mark(kind), centre, sw * 0.42, width=2)
        else:
            style = symbols.line(kind)
            draw_line(surface, (box.x, box.centery), (box.x + 2 * sw, box.centery), style.colour, 3, style.dash)
            box.w = 2 * sw
        text.draw(surface, label, (box.right + 8, box.centery), body, palette.TEXT, anchor="midleft",
                  max_width=rect.x + rect.w - box.right - 8)
        y += sw + 4
    return y
