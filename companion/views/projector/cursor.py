"""The cursor: a thick ring around the place the buttons point at (a hex, a cell, a location), or a
thick highlight along a link.

Drawn in white over a dark edge so it reads on every terrain and heat colour.
"""

from __future__ import annotations

from typing import Any

import pygame

from companion.places import Link, Location, Place
from companion.views.projector import palette
from companion.views.projector.layout import Layout, Rect
from companion.views.projector.shapes import GraphShape, bounds

RING_SCALE = 1.08


def _width(layout: Layout) -> int:
    return max(3, round(layout.unit * 0.14))


def _link_ends(layout: Layout, link: Link) -> tuple[tuple[float, float], tuple[float, float]]:
    if isinstance(layout.shape, GraphShape):
        return layout.shape.ends(link)
    return layout.centre(Location(link.a)), layout.centre(Location(link.b))


def paint_cursor(surface: Any, layout: Layout, place: Place) -> None:
    w = _width(layout)
    if isinstance(place, Link):
        a, b = _link_ends(layout, place)
        pygame.draw.line(surface, palette.CITY_EDGE, a, b, 2 * w + 4)
        pygame.draw.line(surface, palette.CURSOR, a, b, 2 * w)
        return
    pygame.draw.polygon(surface, palette.CITY_EDGE, layout.outline(place, RING_SCALE), w + 4)
    pygame.draw.polygon(surface, palette.CURSOR, layout.outline(place, RING_SCALE), w)


def cursor_box(layout: Layout, place: Place) -> Rect:
    """The pixels a cursor at ``place`` may touch (to restore them when it moves)."""
    if isinstance(place, Link):
        return bounds(_link_ends(layout, place), pad=_width(layout) + 4)
    return layout.box(place, RING_SCALE + 0.2)
