"""``companion risk GAME ...``: the exact risk of the coming storm, each game with its own arguments."""

from __future__ import annotations

import argparse
import importlib


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("risk", help="exact odds of the coming storm, per hex, city or road")
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    for key, helptext in (("kansas", "a tornado phase: P(hit) and expected markers per hex"),
                          ("stormfury", "a hurricane phase: P(hit) and expected damage per city and road")):
        module = importlib.import_module(f"companion.games.{key}.riskcli")
        sub = games.add_parser(key, help=helptext)
        module.add_risk_arguments(sub)
        sub.set_defaults(func=module.cli_risk)
