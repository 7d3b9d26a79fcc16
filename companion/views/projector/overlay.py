"""The risk overlay: each place filled by its exact probability of being hit, and the legend that reads it.

The probabilities come from the engine's ``risk_map`` (exact, not sampled; the frame carries them), keyed by the board's
places: a hex or a cell is filled, a location gets a disc around its mark, a link a band along it.
Places at zero stay as terrain, so the overlay shows where the storm may go rather than tinting the
whole board; a place the board does not have is left out.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from typing import Any

import pygame

from companion.places import Place
from companion.views.projector import palette, text
from companion.views.projector.layout import Layout, Rect
from companion.views.projector.marks import outline_rect
from companion.views.projector.pieces import KeptPieces, Piece, keep, rect_of

FILL_SCALE = 0.94
"""The heat fill leaves the area edges visible, so the grid still reads under the overlay."""
LEGEND_STOPS = (0.0, 0.25, 0.5, 0.75, 1.0)
KEPT = "heat pieces"
"""Where ``risk_pieces`` keeps the pieces it made, in its store."""
MAX_KEPT = 4000
"""Kept heat pieces (a place in a colour) before the store starts again: a long evening's colours stay a few MB."""


def risk_pieces(layout: Layout, risk: Mapping[Place, float], outlines: dict[Any, Any] | None = None) -> list[Piece]:
    """Each place's heat as a piece keyed by its colour: a roll repaints only places whose colour moved.
    ``outlines`` keeps, per layout, each place's outline and rectangle, and the pieces made so far (a place
    shown again in the same colour is the same piece, compared with the last frame's at no cost).

    This runs for every place on every roll with the overlay on, so a place costs its colour (one
    bisection in :func:`palette.heat_table`, the colour ``palette.heat`` gives, NaN aside, which ``p > 0``
    leaves out) and one dictionary lookup; whether the board holds the place is asked only when its
    piece is made (a kept piece is of a place the board holds)."""
    outlines = {} if outlines is None else outlines
    kept: dict[Any, Piece] = keep(outlines, KEPT, KeptPieces, MAX_KEPT).at(layout)
    breaks, colours = palette.heat_table()
    find = kept.get
    pieces: list[Piece] = []
    for place, p in risk.items():
        if p > 0:
            key = (place, colours[bisect_right(breaks, p)])
            piece = find(key)
            if piece is None:
                if not layout.holds(place):
                    continue
                piece = kept[key] = _heat_piece(layout, place, key[1], outlines)
            pieces.append(piece)
    return pieces


def _heat_piece(layout: Layout, place: Place, colour: Any, outlines: dict[Any, Any]) -> Piece:
    """``place`` filled in ``colour`` (its outline and rectangle worked out once, in ``outlines``)."""
    outline, rect = keep(outlines, place, lambda: (layout.outline(place, FILL_SCALE),
                                                   rect_of(layout.box(place, FILL_SCALE), 1)))
    return Piece(("heat", place, colour), rect, lambda s: pygame.draw.polygon(s, colour, outline))


def legend_rect(layout: Layout) -> Rect:
    """Where the legend goes: the foot of the side panel."""
    side = layout.side
    pad = max(6, side.w // 20)
    h = max(60, round(layout.height * 0.11))
    return Rect(side.x + pad, side.y + side.h - h - pad, side.w - 2 * pad, h)


def legend_bar(layout: Layout) -> Rect:
    """The gradient bar inside the legend: column i shows heat(i / (w - 1))."""
    r = legend_rect(layout)
    size = text.px(text.SMALL, layout.height)
    return Rect(r.x, r.y + size + 4, r.w, max(10, r.h - 2 * size - 12))


def paint_legend(surface: Any, layout: Layout, title: str = "Risk: chance of being hit") -> Rect:
    """A cividis gradient bar with 0-100 % ticks under a title; returns the bar's rectangle."""
    r = legend_rect(layout)
    pygame.draw.rect(surface, palette.PANEL, r.as_tuple())
    size = text.px(text.SMALL, layout.height)
    text.draw(surface, title, (r.x, r.y), size, palette.TEXT, max_width=r.w)
    bar = legend_bar(layout)
    for i in range(bar.w):
        colour = palette.heat(i / max(1, bar.w - 1))
        pygame.draw.line(surface, colour, (bar.x + i, bar.y), (bar.x + i, bar.y + bar.h - 1))
    outline_rect(surface, palette.TEXT_DIM, bar.as_tuple(), 1)
    for stop in LEGEND_STOPS:
        x = bar.x + round(stop * (bar.w - 1))
        anchor = "topleft" if stop == 0 else "topright" if stop == 1 else "midtop"
        text.draw(surface, f"{round(stop * 100)}%", (x, bar.y + bar.h + 2), size, palette.TEXT_DIM, anchor=anchor)
    return bar
