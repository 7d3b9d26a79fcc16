"""The contract every game engine keeps: pure, deterministic, driven only by events.

An engine is a small object with three pure functions. State objects are immutable, so
``apply`` returns a new state and a refused event (RuleError) leaves the old one untouched.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol, TypeVar

from companion.dice import Event, Prompt
from companion.hexgrid import Hex

S = TypeVar("S")


class Game(Protocol[S]):
    """A game's disaster rules as a fold: ``state = apply(state, event)``."""

    key: str
    """Short name used on the command line and in the journal ("kansas")."""
    title: str
    """Name shown to people ("Age of Steam: Kansas Tornadoes")."""

    def new_game(self, options: Mapping[str, Any]) -> S:
        """The starting state; ``options`` (players, turn, ...) are journaled with the game."""
        ...

    def apply(self, state: S, event: Event) -> S:
        """The state after ``event``; raises RuleError and changes nothing if refused."""
        ...

    def prompt(self, state: S) -> Prompt:
        """What the game needs next."""
        ...

    def status(self, state: S) -> str:
        """Where the game is, one short line ("Turn 3 - tornado phase")."""
        ...

    def recap(self, state: S) -> tuple[str, ...]:
        """What just happened, a few short lines for the OLED ("Start: Dodge City")."""
        ...

    def risk_map(self, state: S) -> Mapping[Hex, float]:
        """Probability that each hex is hit by the coming storm, exact, for the projector overlay."""
        ...


def replay(game: Game[S], options: Mapping[str, Any], events: Iterable[Event]) -> S:
    """Fold a journal's events over a new game: the single path for resume, undo and import."""
    state = game.new_game(options)
    for event in events:
        state = game.apply(state, event)
    return state
