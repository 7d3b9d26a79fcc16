"""The pure rule engines, one package per game, found by key.

Each game package exposes ``load(maps: Path | None = None) -> Game`` that reads its board and
deck data from maps/ and returns an engine keeping the :class:`companion.games.base.Game`
contract. Nothing here does I/O beyond reading that data once.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from companion.errors import CompanionError
from companion.games.base import Game

GAME_KEYS: tuple[str, ...] = ("kansas", "stormfury")


def load_game(key: str, maps: Path | None = None) -> Game:
    """The engine for ``key``; an unknown key is a one-line error listing the known ones."""
    if key not in GAME_KEYS:
        raise CompanionError(f"unknown game {key!r} (known: {', '.join(GAME_KEYS)})")
    module = importlib.import_module(f"companion.games.{key}")
    return module.load(maps)
