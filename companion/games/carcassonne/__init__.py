"""Carcassonne with the fan expansion "Natural Disasters": the tiles laid, the followers, and the tornado, the
earthquake, the flood and the meteor, as a pure event-driven engine.

``load(maps)`` reads maps/carcassonne_tiles.toml and maps/carcassonne.toml and returns the engine. The package
declares itself to the game registry with ``SPEC``; its other names are imported on first use.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from companion.games.registry import GameSpec, lazy_exports

if TYPE_CHECKING:
    from companion.games.carcassonne.engine import CarcassonneGame

SPEC = GameSpec(
    key="carcassonne",
    title="Carcassonne: Natural Disasters",
    engine="companion.games.carcassonne:load",
    drawn="companion.games.carcassonne.drawn:drawn",
    painter="companion.games.carcassonne.painter:Painter",
    order=30,
)

__all__ = ["SPEC", "CarcState", "CarcassonneGame", "load"]

__getattr__ = lazy_exports(__name__, {"CarcassonneGame": "engine", "CarcState": "state"})


def load(maps: Path | None = None) -> CarcassonneGame:
    """The engine over the tiles and rule readings in ``maps`` (default: companion.paths.maps_dir())."""
    from companion.games.carcassonne.data import load_data
    from companion.games.carcassonne.engine import CarcassonneGame

    return CarcassonneGame(load_data(maps))
