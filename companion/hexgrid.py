"""Axial hex coordinates for flat-topped hexes (the Red Blob Games convention).

Every board in maps/ uses these coordinates, so rules, risk and drawing agree on where a hex is.
Directions are named by compass point: with flat tops, a hex has neighbours to the N and S
but not to the E and W.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import NamedTuple


class Hex(NamedTuple):
    """One hex in axial coordinates (q grows to the east, r to the south-east/south)."""

    q: int
    r: int

    def __add__(self, other: object) -> Hex:
        if not isinstance(other, tuple):
            return NotImplemented
        return Hex(self.q + other[0], self.r + other[1])

    @property
    def s(self) -> int:
        """The third cube coordinate, derived so that q + r + s == 0."""
        return -self.q - self.r

    def neighbour(self, direction: str) -> Hex:
        """The adjacent hex in a compass direction (N, NE, SE, S, SW, NW)."""
        dq, dr = DIRECTIONS[direction]
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> list[Hex]:
        return [self.neighbour(d) for d in DIRECTION_NAMES]

    def distance(self, other: Hex) -> int:
        return (abs(self.q - other.q) + abs(self.r - other.r) + abs(self.s - other.s)) // 2

    def within(self, radius: int) -> Iterator[Hex]:
        """Every hex at distance <= radius, this one included (a storm's footprint)."""
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                yield Hex(self.q + dq, self.r + dr)

    def to_dict(self) -> dict[str, int]:
        return {"q": self.q, "r": self.r}


DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (0, -1),
    "NE": (1, -1),
    "SE": (1, 0),
    "S": (0, 1),
    "SW": (-1, 1),
    "NW": (-1, 0),
}
DIRECTION_NAMES: tuple[str, ...] = tuple(DIRECTIONS)


def pixel_centre(h: Hex, size: float) -> tuple[float, float]:
    """Centre of a flat-topped hex in pixels, for a hex of circumradius ``size`` at origin (0, 0)."""
    x = size * 1.5 * h.q
    y = size * math.sqrt(3) * (h.r + h.q / 2)
    return x, y


def corners(centre: tuple[float, float], size: float) -> list[tuple[float, float]]:
    """The six corners of a flat-topped hex, for drawing."""
    cx, cy = centre
    return [
        (cx + size * math.cos(math.radians(60 * i)), cy + size * math.sin(math.radians(60 * i)))
        for i in range(6)
    ]


def hex_at_pixel(x: float, y: float, size: float) -> Hex:
    """The hex under a pixel (inverse of :func:`pixel_centre`), rounded to the nearest hex."""
    q = (2 / 3 * x) / size
    r = (-1 / 3 * x + math.sqrt(3) / 3 * y) / size
    return _round(q, r)


def _round(qf: float, rf: float) -> Hex:
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)
