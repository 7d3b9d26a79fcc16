"""``companion cards GAME --json``: a game's decks as the box reads them from maps/."""

from __future__ import annotations

import argparse
import json

from companion.commands._published import published


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("cards", help="show a game's card decks (stormfury: the hurricane decks)")
    parser.add_argument("game", help="game key (stormfury)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    _, decks = published(args.game, "cards_json", "card decks")
    if args.json:
        print(json.dumps(decks))
        return 0
    for deck, cards in decks.items():
        print(f"{deck} deck ({len(cards)} cards)")
        for c in cards:
            print(f"  {c['id']:<5} {' '.join(c['steps']):<14} {c['mark'] or ''}")
    return 0
