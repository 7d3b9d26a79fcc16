"""The static board of any shape: areas (hexes, cells) by kind, open cells, links, roads and named spots.

Each game's painter describes its board as :class:`MapData`: a hex painter lists its printed board's
terrain, spots and roads; a game whose engine has ``board_for(state)`` gets it from
:meth:`MapData.of`. This module knows nothing of any game. The result is cached by the renderer
(redrawn only when the map data changes: a square grid grows) and every frame starts from a copy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import pygame

from companion.hexgrid import Hex
from companion.places import Board, Cell, GraphBoard, HexBoard, Location, Place, SquareBoard
from companion.views.projector import palette, text, textures
from companion.views.projector.layout import Layout
from companion.views.projector.marks import draw_line, draw_mark, outline_rect
from companion.views.projector.pieces import Piece
from companion.views.projector.shapes import GraphShape
from companion.views.projector.symbols import Symbols, symbols_for

OPEN_SCALE = 0.86
"""An open cell (where the board may grow) is an outline a little inside the cell."""
LINK_WIDTH = 0.14
"""A link's line width, in units."""


@dataclass(frozen=True)
class Spot:
    """A named spot on the board: a "city" (large, named in big type), a "town" (small), or any kind of
    location a graph board has (its mark shape from the map's symbols)."""

    name: str
    at: Place
    kind: str = "city"
    label: bool = True
    """Whether the name is printed (a city's secondary spaces carry only a mark)."""


@dataclass(frozen=True)
class MapData:
    """What the board painter needs: the areas' kinds, the spots, roads as place polylines, and for a
    board from ``board_for`` the board itself (links, open cells) and its symbols."""

    terrain: Mapping[Any, str]
    """Area places (hexes, cells) -> kind."""
    places: tuple[Spot, ...] = ()
    roads: tuple[tuple[Any, ...], ...] = ()
    title: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    board: Board | None = None
    """The board of any shape; None: a hex board made of ``terrain``."""
    symbols: Symbols | None = None
    """Kinds -> symbols (and a key in the side panel); None: the hex boards' terrain colours, no letters."""
    rivers: tuple[tuple[Any, ...], ...] = ()
    """Each river as the areas it runs through, source to mouth (drawn as a line through them)."""

    @property
    def hexes(self) -> list[Hex]:
        return [h for h in self.terrain if isinstance(h, Hex)]

    def shaped(self) -> Board:
        """The board the layout is fitted to."""
        if self.board is not None:
            return self.board
        # cast: a frozen dataclass's ``shape`` is read-only, the Board protocol's is declared plainly
        return cast(Board, HexBoard({h: k for h, k in self.terrain.items() if isinstance(h, Hex)}))

    def mark(self, kind: str) -> str | None:
        return self.symbols.mark(kind) if self.symbols is not None else None

    @classmethod
    def of(cls, board: Board, title: str = "") -> MapData:
        """The map data of any board: its areas and named places, with a symbol for every kind."""
        spots: list[Spot] = []
        terrain: dict[Any, str] = {}
        if isinstance(board, SquareBoard):
            terrain = dict(board.cells)
            spots = [Spot(name, cell, "town") for cell, name in board.names.items()]
        elif isinstance(board, HexBoard):
            terrain = dict(board.terrain)
            spots = [Spot(name, h, "city") for h, name in board.names.items()]
        elif isinstance(board, GraphBoard):
            spots = [Spot(site.name, Location(key), site.kind) for key, site in board.sites.items()]
        return cls(terrain, tuple(spots), (), title, board=board, symbols=symbols_for(board))


def paint_board(surface: Any, layout: Layout, data: MapData) -> None:
    """Open cells, areas (textured, with coasts and rivers), links, roads and spot marks onto ``surface``
    (names come last, see :func:`paint_labels`)."""
    surface.fill(palette.BACKGROUND)
    edge = max(1, round(layout.unit * 0.05))
    if isinstance(data.board, SquareBoard):
        for cell in data.board.open_cells():
            pygame.draw.polygon(surface, palette.GRID, layout.outline(cell, OPEN_SCALE), edge)
    symbols = data.symbols
    fill = symbols.fill if symbols is not None else palette.terrain
    textures.paint_terrain(surface, layout, data.terrain, fill, data.rivers, edge)
    if symbols is not None and symbols.letters:
        paint_letters(surface, layout, data.terrain, symbols)
    if isinstance(data.board, GraphBoard):
        paint_links(surface, layout, data.board, symbols or Symbols())
    for road in data.roads:
        textures.paint_road(surface, [layout.centre(h) for h in road], layout.unit)
    for place in data.places:
        paint_place(surface, layout, place, data.mark(place.kind))


