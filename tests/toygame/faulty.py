"""The toy game with a bug that can be switched on: its engine raises where a real engine's bug would, at the
start of a game, on every event (so a resume's replay fails too) or while its prompt is drawn."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.dice import Event, Prompt
from companion.games.registry import GameSpec
from tests.toygame.engine import ToyGame, ToyState

SPEC = GameSpec(key="faulty", title="Faulty Tiles", engine="tests.toygame.faulty:load", order=902)

FAULTS: set[str] = set()
"""Where the engine fails now: "start", "apply" (every event, a replay's too), "prompt", "six" (a D6 of 6)."""


class FaultyGame(ToyGame):
    def __init__(self) -> None:
        super().__init__(key="faulty", title=SPEC.title)

    def new_game(self, options: Mapping[str, Any]) -> ToyState:
        if "start" in FAULTS:
            raise KeyError("tiles")
        return super().new_game(options)

    def apply(self, state: ToyState, event: Event) -> ToyState:
        if "apply" in FAULTS:
            raise ZeroDivisionError("division by zero")
        if "six" in FAULTS and not state.drawn and getattr(event, "dice", ()) and event.dice[0].value == 6:
            raise IndexError("tuple index out of range")
        return super().apply(state, event)

    def prompt(self, state: ToyState) -> Prompt:
        if "prompt" in FAULTS:
            raise AttributeError("'NoneType' object has no attribute 'short'")
        return super().prompt(state)


def load(maps: Path | None = None) -> Any:
    return FaultyGame()
