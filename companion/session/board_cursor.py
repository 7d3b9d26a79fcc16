"""The board cursor: on a board the arrows go to the nearest place in their direction, not one line further.

A decision whose options mostly name a place (at least :data:`MIN_PLACES` different places, and more options with
a place than without) is answered on the board. Every place an option names is a *spot* at its position in the
board's plane (:func:`companion.places.position`: x to the right, y down, as the projector draws it). The options
that name no place ("End turn", "Pass", "Drew the meteor") are spots too, in a row under the board, left to right
in list order: DOWN past the lowest place reaches them, UP from them goes back onto the board.

An arrow moves to the nearest spot whose direction from here lies within 45 degrees of the arrow's (on a square grid,
a space whose nearest places all lie on its diagonals is UP's or DOWN's from there, else every arrow from them would
go straight on past it); when none does,
to the nearest spot on that side at all (the half-plane), so no spot is out of reach; when none lies on that side,
the cursor stays and says so. Ties (two hexes up-right and down-right of a flat-topped hex) go to the spot nearer the
line the arrows have kept since they began moving along this axis (:attr:`OpenRequest.lane`), so RIGHT pressed on
and on zigzags along a row of hexes; then to the spot listed first.

Several options at one spot (Kansas: "Free: X" and "$1: X"; "P1 delivers X", "P2 delivers X"): the arrows move
between spots, arriving on the first option there that ends nothing, and OK on such a spot opens the short list of
its options (:attr:`OpenRequest.listing`): the OLED then shows those options only and the arrows step through
them, OK picks one, BACK leaves the list with the cursor still on that place. OK on a spot with one option picks
it at once.

Where the cursor starts: at the place where the last thing happened (the last event's place, or the place of the
option the table picked for it; an event that names none, a dice roll, keeps the place before), or the eligible
place nearest to it, never on an option that ends a turn, a phase or the game; with no such place, where the list
starts (:func:`~companion.session.choices.first_choice`). An engine lists its likely answer first: when that is a
step with no place (Carcassonne's light mode: "Next player"), the cursor starts on it, wherever the last thing
happened.

Everything here is computed once per state, with the options (:func:`offer`); a press only looks up positions
already known and remembers the answer, and asks the engine nothing.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.conforms import conforms
from companion.dice import Choice, Event
from companion.games.base import HasBoard, Option
from companion.places import Board, Cell, Link, Location, Place, Point, place_from_args, position
from companion.session.choices import Offered, cursor, ends, first_choice, step_choice
from companion.session.request import OpenRequest

__all__ = ["ARROWS", "MIN_PLACES", "BoardCursor", "Spot", "offer", "route"]

ARROWS: dict[str, Point] = {"LEFT": (-1.0, 0.0), "RIGHT": (1.0, 0.0), "UP": (0.0, -1.0), "DOWN": (0.0, 1.0)}
"""Each arrow's direction in the board's plane (y grows downwards)."""
MIN_PLACES = 3
"""Fewer places than this and a list is quicker: the options stay a list, stepped one by one."""
_EPS = 1e-9


@dataclass(frozen=True)
class Spot:
    """One stop of the cursor: a place (None: an option with no place, in the row under the board), where it lies
    in the board's plane, and the options there (indexes in list order)."""

    place: Place | None
    at: Point
    options: tuple[int, ...]
    home: int
    """The option the cursor is on when it arrives: the first here that ends nothing (else the first)."""


