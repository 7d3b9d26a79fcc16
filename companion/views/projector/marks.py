"""Drawing primitives the board painters and the games' painters share: mark shapes and patterned lines.

Each mark is a shape with a dark edge so it reads on every fill and heat colour; a line may be dashed
(a link's kind shows in its pattern as well as its colour).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

import pygame

from companion.views.projector import palette
from companion.views.projector.palette import Colour
from companion.views.projector.shapes.base import Point


def outline_rect(surface: Any, colour: Colour, rect: Any, width: int) -> None:
    """``pygame.draw.rect(surface, colour, rect, width)`` drawn as fills: the same pixels for a rectangle inside the
    surface, and the same through a clip, which pygame's outlined rectangle is not (it draws the border at the clip's
    edge, and at the surface's). The renderer repaints a changed rectangle through a clip (pieces.Piece.clips), so the
    painters draw outlines with this. A width of 0 fills the rectangle, as pygame's does."""
    r = pygame.Rect(rect)
    if width <= 0 or 2 * width >= min(r.w, r.h):  # the border meets itself: pygame fills the whole rectangle
        surface.fill(colour, r)
        return
    surface.fill(colour, (r.x, r.y, r.w, width))
    surface.fill(colour, (r.x, r.bottom - width, r.w, width))
    surface.fill(colour, (r.x, r.y + width, width, r.h - 2 * width))
    surface.fill(colour, (r.right - width, r.y + width, width, r.h - 2 * width))


@contextmanager
def clipped(surface: Any, rect: Any) -> Iterator[None]:
    """Drawing on ``surface`` kept inside ``rect`` as well as inside the clip it already has (a piece may be drawn
    through the repaint's clip: setting its own would let it draw past it), the clip put back after."""
    before = surface.get_clip()
    surface.set_clip(pygame.Rect(rect).clip(before))
    try:
        yield
    finally:
        surface.set_clip(before)


def mark_points(shape: str, centre: Point, r: float) -> list[Point]:
    """The polygon of a mark of ``shape`` (not "circle") with circumradius ``r`` around ``centre``."""
    x, y = centre
    if shape == "square":
        h = r * 0.75
        return [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]
    if shape == "diamond":
        return [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
    if shape == "triangle":
        return [(x, y - r), (x + r * 0.87, y + r * 0.5), (x - r * 0.87, y + r * 0.5)]
    if shape == "star":
        return [(x + (r if k % 2 == 0 else r * 0.45) * math.cos(math.pi * k / 5 - math.pi / 2),
                 y + (r if k % 2 == 0 else r * 0.45) * math.sin(math.pi * k / 5 - math.pi / 2)) for k in range(10)]
    # hexagon, and anything unknown
    return [(x + r * math.cos(math.pi * k / 3), y + r * math.sin(math.pi * k / 3)) for k in range(6)]


def draw_mark(surface: Any, shape: str, centre: Point, r: float, fill: Colour = palette.CITY,
              edge: Colour = palette.CITY_EDGE, width: int = 2) -> None:
    """A filled mark with an edge: circle, square, diamond, triangle, hexagon or star."""
    if shape == "circle":
        c = (round(centre[0]), round(centre[1]))
        pygame.draw.circle(surface, fill, c, round(r))
        pygame.draw.circle(surface, edge, c, round(r), width)
        return
    pts = mark_points(shape, centre, r)
    pygame.draw.polygon(surface, fill, pts)
    pygame.draw.polygon(surface, edge, pts, width)


def draw_line(surface: Any, a: Point, b: Point, colour: Colour, width: int, dash: tuple[int, ...] = (),
              casing: Colour | None = palette.CITY_EDGE) -> None:
    """A line from ``a`` to ``b``, solid or dashed (``dash``: on, off, ... in line widths), over a dark
    casing so it reads on any background."""
    if casing is not None:
        pygame.draw.line(surface, casing, a, b, width + 4)
    if not dash:
        pygame.draw.line(surface, colour, a, b, width)
        return
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    at, k = 0.0, 0
    while at < length:
        step = dash[k % len(dash)] * width
        if k % 2 == 0:
            end = min(length, at + step)
            pygame.draw.line(surface, colour, (a[0] + ux * at, a[1] + uy * at), (a[0] + ux * end, a[1] + uy * end),
                             width)
        at += step
        k += 1


def shadow_offset(r: float) -> int:
    """How far a mark's drop shadow falls (down and right), for a mark of radius ``r``."""
    return max(1, round(r * 0.18))


def draw_shadow(surface: Any, shape: str, centre: Point, r: float) -> None:
    """A soft dark copy of a mark, offset down and right, drawn first so the mark stands off any terrain."""
    d = shadow_offset(r)
    layer = shadow_layer(shape, r)
    size = layer.get_width()
    surface.blit(layer, (round(centre[0] - size / 2 + d), round(centre[1] - size / 2 + d)))


@lru_cache(maxsize=64)
def shadow_layer(shape: str, r: float) -> Any:
    """The translucent shadow of a mark of ``shape`` and radius ``r``, centred in its own square, kept: the
    same few marks are drawn again on every repaint (a stack's discs, a track's start), and making the
    layer cost more than blitting it. 64 layers of a few KB each. Never drawn on once made."""
    d = shadow_offset(r)
    size = math.ceil(2 * r) + 2 * d + 4
    layer = pygame.Surface((size, size), pygame.SRCALPHA)
    local = (size / 2, size / 2)
    if shape == "circle":
        pygame.draw.circle(layer, palette.SHADOW, (round(local[0]), round(local[1])), round(r))
    else:
        pygame.draw.polygon(layer, palette.SHADOW, mark_points(shape, local, r))
    return layer


def draw_token(surface: Any, shape: str, centre: Point, r: float, fill: Colour = palette.CITY,
               edge: Colour = palette.CITY_EDGE, width: int = 2) -> None:
    """A mark standing on the board: its drop shadow, then the mark with its dark edge."""
    draw_shadow(surface, shape, centre, r)
    draw_mark(surface, shape, centre, r, fill, edge, width)


def draw_polyline(surface: Any, points: list[Point], colour: Colour, width: int,
                  casing: Colour | None = palette.CITY_EDGE) -> None:
    """A track over a dark casing, round at every bend, so it holds on plains, sea and heat alike."""
    if len(points) < 2:
        return
    layers = ((casing, width + 4), (colour, width)) if casing is not None else ((colour, width),)
    for c, w in layers:
        pygame.draw.lines(surface, c, False, points, w)
        for x, y in points:
            pygame.draw.circle(surface, c, (round(x), round(y)), max(1, w // 2))
