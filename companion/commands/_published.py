"""What an engine publishes about its printed game (board, decks), shared by ``map`` and ``cards``."""

from __future__ import annotations

from typing import Any

from companion.errors import CompanionError
from companion.games import load_game


def published(key: str, hook: str, what: str) -> tuple[Any, dict[str, Any]]:
    """The engine for ``key`` and the data its ``hook`` (``map_json``, ``cards_json``) returns; a game
    without that hook is a one-line error ("kansas has no card decks")."""
    game = load_game(key)
    dump = getattr(game, hook, None)
    if dump is None:
        raise CompanionError(f"{key} has no {what}")
    return game, dump()
