"""Immutable Kansas Tornadoes state: the tornadoes of the turn, the damage markers, who kept which.

Views (OLED, projector) and the session read these fields; ``apply`` returns a new state.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Any, TypeVar, overload

from companion.hexgrid import Hex

LINES: dict[str, str] = {"ns": "north-south", "we": "west-east"}
"""The two start-grid lines, by the short names used in events."""

T = TypeVar("T")
_FIELDS: dict[type, frozenset[str]] = {}


def evolve(value: T, **changes: Any) -> T:
    """``dataclasses.replace`` for this module's frozen dataclasses, about four times cheaper: the fields copied
    as they are, the changed ones set, with no ``__init__`` run (none of these classes checks anything there).
    ``replace`` walked every field and called the constructor: two fifths of a Kansas event's replay, which a
    resume does for up to :data:`~companion.journal.snapshots.SNAPSHOT_EVERY` events. A name that is not a field
    is a TypeError, as with ``replace``."""
    kind = type(value)
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = frozenset(f.name for f in fields(kind))  # type: ignore[arg-type]
    if not changes.keys() <= names:
        raise TypeError(f"{kind.__name__} has no field {', '.join(sorted(changes.keys() - names))}")
    new = object.__new__(kind)
    old = value.__dict__
    new.__dict__.update({name: old[name] for name in names}, **changes)  # fields only: nothing cached carries over
    return new


@dataclass(frozen=True)
class Move:
    """One 2D6 roll of a tornado's path."""

    dice: tuple[int, int]
    total: int
    direction: str
    to: Hex
    """The hex the roll points at (off the map when ``rerolled``)."""
    rerolled: bool = False
    """True when the roll pointed off the map: no marker, the tornado rolls again."""

    def to_dict(self) -> dict[str, object]:
        return {"dice": list(self.dice), "sum": self.total, "direction": self.direction, "q": self.to.q,
                "r": self.to.r, "rerolled": self.rerolled}


@dataclass(frozen=True)
class Tornado:
    """One tornado of the turn, as far as it has been rolled."""

    number: int
    """1-based, within the turn."""
    ns: int | None = None
    """North-south line 1..8 once known."""
    we: int | None = None
    """West-east line 1..8 once known."""
    start: Hex | None = None
    moves: tuple[Move, ...] = ()
    """Every 2D6 roll in order, re-rolled ones included."""
    forecast_line: str = ""
    """"ns" or "we" when the forecasting player fixes that line of this tornado's start."""

    @property
    def markers(self) -> tuple[Hex, ...]:
        """Hexes that got a marker, in order: the start, then each move that stayed on the map."""
        placed = [m.to for m in self.moves if not m.rerolled]
        return ((self.start,) if self.start is not None else ()) + tuple(placed)

    @property
    def path(self) -> tuple[Hex, ...]:
        return self.markers

    @property
    def moves_made(self) -> int:
        return sum(1 for m in self.moves if not m.rerolled)

    @property
    def position(self) -> Hex | None:
        """Where the tornado is now (its last marker)."""
        markers = self.markers
        return markers[-1] if markers else None


@dataclass(frozen=True)
class Emergency:
    """The Emergency Response a player took this turn: free removals left, and whether a city one was used."""

    player: int
    left: int = 3
    city_used: bool = False


Turn = tuple[int, tuple[Tornado, ...]]
"""One finished tornado phase: the turn and its tornadoes."""


