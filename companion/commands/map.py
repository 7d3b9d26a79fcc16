"""``companion map GAME [--json]``: a game's board as the box reads it from maps/."""

from __future__ import annotations

import argparse
import json
from collections import Counter

from companion.commands._published import published
from companion.games import game_keys


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("map", help="show a game's board (hexes, places, grid, keys)")
    parser.add_argument("game", help=f"game key ({', '.join(game_keys())})")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    game, data = published(args.game, "map_json", "map")
    if args.json:
        print(json.dumps(data))
        return 0
    if "sites" in data:  # a graph board: locations joined by links
        _print_graph(game.title, data)
    elif "hexes" in data:
        hexes = data["hexes"]
        terrain = Counter(str(h.get("terrain", "?")) for h in hexes)
        print(f"{game.title}: {len(hexes)} hexes ({', '.join(f'{n} {t}' for t, n in sorted(terrain.items()))})")
    elif "maps" in data:  # several printed maps (Age of Industry): each map's size and its readings
        for name, board in data["maps"].items():
            print(f"{game.title}, {name}: {len(board.get('locations', []))} locations, "
                  f"{len(board.get('links', []))} links, {board.get('deck', 0)} cards")
            for reading in board.get("readings", []):
                print(f"  reading: {reading}")
    else:  # a board laid at the table (a square grid of tiles): what the box knows of it is its readings
        print(f"{game.title}: a board laid at the table, tile by tile")
    for kind in ("cities", "towns"):
        for c in data.get(kind, []):
            at = f"{c['q']:>3},{c['r']:>3}" if "q" in c else ""
            extra = f"  {c['colour']}, {c['goods']} goods" if "colour" in c else ""
            if "spaces" in c:
                extra = "  " + ", ".join(f"{s['name']} {s['q']},{s['r']}" for s in c["spaces"])
            print(f"  {kind[:-1] if kind == 'towns' else 'city'}  {c.get('name', c.get('id')):<16} {at}{extra}")
    if "path_key" in data:
        print("path key: " + " ".join(f"{k}={v}" for k, v in data["path_key"].items()))
    if "markers_per_tornado" in data:
        print(f"markers per tornado: {data['markers_per_tornado']}")
    for reading in data.get("readings", []):
        print(f"reading: {reading}")
    return 0


def _print_graph(title: str, data: dict[str, object]) -> None:
    sites = data.get("sites", [])
    links = data.get("links", [])
    assert isinstance(sites, list) and isinstance(links, list)
    kinds = Counter(str(site.get("kind", "?")) for site in sites)
    link_kinds = Counter(str(link.get("kind", "?")) for link in links)
    print(f"{title}: {len(sites)} locations ({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))}), "
          f"{len(links)} links ({', '.join(f'{n} {k}' for k, n in sorted(link_kinds.items()))})")
    names = {site.get("key"): site.get("name", site.get("key")) for site in sites}
    for site in sites:
        print(f"  {site.get('kind', ''):<10} {site.get('name', site.get('key'))}")
    for link in links:
        print(f"  link  {names.get(link.get('a'), link.get('a'))} - {names.get(link.get('b'), link.get('b'))}"
              f"  ({link.get('kind', '')})")
