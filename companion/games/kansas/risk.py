"""Exact tornado risk: per hex, P(at least one marker) and the expected number of markers.

One tornado is a Markov chain over hexes: it starts on a grid hex (each of the 64 grid points
equally likely, or fewer when a line is known or forecast), then takes its moves, each direction
with the chance of its 2D6 sums *given that the move stays on the map* -- the re-roll rule makes a
move that would leave the map simply not happen, so the chances of the directions that remain are
scaled up. Expected markers add up along the chain; P(at least one) is 1 - P(the path avoids the
hex), which is the same chain with the hex made a trap. Tornadoes roll independently, so a phase
multiplies the chances of being missed. Nothing is sampled; a test checks it against a simulation.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

import numpy as np

from companion.games.kansas.data import Board
from companion.games.kansas.state import LINES, KansasState
from companion.hexgrid import Hex


class RiskSource(Protocol):
    """What the risk needs of a game: its board, its Markov chain and its outbreak table (the engine
    has all three; risk imports no engine, so engine and risk do not import each other)."""

    board: Board

    @property
    def chain(self) -> TornadoChain: ...

    def outbreak(self, players: int, turn: int) -> int: ...

SUM_CHANCES: dict[int, float] = {s: (6 - abs(s - 7)) / 36 for s in range(2, 13)}
"""Chance of each 2D6 sum."""


@dataclass(frozen=True)
class Risk:
    """Exact odds for some tornadoes still to come."""

    p_hit: dict[Hex, float]
    """hex -> P(at least one more marker)."""
    expected: dict[Hex, float]
    """hex -> expected number of new markers."""

    def to_json(self, board: Board) -> dict[str, object]:
        return {"hexes": [{"q": h.q, "r": h.r, "p_hit": self.p_hit.get(h, 0.0),
                           "expected_markers": self.expected.get(h, 0.0)}
                          for h in sorted(board.terrain, key=lambda x: (x.q, x.r))]}

    def expected_on(self, hexes: Iterable[Hex]) -> float:
        return sum(self.expected.get(h, 0.0) for h in hexes)


@dataclass(frozen=True)
class ForecastOption:
    """One choice the forecasting player can make, and what it does to the phase's risk."""

    line: str
    """"ns" or "we": the line the player fixes."""
    value: int
    """Where along it, 1..8."""
    risk: Risk
    """The whole phase's risk with this choice."""
    on_places: float
    """Expected markers on cities and towns: the measure of which choice spares the most."""


@dataclass(frozen=True)
class LineOption:
    """The forecasting player's first choice, the line to fix, when the place along it is picked only
    after the other line is rolled (the rules' order), and picked to spare the most."""

    line: str
    """"ns" or "we": the line the player fixes."""
    best_place: dict[int, int]
    """The other line's roll 1..8 -> the place along the fixed line that spares the most then."""
    risk: Risk
    """The whole phase's risk when the place is picked so, the other line's roll still unknown."""
    on_places: float
    """Expected markers on cities and towns, the measure of which line spares the most."""


