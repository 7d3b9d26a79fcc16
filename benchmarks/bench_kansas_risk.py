"""How fast the exact Kansas tornado risk is: the overlay redraws it on every roll, the forecast ranks 16 choices.

A new chain (cold) computes the single-tornado risk from scratch, once per board and start line; the
box keeps them, so every later roll (warm) only combines them or walks the few moves left. Every cold
sample is a new game over a board loaded afresh, so nothing computed before is reused.

The overlay's per-roll row walks the states of played games once each, in order, on an engine loaded afresh
per game, as the box meets them: the chain keeps the risks of situations already met (a re-rolled move, an
undo), so asking one state again and again would time a lookup, not a roll.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from benchmarks._table import Row, summary, time_calls
from companion.games.kansas import load
from companion.games.kansas.risk import forecast_lines, forecast_options, phase_risk

COLD = 15


def _cold(ask: Callable[[Any], object]) -> list[float]:
    samples = []
    for _ in range(COLD):
        game = load()
        start = time.perf_counter()
        ask(game)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def _played(games: int = 3, events: int = 120) -> list[float]:
    """The overlay's question (``risk_map``) for every state of ``games`` played games, each state once and in
    order, on an engine loaded afresh per game (its first question, which builds the chain's tables of every
    start's walk, left out: that is the first overlay frame's, not a roll's)."""
    from benchmarks.bench_journal import scripted_events

    samples = []
    for seed in range(games):
        game = load()
        state = game.new_game({"players": 4})
        game.risk_map(state)
        for event in scripted_events(game, {"players": 4}, events, seed):
            state = game.apply(state, event)
            start = time.perf_counter()
            game.risk_map(state)
            samples.append((time.perf_counter() - start) * 1000)
    return samples


def run() -> list[Row]:
    game = load()
    rows: list[Row] = []
    rows += summary("kansas_risk", "phase of 4, cold", _cold(lambda g: phase_risk(g.chain, 4)), p99=5.0)
    phase_risk(game.chain, 4)
    rows += summary("kansas_risk", "phase of 4, warm", time_calls(lambda: phase_risk(game.chain, 4), 50), p99=20.0)
    rows += summary("kansas_risk", "each state of 3 played games once (overlay per roll)", _played(), p99=20.0)
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
