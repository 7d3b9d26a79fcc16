"""Square grids on the screen: cells (x, y), x east and y south, on an open grid that grows.

A growing board is fitted as it stands: the laid cells plus a margin of open cells around them (where
the next tile may go), at least ``MIN_SPAN`` cells each way so the first tiles are not drawn huge.
Each lay may change the cell size; the whole map is redrawn then anyway, as for any new state.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from companion.places import Cell, Place
from companion.views.projector.shapes.base import Point, Rect, bounds

MARGIN = 1
"""Open cells shown around the laid ones."""
MIN_SPAN = 5
"""The fewest cells across and down the map shows."""


@dataclass(frozen=True)
class SquareShape:
    unit: float
    """Half a cell's side in pixels."""
    origin: Point
    """Pixel position of cell (0, 0)'s centre."""

    @classmethod
    def fit(cls, cells: Iterable[Cell], area: Rect, margin: int = MARGIN, min_span: int = MIN_SPAN) -> SquareShape:
        """The largest cells that fit ``cells`` and ``margin`` cells around them into ``area``, centred."""
        laid = list(cells) or [Cell(0, 0)]
        x0, x1 = min(c.x for c in laid) - margin, max(c.x for c in laid) + margin
        y0, y1 = min(c.y for c in laid) - margin, max(c.y for c in laid) + margin
        cols, rows = max(min_span, x1 - x0 + 1), max(min_span, y1 - y0 + 1)
        side = max(4.0, min(area.w / cols, area.h / rows))
        # centre the laid block's middle in the area, whatever the padding up to min_span added
        mid_x, mid_y = (x0 + x1) / 2, (y0 + y1) / 2
        ox = area.x + area.w / 2 - mid_x * side
        oy = area.y + area.h / 2 - mid_y * side
        return cls(side / 2, (ox, oy))

    def holds(self, place: Place) -> bool:
        return isinstance(place, Cell)

    def centre(self, place: Place) -> Point:
        cell = _cell(place)
        return self.origin[0] + cell.x * 2 * self.unit, self.origin[1] + cell.y * 2 * self.unit

    def outline(self, place: Place, scale: float = 1.0) -> list[Point]:
        x, y = self.centre(place)
        r = self.unit * scale
        return [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]

    def probe(self, place: Place) -> tuple[int, int]:
        """Right of the centre and a little up: off the lines to the orthogonal and diagonal neighbours."""
        x, y = self.centre(place)
        return round(x + 0.62 * self.unit), round(y - 0.3 * self.unit)

    def box(self, place: Place, scale: float = 1.0) -> Rect:
        return bounds(self.outline(place, scale))

    def at(self, x: float, y: float) -> Cell:
        side = 2 * self.unit
        return Cell(math.floor((x - self.origin[0]) / side + 0.5), math.floor((y - self.origin[1]) / side + 0.5))


def _cell(place: Place) -> Cell:
    if not isinstance(place, Cell):
        raise TypeError(f"a square grid has no place {place!r}")
    return place
