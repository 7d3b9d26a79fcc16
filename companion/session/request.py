"""The open request: what the table is in the middle of answering, held in one value.

A request is answered over several inputs: a D8 now and the D6 later, a die typed with UP/DOWN
before OK, a re-roll armed by holding ROLL, a shuffle dealt card by card with thrown dice, the
cursor over the options of a decision. All of it lives in one frozen :class:`OpenRequest` that the
session replaces in one assignment, so "start afresh" (after an accepted event, an undo, BACK) is
``OpenRequest()`` and never a list of fields reset by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.dice import Die
from companion.dice_shuffle import DiceShuffle


@dataclass(frozen=True)
class OpenRequest:
    partial: tuple[Die, ...] = ()
    """Dice of the request that have arrived, when it needs more."""
    entry: int | None = None
    """A die being typed with UP/DOWN, entered by OK."""
    reroll: bool = False
    """The next roll replaces the last one (asked by holding ROLL, confirmed)."""
    dealing: DiceShuffle | None = None
    """A shuffle being made from thrown dice, pick by pick (journaled once complete)."""
    choice: int | None = None
    """The option the cursor is on, for a decision (None: not moved yet, where it starts)."""
    lane: tuple[str, float] | None = None
    """On the board: the line the arrows keep while they move along one axis ("h" or "v", and the y or x to
    keep), so pressing RIGHT on and on across hexes zigzags along a row instead of drifting off it."""
    listing: bool = False
    """On the board: the short list of the options at the cursor's place is open (OK on a place with several)."""

    def busy(self) -> bool:
        """Something half-answered that BACK clears (the option cursor is not, but the short list of one place's
        options is: BACK leaves it)."""
        return (bool(self.partial) or self.entry is not None or self.reroll or self.dealing is not None
                or self.listing)

    def with_(self, **changes: object) -> OpenRequest:
        return replace(self, **changes)  # type: ignore[arg-type]
