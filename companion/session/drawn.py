"""What a frame hands the projector besides the state: the game's painter, the risk map and what the painter
draws from the rules, worked out here, on the session's side, so the projector toolkit neither imports nor names
a game, and neither it nor a game's painter asks the rules anything.

Each is worked out once: the painter once per game (a :class:`~companion.games.registry.PainterRef` to its
spec's ``"module:name"``, imported by the registry when the projector first draws it, so the session imports no
painter and no pygame: a box without a projector never pays for one), the risk map once per state and only while
the overlay is shown, the painter's extras (:class:`~companion.views.drawn.Drawn`, by the function the game's spec
names) once per state and only when a view asks (a box without a projector never ranks a forecast). The one frame
built again and again for the same state, as the status strip changes, reuses them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.conforms import conforms
from companion.games import registry
from companion.games.base import HasRiskMap
from companion.games.registry import GameSpec, PainterRef
from companion.views.drawn import Drawn

_spec: tuple[Any, GameSpec | None] | None = None
"""The last game asked and its registry spec (None: a game without one)."""
_risked: tuple[Any, Any, Mapping[Any, float]] | None = None
"""The last game and state asked and their risk map."""
_drawn: tuple[Any, Any, tuple[str, ...], Drawn] | None = None
"""The last game, state and seat names asked and what the painter draws with."""


def _spec_of(game: Any) -> GameSpec | None:
    """``game``'s registry spec, looked up once per game (the painter and the extras both come from it)."""
    global _spec
    if _spec is None or _spec[0] is not game:
        _spec = (game, registry.specs().get(getattr(game, "key", "")))
    return _spec[1]


def painter_ref(game: Any) -> PainterRef | None:
    """The painter ``game``'s registry spec names, to be imported when first drawn; None for the shared painter
    of its board (a game without a spec, or whose spec names none)."""
    spec = _spec_of(game)
    return PainterRef(spec.painter) if spec is not None and spec.painter else None


def risk_of(game: Any, state: Any) -> Mapping[Any, float]:
    """How likely each place is to be hit in ``state`` (empty for a game without a risk to compute)."""
    global _risked
    if _risked is not None and _risked[0] is game and _risked[1] is state:
        return _risked[2]
    risk: Mapping[Any, float] = game.risk_map(state) if conforms(game, HasRiskMap) else {}
    _risked = (game, state, risk)
    return risk


def extras_function(game: Any) -> Callable[[Any, Any], Mapping[str, Any]] | None:
    """The function ``game``'s registry spec names for its painter's extras (None: it names none)."""
    spec = _spec_of(game)
    return registry.resolve(spec.drawn) if spec is not None and spec.drawn else None


def drawn_of(game: Any, state: Any, seats: tuple[str, ...] = ()) -> Drawn:
    """What ``game``'s painter draws ``state`` with: the rules' answers its spec declares, and the seats' names."""
    global _drawn
    if _drawn is not None and _drawn[0] is game and _drawn[1] is state and _drawn[2] == seats:
        return _drawn[3]
    function = extras_function(game) if game is not None and state is not None else None
    drawn = Drawn(dict(function(game, state)) if function is not None else {}, tuple(seats))
    _drawn = (game, state, tuple(seats), drawn)
    return drawn


def painter_of(game: Any, state: Any = None, seats: tuple[str, ...] = ()) -> Any:
    """The painter the projector would draw ``game`` with (its own, else the shared one of its board), for a
    picture drawn outside the renderer; given ``state``, handed what it draws that state with (as the renderer
    does). Imports the projector toolkit (and pygame) only when called."""
    from companion.views.projector.painters import UsesDrawn, painter_for

    painter = painter_for(game, painter_ref(game))
    if state is not None and isinstance(painter, UsesDrawn):
        painter.use(drawn_of(game, state, seats))
    return painter
