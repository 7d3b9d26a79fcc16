"""Where the data lives: the maps/ folder of a source checkout, or the installed copy.

``COMPANION_MAPS`` overrides both, so a group can keep its corrected boards anywhere.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def maps_dir() -> Path:
    """The folder holding board and deck files (kansas.toml, stormfury.toml, ...)."""
    override = os.environ.get("COMPANION_MAPS")
    if override:
        return Path(override)
    checkout = Path(__file__).resolve().parent.parent / "maps"
    if checkout.is_dir():
        return checkout
    return Path(sys.prefix) / "share" / "storm-companion" / "maps"
