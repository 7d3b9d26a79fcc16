"""``companion hurricane``: play the Stormfury hurricane with no defences, from a seed or a replay.

The replay file is JSON lines, one event per line as :func:`companion.dice.event_to_dict` writes
it (``{"type": "shuffle", "order": [...]}`` for the forecast and hurricane shuffles, and
``{"type": "choice", "action": "end_player_phase"}`` to close each player phase). ``--record FILE``
writes exactly that file from a seeded run, so a replay of it reproduces the run.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.dice import Choice, DiceSource, Event, event_from_dict, event_to_dict
from companion.errors import CompanionError, RuleError
from companion.games.stormfury import StormfuryGame, StormState, load
from companion.journal import BAD_DATA, reason


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("hurricane", help="play the Stormfury hurricane with no defences to the end")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--seed", type=int, help="shuffle from this seed")
    source.add_argument("--replay", type=Path, metavar="FILE", help="JSON lines of events (see --record)")
    parser.add_argument("--record", type=Path, metavar="FILE", help="write the events as a replay file")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(func=main)


def seeded_events(game: StormfuryGame, seed: int) -> Iterator[Event]:
    """Endless answers to the engine's prompts: shuffles from the seed, no defences."""
    source = DiceSource(seed)
    state = game.new_game({})
    while not game.prompt(state).done:
        prompt = game.prompt(state)
        event: Event = source.shuffle(prompt.shuffle) if prompt.shuffle else Choice("end_player_phase")
        state = game.apply(state, event)
        yield event


def read_replay(path: Path) -> list[Event]:
    from companion.datafile import TEXT_LIMIT, read_text

    lines = read_text(path, TEXT_LIMIT).splitlines()
    events = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise CompanionError(f"{path}: line {n}: not JSON: {getattr(exc, 'msg', None) or reason(exc)}") from None
        if not isinstance(data, dict):
            raise CompanionError(f"{path}: line {n}: expected an event object")
        try:
            events.append(event_from_dict(data))
        except (CompanionError, *BAD_DATA) as exc:
            raise CompanionError(f"{path}: line {n}: {reason(exc)}") from None
    return events


def play(game: StormfuryGame, events: list[Event] | Iterator[Event], where: str = "") -> StormState:
    state = game.new_game({})
    for n, event in enumerate(events, 1):
        if game.prompt(state).done:
            raise CompanionError(f"{where}event {n}: the storm is already over")
        try:
            state = game.apply(state, event)
        except (RuleError, *BAD_DATA) as exc:
            raise CompanionError(f"{where}event {n}: {reason(exc)}") from None
    if not game.prompt(state).done:
        raise CompanionError(f"{where}the events end before the storm does ({game.status(state)})")
    return state


def report(game: StormfuryGame, state: StormState) -> dict[str, Any]:
    """The JSON of a played hurricane: one row per turn and the damage summary."""
    return {"turns": [{"turn": t.turn, "deck": t.deck, "forecast": list(t.forecast), "drawn": list(t.drawn),
                       "category_before": t.category_before, "category_after": t.category_after,
                       "path": [h.to_dict() for h in t.path], "at_sea_after": t.at_sea_after,
                       "damage": [d.to_dict() for d in t.damage]} for t in state.log],
            "summary": game.summary(state)}


def main(args: argparse.Namespace) -> int:
    game = load(getattr(args, "maps", None))
    if args.replay is not None:
        events = read_replay(args.replay)
        where = f"{args.replay}: "
    else:
        events = list(seeded_events(game, args.seed))
        where = ""
    state = play(game, events, where)
    if args.record is not None:
        from companion.atomicfile import write_atomic

        try:
            write_atomic(args.record, "".join(json.dumps(event_to_dict(e)) + "\n" for e in events))
        except OSError as exc:
            raise CompanionError(f"--record: cannot write {args.record}: {exc.strerror}") from None
    out = report(game, state)
    if args.json:
        print(json.dumps(out))
        return 0
    for t in out["turns"]:
        hits = sum(d["amount"] for d in t["damage"])
        print(f"turn {t['turn']:>2} {t['deck']:<5} drew {' '.join(t['drawn']):<16} cat {t['category_before']}->"
              f"{t['category_after']}  {'sea ' if t['at_sea_after'] else 'land'}  damage {hits}")
    s = out["summary"]
    worst = game.board.city(s["worst_city"]).name if s["worst_city"] else "nowhere"
    print(f"ended: {s['ended_by']} after {s['turns']} turns; damage {s['total']} "
          f"(infrastructure {s['by_kind']['infrastructure']}, population {s['by_kind']['population']}, "
          f"roads {s['by_kind']['road']}); worst: {worst}")
    return 0
