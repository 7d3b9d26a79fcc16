"""What the box keeps of an Age of Industry game: what is built, the Japan display, the deck count, the markets.

Everything is immutable (frozen dataclasses and tuples), so a refused entry leaves the old state as it was and a
game is a fold over its journal. Only what the players get wrong or count slowly is kept: money and hands stay on
the table.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.places import Link


@dataclass(frozen=True)
class Counter:
    """An industry counter in one space of a location."""

    location: str
    space: int
    """Index into the location's spaces (data order)."""
    kind: str
    owner: str
    flipped: bool = False
    cubes: int = 0


@dataclass(frozen=True)
class Rail:
    """A built rail link and its owner."""

    link: Link
    owner: str


@dataclass(frozen=True)
class Ship:
    """A ship counter on a ship space, with the cubes and market of its space."""

    space: str
    owner: str
    tech: int
    coal: int = 0
    iron: int = 0
    market_sold: bool = False
    flipped: bool = False


@dataclass(frozen=True)
class IronMarket:
    """Minnesota: the iron market a ship opened, the cubes sold to it and its face-down market counter."""

    location: str
    cubes: int = 0
    counter: bool = False


@dataclass(frozen=True)
class Slot:
    """A space of the Japan card display: its card ("" when empty) and who took it how ("" when still there)."""

    card: str = ""
    taken: str = ""


UNNAMED, TO_DEAL, EMPTY = "?", "", "-"
"""The face-up places beside the board that hold no named card (see ``IndustryState.beside``)."""


@dataclass(frozen=True)
class IndustryState:
    map: str
    """"Japan" or "Minnesota": which board of the package this game uses."""
    players: tuple[str, ...]
    deck: int
    """Cards left in the draw deck; the game ends when it is exhausted."""
    deal_mode: str = "table"
    """Japan display: "table" (players say what they dealt) or "box" (the box deals from its own list)."""
    turn: int = 1
    phase: str = "play"
    """"deal" (the display is being refilled), "play", "over"."""
    counters: tuple[Counter, ...] = ()
    rails: tuple[Rail, ...] = ()
    ships: tuple[Ship, ...] = ()
    markets: tuple[IronMarket, ...] = ()
    demand: tuple[tuple[str, int], ...] = ()
    """Minnesota: cubes on the Coal and Iron Demand Displays."""
    display: tuple[Slot, ...] = ()
    box_deck: tuple[str, ...] = ()
    """The box's own list, for a display dealt by the box."""
    beside: tuple[str, ...] = ()
    """A map without a display (Minnesota): the face-up cards beside the board, by card kind; ``UNNAMED`` for one
    dealt but not yet said (a game begun before the box kept them), ``TO_DEAL`` for a place waiting for its card
    from the deck, ``EMPTY`` for a place left empty (until the end of the turn, or for good with the deck out)."""
    last_place: str = ""
    """The location of the last entry (a link's new end): lists of places start near it."""
    last_kind: str = ""
    """The industry last built: offered first."""
    last_owner: str = ""
    """The player of the last entry, taken as the player whose turn it is: offered first as owner."""
    pending: str = ""
    """The entry under way (multi-step): its action, with ``args`` so far."""
    args: tuple[tuple[str, Any], ...] = ()
    recent: tuple[str, ...] = ()
    acted: tuple[tuple[str, str], ...] = ()
    """The actions counted this turn, in order: (player, what kind of action: "build", "link", "sell", "cards")."""

    def actions_of(self, player: str) -> int:
        return sum(1 for who, _ in self.acted if who == player)

    # -- look-ups -----------------------------------------------------------------------------------
    def at(self, location: str) -> tuple[Counter, ...]:
        return tuple(c for c in self.counters if c.location == location)

    def counter(self, location: str, space: int) -> Counter | None:
        return next((c for c in self.counters if c.location == location and c.space == space), None)

    def rail(self, link: Link) -> Rail | None:
        return next((r for r in self.rails if r.link == link), None)

    def ship(self, space: str) -> Ship | None:
        return next((s for s in self.ships if s.space == space), None)

    def market(self, location: str) -> IronMarket | None:
        return next((m for m in self.markets if m.location == location), None)

    def cubes_on(self, display: str) -> int:
        return dict(self.demand).get(display, 0)

    def pending_args(self) -> dict[str, Any]:
        return dict(self.args)

    # -- changes (each returns a new state) ---------------------------------------------------------
    def with_counter(self, old: Counter | None, new: Counter | None) -> IndustryState:
        kept = tuple(c for c in self.counters if c != old)
        return replace(self, counters=kept if new is None else tuple(sorted((*kept, new), key=_counter_key)))

    def with_ship(self, ship: Ship) -> IndustryState:
        kept = tuple(s for s in self.ships if s.space != ship.space)
        return replace(self, ships=tuple(sorted((*kept, ship), key=lambda s: s.space)))

    def with_market(self, market: IronMarket) -> IndustryState:
        kept = tuple(m for m in self.markets if m.location != market.location)
        return replace(self, markets=tuple(sorted((*kept, market), key=lambda m: m.location)))

    def with_demand(self, display: str, cubes: int) -> IndustryState:
        return replace(self, demand=tuple(sorted({**dict(self.demand), display: cubes}.items())))


def _counter_key(c: Counter) -> tuple[str, int]:
    return (c.location, c.space)
