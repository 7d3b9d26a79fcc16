"""Decisions as menu options: what the buttons scroll through and the projector's cursor points at.

An engine that lists its legal decisions (:class:`~companion.games.base.HasChoices`) gives each as an
:class:`~companion.games.base.Option`: a short label for the OLED, the :class:`~companion.dice.Choice`
event it sends, and the place it concerns (if any) so the projector's cursor can sit on it. An engine
without the hook offers one option per prompt action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.dice import Choice, Prompt
from companion.games.base import HasChoices, HasSetupQuestions, Option, SetupQuestion

__all__ = ["Option", "options_for", "setup_questions"]


def options_for(game: Any, state: Any, prompt: Prompt) -> list[Option]:
    """The decisions to offer now: the engine's own list if it has one, else one per prompt action
    (with no details)."""
    if isinstance(game, HasChoices):
        return list(game.choices(state))
    return [Option(action, Choice(action, {})) for action in prompt.actions]


def setup_questions(game: Any) -> Sequence[SetupQuestion]:
    """What to ask before a new game, from the engine if it has questions (Kansas: the player count picks
    the outbreak table's row; Stormfury: how many play, each then placing her token in the game's own
    setup phase)."""
    return list(game.setup_questions()) if isinstance(game, HasSetupQuestions) else []
