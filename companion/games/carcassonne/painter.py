"""Carcassonne: Natural Disasters on the projector: the tiles as laid, the followers, and each disaster.

Built on the shared square-grid parts (``BoardPainter``: open cells, layout, cursor). Every tile is drawn
from its type's segments in ``maps/carcassonne_tiles.toml``, turned as laid, so the picture cannot
disagree with the features the engine joins: cities as tan areas reaching their sides (a shield as a
blue badge), roads as light lines, rivers as blue lines, fields green, a cloister a small white house.
A disaster tile carries a lettered corner badge (T tornado, E earthquake, M meteor, F flood).

What each disaster adds is the rules' answer, worked out once per state by the session
(:mod:`companion.games.carcassonne.drawn`) and handed over as plain data in a
:class:`~companion.views.drawn.Drawn` (the painter imports no rule module and asks the engine nothing), so the
map shows what the rules say:
the tornado's path, where it is (a funnel with the spaces left) and the ends of its legal moves (sky
blue rings); the earthquake's zone (tinted, with a dashed edge) and the cities it hits (outlined in
vermillion); the flood's 3x3 area (dashed until it spreads, then tinted with waves); the meteor's
possible landing tiles (orange rings), its chosen aims (numbered) and the city and road ends it made
(vermillion bars). Followers are discs in their player's colour with the colour's initial.
Nothing relies on colour alone: each mark has a shape or a letter, and the side panel's key names them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any, cast

import pygame

from companion.games.carcassonne.state import CarcState, Follower, Laid
from companion.games.carcassonne.tiles import HALVES, SIDES, STEP, Segment, TileType
from companion.places import Board, Cell, SquareBoard
from companion.views.drawn import NOTHING, Drawn
from companion.views.projector import palette, text
from companion.views.projector.board import MapData
from companion.views.projector.key import KeyEntry, key_height, paint_entries
from companion.views.projector.layout import Layout, Rect
from companion.views.projector.marks import clipped, draw_line, draw_mark, outline_rect
from companion.views.projector.painters import BoardPainter
from companion.views.projector.pieces import Piece, rect_of
from companion.views.projector.pieces import around as around_points
from companion.views.projector.symbols import Symbols

Point = tuple[float, float]

FIELD: palette.Colour = (78, 122, 64)
CITY: palette.Colour = (214, 186, 132)
CITY_EDGE: palette.Colour = (120, 88, 48)
ROAD: palette.Colour = (236, 230, 214)
RIVER: palette.Colour = palette.OKABE_ITO[1]
SHIELD: palette.Colour = palette.OKABE_ITO[6]
BLANK: palette.Colour = (128, 128, 112)
"""A space marked without its kind (the group enters spaces only)."""
CRATER: palette.Colour = (52, 40, 34)
TORNADO: palette.Colour = palette.TRACK
TARGET: palette.Colour = palette.OKABE_ITO[1]
QUAKE: palette.Colour = palette.DAMAGE
FLOOD: palette.Colour = palette.FLOOD
METEOR: palette.Colour = palette.OKABE_ITO[0]
ENDED: palette.Colour = palette.DAMAGE

PLAYER_COLOURS: dict[str, palette.Colour] = {
    "red": (213, 94, 0), "blue": (0, 114, 178), "yellow": (240, 228, 66), "green": (0, 158, 115),
    "black": (24, 24, 24), "grey": (165, 165, 165), "gray": (165, 165, 165), "orange": (230, 159, 0),
    "purple": (204, 121, 167), "pink": (204, 121, 167), "white": (245, 245, 245),
}
"""The colour names of ``[players] colours`` as drawn (Okabe-Ito where one is close); an unknown name
takes an Okabe-Ito colour by seat. The disc carries the name's initial too."""
DISASTER_LETTERS = {"tornado": "T", "earthquake": "E", "meteor": "M", "flood": "F"}
SIDE_STEP: dict[str, Point] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
HALF_AT: dict[str, Point] = {"a": (-0.5, -1), "b": (0.5, -1), "c": (1, -0.5), "d": (1, 0.5),
                             "e": (0.5, 1), "f": (-0.5, 1), "g": (-1, 0.5), "h": (-1, -0.5)}
"""Where each half-side lies on a tile of half-side 1 (x east, y south)."""
LINE = 0.023
"""The side panel's main lines (players, the step under way): a little above the shared small type."""
TILE_INSET = 0.96
"""Tiles are drawn a little inside their cell, so the grid between them shows."""


def player_colour(name: str, seat: int) -> palette.Colour:
    return PLAYER_COLOURS.get(name.lower(), palette.OKABE_ITO[seat % len(palette.OKABE_ITO)])


def initials(names: Sequence[str]) -> list[str]:
    """Each colour's initial; two letters where initials clash ("Ba" black, "Bu" blue)."""
    out = []
    for name in names:
        clash = [o for o in names if o != name and o[:1].lower() == name[:1].lower()]
        if not clash:
            out.append(name[:1].upper())
            continue
        k = next((i for i in range(1, len(name)) if all(i >= len(o) or o[i].lower() != name[i].lower()
                                                         for o in clash)), len(name) - 1)
        out.append(name[:1].upper() + name[k].lower())
    return out


def ink_on(colour: palette.Colour) -> palette.Colour:
    """Dark text on a light fill, light text on a dark one."""
    return palette.CITY_EDGE if sum(colour) > 330 else palette.CITY


# -- a tile's art, from its segments --------------------------------------------------------------------------

def _at(centre: Point, r: float, v: Point, k: float = 1.0) -> Point:
    return centre[0] + v[0] * r * k, centre[1] + v[1] * r * k


def _corners(centre: Point, r: float, side: str) -> tuple[Point, Point]:
    """A side's two corners, clockwise."""
    x, y = centre
    return {"N": ((x - r, y - r), (x + r, y - r)), "E": ((x + r, y - r), (x + r, y + r)),
            "S": ((x + r, y + r), (x - r, y + r)), "W": ((x - r, y + r), (x - r, y - r))}[side]


