"""What the Stormfury painter draws from the rules, worked out once per state on the session's side.

The painter draws the state's marks itself (damage, defences, the storm's track are the state's facts); what it
cannot read off the state is the rules' answer, given here as plain data (:class:`companion.views.drawn.Drawn`'s
extras):

- ``paths``: (card id, hexes from the centre) for each forecast card, as if drawn first, walked with the
  engine's own :func:`~companion.games.stormfury.storm.walk`, so the map shows exactly where each card would
  take the centre, edge rule included (in the player and hurricane phases; else empty);
- ``turn``: the expert whose turn it is, by name ("" outside the player phase), and ``reminders``, what she
  does with her cards;
- ``prompt`` and ``happened``: what is asked now and what just happened, in the engine's words;
- at the end, ``summary`` (damage by city and by kind), ``ending`` (why it ended) and ``final_lines``.
"""

from __future__ import annotations

from typing import Any

from companion.games.stormfury import storm
from companion.games.stormfury.engine import StormfuryGame
from companion.games.stormfury.state import StormState
from companion.hexgrid import Hex


def forecast_paths(game: StormfuryGame, state: StormState) -> tuple[tuple[str, tuple[Hex, ...]], ...]:
    """(card id, hexes from the centre) for each forecast card, as if drawn first."""
    if state.phase not in ("players", "hurricane"):
        return ()
    board = game.board
    return tuple((cid, (state.centre, *storm.walk(board, state.centre, (board.card(cid),)))) for cid in state.forecast)


def drawn(game: StormfuryGame, state: StormState) -> dict[str, Any]:
    """The extras of ``state`` (see the module's docstring)."""
    role = game.turn_of(state)
    extras: dict[str, Any] = {
        "paths": forecast_paths(game, state),
        "turn": role.name if role is not None else "",
        "reminders": tuple(game.reminders(state)),
        "prompt": game.prompt(state).text,
        "happened": tuple(state.recent) if isinstance(state.recent, tuple) else tuple(game.recap(state)),
    }
    if state.phase == "over":
        extras.update(summary=game.summary(state), ending=game.ending(state), final_lines=game.final_lines(state))
    return extras
