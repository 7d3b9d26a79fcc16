"""What a frame hands the projector besides the state: the game's painter and the risk map, worked out here, on
the session's side, so the projector toolkit neither imports nor names a game, and asks the rules nothing.

Both are worked out once: the painter once per game (a :class:`~companion.games.registry.PainterRef` to its
spec's ``"module:name"``, imported by the registry when the projector first draws it, so the session imports no
painter and no pygame: a box without a projector never pays for one), the risk map once per state and only while
the overlay is shown (the one frame built again and again for the same state, as the status strip changes,
reuses it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games import registry
from companion.games.base import HasRiskMap
from companion.games.registry import PainterRef

_painted: tuple[Any, PainterRef | None] | None = None
"""The last game asked and its painter."""
_risked: tuple[Any, Any, Mapping[Any, float]] | None = None
"""The last game and state asked and their risk map."""


def painter_ref(game: Any) -> PainterRef | None:
    """The painter ``game``'s registry spec names, to be imported when first drawn; None for the shared painter
    of its board (a game without a spec, or whose spec names none)."""
    global _painted
    if _painted is not None and _painted[0] is game:
        return _painted[1]
    key = getattr(game, "key", "")
    known = registry.specs()
    name = known[key].painter if key in known else ""
    painter = PainterRef(name) if name else None
    _painted = (game, painter)
    return painter


def risk_of(game: Any, state: Any) -> Mapping[Any, float]:
    """How likely each place is to be hit in ``state`` (empty for a game without a risk to compute)."""
    global _risked
    if _risked is not None and _risked[0] is game and _risked[1] is state:
        return _risked[2]
    risk: Mapping[Any, float] = game.risk_map(state) if isinstance(game, HasRiskMap) else {}
    _risked = (game, state, risk)
    return risk


def painter_of(game: Any) -> Any:
    """The painter the projector would draw ``game`` with (its own, else the shared one of its board), for a
    picture drawn outside the renderer. Imports the projector toolkit (and pygame) only when called."""
    from companion.views.projector.painters import painter_for

    return painter_for(game, painter_ref(game))