class BoardCursor:
    """The cursor's geometry over one state's options: the spots, and each arrow's answer once asked."""

    def __init__(self, options: Sequence[Option], spots: Sequence[Spot]) -> None:
        self.options = tuple(options)
        self.spots = tuple(spots)
        self._spot_of = {i: n for n, spot in enumerate(self.spots) for i in spot.options}
        self._moves: dict[tuple[int, str, float], int | None] = {}
        self._diagonal: frozenset[int] = frozenset()
        self._reach_all()

    def _reach_all(self) -> None:
        """On a square grid, a space whose nearest places all lie on its diagonals can be out of every arrow's
        reach (each arrow from them goes straight on past it), and so can a pair of such spaces, each reached from
        the other only: such a space is then UP's and DOWN's from a place on its diagonal (:attr:`_diagonal`),
        until every spot is reached from the first. A space with a place right next to it is reached from there,
        so a grid whose every space has one is not looked at further; nor is a board of any other shape."""
        if any(spot.place is not None and not isinstance(spot.place, Cell) for spot in self.spots):
            return
        cells = {spot.place for spot in self.spots if isinstance(spot.place, Cell)}
        lone = {n for n, spot in enumerate(self.spots)
                if isinstance(spot.place, Cell) and not any(c in cells for c in spot.place.neighbours())}
        for _ in range(len(self.spots)):
            if not lone - self._diagonal:
                return
            reached = {0}
            todo = [0]
            for n in todo:  # breadth first over the arrows, each pressed as from a fresh start
                x, y = self.spots[n].at
                for dx, dy in ARROWS.values():
                    axis = "h" if dx else "v"
                    found = self._nearest(n, dx, dy, axis, y if axis == "h" else x)
                    if found is not None and found not in reached:
                        reached.add(found)
                        todo.append(found)
            out = (lone - reached) - self._diagonal
            if not out:
                return
            self._diagonal |= out
            self._moves.clear()

    @classmethod
    def of(cls, options: Sequence[Option], board: Board | None = None) -> BoardCursor | None:
        """The board cursor over ``options``, or None when they are better stepped as a list (too few places)."""
        placed: dict[Place, tuple[Point, list[int]]] = {}
        unplaced: list[int] = []
        for i, option in enumerate(options):
            at = position(option.place, board) if option.place is not None else None
            if option.place is None or at is None:
                unplaced.append(i)
            else:
                placed.setdefault(option.place, (at, []))[1].append(i)
        if len(placed) < MIN_PLACES or len(options) - len(unplaced) <= len(unplaced):
            return None
        spots = [Spot(place, at, tuple(found), _home(options, found)) for place, (at, found) in placed.items()]
        if unplaced:
            spots += _row(spots, unplaced, options)
        return cls(options, spots)

    def spot(self, option: int) -> Spot:
        """The spot of option ``option``."""
        return self.spots[self._spot_of[option]]

    def here(self, option: int) -> tuple[int, ...]:
        """The options at the same spot as ``option`` (itself included), in list order."""
        return self.spot(option).options

    def move(self, option: int, arrow: str,
             lane: tuple[str, float] | None = None) -> tuple[int, tuple[str, float]] | None:
        """The option an arrow reaches from ``option`` and the lane to keep, or None when no spot lies that way."""
        dx, dy = ARROWS[arrow]
        axis = "h" if dx else "v"
        here = self._spot_of[option]
        x, y = self.spots[here].at
        keep = lane[1] if lane is not None and lane[0] == axis else (y if axis == "h" else x)
        key = (here, arrow, keep)
        if key not in self._moves:
            self._moves[key] = self._nearest(here, dx, dy, axis, keep)
        found = self._moves[key]
        return None if found is None else (self.spots[found].home, (axis, keep))

    def _nearest(self, here: int, dx: float, dy: float, axis: str, keep: float) -> int | None:
        x, y = self.spots[here].at
        best: tuple[int, float, float, int] | None = None
        for n, spot in enumerate(self.spots):
            vx, vy = spot.at[0] - x, spot.at[1] - y
            along = vx * dx + vy * dy
            if n == here or along <= _EPS:
                continue
            across = abs(vy * dx - vx * dy)
            off_lane = abs((spot.at[1] if axis == "h" else spot.at[0]) - keep)
            inside = across < along - _EPS or (n in self._diagonal and axis == "v" and across <= along + _EPS)
            rank = (0 if inside else 1, round(math.hypot(vx, vy), 6), round(off_lane, 6), n)
            if best is None or rank < best:
                best = rank
        return None if best is None else best[3]

    def start(self, near: Place | None, board: Board | None = None) -> int:
        """Where the cursor starts: on ``near`` when an option there ends nothing, else on the nearest place with
        such an option, else where a list starts."""
        fallback = first_choice(self.options)
        if self.options[fallback].place is None and not ends(self.options[fallback]):
            return fallback  # the engine put a step that is no place first: its likely answer ("Next player")
        at = position(near, board) if near is not None else None
        if at is None:
            return fallback
        eligible = [s for s in self.spots if s.place is not None and not ends(self.options[s.home])]
        exact = next((s for s in eligible if s.place == near), None)
        if exact is not None:
            return exact.home
        nearest = min(eligible, key=lambda s: math.hypot(s.at[0] - at[0], s.at[1] - at[1]), default=None)
        return nearest.home if nearest is not None else fallback


