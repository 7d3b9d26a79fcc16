"""How fast the exact Stormfury forecast risk is: the team argues over it every turn, so it must be instant.

Cold: every sample asks a board loaded afresh (the risk keeps nothing between calls, so every call is
cold; the fresh board also drops the board's own cached hex set)."""

from __future__ import annotations

import time
from dataclasses import replace

from benchmarks._table import Row, summary
from companion.games.stormfury import load
from companion.games.stormfury.risk import forecast_risk
from companion.hexgrid import Hex

FORECAST = ("O3", "O13", "O5", "O9", "O15")


def run() -> list[Row]:
    rows: list[Row] = []
    for category, draws, limit in ((2, 60, 50.0), (5, 120, 5.0)):
        samples = []
        for _ in range(30):
            game = load()
            state = replace(game.new_game({}), centre=Hex(7, 5), category=category, forecast=FORECAST,
                            phase="players")
            start = time.perf_counter()
            forecast_risk(game.board, state, FORECAST)
            samples.append((time.perf_counter() - start) * 1000)
        rows += summary("stormfury_risk", f"cat {category} ({draws} draws), cold", samples, p99=limit)
    return rows
