"""Hex boards on the screen: flat-topped hexes through companion.hexgrid, so drawing agrees with the rules.

The hex size is the largest that fits the board's hexes into the map area at any resolution, so the
same board fills a 1280x720 window and a 1920x1080 projector alike.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from companion.hexgrid import Hex, corners, hex_at_pixel, pixel_centre
from companion.places import Place
from companion.views.projector.shapes.base import Point, Rect


@dataclass(frozen=True)
class HexShape:
    unit: float
    """Circumradius of a hex in pixels."""
    origin: Point
    """Pixel position of hex (0, 0)'s centre."""

    @classmethod
    def fit(cls, hexes: Iterable[Hex], area: Rect) -> HexShape:
        """The largest hexes that fit ``hexes`` into ``area``, centred."""
        cells = list(hexes) or [Hex(0, 0)]
        # Extent at unit size: centres plus one circumradius across, half a hex height down.
        xs = [pixel_centre(h, 1.0)[0] for h in cells]
        ys = [pixel_centre(h, 1.0)[1] for h in cells]
        span_x = max(xs) - min(xs) + 2.0
        span_y = max(ys) - min(ys) + math.sqrt(3)
        size = max(2.0, min(area.w / span_x, area.h / span_y))
        used_w, used_h = span_x * size, span_y * size
        ox = area.x + (area.w - used_w) / 2 + size - min(xs) * size
        oy = area.y + (area.h - used_h) / 2 + size * math.sqrt(3) / 2 - min(ys) * size
        return cls(size, (ox, oy))

    def holds(self, place: Place) -> bool:
        return isinstance(place, Hex)

    def centre(self, place: Place) -> Point:
        x, y = pixel_centre(_hex(place), self.unit)
        return x + self.origin[0], y + self.origin[1]

    def outline(self, place: Place, scale: float = 1.0) -> list[Point]:
        return corners(self.centre(place), self.unit * scale)

    def probe(self, place: Place) -> tuple[int, int]:
        """Towards the east corner: no neighbour lies that way, so no line to a neighbour crosses it."""
        x, y = self.centre(place)
        return round(x + 0.62 * self.unit), round(y)

    def box(self, place: Place, scale: float = 1.0) -> Rect:
        x, y = self.centre(place)
        r = self.unit * scale
        return Rect(math.floor(x - r) - 2, math.floor(y - r) - 2, math.ceil(2 * r) + 5, math.ceil(2 * r) + 5)

    def at(self, x: float, y: float) -> Hex:
        return hex_at_pixel(x - self.origin[0], y - self.origin[1], self.unit)


def _hex(place: Place) -> Hex:
    if not isinstance(place, Hex):
        raise TypeError(f"a hex board has no place {place!r}")
    return place
