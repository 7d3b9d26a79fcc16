"""How likely each answer of a tile-mode turn is, so the likeliest is under the cursor before a press.

The box cannot see the tile drawn, but it knows the bag and the board: a tile of kind *k* is drawn with the odds
of the tiles of *k* left in the bag, and a tile is laid where it fits. A kind that fits in few places goes to each
of them more surely than one that fits everywhere, so given the space the table points at, the odds of kind *k*
there are

    left(k) x turns(k, space) / turns(k, anywhere)

(``turns``: the ways it fits, each turn on each space counted once), and the odds of a space are that summed over
the kinds. Nothing here decides anything: it orders the lists and places the cursor, and the table still picks.

Working out where every kind fits is the costly part (every open space, every kind, every turn); it is done once
per board (:class:`FitTable`), the same for the space, the kind and the discard decisions of one turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from companion.games.carcassonne.state import CarcState
from companion.games.carcassonne.tiles import TileType
from companion.places import Cell


class Rules(Protocol):
    """What the table of fits asks the engine: the open spaces, what fits one, and the tiles of a kind left."""

    def open_cells(self, state: CarcState) -> list[Cell]: ...

    def layable(self, state: CarcState, cell: Cell) -> list[tuple[TileType, tuple[int, ...]]]: ...

    def remaining(self, state: CarcState, tile: TileType) -> int: ...


Fits = tuple[tuple[TileType, tuple[int, ...]], ...]
"""The kinds left in the bag that fit one space, each with the turns that fit."""


@dataclass(frozen=True)
class FitTable:
    """Where each kind left in the bag fits on one board: per open space, the kinds and their turns."""

    spaces: dict[Cell, Fits]
    left: dict[str, int]
    """Tiles of each kind left in the bag (the kinds that may be laid on a space)."""

    def kind_odds(self, cell: Cell) -> dict[str, float]:
        """The odds of each kind that fits ``cell`` being the tile laid there (not normalised)."""
        ways = self._ways()
        return {tile.key: self.left[tile.key] * len(turns) / ways[tile.key]
                for tile, turns in self.spaces.get(cell, ())}

    def space_odds(self) -> dict[Cell, float]:
        """The odds of each open space being where the next tile goes (not normalised)."""
        ways = self._ways()
        return {cell: sum(self.left[tile.key] * len(turns) / ways[tile.key] for tile, turns in fits)
                for cell, fits in self.spaces.items()}

    def _ways(self) -> dict[str, int]:
        ways: dict[str, int] = {}
        for fits in self.spaces.values():
            for tile, turns in fits:
                ways[tile.key] = ways.get(tile.key, 0) + len(turns)
        return ways


def fit_table(game: Rules, state: CarcState) -> FitTable:
    """Where every kind left in the bag fits on ``state``'s board."""
    spaces = {cell: tuple(game.layable(state, cell)) for cell in game.open_cells(state)}
    left = {tile.key: game.remaining(state, tile) for fits in spaces.values() for tile, _ in fits}
    return FitTable({c: f for c, f in spaces.items() if f}, left)
