"""Drawing primitives the board painters and the games' painters share: mark shapes and patterned lines.

Each mark is a shape with a dark edge so it reads on every fill and heat colour; a line may be dashed
(a link's kind shows in its pattern as well as its colour).
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from companion.views.projector import palette
from companion.views.projector.palette import Colour
from companion.views.projector.shapes.base import Point


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
