"""Age of Steam: Kansas Tornadoes -- the tornado phase and its damage markers, as a pure event-driven engine.

``load(maps)`` reads maps/kansas.toml and returns the engine. The package declares itself to the game
registry with ``SPEC``; its other names are imported on first use, so listing the games stays cheap.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from companion.games.registry import GameSpec, lazy_exports

if TYPE_CHECKING:
    from companion.games.kansas.engine import KansasGame

SPEC = GameSpec(
    key="kansas",
    title="Kansas Tornadoes",
    engine="companion.games.kansas:load",
    drawn="companion.games.kansas.drawn:drawn",
    painter="companion.games.kansas.painter:KansasPainter",
    risk_cli="companion.games.kansas.riskcli",
    risk_help="a tornado phase: P(hit) and expected markers per hex",
    order=10,
)

__all__ = ["ACTIONS", "LINES", "SPEC", "Board", "KansasGame", "KansasState", "Move", "Place", "Tornado",
           "add_risk_arguments", "cli_risk", "load"]

__getattr__ = lazy_exports(__name__, {
    "Board": "data", "Place": "data", "default_path": "data", "load_board": "data",
    "ACTIONS": "engine", "KansasGame": "engine",
    "add_risk_arguments": "riskcli", "cli_risk": "riskcli",
    "LINES": "state", "KansasState": "state", "Move": "state", "Tornado": "state",
})


def load(maps: Path | None = None) -> KansasGame:
    """The engine over the board in ``maps`` (default: companion.paths.maps_dir())."""
    from companion.games.kansas.data import default_path, load_board
    from companion.games.kansas.engine import KansasGame

    return KansasGame(load_board(default_path(maps)))
