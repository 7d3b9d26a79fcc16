"""The status strip across the top: game, turn and phase, what to roll, the tower, the last message.

It is drawn from the session's Panel alone, the same value the OLED draws, so the two never
disagree about what the box is waiting for.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import pygame

from companion.views.panel import Panel
from companion.views.projector import palette, text
from companion.views.projector.layout import Layout, Rect
from companion.views.projector.pieces import Group, Piece

TOWER_LABELS = {"off": ("tower off", palette.TEXT_DIM), "waiting": ("tower: looking", palette.FORT),
                "connected": ("tower ready", palette.DAM), "rolling": ("tower rolling", palette.FLOOD),
                "away": ("tower away", palette.DAMAGE), "mismatch": ("tower: wrong version", palette.DAMAGE)}
SOURCE_LABELS = {"waiting": ("looking", palette.FORT), "connected": ("ready", palette.DAM),
                 "rolling": ("rolling", palette.FLOOD), "away": ("away", palette.DAMAGE),
                 "mismatch": ("wrong version", palette.DAMAGE)}
"""How another dice source's state reads after its name ("Blue D8 ready")."""


def paint_turn(column: text.Column, game: Any, state: Any, now: Sequence[str] = (),
               happened: Sequence[str] | None = None) -> None:
    """What just happened (``happened``; by default the state's ``recent`` lines, else the engine's recap) and
    what is asked now (``now``: a heading line then its details; by default the engine's prompt, whole), for a
    game's side panel: the two things a table looks up to read, in type legible across the room."""
    if happened is None:
        happened = just_happened(game, state)
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


def just_happened(game: Any, state: Any) -> tuple[str, ...]:
    """The lines :func:`paint_turn` shows under "Just happened": the state's ``recent`` lines, else the
    engine's recap."""
    recent = getattr(state, "recent", None)
    return tuple(recent) if isinstance(recent, tuple) else tuple(game.recap(state)) if hasattr(game, "recap") \
        else ()


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
    return [p for g in status_groups(layout, panel) for p in g]


def status_groups(layout: Layout, panel: Panel) -> list[Group]:
    """:func:`status_pieces` as two groups (:data:`~companion.views.projector.pieces.Group`): the background,
    the same tuple for the screen's whole life, and the words, the same tuple while they are the same (a
    cursor move or a die arriving often leaves them as they were); the renderer compares only a group that
    is a new object."""
    tower = TOWER_LABELS.get(panel.tower, (f"tower {panel.tower}", palette.TEXT_DIM))
    sources = tuple((name, SOURCE_LABELS.get(state, (state, palette.TEXT_DIM))) for name, state in panel.sources)
    return [strip_tiles(layout.status),
            _words(layout.status, layout.height, tower, sources, panel.game or "storm companion", panel.status,
                   panel.message or prompt_line(panel), bool(panel.message), panel.notices)]


@lru_cache(maxsize=8)
def strip_tiles(r: Rect) -> Group:
    """The strip's background: one fill, kept per strip rectangle (one per screen size). A fill draws the same
    through a clip (:attr:`~companion.views.projector.pieces.Piece.clips`), so a new prompt repaints the
    strip's background under its words, not the whole width of the screen."""
    box = r.as_tuple()
    return (Piece(("status strip", box), pygame.Rect(box), lambda s: pygame.draw.rect(s, palette.PANEL, box)),)


@lru_cache(maxsize=64)
def _words(r: Rect, height: int, tower: tuple[str, palette.Colour],
           sources: tuple[tuple[str, tuple[str, palette.Colour]], ...], title: str, status: str, line: str,
           message: bool, notices: tuple[str, ...]) -> tuple[Piece, ...]:
    """The strip's words from what it shows (all it reads of the panel), kept: the last 64 strips, a few
    hundred pieces at most."""
    pieces: list[Piece] = []

    def put(words: str, pos: tuple[float, float], size: int, colour: palette.Colour, anchor: str, bold: bool = False,
            max_width: int | None = None) -> pygame.Rect:
        pieces.append(text.piece("status", words, pos, size, colour, anchor=anchor, bold=bold, max_width=max_width))
        return pieces[-1].rect

    big = text.px(text.BODY, height)
    y = r.y + r.h * (0.36 if notices else 0.5)  # lasting notices take the foot of the strip
    pad = max(6, r.h // 4)
    label, colour = tower
    right = put(label, (r.x + r.w - pad, y), big, colour, "midright", bold=True)
    for name, (label, colour) in reversed(sources):  # the other dice sources, each named, left of the tower
        right = put(f"{name} {label}", (right.left - 2 * pad, y), big, colour, "midright", bold=True,
                    max_width=r.w // 6)
    left = put(title, (r.x + pad, y), big, palette.TEXT, "midleft", bold=True, max_width=r.w // 4)
    x = left.right + 2 * pad
    if status:
        shown = put(status, (x, y), big, palette.TEXT_DIM, "midleft", max_width=r.w // 4)
        x = shown.right + 2 * pad
    if line:
        colour = palette.DAMAGE if message else palette.FORT
        put(line, (x, y), big, colour, "midleft", bold=True, max_width=max(10, right.left - x - pad))
    if notices:  # lasting conditions, small, under the strip's text
        put(" | ".join(notices), (r.x + pad, r.y + r.h - 2), text.minimum(height), palette.TEXT_DIM,
            "bottomleft", max_width=r.w - 2 * pad)
    return tuple(pieces)
