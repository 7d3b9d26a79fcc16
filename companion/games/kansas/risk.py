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
from companion.hexgrid import DIRECTIONS, Hex


class RiskSource(Protocol):
    """What the risk needs of a game: its board, its Markov chain and its outbreak table (the engine
    has all three; risk imports no engine, so engine and risk do not import each other)."""

    board: Board

    @property
    def chain(self) -> TornadoChain: ...

    def outbreak(self, players: int, turn: int) -> int: ...

SUM_CHANCES: dict[int, float] = {s: (6 - abs(s - 7)) / 36 for s in range(2, 13)}
"""Chance of each 2D6 sum."""


class Risk:
    """Exact odds for some tornadoes still to come.

    ``p_hit``: hex -> P(at least one more marker); ``expected``: hex -> expected number of new markers.
    A risk from a chain keeps them as arrays over the chain's hexes (``vectors``) and builds the dicts
    only when they are read: ranking the 16 forecast choices combines and compares some hundred risks,
    and reads the dicts of none of them."""

    __slots__ = ("_expected", "_p_hit", "vectors")

    def __init__(self, p_hit: dict[Hex, float] | None = None, expected: dict[Hex, float] | None = None,
                 vectors: Vectors | None = None) -> None:
        if vectors is None and (p_hit is None or expected is None):
            raise TypeError("a Risk needs p_hit and expected, or vectors")
        self._p_hit = p_hit
        self._expected = expected
        self.vectors = vectors

    @property
    def p_hit(self) -> dict[Hex, float]:
        if self._p_hit is None:
            v = self.vectors
            assert v is not None
            self._p_hit = _as_dict(v.hexes, v.p, v.p_keys)
        return self._p_hit

    @property
    def expected(self) -> dict[Hex, float]:
        if self._expected is None:
            v = self.vectors
            assert v is not None
            self._expected = _as_dict(v.hexes, v.e, v.e_keys)
        return self._expected

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Risk):
            return NotImplemented
        return self.p_hit == other.p_hit and self.expected == other.expected

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Risk(p_hit={self.p_hit!r}, expected={self.expected!r})"

    def to_json(self, board: Board) -> dict[str, object]:
        return {"hexes": [{"q": h.q, "r": h.r, "p_hit": self.p_hit.get(h, 0.0),
                           "expected_markers": self.expected.get(h, 0.0)}
                          for h in sorted(board.terrain, key=lambda x: (x.q, x.r))]}

    def expected_on(self, hexes: Iterable[Hex]) -> float:
        v = self.vectors
        if v is not None:
            return float(sum(v.e[i] for h in hexes if (i := v.index.get(h)) is not None))
        return sum(self.expected.get(h, 0.0) for h in hexes)


@dataclass(frozen=True)
class Vectors:
    """A risk as arrays over ``hexes`` (a chain's, ``index`` its positions): P(hit) and expected markers,
    and which hexes the dicts list (P(hit): the hexes a walk can reach; expected: where it is not zero)."""

    hexes: list[Hex]
    index: dict[Hex, int]
    p: Any
    p_keys: Any
    e: Any
    e_keys: Any

    def risk(self) -> Risk:
        return Risk(vectors=self)


