"""Exact tornado risk: per hex, P(at least one marker) and the expected number of markers.

One tornado is a Markov chain over hexes: it starts on a grid hex (each of the 64 grid points
equally likely, or fewer when a line is known or forecast), then takes its moves, each direction
with the chance of its 2D6 sums *given that the move stays on the map* -- the re-roll rule makes a
move that would leave the map simply not happen, so the chances of the directions that remain are
scaled up. Expected markers add up along the chain; P(at least one) adds, over the moves, the chance
of standing on the hex after that move and never again after it (each walk that hits the hex has one
last visit). Tornadoes roll independently, so a phase multiplies the chances of being missed. Nothing
is sampled; the tests check it against every walk enumerated by hand and against a simulation.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
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

REST_TABLES = 250_000
"""At most hexes x hexes x moves figures in a chain's tables of every start's walk (Kansas: 102,400;
about 18 bytes each)."""

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
class _Arrays:
    """Figures over ``hexes`` (a chain's, ``index`` its positions): P(hit) and expected markers, and which
    hexes the dicts list (P(hit): the hexes a walk can reach; expected: where it is not zero)."""

    hexes: list[Hex]
    index: dict[Hex, int]
    p: Any
    p_keys: Any
    e: Any
    e_keys: Any


@dataclass(frozen=True)
class Vectors(_Arrays):
    """A risk as arrays (one value per hex)."""

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

    Exact and vectorised (numpy): ``step[s, t]`` is the chance that a move from hex ``s`` lands on ``t``
    (a move off the map is rolled again, so each row is renormalised over the moves that stay). A start
    distribution pushed through the chain move by move gives the chance of standing on each hex after
    each move; their sum is the expected markers. P(hit) comes from the same pushes, by the last visit:
    a walk that touches h has a last time on h, so P(hit h) = sum over i of P(on h after i moves) *
    P(a walk from h does not come back within the moves left). Those "no return" chances are one
    figure per hex and number of moves (``_home``), made once per board; every term is a product of
    chances, so nothing cancels and a tiny risk keeps its digits.

    Cold cost (a new board's first risk within a few milliseconds on a Pi): the pushes are
    sparse (a hex has at most six moves: a gather per direction, no dense product, no BLAS threads) and
    the start grid's 81 cases (none, one or both lines known) are pushed together as the columns of one
    array, each column with exactly the arithmetic it would get alone.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.moves = board.moves_per_tornado
        self.hexes: list[Hex] = list(board.terrain)
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        n = len(self.hexes)
        self._where = _Lookup(self.hexes, max(1, self.moves))
        rows = np.arange(n)
        directions = sorted(set(board.path_key.values()))
        targets, chances, sources = [], [], []
        for direction in directions:
            chance = sum(p for total, p in SUM_CHANCES.items() if board.path_key[total] == direction)
            dq, dr = DIRECTIONS[direction]
            to = self._where.moved(dq, dr)
            targets.append(np.where(to >= 0, to, rows))
            chances.append(np.where(to >= 0, chance, 0.0))
            sources.append(self._where.moved(-dq, -dr))
        stay = np.sum(chances, axis=0)
        self._targets = np.stack(targets)
        self._chances = [np.divide(c, stay, out=np.zeros(n), where=stay > 0) for c in chances]
        self._chance_rows = np.stack(self._chances)[:, None, :]
        # The same moves seen from where they land: hex t is reached from sources[d][t] with that hex's
        # chance of moving d (zero where no hex lies that way), so a push gathers rather than scatters.
        self._sources = np.stack([np.where(src >= 0, src, rows) for src in sources])
        self._arrivals = np.stack([np.where(src >= 0, c[src], 0.0) for src, c in zip(sources, self._chances,
                                                                                    strict=True)])[:, :, None]
        self._home = self._no_return([DIRECTIONS[d] for d in directions], stay <= 0)
        """``_home[k][h]``: a walk from h does not stand on h again in its next k positions."""
        self._from_grid: dict[tuple[int | None, int | None], Risk] = {}
        self._later: dict[int, tuple[Any, Any]] = {}
        """``later`` -> the factor and the addend :func:`combine` applies for that many whole tornadoes
        (one entry per count of tornadoes still to come in a phase: a handful)."""
        self.played: dict[tuple[Any, ...], Risk] = {}
        """The risks of the game's situations asked lately (see :func:`state_risk`), at most ``PLAYED``."""
        self._rests: list[tuple[Any, Any, Any, Any]] | None = None
        """``_rests[k]``: every start's walk of ``k`` moves (see :meth:`prepare_rests`), once made."""

    def _no_return(self, moves: list[tuple[int, int]], stuck: Any) -> list[Any]:
        """P(no return to h within k moves), k = 0..moves, for every h.

        It is the diagonal of B[k][s, h] = P(the next k positions from s all miss h): B[0] = 1,
        B[1] = 1 - step, B[k] = step @ (M * B[k-1]) with M zero where s = h. The diagonal of B[k] needs
        B[k-1] only one hex from it, B[k-2] two hexes, and so on, so each B[j] is kept only over the hexes
        within ``moves - j`` of each start (:class:`_Lookup` offsets): a few thousand figures, not n^2."""
        n, top = len(self.hexes), self.moves
        home = [np.ones(n)]
        if top == 0:
            return home
        where = self._where
        level = np.ones((where.size(top - 1), n))  # B[1] over offsets within top - 1: 1 - step
        if top > 1:  # (with one move, B[1] is wanted only on h itself)
            for (dq, dr), chance in zip(moves, self._chances, strict=True):
                level[where.row(dq, dr)] = 1.0 - chance
        level[:, stuck] = 1.0  # a hex with no move on the map stays put (data.py refuses such boards)
        level[0, stuck] = 0.0
        home.append(level[0].copy())
        for k in range(2, top + 1):
            after = level.copy()
            after[0] = 0.0  # M: a walk standing on h has not missed it
            inner = where.size(top - k)
            terms = after.ravel()[where.gathers(inner, moves, self._targets)]
            terms *= self._chance_rows
            level = terms.sum(axis=0)  # directions added in order, as step @ (M * B) adds them
            home.append(level[0].copy())
        return home

    def _push(self, here: Any) -> Any:
        """One move of the distributions in the columns of ``here`` (hexes x starts): ``here.T @ step``,
        as one gather of every direction's sources, weighted and added direction by direction."""
        terms = here[self._sources]
        terms *= self._arrivals
        return terms.sum(axis=0)

    def _walks(self, starts: Any, moves: int, count_start: bool) -> tuple[Any, Any]:
        """P(hit) and expected visits (the start not counted) for the start distributions in the columns
        of ``starts``. Columns never mix, so a start computed alone or among others gets the same bits."""
        home = self._home
        visits = np.zeros_like(starts)
        hit = starts * home[moves][:, None] if count_start else np.zeros_like(starts)
        here = starts
        for i in range(1, moves + 1):
            here = self._push(here)
            visits += here
            hit += here * home[moves - i][:, None]  # on h after i moves, and not again after
        return np.minimum(hit, 1.0), visits

    def prepare_rests(self) -> None:
        """Work out, once, the rest of a tornado from every hex with every number of moves left (the
        start's marker already down), so that :meth:`rest` looks a roll's risk up instead of walking it.

        Why: the overlay asks for the risk of a tornado in flight on every roll, and a walk of a few
        moves costs some twenty numpy calls on the box's loop (its caches cold from drawing the frame),
        for every new place. All starts at once are the columns of the identity pushed through the
        chain, sharing each move's push among the numbers of moves left: a few walks' cost, once, asked
        by the overlay's first frame (which draws the whole screen anyway, costing more). Each column
        gets exactly the arithmetic a walk from its start alone gets (columns never mix; the visits added
        in the same order), so a figure looked up is the walked one to the bit (the tests compare every
        start and number of moves). Kept: two
        float and two bool arrays of hexes x hexes per number of moves (small on Kansas); a board
        whose tables would pass ``REST_TABLES`` figures keeps walking instead."""
        if self._rests is not None or len(self.hexes) ** 2 * self.moves > REST_TABLES:
            return
        n = len(self.hexes)
        starts = np.eye(n)
        home = self._home
        heres, visits, total = [], [], np.zeros_like(starts)
        here = starts
        for _ in range(self.moves):
            here = self._push(here)
            heres.append(here)
            total += here  # the visits after i moves, added in the order a walk adds them
            visits.append(total.copy())
        tables = []
        for k in range(self.moves + 1):
            hit = np.zeros_like(starts)
            for i in range(1, k + 1):
                hit += heres[i - 1] * home[k - i][:, None]
            seen = visits[k - 1] if k else np.zeros_like(starts)
            rows = (np.minimum(hit, 1.0).T.copy(), ((starts > 0) | (seen > 0)).T.copy(), seen.T.copy(),
                    (seen != 0).T.copy())
            for a in rows:
                a.flags.writeable = False  # rows of these are handed out in risks
            tables.append(rows)
        self._rests = tables

    def rest(self, at: Hex, moves: int) -> Risk:
        """The rest of a tornado standing on ``at`` with ``moves`` to go, its marker there already down:
        ``tornado({at: 1.0}, moves, count_start=False)``, looked up once :meth:`prepare_rests` has run."""
        tables, i = self._rests, self.index.get(at)
        if tables is None or i is None or not 0 <= moves < len(tables):
            return self.tornado({at: 1.0}, moves, count_start=False)
        hit, reach, total, nonzero = tables[moves]
        return Vectors(self.hexes, self.index, hit[i], reach[i], total[i], nonzero[i]).risk()

    @cached_property
    def step(self) -> Any:
        """The chain as a dense matrix: row ``s`` the chances of where a move from ``s`` lands."""
        n = len(self.hexes)
        rows = np.arange(n)
        step = np.zeros((n, n))
        for to, chance in zip(self._targets, self._chances, strict=True):
            step[rows, to] += chance
        return step

    def from_grid(self, ns: int | None = None, we: int | None = None) -> Risk:
        """A whole tornado from the start grid, with none, one or both lines known; kept once computed.

        The first question with a line known makes all 81 cases at once (the forecast asks for most of
        them); the full grid alone, which the overlay asks for on every roll, is made by itself first."""
        key = (ns, we)
        risk = self._from_grid.get(key)
        if risk is None:
            lines: list[int | None] = [None, *range(1, 9)]
            every = [key] if key == (None, None) else [(a, b) for a in lines for b in lines]
            cases = [c for c in every if c not in self._from_grid]
            starts = self._grid_vectors(cases)
            hit, visits = self._walks(starts, self.moves, True)
            total = visits + starts
            # rows, one per case, each a plain array (a column of the pushes would be a strided view)
            hit, total, reachable = hit.T.copy(), total.T.copy(), ((starts > 0) | (visits > 0)).T.copy()
            nonzero = total != 0
            for j, case in enumerate(cases):
                self._from_grid[case] = Vectors(self.hexes, self.index, hit[j], reachable[j], total[j],
                                                nonzero[j]).risk()
            risk = self._from_grid[key]
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

    def _grid_vectors(self, cases: list[tuple[int | None, int | None]]) -> Any:
        """``start(ns, we)`` of each case, as the columns of an array over the chain's hexes: each of the
        cells the case allows alike likely (the 64 cells are 64 different hexes, data.py checks)."""
        ns_of, we_of, at = self._grid
        ns = np.array([0 if n is None else n for n, _ in cases])[:, None]
        we = np.array([0 if w is None else w for _, w in cases])[:, None]
        chosen = ((ns == 0) | (ns == ns_of)) & ((we == 0) | (we == we_of))
        starts = np.zeros((len(self.hexes), len(cases)))
        starts[at] = (chosen / np.maximum(1, chosen.sum(axis=1, keepdims=True))).T
        return starts

    def _vector(self, start: Mapping[Hex, float]) -> Any:
        vec = np.zeros(len(self.hexes))
        for h, p in start.items():
            vec[self.index[h]] += p
        return vec

    @cached_property
    def steps(self) -> dict[Hex, list[tuple[Hex, float]]]:
        """Each hex's moves and their chances, as the engine and the tests read them."""
        return {h: [(self.hexes[j], float(self.step[i, j])) for j in np.flatnonzero(self.step[i])]
                for h, i in self.index.items()}

    def expected(self, start: Mapping[Hex, float], moves: int, count_start: bool = True) -> dict[Hex, float]:
        """Expected markers per hex for a tornado at ``start`` with ``moves`` to go."""
        return self.tornado(start, moves, count_start).expected

    def p_hit(self, start: Mapping[Hex, float], moves: int, count_start: bool = True) -> dict[Hex, float]:
        """P(at least one marker) per hex, for every hex at once."""
        return self.tornado(start, moves, count_start).p_hit

    def tornado(self, start: Mapping[Hex, float], moves: int | None = None, count_start: bool = True) -> Risk:
        return self._tornado(self._vector(start), self.moves if moves is None else moves, count_start)

    def _tornado(self, vec: Any, moves: int, count_start: bool) -> Risk:
        hit, visits = self._walks(vec[:, None], moves, count_start)
        hit, visits = hit[:, 0], visits[:, 0]
        reachable = (vec > 0) | (visits > 0)
        total = visits + vec if count_start else visits
        return Vectors(self.hexes, self.index, hit, reachable, total, total != 0).risk()


class _Lookup:
    """Board indices of hexes relative to each hex: ``moved(dq, dr)[s]`` is the hex one offset from s
    (-1: off the board). Offsets within ``radius`` get rows, nearest first, so those within any k are
    the first ``size(k)`` rows. (The few offsets are plain Python: a numpy call costs more than a
    small loop.)"""

    def __init__(self, hexes: list[Hex], radius: int) -> None:
        span = range(-radius, radius + 1)
        near = sorted(((abs(dq) + abs(dr) + abs(dq + dr)) // 2, dq, dr) for dq in span for dr in span)
        near = [o for o in near if o[0] <= radius]  # nearest first, then by q and r
        self.offsets = [(dq, dr) for _, dq, dr in near]
        self._row = {o: i for i, o in enumerate(self.offsets)}
        self._sizes = [bisect_right(near, (k, radius + 1)) for k in range(radius + 1)]
        self.radius = radius
        q = np.array([h.q for h in hexes])
        r = np.array([h.r for h in hexes])
        # board indices on a rectangle of (q, r) with room for any offset within the radius and a move
        self._q, self._r = q - q.min() + radius + 1, r - r.min() + radius + 1
        self._at = np.full((q.max() - q.min() + 2 * radius + 3, r.max() - r.min() + 2 * radius + 3), -1)
        self._at[self._q, self._r] = np.arange(len(hexes))

    def moved(self, dq: int, dr: int) -> Any:
        return self._at[self._q + dq, self._r + dr]

    def row(self, dq: int, dr: int) -> int:
        """The row of the offset (dq, dr), which is within the radius."""
        return self._row[dq, dr]

    def size(self, k: int) -> int:
        """How many offsets lie within ``k``."""
        return self._sizes[min(k, self.radius)]

    def gathers(self, rows: int, moves: list[tuple[int, int]], targets: Any) -> Any:
        """For each move (its offset and each start's target, a row of ``targets``) and each of the
        first ``rows`` offsets o, the flat position, in an array over (offset, start), of the figure at
        offset ``o - move`` from the target (the same hex h seen from where the move lands). Shape
        (moves, rows, starts); ``o - move`` is always within the radius of the array read."""
        shifts = np.array([[self._row[oq - mq, or_ - mr] for oq, or_ in self.offsets[:rows]] for mq, mr in moves])
        return shifts[:, :, None] * targets.shape[1] + targets[:, None, :]


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


PLAYED = 256
"""How many situations' risks a chain keeps (a tornado's place and moves left, the tornadoes after it): a
few MB at most. Past it the store starts again."""


def phase_risk(chain: TornadoChain, count: int) -> Risk:
    """A whole tornado phase of ``count`` tornadoes, nothing rolled yet, no forecast."""
    return _played(chain, ("phase", count), lambda: combine([chain.from_grid()] * count))


def state_risk(game: RiskSource, state: KansasState) -> Risk:
    """What is still to come: the rest of the tornado being rolled and the tornadoes after it; between
    phases, the next turn's phase. A forecast line whose place is not chosen yet counts every place alike.

    The overlay asks this on every roll, so what a roll changes is all that is worked out: the risk of a
    situation (the tornado's place and moves left, or its lines known, and how many whole tornadoes
    follow) is kept on the chain (bounded, ``PLAYED``), so a state seen again (a re-rolled move, an undo,
    the same hex reached again) costs a lookup and its dict is built once; a new one looks the tornado
    in flight up (:meth:`TornadoChain.rest`; walked when the tables are not made), and the whole
    tornadoes after it are one product with figures kept per count
    (:func:`_then`, the arithmetic of :func:`combine`, so the figures are the same to the bit)."""
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
        if now is chain.from_grid():  # no line known: the same risk as the tornadoes after it
            return phase_risk(chain, 1 + later)
        return _played(chain, ("lines", t.ns, t.we, later), lambda: _then(chain, now, later))
    assert t.position is not None
    moves = game.board.moves_per_tornado - t.moves_made
    at = t.position
    return _played(chain, ("at", at, moves, later), lambda: _then(chain, chain.rest(at, moves), later))


def _played(chain: TornadoChain, key: tuple[Any, ...], make: Callable[[], Risk]) -> Risk:
    """``chain.played[key]``, made the first time (the store starts again past ``PLAYED`` entries)."""
    kept = chain.played
    risk = kept.get(key)
    if risk is None:
        if len(kept) >= PLAYED:
            kept.clear()
        risk = kept[key] = make()
    return risk


def _then(chain: TornadoChain, now: Risk, later: int) -> Risk:
    """``combine([now] + [chain.from_grid()] * later)`` for a ``now`` that is not the whole grid's risk,
    with the same operations on the same figures: combine starts from ones and zeros, so its first
    product and sum are ``1 - p`` and ``e`` themselves, and the whole tornadoes' factor
    ``(1 - p) ** later`` and addend ``later * e`` are kept per ``later``."""
    v = _arrays(now)
    missed = 1.0 - v.p
    expected = v.e.copy()
    p_keys, e_keys = v.p_keys, v.e_keys
    if later:
        f = _arrays(chain.from_grid())
        then = chain._later.get(later)
        if then is None:
            then = chain._later[later] = ((1.0 - f.p) ** later if later > 1 else 1.0 - f.p,
                                          later * f.e if later > 1 else f.e)
        missed *= then[0]
        expected += then[1]
        p_keys = p_keys | f.p_keys
        e_keys = e_keys | f.e_keys
    return Vectors(v.hexes, v.index, 1.0 - missed, p_keys, expected, e_keys).risk()


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
    choices = [(line, value) for line in lines for value in range(1, 9)]
    chosen = [chain.from_grid(**dict(known, **{line: value})) for line, value in choices]
    phases = _with_later(chosen, full, later)
    on_places = _on(phases.e, _place_rows(chain, places))
    options = [ForecastOption(line, value, phases.risk(i), float(on_places[i]))
               for i, (line, value) in enumerate(choices)]
    return sorted(options, key=lambda o: (o.on_places, o.line, o.value))


@dataclass(frozen=True)
class _Rows(_Arrays):
    """Several risks over one chain's hexes as the rows of arrays (as :class:`Vectors`), so ranking
    the forecast's choices combines and compares them all in a few array operations."""

    def risk(self, i: int) -> Risk:
        return Vectors(self.hexes, self.index, self.p[i], self.p_keys[i], self.e[i], self.e_keys[i]).risk()


def _with_later(chosen: list[Risk], full: Risk, later: int) -> _Rows:
    """``combine([c] + [full] * later)`` for each risk ``c`` of ``chosen``, all at once: the same
    operations on the same figures, row by row."""
    vectors = [_arrays(r) for r in chosen]
    f = _arrays(full)
    missed = 1.0 - np.stack([v.p for v in vectors])
    expected = np.stack([v.e for v in vectors])
    p_keys = np.stack([v.p_keys for v in vectors])
    e_keys = np.stack([v.e_keys for v in vectors])
    if later:
        missed *= (1.0 - f.p) ** later if later > 1 else 1.0 - f.p
        expected += later * f.e if later > 1 else f.e
        p_keys |= f.p_keys
        e_keys |= f.e_keys
    return _Rows(f.hexes, f.index, 1.0 - missed, p_keys, expected, e_keys)


def _arrays(risk: Risk) -> Vectors:
    """A risk from a chain as its arrays (every risk the forecast ranks is one)."""
    assert risk.vectors is not None
    return risk.vectors


def _place_rows(chain: TornadoChain, places: Iterable[Hex]) -> list[int]:
    return [i for h in places if (i := chain.index.get(h)) is not None]


def _on(expected: Any, rows: list[int]) -> Any:
    """Expected markers on the hexes ``rows``, for each row of ``expected`` (added one hex at a time,
    as :meth:`Risk.expected_on` adds them, so the figures and the order they rank in agree)."""
    total = np.zeros(expected.shape[:-1])
    for i in rows:
        total = total + expected[..., i]
    return total


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
    rows = _place_rows(chain, (p.hex for p in game.board.places))
    full = chain.from_grid()
    # each single start's expected markers on places: spared[ns - 1, we - 1]
    pairs = [[chain.from_grid(ns, we) for we in range(1, 9)] for ns in range(1, 9)]
    spared = _on(np.stack([[_arrays(r).e for r in row] for row in pairs]), rows)
    options = []
    for line in LINES:
        # the place along the fixed line that spares the most after each roll of the other line (the
        # first such place on a tie: argmin keeps the lowest)
        picks = np.argmin(spared, axis=0 if line == "ns" else 1).tolist()
        best = {roll: value + 1 for roll, value in zip(range(1, 9), picks, strict=True)}
        starts = [pairs[value - 1][roll - 1] if line == "ns" else pairs[roll - 1][value - 1]
                  for roll, value in best.items()]
        per_roll = _with_later(starts, full, count - 1)
        # every roll alike likely: the mean of the eight phases, over every hex any of them can reach
        keys = np.logical_or.reduce(per_roll.p_keys)
        p = per_roll.p.sum(axis=0) / len(starts)
        e = per_roll.e.sum(axis=0) / len(starts)
        risk = Vectors(per_roll.hexes, per_roll.index, p, keys, e, keys).risk()
        options.append(LineOption(line, best, risk, float(_on(e, rows))))
    return sorted(options, key=lambda o: (o.on_places, o.line))
