"""Immutable Allegheny state: the auction under way, who owns which stock, the track laid, the developments.

Seats are numbered from 0 inside the box (clockwise, as maps/allegheny.toml's seating names them); every
screen shows the seat's name. ``apply`` returns a new state; nothing here is ever changed in place.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.places import Link

PHASES: tuple[str, ...] = ("offering", "turn", "build", "develop", "ple_auction", "ple_link", "over")
"""offering: the initial offering's five auctions; turn: a player chooses her action; build: a railroad
lays links; develop: the second development or not; ple_auction and ple_link: the P&LE's opening, which
interrupts the build that reached Pittsburgh; over: the table ended the game."""


@dataclass(frozen=True)
class Auction:
    """One stock's auction: who bids in which order, the high bid and who has passed."""

    railroad: str
    order: tuple[int, ...]
    """Seats in bidding order: the opener first, then clockwise."""
    turn: int = 0
    """Index into ``order`` of the seat whose bid it is."""
    high: int = 0
    leader: int | None = None
    """The seat holding the high bid (None before the first bid)."""
    passed: frozenset[int] = frozenset()
    """Seats that passed: out of the auction ("out"), or since the last bid ("again")."""

    @property
    def bidder(self) -> int:
        return self.order[self.turn]


@dataclass(frozen=True)
class Share:
    """A stock won at auction: which railroad, by whom, for how much (paid to the railroad's treasury)."""

    railroad: str
    seat: int
    price: int


@dataclass(frozen=True)
class Track:
    """A link laid by a railroad; ``free`` for the P&LE's link from Pittsburgh."""

    link: Link
    railroad: str
    free: bool = False


@dataclass(frozen=True)
class AlleghenyState:
    players: int
    phase: str = "offering"
    auction: Auction | None = None
    offered: int = 0
    """Initial offering auctions finished (0..5)."""
    shares: tuple[Share, ...] = ()
    current: int = 0
    """The seat whose turn it is (play phases)."""
    railroad: str = ""
    """The railroad building (build phase)."""
    build_from: str = ""
    """The end location picked for the next link (build phase), "" before one is picked."""
    tracks: tuple[Track, ...] = ()
    development: tuple[tuple[str, int], ...] = ()
    """(location, level) for every location developed at least once, sorted."""
    first_developed: str = ""
    """The develop action's free development, "" before it (develop phase)."""
    ple_open: bool = False
    bonuses: tuple[tuple[str, str], ...] = ()
    """(railroad, external location) connection bonuses paid so far."""
    recent: tuple[str, ...] = ()

    def level(self, key: str) -> int:
        return dict(self.development).get(key, 0)

    def owner(self, railroad: str) -> Share | None:
        return next((s for s in self.shares if s.railroad == railroad), None)

    def tracks_on(self, link: Link) -> tuple[Track, ...]:
        return tuple(t for t in self.tracks if t.link == link)
