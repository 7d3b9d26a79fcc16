"""How fast the exact Kansas tornado risk is: the overlay redraws it on every roll, the forecast ranks 16 choices.

A new chain (cold) computes the single-tornado risk from scratch, once per board and start line; the
box keeps them, so every later roll (warm) only combines them or walks the few moves left. Every cold
sample is a new game over a board loaded afresh, so nothing computed before is reused.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from benchmarks._table import Row, summary, time_calls
from companion.dice import DiceRolled
from companion.games.kansas import load
from companion.games.kansas.risk import forecast_lines, forecast_options, phase_risk, state_risk

COLD = 15


def _cold(ask: Callable[[Any], object]) -> list[float]:
    samples = []
    for _ in range(COLD):
        game = load()
        start = time.perf_counter()
        ask(game)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def run() -> list[Row]:
    game = load()
    rows: list[Row] = []
    rows += summary("kansas_risk", "phase of 4, cold", _cold(lambda g: phase_risk(g.chain, 4)), p99=5.0)
    phase_risk(game.chain, 4)
    rows += summary("kansas_risk", "phase of 4, warm", time_calls(lambda: phase_risk(game.chain, 4), 50), p99=20.0)
    state = game.new_game({"players": 4, "turn": 1})
    for event in (DiceRolled.of(("d8", 7)), DiceRolled.of(("d8", 3)), DiceRolled.of(("d6", 3), ("d6", 4))):
        state = game.apply(state, event)
    rows += summary("kansas_risk", "mid-tornado (overlay per roll)",
                    time_calls(lambda: state_risk(game, state), 50), p99=20.0)
    forecasting = game.new_game({"players": 4, "turn": 1, "forecaster": 1})

    def ranked(g: Any) -> None:
        forecast_options(g, forecasting)
        forecast_lines(g, forecasting)

    rows += summary("kansas_risk", "16 forecast choices + the 2 lines ranked, cold", _cold(ranked), p99=20.0)
    ranked(game)
    rows += summary("kansas_risk", "16 forecast choices, warm",
                    time_calls(lambda: forecast_options(game, forecasting), 30), p99=50.0)
    rows += summary("kansas_risk", "2 forecast lines, warm",
                    time_calls(lambda: forecast_lines(game, forecasting), 30), p99=50.0)
    return rows
