"""Immutable Stormfury state: the storm, the forecast, the board's defences and the damage.

Views (projector, OLED) and the session read these fields; ``apply`` returns a new state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.hexgrid import Hex

ROLES: tuple[str, ...] = ("aquatic_engineer", "architect", "evac_specialist", "relief_corps")
"""The four experts (keys; names and powers are data in maps/stormfury.toml); the aquatic engineer may
dam a city adjacent to hers and the evac specialist may evacuate at any time, also outside the player
phase (the rest of the powers are about resource cards, which the box leaves on the table and only
reminds)."""

PHASES: tuple[str, ...] = ("forecast", "players", "hurricane", "over")


@dataclass(frozen=True)
class Player:
    """One expert's token on the board."""

    role: str
    """One of ROLES."""
    city: str
    """City id the token stands in."""
    moves: int = 0
    """Cities travelled this turn (at most rules.moves_per_turn)."""


@dataclass(frozen=True)
class Damage:
    """One damage token placed by the storm."""

    turn: int
    """Turn it happened."""
    city: str
    """City id (for a road: its first end)."""
    kind: str
    """"infrastructure", "population" or "road"."""
    target: str
    """Space id ("houston.port", "houston.population") or road id."""
    amount: int
    """Damage tokens (population: one per unevacuated population)."""

    def to_dict(self) -> dict[str, object]:
        return {"turn": self.turn, "city": self.city, "kind": self.kind, "target": self.target,
                "amount": self.amount}


@dataclass(frozen=True)
class TurnLog:
    """What the hurricane did in one turn (the ``companion hurricane`` JSON rows)."""

    turn: int
    """Turn number from 1."""
    deck: str
    """"ocean" or "land": the deck the forecast came from."""
    forecast: tuple[str, ...]
    """The 5 forecast card ids in dealt order."""
    drawn: tuple[str, ...]
    """The card ids flipped, in the order the storm followed them."""
    category_before: int
    """Category while moving."""
    category_after: int
    """Category after the change (0 = tropical depression, game over)."""
    path: tuple[Hex, ...]
    """Every hex the centre reached, step by step (start excluded)."""
    at_sea_after: bool
    """Whether the centre ends the turn on a gulf hex."""
    damage: tuple[Damage, ...]
    """Damage tokens placed this turn."""
    absorbed: tuple[str, ...] = ()
    """Space ids whose fortification absorbed a hit this turn."""


@dataclass(frozen=True)
class StormState:
    """The whole game between two events."""

    turn: int
    """Current turn, from 1."""
    phase: str
    """"setup" (each player places her token in a city of her choice, in table order), "forecast"
    (waiting for the deck shuffle), "players" (defence actions), "hurricane" (waiting for the shuffle
    of the 5 forecast cards) or "over"."""
    category: int
    """Storm category 1..5; 0 once it dissipated."""
    centre: Hex
    """Hex of the storm's centre."""
    deck: str
    """Deck of this turn's forecast: "ocean" if the centre started the turn at sea, else "land"."""
    forecast: tuple[str, ...] = ()
    """This turn's forecast card ids (empty before the forecast shuffle)."""
    players: tuple[Player, ...] = ()
    """Player tokens, in table order."""
    placed: int = 0
    """In the setup phase: how many players have placed their token (the next one chooses)."""
    current: int = 0
    """In the player phase: whose turn it is (index into players), for the reminders; "end_turn" passes
    it on around the table, and after the last player's turn the hurricane phase begins."""
    fortifications: tuple[tuple[str, int], ...] = ()
    """(space id, tokens) for spaces with fortification tokens, sorted by id."""
    dams: frozenset[tuple[str, str]] = frozenset()
    """(road id, city id) dam tokens laid at a road's end; both ends dammed = never floods."""
    population: tuple[tuple[str, int], ...] = ()
    """(city id, population left) for every city; evacuation lowers it."""
    destroyed: frozenset[str] = frozenset()
    """Infrastructure space ids lost to the storm."""
    flooded: frozenset[str] = frozenset()
    """Road ids flooded (impassable)."""
    placed_by: tuple[tuple[str, str], ...] = ()
    """(mark, role) for each defence a player made, latest last: "fort:SPACE", "dam:ROAD:CITY", "evac:CITY",
    so the projector shows each mark in the colour and with the initials of the player who made it."""
    damage: tuple[Damage, ...] = ()
    """Every damage token so far, in order."""
    log: tuple[TurnLog, ...] = ()
    """One entry per hurricane phase resolved."""
    ended_by: str = ""
    """Why the game is over: "dissipated" or "max_turns" (empty while playing)."""
    recent: tuple[str, ...] = field(default=())
    """Short lines about the last event, for the OLED recap."""

    def placer(self, mark: str) -> str | None:
        """The role that last made ``mark`` (see ``placed_by``), or None."""
        return dict(self.placed_by).get(mark)

    def fortified(self, space_id: str) -> int:
        return dict(self.fortifications).get(space_id, 0)

    def people(self, city_id: str) -> int:
        return dict(self.population).get(city_id, 0)

    def dammed(self, road_id: str, ends: tuple[str, str]) -> bool:
        return all((road_id, e) in self.dams for e in ends)
