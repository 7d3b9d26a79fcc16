"""What the Kansas painter draws from the rules, worked out once per state on the session's side.

The painter draws the state's markers and tracks itself (they are the state's facts); what it cannot read off
the state is the rules' answer, given here as plain data (:class:`companion.views.drawn.Drawn`'s extras):

- ``candidates``: while the forecaster picks where along the fixed line a tornado starts, value -> start hex,
  read from the engine's own choices, so the map rings exactly what the buttons offer;
- ``ranked``: the forecaster's open choice, best first, as (label, markers it is expected to put on cities and
  towns), from the engine's exact risk: first the line (its place picked after the other line's roll, as the
  rules order it), then the place along it;
- ``on_cities``: the damage markers standing on cities;
- ``prompt`` and ``happened``: what is asked now and what just happened, in the engine's words.
"""

from __future__ import annotations

from typing import Any

from companion.games.kansas.engine import KansasGame
from companion.games.kansas.state import LINES, KansasState
from companion.hexgrid import Hex


def candidates(game: KansasGame, state: KansasState) -> dict[int, Hex]:
    """While the forecaster picks where along the fixed line a tornado starts: value -> start hex."""
    if state.phase != "tornado" or game.need(state) != "forecast_at":
        return {}
    return {c.args["value"]: Hex(c.args["q"], c.args["r"]) for c in (o.event for o in game.choices(state))}


def ranked(game: KansasGame, state: KansasState, starts: dict[int, Hex]) -> tuple[tuple[str, float], ...]:
    """The forecaster's open choice, best first, with the markers it is expected to put on cities and towns;
    empty when no forecast choice is open (``starts``: :func:`candidates` of the state)."""
    if state.phase != "forecast" and not starts:
        return ()
    # the risk module (and numpy) imported only once a forecast is open: a resumed game gets ready without them
    from companion.games.kansas import risk

    if state.phase == "forecast":
        return tuple((f"fix {LINES[o.line]}", o.on_places) for o in risk.forecast_lines(game, state))
    return tuple((f"{LINES[o.line]} {o.value}", o.on_places) for o in risk.forecast_options(game, state))


def drawn(game: KansasGame, state: KansasState) -> dict[str, Any]:
    """The extras of ``state`` (see the module's docstring)."""
    starts = candidates(game, state)
    prompt = game.prompt(state)
    return {
        "candidates": starts,
        "ranked": ranked(game, state, starts),
        "on_cities": sum(n for h, n in state.markers if game.is_city(state, h)),
        "prompt": prompt.text,
        "happened": tuple(state.recent) if isinstance(state.recent, tuple) else tuple(game.recap(state)),
    }
