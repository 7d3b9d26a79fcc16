"""Project Stormfury: the cooperative hurricane, as a pure event-driven engine.

``load(maps)`` reads maps/stormfury.toml and maps/stormfury_cards.toml and returns the engine.
"""

from __future__ import annotations

from pathlib import Path

from companion.games.stormfury.data import Board, default_paths, load_board
from companion.games.stormfury.engine import ACTIONS, StormfuryGame
from companion.games.stormfury.riskcli import add_risk_arguments, cli_risk
from companion.games.stormfury.state import ROLES, Damage, Player, StormState, TurnLog

__all__ = ["ACTIONS", "ROLES", "Board", "Damage", "Player", "StormState", "StormfuryGame", "TurnLog",
           "add_risk_arguments", "cli_risk", "load"]


def load(maps: Path | None = None) -> StormfuryGame:
    """The engine over the board and decks in ``maps`` (default: companion.paths.maps_dir())."""
    return StormfuryGame(load_board(*default_paths(maps)))
