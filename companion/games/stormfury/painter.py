"""Stormfury on the map: the storm and its footprint, the forecast paths, the track, defences and damage.

Everything is read from the engine's immutable StormState and its Board, and from what the session
worked out from the rules for that state (:mod:`companion.games.stormfury.drawn`, handed over as plain data
in a :class:`~companion.views.drawn.Drawn`): the paths of the five forecast cards, walked with the
engine's own ``storm.walk`` so the map shows exactly where each card would take the centre, edge rule
included, whose turn it is and the engine's words. The painter imports no rule module and asks the engine
nothing. Each mark has a shape as well as a colour:
destroyed spaces a cross, population losses a numbered badge, forts a numbered square, dams a bar,
and in the player phase a chevron on each road a player can still travel from her city.

Every mark and every side panel row is a piece (:mod:`companion.views.projector.pieces`), so a
player's card repaints her token, the mark it made and the panel rows it changed, and the storm's
move repaints its old and new reach, not the whole map.
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from companion.hexgrid import Hex
from companion.views.drawn import NOTHING, Drawn
from companion.views.projector import palette, text, textures
from companion.views.projector.board import MapData, Spot, label_place
from companion.views.projector.chart import paint_damage_chart
from companion.views.projector.key import FootKey, KeyEntry
from companion.views.projector.layout import Layout, Rect
from companion.views.projector.marks import draw_line, draw_polyline, draw_token, outline_rect
from companion.views.projector.palette import Colour
from companion.views.projector.pieces import KeptPieces, Piece, around, keep, rect_of
from companion.views.projector.status import paint_turn
from companion.views.projector.symbols import Symbols

KINDS = ("infrastructure", "population", "road")
TOKEN_SHARE = 0.45
"""A player token's radius, at least this share of the hex's."""
TOKEN_SCREEN = 0.016
"""... and at least this share of the screen height (11 px at 720p, 17 px at 1080p)."""
PLAYER_COLOURS: tuple[Colour, ...] = ((0, 114, 178), (230, 159, 0), (204, 121, 167), (86, 180, 233))
"""One Okabe-Ito colour per seat (blue, orange, reddish purple, sky blue); the initials tell them apart too."""
STEP_ANGLE = {"N": -90, "NE": -30, "SE": 30, "S": 90, "SW": 150, "NW": 210}
"""Screen angle in degrees of each hex direction (flat-topped hexes, y down)."""


class StormfuryPainter:
    """Draws a StormState over the Stormfury board."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.board = game.board
        self._centres = {c.id: c.population_centre for c in self.board.cities}
        self._labels: dict[tuple[int, int, float], list[Any]] = {}
        self._data: MapData | None = None
        self._key = FootKey()
        self._kept = KeptPieces(4000)
        self.drawn: Drawn = NOTHING
        """The rules' answers for the state drawn next (:meth:`use`)."""

    def use(self, drawn: Drawn) -> None:
        """Draw the next states with ``drawn``, the session's answers for them (the renderer hands it over with
        every new state, before asking for its pieces)."""
        self.drawn = drawn

    # -- the printed board ----------------------------------------------------------------------
    def map_data(self, state: Any = None) -> MapData:
        """The printed board (the same for the whole game: made once; the renderer asks on every state)."""
        if self._data is not None:
            return self._data
        b = self.board
        terrain = {h: ("land" if h in b.land else "ocean") for h in b.hexes}
        places: list[Spot] = []
        for city in b.cities:
            places.append(Spot(city.name, city.population_centre, "city"))
            # each kind of space its own mark, named in the key ("port", "power plant")
            places.extend(Spot(s.name, s.hex, s.name.lower(), label=False) for s in city.infrastructure)
        roads = tuple(self._road_line(r) for r in b.roads)
        self._data = MapData(terrain, tuple(places), roads, self.game.title, symbols=self._symbols(places))
        return self._data

    @staticmethod
    def _symbols(places: list[Spot]) -> Symbols:
        """City a disc; the kinds of space the other marks, in sorted order (a port a square, a power
        plant a diamond on the printed board's cities)."""
        spare = ("square", "diamond", "triangle", "hexagon", "star")
        kinds = sorted({p.kind for p in places} - {"city"})
        return Symbols(marks={"city": "circle", **{k: spare[i % len(spare)] for i, k in enumerate(kinds)}})

    def _road_line(self, road: Any) -> tuple[Hex, ...]:
        """The road as printed: from one city through each of its hexes to the other."""
        return (self._centres[road.ends[0]], *road.hexes, self._centres[road.ends[1]])

    def passable_roads(self, state: Any) -> dict[str, tuple[Any, ...]]:
        """In the player phase: for each city a player stands in, the roads out of it that are not
        flooded ("travel along non-flooded roads"), the ones the map marks with a chevron."""
        if state.phase != "players":
            return {}
        return {p.city: tuple(r for r in self.board.roads_of(p.city) if r.id not in state.flooded)
                for p in state.players if p.city in self._centres}

    def side_lines(self, state: Any) -> tuple[str, ...]:
        """The text lines under the forecast in the side panel: whose turn it is and what she does
        with her cards (the engine's reminders), then the population rule choice."""
        lines: list[str] = []
        role = self.drawn.get("turn", "")
        if role:
            lines += [f"{role}'s turn", *self.drawn.get("reminders", ())]
        return (*lines, self.board.rules.population_line)

    # -- the state on the map -------------------------------------------------------------------
    def footprint(self, state: Any) -> frozenset[Hex]:
        """Hexes under the storm where it stands (the area its category covers now)."""
        if state.category <= 0:
            return frozenset()
        radius = self.board.rules.radius[state.category - 1]
        return frozenset(h for h in state.centre.within(radius) if h in self.board.hexes)

    def forecast_paths(self) -> tuple[tuple[str, tuple[Hex, ...]], ...]:
        """(card id, hexes from the centre) for each forecast card, as if drawn first (the session's walk)."""
        paths: tuple[tuple[str, tuple[Hex, ...]], ...] = self.drawn.get("paths", ())
        return paths

    def paint_state(self, surface: Any, layout: Layout, state: Any, overlay: bool = False) -> None:
        """The storm's marks (see :meth:`state_pieces`); under the risk overlay the footprint is an
        outline only, so the heat shows."""
        for piece in self.state_pieces(layout, state, overlay):
            piece.draw(surface)

    def state_pieces(self, layout: Layout, state: Any, overlay: bool = False) -> list[Piece]:
        """The storm's marks as pieces, in the order they were always drawn (so the picture is the same):
        the footprint's tint and edges per hex, flooded and dammed roads per road, the track per turn,
        each forecast path, each damaged or fortified space, each city's people, each open road's
        chevron, each player's token, the centre. A player's card repaints only the marks it changed.

        Pieces, and the lists that stay while the storm stands still (its reach, the forecast's paths,
        the tokens), are kept per screen size: most of a state's marks are the last state's."""
        kept = self._kept.at(layout)
        makers = self._makers(state)
        pieces = list(keep(kept, ("footprint", state.centre, state.category, overlay, state.phase == "over"),
                            self._footprint_pieces, layout, state, overlay))
        pieces += self._road_pieces(layout, state, makers, kept)
        pieces += self._track_pieces(layout, state, kept)
        paths = self.forecast_paths()
        pieces += keep(kept, ("paths", paths), self._path_pieces, layout, paths)
        pieces += self._space_pieces(layout, state, makers, kept)
        pieces += self._passable_pieces(layout, state, kept)
        pieces += keep(kept, ("tokens", state.placed if state.phase == "setup" else None, state.players),
                        self._player_pieces, layout, state)
        pieces += self._centre_pieces(layout, state)
        return pieces

    def _makers(self, state: Any) -> dict[str, tuple[str, Colour]]:
        """Who made each defence ("fort:SPACE", "dam:ROAD:CITY", "evac:CITY", the latest maker of each):
        her initials and her colour, as her maker disc shows them."""
        return {mark: (self.initials(role), self.seat_colour(state, role))
                for mark, role in dict(state.placed_by).items()}

    def _footprint_pieces(self, layout: Layout, state: Any, overlay: bool) -> list[Piece]:
        """The storm's reach: a translucent tint per hex (not under the overlay), then each hex's edge.

        The tints were one full-screen layer, where a pixel two neighbouring hexes share is tinted once;
        so each hex's small layer leaves out the pixels of the neighbours tinted before it."""
        if state.phase == "over":
            return []
        s = layout.hex_size
        edge = palette.category_colour(state.category)
        hexes = sorted(self.footprint(state))
        pieces: list[Piece] = []
        if not overlay:
            colour = (*edge, 110)
            done: set[Hex] = set()
            for h in hexes:
                before = tuple(n for n in h.neighbours() if n in done)
                poly, others = layout.polygon(h, 0.96), [layout.polygon(n, 0.96) for n in before]
                pieces.append(Piece(("reach tint", h, colour, before), around(poly, 1),
                                    lambda surf, poly=poly, others=others: self._paint_tint(
                                        surf, poly, colour, others)))
                done.add(h)
        width = max(1, round(s * 0.05))
        for h in hexes:
            poly = layout.polygon(h, 0.96)
            pieces.append(Piece(("reach edge", h, edge, width), around(poly, width + 2),
                                lambda surf, poly=poly: pygame.draw.polygon(surf, edge, poly, width)))
        return pieces

    @staticmethod
    def _paint_tint(surface: Any, poly: list[tuple[float, float]], colour: Any,
                    others: list[list[tuple[float, float]]]) -> None:
        """One hex of the footprint's tint, through a translucent layer the size of the hex; ``others``:
        the outlines of the neighbours tinted before it."""
        box = around(poly, 1)
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.polygon(layer, colour, [(x - box.x, y - box.y) for x, y in poly])
        for other in others:  # tinted already: a pixel is tinted once, as on one layer
            pygame.draw.polygon(layer, (0, 0, 0, 0), [(x - box.x, y - box.y) for x, y in other])
        surface.blit(layer, box.topleft)

    def _road_pieces(self, layout: Layout, state: Any, makers: dict[str, Any], kept: dict[Any, Any]) -> list[Piece]:
        """Each flooded or dammed road: its flood line and waves, then its dams with who made them."""
        pieces: list[Piece] = []
        for road in self.board.roads:
            flooded = road.id in state.flooded
            dams = tuple((end, makers.get(f"dam:{road.id}:{end}")) for end in road.ends if (road.id, end) in state.dams)
            if not flooded and not dams:
                continue
            pieces.append(keep(kept, ("road", road.id, flooded, dams), self._road_piece, layout, road, flooded, dams,
                                state))
        return pieces

    def _road_piece(self, layout: Layout, road: Any, flooded: bool, dams: tuple[Any, ...], state: Any) -> Piece:
        """A road's marks; ``dams``: (city, her initials and colour) for each dammed end."""
        return Piece(("road", road.id, flooded, dams), self._road_box(layout, road, flooded, dams),
                     lambda surf: self._paint_road(surf, layout, road, flooded, tuple(end for end, _ in dams), state))

    def _waves(self, layout: Layout, road: Any) -> list[list[tuple[float, float]]]:
        """The two wavy lines across a flooded road's middle hex."""
        s = layout.hex_size
        x, y = layout.centre(road.middle)
        return [[(x + s * (t / 10 - 0.4), y + s * dy + s * 0.08 * math.sin(t * 1.1)) for t in range(9)]
                for dy in (-0.18, 0.08)]

    def _dam_bar(self, layout: Layout, road: Any, end: str) -> tuple[tuple[float, float], tuple[float, float]]:
        """A dam's bar: across the road, a little past the middle of its stretch from the city ``end``."""
        s = layout.hex_size
        near = road.hexes[0] if end == road.ends[0] else road.hexes[-1]
        (ax, ay), (bx, by) = layout.centre(self._centres[end]), layout.centre(near)
        mx, my = ax + (bx - ax) * 0.55, ay + (by - ay) * 0.55
        nx, ny = -(by - ay), bx - ax
        n = math.hypot(nx, ny) or 1
        nx, ny = nx / n * s * 0.3, ny / n * s * 0.3
        return (mx - nx, my - ny), (mx + nx, my + ny)

    def _road_box(self, layout: Layout, road: Any, flooded: bool, dams: tuple[Any, ...]) -> pygame.Rect:
        s = layout.hex_size
        boxes = []
        if flooded:
            boxes.append(around([layout.centre(h) for h in self._road_line(road)], max(3, round(s * 0.2)) / 2 + 2))
            boxes += [around(wave, max(2, round(s * 0.07)) / 2 + 2) for wave in self._waves(layout, road)]
        for end, who in dams:
            a, b = self._dam_bar(layout, road, end)
            boxes.append(around([a, b], max(4, round(s * 0.2)) / 2 + 2))
            boxes += self._maker_boxes(layout, who, b)
        return boxes[0].unionall(boxes[1:])

    def _paint_road(self, surface: Any, layout: Layout, road: Any, flooded: bool, dams: tuple[str, ...],
                    state: Any) -> None:
        """A flooded road: a wide flood line with two waves over its middle; a dam: a bar across the road
        by the city it keeps dry, and the initials of who built it."""
        s = layout.hex_size
        if flooded:
            line = [layout.centre(h) for h in self._road_line(road)]
            pygame.draw.lines(surface, palette.FLOOD, False, line, max(3, round(s * 0.2)))
            for pts in self._waves(layout, road):  # two waves: flooded
                pygame.draw.lines(surface, palette.CITY_EDGE, False, pts, max(2, round(s * 0.07)))
        for end in dams:
            a, b = self._dam_bar(layout, road, end)
            pygame.draw.line(surface, palette.CITY_EDGE, a, b, max(4, round(s * 0.2)))
            pygame.draw.line(surface, palette.DAM, a, b, max(2, round(s * 0.12)))
            self._paint_maker(surface, layout, state, f"dam:{road.id}:{end}", b)

    def _passable_pieces(self, layout: Layout, state: Any, kept: dict[Any, Any]) -> list[Piece]:
        """A chevron on the first hex of every open road out of a city where a player stands, pointing
        away from the city: the ways she can still travel (a flooded road shows waves instead)."""
        # In a fixed order (by city, then road): two chevrons of one road can overlap, and pieces drawn in a
        # new order over an unchanged screen would leave the old one on top.
        return [keep(kept, ("chevron", city, road.id), self._chevron, layout, city, road)
                for city, roads in sorted(self.passable_roads(state).items())
                for road in sorted(roads, key=lambda r: r.id)]

    def _chevron(self, layout: Layout, city: str, road: Any) -> Piece:
        s = layout.hex_size
        width = max(1, round(s * 0.06))
        cx, cy = layout.centre(self._centres[city])
        first = road.hexes[0] if road.ends[0] == city else road.hexes[-1]
        x, y = layout.centre(first)
        a = math.atan2(y - cy, x - cx)
        r = s * 0.42
        tip = (x + math.cos(a) * r, y + math.sin(a) * r)
        left = (x + math.cos(a + 2.4) * r, y + math.sin(a + 2.4) * r)
        right = (x + math.cos(a - 2.4) * r, y + math.sin(a - 2.4) * r)
        notch = (x + math.cos(a) * r * 0.1, y + math.sin(a) * r * 0.1)
        pts = [tip, left, notch, right]
        return Piece(("chevron", city, road.id), around(pts, width + 2),
                     lambda surf: self._paint_chevron(surf, pts, width))

    @staticmethod
    def _paint_chevron(surface: Any, pts: list[tuple[float, float]], width: int) -> None:
        pygame.draw.polygon(surface, palette.CITY, pts)
        pygame.draw.polygon(surface, palette.CITY_EDGE, pts, width)

    def _track_pieces(self, layout: Layout, state: Any, kept: dict[Any, Any]) -> list[Piece]:
        """The storm's way so far: one segment per turn, older turns fainter."""
        here = self.board.start
        turns = len(state.log)
        w = max(2, round(layout.hex_size * 0.14))
        pieces: list[Piece] = []
        for n, turn in enumerate(state.log):
            way = (here, *turn.path)
            colour = palette.faded(palette.TRACK, 0.5 * (turns - 1 - n) / max(1, turns))
            pieces.append(keep(kept, ("storm track", way, colour), self._turn_track, layout, way, colour, w))
            if turn.path:
                here = turn.path[-1]
        return pieces

    def _turn_track(self, layout: Layout, way: tuple[Hex, ...], colour: Colour, w: int) -> Piece:
        pts = [layout.centre(h) for h in way]
        return Piece(("storm track", way, colour), around(pts, max(w * 1.4, w / 2 + 2) + 2),
                     lambda surf: self._paint_turn_track(surf, pts, colour, w))

    @staticmethod
    def _paint_turn_track(surface: Any, pts: list[tuple[float, float]], colour: Colour, w: int) -> None:
        """One turn's stretch of the track, ending in a dot where the storm stopped."""
        draw_polyline(surface, pts, colour, w)  # over a dark casing: it holds on land and sea
        pygame.draw.circle(surface, colour, pts[-1], w * 1.4)

    def _path_pieces(self, layout: Layout, paths: tuple[tuple[str, tuple[Hex, ...]], ...]) -> list[Piece]:
        return [self._path_piece(layout, path, palette.OKABE_ITO[i % len(palette.OKABE_ITO)], self.card_word(cid), i)
                for i, (cid, path) in enumerate(paths)]

    def card_word(self, card_id: str) -> str:
        """A forecast card on its path's disc as the table reads it: the number of its name ("Ocean 3" -> "3"; the
        forecast is dealt from one deck, whose name the side panel's rows give), never its code ("O3")."""
        name = self.board.card(card_id).name
        word, _, number = name.partition(" ")
        return number or word

    def _path_piece(self, layout: Layout, path: tuple[Hex, ...], colour: Any, label: str, index: int) -> Piece:
        """Where one forecast card would take the centre: a line from the centre to a disc with its number."""
        s = layout.hex_size
        # Paths of different cards often share hexes: each is nudged sideways a little so all show.
        off = (index - 2) * s * 0.07
        pts = [(x + off, y + off) for x, y in (layout.centre(h) for h in path)]
        size = text.px(0.018, layout.height)
        box = around(pts, max(max(4, round(s * 0.14)) / 2, round(s * 0.28)) + 2).union(
            _text_box(label, pts[-1], size, palette.CITY_EDGE))
        return Piece(("forecast path", label, path, colour, index), box,
                     lambda surf: self._paint_path(surf, pts, s, colour, label, size))

    @staticmethod
    def _paint_path(surface: Any, pts: list[tuple[float, float]], s: float, colour: Any, label: str,
                    size: int) -> None:
        if len(pts) >= 2:
            pygame.draw.lines(surface, palette.CITY_EDGE, False, pts, max(4, round(s * 0.14)))
            pygame.draw.lines(surface, colour, False, pts, max(2, round(s * 0.08)))
        end = pts[-1]
        pygame.draw.circle(surface, colour, end, round(s * 0.28))
        pygame.draw.circle(surface, palette.CITY_EDGE, end, round(s * 0.28), max(1, round(s * 0.05)))
        text.draw(surface, label, end, size, palette.CITY_EDGE, anchor="center", bold=True)

    def _space_pieces(self, layout: Layout, state: Any, makers: dict[str, Any], kept: dict[Any, Any]) -> list[Piece]:
        """Per city: each destroyed or fortified space, then the city's people, losses and evacuation."""
        lost: dict[str, int] = {}
        for d in state.damage:
            if d.kind == "population":
                lost[d.city] = lost.get(d.city, 0) + d.amount
        fortified, population = dict(state.fortifications), dict(state.population)
        pieces: list[Piece] = []
        for city in self.board.cities:
            for space in city.spaces:
                destroyed = space.id in state.destroyed
                forts = fortified.get(space.id, 0)
                if not destroyed and not forts:
                    continue
                key = ("space", space.id, destroyed, forts, makers.get(f"fort:{space.id}") if forts else None)
                pieces.append(keep(kept, key, self._space_piece, layout, key, space, state))
            key = ("city", city.id, population.get(city.id, 0), lost.get(city.id, 0), makers.get(f"evac:{city.id}"))
            pieces.append(keep(kept, key, self._city_piece, layout, key, city, state))
        return pieces

    def _space_piece(self, layout: Layout, key: tuple[Any, ...], space: Any, state: Any) -> Piece:
        """A space's marks; ``key``: ("space", id, destroyed, forts, its fort's maker)."""
        _, _, destroyed, forts, who = key
        return Piece(key, self._space_box(layout, space.hex, destroyed, forts, who),
                     lambda surf: self._paint_space(surf, layout, space, destroyed, forts, state))

    def _city_piece(self, layout: Layout, key: tuple[Any, ...], city: Any, state: Any) -> Piece:
        """A city's marks; ``key``: ("city", id, people, people lost, who evacuated it)."""
        _, _, people, loss, who = key
        return Piece(key, self._city_box(layout, city, people, loss, who),
                     lambda surf: self._paint_city(surf, layout, city, people, loss, state))

    @staticmethod
    def _fort_box(layout: Layout, at: tuple[float, float]) -> pygame.Rect:
        """A fort's square, beside its space's centre (bottom left)."""
        s = layout.hex_size
        side = max(round(s * 0.5), round(layout.height * 0.02))
        box = pygame.Rect(0, 0, side, side)
        box.center = (round(at[0] - s * 0.42), round(at[1] + s * 0.42))
        return box

    def _space_box(self, layout: Layout, h: Hex, destroyed: bool, forts: int, who: Any) -> pygame.Rect:
        s = layout.hex_size
        x, y = layout.centre(h)
        boxes = []
        if destroyed:
            a = s * 0.38
            boxes.append(around([(x - a, y - a), (x + a, y + a)], max(5, round(s * 0.22)) / 2 + 2))
        if forts:
            box = self._fort_box(layout, (x, y))
            size = max(text.px(0.018, layout.height), round(box.w * 0.9))
            boxes += [box.inflate(4, 4), _text_box(str(forts), box.center, size, palette.CITY_EDGE),
                      *self._maker_boxes(layout, who, box.topleft)]
        return boxes[0].unionall(boxes[1:])

    def _paint_space(self, surface: Any, layout: Layout, space: Any, destroyed: bool, forts: int, state: Any) -> None:
        """A destroyed space: a cross; a fortified one: a numbered square with its builder's initials."""
        s = layout.hex_size
        x, y = layout.centre(space.hex)
        if destroyed:
            a = s * 0.38
            for w, colour in ((max(5, round(s * 0.22)), palette.CITY_EDGE), (max(3, round(s * 0.13)),
                                                                              palette.DAMAGE)):
                pygame.draw.line(surface, colour, (x - a, y - a), (x + a, y + a), w)
                pygame.draw.line(surface, colour, (x - a, y + a), (x + a, y - a), w)
        if forts:
            box = self._fort_box(layout, (x, y))
            pygame.draw.rect(surface, palette.FORT, box)
            outline_rect(surface, palette.CITY_EDGE, box, max(1, round(s * 0.05)))
            text.draw(surface, str(forts), box.center, max(text.px(0.018, layout.height), round(box.w * 0.9)),
                      palette.CITY_EDGE, anchor="center", bold=True)
            self._paint_maker(surface, layout, state, f"fort:{space.id}", box.topleft)

    def _city_box(self, layout: Layout, city: Any, people: int, loss: int, who: Any) -> pygame.Rect:
        s = layout.hex_size
        x, y = layout.centre(city.population_centre)
        boxes = [_text_box(str(people), (x, y), text.px(0.022, layout.height), palette.CITY_EDGE),
                 *self._maker_boxes(layout, who, (round(x - s * 0.45), round(y - s * 0.4)))]
        if loss:
            centre = (round(x + s * 0.45), round(y + s * 0.4))
            boxes += [around([centre], round(s * 0.26) + 1),
                      _text_box(f"-{loss}", centre, text.px(0.018, layout.height), palette.CITY_EDGE)]
        return boxes[0].unionall(boxes[1:])

    def _paint_city(self, surface: Any, layout: Layout, city: Any, people: int, loss: int, state: Any) -> None:
        """A city's people left at its centre, who evacuated it, and a badge with the people it lost."""
        s = layout.hex_size
        x, y = layout.centre(city.population_centre)
        self._paint_maker(surface, layout, state, f"evac:{city.id}", (round(x - s * 0.45), round(y - s * 0.4)))
        text.draw(surface, str(people), (x, y), text.px(0.022, layout.height), palette.CITY_EDGE,
                  anchor="center", bold=True)
        if loss:
            centre = (round(x + s * 0.45), round(y + s * 0.4))
            pygame.draw.circle(surface, palette.DAMAGE, centre, round(s * 0.26))
            pygame.draw.circle(surface, palette.CITY_EDGE, centre, round(s * 0.26), max(1, round(s * 0.05)))
            text.draw(surface, f"-{loss}", centre, text.px(0.018, layout.height), palette.CITY_EDGE,
                      anchor="center", bold=True)

    def token_radius(self, layout: Layout) -> int:
        """A player token's radius: at least TOKEN_SHARE of the hex and TOKEN_SCREEN of the screen height, so
        a token reads from across a room at 720p as at 1080p (about as tall as a city's name)."""
        return max(round(layout.hex_size * TOKEN_SHARE), round(layout.height * TOKEN_SCREEN))

    def _label_rects(self, layout: Layout) -> list[Any]:
        """Where the board's names are drawn (by the board painter's own code, on a scratch surface, once
        per screen size): the tokens keep clear of them, since names are drawn last, over the marks."""
        key = (layout.width, layout.height, layout.hex_size)
        if key not in self._labels:
            scratch = pygame.Surface((layout.width, layout.height))
            taken: list[Any] = []
            for place in self.map_data().places:
                if place.label:
                    taken.append(label_place(scratch, layout, place, taken))
            self._labels = {key: taken}
        return self._labels[key]

    def token_spots(self, layout: Layout, state: Any) -> list[tuple[str, tuple[int, int], int, Colour]]:
        """(role, centre, radius, colour) of each player's token: a cluster by her city, on the first side
        (right, left, below, above) where no name and no other cluster is, inside the map."""
        r = self.token_radius(layout)
        gap = max(2, r // 5)
        labels = [rect.inflate(4, 4) for rect in self._label_rects(layout)]
        by_city: dict[str, list[int]] = {}
        for i, p in enumerate(state.players):
            if state.phase == "setup" and i >= state.placed:  # not placed yet: no token on the board
                continue
            if p.city in self._centres:
                by_city.setdefault(p.city, []).append(i)
        spots: list[tuple[str, tuple[int, int], int, Colour]] = []
        used: list[Any] = []
        area = pygame.Rect(layout.map.as_tuple())
        s = layout.hex_size
        for city, seats in by_city.items():
            x, y = layout.centre(self._centres[city])
            cols = 1 if len(seats) == 1 else 2
            rows = (len(seats) + cols - 1) // cols
            w, h = cols * 2 * r + (cols - 1) * gap, rows * 2 * r + (rows - 1) * gap
            sides = ((x + s * 0.5, y - h / 2), (x - s * 0.5 - w, y - h / 2), (x - w / 2, y + s * 0.55),
                     (x - w / 2, y - s * 0.55 - h))
            boxes = [pygame.Rect(round(bx), round(by), w, h) for bx, by in sides]
            free = [b for b in boxes if area.contains(b) and b.collidelist(labels) < 0 and b.collidelist(used) < 0]
            box = (free or boxes)[0]
            used.append(box.inflate(gap, gap))
            for n, seat in enumerate(seats):
                cx = box.x + r + (n % cols) * (2 * r + gap)
                cy = box.y + r + (n // cols) * (2 * r + gap)
                spots.append((state.players[seat].role, (cx, cy), r, PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]))
        return spots

    def initials(self, role: str) -> str:
        """A role's mark on its token: the initials of its name, or the first two letters of a one-word name
        ("AE", "Ar", "ES", "RC"), so no two experts share one."""
        words = self.board.role(role).name.split()
        return "".join(w[0] for w in words[:2]).upper() if len(words) > 1 else words[0][:2]

    def seat_colour(self, state: Any, role: str) -> Colour:
        """The colour of the player playing ``role`` (by her seat), as her token has it."""
        seat = next((i for i, p in enumerate(state.players) if p.role == role), 0)
        return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]

    @staticmethod
    def _maker_boxes(layout: Layout, who: tuple[str, Colour] | None, at: tuple[float, float]) -> list[pygame.Rect]:
        """Where :meth:`_paint_maker` draws (nothing when nobody is named)."""
        if who is None:
            return []
        size = text.minimum(layout.height)
        centre = (round(at[0]), round(at[1]))
        return [around([centre], math.ceil(size * 0.75) + 3), _text_box(who[0], centre, size, _ink(who[1]))]

    def _paint_maker(self, surface: Any, layout: Layout, state: Any, mark: str, at: tuple[float, float]) -> None:
        """Who made a defence (a fort, a dam, an evacuation): a small disc in her colour with her initials,
        legible as any text on the screen, beside the mark.

        A kept piece draws with the state it was made from: its key holds the maker's initials and
        colour (see :meth:`_makers`), all this reads of the state, so any state with that key draws alike."""
        who = self._makers(state).get(mark)
        if who is None:
            return
        initials, colour = who
        size = text.minimum(layout.height)
        r = math.ceil(size * 0.75)
        centre = (round(at[0]), round(at[1]))
        pygame.draw.circle(surface, palette.CITY_EDGE, centre, r + 2)
        pygame.draw.circle(surface, colour, centre, r)
        ink = _ink(colour)
        text.draw(surface, initials, centre, size, ink, anchor="center", bold=True)

    def _player_pieces(self, layout: Layout, state: Any) -> list[Piece]:
        """Each player's token by her city."""
        pieces: list[Piece] = []
        for role, centre, r, colour in self.token_spots(layout, state):
            initials = self.initials(role)
            size = max(text.minimum(layout.height), round(r * 1.3))
            box = around([centre], r + max(2, r // 6) + 1).union(_text_box(initials, centre, size, _ink(colour)))
            pieces.append(Piece(("token", initials, centre, r, colour), box,
                                lambda surf, initials=initials, centre=centre, r=r, colour=colour, size=size:
                                self._paint_token(surf, initials, centre, r, colour, size)))
        return pieces

    @staticmethod
    def _paint_token(surface: Any, initials: str, centre: tuple[int, int], r: int, colour: Colour, size: int) -> None:
        pygame.draw.circle(surface, palette.CITY_EDGE, centre, r + max(2, r // 6))
        pygame.draw.circle(surface, colour, centre, r)
        pygame.draw.circle(surface, palette.CITY, centre, r, max(1, r // 8))
        ink = _ink(colour)
        text.draw(surface, initials, centre, size, ink, anchor="center", bold=True)

    def _centre_pieces(self, layout: Layout, state: Any) -> list[Piece]:
        """The storm's centre: a disc in its category's colour with the category."""
        if state.phase == "over" and state.category <= 0:
            return []
        s = layout.hex_size
        x, y = layout.centre(state.centre)
        r = round(s * 0.45)
        size = text.px(0.03, layout.height)
        label = str(state.category)
        box = around([(x, y)], r + 1).union(_text_box(label, (x, y), size, palette.CITY_EDGE))
        return [Piece(("storm centre", state.centre, state.category), box,
                      lambda surf: self._paint_centre(surf, (x, y), r, state.category, size, s))]

    @staticmethod
    def _paint_centre(surface: Any, at: tuple[float, float], r: int, category: int, size: int, s: float) -> None:
        pygame.draw.circle(surface, palette.category_colour(category), at, r)
        pygame.draw.circle(surface, palette.CITY_EDGE, at, r, max(2, round(s * 0.08)))
        text.draw(surface, str(category), at, size, palette.CITY_EDGE, anchor="center", bold=True)

    # -- the side panel -------------------------------------------------------------------------
    def key_entries(self, layout: Layout) -> list[KeyEntry]:
        """The storm's marks and the damage marks for the key under the board's symbols (player tokens
        and fortifications are named by their own letters and numbers on the map)."""
        size = text.px(text.MARK, layout.height)
        s = layout.hex_size

        def centre(surface: Any, box: Any) -> None:
            at = (box.x + box.h * 0.6, box.centery)
            draw_token(surface, "circle", at, box.h * 0.5, palette.category_colour(2), palette.CITY_EDGE, 2)
            text.draw(surface, "2", at, size, palette.CITY_EDGE, anchor="center", bold=True)

        def footprint(surface: Any, box: Any) -> None:
            pygame.draw.rect(surface, palette.faded(palette.category_colour(2), 0.45, palette.TERRAIN["ocean"]), box)
            outline_rect(surface, palette.category_colour(2), box, 2)

        def path(surface: Any, box: Any) -> None:
            a, b = (box.x + 2, box.centery), (box.right - box.h * 0.5, box.centery)
            draw_line(surface, a, b, palette.OKABE_ITO[0], max(2, round(s * 0.08)))
            draw_token(surface, "circle", b, box.h * 0.45, palette.OKABE_ITO[0], palette.CITY_EDGE, 2)

        def track(surface: Any, box: Any) -> None:
            pts = [(box.x + 2, box.bottom - 4), (box.centerx, box.y + 4), (box.right - 2, box.centery)]
            draw_polyline(surface, pts, palette.TRACK, max(2, round(s * 0.14)))

        def destroyed(surface: Any, box: Any) -> None:
            cx, cy, a = box.x + box.h * 0.6, box.centery, box.h * 0.38
            for w, colour in ((max(5, round(s * 0.22)), palette.CITY_EDGE), (max(3, round(s * 0.13)), palette.DAMAGE)):
                pygame.draw.line(surface, colour, (cx - a, cy - a), (cx + a, cy + a), w)
                pygame.draw.line(surface, colour, (cx - a, cy + a), (cx + a, cy - a), w)

        def lost(surface: Any, box: Any) -> None:
            at = (box.x + box.h * 0.6, box.centery)
            draw_token(surface, "circle", at, max(box.h * 0.5, size * 0.7), palette.DAMAGE, palette.CITY_EDGE, 2)
            text.draw(surface, "-1", at, size, palette.CITY_EDGE, anchor="center", bold=True)

        def flooded(surface: Any, box: Any) -> None:
            pygame.draw.line(surface, palette.FLOOD, (box.x, box.centery), (box.right, box.centery), max(3, box.h // 3))
            pts = [(box.x + box.w * t / 12, box.centery + box.h * 0.12 * math.sin(t * 1.1)) for t in range(13)]
            pygame.draw.lines(surface, palette.CITY_EDGE, False, pts, 2)

        def dam(surface: Any, box: Any) -> None:
            textures.paint_road(surface, [(box.x, box.centery), (box.right, box.centery)], box.h * 0.8)
            x = box.centerx
            pygame.draw.line(surface, palette.CITY_EDGE, (x, box.y), (x, box.bottom), max(4, box.h // 3))
            pygame.draw.line(surface, palette.DAM, (x, box.y + 2), (x, box.bottom - 2), max(2, box.h // 5))

        def maker(surface: Any, box: Any) -> None:
            at = (box.x + box.h * 0.6, box.centery)
            pygame.draw.circle(surface, PLAYER_COLOURS[0], (round(at[0]), round(at[1])), round(box.h * 0.5))
            text.draw(surface, "AE", at, size, palette.CITY, anchor="center", bold=True)

        return [KeyEntry("storm (category)", centre), KeyEntry("storm's reach", footprint),
                KeyEntry("forecast card path", path), KeyEntry("storm track", track),
                KeyEntry("destroyed space", destroyed), KeyEntry("people lost", lost),
                KeyEntry("flooded road", flooded), KeyEntry("dam", dam),
                KeyEntry("made by (initials)", maker)]

    def paint_side(self, surface: Any, layout: Layout, rect: Rect, state: Any) -> None:
        """Top to bottom: the category, what just happened and what is asked, the forecast cards, the
        damage (the score) and the turn's reminders; the key to every symbol at the foot. At the end
        of the game, the damage chart (see :meth:`side_pieces`)."""
        for piece in self.side_pieces(layout, rect, state):
            piece.draw(surface)

    def side_pieces(self, layout: Layout, rect: Rect, state: Any) -> list[Piece]:
        """The key at the foot (the same all game, one piece) and the rows above it, each a piece: the
        legend's rows and the forecast cards as well as the lines; at the end, the damage chart as one
        piece and the closing lines under it."""
        above, piece = self._key.split(layout, rect, lambda: self.map_data(state), lambda: self.key_entries(layout))
        pieces = [piece]
        if state.phase == "over":
            self._end_pieces(layout, above, state, pieces)
        else:
            self._line_pieces(layout, above, state, pieces)
        return pieces

    def _end_pieces(self, layout: Layout, above: Rect, state: Any, pieces: list[Piece]) -> None:
        """The damage chart (the worst cities first) and the game's closing lines under it."""
        summary = self.drawn.get("summary", {"by_city": {}, "by_kind": dict.fromkeys(KINDS, 0), "total": 0})
        rows = sorted(((self.board.city(cid).name, values) for cid, values in summary["by_city"].items()),
                      key=lambda row: -sum(row[1].values()))  # the worst cities first
        title = f"Damage: {summary['total']} ({self.drawn.get('ending', 'game over')})"
        totals = summary["by_kind"]
        # where the chart ends: drawn once where nothing shows (its height is all that is read)
        drawn = paint_damage_chart(pygame.Surface((1, 1)), above, title, rows, KINDS, layout.height, totals)
        key = ("damage chart", title, tuple((name, tuple(sorted(v.items()))) for name, v in rows),
               tuple(sorted(totals.items())), drawn.as_tuple())
        pieces.append(Piece(key, rect_of(drawn, 2), lambda surf: paint_damage_chart(
            surf, above, title, rows, KINDS, layout.height, totals)))
        below = Rect(above.x, drawn.y + drawn.h, above.w, max(0, above.y + above.h - drawn.y - drawn.h))
        end = text.Column(None, below, layout.height, pieces)
        end.gap()
        for line in self.drawn.get("final_lines", ())[1:]:
            end.line(line, text.BODY, palette.TEXT, bold=True, wrap_lines=True)

    def _line_pieces(self, layout: Layout, above: Rect, state: Any, pieces: list[Piece]) -> None:
        """The category, who is who, what happened and what is asked, the forecast cards, the damage so
        far and the reminders, down ``above``."""
        col = text.Column(None, above, layout.height, pieces)
        col.line(f"Category {state.category} - deck: {state.deck}", text.TITLE, palette.TEXT, bold=True)
        self._legend(col, layout, state)
        col.gap()
        drawn = self.drawn
        role = drawn.get("turn", "")
        asked = drawn.get("prompt", "")
        now = (f"{role}'s turn",) if role else (asked,) if asked else ()
        paint_turn(col, None, state, now, drawn.get("happened", ()))
        if not state.forecast or state.phase not in ("players", "hurricane"):
            col.line("Forecast: not dealt yet", text.BODY, palette.TEXT_DIM)
        else:
            k = self.board.rules.draws[state.category - 1]
            col.line(f"Forecast: the storm follows {k} of these", text.SMALL, palette.TEXT_DIM, wrap_lines=True)
            card_h = round(text.px(text.BODY, layout.height) * 1.25)
            for i, cid in enumerate(state.forecast):
                if not col.room(card_h):
                    col.full = True
                    break
                card = Rect(col.rect.x, col.y, col.rect.w, card_h)
                col.put(("card", cid, i, card.as_tuple()), rect_of(card, 2),
                        lambda surf, card=card, cid=cid, i=i: self._paint_card(surf, layout, card, cid, i))
                col.y = card.y + card.h + 4
        col.gap()
        total = sum(d.amount for d in state.damage)
        col.line(f"Damage so far: {total}", text.BODY, palette.TEXT, bold=True)
        col.line(f"destroyed spaces {len(state.destroyed)}, flooded roads {len(state.flooded)}", text.SMALL,
                 palette.TEXT_DIM, wrap_lines=True)
        col.line(f"forts {sum(n for _, n in state.fortifications)}, dams {len(state.dams)}", text.SMALL,
                 palette.TEXT_DIM)
        col.gap()
        for line in drawn.get("reminders", ()):  # what she does with her cards: read if there is room
            col.line(line, text.SMALL, palette.TEXT, wrap_lines=True)
        col.line(self.board.rules.population_line, text.SMALL, palette.TEXT_DIM, wrap_lines=True)

    def _legend(self, col: text.Column, layout: Layout, state: Any) -> None:
        """Who is who: each token as on the map, with the expert's name and her city, a row each."""
        rect = col.rect
        body = text.px(text.SMALL, layout.height)
        letters = text.minimum(layout.height)  # initials as legible as any text on the screen
        r = max(body // 2 + 2, math.ceil(letters / 1.2))
        size = max(letters, round(r * 1.2))
        cities = {c.id: c.name for c in self.board.cities}
        for seat, player in enumerate(state.players):
            colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
            centre = (rect.x + r, col.y + r)
            initials = self.initials(player.role)
            col.put(("legend token", initials, colour, centre, r, size),
                    around([centre], r + 1).union(_text_box(initials, centre, size, _ink(colour))),
                    lambda surf, colour=colour, centre=centre, initials=initials: self._paint_legend_token(
                        surf, colour, centre, r, initials, size))
            where = cities.get(player.city, "not placed yet") if state.phase != "setup" or seat < state.placed \
                else "not placed yet"
            col.text(f"{self.board.role(player.role).name}: {where}", (rect.x + 2 * r + 6, col.y + r), body,
                     palette.TEXT, anchor="midleft", max_width=rect.w - 2 * r - 6)
            col.y += 2 * r + 3
        col.y += 4

    @staticmethod
    def _paint_legend_token(surface: Any, colour: Colour, centre: tuple[int, int], r: int, initials: str,
                            size: int) -> None:
        pygame.draw.circle(surface, colour, centre, r)
        ink = _ink(colour)
        text.draw(surface, initials, centre, size, ink, anchor="center", bold=True)
    def _paint_card(self, surface: Any, layout: Layout, r: Rect, card_id: str, index: int) -> int:
        """One forecast card: its colour (matching its path), id, mark and the steps as arrows."""
        card = self.board.card(card_id)
        colour = palette.OKABE_ITO[index % len(palette.OKABE_ITO)]
        pygame.draw.rect(surface, palette.BACKGROUND, r.as_tuple())
        pygame.draw.rect(surface, colour, (r.x, r.y, max(6, r.h // 4), r.h))
        body = text.px(text.BODY, layout.height)
        label = card.name + {"strengthen": "  +1 cat", "weaken": "  -1 cat"}.get(card.mark, "")
        text.draw(surface, label, (r.x + r.h // 4 + 6, r.y + r.h / 2), body, palette.TEXT, anchor="midleft",
                  bold=True, max_width=r.w // 2)
        ax = r.x + r.w // 2
        step = max(8, min(r.h, (r.w // 2) // max(1, len(card.steps))))
        for n, direction in enumerate(card.steps):
            cx, cy = ax + step * n + step / 2, r.y + r.h / 2
            a = math.radians(STEP_ANGLE[direction])
            length = step * 0.4
            tip = (cx + math.cos(a) * length, cy + math.sin(a) * length)
            tail = (cx - math.cos(a) * length, cy - math.sin(a) * length)
            pygame.draw.line(surface, colour, tail, tip, max(2, step // 8))
            left = (tip[0] - math.cos(a - 0.5) * length * 0.7, tip[1] - math.sin(a - 0.5) * length * 0.7)
            right = (tip[0] - math.cos(a + 0.5) * length * 0.7, tip[1] - math.sin(a + 0.5) * length * 0.7)
            pygame.draw.polygon(surface, colour, [tip, left, right])
        return r.y + r.h


def _ink(colour: Colour) -> Colour:
    """Letters on a disc of ``colour``: dark on a light colour, light on a dark one."""
    return palette.CITY_EDGE if sum(colour) > 420 else palette.CITY


def _text_box(words: str, at: tuple[float, float], size: int, colour: Colour, bold: bool = True) -> pygame.Rect:
    """Where ``text.draw`` puts ``words`` centred on ``at`` (the kept image's rectangle: no drawing)."""
    return text.box(words, at, size, colour, anchor="center", bold=bold)