def city_polygon(centre: Point, r: float, sides: frozenset[str]) -> list[Point]:
    """A city reaching ``sides``: a cap on one side; several sides join through the tile's middle."""
    if len(sides) == 1:
        (side,) = sides
        a, b = _corners(centre, r, side)
        vx, vy = SIDE_STEP[side]
        depth = 0.45 * r
        inward = (-vx * depth, -vy * depth)
        along = ((b[0] - a[0]) * 0.2, (b[1] - a[1]) * 0.2)
        return [a, b, (b[0] - along[0] + inward[0], b[1] - along[1] + inward[1]),
                (a[0] + along[0] + inward[0], a[1] + along[1] + inward[1])]
    if len(sides) == 4:
        return [*_corners(centre, r, "N"), *_corners(centre, r, "S")]
    order = [s for s in SIDES if s in sides]
    start = next(i for i, s in enumerate(SIDES) if s in sides and SIDES[i - 1] not in sides)
    points: list[Point] = []
    for k in range(4):
        side = SIDES[(start + k) % 4]
        if side in order:
            a, b = _corners(centre, r, side)
            if not points or points[-1] != a:
                points.append(a)
            points.append(b)
        elif points and points[-1] != centre:
            points.append(centre)
    if points[-1] != centre:
        points.append(centre)
    return points


