"""How fast the exact Kansas tornado risk is: the overlay redraws it on every roll, the forecast ranks 16 choices.

A new chain (cold) computes the single-tornado risk from scratch, once per board and start line; the
box keeps them, so every later roll (warm) only combines them or walks the few moves left.
"""

from __future__ import annotations

from benchmarks._table import Row, summary, time_calls
from companion.dice import DiceRolled
from companion.games.kansas import load
from companion.games.kansas.risk import TornadoChain, forecast_lines, forecast_options, phase_risk, state_risk


def run() -> list[Row]:
    game = load()
    board = game.board
    rows: list[Row] = []
    cold = time_calls(lambda: phase_risk(TornadoChain(board), 4), 10)
    rows += summary("kansas_risk", "phase of 4, cold", cold, "< 500 ms")
    phase_risk(game.chain, 4)
    rows += summary("kansas_risk", "phase of 4, warm", time_calls(lambda: phase_risk(game.chain, 4), 50), "< 20 ms")
    state = game.new_game({"players": 4, "turn": 1})
    for event in (DiceRolled.of(("d8", 7)), DiceRolled.of(("d8", 3)), DiceRolled.of(("d6", 3), ("d6", 4))):
        state = game.apply(state, event)
    rows += summary("kansas_risk", "mid-tornado (overlay per roll)",
                    time_calls(lambda: state_risk(game, state), 50), "< 20 ms")
    forecasting = game.new_game({"players": 4, "turn": 1, "forecaster": 1})
    rows += summary("kansas_risk", "16 forecast choices, cold",
                    time_calls(lambda: forecast_options(type(game)(board), forecasting), 5), "< 1000 ms")
    forecast_options(game, forecasting)
    rows += summary("kansas_risk", "16 forecast choices, warm",
                    time_calls(lambda: forecast_options(game, forecasting), 30), "< 50 ms")
    rows += summary("kansas_risk", "2 forecast lines (place after the roll), cold",
                    time_calls(lambda: forecast_lines(type(game)(board), forecasting), 5), "< 1000 ms")
    forecast_lines(game, forecasting)
    rows += summary("kansas_risk", "2 forecast lines, warm",
                    time_calls(lambda: forecast_lines(game, forecasting), 30), "< 50 ms")
    return rows
