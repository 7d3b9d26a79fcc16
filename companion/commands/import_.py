"""``companion import FILE``: a game exported elsewhere becomes a new saved game here.

The game is replayed before it is saved, on the board it was played on (the data files its export carries),
so a file that does not fit the rules is refused with the line that breaks them, and the journal never holds
a game that cannot be resumed; it keeps that board with it.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from companion.commands.games import add_journal_option, journal_path
from companion.datafile import TEXT_LIMIT, read_text
from companion.errors import CompanionError, DataError
from companion.games import load_game
from companion.journal import BAD_DATA, Journal, parse_export, reason
from companion.journal.entries import fold_entries

REFUSED = (CompanionError, *BAD_DATA)
"""What an engine may raise on an imported file's values: the file is refused with its line."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("import", help="add a game from a JSON-lines export")
    parser.add_argument("file", type=Path, help="a file written by `companion export`")
    add_journal_option(parser)
    parser.set_defaults(func=main)


def _engine(header: dict[str, Any], folder: Path) -> Any:
    """The game's engine over the data files the export carries (the board it was played on), else over the
    files in force here (an export from before files travelled with a game)."""
    files: dict[str, str] = header.get("files") or {}
    if not files:
        return load_game(header["game"])
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return load_game(header["game"], folder)


def main(args: argparse.Namespace) -> int:
    text = read_text(args.file, TEXT_LIMIT)
    lines = text.splitlines()
    header, entries = parse_export(lines, str(args.file))
    with tempfile.TemporaryDirectory(prefix="companion-import-") as folder:
        game = _engine(header, Path(folder))
    try:
        state = game.new_game(header["options"])
    except REFUSED as exc:
        raise DataError(f"{args.file}: line 1: options: {reason(exc)}") from None
    # The header is line 1; each entry follows on its own line (blank lines are skipped).
    numbers = [n for n, line in enumerate(lines, start=1) if line.strip()][1:]
    fold_entries(state, entries, game.apply, catch=REFUSED,
                 refused=lambda n, exc: DataError(f"{args.file}: line {numbers[n]}: {reason(exc)}"))
    with Journal(journal_path(args.journal)) as journal:
        game_id = journal.import_lines(lines, str(args.file))
    print(f"imported {args.file} as game {game_id} ({header['game']})")
    return 0
