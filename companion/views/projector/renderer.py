"""Frame -> pygame.Surface, redrawing only what changed.

Three layers, each brought up to date only as far as its input changed:
- the board (terrain, roads, places; any shape) per game, map data and resolution, drawn once and cached
  (a printed board once a game; a square grid again when it grows), with a shaded copy for the overlay;
- the map layer: the board under the state's pieces (risk heat, the game's marks, the names, the side
  panel; :mod:`companion.views.projector.pieces`). A new state repaints only the rectangles of the
  pieces that changed: a roll's few marks and panel lines, not the whole frame. A new game, board,
  resolution or overlay setting repaints it all;
- the cursor and the status strip, drawn over the map layer.
Pieces come in groups (a track, the marker stacks, a block of panel lines, the status strip); a group that
is the same object as in the last frame is not compared piece by piece (:func:`pieces.compare`), so a
roll pays for the few groups it changed, not for every piece on the screen.
``dirty`` lists the rectangles of the surface that changed, so a display updates those alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import pygame

from companion.conforms import conforms
from companion.views.drawn import NOTHING
from companion.views.projector import palette, text
from companion.views.projector.cursor import cursor_box, paint_cursor
from companion.views.projector.join import join_groups
from companion.views.projector.layout import DEFAULT_SIZE, Layout, Rect
from companion.views.projector.pieces import (
    Group,
    PaintsGroups,
    Piece,
    Shown,
    compare,
    paint_all,
    rect_of,
    rects_of,
    repaint,
    shown,
)
from companion.views.projector.status import status_groups

if TYPE_CHECKING:  # a game's board, painter and overlay are imported with its first frame: the box's start shows none
    from companion.views.projector.board import MapData
    from companion.views.projector.painters import GamePainter, LoadsPainter

SHADE_ALPHA = 150
"""How far the terrain steps back under the risk overlay, so the heat reads alone."""


class _Board:
    """One game's painter, the board its state shows, its layout and static surfaces at one resolution."""

    def __init__(self, game: Any, painter: GamePainter, data: MapData, size: tuple[int, int]) -> None:
        from companion.views.projector.board import label_pieces, paint_board, paint_place

        self.game = game
        self.painter = painter
        self.data = data
        self.layout = Layout.for_board(data.shaped(), *size)
        self.surface = pygame.Surface(size)
        paint_board(self.surface, self.layout, data)
        pygame.draw.rect(self.surface, palette.PANEL, self.layout.side.as_tuple())
        self.labels: Group = tuple(label_pieces(self.layout, data))
        """The names, placed once (a name that would overlap another goes under its mark)."""
        self.spots: Group = tuple(Piece(("spot", place), rect_of(self.layout.box(place.at, 0.6), 2),
                            lambda s, place=place: paint_place(s, self.layout, place, data.mark(place.kind)))
                      for place in data.places)
        """The places' marks again above the risk heat."""
        self._shaded: Any = None
        self.outlines: dict[Any, Any] = {}
        """Each place's risk outline and rectangle, worked out once (see overlay.risk_pieces)."""

    def base(self, overlay: bool) -> Any:
        """The board as every frame starts from: shaded under the overlay (made once, when first asked)."""
        if not overlay:
            return self.surface
        if self._shaded is None:
            from companion.views.projector.overlay import paint_legend

            self._shaded = self.surface.copy()
            shade = pygame.Surface(self.surface.get_size(), pygame.SRCALPHA)
            shade.fill((*palette.BACKGROUND, SHADE_ALPHA))
            self._shaded.blit(shade, (0, 0))
            pygame.draw.rect(self._shaded, palette.PANEL, self.layout.side.as_tuple())
            paint_legend(self._shaded, self.layout)
        return self._shaded


