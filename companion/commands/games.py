"""``companion games``: the saved games in the journal, newest first.

Reading only: beside a running box, on a journal that does not exist (nothing is created) or a
damaged one (one line, exit 2; nothing is moved). A game whose row or entries are not what the
journal wrote is one line on stderr; the other games are listed as usual."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.errors import DataError
from companion.journal import Journal, default_path


def add_journal_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--journal", type=Path, default=None, metavar="FILE",
                        help="the journal database (default: [journal] path of the configuration file when there "
                             f"is one, as on the box; else $COMPANION_JOURNAL or {default_path()})")


def journal_path(given: Path | None, config: Any = None, config_file: Path | None = None) -> Path | None:
    """The journal a command uses: ``--journal``; else the configured ``[journal] path`` when a configuration
    file is in use (the box: `companion games` on the Pi lists the service's games, not an empty journal of
    the user's own); else None, meaning :func:`companion.journal.default_path`."""
    if given is not None:
        return given
    from companion import config as configuration

    if config_file is None and not configuration.DEFAULT_PATH.exists():
        return None
    if config is None:
        config = configuration.load_config(config_file)
    return Path(config.journal.path)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("games", help="list the saved games in the journal")
    add_journal_option(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    with Journal(journal_path(args.journal), readonly=True) as journal:
        records = journal.games()
        for line in journal.problems:
            print(f"companion: {line}", file=sys.stderr)
        for g in records:
            # events: what counts after undos and re-rolls; entries: every journal row, the undo and
            # re-roll rows included (the lines `companion export` writes after its header).
            try:
                events = len(journal.events(g.id))
            except DataError as exc:
                print(f"companion: {exc}; game left out", file=sys.stderr)
                continue
            if args.json:
                print(json.dumps({"id": g.id, "game": g.game, "options": dict(g.options), "created": g.created,
                                  "updated": g.updated, "finished": g.finished, "events": events,
                                  "entries": g.entries}))
            else:
                opts = " ".join(f"{k}={v}" for k, v in sorted(g.options.items()))
                state = "finished" if g.finished else "open"
                print(f"{g.id:>4}  {g.game:<10} {state:<8} {events:>4} events  {g.updated[:19]}  {opts}")
        if not records and not args.json:
            print(f"no saved games in {journal.path}")
    return 0