def _home(options: Sequence[Option], found: Sequence[int]) -> int:
    return next((i for i in found if not ends(options[i])), found[0])


def _row(spots: Sequence[Spot], unplaced: Sequence[int], options: Sequence[Option]) -> list[Spot]:
    """The options with no place as spots in a row under the board, spread over its width in list order, one
    step (the closest two places' distance) below the lowest place."""
    xs = [s.at[0] for s in spots]
    ys = [s.at[1] for s in spots]
    points = sorted({s.at for s in spots})
    step = min((math.dist(a, b) for k, a in enumerate(points) for b in points[k + 1:k + 8]), default=1.0) or 1.0
    left, width, count = min(xs), max(xs) - min(xs), len(unplaced)
    return [Spot(None, (left + width * (k + 0.5) / count, max(ys) + step), (i,), i)
            for k, i in enumerate(unplaced)]


def _board(game: Any, state: Any, options: Sequence[Option]) -> Board | None:
    """The engine's board, asked only when a place needs it for its position (a location or a link)."""
    if conforms(game, HasBoard) and any(isinstance(o.place, Location | Link) for o in options):
        return game.board_for(state)
    return None


def _last_place(last: Event | None, before: Offered | None) -> Place | None:
    """Where the last thing happened: the place the last event names, or that of the option it was picked as; an
    event naming none (a roll, "No follower") keeps the place known before it."""
    if isinstance(last, Choice):
        named = place_from_args(last.args)
        if named is not None:
            return named
        if before is not None:
            picked = next((o.place for o in before if o.event == last and o.place is not None), None)
            if picked is not None:
                return picked
    return before.near if before is not None else None


def offer(game: Any, state: Any, options: Sequence[Option], last: Event | None,
          before: Offered | None = None) -> tuple[Offered, BoardCursor | None]:
    """The options of ``state`` with where the cursor starts, and their board cursor (None: a list). ``last`` is
    the event that led to ``state``; ``before`` what was offered in the state before it (same game).

    An engine may lay its options out for the buttons when they are a list (``arranged(state, options)``: the
    options reordered, the one the list starts on and how far LEFT and RIGHT step; Carcassonne's kinds round the
    likeliest); on the board the places lay them out, in the engine's own order. It may also name the place an
    answer on the board most likely is (``likely_place(state)``: the cursor starts there instead of where the last
    thing happened)."""
    near = _last_place(last, before)
    likely = getattr(game, "likely_place", None)
    aim = likely(state) if callable(likely) else None  # where the engine expects the answer, else the last place
    board = _board(game, state, options)
    moves = BoardCursor.of(options, board)
    if moves is not None:  # on the board the places lay the options out, in the engine's own order
        return Offered(options, moves.start(aim if aim is not None else near, board), near, 1), moves
    arrange = getattr(game, "arranged", None)
    if not callable(arrange):
        return Offered(options, None, near, 1), None
    laid, start, jump = arrange(state, options)
    if start is not None and 0 <= start < len(laid) and ends(laid[start]):
        start = None  # never where the cursor starts, whatever an engine's layout says: the first that ends nothing
    return Offered(laid, start, near, jump), None


