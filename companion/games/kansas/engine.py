"""The Kansas Tornadoes engine: outbreak, start grid, path, forecast and the markers, as a pure fold.

A turn is: the forecast (only when a player holds one), the tornado phase (per tornado: a D8 for the
north-south line, a D8 for the west-east line, then 2D6 per move, re-rolled when the key points off
the map), then the rest of the Age of Steam turn as far as markers go: paid removals, the
Emergency Response, deliveries to damaged cities, the forecast action, and the end of the turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from companion.dice import Choice, Event, Prompt, take_dice
from companion.errors import RuleError
from companion.games.base import Option, SetupQuestion
from companion.games.kansas.data import Board
from companion.games.kansas.state import LINES, Emergency, KansasState, Move, Tornado, evolve
from companion.hexgrid import Hex

if TYPE_CHECKING:  # the risk module (and numpy with it) loads at the first risk question, not with the engine
    from companion.games.kansas.risk import TornadoChain

ACTIONS: tuple[str, ...] = ("end_turn", "remove", "emergency", "emergency_remove", "deliver", "new_city")
"""Decisions of the turn after the tornado phase."""
FORECAST_ACTIONS: tuple[str, ...] = ("forecast", "no_forecast")
EMERGENCY_REMOVALS = 3
"""Free removals of the Emergency Response (the rules: up to three, at most one from a city)."""


class KansasGame:
    """Age of Steam: Kansas Tornadoes, keeping the :class:`companion.games.base.Game` contract."""

    numbered_seats = True
    """The seats are numbered ("Player 2"): the table may name them (companion.session.seats)."""

    key = "kansas"
    title = "Kansas Tornadoes"

    def __init__(self, board: Board) -> None:
        self.board = board

    @cached_property
    def chain(self) -> TornadoChain:
        """The board's tornado moves with the re-roll rule, built once for every risk question."""
        from companion.games.kansas.risk import TornadoChain

        return TornadoChain(self.board)

    def map_json(self) -> dict[str, Any]:
        return self.board.to_json()

    # -- setting up -------------------------------------------------------------------------
    def outbreak(self, players: int, turn: int) -> int:
        """Tornadoes in ``turn`` for ``players``; bad counts or turns are a RuleError naming the range."""
        table = self.board.outbreak
        if isinstance(players, bool) or not isinstance(players, int) or players not in table:
            raise RuleError(f"players: Kansas Tornadoes is for {', '.join(map(str, table))} players, got {players!r}")
        turns = len(table[players])
        if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= turns:
            raise RuleError(f"turn: a {players}-player game has turns 1..{turns}, got {turn!r}")
        return table[players][turn - 1]

    def setup_questions(self) -> list[SetupQuestion]:
        """Asked on the OLED before a new game: the player count picks the outbreak table's row."""
        return [SetupQuestion("players", "players", tuple(self.board.outbreak))]

    def new_game(self, options: Mapping[str, Any]) -> KansasState:
        """Options: ``players`` (4, 5, 6; default 4), ``turn`` to start from (default 1) and ``forecaster``
        (a player holding a forecast for the first tornado phase, default none)."""
        players, turn = options.get("players", 4), options.get("turn", 1)
        self.outbreak(players, turn)
        forecaster = options.get("forecaster", 0)
        if forecaster != 0:
            self._player_number(players, forecaster)
        return self._begin_turn(KansasState(players=players, turn=turn, phase="actions", forecaster=forecaster,
                                            recent=("Kansas Tornadoes",)))

    def _begin_turn(self, state: KansasState) -> KansasState:
        count = self.outbreak(state.players, state.turn)
        if count == 0:
            why = "last turn" if state.turn == self.board.turns(state.players) else "no outbreak"
            return evolve(state, phase="actions", count=0, tornadoes=(), forecast=None, emergency=None, forecaster=0,
                           recent=(*state.recent, f"Turn {state.turn}: no tornadoes ({why})"))
        base = evolve(state, count=count, tornadoes=(Tornado(1),), forecast=None, emergency=None)
        if state.forecaster:
            return evolve(base, phase="forecast")
        return evolve(base, phase="tornado")

    # -- the fold ---------------------------------------------------------------------------
    def apply(self, state: KansasState, event: Event) -> KansasState:
        if state.phase == "over":
            raise RuleError("the game is over")
        if state.phase == "tornado":
            need = self.need(state)
            if need == "forecast_at":
                return self._forecast_at(state, self._choice(event, ("forecast_at",)))
            kinds = ("d6", "d6") if need == "move" else ("d8",)
            dice = take_dice(event, kinds)
            if need == "move":
                return self._move(state, (dice[0].value, dice[1].value))
            return self._line(state, need, dice[0].value)
        if state.phase == "forecast":
            return self._forecast(state, self._choice(event, FORECAST_ACTIONS))
        return self._action(state, self._choice(event, ACTIONS))

    @staticmethod
    def _choice(event: Event, allowed: tuple[str, ...]) -> Choice:
        if not isinstance(event, Choice):
            raise RuleError(f"waiting for a decision ({', '.join(allowed)}), not a {type(event).__name__}")
        if event.action not in allowed:
            raise RuleError(f"unknown action {event.action!r} here (one of {', '.join(allowed)})")
        return event

    def need(self, state: KansasState) -> str:
        """What the tornado being rolled needs next: "ns", "we", "forecast_at" or "move"."""
        t = state.current
        if t is None:
            return ""
        if t.ns is None and t.forecast_line != "ns":
            return "ns"
        if t.we is None and t.forecast_line != "we":
            return "we"
        if t.start is None:
            return "forecast_at"
        return "move"

    def _line(self, state: KansasState, line: str, value: int) -> KansasState:
        t = state.current
        assert t is not None
        t = evolve(t, ns=value) if line == "ns" else evolve(t, we=value)
        if t.ns is not None and t.we is not None:
            return self._start(state, t)
        said = f"{LINES[line].capitalize()} line {value}"
        return self._with_current(state, t, (said,))

    def _start(self, state: KansasState, t: Tornado) -> KansasState:
        assert t.ns is not None and t.we is not None
        start = self.board.grid[t.ns, t.we]
        t = evolve(t, start=start)
        state = self._with_current(state, t, (f"Start: {self.board.name_of(start)}", f"N-S {t.ns}, W-E {t.we}"))
        return self._finish_if_done(self._add_markers(state, (start,)))

    def _move(self, state: KansasState, dice: tuple[int, int]) -> KansasState:
        t = state.current
        assert t is not None and t.start is not None and t.position is not None
        total = dice[0] + dice[1]
        direction = self.board.path_key[total]
        to = t.position.neighbour(direction)
        if to not in self.board.terrain:
            move = Move(dice, total, direction, to, rerolled=True)
            return self._with_current(state, evolve(t, moves=(*t.moves, move)),
                                      (f"{dice[0]}+{dice[1]}={total} {direction}: off the map", "Roll again"))
        move = Move(dice, total, direction, to)
        t = evolve(t, moves=(*t.moves, move))
        state = self._with_current(state, t, (f"Marker on {self.board.name_of(to)}",
                                              f"{dice[0]}+{dice[1]}={total} {direction}"))
        return self._finish_if_done(self._add_markers(state, (to,)))

    def _with_current(self, state: KansasState, t: Tornado, recent: tuple[str, ...]) -> KansasState:
        return evolve(state, tornadoes=(*state.tornadoes[:-1], t), recent=recent)

    @staticmethod
    def _add_markers(state: KansasState, hexes: tuple[Hex, ...]) -> KansasState:
        counts = Counter(dict(state.markers))
        counts.update(hexes)
        return evolve(state, markers=tuple(sorted((h, n) for h, n in counts.items() if n > 0)))

    def _finish_if_done(self, state: KansasState) -> KansasState:
        t = state.current
        assert t is not None and t.start is not None
        if len(t.markers) < self.board.markers_per_tornado:
            return state
        path = " ".join(m.direction for m in t.moves if not m.rerolled)
        placed = state.recent[:1] if t.moves else ()  # the last marker's line: the table places it now
        done = (*placed, f"Start: {self.board.name_of(t.start)}", f"Path: {path}")
        if t.number < state.count:
            line = state.forecast[1] if state.forecast and state.forecast[0] == t.number + 1 else ""
            return evolve(state, tornadoes=(*state.tornadoes, Tornado(t.number + 1, forecast_line=line)),
                           recent=(*done, self._hit_line(t.markers)))
        hit = self._hit_line([h for tor in state.tornadoes for h in tor.markers])
        return evolve(state, phase="actions", history=state.history.plus(state.turn, state.tornadoes),
                       recent=(*done, f"All {state.count} done. {hit}" if state.count > 1 else hit))

    def _hit_line(self, hexes: Iterable[Hex]) -> str:
        """The cities and towns a path hit, or that none was."""
        names = sorted({self.board.name_of(h) for h in hexes if self.board.place_at(h)})
        return f"Hit: {', '.join(names)}" if names else "No city or town hit"

    # -- the forecast ----------------------------------------------------------------------------
    def _forecast(self, state: KansasState, event: Choice) -> KansasState:
        who = state.forecaster
        if event.action == "no_forecast":
            return evolve(state, phase="tornado", forecaster=0, recent=(f"Player {who} does not forecast",))
        number, line = event.args.get("tornado", 1), event.args.get("line")
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= state.count:
            raise RuleError(f"tornado: this turn has tornadoes 1..{state.count}, got {number!r}")
        if not isinstance(line, str) or line not in LINES:
            raise RuleError(f"line: expected ns (north-south) or we (west-east), got {line!r}")
        tornadoes = (Tornado(1, forecast_line=line if number == 1 else ""),)
        return evolve(state, phase="tornado", forecaster=0, forecast=(number, line, 0), tornadoes=tornadoes,
                       recent=(f"Player {who} forecasts tornado {number}", f"fixing the {LINES[line]} line"))

    def _forecast_at(self, state: KansasState, event: Choice) -> KansasState:
        t = state.current
        assert t is not None and state.forecast is not None
        value = event.args.get("value")
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 8:
            raise RuleError(f"value: a grid line is 1..8, got {value!r}")
        number, line, _ = state.forecast
        state = evolve(state, forecast=(number, line, value))
        return self._start(state, evolve(t, ns=value) if line == "ns" else evolve(t, we=value))

    # -- after the tornadoes ---------------------------------------------------------------------
    def _action(self, state: KansasState, event: Choice) -> KansasState:
        a = event.args
        if event.action == "end_turn":
            if state.turn >= self.board.turns(state.players):
                return evolve(state, phase="over", recent=self.final_lines(state))
            return self._begin_turn(evolve(state, turn=state.turn + 1, recent=(f"Turn {state.turn + 1}",)))
        if event.action == "emergency":
            player = self._player_number(state.players, a.get("player"))
            if state.emergency is not None:
                raise RuleError(f"player {state.emergency.player} already took the Emergency Response this turn")
            return evolve(state, emergency=Emergency(player), forecaster=player,
                           recent=(f"Player {player}: Emergency Response", "3 free removals, forecast next turn"))
        h = self._hex(a)
        if event.action == "new_city":
            place = self.board.place_at(h)
            if place is None or place.kind != "town":
                raise RuleError(f"{self.board.name_of(h)} is not a town")
            if h in state.new_cities:
                raise RuleError(f"{place.name} is already a New City")
            return evolve(state, new_cities=state.new_cities | {h}, recent=(f"{place.name} is a New City",))
        here = state.markers_at(h)
        if here == 0:
            raise RuleError(f"no damage marker on {self.board.name_of(h)}")
        city = self.is_city(state, h)
        if event.action == "remove":
            if city:
                raise RuleError(f"{self.board.name_of(h)} is a city: its markers go only by Emergency Response "
                                "or delivery")
            n = a.get("count", 1)
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= here:
                raise RuleError(f"count: {self.board.name_of(h)} has {here} marker(s), got {n!r}")
            return self._take(state, h, n, 0, (f"Removed {n} from {self.board.name_of(h)}", f"pay ${n}"))
        if event.action == "emergency_remove":
            e = state.emergency
            if e is None:
                raise RuleError("nobody took the Emergency Response this turn")
            if e.left == 0:
                raise RuleError(f"player {e.player} used all {EMERGENCY_REMOVALS} free removals")
            if city and e.city_used:
                raise RuleError("only one of the free removals may come from a city")
            state = evolve(state, emergency=Emergency(e.player, e.left - 1, e.city_used or city))
            kept = (f"kept by player {e.player}",) if city else (f"{e.left - 1} free left",)
            return self._take(state, h, 1, e.player if city else 0,
                              (f"Free removal: {self.board.name_of(h)}", *kept))
        # deliver
        player = self._player_number(state.players, a.get("player"))
        if not city:
            raise RuleError(f"{self.board.name_of(h)} is not a city: a delivery removes markers from cities only")
        place = self.board.place_at(h)
        good = a.get("good")  # left out, the table vouches the good matched (a New City's colour is not known)
        if good is not None and place is not None and place.kind == "city" and good != place.colour:
            raise RuleError(f"{place.name} takes {place.colour} goods, not {good!r}")
        return self._take(state, h, 1, player, (f"Delivery to {self.board.name_of(h)}", f"player {player} keeps 1"))

    def _take(self, state: KansasState, h: Hex, n: int, keeper: int, recent: tuple[str, ...]) -> KansasState:
        markers = tuple((x, c - n if x == h else c) for x, c in state.markers)
        state = evolve(state, markers=tuple(m for m in markers if m[1] > 0), recent=recent)
        if keeper:
            kept = dict(state.kept)
            kept[keeper] = kept.get(keeper, 0) + n
            state = evolve(state, kept=tuple(sorted(kept.items())))
        return state

    @staticmethod
    def final_lines(state: KansasState) -> tuple[str, ...]:
        """The final result, one short line per player: city markers kept and their points (2 each); with
        more than four players three to a line, as kept/points, so all fit the OLED."""
        scores = state.scores()
        if state.players <= 4:
            return tuple(f"P{p}: {state.kept_by(p)} kept, {s} points" for p, s in scores.items())
        cells = [f"P{p} {state.kept_by(p)}/{s}" for p, s in scores.items()]
        return ("Kept/points per player", *(" ".join(cells[i:i + 3]) for i in range(0, len(cells), 3)))

    def markers_by_place(self, state: KansasState) -> list[tuple[Hex, int]]:
        """The hexes with markers as the removal menu lists them: grouped by the city or town they are named
        from, nearest first from where the last tornado stopped (where the projector's eye already is), so
        the table scrolls through its own neighbourhood, not the board in coordinate order."""
        b = self.board
        tornadoes = [t for t in state.tornadoes if t.position is not None]
        anchor = tornadoes[-1].position if tornadoes else None

        def key(item: tuple[Hex, int]) -> tuple[int, str, int]:
            h = item[0]
            place = b.nearest_place(h)
            far = place.hex.distance(anchor) if anchor is not None else 0
            return (far, place.name, h.distance(place.hex))

        return sorted(state.markers, key=key)

    def is_city(self, state: KansasState, h: Hex) -> bool:
        """A city or a New City: markers there go only by Emergency Response or delivery, and are kept."""
        place = self.board.place_at(h)
        return (place is not None and place.kind == "city") or h in state.new_cities

    @staticmethod
    def _player_number(players: int, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= players:
            raise RuleError(f"player: expected 1..{players}, got {value!r}")
        return value

    def _hex(self, args: Mapping[str, Any]) -> Hex:
        q, r = args.get("q"), args.get("r")
        if isinstance(q, bool) or isinstance(r, bool) or not isinstance(q, int) or not isinstance(r, int):
            raise RuleError(f"expected a hex as q, r whole numbers, got q={q!r}, r={r!r}")
        h = Hex(q, r)
        if h not in self.board.terrain:
            raise RuleError("that hex is not on the map")
        return h

    # -- what the table sees ----------------------------------------------------------------
    def prompt(self, state: KansasState) -> Prompt:
        if state.phase == "over":
            scores = state.scores()
            best = ", ".join(f"player {p} {s} points ({state.kept_by(p)} kept)" for p, s in scores.items() if s) \
                or "nobody kept a city marker"
            return Prompt(f"Game over: 2 points per city marker kept: {best}", "Game over", done=True)
        if state.phase == "forecast":
            return Prompt(f"Player {state.forecaster} forecasts: choose the tornado and the line to fix",
                          f"Player {state.forecaster}: forecast", actions=FORECAST_ACTIONS)
        if state.phase == "actions":
            last = state.turn >= self.board.turns(state.players)
            end = "end the game" if last else "end the turn"
            return Prompt(f"Turn {state.turn}: remove markers, emergency response, deliveries; then {end}",
                          "Game end?" if last else f"Turn {state.turn}: actions", actions=ACTIONS)
        t = state.current
        assert t is not None
        head = f"Tornado {t.number} of {state.count}"
        need = self.need(state)
        # The short forms are the OLED's body: "who" then "what", each part a 16-character line.
        if need == "ns":
            return Prompt(f"{head}: roll a D8 for the north-south line", f"{head}: north-south D8", dice=("d8",))
        if need == "we":
            return Prompt(f"{head}: roll a D8 for the west-east line", f"{head}: west-east D8", dice=("d8",))
        if need == "forecast_at":
            line = LINES[t.forecast_line]
            return Prompt(f"{head}: the forecaster chooses where along the {line} line it starts",
                          f"Tornado {t.number}: pick start", actions=("forecast_at",))
        move = t.moves_made + 1
        again = t.moves and t.moves[-1].rerolled
        text = f"{head}, move {move} of {self.board.moves_per_tornado}: roll 2D6 for the path"
        if again:
            text += " (the last roll left the map: roll again)"
        what = f"move {move}: 2D6 again" if again else f"move {move} of {self.board.moves_per_tornado}: 2D6"
        return Prompt(text, f"{head}: {what}", dice=("d6", "d6"))

    def status(self, state: KansasState) -> str:
        names = {"forecast": "forecast", "tornado": "tornado phase", "actions": "build and deliver",
                 "over": "game over"}
        return f"Turn {state.turn}/{self.board.turns(state.players)} - {names[state.phase]}"

    def recap(self, state: KansasState) -> tuple[str, ...]:
        return state.recent

    def risk_map(self, state: KansasState) -> Mapping[Hex, float]:
        """P(at least one more marker) per hex for what is left of this tornado phase, or the next one.

        The risk module is imported here, not with the engine: it brings numpy (slow to import), which a
        resumed game needs only once someone asks for the overlay. The overlay asks on every roll, so its
        first question has the chain make its tables of every start's walk (once, a few milliseconds,
        in the overlay's first frame, which draws the whole screen anyway): a roll then looks the
        tornado in flight up. A one-off question (``companion risk``) does not pay for them."""
        from companion.games.kansas.risk import state_risk

        self.chain.prepare_rests()
        return state_risk(self, state).p_hit

    # -- the decisions open now, for the buttons and the projector's cursor --------------------
    def choices(self, state: KansasState) -> list[Option]:
        b = self.board
        if state.phase == "forecast":
            out = [Option.of("No forecast", Choice("no_forecast"))]
            for n in range(1, state.count + 1):
                for line in LINES:
                    out.append(Option.of(f"Tornado {n}: fix {LINES[line]}",
                                               Choice("forecast", {"tornado": n, "line": line})))
            return out
        if state.phase == "tornado" and self.need(state) == "forecast_at":
            t = state.current
            assert t is not None
            out = []
            for v in range(1, 9):
                h = b.grid[(v, t.we) if t.forecast_line == "ns" else (t.ns, v)]  # type: ignore[index]
                out.append(Option.of(f"{LINES[t.forecast_line]} {v}: {b.name_of(h)}",
                                     Choice("forecast_at", {"value": v, "q": h.q, "r": h.r})))
            return out
        if state.phase != "actions":
            return []
        last = state.turn >= b.turns(state.players)
        out = []
        e = state.emergency
        for h, n in self.markers_by_place(state):
            at = {"q": h.q, "r": h.r}
            name = b.name_of(h)
            city = self.is_city(state, h)
            if e is not None and e.left and not (city and e.city_used):
                out.append(Option.of(f"Free: {name} ({n})", Choice("emergency_remove", at)))
            if not city:
                out.append(Option.of(f"$1: {name} ({n})", Choice("remove", at)))
            else:
                place = b.place_at(h)
                good = {"good": place.colour} if place is not None and place.kind == "city" else {}
                out += [Option.of(f"P{p} delivers {name}", Choice("deliver", {"player": p, **good, **at}))
                        for p in range(1, state.players + 1)]
        if e is None:
            out += [Option.of(f"P{p}: Emergency/Forecast", Choice("emergency", {"player": p}))
                    for p in range(1, state.players + 1)]
        # Last, never where the cursor starts: a single press does not end the turn (or the game).
        return [*out, Option.of("End game" if last else "End turn", Choice("end_turn"))]
