"""The ``companion`` command: one sub-command per module in :mod:`companion.commands`.

Each command module defines ``register(subparsers)`` that adds its parser and sets
``func(args) -> int``. Adding a command is adding a module; nothing here changes.
Errors meant for people (CompanionError) print as one line and exit 2 (75 for UnavailableError), never a
traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from companion import __version__, commands
from companion.errors import CompanionError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
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
    args = parser.parse_args(argv)
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