def moved(options: Offered, moves: BoardCursor | None, request: OpenRequest, button: str) -> OpenRequest | None:
    """The open request after ``button`` moves the cursor of a decision, or None when it moves nothing (an arrow
    with no place that way, an OK that picks, a BACK outside a place's short list). One rule for the session's
    presses (:func:`companion.session.presses.choice_press`, the session's BACK) and for :func:`route`, so the
    fewest presses a driver is told are the presses the buttons take.

    A list is stepped one option a press (UP and LEFT back, DOWN and RIGHT on, wrapping onto an option that ends
    nothing), or LEFT and RIGHT ``jump`` options at once round the list where the engine says (:attr:`Offered.jump`),
    going on past an option that ends a turn, a phase or the game (only UP and DOWN stop on one);
    on the board an arrow goes to the nearest place that way, OK on a place with several options opens their short
    list, which the arrows step through and BACK leaves with the cursor still on that place."""
    at = cursor(options, request.choice)
    if button in ARROWS:
        step = -1 if button in ("UP", "LEFT") else 1
        jump = options.jump if isinstance(options, Offered) and button in ("LEFT", "RIGHT") else 1
        if moves is None and jump > 1:
            return request.with_(choice=_jumped(options, at, step * jump))
        if moves is None:
            return request.with_(choice=step_choice(options, request.choice, step))
        if request.listing:
            here = moves.here(at)
            return request.with_(choice=here[(here.index(at) + step) % len(here)])
        arrived = moves.move(at, button, request.lane)
        return request.with_(choice=arrived[0], lane=arrived[1]) if arrived is not None else None
    if button == "OK" and moves is not None and not request.listing and len(moves.here(at)) > 1:
        return request.with_(choice=at, listing=True)
    if button == "BACK" and request.listing:
        return request.with_(listing=False)
    return None


def _jumped(options: Sequence[Option], at: int, by: int) -> int:
    """The option ``by`` options from ``at`` round the list, or the first past it (the same way) that ends nothing:
    a page turned never lands on "End game", so a press more to step onto it is always one of UP or DOWN."""
    n = len(options)
    there = (at + by) % n
    for _ in range(n):
        if not ends(options[there]):
            return there
        there = (there + (1 if by > 0 else -1)) % n
    return there


ROUTE_BUTTONS = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")
"""The presses a route is made of, in the order tried (of two routes as short, the one with the earlier buttons)."""


def route(options: Offered, moves: BoardCursor | None, request: OpenRequest, target: int) -> list[str]:
    """The fewest presses that bring the cursor from where ``request`` has it to option ``target`` and pick it
    (the last press is OK): what a table that knows the buttons presses, for drivers, tests and press counts."""
    def node(r: OpenRequest) -> tuple[int, tuple[str, float] | None, bool]:
        return (cursor(options, r.choice), r.lane, r.listing)

    came: dict[tuple[int, tuple[str, float] | None, bool], tuple[OpenRequest, str] | None] = {node(request): None}
    todo = deque([request])
    while todo:
        now = todo.popleft()
        at = cursor(options, now.choice)
        if at == target and (moves is None or now.listing or len(moves.here(at)) == 1):
            presses = ["OK"]
            step = came[node(now)]
            while step is not None:
                presses.append(step[1])
                step = came[node(step[0])]
            return presses[::-1]
        for button in ROUTE_BUTTONS:
            after = moved(options, moves, now, button)
            if after is not None and node(after) not in came:
                came[node(after)] = (now, button)
                todo.append(after)
    raise ValueError(f"option {target} cannot be reached")
