"""What an engine publishes about its printed game (board, decks), shared by ``map`` and ``cards``."""

from __future__ import annotations

from typing import Any

from companion.errors import CompanionError
from companion.games import load_game
from companion.games.base import HasCardsJson, HasMapJson


def published(key: str, hook: str, what: str) -> tuple[Any, dict[str, Any]]:
    """The engine for ``key`` and the data its ``hook`` (``map_json``, ``cards_json``) returns; a game
    without that hook is a one-line error ("kansas has no card decks")."""
    game = load_game(key)
    if hook == "map_json" and isinstance(game, HasMapJson):
        return game, game.map_json()
    if hook == "cards_json" and isinstance(game, HasCardsJson):
        return game, game.cards_json()
    raise CompanionError(f"{key} has no {what}")
