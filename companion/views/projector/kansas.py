"""Kansas Tornadoes on the map: marker stacks, this turn's tornado tracks, the start grid and the forecast.

Everything is read from the engine's immutable KansasState and its Board. The tornado being rolled
is drawn hex by hex as each roll arrives (its path is the state's markers, so the map can never
disagree with the rules); earlier tornadoes of the turn are fainter. While the forecasting player
chooses where along the fixed line a tornado starts, the eight candidate hexes carry their numbers;
the side panel ranks the open choice (first the line, then the place along it) by the markers it is
expected to put on cities and towns, from the engine's exact risk. Every mark has a shape as well
as a colour: markers are numbered discs, tracks numbered lines, candidates numbered rings.
"""

from __future__ import annotations

from typing import Any

import pygame

from companion.games.kansas.risk import forecast_lines, forecast_options
from companion.games.kansas.state import LINES, KansasState, Move, Tornado
from companion.hexgrid import Hex
from companion.views.projector import palette, text
from companion.views.projector.board import MapData, Spot
from companion.views.projector.layout import Layout, Rect

FORECAST = palette.OKABE_ITO[1]
"""Sky blue: the forecast's candidate starts and the chosen one."""
EARLIER_FADE = 0.45
"""How far an earlier tornado's track fades towards the background."""
MAX_DISCS = 3
"""Marker discs drawn per stack; the number on top says how many there are."""
RANKED_SHOWN = 5
"""Forecast choices listed in the side panel, best first."""


