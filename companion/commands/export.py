"""``companion export ID``: a saved game as JSON lines (a header, then its history: events, undos, re-rolls)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.commands.games import add_journal_option, journal_path
from companion.journal import Journal


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("export", help="write a saved game as JSON lines")
    parser.add_argument("id", type=int, help="the game's id (see `companion games`)")
    parser.add_argument("--out", type=Path, default=None, metavar="FILE", help="write here instead of stdout")
    add_journal_option(parser)
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    with Journal(journal_path(args.journal)) as journal:
        lines = list(journal.export_lines(args.id))
    text = "".join(line + "\n" for line in lines)
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
    return 0
