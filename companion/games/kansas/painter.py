"""Kansas Tornadoes on the map: marker stacks, this turn's tornado tracks, the start grid and the forecast.

Everything is read from the engine's immutable KansasState and its Board, and from what the session
worked out from the rules for that state (:mod:`companion.games.kansas.drawn`, handed over as plain data in
a :class:`~companion.views.drawn.Drawn`): the painter imports no rule module and asks the engine nothing.
The tornado being rolled is drawn hex by hex as each roll arrives (its path is the state's markers, so the
map can never disagree with the rules); earlier tornadoes of the turn are fainter. While the forecasting
player chooses where along the fixed line a tornado starts, the eight candidate hexes carry their numbers;
the side panel ranks the open choice (first the line, then the place along it) by the markers it is
expected to put on cities and towns. Seats are said by the names the table gave them. Every mark has a
shape as well as a colour: markers are numbered discs, tracks numbered lines, candidates numbered rings.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import pygame

from companion.games.kansas.state import LINES, KansasState, Move, Tornado
from companion.hexgrid import Hex
from companion.views.drawn import NOTHING, Drawn
from companion.views.projector import palette, text
from companion.views.projector.board import MapData, Spot
from companion.views.projector.key import FootKey, KeyEntry
from companion.views.projector.layout import Layout, Rect
from companion.views.projector.marks import draw_polyline, draw_shadow, draw_token
from companion.views.projector.palette import Colour
from companion.views.projector.pieces import Group, KeptPieces, Memo, Piece, around, keep, rect_of
from companion.views.projector.shapes.base import Point
from companion.views.projector.status import paint_turn

FORECAST = palette.OKABE_ITO[1]
"""Sky blue: the forecast's candidate starts and the chosen one."""
EARLIER_FADE = 0.45
"""How far an earlier tornado's track fades towards the background."""
MAX_DISCS = 3
"""Marker discs drawn per stack; the number on top says how many there are."""
RANKED_SHOWN = 5
"""Forecast choices listed in the side panel, best first."""
GROUPS_KEPT = 64
"""Groups of pieces kept by what they show: a state has about ten, and only the last state's are asked for
again (the bound just has to hold a few states' worth)."""


