"""Where everything goes on the projector: a status strip, the map fitted to the rest, a side panel.

The hex size is the largest that fits the board's hexes into the map area at any resolution, so
the same board fills a 1280x720 laptop window and a 1920x1080 projector alike. Hex <-> pixel goes
through companion.hexgrid so drawing agrees with the rules about where a hex is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from companion.hexgrid import Hex, corners, hex_at_pixel, pixel_centre

DEFAULT_SIZE = (1920, 1080)
STATUS_SHARE = 0.065
"""Height of the status strip as a share of the screen height."""
PANEL_SHARE = 0.24
"""Width of the side panel (forecast cards, chart, legend) as a share of the screen width."""


@dataclass(frozen=True)
class Rect:
    x: int
    y: int
    w: int
    h: int

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.w, self.h)


@dataclass(frozen=True)
class Layout:
    """Screen regions and the hex <-> pixel transform for one board at one resolution."""

    width: int
    height: int
    status: Rect
    map: Rect
    side: Rect
    hex_size: float
    """Circumradius of a hex in pixels."""
    origin: tuple[float, float]
    """Pixel position of hex (0, 0)'s centre."""

    @classmethod
    def fit(cls, hexes: Iterable[Hex], width: int = DEFAULT_SIZE[0], height: int = DEFAULT_SIZE[1]) -> Layout:
        """The largest hexes that fit ``hexes`` into the map area, centred."""
        status_h = max(24, round(height * STATUS_SHARE))
        side_w = max(160, round(width * PANEL_SHARE))
        pad = max(4, round(min(width, height) * 0.01))
        status = Rect(0, 0, width, status_h)
        side = Rect(width - side_w, status_h, side_w, height - status_h)
        area = Rect(pad, status_h + pad, width - side_w - 2 * pad, height - status_h - 2 * pad)
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
        return cls(width, height, status, area, side, size, (ox, oy))

    def centre(self, h: Hex) -> tuple[float, float]:
        x, y = pixel_centre(h, self.hex_size)
        return x + self.origin[0], y + self.origin[1]

    def polygon(self, h: Hex, scale: float = 1.0) -> list[tuple[float, float]]:
        return corners(self.centre(h), self.hex_size * scale)

    def hex_at(self, x: float, y: float) -> Hex:
        return hex_at_pixel(x - self.origin[0], y - self.origin[1], self.hex_size)

    def probe(self, h: Hex) -> tuple[int, int]:
        """A pixel inside ``h`` away from its centre marks and from lines joining neighbour centres
        (towards the east corner): where fills such as terrain, footprint and risk show plainly."""
        x, y = self.centre(h)
        return round(x + 0.62 * self.hex_size), round(y)

    def box(self, h: Hex, scale: float = 1.0) -> Rect:
        """Bounding box of a hex (grown by ``scale``), for partial screen updates."""
        x, y = self.centre(h)
        r = self.hex_size * scale
        return Rect(math.floor(x - r) - 2, math.floor(y - r) - 2, math.ceil(2 * r) + 5, math.ceil(2 * r) + 5)
