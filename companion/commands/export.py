"""``companion export ID``: a saved game as JSON lines (a header, then its history: events, undos, re-rolls)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.commands.games import add_journal_option, journal_path
from companion.errors import CompanionError
from companion.journal import Journal


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("export", help="write a saved game as JSON lines")
    parser.add_argument("id", type=int, help="the game's id (see `companion games`)")
    parser.add_argument("--out", type=Path, default=None, metavar="FILE",
                        help="write here instead of stdout ('-' is stdout); the folder must exist")
    add_journal_option(parser)
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    out = None if args.out is None or str(args.out) == "-" else args.out
    if out is not None:
        check_output_file(out, "--out")
    with Journal(journal_path(args.journal), readonly=True) as journal:
        lines = list(journal.export_lines(args.id))
    text = "".join(line + "\n" for line in lines)
    if out is None:
        sys.stdout.write(text)
        return 0
    from companion.atomicfile import write_atomic

    try:
        write_atomic(out, text)  # whole or not at all: an export cut short would import as a shorter game
    except OSError as exc:
        raise CompanionError(f"--out {out}: cannot write ({exc.strerror})") from None
    return 0


def check_output_file(path: Path, option: str) -> None:
    """One line, before any work, for a file that cannot be written: no folder, or a folder in its place."""
    if path.is_dir():
        raise CompanionError(f"{option} {path}: is a folder; name a file")
    if not path.parent.is_dir():
        raise CompanionError(f"{option} {path}: no folder {path.parent}")
