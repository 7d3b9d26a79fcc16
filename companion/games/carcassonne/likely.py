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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from companion.games.carcassonne.tiles import TileType
from companion.places import Cell

if TYPE_CHECKING:
    from companion.games.carcassonne.engine import CarcassonneGame
    from companion.games.carcassonne.state import CarcState

T = TypeVar("T")

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


def fit_table(game: CarcassonneGame, state: CarcState) -> FitTable:
    """Where every kind left in the bag fits on ``state``'s board."""
    spaces = {cell: tuple(game.layable(state, cell)) for cell in game.open_cells(state)}
    left = {tile.key: game.remaining(state, tile) for fits in spaces.values() for tile, _ in fits}
    return FitTable({c: f for c, f in spaces.items() if f}, left)


def centred(likeliest_first: Sequence[T]) -> tuple[list[T], int]:
    """A list laid out round its likeliest item, and where that item is: the second likeliest just below it, the
    third just above, the fourth below the second, and so on. The cursor starts on the likeliest and each of the
    next two is one press away (UP or DOWN), where a list in falling order puts the third two presses down; the
    OLED shows the item above the cursor and those below, so the likely ones are on the screen."""
    above: list[T] = []
    below: list[T] = []
    for n, item in enumerate(likeliest_first[1:]):
        (below if n % 2 == 0 else above).append(item)
    return [*reversed(above), *likeliest_first[:1], *below], len(above)
