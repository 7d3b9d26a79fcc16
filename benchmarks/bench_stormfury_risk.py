"""How fast the exact Stormfury forecast risk is: the team argues over it every turn, so it must be instant."""

from __future__ import annotations

from dataclasses import replace

from benchmarks._table import Row, summary, time_calls
from companion.games.stormfury import load
from companion.games.stormfury.risk import forecast_risk
from companion.hexgrid import Hex


def run() -> list[Row]:
    game = load()
    board = game.board
    forecast = ("O3", "O13", "O5", "O9", "O15")
    rows: list[Row] = []
    for category, draws in ((2, 60), (5, 120)):
        state = replace(game.new_game({}), centre=Hex(7, 5), category=category, forecast=forecast, phase="players")
        samples = time_calls(lambda s=state: forecast_risk(board, s, forecast), 30)
        rows += summary("stormfury_risk", f"cat {category} ({draws} draws)", samples, "< 50 ms")
    return rows
