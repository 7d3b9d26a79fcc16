"""``companion config check [FILE]`` and ``companion config show [FILE]``: validate or print the configuration."""

from __future__ import annotations

import argparse

from companion.config import DEFAULT_PATH, check_files, load_config, to_toml


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("config", help="check or show the box's configuration file")
    sub = parser.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    check = sub.add_parser("check", help="validate a configuration file: prints ok or the one-line error")
    check.add_argument("file", nargs="?", default=None, help=f"the file (default: {DEFAULT_PATH})")
    check.set_defaults(func=check_main)
    show = sub.add_parser("show", help="print the effective configuration as TOML")
    show.add_argument("file", nargs="?", default=None, help=f"the file (default: {DEFAULT_PATH})")
    show.set_defaults(func=show_main)


def check_main(args: argparse.Namespace) -> int:
    """The configuration, then every file it points to (the calibration, the paired dice, the group's boards):
    the first that does not read is the one-line error, naming it."""
    read = check_files(load_config(args.file))
    print("ok")
    for line in read:
        print(f"  {line}")
    return 0


def show_main(args: argparse.Namespace) -> int:
    print(to_toml(load_config(args.file)), end="")
    print(boards_in_force())
    return 0


def boards_in_force() -> str:
    """Which board file each editable game reads (the group's own or the shipped one), as TOML comments."""
    from companion.board_editor.files import boards, sheet_for
    from companion.paths import map_source

    lines = ["# boards in force (companion board edit GAME draws the group's own):"]
    for game, board in boards():
        kind, path = map_source(sheet_for(game, board).file)
        why = {"group": "the group's own", "shipped": "shipped"}.get(kind, "from $COMPANION_MAPS")
        lines.append(f"#   {game if board is None else f'{game} {board}'}: {path} ({why})")
    return "\n".join(lines)
