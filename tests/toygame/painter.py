"""The toy game's own painter, built on the shared parts: the board painter's board and key, plus a
numbered disc on each laid tile (the order it was laid) and the tile in hand in the side panel."""

from __future__ import annotations

from typing import Any

from companion.views.projector import palette, text
from companion.views.projector.key import paint_key
from companion.views.projector.layout import Layout, Rect
from companion.views.projector.marks import draw_mark
from companion.views.projector.painters import BoardPainter

ORDER = palette.OKABE_ITO[4]
"""Reddish purple: the lay-order discs."""


class Painter(BoardPainter):
    def paint_state(self, surface: Any, layout: Layout, state: Any, overlay: bool = False) -> None:
        for n, (cell, _kind) in enumerate(state.tiles[1:], start=1):
            centre = layout.centre(cell)
            draw_mark(surface, "circle", centre, layout.unit * 0.3, ORDER)
            text.draw(surface, str(n), centre, text.px(0.02, layout.height), palette.CITY_EDGE, anchor="center",
                      bold=True)

    def paint_side(self, surface: Any, layout: Layout, rect: Rect, state: Any) -> None:
        y = paint_key(surface, layout, rect, self.map_data(state))
        words = f"In hand: {state.drawn}" if state.drawn else "In hand: nothing"
        text.draw(surface, words, (rect.x, y + 8), text.px(text.SMALL, layout.height), palette.TEXT,
                  max_width=rect.w)