def side_inner(layout: Layout, overlay: bool) -> Rect:
    """The side panel's writing area: inside its margin, above the risk legend when that is shown."""
    from companion.views.projector.overlay import legend_rect

    side = layout.side
    pad = max(6, side.w // 20)
    bottom = legend_rect(layout).y - pad if overlay else side.y + side.h - pad
    return Rect(side.x + pad, side.y + pad, side.w - 2 * pad, bottom - side.y - pad)


class ProjectorRenderer:
    """Keeps the last frame's pieces; ``render(frame)`` returns the surface, ``dirty`` what changed."""

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, surface: Any = None) -> None:
        """``surface``: where the frames are drawn, of ``size``: SDL's screen, so that a frame is drawn in place
        and not copied there afterwards (:mod:`~companion.views.projector.view`); None: a surface of its own."""
        if not pygame.font.get_init():
            pygame.font.init()
        self.size = (int(size[0]), int(size[1]))
        self.surface = surface if surface is not None else pygame.Surface(self.size)
        self.dirty: list[pygame.Rect] = []
        self.full_redraws = 0
        self.partial_updates = 0
        self._board: _Board | None = None
        self._scratch: Any = None
        """Where a damaged rectangle touched by a piece that does not clip is repainted whole before being copied to
        the surface (made when first needed, :meth:`_scratch_surface`: most games' pieces all clip); its pages go
        back to the system while the table rests (:meth:`rest`)."""
        self._map_key: tuple[Any, Any, bool, tuple[str, ...]] | None = None
        self._map_groups: list[Group] = []
        """The groups of pieces of the game's state (everything but the cursor and the status strip)."""
        self._map_pieces: list[Piece] = []
        """The same pieces in one list, in drawing order (made once per state: a repaint walks them)."""
        self._drawn: tuple[_Board | None, bool, list[Piece], Shown] | None = None
        """The board, overlay setting, pieces and groups the surface shows now."""
        self._generation = 0
        self._idle = Layout.fit([], *self.size)

    @property
    def layout(self) -> Layout:
        """The layout of the game on screen (an empty board's when no game is chosen)."""
        return self._board.layout if self._board is not None else self._idle

    @property
    def shown_pieces(self) -> list[Piece]:
        """The pieces the surface shows now, in drawing order."""
        return list(self._drawn[2]) if self._drawn is not None else []

    def board_for(self, game: Any, state: Any = None, painter: LoadsPainter | None = None) -> _Board:
        """The board layer for ``game`` in ``state``, drawn by ``painter`` (the frame's; None: the shared one):
        kept while the painter's map data stays the same (a printed board: the whole game; a square grid: until
        a tile is laid)."""
        from companion.views.projector.painters import painter_for

        same_game = self._board is not None and self._board.game is game
        drawing = self._board.painter if self._board is not None and same_game else painter_for(game, painter)
        data = drawing.map_data(state)
        if self._board is None or not same_game or (data is not self._board.data and data != self._board.data):
            self._board = _Board(game, drawing, data, self.size)
        return self._board

    def render(self, frame: Any) -> Any:
        """Bring ``self.surface`` up to ``frame``; ``self.dirty`` lists the rectangles that changed."""
        game, state, overlay = frame.game, frame.state, bool(frame.overlay)
        seats = tuple(getattr(frame, "seats", ()))
        old = self._map_key
        if old is None or old[0] is not game or old[1] is not state or old[2] != overlay or old[3] != seats:
            if game is None or state is None:
                self._board = None
                self._map_groups = [(Piece(("idle",), pygame.Rect(0, 0, *self.size), self._paint_idle),)]
            else:
                from companion.views.projector.painters import UsesDrawn

                self._generation += 1
                layer = self.board_for(game, state, getattr(frame, "painter", None))
                if conforms(layer.painter, UsesDrawn):  # the session's answers for this state, before its marks
                    cast(UsesDrawn, layer.painter).use(getattr(frame, "drawn", NOTHING))
                self._map_groups = self.groups(layer, state, overlay, getattr(frame, "risk", {}))
            self._map_pieces = [p for g in self._map_groups for p in g]
            self._map_key = (game, state, overlay, seats)
        board: _Board | None = self._board
        over = self._over(frame)
        groups = [*self._map_groups, *over]
        pieces = [*self._map_pieces, *(p for g in over for p in g)]
        base = board.base(overlay) if board is not None else None
        screen = self.surface.get_rect()
        drawn = self._drawn
        if drawn is None or drawn[0] is not board or drawn[1] != overlay:
            now, rects = shown(groups), [screen]
        else:
            now, changed = compare(drawn[3], groups)
            rects = rects_of(changed, screen)
        if rects == [screen]:
            paint_all(self.surface, base, pieces)
            self.full_redraws += 1
        elif rects:
            repaint(self.surface, base, pieces, rects, self._scratch_surface)
            self.partial_updates += 1
        self._drawn = (board, overlay, pieces, now)
        self.dirty = rects
        return self.surface

    def _scratch_surface(self) -> Any:
        """Where a rectangle touched by a piece that does not clip is repainted (pieces.repaint), made when first
        needed: at 1080p another 8 MB, which a frame of pieces that all clip never asks for."""
        if self._scratch is None:
            self._scratch = pygame.Surface(self.size, 0, self.surface)
        return self._scratch

    def rest(self) -> int:
        """The table rests: the repaint scratch's pages go back to the system (:mod:`companion.views.release`),
        the surface kept for the next repaint. Returns the bytes given back."""
        from companion.views.release import give_back_pixels

        return give_back_pixels(self._scratch) if self._scratch is not None else 0

    def _over(self, frame: Any) -> list[Group]:
        """The cursor (when it points at a place of this board) and the status strip, above the map."""
        layout = self.layout
        groups: list[Group] = []
        cursor = frame.cursor
        if cursor is not None and self._board is not None and layout.holds(cursor):
            box = pygame.Rect(cursor_box(layout, cursor).as_tuple())
            groups.append((Piece(("cursor", cursor), box, lambda s: paint_cursor(s, layout, cursor)),))
        return groups + status_groups(layout, frame.panel) + join_groups(layout, frame.panel)

    def groups(self, board: _Board, state: Any, overlay: bool, risk: Any = None) -> list[Group]:
        """Everything the map layer shows over the board for ``state``, in drawing order and in groups: the
        risk heat and the places again above it (overlay), the game's marks, the names and the side panel's
        lines (its background, and the legend under the overlay, are part of the board's base). A painter's
        own groups (:class:`PaintsGroups`) are kept while unchanged; a painter without them gives each list of
        pieces as one group (compared piece by piece on every new state). ``risk`` is the frame's risk map
        (place -> chance of being hit), worked out by the session: the renderer asks the rules nothing."""
        from companion.views.projector.overlay import risk_pieces
        from companion.views.projector.painters import PaintsPieces

        layout, painter = board.layout, board.painter
        groups: list[Group] = []
        if overlay:
            groups.append(_group(risk_pieces(layout, risk or {}, board.outlines)))
            groups.append(board.spots)
        whole = pygame.Rect(0, 0, *self.size)
        inner = side_inner(layout, overlay)
        if conforms(painter, PaintsGroups):
            painted = cast(PaintsGroups, painter)
            return [*groups, *painted.state_groups(layout, state, overlay), board.labels,
                    *painted.side_groups(layout, inner, state)]
        if conforms(painter, PaintsPieces):
            groups.append(_group(cast(PaintsPieces, painter).state_pieces(layout, state, overlay)))
        else:  # a painter of the whole map: all of it again on every new state (its drawing unknown: not clipped)
            groups.append((Piece(("state", self._generation), whole,
                                 lambda s: painter.paint_state(s, layout, state, overlay), clips=False),))
        groups.append(board.labels)
        if conforms(painter, PaintsPieces):
            groups.append(_group(cast(PaintsPieces, painter).side_pieces(layout, inner, state)))
        else:
            groups.append((Piece(("panel", self._generation), rect_of(layout.side),
                                 lambda s: painter.paint_side(s, layout, inner, state), clips=False),))
        return groups

    def _paint_idle(self, surface: Any) -> None:
        """No game on the table yet: the name of the box and where to choose."""
        surface.fill(palette.BACKGROUND)
        w, h = self.size
        text.draw(surface, "storm companion", (w / 2, h * 0.42), text.px(0.08, h), palette.TEXT, anchor="center",
                  bold=True)
        text.draw(surface, "choose a game on the box", (w / 2, h * 0.55), text.px(text.BODY, h), palette.TEXT_DIM,
                  anchor="center")


def _group(pieces: Any) -> Group:
    """``pieces`` as a group: a tuple given is kept as it is (the same object for the same pixels), a list
    becomes a new tuple (compared piece by piece)."""
    return pieces if isinstance(pieces, tuple) else tuple(pieces)


def render_frame(frame: Any, size: tuple[int, int] = DEFAULT_SIZE) -> Any:
    """The frame drawn from scratch on a new surface: the pure form used by snapshots and tests."""
    return ProjectorRenderer(size).render(frame).copy()
