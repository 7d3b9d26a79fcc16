"""Frame -> pygame.Surface, redrawing only what changed.

Three layers, each rebuilt only when its input changes:
- the board (terrain, roads, places; any shape) per game, map data and resolution, drawn once and cached
  (a printed board once a game; a square grid again when it grows);
- the map layer (board + risk overlay + the game's marks + side panel) per (state, overlay);
- the cursor and the status strip, drawn over the map layer.
A new state rebuilds the map layer (a full frame); a cursor move or a new prompt touches only the
pixels around the old and new cursor or the status strip, and ``dirty`` lists them, so a display
updates those rectangles alone.
"""

from __future__ import annotations

from typing import Any

import pygame

from companion.games.base import HasRiskMap
from companion.views.projector import palette, text
from companion.views.projector.board import MapData, paint_board, paint_labels, paint_place
from companion.views.projector.cursor import cursor_box, paint_cursor
from companion.views.projector.layout import DEFAULT_SIZE, Layout, Rect
from companion.views.projector.overlay import legend_rect, paint_legend, paint_risk
from companion.views.projector.painters import GamePainter, painter_for
from companion.views.projector.status import paint_status


class _Board:
    """One game's painter, the board its state shows, its layout and static surface at one resolution."""

    def __init__(self, game: Any, painter: GamePainter, data: MapData, size: tuple[int, int]) -> None:
        self.game = game
        self.painter = painter
        self.data = data
        self.layout = Layout.for_board(data.shaped(), *size)
        self.surface = pygame.Surface(size)
        paint_board(self.surface, self.layout, data)


class ProjectorRenderer:
    """Keeps the last frame's layers; ``render(frame)`` returns the surface, ``dirty`` what changed."""

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.size = (int(size[0]), int(size[1]))
        self.surface = pygame.Surface(self.size)
        self.dirty: list[pygame.Rect] = []
        self.full_redraws = 0
        self.partial_updates = 0
        self._board: _Board | None = None
        self._map = pygame.Surface(self.size)
        self._map_key: tuple[Any, Any, bool] | None = None
        self._cursor: Any = None
        self._panel: Any = None
        self._idle = Layout.fit([], *self.size)

    @property
    def layout(self) -> Layout:
        """The layout of the game on screen (an empty board's when no game is chosen)."""
        return self._board.layout if self._board is not None else self._idle

    def board_for(self, game: Any, state: Any = None) -> _Board:
        """The board layer for ``game`` in ``state``: kept while the painter's map data stays the same
        (a printed board: the whole game; a square grid: until a tile is laid)."""
        same_game = self._board is not None and self._board.game is game
        painter = self._board.painter if self._board is not None and same_game else painter_for(game)
        data = painter.map_data(state)
        if self._board is None or not same_game or (data is not self._board.data and data != self._board.data):
            self._board = _Board(game, painter, data, self.size)
        return self._board

    def render(self, frame: Any) -> Any:
        """Bring ``self.surface`` up to ``frame``; ``self.dirty`` lists the rectangles that changed."""
        game, state, overlay = frame.game, frame.state, bool(frame.overlay)
        key = (game, state, overlay)
        old = self._map_key
        if old is None or old[0] is not game or old[1] is not state or old[2] != overlay:
            self._rebuild_map(game, state, overlay)
            self._map_key = key
            self.surface.blit(self._map, (0, 0))
            self._cursor = None
            self._draw_cursor(frame.cursor)
            paint_status(self.surface, self.layout, frame.panel)
            self._panel = frame.panel
            self.dirty = [self.surface.get_rect()]
            self.full_redraws += 1
            return self.surface
        self.dirty = []
        if frame.cursor != self._cursor:
            if self._cursor is not None:
                box = cursor_box(self.layout, self._cursor)
                rect = pygame.Rect(box.as_tuple()).clip(self.surface.get_rect())
                self.surface.blit(self._map, rect, rect)
                self.dirty.append(rect)
            self._cursor = None
            self._draw_cursor(frame.cursor)
        status = pygame.Rect(self.layout.status.as_tuple())
        if frame.panel != self._panel or any(r.colliderect(status) for r in self.dirty):
            paint_status(self.surface, self.layout, frame.panel)
            self._panel = frame.panel
            self.dirty.append(status)
        if self.dirty:
            self.partial_updates += 1
        return self.surface

    def _draw_cursor(self, cursor: Any) -> None:
        if cursor is None or self._board is None or self._map_key is None or self._map_key[0] is None:
            return
        if not self.layout.holds(cursor):  # a place of another shape: nothing to point at
            return
        paint_cursor(self.surface, self.layout, cursor)
        box = cursor_box(self.layout, cursor)
        self.dirty.append(pygame.Rect(box.as_tuple()).clip(self.surface.get_rect()))
        self._cursor = cursor

    def _rebuild_map(self, game: Any, state: Any, overlay: bool) -> None:
        if game is None or state is None:
            self._board = None
            self._paint_idle()
            return
        board = self.board_for(game, state)
        layout = board.layout
        self._map.blit(board.surface, (0, 0))
        if overlay:
            shade = pygame.Surface(self.size, pygame.SRCALPHA)
            shade.fill((*palette.BACKGROUND, 150))  # the terrain steps back so the heat reads alone
            self._map.blit(shade, (0, 0))
            paint_risk(self._map, layout, game.risk_map(state) if isinstance(game, HasRiskMap) else {})
            for place in board.data.places:  # places stay visible above the heat
                paint_place(self._map, layout, place, board.data.mark(place.kind))
        board.painter.paint_state(self._map, layout, state, overlay)
        paint_labels(self._map, layout, board.data)
        side = layout.side
        pygame.draw.rect(self._map, palette.PANEL, side.as_tuple())
        pad = max(6, side.w // 20)
        bottom = legend_rect(layout).y - pad if overlay else side.y + side.h - pad
        inner = Rect(side.x + pad, side.y + pad, side.w - 2 * pad, bottom - side.y - pad)
        board.painter.paint_side(self._map, layout, inner, state)
        if overlay:
            paint_legend(self._map, layout)

    def _paint_idle(self) -> None:
        """No game on the table yet: the name of the box and where to choose."""
        self._map.fill(palette.BACKGROUND)
        w, h = self.size
        text.draw(self._map, "storm companion", (w / 2, h * 0.42), text.px(0.08, h), palette.TEXT, anchor="center",
                  bold=True)
        text.draw(self._map, "choose a game on the box", (w / 2, h * 0.55), text.px(text.BODY, h), palette.TEXT_DIM,
                  anchor="center")


def render_frame(frame: Any, size: tuple[int, int] = DEFAULT_SIZE) -> Any:
    """The frame drawn from scratch on a new surface: the pure form used by snapshots and tests."""
    return ProjectorRenderer(size).render(frame).copy()