def _as_dict(hexes: list[Hex], values: Any, keys: Any) -> dict[Hex, float]:
    where = np.flatnonzero(keys)
    return dict(zip([hexes[i] for i in where.tolist()], values[where].tolist(), strict=True))


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
        coords = [(h.q, h.r) for h in self.hexes]
        at = {qr: i for i, qr in enumerate(coords)}  # (q, r) tuples: no Hex made per lookup
        for direction in sorted(set(board.path_key.values())):
            chance = sum(p for total, p in SUM_CHANCES.items() if board.path_key[total] == direction)
            dq, dr = DIRECTIONS[direction]
            to = np.array([at.get((q + dq, r + dr), -1) for q, r in coords])
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
        # B[1] = step @ miss = 1 - step (a move lands somewhere: each row of step sums to 1, or is all
        # zero for a hex with no move, which then stays put); the rest by the recursion. Cold, this is
        # most of the chain's cost, so the first product is not computed.
        stuck = stay <= 0
        first = 1.0 - step
        first[stuck] = miss[stuck]
        avoid = [np.ones((n, n)), first]
        for _ in range(self.moves - 1):
            avoid.append(self._walk(miss * avoid[-1]))
        self._avoid = avoid[: self.moves + 1]
        """``_avoid[k][s, h]``: the next k positions from s all miss h."""
        self._miss = miss
        self._counted: dict[int, Any] = {}
        self._from_grid: dict[tuple[int | None, int | None], Risk] = {}

    def _walk(self, after: Any) -> Any:
        """``step @ after``: row s mixes the rows of the hexes a move from s can reach (summed in place:
        a new array per direction would double the memory traffic of the chain's cold build)."""
        pairs = iter(zip(self._targets, self._chances, strict=True))
        to, chance = next(pairs)
        out = chance * after[to]
        for to, chance in pairs:
            out += chance * after[to]
        return out

    def from_grid(self, ns: int | None = None, we: int | None = None) -> Risk:
        """A whole tornado from the start grid, with none, one or both lines known; kept once computed
        (there are only 81 such cases per board, and the full one is asked for on every roll)."""
        key = (ns, we)
        risk = self._from_grid.get(key)
        if risk is None:
            risk = self._from_grid[key] = self._tornado(self._grid_vector(ns, we), self.moves, True)
        return risk

    def start(self, ns: int | None, we: int | None) -> dict[Hex, float]:
        """Start chances with a line known (or fixed by a forecast) and the other rolled."""
        cells = [h for (n, w), h in self.board.grid.items() if ns in (None, n) and we in (None, w)]
        dist: defaultdict[Hex, float] = defaultdict(float)
        for h in cells:
            dist[h] += 1 / len(cells)
        return dict(dist)

    @cached_property
    def _grid(self) -> tuple[Any, Any, Any]:
        """The start grid as arrays: each cell's ns and we values and its hex's index."""
        cells = list(self.board.grid.items())
        return (np.array([n for (n, _), _h in cells]), np.array([w for (_, w), _h in cells]),
                np.array([self.index[h] for _, h in cells]))

    def _grid_vector(self, ns: int | None, we: int | None) -> Any:
        """``start(ns, we)`` as a vector over the chain's hexes."""
        ns_of, we_of, at = self._grid
        chosen = np.ones(len(at), dtype=bool)
        if ns is not None:
            chosen &= ns_of == ns
        if we is not None:
            chosen &= we_of == we
        vec = np.zeros(len(self.hexes))
        np.add.at(vec, at[chosen], 1.0 / max(1, int(chosen.sum())))
        return vec

    def _vector(self, start: Mapping[Hex, float]) -> Any:
        vec = np.zeros(len(self.hexes))
        for h, p in start.items():
            vec[self.index[h]] += p
        return vec

    def _visits(self, vec: Any, moves: int) -> Any:
        """Expected visits to each hex in the next ``moves`` moves from the start ``vec`` (the start's own
        position not counted): the start pushed through the chain move by move, a vector at a time."""
        total = np.zeros_like(vec)
        here = vec
        for _ in range(moves):
            here = here @ self.step
            total += here
        return total

    @cached_property
    def steps(self) -> dict[Hex, list[tuple[Hex, float]]]:
        """Each hex's moves and their chances, as the engine and the tests read them."""
        return {h: [(self.hexes[j], float(self.step[i, j])) for j in np.flatnonzero(self.step[i])]
                for h, i in self.index.items()}

    def expected(self, start: Mapping[Hex, float], moves: int, count_start: bool = True) -> dict[Hex, float]:
        """Expected markers per hex for a tornado at ``start`` with ``moves`` to go."""
        return self.tornado(start, moves, count_start).expected

    def p_hit(self, start: Mapping[Hex, float], moves: int, count_start: bool = True) -> dict[Hex, float]:
        """P(at least one marker) per hex: 1 - P(the walk avoids it), for every hex at once."""
        return self.tornado(start, moves, count_start).p_hit

    def tornado(self, start: Mapping[Hex, float], moves: int | None = None, count_start: bool = True) -> Risk:
        return self._tornado(self._vector(start), self.moves if moves is None else moves, count_start)

    def _tornado(self, vec: Any, moves: int, count_start: bool) -> Risk:
        visits = self._visits(vec, moves)
        # A start hex that counts is a hit already: a walk misses h only if it does not start there.
        if count_start:
            avoid = self._counted.get(moves)
            if avoid is None:
                avoid = self._counted[moves] = self._avoid[moves] * self._miss
        else:
            avoid = self._avoid[moves]
        reachable = (vec > 0) | (visits > 0)
        hit = np.where(reachable, np.maximum(1.0 - vec @ avoid, 0.0), 0.0)
        total = visits + vec if count_start else visits
        return Vectors(self.hexes, self.index, hit, reachable, total, total != 0).risk()