def paint_letters(surface: Any, layout: Layout, terrain: Mapping[Any, str], symbols: Symbols) -> None:
    """Each area's kind letter in its top-left corner, so kinds read without their colours."""
    size = max(text.minimum(layout.height), round(layout.unit * 0.45))
    for place, kind in terrain.items():
        letter = symbols.letters.get(kind)
        if letter:
            x, y = layout.centre(place)
            at = (x - layout.unit * 0.62, y - layout.unit * 0.62) if isinstance(place, Cell) else \
                (x - layout.unit * 0.45, y - layout.unit * 0.55)
            text.draw(surface, letter, at, size, palette.CITY_EDGE, anchor="topleft")


def paint_links(surface: Any, layout: Layout, board: GraphBoard, symbols: Symbols) -> None:
    """Each link a line between its locations' rims, in its kind's colour and dash pattern."""
    width = max(2, round(layout.unit * LINK_WIDTH))
    for link, kind in board.links.items():
        if not layout.holds(link):
            continue
        a, b = layout.shape.ends(link) if isinstance(layout.shape, GraphShape) else \
            (layout.centre(Location(link.a)), layout.centre(Location(link.b)))
        style = symbols.line(kind)
        draw_line(surface, a, b, style.colour, width, style.dash)


def paint_labels(surface: Any, layout: Layout, data: MapData) -> None:
    """The place names, drawn last so no storm mark hides them; a name that would overlap one
    already placed goes under its mark instead (neighbouring cities on the coast)."""
    for piece in label_pieces(layout, data):
        piece.draw(surface)


def label_pieces(layout: Layout, data: MapData) -> list[Piece]:
    """The names as pieces, placed once for the board (see :func:`paint_labels`)."""
    taken: list[Any] = []
    pieces: list[Piece] = []
    for place in data.places:
        if place.label:
            pos, anchor, rect = place_label(layout, place, taken)
            taken.append(rect)
            size, bold = _label_size(layout, place)
            halo = max(1, size // 14)
            pieces.append(Piece(("label", place), pygame.Rect(rect).inflate(2 * halo + 2, 2 * halo + 2),
                                lambda s, place=place, pos=pos, anchor=anchor, size=size, bold=bold: text.draw(
                                    s, place.name, pos, size, palette.TEXT, anchor=anchor, halo=True, bold=bold)))
    return pieces


def _label_size(layout: Layout, place: Spot) -> tuple[int, bool]:
    share = text.CITY_NAME if place.kind == "city" else text.TOWN_NAME
    return text.px(share, layout.height), place.kind == "city"


def paint_place(surface: Any, layout: Layout, place: Spot, mark: str | None = None) -> None:
    """A spot's mark: a city a large disc, a town a small square, another kind the ``mark`` its symbols give."""
    x, y = layout.centre(place.at)
    s = layout.unit
    mark = mark or ("circle" if place.kind == "city" else "square")
    if mark == "circle":
        r = round(s * 0.42)
        pygame.draw.circle(surface, palette.CITY, (x, y), r)
        pygame.draw.circle(surface, palette.CITY_EDGE, (x, y), r, max(2, round(s * 0.08)))
    elif mark == "square":
        half = round(s * 0.22)
        pygame.draw.rect(surface, palette.CITY, (x - half, y - half, 2 * half, 2 * half))
        outline_rect(surface, palette.CITY_EDGE, (x - half, y - half, 2 * half, 2 * half), max(1, round(s * 0.05)))
    else:
        draw_mark(surface, mark, (x, y), s * 0.38, width=max(1, round(s * 0.06)))


def label_place(surface: Any, layout: Layout, place: Spot, taken: list[Any] | None = None) -> Any:
    """The name above the mark (cities in large type with a halo, legible from across the table),
    or below it when ``taken`` (rectangles of names already drawn) has that spot; returns its rectangle."""
    pos, anchor, _ = place_label(layout, place, taken)
    size, bold = _label_size(layout, place)
    return text.draw(surface, place.name, pos, size, palette.TEXT, anchor=anchor, halo=True, bold=bold)


def place_label(layout: Layout, place: Spot, taken: list[Any] | None = None) -> tuple[tuple[float, float], str, Any]:
    """Where :func:`label_place` puts a name: (position, anchor, the rectangle it takes)."""
    x, y = layout.centre(place.at)
    size, bold = _label_size(layout, place)
    width, height = text.font(size, bold).size(place.name)
    lo, hi = layout.map.x + width / 2, layout.map.x + layout.map.w - width / 2
    x = min(max(x, lo), hi) if lo <= hi else x  # names near the edge slide inwards rather than off screen
    above = pygame.Rect(0, 0, width, height)
    above.midbottom = (round(x), round(y - layout.unit * 0.5))
    image = text.rendered(place.name, size, bold, palette.TEXT)
    if taken and above.inflate(size // 2, 0).collidelist(taken) >= 0:  # halo and a little air
        at = (x, y + layout.unit * 0.5)
        return at, "midtop", image.get_rect(midtop=(round(at[0]), round(at[1])))
    return above.midbottom, "midbottom", image.get_rect(midbottom=above.midbottom)
