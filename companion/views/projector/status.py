"""The status strip across the top: game, turn and phase, what to roll, the tower, the last message.

It is drawn from the session's Panel alone, the same value the OLED draws, so the two never
disagree about what the box is waiting for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from companion.views.panel import Panel
from companion.views.projector import palette, text
from companion.views.projector.layout import Layout
from companion.views.projector.pieces import Piece, rect_of

TOWER_LABELS = {"off": ("tower off", palette.TEXT_DIM), "waiting": ("tower: looking", palette.FORT),
                "connected": ("tower ready", palette.DAM), "rolling": ("tower rolling", palette.FLOOD),
                "away": ("tower away", palette.DAMAGE), "mismatch": ("tower: wrong version", palette.DAMAGE)}
SOURCE_LABELS = {"waiting": ("looking", palette.FORT), "connected": ("ready", palette.DAM),
                 "rolling": ("rolling", palette.FLOOD), "away": ("away", palette.DAMAGE),
                 "mismatch": ("wrong version", palette.DAMAGE)}
"""How another dice source's state reads after its name ("Blue D8 ready")."""


def paint_turn(column: text.Column, game: Any, state: Any, now: Sequence[str] = ()) -> None:
    """What just happened (the state's ``recent`` lines, else the engine's recap) and what is asked now
    (``now``: a heading line then its details; by default the engine's prompt, whole), for a game's
    side panel: the two things a table looks up to read, in type legible across the room."""
    recent = getattr(state, "recent", None)
    happened = tuple(recent) if isinstance(recent, tuple) else tuple(game.recap(state)) if hasattr(game, "recap") \
        else ()
    if happened:
        column.line("Just happened", text.SMALL, palette.TEXT_DIM, bold=True)
        for line in happened:
            column.line(line, text.BODY, palette.TEXT, wrap_lines=True)
        column.gap()
    if not now:
        prompt = game.prompt(state) if hasattr(game, "prompt") else None
        now = (prompt.text,) if prompt is not None and prompt.text else ()
    if now:
        column.line("Now", text.SMALL, palette.TEXT_DIM, bold=True)
        column.line(now[0], text.BODY, palette.FORT, bold=True, wrap_lines=True)
        for line in now[1:]:
            column.line(line, text.SMALL, palette.TEXT, wrap_lines=True, indent=8)
        column.gap()


def prompt_line(panel: Panel) -> str:
    if panel.menu is not None:
        return f"{panel.menu.title}: {panel.menu.items[panel.menu.selected] if panel.menu.items else ''}"
    if panel.prompt is None:
        return ""
    words = panel.prompt.short or panel.prompt.text
    if panel.dice:
        words += "   " + " ".join(f"{d.kind.upper()}={d.value}" for d in panel.dice)
    return words


def status_pieces(layout: Layout, panel: Panel) -> list[Piece]:
    """The strip's background and each of its words as a piece: a roll changes the prompt, not the
    game's title or the tower's state, and only what changed is painted again."""
    r = layout.status
    pieces = [Piece(("status strip", r.as_tuple()), rect_of(r),
                    lambda s: pygame.draw.rect(s, palette.PANEL, r.as_tuple()))]

    def put(words: str, pos: tuple[float, float], size: int, colour: palette.Colour, anchor: str, bold: bool = False,
            max_width: int | None = None) -> pygame.Rect:
        pieces.append(text.piece("status", words, pos, size, colour, anchor=anchor, bold=bold, max_width=max_width))
        return pieces[-1].rect

    big = text.px(text.BODY, layout.height)
    y = r.y + r.h * (0.36 if panel.notices else 0.5)  # lasting notices take the foot of the strip
    pad = max(6, r.h // 4)
    tower, colour = TOWER_LABELS.get(panel.tower, (f"tower {panel.tower}", palette.TEXT_DIM))
    right = put(tower, (r.x + r.w - pad, y), big, colour, "midright", bold=True)
    for name, state in reversed(panel.sources):  # the other dice sources, each named, left of the tower
        label, colour = SOURCE_LABELS.get(state, (state, palette.TEXT_DIM))
        right = put(f"{name} {label}", (right.left - 2 * pad, y), big, colour, "midright", bold=True,
                    max_width=r.w // 6)
    title = panel.game or "storm companion"
    left = put(title, (r.x + pad, y), big, palette.TEXT, "midleft", bold=True, max_width=r.w // 4)
    x = left.right + 2 * pad
    if panel.status:
        status = put(panel.status, (x, y), big, palette.TEXT_DIM, "midleft", max_width=r.w // 4)
        x = status.right + 2 * pad
    line = panel.message or prompt_line(panel)
    if line:
        colour = palette.DAMAGE if panel.message else palette.FORT
        put(line, (x, y), big, colour, "midleft", bold=True, max_width=max(10, right.left - x - pad))
    if panel.notices:  # lasting conditions, small, under the strip's text
        put(" | ".join(panel.notices), (r.x + pad, r.y + r.h - 2), text.minimum(layout.height), palette.TEXT_DIM,
            "bottomleft", max_width=r.w - 2 * pad)
    return pieces