def combine(risks: Iterable[Risk]) -> Risk:
    """Independent tornadoes: missed by all is the product of missed by each; expectations add.

    A phase repeats the same whole-tornado risk for each tornado still to roll: each distinct risk is
    taken once, raised to the number of times it comes (``(1 - p) ** n``, ``n * e``); risks from one
    chain combine as arrays."""
    counts: dict[int, list[Any]] = {}
    for r in risks:
        entry = counts.get(id(r))
        if entry is None:
            counts[id(r)] = [r, 1]
        else:
            entry[1] += 1
    grouped: list[tuple[Risk, int]] = [(r, n) for r, n in counts.values()]
    vectors = [r.vectors for r, _ in grouped]
    if grouped and all(v is not None and v.hexes is vectors[0].hexes for v in vectors):  # type: ignore[union-attr]
        first = vectors[0]
        assert first is not None
        missed = np.ones(len(first.hexes))
        expected = np.zeros(len(first.hexes))
        p_keys = np.zeros(len(first.hexes), dtype=bool)
        e_keys = p_keys.copy()
        for (_, n), v in zip(grouped, vectors, strict=True):
            assert v is not None
            missed *= (1.0 - v.p) ** n if n > 1 else 1.0 - v.p
            expected += n * v.e if n > 1 else v.e
            p_keys |= v.p_keys
            e_keys |= v.e_keys
        return Vectors(first.hexes, first.index, 1.0 - missed, p_keys, expected, e_keys).risk()
    missed_d: dict[Hex, float] = {}
    expected_d: dict[Hex, float] = {}
    for r, n in grouped:
        for h, p in r.p_hit.items():
            missed_d[h] = missed_d.get(h, 1.0) * (1.0 - p) ** n
        for h, e in r.expected.items():
            expected_d[h] = expected_d.get(h, 0.0) + n * e
    return Risk({h: 1.0 - m for h, m in missed_d.items()}, expected_d)


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


def _mean(risks: list[Risk]) -> Risk:
    """Each risk alike likely: the mean of their figures, over every hex any of them can reach."""
    vectors = [r.vectors for r in risks]
    if vectors and all(v is not None and v.hexes is vectors[0].hexes for v in vectors):  # type: ignore[union-attr]
        first = vectors[0]
        assert first is not None
        keys = np.logical_or.reduce([v.p_keys for v in vectors])  # type: ignore[union-attr]
        p = np.sum([v.p for v in vectors], axis=0) / len(risks)  # type: ignore[union-attr]
        e = np.sum([v.e for v in vectors], axis=0) / len(risks)  # type: ignore[union-attr]
        return Vectors(first.hexes, first.index, p, keys, e, keys).risk()
    hexes = set().union(*(r.p_hit for r in risks))
    return Risk({h: sum(r.p_hit.get(h, 0.0) for r in risks) / len(risks) for h in hexes},
                {h: sum(r.expected.get(h, 0.0) for r in risks) / len(risks) for h in hexes})


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
        risk = _mean(per_roll)
        options.append(LineOption(line, best, risk, risk.expected_on(places)))
    return sorted(options, key=lambda o: (o.on_places, o.line))
