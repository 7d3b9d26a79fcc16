"""Which painter draws which game: a painter turns one game's state into marks on the map.

A painter has three jobs: describe the board (``map_data(state)``: the printed board, or the board
as it stands when it grows), draw what the state adds on the map (``paint_state``) and fill the side
panel (``paint_side``); a painter that also gives them as pieces (:class:`PaintsPieces`) has a
roll repaint only the marks and lines it changed. A game's painter lives in its own folder
(``companion/games/<game>/painter.py``) and the frame names it (``"module:name"``, from the game's registry
spec): this toolkit names no game. A game without one gets :class:`BoardPainter` when its engine has
``board_for(state)`` (the board of its shape, a key to every symbol, nothing game-specific), else
:class:`GenericPainter`, which draws the board the game publishes through ``map_json``. So a new rule
set shows its board and risk before anyone writes its painter, and a game's own painter can start from
:class:`BoardPainter` and add its marks.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from companion.hexgrid import Hex
from companion.views.drawn import Drawn
from companion.views.projector.board import MapData, Spot
from companion.views.projector.key import paint_key
from companion.views.projector.layout import Layout, Rect
from companion.views.projector.pieces import Piece


@runtime_checkable
class HasBoard(Protocol):
    """What :class:`BoardPainter` reads of a game: its board as it stands in a state (said here, where it is
    used, so the toolkit needs no game's module)."""

    def board_for(self, state: Any) -> Any: ...


@runtime_checkable
class HasMapJson(Protocol):
    """What :class:`GenericPainter` reads of a game: its board as data."""

    def map_json(self) -> dict[str, Any]: ...


class GamePainter(Protocol):
    def map_data(self, state: Any = None) -> MapData:
        """The board to draw for ``state`` (asked again on every new state; drawn again only if it changed)."""
        ...

    def paint_state(self, surface: Any, layout: Layout, state: Any, overlay: bool = False) -> None: ...

    def paint_side(self, surface: Any, layout: Layout, rect: Rect, state: Any) -> None: ...


@runtime_checkable
class PaintsPieces(Protocol):
    """A painter that gives its marks and side panel as pieces (:mod:`companion.views.projector.pieces`),
    so a new state repaints only what changed. Its ``paint_state`` and ``paint_side`` must draw the same
    as its pieces (they remain for pictures drawn outside the renderer)."""

    def state_pieces(self, layout: Layout, state: Any, overlay: bool = False) -> list[Piece]: ...

    def side_pieces(self, layout: Layout, rect: Rect, state: Any) -> list[Piece]: ...


@runtime_checkable
class UsesDrawn(Protocol):
    """A painter that draws what the session worked out from the rules for a state (its game's extras and the
    seats' names, :class:`companion.views.drawn.Drawn`): the renderer hands it over with every new state, before
    asking for that state's marks, so the painter asks the rules nothing."""

    def use(self, drawn: Drawn) -> None: ...


class GenericPainter:
    """The board from ``game.map_json()`` (hexes with terrain and maybe a name, or cities with hexes);
    no state marks."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def map_data(self, state: Any = None) -> MapData:
        data: dict[str, Any] = self.game.map_json() if isinstance(self.game, HasMapJson) else {}
        terrain = {Hex(h["q"], h["r"]): str(h.get("terrain", "land")) for h in data.get("hexes", [])}
        places = [Spot(str(c.get("name", c.get("id", ""))), Hex(c["q"], c["r"]))
                  for c in data.get("cities", []) if "q" in c and "r" in c]
        named = {p.at for p in places}
        places += [Spot(str(h["name"]), Hex(h["q"], h["r"])) for h in data.get("hexes", [])
                   if h.get("name") and Hex(h["q"], h["r"]) not in named]
        return MapData(terrain, tuple(places))

    def paint_state(self, surface: Any, layout: Layout, state: Any, overlay: bool = False) -> None:
        return None

    def paint_side(self, surface: Any, layout: Layout, rect: Rect, state: Any) -> None:
        return None


class BoardPainter:
    """The board of any shape from ``game.board_for(state)``, and its key in the side panel.

    The base of a game's own painter: override ``paint_state`` (and ``paint_side``, calling
    ``paint_key`` where the key should go) and draw with the layout's places."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def map_data(self, state: Any = None) -> MapData:
        if state is None or not isinstance(self.game, HasBoard):
            return GenericPainter(self.game).map_data()
        return MapData.of(self.game.board_for(state), getattr(self.game, "title", ""))

    def paint_state(self, surface: Any, layout: Layout, state: Any, overlay: bool = False) -> None:
        return None

    def paint_side(self, surface: Any, layout: Layout, rect: Rect, state: Any) -> None:
        paint_key(surface, layout, rect, self.map_data(state))


class LoadsPainter(Protocol):
    """A game's own painter as the frame hands it (the games registry's ``PainterRef``): loaded on first use, by
    the games' side, so this toolkit imports no game."""

    def load(self) -> Any: ...


def painter_for(game: Any, painter: LoadsPainter | None = None) -> GamePainter:
    """``game``'s own painter (``painter``, as the frame gives it, loaded now, not before); else the shared one
    for its board (:class:`BoardPainter` for an engine with ``board_for``, else :class:`GenericPainter`).

    A painter whose module cannot be imported (an optional part missing) leaves the shared painter:
    the board still shows."""
    fallback: GamePainter = BoardPainter(game) if isinstance(game, HasBoard) else GenericPainter(game)
    if painter is None:
        return fallback
    try:
        made: type[GamePainter] = painter.load()
    except ImportError:
        return fallback
    return made(game)  # type: ignore[call-arg]
