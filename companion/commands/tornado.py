"""``companion tornado --players P --turn T (--rolls N ... | --seed S) [--json]``: one Kansas tornado phase.

The dice are taken in the order the rules roll them -- per tornado a D8 for the north-south line, a D8
for the west-east line, then two D6 per move, re-rolls included -- so a phase rolled at the table can
be typed in and checked, or drawn from a seeded generator to be repeated.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from companion.dice import FACES, DiceRolled, DiceSource, Die
from companion.errors import CompanionError, RuleError
from companion.games.kansas import KansasGame, KansasState, Tornado, load


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("tornado", help="run one Kansas tornado phase from given dice or a seed")
    parser.add_argument("--players", required=True, type=int, metavar="P", help="4, 5 or 6 players")
    parser.add_argument("--turn", required=True, type=int, metavar="T", help="the turn (the outbreak table's column)")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--rolls", nargs="+", type=int, metavar="N",
                        help="die values in rule order: ns D8, we D8, then two D6 per move (re-rolls included)")
    source.add_argument("--seed", type=int, metavar="S", help="draw the dice from a generator seeded with S")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(func=main)


def play_phase(game: KansasGame, players: int, turn: int, rolls: Sequence[int] | None,
               seed: int | None) -> KansasState:
    """Fold one tornado phase; the engine's prompt says which dice each next value is for."""
    try:
        state = game.new_game({"players": players, "turn": turn})
    except RuleError as exc:
        raise CompanionError(str(exc)) from None
    source = DiceSource(seed) if rolls is None else None
    values, used = list(rolls or ()), 0
    while state.phase == "tornado":
        prompt = game.prompt(state)
        if source is not None:
            roll = source.roll(prompt.dice)
        else:
            if used + len(prompt.dice) > len(values):
                raise CompanionError(f"--rolls: too few values ({len(values)} given): {prompt.text}")
            roll = DiceRolled(tuple(_die(kind, values[used + i], used + i + 1) for i, kind in enumerate(prompt.dice)),
                              "typed")
            used += len(prompt.dice)
        state = game.apply(state, roll)
    if used < len(values):
        raise CompanionError(f"--rolls: {len(values) - used} value(s) left over after the tornado phase "
                             f"(it used {used})")
    return state


def _die(kind: str, value: int, n: int) -> Die:
    if not 1 <= value <= FACES[kind]:
        raise CompanionError(f"--rolls: value {n} ({value}) is not a {kind.upper()} face (1-{FACES[kind]})")
    return Die(kind, value)


def main(args: argparse.Namespace) -> int:
    game = load()
    state = play_phase(game, args.players, args.turn, args.rolls, args.seed)
    tornadoes = state.tornadoes if state.count else ()
    if args.json:
        print(json.dumps({"tornadoes": [tornado_json(game, t) for t in tornadoes]}))
        return 0
    print(account(game, args.players, args.turn, tornadoes))
    return 0


def tornado_json(game: KansasGame, t: Tornado) -> dict[str, Any]:
    assert t.start is not None
    start: dict[str, Any] = {"ns": t.ns, "we": t.we, "q": t.start.q, "r": t.start.r}
    place = game.board.place_at(t.start)
    if place is not None:
        start["name"] = place.name
    return {"start": start, "moves": [m.to_dict() for m in t.moves],
            "markers": [h.to_dict() for h in t.markers]}


def account(game: KansasGame, players: int, turn: int, tornadoes: Sequence[Tornado]) -> str:
    """The phase told as a player would read it out."""
    name = game.board.name_of
    lines = [f"Turn {turn}, {players} players: {len(tornadoes) or 'no'} tornado{'' if len(tornadoes) == 1 else 'es'}"]
    for t in tornadoes:
        assert t.start is not None
        lines.append(f"Tornado {t.number}: north-south {t.ns}, west-east {t.we} -> starts at {name(t.start)}")
        step = 0
        for m in t.moves:
            roll = f"{m.dice[0]}+{m.dice[1]}={m.total:<2} {m.direction:<2}"
            if m.rerolled:
                lines.append(f"  {roll}  off the map, rolled again")
            else:
                step += 1
                lines.append(f"  {roll}  move {step} -> {name(m.to)}")
        lines.append(f"  markers: {', '.join(name(h) for h in t.markers)}")
    return "\n".join(lines)
