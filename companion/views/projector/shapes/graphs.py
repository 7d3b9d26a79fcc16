"""Graph boards on the screen: named locations where the board's data puts them, links as lines.

Site positions are board units (x east, y south) scaled uniformly into the map area. ``unit`` is
half the distance between the two closest locations, so two locations' outlines never touch and a
mark drawn at ``0.42 * unit`` never covers a neighbour. A link's outline is a band between the rims
of its two locations; its centre is its middle.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

from companion.places import Link, Location, Place, Site
from companion.views.projector.shapes.base import Point, Rect, bounds, circle

RADIUS = 0.6
"""A location's outline, in units: wider than its mark (0.42), clear of its neighbours (1.0)."""
BAND = 0.16
"""Half the width of a link's outline, in units."""
MAX_UNIT_SHARE = 0.08
"""A graph of few locations still draws them at most this share of the map's shorter side."""
PAD = 1.6
"""Room kept around the outermost locations, in units: their outline and a name above them."""


@dataclass(frozen=True)
class GraphShape:
    unit: float
    points: Mapping[str, Point]
    """Pixel centre of each location, by key."""

    @classmethod
    def fit(cls, sites: Mapping[str, Site], area: Rect) -> GraphShape:
        """Scale the sites' positions uniformly into ``area`` with room for outlines and names, centred."""
        if not sites:
            return cls(max(4.0, min(area.w, area.h) * MAX_UNIT_SHARE), {})
        xs = [s.x for s in sites.values()]
        ys = [s.y for s in sites.values()]
        span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
        closest = min((math.dist((a.x, a.y), (b.x, b.y)) for a, b in combinations(sites.values(), 2)),
                      default=0.0)
        cap = min(area.w, area.h) * MAX_UNIT_SHARE
        # unit = min(cap, closest * scale / 2) and PAD units each side: span * scale + 2 * PAD * unit <= room
        # holds up to the larger of the two scales below (each assumes one side of the min)
        scale = math.inf
        for span, room in ((span_x, area.w), (span_y, area.h)):
            if span > 0:
                scale = min(scale, max(room / (span + PAD * closest), (room - 2 * PAD * cap) / span))
        if not math.isfinite(scale) or scale <= 0:
            scale = 1.0
        unit = max(3.0, min(cap, closest * scale / 2)) if closest > 0 else cap
        ox = area.x + area.w / 2 - (min(xs) + span_x / 2) * scale
        oy = area.y + area.h / 2 - (min(ys) + span_y / 2) * scale
        return cls(unit, {k: (ox + s.x * scale, oy + s.y * scale) for k, s in sites.items()})

    def holds(self, place: Place) -> bool:
        if isinstance(place, Location):
            return place.key in self.points
        return isinstance(place, Link) and place.a in self.points and place.b in self.points

    def centre(self, place: Place) -> Point:
        if isinstance(place, Location):
            return self.points[place.key]
        if isinstance(place, Link):
            (ax, ay), (bx, by) = self.points[place.a], self.points[place.b]
            return (ax + bx) / 2, (ay + by) / 2
        raise TypeError(f"a graph board has no place {place!r}")

    def ends(self, link: Link) -> tuple[Point, Point]:
        """Where a link leaves its two locations' rims (drawn lines stop there, not at the centres)."""
        (ax, ay), (bx, by) = self.points[link.a], self.points[link.b]
        length = math.hypot(bx - ax, by - ay) or 1.0
        cut = min(RADIUS * self.unit, length / 2) / length
        return (ax + (bx - ax) * cut, ay + (by - ay) * cut), (bx - (bx - ax) * cut, by - (by - ay) * cut)

    def outline(self, place: Place, scale: float = 1.0) -> list[Point]:
        if isinstance(place, Link):
            (ax, ay), (bx, by) = self.ends(place)
            length = math.hypot(bx - ax, by - ay) or 1.0
            nx, ny = -(by - ay) / length * BAND * self.unit * scale, (bx - ax) / length * BAND * self.unit * scale
            return [(ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny)]
        return circle(self.centre(place), RADIUS * self.unit * scale)

    def probe(self, place: Place) -> tuple[int, int]:
        """A link: its middle. A location: inside its outline, outside its mark, in the direction
        farthest from any of its links."""
        x, y = self.centre(place)
        if isinstance(place, Link):
            return round(x), round(y)
        away = [math.atan2(py - y, px - x) for k, (px, py) in self.points.items()
                if k != getattr(place, "key", None)]

        def clearance(angle: float) -> float:
            return min((abs(math.remainder(angle - a, 2 * math.pi)) for a in away), default=math.pi)

        best = max((2 * math.pi * k / 16 for k in range(16)), key=clearance)
        r = (0.42 + RADIUS) / 2 * self.unit
        return round(x + r * math.cos(best)), round(y + r * math.sin(best))

    def box(self, place: Place, scale: float = 1.0) -> Rect:
        return bounds(self.outline(place, scale))
