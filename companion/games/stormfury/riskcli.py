"""``companion risk stormfury ...``: the exact forecast risk from the command line."""

from __future__ import annotations

import argparse
import json

from companion.errors import CompanionError


def add_risk_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--at", required=True, metavar="Q,R", help="axial hex of the storm's centre")
    parser.add_argument("--category", required=True, metavar="C", help="storm category 1..5")
    parser.add_argument("--forecast", required=True, metavar="ID,ID,ID,ID,ID", help="the 5 forecast card ids")
    parser.add_argument("--json", action="store_true", help="print JSON")


def cli_risk(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from companion.games.stormfury import load
    from companion.games.stormfury.risk import forecast_risk
    from companion.hexgrid import Hex

    game = load(getattr(args, "maps", None))
    b = game.board
    try:
        q, r = (int(v) for v in str(args.at).split(","))
    except ValueError:
        raise CompanionError(f"--at: expected Q,R (two integers), got {args.at!r}") from None
    at = Hex(q, r)
    if at not in b.hexes:
        raise CompanionError(f"--at: {q},{r} is not a hex of the board")
    try:
        category = int(args.category)
    except ValueError:
        category = 0
    if not 1 <= category <= 5:
        raise CompanionError(f"--category: expected 1..5, got {args.category!r}")
    ids = [c.strip() for c in str(args.forecast).split(",")]
    deck_of = {c.id: deck for deck, cards in b.decks.items() for c in cards}
    for cid in ids:
        if cid not in deck_of:
            raise CompanionError(f"--forecast: unknown card id {cid!r}")
    twice = sorted({cid for cid in ids if ids.count(cid) > 1})
    if twice:
        raise CompanionError(f"--forecast: {', '.join(twice)} given twice (a forecast deals different cards)")
    if len(ids) != b.rules.forecast_size:
        raise CompanionError(f"--forecast: expected {b.rules.forecast_size} different card ids, got {len(ids)}")
    decks = sorted({deck_of[cid] for cid in ids})
    if len(decks) > 1:
        raise CompanionError(f"--forecast: a forecast is dealt from one deck, got cards from {' and '.join(decks)}")
    here = "at sea" if at in b.ocean else "over land"
    wanted = "ocean" if at in b.ocean else "land"
    if decks != [wanted]:
        raise CompanionError(f"--forecast: the storm at {q},{r} is {here}, so its forecast is dealt from the {wanted} "
                             f"deck, not {decks[0]} cards")
    state = replace(game.new_game({}), centre=at, category=category, phase="players", forecast=tuple(ids),
                    deck=wanted)
    risk = forecast_risk(b, state, ids)
    if args.json:
        print(json.dumps({"at": at.to_dict(), "category": category, "forecast": ids, **risk.to_json()}))
        return 0
    print(f"{risk.draws} equally likely draws of {b.rules.draws[category - 1]} from {' '.join(ids)}")
    names = {**{c.id: c.name for c in b.cities}, **{r.id: r.name for r in b.roads}}
    for kind, rows in (("city", risk.cities), ("road", risk.roads)):
        for key, (p, e) in rows.items():
            if p > 0:
                print(f"{kind:<5} {names[key]:<32} p_hit {p:6.3f}  expected damage {e:6.3f}")
    return 0
