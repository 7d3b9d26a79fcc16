"""``companion tiles GAME [--json]``: a tile-laying game's tile types as the box reads them from maps/."""

from __future__ import annotations

import argparse
import json

from companion.errors import CompanionError
from companion.games import load_game


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("tiles", help="show a game's tile types (carcassonne: sides, features, counts)")
    parser.add_argument("game", help="game key (carcassonne)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    hook = getattr(game, "tiles_json", None)
    if not callable(hook):
        raise CompanionError(f"{args.game} has no tiles")
    data = hook()
    if args.json:
        print(json.dumps(data))
        return 0
    tiles = data["tiles"]
    print(f"{game.title}: {sum(t['count'] for t in tiles)} tiles of {len(tiles)} kinds "
          f"(start tile: {data['start_tile']})")
    for t in tiles:
        features = [f"{kind} {'/'.join(t[kind])}" for kind in ("cities", "roads", "rivers") if t[kind]]
        marks = [m for m in ("shield", "cloister", "spring") if t[m]] + ([t["disaster"]] if t["disaster"] else [])
        print(f"  {t['count']:>2} x {t['name']:<20} {t['edges']}  {', '.join(features + marks)}")
    return 0