class TornadoChain:
    """The moves of one tornado on one board, with the re-roll rule, ready to be walked many times.

    Exact and vectorised (numpy): ``T[s, t]`` is the chance that a move from hex ``s`` lands on ``t``
    (a move off the map is rolled again, so each row is renormalised over the moves that stay). The
    chance that the next ``k`` positions of a walk from ``s`` all miss hex ``h`` is ``B[k][s, h]``, for
    every start and every target at once: ``B[0] = 1`` and ``B[k] = T @ (M * B[k-1])`` with ``M[t, h] =
    [t != h]``. P(hit) of any start distribution is then one vector-matrix product, and so are the
    expected markers (``start @ T^k`` summed over the moves). The board's hexes index the matrices.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.moves = board.moves_per_tornado
        self.hexes: list[Hex] = list(board.terrain)
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        n = len(self.hexes)
        # The chain is sparse (at most six moves a hex): kept as one (target, chance) column per
        # direction, so a step is a few gathers, not a dense matrix product (no BLAS threads).
        rows = np.arange(n)
        targets, chances = [], []
        for direction in sorted(set(board.path_key.values())):
            chance = sum(p for total, p in SUM_CHANCES.items() if board.path_key[total] == direction)
            to = np.array([self.index.get(h.neighbour(direction), -1) for h in self.hexes])
            targets.append(np.where(to >= 0, to, rows))
            chances.append(np.where(to >= 0, chance, 0.0))
        stay = np.sum(chances, axis=0)
        self._targets = targets
        self._chances = [np.divide(c, stay, out=np.zeros(n), where=stay > 0)[:, None] for c in chances]
        step = np.zeros((n, n))
        for to, chance in zip(self._targets, self._chances, strict=True):
            step[rows, to] += chance[:, 0]
        self.step = step
        miss = 1.0 - np.eye(n)
        avoid = [np.ones((n, n))]
        visits = [np.zeros((n, n))]
        power = np.eye(n)
        for _ in range(self.moves):
            avoid.append(self._walk(miss * avoid[-1]))
            power = self._walk(power)  # step^k = step @ step^(k-1)
            visits.append(visits[-1] + power)
        self._avoid = avoid
        """``_avoid[k][s, h]``: the next k positions from s all miss h."""
        self._miss = miss
        self._visits = visits
        """``_visits[k][s, h]``: expected visits to h in the next k moves from s (> 0 exactly where reachable)."""
        self._from_grid: dict[tuple[int | None, int | None], Risk] = {}

    def _walk(self, after: Any) -> Any:
        """``step @ after``: row s mixes the rows of the hexes a move from s can reach."""
        return sum(chance * after[to] for to, chance in zip(self._targets, self._chances, strict=True))

    def from_grid(self, ns: int | None = None, we: int | None = None) -> Risk:
        """A whole tornado from the start grid, with none, one or both lines known; kept once computed
        (there are only 81 such cases per board, and the full one is asked for on every roll)."""
        key = (ns, we)
        risk = self._from_grid.get(key)
        if risk is None:
            risk = self._from_grid[key] = self.tornado(self.start(ns, we))
        return risk

    def start(self, ns: int | None, we: int | None) -> dict[Hex, float]:
        """Start chances with a line known (or fixed by a forecast) and the other rolled."""
        cells = [h for (n, w), h in self.board.grid.items() if ns in (None, n) and we in (None, w)]
        dist: defaultdict[Hex, float] = defaultdict(float)
        for h in cells:
            dist[h] += 1 / len(cells)
        return dict(dist)

    def _vector(self, start: Mapping[Hex, float]) -> Any:
        vec = np.zeros(len(self.hexes))
        for h, p in start.items():
            vec[self.index[h]] += p
        return vec

    def _reachable(self, vec: Any, moves: int) -> Any:
        """Which hexes a walk of up to ``moves`` from the start can stand on (the start included)."""
        return (vec > 0) | ((vec > 0) @ self._visits[moves] > 0)

    @cached_property
    def steps(self) -> dict[Hex, list[tuple[Hex, float]]]:
        """Each hex's moves and their chances, as the engine and the tests read them."""
        return {h: [(self.hexes[j], float(self.step[i, j])) for j in np.flatnonzero(self.step[i])]
                for h, i in self.index.items()}

    def expected(self, start: Mapping[Hex, float], moves: int, count_start: bool = True) -> dict[Hex, float]:
        """Expected markers per hex for a tornado at ``start`` with ``moves`` to go."""
        vec = self._vector(start)
        total = vec @ self._visits[moves] + (vec if count_start else 0.0)
        return {self.hexes[i]: float(total[i]) for i in np.flatnonzero(total)}

    def p_hit(self, start: Mapping[Hex, float], moves: int, count_start: bool = True) -> dict[Hex, float]:
        """P(at least one marker) per hex: 1 - P(the walk avoids it), for every hex at once."""
        vec = self._vector(start)
        # A start hex that counts is a hit already: a walk misses h only if it does not start there.
        avoid = self._avoid[moves] * self._miss if count_start else self._avoid[moves]
        hit = 1.0 - vec @ avoid
        return {self.hexes[i]: float(max(0.0, hit[i])) for i in np.flatnonzero(self._reachable(vec, moves))}

    def tornado(self, start: Mapping[Hex, float], moves: int | None = None, count_start: bool = True) -> Risk:
        moves = self.moves if moves is None else moves
        return Risk(self.p_hit(start, moves, count_start), self.expected(start, moves, count_start))


