"""Decisions as menu options: what the buttons scroll through and the projector's cursor points at.

An engine that can list its legal decisions exposes ``choices(state)``; each item becomes an
:class:`Option` with a short label for the OLED, the :class:`~companion.dice.Choice` event it
sends, and the hex it concerns (if any) so the projector's cursor can sit on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.dice import Choice, Prompt
from companion.hexgrid import Hex


@dataclass(frozen=True)
class Option:
    label: str
    event: Choice
    hex: Hex | None = None


def _hex_of(args: Mapping[str, Any]) -> Hex | None:
    q, r = args.get("q"), args.get("r")
    if isinstance(q, int) and isinstance(r, int):
        return Hex(q, r)
    return None


def options_for(game: Any, state: Any, prompt: Prompt) -> list[Option]:
    """The decisions to offer now: the engine's own list if it has one, else one per prompt action
    (with no details)."""
    lister = getattr(game, "choices", None)
    if callable(lister):
        return [_option(item) for item in lister(state)]
    return [Option(action, Choice(action, {})) for action in prompt.actions]


def _option(item: Any) -> Option:
    if isinstance(item, Option):
        return item
    if isinstance(item, Choice):
        label = " ".join([item.action, *(str(v) for v in item.args.values())])
        return Option(label, item, _hex_of(item.args))
    if len(item) == 3:  # (label, event, hex the decision concerns)
        label, event, where = item
        return Option(str(label), event, where)
    label, event = item
    return Option(str(label), event, _hex_of(event.args))


def setup_questions(game: Any) -> Sequence[tuple[str, str, Sequence[Any]]]:
    """What to ask before a new game: (option name, label, values), from the engine if it has questions
    (Kansas: the player count picks the outbreak table's row; Stormfury: how many play, each then
    placing her token in the game's own setup phase)."""
    own = getattr(game, "setup_questions", None)
    return list(own()) if callable(own) else []
