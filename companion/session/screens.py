"""The two screens of the box, built in one place from the session's state: the OLED's Panel and the projector's
Frame.

Both are values the views only draw: the panel is the table's words (:func:`~companion.session.panel_build.
build_panel`, the seats said by their names), the frame is that panel with the game, its state, the option the
cursor is on, and what the projector needs from the rules worked out on this side
(:mod:`companion.session.drawn`: the painter, the risk map, the painter's extras and the seats' names), as
plain data. ``Session._compose`` calls :func:`compose`; nothing else builds either for a running game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import Game, Option
from companion.games.registry import PainterRef
from companion.places import Place
from companion.session.choices import cursor
from companion.session.drawn import drawn_of, painter_ref, risk_of
from companion.session.game_run import GameRun
from companion.session.panel_build import build_panel
from companion.session.request import OpenRequest
from companion.session.seats import named, seat_names
from companion.views.drawn import Drawn
from companion.views.panel import Menu, Panel

__all__ = ["Frame", "compose"]


@dataclass(frozen=True)
class Frame:
    """Everything a view draws: the panel plus the game and its state for the projector's map, with what the
    projector needs from the rules worked out here (:mod:`companion.session.drawn`), as plain data."""

    panel: Panel
    game: Game[Any] | None = None
    state: Any = None
    cursor: Place | None = None
    overlay: bool = False
    seats: tuple[str, ...] = ()
    """The names the table gave its seats (empty: the engine's numbers), said on the projector as on the OLED."""
    painter: PainterRef | None = field(default=None, init=False)
    """The game's own painter, loaded when first drawn (None: the shared painter of its board)."""
    risk: Mapping[Any, float] = field(default_factory=dict, init=False, compare=False)
    """How likely each place is to be hit, while the overlay is shown."""

    def __post_init__(self) -> None:
        # Both follow from the game, state and overlay, so they are never given (``replace`` works them out again).
        if self.game is not None:
            object.__setattr__(self, "painter", painter_ref(self.game))
        if self.overlay and self.game is not None and self.state is not None:
            object.__setattr__(self, "risk", risk_of(self.game, self.state))

    @property
    def drawn(self) -> Drawn:
        """What the game's painter draws this state with (the rules' answers its spec declares and the seats'
        names): worked out once per state, when a view first asks, so a box without a projector never does."""
        return drawn_of(self.game, self.state, self.seats)


def compose(run: GameRun | None, request: OpenRequest, *, menu: Menu | None, options: Sequence[Option],
            wanted: tuple[str, ...], tower: str, sources: tuple[tuple[str, str], ...], message: str,
            notices: tuple[str, ...], overlay: bool, listed: Sequence[int] = (),
            menu_place: Place | None = None) -> tuple[Panel, Frame]:
    """The panel and frame for this moment: ``menu`` an open menu (it hides the prompt; the projector rings
    ``menu_place``, the place of its item under the cursor), else a decision's ``options`` are the menu (only those
    ``listed`` while a place's short list is open), and the projector's cursor is on the option ``request.choice``
    points at."""
    panel = build_panel(run, request, menu=menu, options=options, wanted=wanted, tower=tower, sources=sources,
                        message=message, notices=notices, listed=listed)
    place = options[cursor(options, request.choice)].place if options else menu_place
    if run is None:
        return panel, Frame(panel, None, None, place, overlay)
    seats = seat_names(run.options)
    panel = named(panel, seats)
    return panel, Frame(panel, run.game, run.state, place, overlay, seats)
