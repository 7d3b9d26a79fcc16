"""Immutable Kansas Tornadoes state: the tornadoes of the turn, the damage markers, who kept which.

Views (OLED, projector) and the session read these fields; ``apply`` returns a new state.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.hexgrid import Hex

LINES: dict[str, str] = {"ns": "north-south", "we": "west-east"}
"""The two start-grid lines, by the short names used in events."""


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
    history: tuple[tuple[int, tuple[Tornado, ...]], ...] = ()
    """(turn, its tornadoes) for every finished tornado phase."""
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
