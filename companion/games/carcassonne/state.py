"""The immutable state of a Carcassonne game as the box follows it: tiles laid, followers, the disasters under way."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from companion.places import Cell, SquareBoard

PHASES = ("cell", "place", "kind", "rotation", "tornado", "tornado_pick", "tornado_land", "deploy", "meteor_aim",
          "meteor_move", "flood_aim", "flood_spread", "quake_ask", "final", "over")


@dataclass(frozen=True)
class Laid:
    """A tile on the board: its type key ("" for a space marked without a kind) and its quarter turns."""

    kind: str
    quarters: int = 0


@dataclass(frozen=True)
class Follower:
    """A follower on the board: its owner (seat index), its tile and the tile's segment it stands on
    (-1: on the tile, when the group marks spaces without kinds)."""

    player: int
    cell: Cell
    segment: int = -1
    feature: str = ""
    """The light mode: the kind of feature the table said it stands on ("city", "road", "field", "cloister")."""


@dataclass(frozen=True)
class Tornado:
    """The tornado on its way: where it is, whose move it is, what it has visited and who is inside."""

    at: Cell
    placer: int
    mover: int
    left: int
    visited: frozenset[Cell]
    path: tuple[Cell, ...]
    inside: int | None = None
    """The seat whose follower is in the tornado."""
    pending: tuple[Cell, ...] = ()
    """Spaces of the move just made whose followers are still to be taken (in order)."""


@dataclass(frozen=True)
class Meteor:
    """A meteor being aimed: the spaces chosen so far (the last is where it will land) and whose say it is."""

    drawer: int
    chosen: tuple[Cell, ...] = ()
    says: int = 0
    """How many players have had their say after the drawer's first point (the drawer's last word is the last)."""


@dataclass(frozen=True)
class Flood:
    cell: Cell
    player: int
    spread: bool = False


@dataclass(frozen=True)
class CarcState:
    players: int
    mode: str
    """"tiles": kinds are entered and the box follows features; "cells": only the spaces; "light": only what the
    disasters need (followers and where they stand, the disaster tiles)."""
    river: bool
    board: tuple[tuple[Cell, Laid], ...]
    followers: tuple[Follower, ...] = ()
    supply: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    drawn: tuple[tuple[str, int], ...] = ()
    """Tile type key -> tiles of that type out of the bag (laid, replaced or set aside; the start tile too)."""
    current: int = 0
    turn: int = 1
    phase: str = "cell"
    pending_cell: Cell | None = None
    pending_kind: str = ""
    pending_feature: str = ""
    """The light mode: the feature of the follower whose tile is being pointed at."""
    last: Cell | None = None
    """The space laid this turn: where its player may deploy."""
    tornado: Tornado | None = None
    meteor: Meteor | None = None
    flood: Flood | None = None
    quake_hits: tuple[Cell, ...] = ()
    """Spaces mode: the tiles in the earthquake's zone the table said hold a city."""
    quake_asked: tuple[Cell, ...] = ()
    final: tuple[str, ...] = ()
    recent: tuple[str, ...] = ()
    folded: tuple[str, ...] = ()
    """The decisions the box took itself after the last event, the rules leaving each only one answer (as
    canonical JSON): a journal written before they were folded in names them again, and they are taken as said."""

    @cached_property
    def tiles(self) -> dict[Cell, Laid]:
        return dict(self.board)

    def drawn_of(self, key: str) -> int:
        return dict(self.drawn).get(key, 0)

    def square(self) -> SquareBoard:
        return SquareBoard({c: t.kind for c, t in self.board})

    def followers_at(self, cell: Cell) -> list[Follower]:
        return [f for f in self.followers if f.cell == cell]


def short_name(cell: Cell) -> str:
    """A space as the OLED says it: "start tile", "2 east, 1 north"."""
    name = SquareBoard({}).name_of(cell)
    return "start tile" if name == "the start tile" else name.removesuffix(" of the start")


def long_name(cell: Cell) -> str:
    return SquareBoard({}).name_of(cell)