def _curve(a: Point, control: Point, b: Point, steps: int = 10) -> list[Point]:
    return [((1 - t) ** 2 * a[0] + 2 * (1 - t) * t * control[0] + t * t * b[0],
             (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * control[1] + t * t * b[1])
            for t in (k / steps for k in range(steps + 1))]


def path_points(centre: Point, r: float, sides: frozenset[str]) -> list[list[Point]]:
    """A road or river: a line from each side's middle to the tile's middle (two sides: one curve)."""
    mids = [_at(centre, r, SIDE_STEP[s]) for s in SIDES if s in sides]
    if len(mids) == 2:
        return [_curve(mids[0], centre, mids[1])]
    return [[m, centre] for m in mids]


def feature_point(centre: Point, r: float, segment: Segment) -> Point:
    """Where a follower on ``segment`` stands (and a city's shield goes beside it)."""
    if segment.kind == "cloister":
        return centre
    if segment.kind == "field":
        pts = [HALF_AT[h] for h in segment.sides]
        mx, my = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
        if math.hypot(mx, my) < 0.3:  # a field all round the tile: stand in its first corner
            first = next(h for h in HALVES if h in segment.sides)
            mx, my = HALF_AT[first]
        scale = 0.62 / max(0.6, math.hypot(mx, my))
        return _at(centre, r, (mx * scale, my * scale))
    steps = [SIDE_STEP[s] for s in SIDES if s in segment.sides]
    vx, vy = sum(v[0] for v in steps) / len(steps), sum(v[1] for v in steps) / len(steps)
    if segment.kind == "city":
        return _at(centre, r, (vx, vy), 0.72 if len(steps) == 1 else 0.4)
    if len(steps) == 2 and vx == vy == 0:  # a straight road: halfway to its first side
        vx, vy = steps[0]
    return _at(centre, r, (vx, vy), 0.5)


def draw_shield(surface: Any, at: Point, size: float) -> None:
    x, y = at
    pts = [(x - size, y - size), (x + size, y - size), (x + size, y + size * 0.2), (x, y + size * 1.2),
           (x - size, y + size * 0.2)]
    pygame.draw.polygon(surface, SHIELD, pts)
    pygame.draw.polygon(surface, palette.CITY, pts, max(1, round(size * 0.25)))


def draw_house(surface: Any, at: Point, size: float) -> None:
    """A cloister: a white house with a roof."""
    x, y = at
    pts = [(x - size, y + size), (x - size, y - size * 0.2), (x, y - size * 1.1), (x + size, y - size * 0.2),
           (x + size, y + size)]
    pygame.draw.polygon(surface, palette.CITY, pts)
    pygame.draw.polygon(surface, palette.CITY_EDGE, pts, max(1, round(size * 0.18)))


def draw_badge(surface: Any, at: Point, r: float, letter: str, fill: palette.Colour) -> None:
    draw_mark(surface, "circle", at, r, fill, width=max(1, round(r * 0.15)))
    text.draw(surface, letter, at, max(text.minimum(surface.get_height()), round(r * 1.5)), ink_on(fill),
              anchor="center", bold=True)


def draw_tile(surface: Any, centre: Point, r: float, tile: TileType | None, quarters: int) -> None:
    """One laid tile: fields, cities, rivers, roads, a cloister, shields, and a disaster's badge."""
    box = pygame.Rect(round(centre[0] - r), round(centre[1] - r), round(2 * r), round(2 * r))
    if tile is None:
        pygame.draw.rect(surface, BLANK, box)
        return
    segments = tile.turned(quarters)
    if tile.disaster == "meteor":
        pygame.draw.rect(surface, CRATER, box)
        pygame.draw.circle(surface, METEOR, (round(centre[0]), round(centre[1])), round(r * 0.55),
                           max(2, round(r * 0.1)))
    elif tile.disaster == "flood":
        pygame.draw.rect(surface, FLOOD, box)
        _waves(surface, centre, r, palette.CITY)
    else:
        pygame.draw.rect(surface, FIELD if any(s.kind == "field" for s in segments) else CITY, box)
    edge = max(1, round(r * 0.05))
    for s in segments:
        if s.kind == "city":
            pts = city_polygon(centre, r, s.sides)
            pygame.draw.polygon(surface, CITY, pts)
            pygame.draw.polygon(surface, CITY_EDGE, pts, edge)
    for kind, colour, share in (("river", RIVER, 0.24), ("road", ROAD, 0.16)):
        width = max(2, round(r * share))
        ends = 0
        for s in segments:
            if s.kind != kind:
                continue
            for line in path_points(centre, r, s.sides):
                pygame.draw.lines(surface, palette.CITY_EDGE, False, line, width + 2)
                pygame.draw.lines(surface, colour, False, line, width)
            ends += len(s.sides) == 1
        if kind == "road" and ends >= 3:  # a junction or crossroads: the village where the roads end
            draw_mark(surface, "square", centre, r * 0.16, palette.CITY_EDGE, palette.CITY_EDGE)
    for s in segments:
        if s.kind == "cloister":
            draw_house(surface, centre, r * 0.3)
        if s.kind == "city" and tile.shield:
            x, y = feature_point(centre, r, s)
            draw_shield(surface, (x + r * 0.32, y - r * 0.05), r * 0.13)
    if tile.disaster:
        draw_badge(surface, (centre[0] - r * 0.66, centre[1] + r * 0.66), r * 0.22, DISASTER_LETTERS[tile.disaster],
                   palette.CITY)


def _waves(surface: Any, centre: Point, r: float, colour: palette.Colour, rows: int = 3) -> None:
    width = max(1, round(r * 0.06))
    for k in range(rows):
        y = centre[1] + (k - (rows - 1) / 2) * r * 0.5
        pts = [(centre[0] - r * 0.6 + i * r * 0.15, y + (r * 0.07 if i % 2 else -r * 0.07)) for i in range(9)]
        pygame.draw.lines(surface, colour, False, pts, width)


def _dashed_ring(surface: Any, pts: Sequence[Point], colour: palette.Colour, width: int) -> None:
    for a, b in zip(pts, [*pts[1:], pts[0]], strict=True):
        draw_line(surface, a, b, colour, width, (3, 2), casing=None)


def _shade(surface: Any, boxes: Sequence[Rect]) -> tuple[Any, pygame.Rect]:
    """A clear see-through layer just the size of the part of ``surface`` that ``boxes`` cover (with a margin),
    and that part: drawn on at the part's own coordinates and blitted at its corner, the same pixels as a layer
    the size of the screen. Made for each zone drawn, never kept: a zone's layer is a few tiles' worth, where a
    kept screen-sized one held 8 MB at 1080p for as long as the game was on the table."""
    area = pygame.Rect(0, 0, 0, 0)
    if boxes:
        area = pygame.Rect(boxes[0].as_tuple()).unionall([pygame.Rect(b.as_tuple()) for b in boxes])
    area = area.inflate(8, 8).clip(pygame.Rect(0, 0, *surface.get_size()))
    return pygame.Surface(area.size, pygame.SRCALPHA), area


def _zone_edges(layout: Layout, zone: frozenset[Cell], scale: float = 1.0) -> list[tuple[Point, Point]]:
    """The outer edges of a set of cells (each edge between a cell inside and one outside)."""
    out = []
    for cell in zone:
        x, y = layout.centre(cell)
        for side in SIDES:
            if Cell(cell.x + STEP[side][0], cell.y + STEP[side][1]) not in zone:
                out.append(_corners((x, y), layout.unit * scale, side))
    return out


class Painter(BoardPainter):
    """The Carcassonne painter: tiles, followers and the disasters on the shared square grid."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.drawn: Drawn = NOTHING
        """The rules' answers for the state drawn next (:meth:`use`)."""

    def use(self, drawn: Drawn) -> None:
        """Draw the next states with ``drawn``, the session's answers for them (the renderer hands it over with
        every new state, before asking for its pieces)."""
        self.drawn = drawn

    def who(self, seat: int) -> str:
        """A seat's colour name, as the maps data gives the seats."""
        return str(self.game.rules.colours[seat])

    # -- the board ------------------------------------------------------------------------------------------
    def map_data(self, state: Any = None) -> MapData:
        """The laid spaces and the open ones; the tiles' art is drawn from the state (``paint_state``)."""
        if state is None:
            return super().map_data(state)
        board = cast(Board, SquareBoard({c: "tile" for c, _ in state.board}))
        return MapData({c: "tile" for c, _ in state.board}, (), (), self.game.title, board=board,
                       symbols=Symbols(fills={"tile": palette.GRID}))

    def tile(self, laid: Laid) -> TileType | None:
        return self.game.catalog.by_key.get(laid.kind) if laid.kind else None

    # -- what is drawn where (also what the tests ask) ---------------------------------------------------
    def tornado_targets(self, state: CarcState) -> list[Cell]:
        """Where the tornado's legal moves end (the mover's options), while it waits to be moved."""
        return list(self.drawn.get("tornado_targets", ()))

    def meteor_targets(self, state: CarcState) -> list[Cell]:
        """Tiles the meteor may be put on now: any allowed tile while aimed, side-by-side ones while moved."""
        return list(self.drawn.get("meteor_targets", ()))

    def quake_hits(self, state: CarcState) -> list[tuple[tuple[Cell, int], ...]]:
        """Each city the earthquake hits, as its parts (cell, segment); spaces only: the cells said to."""
        return list(self.drawn.get("quake_hits", ()))

    def meteor_ends(self, state: CarcState) -> list[tuple[Cell, str]]:
        """(cell, side) where a city or road ends at a meteor: the side of the tile facing it."""
        return list(self.drawn.get("meteor_ends", ()))

    def tornado_segments(self, layout: Layout, state: CarcState) -> list[tuple[Point, Point]]:
        """The tornado's path as one segment a space, each move nudged its own way so a move back over
        the same tiles shows beside the one before."""
        t = state.tornado
        if t is None:
            return []
        step = max(1, self.game.rules.tornado_step)
        out = []
        for i, (a, b) in enumerate(zip(t.path, t.path[1:], strict=False)):
            nudge = ((i // step) % 3 - 1) * layout.unit * 0.18
            (ax, ay), (bx, by) = layout.centre(a), layout.centre(b)
            out.append(((ax + nudge, ay + nudge), (bx + nudge, by + nudge)))
        return out

    def follower_point(self, layout: Layout, state: CarcState, f: Follower, index: int = 0) -> Point:
        centre, r = layout.centre(f.cell), layout.unit * TILE_INSET
        laid = state.tiles.get(f.cell)
        tile = self.tile(laid) if laid is not None else None
        if tile is None or f.segment < 0:
            return centre[0] + (index % 2) * r * 0.55 - r * 0.27 * (index > 0), centre[1] + (index // 2) * r * 0.55
        segments = tile.turned(laid.quarters) if laid is not None else ()
        if f.segment >= len(segments):
            return centre
        return feature_point(centre, r, segments[f.segment])

    # -- the map ----------------------------------------------------------------------------------------------
    def paint_state(self, surface: Any, layout: Layout, state: Any, overlay: bool = False) -> None:
        """Tiles, disasters and followers (see :meth:`state_pieces`)."""
        for piece in self.state_pieces(layout, state, overlay):
            piece.draw(surface)

    def state_pieces(self, layout: Layout, state: Any, overlay: bool = False) -> list[Piece]:
        """Each tile, end bar, ring, path step and follower a piece, the quake and the flood one each: a
        follower placed or a tornado moved repaints those marks, not the map. (A tile laid grows the grid
        under it, so that repaints the whole screen anyway.) Keys carry the pixel geometry: the grid's
        scale and origin change as the board grows."""
        geo = (layout.width, layout.height, layout.unit, layout.origin)
        r = layout.unit * TILE_INSET
        pieces: list[Piece] = []
        pad = max(4.0, r * 0.15) + 2
        for cell, laid in state.board:
            if layout.holds(cell):
                centre = layout.centre(cell)
                tile = self.tile(laid)
                pieces.append(Piece(("tile", centre, r, laid.kind, laid.quarters),
                                    around_points([(centre[0] - r, centre[1] - r), (centre[0] + r, centre[1] + r)],
                                                  pad),
                                    partial(draw_tile, centre=centre, r=r, tile=tile, quarters=laid.quarters)))
        pieces += self._quake_pieces(layout, state, geo)
        f = state.flood
        if f is not None:
            area = frozenset(self.drawn.get("flood_around", ())) | {f.cell}
            corners = [p for cell in area for p in layout.outline(cell)]
            pieces.append(Piece(("flood", f.cell, f.spread, geo), around_points(corners, layout.unit * 0.1 + 6),
                                lambda s: self._paint_flood(s, layout, state)))
        for cell, side in self.meteor_ends(state):
            a, b, w = self._end_bar_line(layout, cell, side)
            pieces.append(Piece(("meteor end", a, b, w), around_points([a, b], (w + 4) / 2 + 2),
                                partial(self._end_bar, layout=layout, cell=cell, side=side)))
        pieces += self._meteor_pieces(layout, state, geo)
        pieces += self._tornado_pieces(layout, state, geo)
        pieces += self._follower_pieces(layout, state)
        return _numbered(pieces)

    def _quake_pieces(self, layout: Layout, state: CarcState, geo: Any) -> list[Piece]:
        zone = self.drawn.get("quake_zone", frozenset())
        if not zone:
            return []
        hits = self.quake_hits(state)
        shown = tuple(tuple(sorted((c, s, state.tiles.get(c)) for c, s in parts)) for parts in hits)
        points = [p for cell in zone | {c for parts in hits for c, _ in parts} for p in layout.outline(cell)]
        return [Piece(("quake", zone, shown, geo), around_points(points, layout.unit * 0.35 + 8),
                      lambda s: self._paint_quake(s, layout, state))]

    def _meteor_pieces(self, layout: Layout, state: CarcState, geo: Any) -> list[Piece]:
        width = max(3, round(layout.unit * 0.1))
        pieces = [Piece(("meteor ring", cell, geo), around_points(layout.outline(cell, 0.78), (width + 4) / 2 + 2),
                        partial(self._meteor_ring, layout=layout, cell=cell))
                  for cell in self.meteor_targets(state)]
        m = state.meteor
        if m is not None and state.phase in ("meteor_aim", "meteor_move") and m.chosen:
            pts = [layout.centre(c) for c in m.chosen]
            pad = layout.unit * 0.34 + width + text.px(0.02, layout.height) + 4
            pieces.append(Piece(("meteor aims", m.chosen, geo), around_points(pts, pad),
                                lambda s: self._paint_aims(s, layout, state)))
        return pieces

    def _tornado_pieces(self, layout: Layout, state: CarcState, geo: Any) -> list[Piece]:
        t = state.tornado
        if t is None:
            return []
        width = max(3, round(layout.unit * 0.14))
        pieces = [Piece(("tornado path", a, b, width), around_points([a, b], (width + 4) / 2 + width * 2.2 + 2),
                        partial(_path_step, a=a, b=b, width=width))
                  for a, b in self.tornado_segments(layout, state)]
        ring = max(3, round(layout.unit * 0.1))
        pieces += [Piece(("tornado ring", cell, geo), around_points(layout.outline(cell, 0.72), (ring + 4) / 2 + 2),
                         partial(self._tornado_ring, layout=layout, cell=cell))
                   for cell in self.tornado_targets(state)]
        x, y = layout.centre(t.at)
        s = layout.unit * 0.42
        pieces.append(Piece(("funnel", t.at, t.left, geo), around_points([(x - s, y - s), (x + s, y + s)],
                                                                        layout.unit * 0.1 + 4),
                            partial(self._funnel, layout=layout, at=t.at, left=t.left)))
        return pieces

    def _follower_pieces(self, layout: Layout, state: CarcState) -> list[Piece]:
        names = [self.who(i) for i in range(state.players)]
        marks = initials(names)
        size = max(text.minimum(layout.height), round(layout.unit * 0.36))  # legible however large the board
        seen: dict[Cell, int] = {}
        pieces = []
        for f in state.followers:
            if not layout.holds(f.cell):
                continue
            index = seen.get(f.cell, 0) if f.segment < 0 else 0
            seen[f.cell] = index + 1
            at = self.follower_point(layout, state, f, index)
            fill = player_colour(names[f.player], f.player)
            radius = layout.unit * 0.27
            pieces.append(Piece(("follower", at, radius, fill, marks[f.player], size),
                                around_points([at], max(radius + layout.unit * 0.05, size) + 4),
                                partial(_follower, at=at, radius=radius, fill=fill, mark=marks[f.player],
                                        size=size, width=max(2, round(layout.unit * 0.05)))))
        return pieces

    def _paint_quake(self, surface: Any, layout: Layout, state: CarcState) -> None:
        zone = self.drawn.get("quake_zone", frozenset())
        if not zone:
            return
        self._hatch(surface, layout, zone, QUAKE)
        width = max(3, round(layout.unit * 0.08))
        for a, b in _zone_edges(layout, zone):
            draw_line(surface, a, b, QUAKE, width, (3, 2))
        width = max(2, round(layout.unit * 0.06))
        r = layout.unit * TILE_INSET
        for parts in self.quake_hits(state):
            for cell, seg in parts:
                centre = layout.centre(cell)
                laid = state.tiles.get(cell)
                tile = self.tile(laid) if laid is not None else None
                if tile is None or seg < 0 or laid is None:
                    pts = layout.outline(cell, 0.8)
                else:
                    pts = city_polygon(centre, r, tile.turned(laid.quarters)[seg].sides)
                pygame.draw.polygon(surface, palette.CITY_EDGE, pts, width + 4)
                pygame.draw.polygon(surface, QUAKE, pts, width)
            cell, seg = min(parts, key=lambda p: (p[0] not in zone, p[0]))
            self._crack(surface, layout, cell)

    def _crack(self, surface: Any, layout: Layout, cell: Cell) -> None:
        """The earthquake's token on a city it hits: a zigzag in a badge."""
        x, y = layout.centre(cell)
        r = layout.unit
        at = (x + r * 0.6, y - r * 0.6)
        draw_mark(surface, "circle", at, r * 0.24, QUAKE, width=max(1, round(r * 0.04)))
        s = r * 0.13
        pts = [(at[0] - s, at[1] - s * 1.2), (at[0] + s * 0.4, at[1] - s * 0.2), (at[0] - s * 0.4, at[1] + s * 0.2),
               (at[0] + s, at[1] + s * 1.2)]
        pygame.draw.lines(surface, palette.CITY_EDGE, False, pts, max(2, round(r * 0.06)))

    def _hatch(self, surface: Any, layout: Layout, cells: Iterable[Cell], colour: palette.Colour) -> None:
        """Diagonal stripes over ``cells``: a zone reads as a zone over tiles and empty spaces alike."""
        step = max(6, round(layout.unit * 0.3))
        width = max(1, round(layout.unit * 0.05))
        boxes = [layout.box(cell) for cell in cells if layout.holds(cell)]
        shade, area = _shade(surface, boxes)
        ox, oy = area.topleft
        for box in boxes:
            x, y = box.x - ox, box.y - oy
            with clipped(shade, (x, y, box.w, box.h)):
                for k in range(-box.h, box.w, step):
                    pygame.draw.line(shade, (*colour, 150), (x + k, y + box.h), (x + k + box.h, y), width)
        surface.blit(shade, area.topleft)

    def _tint(self, surface: Any, layout: Layout, cells: Iterable[Cell], colour: palette.Colour, alpha: int) -> None:
        held = [cell for cell in cells if layout.holds(cell)]
        shade, area = _shade(surface, [layout.box(cell) for cell in held])
        ox, oy = area.topleft
        for cell in held:
            pygame.draw.polygon(shade, (*colour, alpha), [(x - ox, y - oy) for x, y in layout.outline(cell)])
        surface.blit(shade, area.topleft)

    def _paint_flood(self, surface: Any, layout: Layout, state: CarcState) -> None:
        f = state.flood
        if f is None:
            return
        ring = list(self.drawn.get("flood_around", ()))
        area = frozenset(ring) | {f.cell}
        width = max(3, round(layout.unit * 0.08))
        if f.spread:
            self._tint(surface, layout, ring, FLOOD, 90)
            for cell in ring:
                _waves(surface, layout.centre(cell), layout.unit * 0.5, FLOOD, rows=2)
            for a, b in _zone_edges(layout, area):
                draw_line(surface, a, b, FLOOD, width)
        else:
            for a, b in _zone_edges(layout, area):
                draw_line(surface, a, b, FLOOD, width, (2, 2))

    def _end_bar_line(self, layout: Layout, cell: Cell, side: str) -> tuple[Point, Point, int]:
        centre, r = layout.centre(cell), layout.unit * TILE_INSET
        vx, vy = SIDE_STEP[side]
        mid = _at(centre, r, (vx, vy), 0.82)
        half = r * 0.34
        a, b = (mid[0] - vy * half, mid[1] - vx * half), (mid[0] + vy * half, mid[1] + vx * half)
        return a, b, max(3, round(r * 0.14))

    def _end_bar(self, surface: Any, layout: Layout, cell: Cell, side: str) -> None:
        """A city or road that ends at the meteor: a vermillion bar across it at that side."""
        a, b, width = self._end_bar_line(layout, cell, side)
        draw_line(surface, a, b, ENDED, width)

    def _meteor_ring(self, surface: Any, layout: Layout, cell: Cell) -> None:
        """A tile the meteor may be put on: a dashed orange ring."""
        _dashed_ring(surface, layout.outline(cell, 0.78), METEOR, max(3, round(layout.unit * 0.1)))

    def _paint_aims(self, surface: Any, layout: Layout, state: CarcState) -> None:
        """The meteor's chosen spaces, numbered, joined, the last (where it lands) an M."""
        m = state.meteor
        if m is None:
            return
        width = max(3, round(layout.unit * 0.1))
        pts = [layout.centre(c) for c in m.chosen]
        if len(pts) >= 2:
            pygame.draw.lines(surface, palette.CITY_EDGE, False, pts, width + 4)
            pygame.draw.lines(surface, METEOR, False, pts, width)
        size = text.px(0.02, layout.height)
        for n, (x, y) in enumerate(pts, start=1):
            last = n == len(pts)
            draw_mark(surface, "circle", (x, y), layout.unit * (0.34 if last else 0.22), METEOR if last else CRATER,
                      edge=palette.CITY_EDGE if last else METEOR, width=max(2, round(layout.unit * 0.06)))
            text.draw(surface, "M" if last else str(n), (x, y), size, ink_on(METEOR if last else CRATER),
                      anchor="center", bold=True)

    def _tornado_ring(self, surface: Any, layout: Layout, cell: Cell) -> None:
        """Where one of the tornado's legal moves ends: a sky blue ring on a dark one."""
        ring = max(3, round(layout.unit * 0.1))
        pts_ring = layout.outline(cell, 0.72)
        pygame.draw.polygon(surface, palette.CITY_EDGE, pts_ring, ring + 4)
        pygame.draw.polygon(surface, TARGET, pts_ring, ring)

    def _funnel(self, surface: Any, layout: Layout, at: Cell, left: int) -> None:
        """The tornado where it is: a funnel with the spaces it has left."""
        x, y = layout.centre(at)
        s = layout.unit * 0.42
        funnel = [(x - s, y - s * 0.8), (x + s, y - s * 0.8), (x, y + s)]
        pygame.draw.polygon(surface, TORNADO, funnel)
        pygame.draw.polygon(surface, palette.CITY_EDGE, funnel, max(2, round(layout.unit * 0.06)))
        text.draw(surface, str(left), (x, y - s * 0.2), text.px(0.022, layout.height), palette.CITY_EDGE,
                  anchor="center", bold=True)

    # -- the side panel --------------------------------------------------------------------------------------
    def paint_side(self, surface: Any, layout: Layout, rect: Rect, state: Any) -> None:
        """Players, the disasters in force and the key (see :meth:`side_pieces`)."""
        for piece in self.side_pieces(layout, rect, state):
            piece.draw(surface)

    def side_pieces(self, layout: Layout, rect: Rect, state: Any) -> list[Piece]:
        """Each player's row and each line of the disasters a piece, the key one: a score or a turn changes
        its rows alone. The key follows the lines above it, so it moves (and repaints) when they grow."""
        pieces: list[Piece] = []
        y = self._player_pieces(pieces, layout, rect, state)
        y = self._happened_pieces(pieces, layout, Rect(rect.x, y + 6, rect.w, rect.h - (y + 6 - rect.y)), state)
        y = self._disaster_pieces(pieces, layout, Rect(rect.x, y + 6, rect.w, rect.h - (y + 6 - rect.y)), state)
        pieces.append(self._key_piece(layout, Rect(rect.x, y + 6, rect.w, rect.h - (y + 6 - rect.y)), state))
        return _numbered(pieces)

    def _player_pieces(self, pieces: list[Piece], layout: Layout, rect: Rect, state: CarcState) -> int:
        head, body = text.px(text.BODY, layout.height), text.px(LINE, layout.height)
        names = [self.who(i) for i in range(state.players)]
        marks = initials(names)
        y = rect.y
        pieces.append(_text_piece("Players: points, followers left", (rect.x, y), head, palette.TEXT, True, rect.w))
        y += head + 4
        for seat, name in enumerate(names):
            fill = player_colour(name, seat)
            centre = (rect.x + body * 0.6, y + body * 0.6)
            letters = max(text.minimum(layout.height), round(body * 0.8))
            pieces.append(Piece(("player disc", centre, body, fill, marks[seat], letters),
                                around_points([centre], max(body * 0.55, letters) + 4),
                                partial(_player_disc, centre=centre, radius=body * 0.55, fill=fill, mark=marks[seat],
                                        size=letters)))
            now = seat == state.current and state.phase != "over"
            words = f"{name}: {state.scores[seat]} pts, {state.supply[seat]} left" + ("  < turn" if now else "")
            pieces.append(_text_piece(words, (rect.x + body * 1.6, y), body, palette.TEXT if now else palette.TEXT_DIM,
                                      now, rect.w - round(body * 1.6)))
            y += body + 6
        return y

    def _happened_pieces(self, pieces: list[Piece], layout: Layout, rect: Rect, state: CarcState) -> int:
        """What just happened, in names (a tile laid, a follower placed or sent home, the meteor's landing,
        the flood's spread, the points scored): the engine's recap under "Just happened"."""
        lines = state.recent[-5:]  # the state's own record of the last turn, as the engine's recap gives it
        head, body = text.px(text.BODY, layout.height), text.px(LINE, layout.height)
        y = rect.y
        pieces.append(_text_piece("Just happened", (rect.x, y), head, palette.TEXT, True, rect.w))
        y += head + 4
        for line in lines[:RECAP_LINES]:
            pieces.append(_text_piece(line, (rect.x, y), body, palette.TEXT_DIM, False, rect.w))
            y += body + 4
        # A fixed height: the lines under it do not move (and repaint) when a turn says more or less.
        return rect.y + head + 4 + RECAP_LINES * (body + 4)

    def disaster_lines(self, state: CarcState) -> list[tuple[str, list[str]]]:
        """Each disaster in force, first the one under way: (heading, lines), the readings from the maps data."""
        g, rules = self, self.game.rules
        readings = self.drawn.get("readings", ("",) * 6)
        prompt = str(self.drawn.get("prompt", ""))
        out: list[tuple[str, list[str]]] = []
        t, m, f = state.tornado, state.meteor, state.flood
        if t is not None and state.phase.startswith("tornado"):
            lines = [f"{g.who(t.mover)} moves it {rules.tornado_step} spaces" if state.phase == "tornado"
                     else prompt,
                     f"{t.left} of {rules.tornado_spaces} spaces left",
                     f"Inside: {g.who(t.inside)}'s follower" if t.inside is not None else "Inside: nobody"]
            out.append(("Tornado", [*lines, readings[0], readings[4]]))
        if m is not None and state.phase in ("meteor_aim", "meteor_move"):
            n = len(self.meteor_targets(state))
            out.append(("Meteor", [prompt, f"{n} tile{'' if n == 1 else 's'} it may go to",
                                   readings[1], readings[5]]))
        if f is not None or state.phase == "flood_aim":
            if f is None:
                lines = [prompt]
            elif f.spread:
                lines = ["spread: the 8 tiles around are covered"]
            else:
                lines = [f"spreads on {g.who(f.player)}'s next turn"]
            out.append(("Flood", [*lines, readings[3]]))
        if self.drawn.get("quake_cell") is not None:
            hits = len(self.quake_hits(state))
            word = "city" if hits == 1 else "cities"
            lines = [f"zone: the tile and the 12 spaces around; it hits {hits} {word} at the end"]
            out.append(("Earthquake", [*lines, readings[2]]))
        return out

    def _disaster_pieces(self, pieces: list[Piece], layout: Layout, rect: Rect, state: CarcState) -> int:
        head, body = text.px(text.BODY, layout.height), text.px(LINE, layout.height)
        small = text.px(text.SMALL, layout.height)
        y = rect.y
        shown = self.disaster_lines(state)
        if not shown:
            pieces.append(_text_piece("No disaster under way", (rect.x, y), body, palette.TEXT_DIM, False, rect.w))
            return y + body + 4
        for n, (heading, lines) in enumerate(shown):
            pieces.append(_text_piece(heading + (" (under way)" if n == 0 and heading != "Earthquake" else ""),
                                      (rect.x, y), head, palette.TEXT, True, rect.w))
            y += head + 2
            for k, line in enumerate(lines):
                reading = k == len(lines) - 1
                size = small if reading else body
                for part in text.wrap(("Reading: " if reading else "") + line, size, rect.w):
                    pieces.append(_text_piece(part, (rect.x, y), size, palette.TEXT_DIM if reading else palette.TEXT))
                    y += size + 2
            y += 4
        return y

    def key_rows(self, state: CarcState) -> list[str]:
        """The symbols on the map now, in the key's order."""
        kinds: set[str] = set()
        disasters: set[str] = set()
        for _cell, laid in state.board:
            tile = self.tile(laid)
            if tile is None:
                kinds.add("blank")
                continue
            kinds |= {s.kind for s in tile.segments}
            if tile.shield:
                kinds.add("shield")
            if tile.disaster:
                disasters.add(tile.disaster)
        rows: list[str] = [k for k in ("city", "shield", "road", "field", "cloister", "river", "blank") if k in kinds]
        rows += [f"disaster:{d}" for d in ("tornado", "earthquake", "meteor", "flood") if d in disasters]
        if state.followers:
            rows.append("follower")
        if state.tornado is not None:
            rows += ["tornado", "tornado_path"] + (["tornado_target"] if self.tornado_targets(state) else [])
        if self.drawn.get("quake_cell") is not None:
            rows += ["quake_zone"] + (["quake_hit"] if self.quake_hits(state) else [])
        if state.flood is not None:
            rows.append("flood_spread" if state.flood.spread else "flood_area")
        if self.meteor_targets(state):
            rows.append("meteor_target")
        if state.meteor is not None and state.phase in ("meteor_aim", "meteor_move") and state.meteor.chosen:
            rows.append("meteor_aim")
        if self.meteor_ends(state):
            rows.append("meteor_end")
        rows.append("open")
        return rows

    def _key_piece(self, layout: Layout, rect: Rect, state: CarcState) -> Piece:
        """The symbols on the map now, laid out by the shared key (two columns when the width allows)."""
        rows = tuple(self.key_rows(state))
        seat = state.current
        follower = (player_colour(self.who(seat), seat),
                    initials([self.who(i) for i in range(state.players)])[seat]) if "follower" in rows else None
        entries = [KeyEntry(KEY_WORDS[row], partial(self._key_sample, row, state)) for row in rows]
        height = key_height(layout, rect.w, entries)  # rows past the bottom are left out: never more than this
        return Piece(("carcassonne key", rows, follower, rect.as_tuple()),
                     rect_of(Rect(rect.x, rect.y, rect.w, height), 3),
                     lambda s: paint_entries(s, layout, rect, entries))

    def _key_sample(self, row: str, state: CarcState, surface: Any, box: pygame.Rect) -> None:
        self._key_swatch(surface, row, pygame.Rect(box.x, box.y, box.h, box.h), state)  # a tile's sample is square

    def _key_swatch(self, surface: Any, row: str, box: pygame.Rect, state: CarcState) -> None:
        c = (box.centerx, box.centery)
        r = box.w / 2
        if row.startswith("disaster:"):
            draw_badge(surface, c, r * 0.9, DISASTER_LETTERS[row.split(":")[1]], palette.CITY)
            return
        if row in ("city", "field", "shield", "blank"):
            pygame.draw.rect(surface, {"field": FIELD, "blank": BLANK}.get(row, CITY), box)
            outline_rect(surface, CITY_EDGE if row == "city" else palette.GRID, box, 1)
            if row == "shield":
                draw_shield(surface, c, r * 0.45)
        elif row in ("road", "river"):
            pygame.draw.rect(surface, FIELD, box)
            w = max(2, round(r * (0.32 if row == "road" else 0.45)))
            pygame.draw.line(surface, palette.CITY_EDGE, (box.x, box.centery), (box.right, box.centery), w + 2)
            pygame.draw.line(surface, ROAD if row == "road" else RIVER, (box.x, box.centery),
                             (box.right, box.centery), w)
        elif row == "cloister":
            pygame.draw.rect(surface, FIELD, box)
            draw_house(surface, c, r * 0.55)
        elif row == "follower":
            seat = state.current
            fill = player_colour(self.who(seat), seat)
            draw_mark(surface, "circle", c, r * 0.8, fill, edge=palette.CITY if sum(fill) < 120 else palette.CITY_EDGE)
            text.draw(surface, initials([self.who(i) for i in range(state.players)])[seat], c,
                      max(text.minimum(surface.get_height()), round(r * 1.2)),
                      ink_on(fill), anchor="center", bold=True)
        elif row == "tornado":
            funnel = [(c[0] - r * 0.8, c[1] - r * 0.6), (c[0] + r * 0.8, c[1] - r * 0.6), (c[0], c[1] + r * 0.8)]
            pygame.draw.polygon(surface, TORNADO, funnel)
            pygame.draw.polygon(surface, palette.CITY_EDGE, funnel, 2)
        elif row == "tornado_path":
            pygame.draw.line(surface, TORNADO, (box.x, box.centery), (box.right, box.centery), max(3, round(r * 0.4)))
        elif row in ("tornado_target", "meteor_target"):
            ring = [(box.x + 2, box.y + 2), (box.right - 2, box.y + 2), (box.right - 2, box.bottom - 2),
                    (box.x + 2, box.bottom - 2)]
            if row == "tornado_target":
                pygame.draw.polygon(surface, TARGET, ring, 3)
            else:
                _dashed_ring(surface, ring, METEOR, 3)
        elif row in ("quake_zone", "flood_area", "flood_spread"):
            colour = QUAKE if row == "quake_zone" else FLOOD
            if row == "flood_spread":
                pygame.draw.rect(surface, palette.faded(colour, 0.6), box)
            elif row == "quake_zone":
                with clipped(surface, box):
                    for k in range(-box.h, box.w, max(5, box.w // 3)):
                        pygame.draw.line(surface, QUAKE, (box.x + k, box.bottom), (box.x + k + box.h, box.y), 2)
            for a, b in zip(_corner_list(box), [*_corner_list(box)[1:], _corner_list(box)[0]], strict=True):
                draw_line(surface, a, b, colour, 3, () if row == "flood_spread" else (3, 2), casing=None)
        elif row == "quake_hit":
            pygame.draw.rect(surface, CITY, box)
            outline_rect(surface, QUAKE, box, 3)
        elif row == "meteor_aim":
            draw_mark(surface, "circle", c, r * 0.8, METEOR)
            text.draw(surface, "M", c, max(text.minimum(surface.get_height()), round(r * 1.2)), ink_on(METEOR),
                      anchor="center", bold=True)
        elif row == "meteor_end":
            pygame.draw.rect(surface, CITY, box)
            pygame.draw.line(surface, ENDED, (box.right - 4, box.y + 2), (box.right - 4, box.bottom - 2), 4)
        else:  # open
            outline_rect(surface, palette.GRID, box.inflate(-4, -4), 2)


def _path_step(surface: Any, a: Point, b: Point, width: int) -> None:
    """One space of the tornado's path: a line with an arrowhead halfway."""
    draw_line(surface, a, b, TORNADO, width)
    _arrowhead(surface, a, b, width * 1.6, TORNADO)


def _follower(surface: Any, at: Point, radius: float, fill: palette.Colour, mark: str, size: int, width: int) -> None:
    """A follower: a disc in its player's colour with the colour's initial."""
    draw_mark(surface, "circle", at, radius, fill, edge=palette.CITY if sum(fill) < 120 else palette.CITY_EDGE,
              width=width)
    text.draw(surface, mark, at, size, ink_on(fill), anchor="center", bold=True)


def _numbered(pieces: list[Piece]) -> list[Piece]:
    """``pieces`` with a repeated key told apart by its count so far (a tornado back over its own path
    draws the same step again, over what came between): the renderer compares pieces as a set, so a
    repeat that came or went would otherwise go unseen."""
    seen: dict[Any, int] = {}
    out = []
    for p in pieces:
        n = seen.get(p.key, 0)
        seen[p.key] = n + 1
        out.append(p if n == 0 else Piece((p.key, "again", n), p.rect, p.draw))
    return out


RECAP_LINES = 5
"""The side panel's room for what just happened: the engine's recap is at most five lines."""


def _text_piece(words: str, at: Point, size: int, colour: palette.Colour, bold: bool = False,
                max_width: int | None = None) -> Piece:
    """A line of the side panel as a piece: its rectangle is the rendered text's."""
    return text.piece("text", words, at, size, colour, bold=bold, max_width=max_width)


def _player_disc(surface: Any, centre: Point, radius: float, fill: palette.Colour, mark: str, size: int) -> None:
    draw_mark(surface, "circle", centre, radius, fill, edge=palette.CITY if sum(fill) < 120 else palette.CITY_EDGE)
    text.draw(surface, mark, centre, size, ink_on(fill), anchor="center", bold=True)


def _arrowhead(surface: Any, a: Point, b: Point, size: float, colour: palette.Colour) -> None:
    """An arrowhead halfway along a to b, pointing at b."""
    length = math.dist(a, b) or 1.0
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    mx, my = (a[0] + b[0]) / 2 + ux * size / 2, (a[1] + b[1]) / 2 + uy * size / 2
    pts = [(mx, my), (mx - ux * size - uy * size * 0.7, my - uy * size + ux * size * 0.7),
           (mx - ux * size + uy * size * 0.7, my - uy * size - ux * size * 0.7)]
    pygame.draw.polygon(surface, colour, pts)
    pygame.draw.polygon(surface, palette.CITY_EDGE, pts, 1)


def _corner_list(box: pygame.Rect) -> list[Point]:
    return [(box.x + 1, box.y + 1), (box.right - 2, box.y + 1), (box.right - 2, box.bottom - 2),
            (box.x + 1, box.bottom - 2)]


_NONE = TileType("", "", 0, "XXXX", ())

KEY_WORDS = {
    "city": "city", "shield": "shield (city +2)", "road": "road", "field": "field", "cloister": "cloister",
    "river": "river", "blank": "tile laid",
    "disaster:tornado": "T: tornado tile", "disaster:earthquake": "E: earthquake tile",
    "disaster:meteor": "M: meteor tile", "disaster:flood": "F: flood tile",
    "follower": "follower", "tornado": "tornado, spaces left", "tornado_path": "tornado's path",
    "tornado_target": "tornado may go here", "quake_zone": "earthquake zone", "quake_hit": "city the quake hits",
    "flood_area": "flood spreads here next", "flood_spread": "under the flood", "meteor_target": "meteor may go here",
    "meteor_aim": "meteor aimed here", "meteor_end": "ends at the meteor", "open": "open space",
}