class KansasPainter:
    """Draws a KansasState over the Kansas board."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.board = game.board

    # -- the printed board ----------------------------------------------------------------------
    def map_data(self, state: Any = None) -> MapData:
        places = tuple(Spot(p.name, p.hex, "city" if p.kind == "city" else "town") for p in self.board.places)
        return MapData(dict(self.board.terrain), places, (), self.game.title)

    # -- what the state adds --------------------------------------------------------------------
    def candidates(self, state: KansasState) -> dict[int, Hex]:
        """While the forecaster picks where along the fixed line a tornado starts: value -> start hex,
        read from the engine's own choices so the map rings exactly what the buttons offer."""
        if state.phase != "tornado" or self.game.need(state) != "forecast_at":
            return {}
        return {c.args["value"]: Hex(c.args["q"], c.args["r"]) for c in (o.event for o in self.game.choices(state))}

    def ranked(self, state: KansasState) -> list[tuple[str, float]]:
        """The forecaster's open choice, best first, with the markers it is expected to put on cities
        and towns: first the line (its place picked after the other line's roll, as the rules order
        it), then the place along it. Empty when no forecast choice is open."""
        if state.phase == "forecast":
            return [(f"fix {LINES[o.line]}", o.on_places) for o in forecast_lines(self.game, state)]
        if self.candidates(state):
            return [(f"{LINES[o.line]} {o.value}", o.on_places) for o in forecast_options(self.game, state)]
        return []

    def tracks(self, state: KansasState) -> list[tuple[Tornado, bool]]:
        """This turn's tornadoes with a start, each with whether it is the latest (drawn bright)."""
        placed = [t for t in state.tornadoes if t.start is not None]
        return [(t, i == len(placed) - 1) for i, t in enumerate(placed)]

    def paint_state(self, surface: Any, layout: Layout, state: Any, overlay: bool = False) -> None:
        """Grid numbers, tracks, marker stacks and the forecast; all drawn under the overlay too
        (the markers are the game's facts, the heat is what may come). The grid numbers go last, so
        a forecast's rings never hide the line numbers people read them by."""
        tracks = self.tracks(state)
        for index, (tornado, latest) in enumerate(tracks):
            self._paint_track(surface, layout, tornado, latest, index, len(tracks))
        for h, n in state.markers:
            self._paint_stack(surface, layout, h, n)
        for value, h in self.candidates(state).items():
            self._paint_candidate(surface, layout, h, value)
        t = state.current if state.current is not None else (state.tornadoes[-1] if state.tornadoes else None)
        if t is not None and t.forecast_line and t.start is not None:
            self._ring(surface, layout, t.start, FORECAST, "F")
        if state.current is not None and state.current.position is not None:
            self._paint_funnel(surface, layout, state.current)
        self._paint_grid_numbers(surface, layout)

    def _paint_grid_numbers(self, surface: Any, layout: Layout) -> None:
        """The start grid's line numbers, as printed along the board's edges: west-east numbers above
        the first north-south line, north-south numbers left of the first west-east line."""
        s = layout.hex_size
        size = text.px(0.017, layout.height)
        r = max(6, round(size * 0.62))
        for we in range(1, 9):
            x, y = layout.centre(self.board.grid[(1, we)])
            self._number(surface, (x, y - s * 0.62), r, str(we), size)
        for ns in range(1, 9):
            x, y = layout.centre(self.board.grid[(ns, 1)])
            self._number(surface, (x - s * 0.72, y), r, str(ns), size)

    @staticmethod
    def _number(surface: Any, at: tuple[float, float], radius: int, label: str, size: int) -> None:
        centre = (round(at[0]), round(at[1]))
        pygame.draw.circle(surface, palette.PANEL, centre, radius)
        pygame.draw.circle(surface, palette.GRID, centre, radius, 1)
        text.draw(surface, label, centre, size, palette.TEXT_DIM, anchor="center")

    def _paint_track(self, surface: Any, layout: Layout, tornado: Tornado, latest: bool, index: int,
                     count: int) -> None:
        s = layout.hex_size
        off = track_offset(index, count, s)
        pts = [(x + off, y + off) for x, y in (layout.centre(h) for h in tornado.markers)]
        colour = palette.TRACK if latest else palette.faded(palette.TRACK, EARLIER_FADE)
        width = max(3, round(s * (0.16 if latest else 0.1)))
        if len(pts) >= 2:
            if latest:
                pygame.draw.lines(surface, palette.CITY_EDGE, False, pts, width + 4)
            pygame.draw.lines(surface, colour, False, pts, width)
        for x, y in pts[1:]:
            pygame.draw.circle(surface, colour, (round(x), round(y)), round(width * 0.9))
        start = (round(pts[0][0]), round(pts[0][1]))
        radius = round(s * 0.24)
        pygame.draw.circle(surface, colour, start, radius)
        pygame.draw.circle(surface, palette.CITY_EDGE, start, radius, max(1, round(s * 0.05)))
        text.draw(surface, str(tornado.number), start, text.px(0.018, layout.height), palette.CITY_EDGE,
                  anchor="center", bold=True)
        last = tornado.moves[-1] if tornado.moves else None
        if latest and last is not None and last.rerolled and tornado.position is not None:
            self._paint_off_map(surface, layout, tornado.position, last)

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
        s = layout.hex_size
        x, y = layout.centre(h)
        r = round(s * 0.27)
        base = (x + s * 0.28, y + s * 0.3)
        centre = (round(base[0]), round(base[1]))
        for k in range(min(n, MAX_DISCS)):
            centre = (round(base[0] + k * s * 0.07), round(base[1] - k * s * 0.09))
            pygame.draw.circle(surface, palette.DAMAGE, centre, r)
            pygame.draw.circle(surface, palette.CITY_EDGE, centre, r, max(1, round(s * 0.05)))
        text.draw(surface, str(n), centre, text.px(0.02, layout.height), palette.CITY_EDGE, anchor="center",
                  bold=True)  # on the top disc

    def _paint_candidate(self, surface: Any, layout: Layout, h: Hex, value: int) -> None:
        self._ring(surface, layout, h, FORECAST, str(value))

    @staticmethod
    def _ring(surface: Any, layout: Layout, h: Hex, colour: Any, label: str) -> None:
        s = layout.hex_size
        w = max(3, round(s * 0.12))
        pygame.draw.polygon(surface, palette.CITY_EDGE, layout.polygon(h, 0.86), w + 4)
        pygame.draw.polygon(surface, colour, layout.polygon(h, 0.86), w)
        x, y = layout.centre(h)
        badge = (round(x + s * 0.42), round(y - s * 0.36))  # top right: the grid numbers sit on the left
        pygame.draw.circle(surface, colour, badge, round(s * 0.22))
        pygame.draw.circle(surface, palette.CITY_EDGE, badge, round(s * 0.22), max(1, round(s * 0.05)))
        text.draw(surface, label, badge, text.px(0.018, layout.height), palette.CITY_EDGE, anchor="center", bold=True)

    @staticmethod
    def _paint_funnel(surface: Any, layout: Layout, tornado: Tornado) -> None:
        """Where the tornado being rolled stands now: a funnel (a downward triangle) with its number."""
        assert tornado.position is not None
        s = layout.hex_size
        x, y = layout.centre(tornado.position)
        pts = [(x - s * 0.34, y - s * 0.3), (x + s * 0.34, y - s * 0.3), (x, y + s * 0.34)]
        pygame.draw.polygon(surface, palette.TRACK, pts)
        pygame.draw.polygon(surface, palette.CITY_EDGE, pts, max(2, round(s * 0.07)))
        text.draw(surface, str(tornado.number), (x, y - s * 0.1), text.px(0.018, layout.height), palette.CITY_EDGE,
                  anchor="center", bold=True)

    # -- the side panel -------------------------------------------------------------------------
    def paint_side(self, surface: Any, layout: Layout, rect: Rect, state: Any) -> None:
        head = text.px(text.BODY, layout.height)
        body = text.px(text.SMALL, layout.height)
        y = rect.y
        turns = self.board.turns(state.players)
        title = f"Turn {state.turn}/{turns} - {state.players} players"
        text.draw(surface, title, (rect.x, y), head, palette.TEXT, bold=True, max_width=rect.w)
        y += head + 6
        if state.phase == "tornado" and state.current is not None:
            y = self._paint_rolls(surface, layout, Rect(rect.x, y, rect.w, rect.h), state)
        elif state.phase == "actions" and state.count:
            line = f"{state.count} tornado{'es' if state.count > 1 else ''} this turn, all rolled"
            text.draw(surface, line, (rect.x, y), body, palette.TEXT_DIM, max_width=rect.w)
            y += body + 6
        y = self._paint_forecast(surface, layout, Rect(rect.x, y, rect.w, rect.h), state)
        y += 6
        on_map = sum(n for _, n in state.markers)
        text.draw(surface, f"Markers on the map: {on_map}", (rect.x, y), head, palette.TEXT, bold=True,
                  max_width=rect.w)
        y += head + 2
        cities = sum(n for h, n in state.markers if self.game.is_city(state, h))
        text.draw(surface, f"on cities: {cities}", (rect.x, y), body, palette.TEXT_DIM, max_width=rect.w)
        y += body + 8
        scores = {p: s for p, s in state.scores().items() if s}
        heading = "Final score" if state.phase == "over" else "Kept city markers"
        text.draw(surface, heading, (rect.x, y), head, palette.TEXT, bold=True, max_width=rect.w)
        y += head + 2
        nobody = "nobody kept one" if state.phase == "over" else "none yet"
        lines = [f"player {p}: {state.kept_by(p)} = {s} points" for p, s in scores.items()] or [nobody]
        for line in lines:
            text.draw(surface, line, (rect.x, y), body, palette.TEXT_DIM, max_width=rect.w)
            y += body + 2

    def _paint_rolls(self, surface: Any, layout: Layout, r: Rect, state: KansasState) -> int:
        """The tornado being rolled: its two D8 lines and every 2D6 move, the dice drawn as dice."""
        t = state.current
        assert t is not None
        body = text.px(text.SMALL, layout.height)
        die = max(18, round(layout.height * 0.034))
        y = r.y
        text.draw(surface, f"Tornado {t.number} of {state.count}", (r.x, y), body, palette.TEXT, bold=True,
                  max_width=r.w)
        y += body + 4
        for line, value in (("ns", t.ns), ("we", t.we)):
            fixed = t.forecast_line == line
            self._die(surface, (r.x, y), die, "d8", value)
            label = f"{LINES[line]}" + (" (forecast)" if fixed else "")
            text.draw(surface, label, (r.x + die + 8, y + die / 2), body, palette.TEXT_DIM, anchor="midleft",
                      max_width=r.w - die - 8)
            y += die + 4
        for move in t.moves[-(self.board.moves_per_tornado + 2):]:
            self._die(surface, (r.x, y), die, "d6", move.dice[0])
            self._die(surface, (r.x + die + 4, y), die, "d6", move.dice[1])
            label = f"= {move.total} {move.direction}" + ("  off the map: again" if move.rerolled else "")
            colour = palette.TEXT_DIM if move.rerolled else palette.TEXT
            text.draw(surface, label, (r.x + 2 * die + 12, y + die / 2), body, colour, anchor="midleft",
                      max_width=r.w - 2 * die - 12)
            y += die + 4
        return y + 4

    @staticmethod
    def _die(surface: Any, at: tuple[float, float], size: int, kind: str, value: int | None) -> None:
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
        text.draw(surface, label, centre, round(size * 0.8), palette.CITY_EDGE, anchor="center", bold=True)

    def _paint_forecast(self, surface: Any, layout: Layout, r: Rect, state: KansasState) -> int:
        """Who forecasts what; while a choice is open, the choices ranked by the markers they are
        expected to put on cities and towns (fewest first: the one that spares the most)."""
        body = text.px(text.SMALL, layout.height)
        y = r.y
        if state.forecast is not None:
            number, line, value = state.forecast
            where = f" at {value}" if value else ""
            line_text = f"Forecast: tornado {number}, {LINES[line]}{where}"
            text.draw(surface, line_text, (r.x, y), body, FORECAST, bold=True, max_width=r.w)
            y += body + 4
        elif state.forecaster:
            text.draw(surface, f"Player {state.forecaster} holds a forecast", (r.x, y), body, FORECAST, bold=True,
                      max_width=r.w)
            y += body + 4
        ranked = self.ranked(state)
        if not ranked:
            return y
        text.draw(surface, "Expected markers on cities and towns:", (r.x, y), body, palette.TEXT_DIM, max_width=r.w)
        y += body + 2
        for label, expected in ranked[:RANKED_SHOWN]:
            text.draw(surface, f"{label}: {expected:.2f}", (r.x + 8, y), body, palette.TEXT, max_width=r.w - 8)
            y += body + 2
        return y



def track_offset(index: int, count: int, hex_size: float) -> float:
    """Pixels the ``index``-th of ``count`` tracks is nudged (right and down): the tornadoes of one
    turn often share hexes, and each track should still show."""
    return (index - (count - 1) / 2) * hex_size * 0.09
