"""Age of Industry: Japan and Minnesota -- the box's ledger of what is built, the Japan card display, the sea lanes,
Minnesota's markets and the rail-link ledger, as a pure event-driven engine.

``load(maps)`` reads maps/industry.toml (the readings both maps share) and the two maps,
maps/industry_japan.toml and maps/industry_minnesota.toml; the setup question "map" picks one per game. The
package declares itself to the game registry with ``SPEC``; its other names are imported on first use.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from companion.games.registry import GameSpec, lazy_exports

if TYPE_CHECKING:
    from companion.games.industry.engine import IndustryGame

SPEC = GameSpec(
    key="industry",
    title="Age of Industry: Japan and Minnesota",
    engine="companion.games.industry:load",
    drawn="companion.games.industry.drawn:drawn",
    painter="companion.games.industry.painter:IndustryPainter",
    order=30,
)

__all__ = ["SPEC", "Board", "IndustryGame", "IndustryState", "Rules", "load", "load_all"]

__getattr__ = lazy_exports(__name__, {
    "Board": "data", "Rules": "data", "load_all": "data",
    "IndustryGame": "engine",
    "IndustryState": "state",
})


def load(maps: Path | None = None) -> IndustryGame:
    """The engine over the maps in ``maps`` (default: each file's copy in force, companion.paths.map_file)."""
    from companion.games.industry.data import load_all
    from companion.games.industry.engine import IndustryGame

    rules, boards = load_all(maps)
    return IndustryGame(rules, boards)
