"""``companion risk kansas ...``: the exact risk of a tornado phase from the command line."""

from __future__ import annotations

import argparse
import json

from companion.errors import CompanionError, RuleError
from companion.games.kansas.state import LINES, KansasState


def add_risk_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", required=True, type=int, metavar="P", help="4, 5 or 6 players")
    parser.add_argument("--turn", required=True, type=int, metavar="T", help="the turn whose tornado phase is coming")
    parser.add_argument("--forecast", action="store_true",
                        help="also rank the choices a forecasting player could make (by markers on cities and towns): "
                             "each line, its place picked after the other line's roll, and each line and place")
    parser.add_argument("--json", action="store_true", help="print JSON")


def cli_risk(args: argparse.Namespace) -> int:
    from companion.games.kansas import load
    from companion.games.kansas.risk import forecast_lines, forecast_options, state_risk

    game = load(getattr(args, "maps", None))
    try:
        state = game.new_game({"players": args.players, "turn": args.turn})
    except RuleError as exc:
        raise CompanionError(str(exc)) from None
    risk = state_risk(game, state)
    board = game.board
    options, lines = [], []
    if args.forecast and state.count:
        options = forecast_options(game, _with_forecaster(state))
        lines = forecast_lines(game, _with_forecaster(state))
    if args.json:
        out = {"players": args.players, "turn": args.turn, "tornadoes": state.count, **risk.to_json(board)}
        if args.forecast:
            out["forecast_lines"] = [{"line": o.line, "expected_markers_on_places": o.on_places,
                                      "best_place_by_roll": {str(k): v for k, v in o.best_place.items()}}
                                     for o in lines]
            out["forecast"] = [{"line": o.line, "value": o.value, "expected_markers_on_places": o.on_places}
                               for o in options]
        print(json.dumps(out))
        return 0
    print(f"Turn {args.turn}, {args.players} players: {state.count} tornadoes")
    ranked = sorted(risk.p_hit, key=lambda h: -risk.p_hit[h])
    for h in ranked:
        if board.place_at(h) is not None or h in ranked[:10]:
            print(f"{board.name_of(h):<16} ({h.q:>2},{h.r:>3})  p_hit {risk.p_hit[h]:6.3f}  "
                  f"expected markers {risk.expected.get(h, 0.0):6.3f}")
    for line in lines:
        print(f"forecast the {LINES[line.line]} line, place picked after the roll: {line.on_places:.3f} expected "
              "markers on cities and towns")
    for o in options[:5]:
        print(f"forecast {o.line} {o.value}: {o.on_places:.3f} expected markers on cities and towns")
    return 0


def _with_forecaster(state: KansasState) -> KansasState:
    """The same phase as if a player held the forecast (the options do not depend on who)."""
    from dataclasses import replace

    return replace(state, phase="forecast", forecaster=1)