def combine(risks: Iterable[Risk]) -> Risk:
    """Independent tornadoes: missed by all is the product of missed by each; expectations add."""
    missed: dict[Hex, float] = {}
    expected: defaultdict[Hex, float] = defaultdict(float)
    for r in risks:
        for h, p in r.p_hit.items():
            missed[h] = missed.get(h, 1.0) * (1.0 - p)
        for h, e in r.expected.items():
            expected[h] += e
    return Risk({h: 1.0 - m for h, m in missed.items()}, dict(expected))


def phase_risk(chain: TornadoChain, count: int) -> Risk:
    """A whole tornado phase of ``count`` tornadoes, nothing rolled yet, no forecast."""
    return combine([chain.from_grid()] * count)


def state_risk(game: RiskSource, state: KansasState) -> Risk:
    """What is still to come: the rest of the tornado being rolled and the tornadoes after it; between
    phases, the next turn's phase. A forecast line whose place is not chosen yet counts every place alike."""
    chain = game.chain
    if state.phase == "over":
        return Risk({}, {})
    if state.phase == "actions":
        if state.turn >= game.board.turns(state.players):
            return Risk({}, {})
        return phase_risk(chain, game.outbreak(state.players, state.turn + 1))
    if state.phase == "forecast":
        return phase_risk(chain, state.count)
    t = state.current
    assert t is not None
    later = state.count - t.number
    if t.start is None:
        now = chain.from_grid(t.ns, t.we)
    else:
        assert t.position is not None
        now = chain.tornado({t.position: 1.0}, game.board.moves_per_tornado - t.moves_made, count_start=False)
    return combine([now] + [chain.from_grid()] * later)


def forecast_options(game: RiskSource, state: KansasState) -> list[ForecastOption]:
    """Each choice the forecasting player could make, best (fewest expected markers on places) first.

    Before the forecast: 16 choices (a line and a place on it, the other line still to be rolled),
    for a phase whose other tornadoes roll freely. When the forecast tornado's other line is known:
    the 8 places along the fixed line, each a certain start.
    """
    chain = game.chain
    places = [p.hex for p in game.board.places]
    t = state.current
    if state.phase == "tornado" and t is not None and t.forecast_line and t.start is None:
        lines = [t.forecast_line]
        known = {"ns": t.ns, "we": t.we}
        count, later = 1, state.count - t.number
    elif state.phase == "forecast" or (state.phase == "actions" and state.forecaster):
        lines = list(LINES)
        known = {"ns": None, "we": None}
        count = state.count if state.phase == "forecast" else game.outbreak(state.players, state.turn + 1)
        later = count - 1
        if count == 0:
            return []
    else:
        return []
    full = chain.from_grid()
    options = []
    for line in lines:
        for value in range(1, 9):
            fixed = dict(known, **{line: value})
            chosen = chain.from_grid(fixed["ns"], fixed["we"])
            risk = combine([chosen] + [full] * later)
            options.append(ForecastOption(line, value, risk, risk.expected_on(places)))
    return sorted(options, key=lambda o: (o.on_places, o.line, o.value))


def forecast_lines(game: RiskSource, state: KansasState) -> list[LineOption]:
    """The two lines the forecasting player can fix, best first, each played as the rules let it be:
    the other line is rolled (each value alike), then the place along the fixed line that spares the
    most is picked. Asked before the line is chosen; empty at any other time."""
    if not (state.phase == "forecast" or (state.phase == "actions" and state.forecaster)):
        return []
    count = state.count if state.phase == "forecast" else game.outbreak(state.players, state.turn + 1)
    if count == 0:
        return []
    chain = game.chain
    places = [p.hex for p in game.board.places]
    full = chain.from_grid()
    others = [full] * (count - 1)
    options = []
    for line in LINES:
        best: dict[int, int] = {}
        per_roll: list[Risk] = []
        for roll in range(1, 9):
            def start(value: int, roll: int = roll, line: str = line) -> Risk:
                return chain.from_grid(value, roll) if line == "ns" else chain.from_grid(roll, value)

            value = min(range(1, 9), key=lambda v: (start(v).expected_on(places), v))
            best[roll] = value
            per_roll.append(combine([start(value), *others]))
        hexes = set().union(*(r.p_hit for r in per_roll))
        risk = Risk({h: sum(r.p_hit.get(h, 0.0) for r in per_roll) / 8 for h in hexes},
                    {h: sum(r.expected.get(h, 0.0) for r in per_roll) / 8 for h in hexes})
        options.append(LineOption(line, best, risk, risk.expected_on(places)))
    return sorted(options, key=lambda o: (o.on_places, o.line))
