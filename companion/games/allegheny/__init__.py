"""Age of Rail: Allegheny -- the map's special sequence (opening auctions, the P&LE, the automatic metro).

``load(maps)`` reads maps/allegheny.toml and returns the engine. The package declares itself to the game
registry with ``SPEC``; its other names are imported on first use, so listing the games stays cheap.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from companion.games.registry import GameSpec, lazy_exports

if TYPE_CHECKING:
    from companion.games.allegheny.engine import AlleghenyGame

SPEC = GameSpec(
    key="allegheny",
    title="Age of Rail: Allegheny",
    engine="companion.games.allegheny:load",
    drawn="companion.games.allegheny.drawn:drawn",
    painter="companion.games.allegheny.painter:Painter",
    order=30,
)

__all__ = ["SPEC", "AlleghenyGame", "AlleghenyState", "Board", "load", "load_board"]

__getattr__ = lazy_exports(__name__, {
    "Board": "data", "default_path": "data", "load_board": "data",
    "AlleghenyGame": "engine",
    "AlleghenyState": "state",
})


def load(maps: Path | None = None) -> AlleghenyGame:
    """The engine over the map in ``maps`` (default: companion.paths.maps_dir())."""
    from companion.games.allegheny.data import default_path, load_board
    from companion.games.allegheny.engine import AlleghenyGame

    return AlleghenyGame(load_board(default_path(maps)))
