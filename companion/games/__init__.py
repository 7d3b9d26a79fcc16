"""The pure rule engines, one package per game, found by the registry (:mod:`companion.games.registry`).

Each game package declares a ``SPEC`` and a loader ``load(maps: Path | None = None) -> Game`` that
reads its board and deck data from maps/ and returns an engine keeping the
:class:`companion.games.base.Game` contract. Nothing here does I/O beyond reading that data once.
"""

from __future__ import annotations

from companion.games.registry import keys, load_game

__all__ = ["game_keys", "load_game"]


def game_keys() -> tuple[str, ...]:
    """The keys of every known game, in menu order."""
    return keys()
