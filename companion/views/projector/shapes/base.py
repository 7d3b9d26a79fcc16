"""What every board shape answers for the projector: where a place is, its outline, its size on screen.

A *shape* is the pixel geometry of one board fitted into one rectangle of the screen. The views
never ask which shape they hold: they ask ``centre(place)``, ``outline(place)`` and ``box(place)``
and scale their marks by ``unit``, so the cursor, the risk heat, the labels and a game's own marks
are written once for hexes, square cells, graph locations and links alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from companion.places import Place

Point = tuple[float, float]


@dataclass(frozen=True)
class Rect:
    x: int
    y: int
    w: int
    h: int

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.w, self.h)


class Shape(Protocol):
    """One board's geometry at one size. ``unit`` is what marks scale by: a hex's circumradius, half a
    square cell's side, a graph location's radius; a mark drawn at ``0.42 * unit`` fits any of them."""

    unit: float

    def holds(self, place: Place) -> bool:
        """Whether ``place`` is of this shape (a hex on a hex board, a known location on a graph...)."""
        ...

    def centre(self, place: Place) -> Point:
        """The pixel centre of ``place`` (a link's: its middle)."""
        ...

    def outline(self, place: Place, scale: float = 1.0) -> list[Point]:
        """The polygon of ``place`` grown by ``scale``: a hexagon, a square, a circle, a band along a link."""
        ...

    def probe(self, place: Place) -> tuple[int, int]:
        """A pixel inside ``place`` clear of its centre mark and of lines to its neighbours: where a fill
        (terrain, risk) shows plainly, for tests and for a painter placing a small badge."""
        ...


def bounds(points: Sequence[Point], pad: float = 2.0) -> Rect:
    """The whole-pixel rectangle around ``points`` grown by ``pad`` (a line's width, antialiasing)."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, y0 = math.floor(min(xs) - pad), math.floor(min(ys) - pad)
    return Rect(x0, y0, math.ceil(max(xs) + pad) - x0 + 1, math.ceil(max(ys) + pad) - y0 + 1)


def circle(centre: Point, radius: float, steps: int = 32) -> list[Point]:
    """A circle as a polygon, so a location's outline is drawn and filled like any other."""
    x, y = centre
    return [(x + radius * math.cos(2 * math.pi * k / steps), y + radius * math.sin(2 * math.pi * k / steps))
            for k in range(steps)]
