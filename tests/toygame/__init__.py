"""A toy tile game on an open square grid, the way a real game package is built, kept under tests/.

It proves a game is one package: a ``SPEC``, an engine the session drives through the real journal, a
board of the square shape the projector draws with its shared parts, a D6 roll and a choice pointing
at a cell. The suite registers it with ``companion.games.registry.register`` and removes it after.

Rules: the start tile (a city) lies at the centre. Each turn a D6 draws the next tile (1-2 field,
3-4 road, 5 city, 6 monastery), then the table lays it on an empty cell next to a laid one. The game
ends when ``tiles`` tiles (option, 1 to 6, default 3) are laid. Risk: a D6 fire after the game burns a
field on 5 or 6 and any other tile on 6.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.games.registry import GameSpec

SPEC = GameSpec(key="toy", title="Toy Tiles", engine="tests.toygame:load", order=900)
"""The shared painter draws it (no painter of its own)."""

PAINTED = GameSpec(key="toypaint", title="Toy Tiles, painted", engine="tests.toygame:load_painted",
                   painter="tests.toygame.painter:Painter", order=901)
"""The same game with a painter of its own built on the shared parts."""


def load(maps: Path | None = None) -> Any:
    from tests.toygame.engine import ToyGame

    return ToyGame()


def load_painted(maps: Path | None = None) -> Any:
    from tests.toygame.engine import ToyGame

    return ToyGame(key="toypaint", title=PAINTED.title)
