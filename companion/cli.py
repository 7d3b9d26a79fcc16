"""The ``companion`` command: one sub-command per module in :mod:`companion.commands`.

Each command module defines ``register(subparsers)`` that adds its parser and sets
``func(args) -> int``. Adding a command is adding a module; nothing here changes. A module is
named as its command (``import_`` for ``import``), so ``companion run`` imports the run module alone:
the box's start-up pays for what it uses, not for every command's imports (``--help`` and a
mistyped command still see them all).
Errors meant for people (CompanionError) print as one line and exit 2 (75 for UnavailableError), never a
traceback; so do arguments argparse refuses (its usage block is for ``--help``, not for a mistake).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import NoReturn

from companion import __version__, commands
from companion.commands import STARTS_QUIETLY
from companion.errors import CompanionError


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a refused argument is one line naming the command (``companion export: ...``), exit 2.
    Sub-command parsers are made by the same class (``add_subparsers`` uses the parser's own type)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}; see {self.prog} --help\n")


def command_modules() -> list[str]:
    """The command modules' names, sorted (``_``-prefixed helpers left out)."""
    return sorted(m.name for m in pkgutil.iter_modules(commands.__path__) if not m.name.startswith("_"))


def module_for(argv: Sequence[str]) -> str | None:
    """The module of the command ``argv`` names (its first word that is no option), or None."""
    word = next((a for a in argv if not a.startswith("-")), None)
    if word is None:
        return None
    names = command_modules()
    return next((m for m in (word, f"{word}_") if m in names), None)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser with every command, or with the one of module ``only``."""
    parser = OneLineParser(
        prog="companion",
        description="The storm companion: disaster rules, dice tower, OLED and projector for the game table.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in command_modules() if only is None else [only]:
        module = importlib.import_module(f"{commands.__name__}.{name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame's greeting is not the box's output
    argv = list(sys.argv[1:] if argv is None else argv)
    collecting = gc.isenabled()
    gc.disable()  # see STARTS_QUIETLY
    try:
        return _main(argv, collecting)
    finally:
        (gc.enable if collecting else gc.disable)()


def _main(argv: list[str], collecting: bool) -> int:
    parser = build_parser(module_for(argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a refused argument: a code, so main() can be called in-process
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if collecting and not getattr(args, STARTS_QUIETLY, False):
        gc.enable()
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
