"""What a game's painter is handed beside the state: the rules' answers it draws, worked out by the session.

A painter draws; it does not decide. What it needs from the rules (Kansas's ranked forecast choices, the
Stormfury storm's walk along each forecast card, the prompt and the recap in the engine's words) is worked out
once per state on the session's side, by a function the game's registry spec names, and handed over as plain
data (strings, numbers, places, tuples), together with the names the table gave its seats. So a painter imports
no rule module, and the same state drawn twice asks the rules once.

Plain data, no pygame: the session builds it, the projector reads it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

_SEAT = re.compile(r"\b(?:[Pp]layer |P)([1-9])\b")


def say(text: str, seats: Sequence[str]) -> str:
    """``text`` with each numbered seat said by its name ("P2 delivers Hays" -> "Blue delivers Hays", "player 2"
    -> "Blue")."""
    if not seats or not text:
        return text
    return _SEAT.sub(lambda m: seats[int(m.group(1)) - 1] if int(m.group(1)) <= len(seats) else m.group(0), text)


@dataclass(frozen=True)
class Drawn:
    """The rules' answers for one state (``extras``: the names the game's spec declares, each plain data) and
    the seats' names (empty: the engine's own numbers)."""

    extras: Mapping[str, Any] = field(default_factory=dict)
    seats: tuple[str, ...] = ()

    def get(self, name: str, default: Any = None) -> Any:
        """One of the extras, ``default`` when the game's function did not give it."""
        return self.extras.get(name, default)

    def seat(self, number: int, word: str = "Player") -> str:
        """Seat ``number`` as the table calls it: its name, else ``word`` and its number ("Player 2")."""
        if 1 <= number <= len(self.seats):
            return self.seats[number - 1]
        return f"{word} {number}"

    def say(self, text: str) -> str:
        """``text`` (the engine's words) with the numbered seats said by their names."""
        return say(text, self.seats)


NOTHING = Drawn()
"""No extras and numbered seats: what a painter draws with before the session hands it anything."""
