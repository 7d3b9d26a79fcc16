"""``companion risk GAME ...``: the exact risk of the coming storm, each game with its own arguments.

The games that have a risk declare it in their registry spec (``risk_cli``); the sub-command of each
is built from its own module, imported only when this command is used.
"""

from __future__ import annotations

import argparse

from companion.games import registry


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("risk", help="exact odds of the coming storm, per hex, city or road")
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    for key, spec in registry.specs().items():
        if not spec.risk_cli:
            continue
        module = registry.resolve(spec.risk_cli)
        sub = games.add_parser(key, help=spec.risk_help or f"{spec.title}: exact odds")
        module.add_risk_arguments(sub)
        sub.set_defaults(func=module.cli_risk)
