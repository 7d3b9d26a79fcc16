"""Age of Steam: Kansas Tornadoes -- the tornado phase and its damage markers, as a pure event-driven engine.

``load(maps)`` reads maps/kansas.toml and returns the engine.
"""

from __future__ import annotations

from pathlib import Path

from companion.games.kansas.data import Board, Place, default_path, load_board
from companion.games.kansas.engine import ACTIONS, KansasGame
from companion.games.kansas.riskcli import add_risk_arguments, cli_risk
from companion.games.kansas.state import LINES, KansasState, Move, Tornado

__all__ = ["ACTIONS", "LINES", "Board", "KansasGame", "KansasState", "Move", "Place", "Tornado",
           "add_risk_arguments", "cli_risk", "load"]


def load(maps: Path | None = None) -> KansasGame:
    """The engine over the board in ``maps`` (default: companion.paths.maps_dir())."""
    return KansasGame(load_board(default_path(maps)))