class KansasPainter:
    """Draws a KansasState over the Kansas board."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.board = game.board
        self._data: MapData | None = None
        self._key = FootKey()
        self._kept = KeptPieces(2000)
        """Pieces that are the same whenever they are shown (a stack of n markers on a hex, a track, the grid
        numbers): most of a frame's pieces did not change since the last. A new turn's tracks start the store
        again, so it never grows past a turn's worth."""
        self._key_group: Group = ()
        self._groups = Memo(GROUPS_KEPT)
        """The groups (:data:`~companion.views.projector.pieces.Group`) of the last few states by what they show
        (the marker stacks, the forecast's rings, each block of the side panel), so a roll that leaves one as it
        was gives the same tuple again and the renderer does not compare it."""
        self.drawn: Drawn = NOTHING
        """The rules' answers for the state drawn next and the seats' names (:meth:`use`)."""

    def use(self, drawn: Drawn) -> None:
        """Draw the next states with ``drawn``, the session's answers for them (the renderer hands it over with
        every new state, before asking for its pieces)."""
        self.drawn = drawn

    # -- the printed board ----------------------------------------------------------------------
    def map_data(self, state: Any = None) -> MapData:
        """The printed board (the same for the whole game: made once)."""
        if self._data is None:
            places = tuple(Spot(p.name, p.hex, "city" if p.kind == "city" else "town") for p in self.board.places)
            rivers = tuple(r.hexes for r in getattr(self.board, "rivers", ()))
            self._data = MapData(dict(self.board.terrain), places, (), self.game.title, rivers=rivers)
        return self._data

    # -- what the state adds --------------------------------------------------------------------
    def candidates(self) -> dict[int, Hex]:
        """While the forecaster picks where along the fixed line a tornado starts: value -> start hex (the
        engine's own choices, so the map rings exactly what the buttons offer)."""
        starts: dict[int, Hex] = self.drawn.get("candidates", {})
        return starts

    def ranked(self) -> tuple[tuple[str, float], ...]:
        """The forecaster's open choice, best first, with the markers it is expected to put on cities and
        towns (empty when no forecast choice is open)."""
        choices: tuple[tuple[str, float], ...] = self.drawn.get("ranked", ())
        return choices

    def tracks(self, state: KansasState) -> list[tuple[Tornado, bool]]:
        """This turn's tornadoes with a start, each with whether it is the latest (drawn bright)."""
        placed = [t for t in state.tornadoes if t.start is not None]
        return [(t, i == len(placed) - 1) for i, t in enumerate(placed)]

    def paint_state(self, surface: Any, layout: Layout, state: Any, overlay: bool = False) -> None:
        """Grid numbers, tracks, marker stacks and the forecast (see :meth:`state_pieces`)."""
        for piece in self.state_pieces(layout, state, overlay):
            piece.draw(surface)

    def state_pieces(self, layout: Layout, state: Any, overlay: bool = False) -> list[Piece]:
        """Tracks, marker stacks, the forecast's rings, the funnel and the grid numbers, each a piece (a
        roll repaints only those it changed); all drawn under the overlay too (the markers are the
        game's facts, the heat is what may come). The grid numbers go last, so a forecast's rings never
        hide the line numbers people read them by."""
        return [p for g in self.state_groups(layout, state, overlay) for p in g]

    def state_groups(self, layout: Layout, state: Any, overlay: bool = False) -> list[Group]:
        """:meth:`state_pieces` in groups, each kept while what it shows is the same: every tornado's
        track, the marker stacks of each board column, the rings and the funnel, the grid numbers. A roll
        moves one tornado and puts down one marker: the earlier tracks, the other columns' stacks and the
        grid are the same tuples as before."""
        s = layout.hex_size
        size = text.px(text.MARK, layout.height)
        disc = max(size * 0.62, s * 0.27) * 1.25 + 4
        groups: list[Group] = []
        tracks = self.tracks(state)
        count = len(tracks)
        kept = self._kept.at(layout)
        for index, (tornado, latest) in enumerate(tracks):
            groups.append(self._groups.same(tornado, ("track", layout.width, layout.height, latest, index, count),
                                            self._track_group, layout, tornado, latest, index, count, kept))
        for _, column in itertools.groupby(state.markers, key=_column):  # a roll changes one column's stacks
            run = tuple(column)
            groups.append(keep(kept, ("stacks", run), lambda run=run: tuple(
                keep(kept, ("stack", h, n), self._stack_piece, layout, h, n, disc) for h, n in run)))
        rings = [(h, str(value)) for value, h in self.candidates().items()]
        t = state.current if state.current is not None else (state.tornadoes[-1] if state.tornadoes else None)
        if t is not None and t.forecast_line and t.start is not None:
            rings.append((t.start, "F"))
        now = state.current if state.current is not None and state.current.position is not None else None
        funnel = (now.position, now.number) if now is not None else None
        groups.append(self._groups.get(("marks", layout.width, layout.height, tuple(rings), funnel),
                                       lambda: self._marks(layout, rings, now)))
        groups.append(keep(kept, "grid", lambda: tuple(
            Piece(("grid", at, label), around([at], max(6, round(size * 0.62)) * 1.3 + 4),
                  lambda surf, at=at, label=label: self._number(surf, at, max(6, round(size * 0.62)), label, size))
            for at, label in self._grid_numbers(layout))))
        return groups

    def _marks(self, layout: Layout, rings: list[tuple[Hex, str]], now: Tornado | None) -> Group:
        """The forecast's numbered rings and the funnel of the tornado being rolled."""
        s = layout.hex_size
        size = text.px(text.MARK, layout.height)
        pieces: list[Piece] = []
        for h, label in rings:
            x, y = layout.centre(h)
            rect = rect_of(layout.box(h, 0.86), max(3, s * 0.12) + 4).union(
                around([(x + s * 0.42, y - s * 0.36)], max(s * 0.22, size * 0.62) * 1.25 + 4))
            pieces.append(Piece(("ring", h, label), rect,
                                lambda surf, h=h, label=label: self._ring(surf, layout, h, FORECAST, label)))
        if now is not None and now.position is not None:
            pieces.append(Piece(("funnel", now.position, now.number), rect_of(layout.box(now.position, 0.6), 4),
                                lambda surf, now=now: self._paint_funnel(surf, layout, now)))
        return tuple(pieces)

    def _stack_piece(self, layout: Layout, h: Hex, n: int, disc: float) -> Piece:
        """``n`` damage markers on ``h`` as a piece."""
        s = layout.hex_size
        x, y = layout.centre(h)
        base = (x + s * 0.28, y + s * 0.3)
        return Piece(("stack", h, n), around([base, (base[0] + s * 0.14, base[1] - s * 0.18)], disc),
                     lambda surf: self._paint_stack(surf, layout, h, n))

    def _grid_numbers(self, layout: Layout) -> list[tuple[tuple[float, float], str]]:
        """The start grid's line numbers, as printed along the board's edges: west-east numbers above
        the first north-south line, north-south numbers left of the first west-east line."""
        s = layout.hex_size
        numbers: list[tuple[tuple[float, float], str]] = []
        for we in range(1, 9):
            x, y = layout.centre(self.board.grid[(1, we)])
            numbers.append(((x, y - s * 0.62), str(we)))
        for ns in range(1, 9):
            x, y = layout.centre(self.board.grid[(ns, 1)])
            numbers.append(((x - s * 0.72, y), str(ns)))
        return numbers

    @staticmethod
    def _number(surface: Any, at: tuple[float, float], radius: int, label: str, size: int) -> None:
        """A grid line's number: a dark disc with a light rim, a shadow under it (it sits on any terrain)."""
        centre = (round(at[0]), round(at[1]))
        draw_shadow(surface, "circle", centre, radius)
        pygame.draw.circle(surface, palette.PANEL, centre, radius)
        pygame.draw.circle(surface, palette.TEXT_DIM, centre, radius, max(1, radius // 6))
        text.draw(surface, label, centre, size, palette.TEXT, anchor="center", bold=True)

    def _track_group(self, layout: Layout, tornado: Tornado, latest: bool, index: int, count: int,
                     kept: dict[Any, Any]) -> Group:
        """A tornado's track as small pieces, in the order :func:`draw_polyline` draws (casing, then the
        line, then the dots), so a roll that adds a hex repaints that hex's stretch, not the whole track.
        A stretch, joint or dot seen before is taken from ``kept`` (a roll adds one; the rest are the same),
        and so is each run of them (see :func:`_grown`): a roll's track costs its new stretch, not all of it."""

        def piece(key: Any, rect: Callable[..., Any], draw: Callable[..., object]) -> Piece:
            made: Piece = keep(kept, key, lambda: Piece(key, rect(), draw))
            return made

        def line(ab: tuple[Point, Point], c: Colour, w: int) -> Piece:
            a, b = ab
            return piece(("track line", a, b, c, w), lambda: around([a, b], w / 2 + 2),
                         lambda surf: pygame.draw.line(surf, c, a, b, w))

        def joint(at: Point, c: Colour, r: int) -> Piece:
            x, y = at
            return piece(("track joint", x, y, c, r), lambda: around([at], r + 1),
                         lambda surf: pygame.draw.circle(surf, c, (round(x), round(y)), r))

        def dot(at: Point, c: Colour, r: int) -> Piece:
            x, y = at
            return piece(("track dot", x, y, c, r), lambda: around([at], r + 1),
                         lambda surf: pygame.draw.circle(surf, c, (round(x), round(y)), r))

        s = layout.hex_size
        off = track_offset(index, count, s)
        pts = tuple((x + off, y + off) for x, y in (layout.centre(h) for h in tornado.markers))
        colour = palette.TRACK if latest else palette.faded(palette.TRACK, EARLIER_FADE)
        width = max(3, round(s * (0.16 if latest else 0.1)))
        pieces: list[Piece] = []
        if len(pts) >= 2:
            pairs = tuple(itertools.pairwise(pts))
            for c, w in ((palette.CITY_EDGE, width + 4), (colour, width)):
                pieces += _grown(kept, "track lines", pairs, line, c, w)
                pieces += _grown(kept, "track joints", pts, joint, c, max(1, w // 2))
        pieces += _grown(kept, "track dots", pts[1:], dot, colour, round(width * 0.9))
        size = text.px(text.MARK, layout.height)
        disc = max(size * 0.62, s * 0.26)
        start, number = pts[0], tornado.number
        pieces.append(piece(("track start", start, colour, number), lambda: around([start], disc * 1.25 + 4),
                            lambda surf: self._start_disc(surf, start, s, colour, str(number), size)))
        last = tornado.moves[-1] if tornado.moves else None
        if latest and last is not None and last.rerolled and tornado.position is not None:
            at, move = tornado.position, last
            ends = [layout.centre(at), layout.centre(move.to)]
            pieces.append(Piece(("off the map", at, move.to), around(ends, s * 0.3 + 4),
                                lambda surf: self._paint_off_map(surf, layout, at, move)))
        return tuple(pieces)

    @staticmethod
    def _start_disc(surface: Any, at: tuple[float, float], s: float, colour: Any, label: str, size: int) -> None:
        """A tornado's start: a disc in its track's colour with its number, on a shadow."""
        radius = max(size * 0.62, s * 0.26)
        draw_token(surface, "circle", at, radius, colour, palette.CITY_EDGE, max(1, round(s * 0.05)))
        text.draw(surface, label, at, size, palette.CITY_EDGE, anchor="center", bold=True)

    def _paint_off_map(self, surface: Any, layout: Layout, at: Hex, move: Move) -> None:
        """A re-rolled move: a short dashed stroke towards the edge it would have left by, crossed out."""
        s = layout.hex_size
        (ax, ay), (bx, by) = layout.centre(at), layout.centre(move.to)
        w = max(2, round(s * 0.08))
        for k in range(3):
            t0, t1 = 0.2 + k * 0.22, 0.32 + k * 0.22
            pygame.draw.line(surface, palette.TRACK, (ax + (bx - ax) * t0, ay + (by - ay) * t0),
                             (ax + (bx - ax) * t1, ay + (by - ay) * t1), w)
        cx, cy = ax + (bx - ax) * 0.8, ay + (by - ay) * 0.8
        a = s * 0.16
        pygame.draw.line(surface, palette.DAMAGE, (cx - a, cy - a), (cx + a, cy + a), w)
        pygame.draw.line(surface, palette.DAMAGE, (cx - a, cy + a), (cx + a, cy - a), w)

    def _paint_stack(self, surface: Any, layout: Layout, h: Hex, n: int) -> None:
        """Damage markers: up to three offset discs (a stack) and the count on the top one."""
        x, y = layout.centre(h)
        s = layout.hex_size
        paint_stack(surface, (x + s * 0.28, y + s * 0.3), s, n, text.px(text.MARK, layout.height))

    @staticmethod
    def _ring(surface: Any, layout: Layout, h: Hex, colour: Any, label: str) -> None:
        s = layout.hex_size
        w = max(3, round(s * 0.12))
        pygame.draw.polygon(surface, palette.CITY_EDGE, layout.polygon(h, 0.86), w + 4)
        pygame.draw.polygon(surface, colour, layout.polygon(h, 0.86), w)
        x, y = layout.centre(h)
        badge = (round(x + s * 0.42), round(y - s * 0.36))  # top right: the grid numbers sit on the left
        size = text.px(text.MARK, layout.height)
        draw_token(surface, "circle", badge, max(s * 0.22, size * 0.62), colour, palette.CITY_EDGE,
                   max(1, round(s * 0.05)))
        text.draw(surface, label, badge, size, palette.CITY_EDGE, anchor="center", bold=True)

    @staticmethod
    def _paint_funnel(surface: Any, layout: Layout, tornado: Tornado) -> None:
        """Where the tornado being rolled stands now: a funnel (a downward triangle) with its number."""
        assert tornado.position is not None
        paint_funnel(surface, layout.centre(tornado.position), layout.hex_size, str(tornado.number),
                     text.px(text.MARK, layout.height))

    # -- the side panel -------------------------------------------------------------------------
    def key_entries(self, layout: Layout) -> list[KeyEntry]:
        """The game's own marks for the key under the board's symbols."""
        s = layout.hex_size
        size = text.px(text.MARK, layout.height)

        def stack(surface: Any, box: Any) -> None:
            paint_stack(surface, (box.x + box.h * 0.45, box.centery + box.h * 0.08), box.h * 1.1, 2, size)

        def track(surface: Any, box: Any) -> None:
            draw_polyline(surface, [(box.x + box.h * 0.4, box.centery), (box.right - 2, box.centery)], palette.TRACK,
                          max(3, round(s * 0.12)))
            self._start_disc(surface, (box.x + box.h * 0.4, box.centery), box.h * 1.0, palette.TRACK, "1", size)

        def funnel(surface: Any, box: Any) -> None:
            paint_funnel(surface, (box.x + box.h * 0.6, box.centery + box.h * 0.1), box.h * 1.3, "2", size)

        def forecast(surface: Any, box: Any) -> None:
            draw_token(surface, "circle", (box.x + box.h * 0.6, box.centery), max(box.h * 0.45, size * 0.62),
                       FORECAST, palette.CITY_EDGE, 2)
            text.draw(surface, "F", (box.x + box.h * 0.6, box.centery), size, palette.CITY_EDGE, anchor="center",
                      bold=True)

        def grid(surface: Any, box: Any) -> None:
            self._number(surface, (box.x + box.h * 0.6, box.centery), max(6, round(size * 0.62)), "3", size)

        return [KeyEntry("damage markers", stack), KeyEntry("tornado track", track),
                KeyEntry("tornado now", funnel), KeyEntry("forecast start", forecast),
                KeyEntry("start grid line", grid)]

    def paint_side(self, surface: Any, layout: Layout, rect: Rect, state: Any) -> None:
        """Top to bottom: the turn, what just happened and what is asked, the tornado's dice, the
        forecast, the markers and the score; the key to every symbol at the foot."""
        for piece in self.side_pieces(layout, rect, state):
            piece.draw(surface)

    def side_pieces(self, layout: Layout, rect: Rect, state: Any) -> list[Piece]:
        """The key at the foot (the same all game) and the lines above it (new with each state)."""
        return [p for g in self.side_groups(layout, rect, state) for p in g]

    def side_groups(self, layout: Layout, rect: Rect, state: Any) -> list[Group]:
        """:meth:`side_pieces` in groups: the key, then each block of lines kept by what it shows (the turn,
        what happened and what is asked, the dice, the forecast, the markers and the score)."""
        above, piece = self._key.split(layout, rect, lambda: self.map_data(state), lambda: self.key_entries(layout))
        if not self._key_group or self._key_group[0] is not piece:  # made once per screen size: its group too
            self._key_group = (piece,)
        col = text.Column(None, above, layout.height, [], self._groups)
        self._paint_lines(col, layout, state)
        return [self._key_group, *col.finish()]

    def _paint_lines(self, col: text.Column, layout: Layout, state: KansasState) -> None:
        """The turn, what just happened and what is asked, the tornado's dice, the forecast, the markers
        and the score, down the column; each block a group (:meth:`text.Column.group`) keyed by all it shows,
        worked out from the state first: that costs a few tuples, writing the rows costs tens of them."""
        turns = self.board.turns(state.players)

        def title(col: text.Column) -> None:
            col.line(f"Turn {state.turn}/{turns} - {state.players} players", text.TITLE, palette.TEXT, bold=True)
            col.gap()

        col.group(("title", state.turn, turns, state.players), title)
        drawn = self.drawn
        happened = tuple(drawn.say(line) for line in drawn.get("happened", ()))
        asked = drawn.say(drawn.get("prompt", ""))
        now = (asked,) if asked else ()
        col.group(("turn", happened, now), lambda col: paint_turn(col, None, state, now, happened))
        if state.phase == "tornado" and state.current is not None:
            rows = self._roll_rows(state)
            col.group(("rolls", rows), lambda col: self._paint_rolls(col, layout, rows))
        elif state.phase == "actions" and state.count:
            col.group(("all rolled", state.count), lambda col: col.line(
                f"{state.count} tornado{'es' if state.count > 1 else ''} this turn, all rolled", text.SMALL,
                palette.TEXT_DIM))
        ranked = self.ranked()[:RANKED_SHOWN]
        holder = drawn.seat(state.forecaster) if state.forecaster else ""
        col.group(("forecast", state.forecast, holder, ranked),
                  lambda col: self._paint_forecast(col, state, holder, ranked))
        on_map = self._groups.get(("on map", state.markers), lambda: sum(n for _, n in state.markers))
        cities: int = drawn.get("on_cities", 0)
        over = state.phase == "over"
        scores = tuple((drawn.seat(p, "player"), state.kept_by(p), s) for p, s in state.scores().items() if s)
        col.group(("score", on_map, cities, over, scores), lambda col: self._paint_score(col, on_map, cities, over,
                                                                                          scores))

    @staticmethod
    def _paint_score(col: text.Column, on_map: int, cities: int, over: bool,
                     scores: tuple[tuple[str, int, int], ...]) -> None:
        """The markers on the map and on cities, and each player's kept city markers (the final score), each
        player by the name the table gave her seat."""
        col.gap()
        col.line(f"Markers on the map: {on_map}, on cities: {cities}", text.BODY, palette.TEXT, bold=True,
                 wrap_lines=True)
        col.line("Final score" if over else "Kept city markers", text.BODY, palette.TEXT, bold=True)
        nobody = "nobody kept one" if over else "none yet"
        for line in [f"{who}: {kept} = {s} points" for who, kept, s in scores] or [nobody]:
            col.line(line, text.BODY, palette.TEXT_DIM, indent=8)

    def _roll_rows(self, state: KansasState) -> tuple[Any, ...]:
        """The tornado being rolled as the rows the panel shows: its title, then each row's dice (kind,
        value), words and colour: its two D8 lines and its last moves."""
        t = state.current
        assert t is not None
        rows: list[Any] = [f"Tornado {t.number} of {state.count}"]
        for line, value in (("ns", t.ns), ("we", t.we)):
            label = f"{LINES[line]}" + (" (forecast)" if t.forecast_line == line else "")
            rows.append(((("d8", value),), label, palette.TEXT_DIM))
        for move in t.moves[-(self.board.moves_per_tornado + 2):]:
            label = f"= {move.total} {move.direction}" + ("  off the map: again" if move.rerolled else "")
            rows.append(((("d6", move.dice[0]), ("d6", move.dice[1])), label, palette.TEXT_DIM if move.rerolled
                         else palette.TEXT))
        return tuple(rows)

    def _paint_rolls(self, col: text.Column, layout: Layout, rows: tuple[Any, ...]) -> None:
        """The tornado being rolled (:meth:`_roll_rows`): its two D8 lines and every 2D6 move, the dice
        drawn as dice."""
        body = text.px(text.BODY, layout.height)
        die = max(18, round(layout.height * 0.036))
        x = col.rect.x
        col.line(rows[0], text.BODY, palette.TEXT, bold=True)
        for dice, label, colour in rows[1:]:
            if not col.room(die + 4):
                col.full = True
                return
            for i, (kind, value) in enumerate(dice):
                col.add(die_piece(kind, value, (x + i * (die + 4), col.y), die))
            left = x + len(dice) * (die + 4) + 6
            col.text(label, (left, col.y + die / 2), body, colour, anchor="midleft",
                     max_width=col.rect.x + col.rect.w - left)
            col.y += die + 4
        col.gap()

    @staticmethod
    def _paint_forecast(col: text.Column, state: KansasState, holder: str,
                        ranked: tuple[tuple[str, float], ...]) -> None:
        """Who forecasts what (``holder``: the seat holding the forecast, by name); while a choice is open, the
        choices ranked by the markers they are expected to put on cities and towns (fewest first: the one that
        spares the most; ``ranked``, the first :data:`RANKED_SHOWN` of :meth:`ranked`)."""
        if state.forecast is not None:
            number, line, value = state.forecast
            where = f" at {value}" if value else ""
            col.line(f"Forecast: tornado {number}, {LINES[line]}{where}", text.BODY, FORECAST, bold=True,
                     wrap_lines=True)
        elif holder:
            col.line(f"{holder} holds a forecast", text.BODY, FORECAST, bold=True)
        if not ranked:
            return
        col.line("Expected markers on cities and towns:", text.SMALL, palette.TEXT_DIM, wrap_lines=True)
        for label, expected in ranked:
            col.line(f"{label}: {expected:.2f}", text.BODY, palette.TEXT, indent=8)


@lru_cache(maxsize=128)
def die_piece(kind: str, value: int | None, at: tuple[float, float], size: int) -> Piece:
    """A die face of the panel as a piece, kept: a tornado's rows of dice stay where they are roll after roll
    (128 faces: every value of both kinds at a dozen rows). A D6 keeps inside its square, so its rectangle is
    the square (a row of D6 then never touches the row above); a D8's diamond reaches a pixel or two past."""
    x, y = round(at[0]), round(at[1])
    box = pygame.Rect(x, y, size, size) if kind == "d6" else pygame.Rect(x - 2, y - 2, size + 5, size + 5)
    return Piece(("die", kind, value, at, size), box, lambda s: paint_die(s, at, size, kind, value))


def paint_die(surface: Any, at: tuple[float, float], size: int, kind: str, value: int | None) -> None:
    """A die face: a square for a D6, a diamond for a D8 (shape, not colour, tells them apart)."""
    x, y = at
    if kind == "d6":
        box = pygame.Rect(round(x), round(y), size, size)
        pygame.draw.rect(surface, palette.CITY, box, border_radius=max(2, size // 6))
        pygame.draw.rect(surface, palette.CITY_EDGE, box, 2, border_radius=max(2, size // 6))
        centre = box.center
    else:
        cx, cy, h = x + size / 2, y + size / 2, size / 2 + 1
        pts = [(cx, cy - h), (cx + h, cy), (cx, cy + h), (cx - h, cy)]
        pygame.draw.polygon(surface, palette.CITY, pts)
        pygame.draw.polygon(surface, palette.CITY_EDGE, pts, 2)
        centre = (round(cx), round(cy))
    label = "?" if value is None else str(value)
    digits = max(text.minimum(surface.get_height()), round(size * 0.8))
    text.draw(surface, label, centre, digits, palette.CITY_EDGE, anchor="center", bold=True)


def _column(marker: tuple[Hex, int]) -> int:
    """The board column (q) of a marker stack: the state's markers are sorted by hex, so a column's stacks
    come together and make one group."""
    return marker[0].q


def _grown(kept: dict[Any, Any], kind: str, items: tuple[Any, ...], make: Callable[[Any, Colour, int], Piece],
           colour: Colour, width: int) -> Group:
    """``make(item, colour, width)`` for each of ``items``, as a tuple kept in ``kept`` and made from the one
    kept for all but the last item: a track grows by a stretch a roll, and its runs of lines, joints and dots
    are then one lookup and one new piece each, however long the track."""
    if not items:
        return ()
    key = (kind, items, colour, width)
    made: Group | None = kept.get(key)
    if made is None:
        made = kept[key] = (*_grown(kept, kind, items[:-1], make, colour, width), make(items[-1], colour, width))
    return made


def paint_stack(surface: Any, base: tuple[float, float], s: float, n: int, size: int) -> None:
    """Damage markers at ``base``: up to three offset discs (a stack) on a shadow, the count on the top one."""
    r = max(s * 0.27, size * 0.62)
    centre = base
    for k in range(min(n, MAX_DISCS)):
        centre = (base[0] + k * s * 0.07, base[1] - k * s * 0.09)
        draw_token(surface, "circle", centre, r, palette.DAMAGE, palette.CITY_EDGE, max(1, round(s * 0.05)))
    text.draw(surface, str(n), centre, size, palette.CITY_EDGE, anchor="center", bold=True)  # on the top disc


def paint_funnel(surface: Any, at: tuple[float, float], s: float, label: str, size: int) -> None:
    """Where the tornado being rolled stands now: a funnel (a downward triangle) with its number."""
    x, y = at
    pts = [(x - s * 0.34, y - s * 0.3), (x + s * 0.34, y - s * 0.3), (x, y + s * 0.34)]
    d = max(1, round(s * 0.06))
    draw_shadow_polygon(surface, [(px + d, py + d) for px, py in pts])
    pygame.draw.polygon(surface, palette.TRACK, pts)
    pygame.draw.polygon(surface, palette.CITY_EDGE, pts, max(2, round(s * 0.07)))
    text.draw(surface, label, (x, y - s * 0.1), size, palette.CITY_EDGE, anchor="center", bold=True)


def draw_shadow_polygon(surface: Any, pts: list[tuple[float, float]]) -> None:
    """A translucent dark polygon (a shadow already offset by the caller)."""
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    left, top = int(min(xs)), int(min(ys))
    layer = pygame.Surface((int(max(xs)) - left + 2, int(max(ys)) - top + 2), pygame.SRCALPHA)
    pygame.draw.polygon(layer, palette.SHADOW, [(px - left, py - top) for px, py in pts])
    surface.blit(layer, (left, top))


def track_offset(index: int, count: int, hex_size: float) -> float:
    """Pixels the ``index``-th of ``count`` tracks is nudged (right and down): the tornadoes of one
    turn often share hexes, and each track should still show."""
    return (index - (count - 1) / 2) * hex_size * 0.09
