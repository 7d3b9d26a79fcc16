"""The ``companion`` command: one sub-command per module in :mod:`companion.commands`.

Each command module defines ``register(subparsers)`` that adds its parser and sets
``func(args) -> int``. Adding a command is adding a module; nothing here changes.
Errors meant for people (CompanionError) print as one line and exit 2 (75 for UnavailableError), never a
traceback; so do arguments argparse refuses (its usage block is for ``--help``, not for a mistake).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import NoReturn

from companion import __version__, commands
from companion.errors import CompanionError


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a refused argument is one line naming the command (``companion export: ...``), exit 2.
    Sub-command parsers are made by the same class (``add_subparsers`` uses the parser's own type)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}; see {self.prog} --help\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="companion",
        description="The storm companion: disaster rules, dice tower, OLED and projector for the game table.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame's greeting is not the box's output
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a refused argument: a code, so main() can be called in-process
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    try:
        return int(args.func(args) or 0)
    except CompanionError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return getattr(exc, "exit_code", 2)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (companion map kansas --json | head): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the interpreter's last flush is quiet
        return 1
