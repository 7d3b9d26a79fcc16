"""Where everything goes on the projector: a status strip, the board fitted to the rest, a side panel.

The board's geometry is a *shape* (``companion.views.projector.shapes``): hexes, square cells or a
graph, fitted into the map area at any resolution. ``Layout`` speaks of places, whatever the shape:
``centre``, ``outline`` (``polygon``), ``box``, ``probe`` and ``unit`` (``hex_size`` on a hex board).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from companion.hexgrid import Hex, pixel_centre
from companion.places import Board, HexBoard, Place
from companion.views.projector.shapes import GraphShape, HexShape, Point, Rect, SquareShape, fit

__all__ = ["DEFAULT_SIZE", "Layout", "Rect", "regions"]

DEFAULT_SIZE = (1920, 1080)
STATUS_SHARE = 0.08
"""Height of the status strip as a share of the screen height."""
PANEL_SHARE = 0.27
"""Least width of the side panel (what happened, what is asked, the forecast, the score, the key) as a
share of the screen width; a hex board that fills the height first leaves the panel its spare width."""
PANEL_MAX_SHARE = 0.36
"""The side panel never takes more than this share of the width (the map stays the larger part)."""


def regions(width: int, height: int, side_w: int | None = None) -> tuple[Rect, Rect, Rect]:
    """The status strip, the map area and the side panel at ``width`` x ``height`` (the panel
    ``side_w`` wide, by default its least share)."""
    status_h = max(24, round(height * STATUS_SHARE))
    side_w = max(160, round(width * PANEL_SHARE)) if side_w is None else side_w
    pad = max(4, round(min(width, height) * 0.01))
    status = Rect(0, 0, width, status_h)
    side = Rect(width - side_w, status_h, side_w, height - status_h)
    area = Rect(pad, status_h + pad, width - side_w - 2 * pad, height - status_h - 2 * pad)
    return status, area, side


def hex_span(hexes: list[Hex]) -> float:
    """Width of ``hexes`` at unit circumradius (centres plus one circumradius either side), as
    ``HexShape.fit`` measures it."""
    xs = [pixel_centre(h, 1.0)[0] for h in hexes or [Hex(0, 0)]]
    return max(xs) - min(xs) + 2.0


@dataclass(frozen=True)
class Layout:
    """Screen regions and the place <-> pixel geometry of one board at one resolution."""

    width: int
    height: int
    status: Rect
    map: Rect
    side: Rect
    shape: HexShape | SquareShape | GraphShape

    @classmethod
    def fit(cls, hexes: Iterable[Hex], width: int = DEFAULT_SIZE[0], height: int = DEFAULT_SIZE[1]) -> Layout:
        """The largest hexes that fit ``hexes`` into the map area, centred."""
        return cls._hexes(list(hexes), width, height)

    @classmethod
    def _hexes(cls, hexes: list[Hex], width: int, height: int) -> Layout:
        """Hexes fitted at the panel's least width; a board the height limits gives the width it
        leaves over to the side panel (up to PANEL_MAX_SHARE), at the same hex size."""
        status, area, side = regions(width, height)
        shape = HexShape.fit(hexes, area)
        spare = area.w - hex_span(hexes) * shape.unit
        if spare >= 2:
            wider = min(round(width * PANEL_MAX_SHARE), side.w + math.floor(spare))
            status, area, side = regions(width, height, wider)
            shape = HexShape.fit(hexes, area)
        return cls(width, height, status, area, side, shape)

    @classmethod
    def for_board(cls, board: Board, width: int = DEFAULT_SIZE[0], height: int = DEFAULT_SIZE[1]) -> Layout:
        """``board`` of any shape fitted into the map area (a square grid: what is laid and a margin)."""
        if isinstance(board, HexBoard):
            return cls._hexes(list(board.terrain), width, height)
        status, area, side = regions(width, height)
        return cls(width, height, status, area, side, fit(board, area))

    @property
    def unit(self) -> float:
        """What marks scale by: a hex's circumradius, half a cell's side, a location's radius."""
        return self.shape.unit

    @property
    def hex_size(self) -> float:
        """Circumradius of a hex in pixels (on other shapes: ``unit``, the same role)."""
        return self.shape.unit

    @property
    def origin(self) -> Point:
        """Pixel position of hex (0, 0)'s centre (cell (0, 0)'s on a square grid)."""
        if isinstance(self.shape, GraphShape):
            raise AttributeError("a graph board has no origin: ask centre(Location(key))")
        return self.shape.origin

    def holds(self, place: Place) -> bool:
        """Whether ``place`` is on this board's shape (a cursor on anything else is not drawn)."""
        return self.shape.holds(place)

    def centre(self, place: Place) -> Point:
        return self.shape.centre(place)

    def outline(self, place: Place, scale: float = 1.0) -> list[Point]:
        return self.shape.outline(place, scale)

    def polygon(self, place: Place, scale: float = 1.0) -> list[Point]:
        """The outline (the hex-era name)."""
        return self.shape.outline(place, scale)

    def hex_at(self, x: float, y: float) -> Hex:
        if not isinstance(self.shape, HexShape):
            raise TypeError("hex_at: this board is not a hex grid")
        return self.shape.at(x, y)

    def probe(self, place: Place) -> tuple[int, int]:
        """A pixel inside ``place`` away from its centre marks and from lines joining neighbour centres:
        where fills such as terrain, footprint and risk show plainly."""
        return self.shape.probe(place)

    def box(self, place: Place, scale: float = 1.0) -> Rect:
        """Bounding box of ``place`` (grown by ``scale``), for partial screen updates."""
        return self.shape.box(place, scale)
