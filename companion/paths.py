"""Where the data lives: the maps/ folder of a source checkout or the installed copy, and the group's own boards.

A group's own board (``companion board edit GAME``) is written to the configuration directory's ``maps/``
folder, and each game's loader takes a file from there before the shipped one, file by file: a group that
drew its own Kansas still plays the shipped Stormfury, and its Stormfury board still uses the shipped decks.
``COMPANION_MAPS`` overrides both (a folder holding every file), so a group can keep its corrected boards
anywhere; a loader given a folder explicitly (``maps=``, the tests) reads only that folder.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DEFAULT_CONFIG_DIR = Path("/etc/companion")
"""The folder of the default configuration file (/etc/companion/config.toml)."""


def maps_dir() -> Path:
    """The folder holding board and deck files (kansas.toml, stormfury.toml, ...)."""
    override = os.environ.get("COMPANION_MAPS")
    if override:
        return Path(override)
    checkout = Path(__file__).resolve().parent.parent / "maps"
    if checkout.is_dir():
        return checkout
    return Path(sys.prefix) / "share" / "storm-companion" / "maps"


def config_dir() -> Path:
    """The configuration directory: ``$COMPANION_CONFIG_DIR``, else /etc/companion (where config.toml is)."""
    override = os.environ.get("COMPANION_CONFIG_DIR")
    return Path(override) if override else DEFAULT_CONFIG_DIR


def group_maps_dir() -> Path:
    """Where ``companion board edit`` keeps the group's own boards: ``maps/`` in the configuration directory."""
    return config_dir() / "maps"


def map_source(name: str) -> tuple[str, Path]:
    """Which copy of the data file ``name`` is in force, and why: ``("COMPANION_MAPS", path)``,
    ``("group", path)`` for the group's own board, or ``("shipped", path)``."""
    if os.environ.get("COMPANION_MAPS"):
        return "COMPANION_MAPS", maps_dir() / name
    own = group_maps_dir() / name
    if own.is_file():
        return "group", own
    return "shipped", maps_dir() / name


def map_file(name: str, maps: Path | None = None) -> Path:
    """The data file ``name`` a loader reads: from ``maps`` when given, else the copy in force (:func:`map_source`)."""
    return maps / name if maps is not None else map_source(name)[1]
