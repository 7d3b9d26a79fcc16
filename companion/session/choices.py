"""Decisions as menu options: what the buttons scroll through and the projector's cursor points at.

An engine that lists its legal decisions (:class:`~companion.games.base.HasChoices`) gives each as an
:class:`~companion.games.base.Option`: a short label for the OLED, the :class:`~companion.dice.Choice`
event it sends, and the place it concerns (if any) so the projector's cursor can sit on it. An engine
without the hook offers one option per prompt action.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.conforms import conforms
from companion.dice import Choice, Prompt
from companion.games.base import HasChoices, HasSetupQuestions, Option, SetupQuestion
from companion.places import Place

__all__ = ["Offered", "Option", "asked", "ends", "first_choice", "options_for", "setup_questions", "step_choice"]


def options_for(game: Any, state: Any, prompt: Prompt) -> list[Option]:
    """The decisions to offer now: the engine's own list if it has one, else one per prompt action
    (with no details)."""
    if conforms(game, HasChoices):
        return list(game.choices(state))
    return [Option(action, Choice(action, {})) for action in prompt.actions]


def setup_questions(game: Any) -> Sequence[SetupQuestion]:
    """What to ask before a new game, from the engine if it has questions (Kansas: the player count picks
    the outbreak table's row; Stormfury: how many play, each then placing her token in the game's own
    setup phase)."""
    return list(game.setup_questions()) if conforms(game, HasSetupQuestions) else []


def ends(option: Option) -> bool:
    """An option that ends a turn, a phase or the game (:attr:`Option.ends`): the cursor never starts on one, and
    a wrapping list does not land on one."""
    return option.ends


def first_choice(options: Sequence[Option]) -> int:
    """Where the cursor starts: on the first option that ends nothing (the only option when all of them end)."""
    return next((i for i, o in enumerate(options) if not ends(o)), 0)


class Offered(list[Option]):
    """The options of one state as the session offers them, with where the cursor starts on them.

    A list, so everything that reads options reads these; it also carries ``start`` (the option the cursor is on
    before any press: on the board, where the last thing happened) and ``near`` (the place that start was
    worked out from, carried on to the next state when an event names no place: a dice roll, "No follower")."""

    def __init__(self, options: Iterable[Option] = (), start: int | None = None, near: Place | None = None,
                 jump: int = 1) -> None:
        super().__init__(options)
        self.start = first_choice(self) if start is None or not 0 <= start < len(self) else start
        self.near = near
        self.jump = jump
        """How far LEFT and RIGHT step on a list (UP and DOWN step one): a list laid out round its likeliest
        option reaches the two next to it with UP and DOWN and the two ``jump`` away with LEFT and RIGHT."""

    def copy(self) -> Offered:
        return Offered(self, self.start, self.near, self.jump)


def cursor(options: Sequence[Option], choice: int | None) -> int:
    """The option the cursor is on: ``choice`` kept inside the list, or where it starts when not moved yet
    (:attr:`Offered.start` for the session's options, else the first option that ends nothing)."""
    if choice is None:
        return options.start if isinstance(options, Offered) else first_choice(options)
    return max(0, min(choice, len(options) - 1))


def step_choice(options: Sequence[Option], choice: int | None, step: int) -> int:
    """The cursor moved one option: past either end of the list it wraps, but onto the nearest option that ends
    nothing, so pressing on past the top never lands on "End game"."""
    at = cursor(options, choice) + step
    if 0 <= at < len(options):
        return at
    order = range(len(options)) if at >= len(options) else range(len(options) - 1, -1, -1)
    return next((i for i in order if not ends(options[i])), at % len(options))


def asked(game: Any, name: str, chosen: Mapping[str, Any]) -> bool:
    """Whether the setup question ``name`` applies after the answers ``chosen`` (an engine with ``asks``
    says: Age of Industry asks who deals the display only for a map that has one)."""
    asks = getattr(game, "asks", None)
    return bool(asks(name, chosen)) if callable(asks) else True
