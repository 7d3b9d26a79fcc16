"""Which painter draws which game: a painter turns one game's state into marks on the map.

A painter has three jobs: describe the printed board (``map_data``), draw what the state adds on
the map (``paint_state``) and fill the side panel (``paint_side``). Games without a painter of
their own get the generic one, which draws the board a game publishes through ``map_json`` and
nothing more, so a new rule set shows its board and risk before anyone writes its painter.
"""

from __future__ import annotations

from typing import Any, Protocol

from companion.games.base import HasMapJson
from companion.hexgrid import Hex
from companion.views.projector.board import MapData, Place
from companion.views.projector.layout import Layout, Rect


class GamePainter(Protocol):
    def map_data(self) -> MapData: ...

    def paint_state(self, surface: Any, layout: Layout, state: Any, overlay: bool = False) -> None: ...

    def paint_side(self, surface: Any, layout: Layout, rect: Rect, state: Any) -> None: ...


class GenericPainter:
    """The board from ``game.map_json()`` (hexes with terrain and maybe a name, or cities with hexes);
    no state marks."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def map_data(self) -> MapData:
        data: dict[str, Any] = self.game.map_json() if isinstance(self.game, HasMapJson) else {}
        terrain = {Hex(h["q"], h["r"]): str(h.get("terrain", "land")) for h in data.get("hexes", [])}
        places = [Place(str(c.get("name", c.get("id", ""))), Hex(c["q"], c["r"]))
                  for c in data.get("cities", []) if "q" in c and "r" in c]
        named = {p.hex for p in places}
        places += [Place(str(h["name"]), Hex(h["q"], h["r"])) for h in data.get("hexes", [])
                   if h.get("name") and Hex(h["q"], h["r"]) not in named]
        return MapData(terrain, tuple(places))

    def paint_state(self, surface: Any, layout: Layout, state: Any, overlay: bool = False) -> None:
        return None

    def paint_side(self, surface: Any, layout: Layout, rect: Rect, state: Any) -> None:
        return None


def painter_for(game: Any) -> GamePainter:
    """The painter the game's registry spec names (imported now, not before), else the generic one.

    A painter whose module cannot be imported (an optional part missing) leaves the generic painter:
    the board still shows."""
    from companion.games import registry

    key = getattr(game, "key", "")
    reference = registry.specs()[key].painter if key in registry.specs() else ""
    if not reference:
        return GenericPainter(game)
    try:
        painter: type[GamePainter] = registry.resolve(reference)
    except ImportError:
        return GenericPainter(game)
    return painter(game)  # type: ignore[call-arg]
