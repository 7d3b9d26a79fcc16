"""A shuffle made from thrown dice, so a table with a dice tower can deal cards with its own dice.

The box replaces a deck with a permutation (a ``Shuffled`` event); usually the OS generator makes
it on a ROLL press. With dice the permutation is built card by card, as a person would deal: the
card for position ``i`` is picked uniformly from the cards not yet dealt (Fisher-Yates), each pick
read from one throw. A pick among up to 6 cards is a D6, up to 8 a D8, up to 48 a D8 and a D6 read
together as ``(d8 - 1) * 6 + d6``. A throw that would make the pick uneven is thrown again
(rejection: with 5 cards a D6 of 6 is thrown again), so every deal is exactly as likely as with a
shuffled deck. Only the positions the game uses are dealt (``deal``); the cards after them keep
their order, which no rule reads.

Pure: a DiceShuffle is immutable and ``feed`` returns the next one, so the session can show where
a deal stands and the journal keeps only the finished permutation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.dice import FACES, Die, Shuffled
from companion.errors import CompanionError

PAIR: tuple[str, str] = ("d8", "d6")
"""The throw for a pick among 9..48 cards."""
PAIR_FACES = FACES["d8"] * FACES["d6"]


def throw_for(choices: int) -> tuple[str, ...]:
    """The dice one pick among ``choices`` cards takes: the smallest throw with enough faces."""
    if choices <= FACES["d6"]:
        return ("d6",)
    if choices <= FACES["d8"]:
        return ("d8",)
    if choices <= PAIR_FACES:
        return PAIR
    raise CompanionError(f"a deck of {choices} cards is too large to shuffle with a D8 and a D6; press ROLL")


def dice_can_deal(size: int) -> bool:
    """Whether a deck of ``size`` cards can be dealt by thrown dice (its first pick is the widest): a larger
    one is shuffled by the box's generator on ROLL only."""
    return size <= PAIR_FACES


def read_throw(dice: Sequence[Die]) -> tuple[int, int]:
    """(value 1..faces, faces) of one throw as ``throw_for`` asks for it."""
    kinds = tuple(d.kind for d in dice)
    if kinds == ("d6",) or kinds == ("d8",):
        return dice[0].value, FACES[kinds[0]]
    if sorted(kinds) == sorted(PAIR):
        d8 = next(d.value for d in dice if d.kind == "d8")
        d6 = next(d.value for d in dice if d.kind == "d6")
        return (d8 - 1) * FACES["d6"] + d6, PAIR_FACES
    raise CompanionError(f"a shuffle throw is a D6, a D8 or a D8 with a D6, not {' + '.join(kinds) or 'nothing'}")


@dataclass(frozen=True)
class DiceShuffle:
    """A deal in progress: ``order`` with its first ``placed`` positions picked."""

    order: tuple[int, ...]
    deal: int
    """Positions to pick: the cards the game uses (the last card of a full deal needs no throw)."""
    placed: int = 0
    thrown_again: int = 0
    """Throws that could not be read evenly and were thrown again."""

    @classmethod
    def start(cls, size: int, deal: int = 0) -> DiceShuffle:
        """A deal of the first ``deal`` cards (0: all of them) from a deck of ``size``."""
        if size < 1:
            raise CompanionError(f"nothing to shuffle: {size} cards")
        wanted = size if deal <= 0 else min(deal, size)
        return cls(tuple(range(size)), min(wanted, size - 1))

    @property
    def choices(self) -> int:
        """Cards the next pick is made among."""
        return len(self.order) - self.placed

    @property
    def done(self) -> bool:
        return self.placed >= self.deal

    def need(self) -> tuple[str, ...]:
        """The dice the next pick takes, or () when the deal is complete."""
        return () if self.done else throw_for(self.choices)

    def feed(self, dice: Sequence[Die]) -> DiceShuffle:
        """The deal after one throw: one more position picked, or the same deal with the throw to do again."""
        if self.done:
            raise CompanionError("the shuffle is complete")
        wanted = self.need()
        if sorted(d.kind for d in dice) != sorted(wanted):
            raise CompanionError(f"this pick needs {' + '.join(k.upper() for k in wanted)}")
        value, faces = read_throw(dice)
        m = self.choices
        if value > m * (faces // m):  # the top few faces would favour the first cards: throw again
            return DiceShuffle(self.order, self.deal, self.placed, self.thrown_again + 1)
        pick = self.placed + (value - 1) % m
        order = list(self.order)
        order[self.placed], order[pick] = order[pick], order[self.placed]
        return DiceShuffle(tuple(order), self.deal, self.placed + 1, self.thrown_again)

    def result(self, source: str = "dice") -> Shuffled:
        if not self.done:
            raise CompanionError(f"the shuffle needs {self.deal - self.placed} more throws")
        return Shuffled(self.order, source)
