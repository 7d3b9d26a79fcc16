"""``companion demo``: a scripted game night through the whole box, start to end.

A Kansas game to its last turn and score, then a Stormfury game played until the storm dies, each
final result left on the screens a moment before the next game:
dice go into the virtual tower and over the pty through the real link, buttons are pressed on
gpiozero's mock pins, every event is journaled and drawn by the views. Exits 0 when the night
is over; a stall (an input the box did not take within seconds) is an error, not a hang.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.games import load_game
from companion.journal import Journal
from companion.session import Session
from companion.session.autoplay import AutoPlayer, ScriptedGame
from companion.sim import build_table, sim_config

NIGHT = (
    ScriptedGame("kansas", {"players": 4}),
    ScriptedGame("stormfury", {"players": 4}),
)
"""The demo's game night: Kansas to its last turn and its score, then Stormfury until the storm dies (its
four players place their tokens first, as the rules' setup says)."""

STALL_SECONDS = 10.0
MAX_ACTIONS = 3_000
"""A night that has not ended after this many scripted actions never will (the default night takes about
270, --undo-every 5 --reroll-every 7 about 490; some combinations, --undo-every 3 for one, undo as fast as
the night moves on): one line naming the options, exit 2, not an endless loop."""
LEAST_EVERY = 3
"""--undo-every and --reroll-every below this take back as many rolls as are thrown, so nothing would move
on (1: every roll undone; 2: every other roll undone or thrown again): 0 (never) or 3 and up."""
FINAL_SECONDS = 4.0
"""In a window, the final result of each game stays on the OLED and the projector this long."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help="play a scripted game night on the simulated table")
    parser.add_argument("--headless", action="store_true", help="no window: write frames to --out")
    parser.add_argument("--out", type=Path, default=None, metavar="DIR", help="folder for PNG frames")
    parser.add_argument("--journal", type=Path, default=None, metavar="FILE",
                        help="journal to write (default: a fresh one in a temporary folder)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the scripted player's choices and tower dice")
    parser.add_argument("--undo-every", type=int, default=0, metavar="N", help="undo after every N-th roll")
    parser.add_argument("--reroll-every", type=int, default=0, metavar="N",
                        help="re-roll the last roll (asked and confirmed) before every N-th roll")
    parser.add_argument("--games", default=",".join(g.game for g in NIGHT), metavar="KEY,KEY",
                        help="which games of the night to play, in order (default: %(default)s)")
    parser.add_argument("--trace", type=Path, default=None, help=argparse.SUPPRESS)
    parser.set_defaults(func=main)


class _Trace:
    """Lines "pending ID DIGEST" before each journal commit and "shown ID DIGEST" after each frame."""

    def __init__(self, path: Path) -> None:
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    def write(self, kind: str, game_id: int | None, digest: str) -> None:
        os.write(self._fd, f"{kind} {game_id} {digest}\n".encode())

    def close(self) -> None:
        os.close(self._fd)


def main(args: argparse.Namespace) -> int:
    for option, value in (("--undo-every", args.undo_every), ("--reroll-every", args.reroll_every)):
        if value != 0 and value < LEAST_EVERY:
            raise CompanionError(f"{option}: expected 0 (never) or {LEAST_EVERY} or more, got {value}; "
                                 "smaller values take back every roll and the night would never end")
    if args.out is not None and args.out.exists() and not args.out.is_dir():
        raise CompanionError(f"--out {args.out}: is a file, not a folder")
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as tmp:
        path = args.journal or Path(tmp) / "journal.sqlite"
        with Journal(path) as journal:
            wanted = [k.strip() for k in args.games.split(",") if k.strip()]
            night = [g for key in wanted for g in NIGHT if g.game == key]
            if len(night) != len(wanted):
                raise CompanionError(f"--games: known games are {', '.join(g.game for g in NIGHT)}")
            night = [g for g in night if _installed(g.game)]
            if not night:
                raise CompanionError("no game of the demo night is installed")
            return play_night(journal, night, seed=args.seed, undo_every=args.undo_every,
                              reroll_every=args.reroll_every, trace_path=args.trace,
                              headless=args.headless or args.out is not None, out=args.out)


def play_night(journal: Journal, script: Sequence[ScriptedGame], *, seed: int = 1, undo_every: int = 0,
               reroll_every: int = 0, trace_path: Path | None = None, headless: bool = True, out: Path | None = None,
               loader: Callable[[str, Path | None], Any] | None = None) -> int:
    """Play ``script`` on a simulated table to the end; the trace lines serve the crash tests."""
    trace = _Trace(trace_path) if trace_path else None
    keys = tuple(dict.fromkeys(step.game for step in script)) if loader is not None else None
    with build_table(journal, sim_config(headless=headless, out=out), tick=0.05, loader=loader,
                     game_keys=keys) as table:
        session = table.session
        if trace is not None:
            session.before_commit = lambda d: trace.write("pending", _gid(session), d)
            table.loop.on_shown = lambda frame: trace.write("shown", _gid(session), session.digest())
        session.start(resume=False)
        table.loop.show()
        player = AutoPlayer(session, table.driver, script, seed=seed, undo_every=undo_every,
                            reroll_every=reroll_every)
        for _ in range(MAX_ACTIONS):
            handled = table.loop.player_inputs
            what = player.act()
            if player.done:
                break
            if what.startswith("game over") and not headless:  # let the table read the final result
                until = time.monotonic() + FINAL_SECONDS
                while time.monotonic() < until:
                    table.loop.step(timeout=0.1)
            if not player.awaiting:
                table.loop.show()
                continue
            # Wait until the box has taken the input (over the pty, the pins or the queue), changed or not.
            deadline = time.monotonic() + STALL_SECONDS
            while table.loop.player_inputs == handled:
                table.loop.step(timeout=0.2)
                if time.monotonic() > deadline:
                    raise CompanionError(f"demo stalled after {what!r}: {session.panel.message or 'no answer'}")
        else:
            raise CompanionError(f"demo: no end after {MAX_ACTIONS} actions (--undo-every {undo_every}, "
                                 f"--reroll-every {reroll_every})")
        summary = [f"{g.game} #{g.id}: {len(journal.events(g.id))} events ({g.entries} journal entries), "
                   f"{'finished' if g.finished else 'left open'}"
                   for g in reversed(journal.games())]
        print(f"demo: {len(summary)} games, {table.loop.frames_shown} frames shown")
        for line in summary:
            print(f"  {line}")
    if trace is not None:
        trace.close()
    return 0


def _installed(key: str) -> bool:
    """True if the engine loads; a missing one is said once and its game left out of the night."""
    try:
        load_game(key)
    except (ImportError, CompanionError) as exc:
        print(f"demo: {key} left out ({exc})")
        return False
    return True


def _gid(session: Session) -> int | None:
    return session.current.game_id if session.current else None