class TurnHistory(Sequence[Turn]):
    """Every finished tornado phase of a game, kept as compact text and read back only when asked.

    A long game's state carried each past tornado as objects (376 turns: about 5,000 tornadoes, moves and hexes),
    all of them pickled into every snapshot and built again by every resume, although no rule and no screen
    reads them (only a test or a tool looking back does). Here each turn is one line of canonical JSON, appended
    when its phase ends; a snapshot pickles the text as one string and a resume builds nothing from it. Equal
    histories have equal text (canonical: sorted nothing, fixed separators, the same field order), so comparing
    two states compares text. Immutable, like the state: :meth:`plus` returns a new history."""

    __slots__ = ("_count", "_text", "_value")

    def __init__(self, text: str = "", count: int | None = None) -> None:
        self._text = text
        self._count = text.count("\n") if count is None else count
        self._value: tuple[Turn, ...] | None = None

    def plus(self, turn: int, tornadoes: tuple[Tornado, ...]) -> TurnHistory:
        """This history and one more finished tornado phase."""
        return TurnHistory(self._text + _turn_line(turn, tornadoes) + "\n", self._count + 1)

    @property
    def turns(self) -> tuple[Turn, ...]:
        """The phases as the engine's objects (built from the text once, when first asked)."""
        if self._value is None:
            self._value = tuple(_turn_from(json.loads(line)) for line in self._text.splitlines())
        return self._value

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Turn: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Turn, ...]: ...

    def __getitem__(self, index: int | slice) -> Turn | tuple[Turn, ...]:
        return self.turns[index]

    def __iter__(self) -> Iterator[Turn]:
        return iter(self.turns)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TurnHistory):
            return self._count == other._count and self._text == other._text
        if isinstance(other, tuple | list):
            return len(other) == self._count and self.turns == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._text)

    def __reduce__(self) -> tuple[Any, ...]:
        return (TurnHistory, (self._text, self._count))

    def __repr__(self) -> str:
        return f"TurnHistory({self._count} turns)"


NO_TURNS = TurnHistory()
"""The history of a game before its first tornado phase ends."""


def _turn_line(turn: int, tornadoes: tuple[Tornado, ...]) -> str:
    """One turn as canonical JSON: [turn, [[number, ns, we, q, r, forecast line, [[d6, d6, total, direction,
    q, r, rerolled], ...]], ...]] (q and r null for a tornado that never started)."""
    return json.dumps([turn, [[t.number, t.ns, t.we, *(t.start if t.start is not None else (None, None)),
                               t.forecast_line,
                               [[*m.dice, m.total, m.direction, *m.to, m.rerolled] for m in t.moves]]
                              for t in tornadoes]], separators=(",", ":"))


def _turn_from(data: list[Any]) -> Turn:
    turn, tornadoes = data
    return turn, tuple(Tornado(number, ns, we, Hex(q, r) if q is not None else None,
                               tuple(Move((d1, d2), total, direction, Hex(mq, mr), rerolled)
                                     for d1, d2, total, direction, mq, mr, rerolled in moves), line)
                       for number, ns, we, q, r, line, moves in tornadoes)


@dataclass(frozen=True)
class KansasState:
    """The whole game between two events."""

    players: int
    """4, 5 or 6: picks the outbreak table row."""
    turn: int
    """Current turn, from 1."""
    phase: str
    """"forecast" (the forecasting player picks a tornado and a line), "tornado" (dice for the tornadoes),
    "actions" (removals, emergency response, deliveries, the forecast action, then end of turn) or "over"."""
    tornadoes: tuple[Tornado, ...] = ()
    """This turn's tornadoes, finished ones and the one being rolled."""
    count: int = 0
    """Tornadoes this turn (from the outbreak table)."""
    markers: tuple[tuple[Hex, int], ...] = ()
    """(hex, markers stacked there) for every hex with at least one, sorted."""
    kept: tuple[tuple[int, int], ...] = ()
    """(player, city markers kept for end-game scoring), sorted, players with at least one."""
    forecaster: int = 0
    """Player holding a forecast for the coming tornado phase (took Emergency Response/Forecast), or 0."""
    forecast: tuple[int, str, int] | None = None
    """This turn's forecast: (tornado number, line fixed, value chosen or 0 until chosen)."""
    emergency: Emergency | None = None
    """This turn's Emergency Response, if taken."""
    new_cities: frozenset[Hex] = frozenset()
    """Town hexes the table turned into New Cities (their markers count as city markers)."""
    history: TurnHistory = NO_TURNS
    """(turn, its tornadoes) for every finished tornado phase, as compact text (see :class:`TurnHistory`)."""
    recent: tuple[str, ...] = ()
    """Short lines about the last event, for the OLED recap."""

    def markers_at(self, h: Hex) -> int:
        return dict(self.markers).get(h, 0)

    def kept_by(self, player: int) -> int:
        return dict(self.kept).get(player, 0)

    @property
    def current(self) -> Tornado | None:
        """The tornado being rolled, if any."""
        return self.tornadoes[-1] if self.phase == "tornado" and self.tornadoes else None

    def scores(self) -> dict[int, int]:
        """End-game points from kept city markers: 2 each."""
        return {p: 2 * self.kept_by(p) for p in range(1, self.players + 1)}
