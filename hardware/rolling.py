"""A ROLL press turned into dice: whatever the engine is asking for, from the OS generator."""

from __future__ import annotations

from companion.dice import DiceRolled, DiceSource, Prompt

NOTHING_TO_ROLL = "nothing to roll now"
"""The short message the session shows for a ROLL press while no dice are asked."""


def roll_for(prompt: Prompt | None, source: DiceSource | None = None) -> DiceRolled | None:
    """Dice answering ``prompt``'s request, marked source="button"; None when nothing is asked.

    A fresh :class:`DiceSource` (``random.SystemRandom``) is used unless one is given, so a
    button roll never touches a seeded module-level generator. One accepted press gives one
    roll for the request current when the session handles it; see docs/oled.md for presses.
    """
    if prompt is None or prompt.done or not prompt.wants_dice():
        return None
    rolled = (source or DiceSource()).roll(prompt.dice)
    return DiceRolled(rolled.dice, source="button")
