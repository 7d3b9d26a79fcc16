"""Project Stormfury: the cooperative hurricane, as a pure event-driven engine.

``load(maps)`` reads maps/stormfury.toml and maps/stormfury_cards.toml and returns the engine. The
package declares itself to the game registry with ``SPEC``; its other names are imported on first use.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from companion.games.registry import GameSpec, lazy_exports

if TYPE_CHECKING:
    from companion.games.stormfury.engine import StormfuryGame

SPEC = GameSpec(
    key="stormfury",
    title="Project Stormfury",
    engine="companion.games.stormfury:load",
    drawn="companion.games.stormfury.drawn:drawn",
    painter="companion.games.stormfury.painter:StormfuryPainter",
    risk_cli="companion.games.stormfury.riskcli",
    risk_help="a hurricane phase: P(hit) and expected damage per city and road",
    order=20,
)

__all__ = ["ACTIONS", "ROLES", "SPEC", "Board", "Damage", "Player", "StormState", "StormfuryGame", "TurnLog",
           "add_risk_arguments", "cli_risk", "load"]

__getattr__ = lazy_exports(__name__, {
    "Board": "data", "default_paths": "data", "load_board": "data",
    "ACTIONS": "engine", "StormfuryGame": "engine",
    "add_risk_arguments": "riskcli", "cli_risk": "riskcli",
    "ROLES": "state", "Damage": "state", "Player": "state", "StormState": "state", "TurnLog": "state",
})


def load(maps: Path | None = None) -> StormfuryGame:
    """The engine over the board and decks in ``maps`` (default: companion.paths.maps_dir())."""
    from companion.games.stormfury.data import default_paths, load_board
    from companion.games.stormfury.engine import StormfuryGame

    return StormfuryGame(load_board(*default_paths(maps)))
