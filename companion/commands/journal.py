"""``companion journal check`` and ``companion journal salvage FILE``: look at a journal, or read a damaged one back.

``check`` only reads (beside a running box too): one line saying the journal is sound, with its games,
or what is wrong (exit 2). ``salvage`` reads a damaged journal row by row, SQLite's header not needed
(:mod:`companion.journal.salvage`), and writes every whole game into a new journal; the damaged file is
left as it is. ``companion run`` does the same by itself when it finds its journal damaged at start.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.commands.games import add_journal_option, journal_path
from companion.errors import CompanionError, DataError
from companion.journal import Journal
from companion.journal.lock import holder
from companion.journal.recovery import recovery_path
from companion.journal.replays import replay_check
from companion.journal.salvage import salvage


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("journal", help="check a journal, or salvage the games of a damaged one")
    sub = parser.add_subparsers(dest="journal_command", metavar="ACTION", required=True)
    check = sub.add_parser("check", help="read the journal and say whether it is sound (exit 2 if not); "
                                         "changes nothing")
    add_journal_option(check)
    check.set_defaults(func=check_main)
    rescue = sub.add_parser("salvage", help="copy every game that can still be read from a damaged journal "
                                            "into a new one; the damaged file is not changed")
    rescue.add_argument("file", type=Path, help="the damaged journal (a .aside file, say)")
    rescue.add_argument("--out", type=Path, default=None, metavar="FILE",
                        help="the new journal to write (default: FILE.salvaged.sqlite); must not exist yet")
    rescue.set_defaults(func=salvage_main)


def check_main(args: argparse.Namespace) -> int:
    with Journal(journal_path(args.journal), readonly=True) as journal:
        if not journal.path.exists():
            print(f"journal {journal.path}: none yet (the box creates it at its first start)")
            return 0
        records = journal.games()
        problems = list(journal.problems)
        events = 0
        for g in records:
            try:
                events += len(journal.entries(g.id))
            except DataError as exc:
                problems.append(str(exc))
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise DataError(f"{problems[0]}{more}")
    open_games = sum(1 for g in records if not g.finished)
    notes = []
    if (owner := holder(journal.path)) is not None:
        notes.append(f"in use by PID {owner}" if owner else "in use by another process")
    if recovery_path(journal.path).exists():
        notes.append(f"{recovery_path(journal.path).name} waits to be put in it at the next start")
    print(f"journal {journal.path}: sound, {len(records)} games ({open_games} open), {events} entries"
          + "".join(f"; {n}" for n in notes))
    return 0


def salvage_main(args: argparse.Namespace) -> int:
    source: Path = args.file
    if not source.is_file():
        raise CompanionError(f"{source}: no such file")
    out: Path = args.out or source.with_name(source.name + ".salvaged.sqlite")
    if out.exists() or out.resolve() == source.resolve():
        raise CompanionError(f"--out {out}: already exists; name a new file")
    if not out.parent.is_dir():
        raise CompanionError(f"--out {out}: no folder {out.parent}")
    found = salvage(source, replay_check())  # saved: whole, and it replays
    with Journal(out) as journal:
        journal.adopt(found)
    print(f"{source}: {found.summary()}; written to {out}")
    for gid, why in sorted(found.lost.items()):
        print(f"  game {gid}: not saved ({why})", file=sys.stderr)
    return 0
