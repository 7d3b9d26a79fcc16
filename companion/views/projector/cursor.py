"""The cursor: a thick ring around the hex the buttons point at (a forecast, a marker, a defence).

Drawn in white with a dark inner ring so it reads on every terrain and heat colour.
"""

from __future__ import annotations

from typing import Any

import pygame

from companion.hexgrid import Hex
from companion.views.projector import palette
from companion.views.projector.layout import Layout, Rect

RING_SCALE = 1.08


def paint_cursor(surface: Any, layout: Layout, h: Hex) -> None:
    w = max(3, round(layout.hex_size * 0.14))
    pygame.draw.polygon(surface, palette.CITY_EDGE, layout.polygon(h, RING_SCALE), w + 4)
    pygame.draw.polygon(surface, palette.CURSOR, layout.polygon(h, RING_SCALE), w)


def cursor_box(layout: Layout, h: Hex) -> Rect:
    """The pixels a cursor at ``h`` may touch (to restore them when it moves)."""
    return layout.box(h, RING_SCALE + 0.2)
