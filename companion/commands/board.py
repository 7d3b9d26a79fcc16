"""``companion board edit GAME [--map NAME] [--photo FILE]``: draw the group's own board;
``companion board reset GAME [--map NAME]``. A game with several maps (Age of Industry: Japan, Minnesota) names
one with ``--map``; ``board edit`` asks for it on a terminal.

The editor opens in a window (see companion/board_editor/window.py for the mouse and keys) on the board in
force: the group's own if it has one, else the shipped one. Ctrl+S writes it to the configuration directory's
maps/ folder once the game's own loader accepts it; from then on the box plays on it
(``companion config show`` says which board each game uses). ``reset`` removes the group's file.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path
from typing import Any

from companion.datafile import read_bytes
from companion.errors import CompanionError, DataError

PHOTO_LIMIT = 64 << 20
"""The largest photo read (64 MiB): a phone's photo of a board is a few MB."""


def register(subparsers: argparse._SubParsersAction) -> None:
    from companion.board_editor.files import editable

    parser = subparsers.add_parser("board", help="draw the group's own board, or go back to the shipped one")
    sub = parser.add_subparsers(dest="board_command", metavar="ACTION", required=True)
    edit = sub.add_parser("edit", help="edit a board in a window and save it to the configuration directory")
    edit.add_argument("game", help=f"game key ({', '.join(editable())})")
    edit.add_argument("--map", default=None, metavar="NAME",
                      help="which map, for a game with several (industry: Japan or Minnesota; asked when left out)")
    edit.add_argument("--photo", type=Path, default=None, metavar="IMAGE",
                      help="a photo of the printed board to trace over (P: drag to move, wheel to scale)")
    edit.add_argument("--size", default="1280x800", metavar="WxH", help="window size (default 1280x800)")
    edit.set_defaults(func=edit_main)
    reset = sub.add_parser("reset", help="remove the group's own board: the box uses the shipped one again")
    reset.add_argument("game", help=f"game key ({', '.join(editable())})")
    reset.add_argument("--map", default=None, metavar="NAME", help="which map, for a game with several")
    reset.set_defaults(func=reset_main)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise CompanionError(f"--size: expected WIDTHxHEIGHT like 1280x800, got {text!r}") from None
    if not (320 <= w <= 7680 and 240 <= h <= 4320):
        raise CompanionError(f"--size: expected 320x240 to 7680x4320, got {text!r}")
    return w, h


def _sheet(args: argparse.Namespace, ask: bool) -> Any:
    """The sheet the command names; for a game with several maps and no --map, the map is asked for on a
    terminal (elsewhere the one-line error lists the maps)."""
    from companion.board_editor.files import sheet_for
    from companion.board_editor.graphsheet import MAP_FORMATS

    board = args.map
    if board is None and ask and args.game in MAP_FORMATS and sys.stdin.isatty():
        try:
            board = input(f"{args.game}: which map ({', '.join(MAP_FORMATS[args.game])})? ").strip() or None
        except EOFError:
            board = None
    return sheet_for(args.game, board)


def edit_main(args: argparse.Namespace) -> int:
    from companion.board_editor.files import start_doc
    from companion.board_editor.model import Editor
    from companion.paths import map_source

    sheet = _sheet(args, ask=True)
    size = _size(args.size)
    doc, source = start_doc(sheet)
    editor = Editor(sheet, doc)
    kind = map_source(sheet.file)[0]
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.display.init()
    pygame.font.init()
    try:
        photo = None
        if args.photo is not None:
            data = read_bytes(args.photo, PHOTO_LIMIT)  # one line for a folder, a pipe, a file far too large
            try:
                photo = pygame.image.load(io.BytesIO(data), args.photo.name)
            except (pygame.error, ValueError) as exc:
                raise DataError(f"{args.photo}: cannot read the photo: {exc}") from None
        try:
            surface = pygame.display.set_mode(size)
        except pygame.error as exc:
            raise CompanionError(f"board edit: no window ({exc})") from None
        pygame.display.set_caption(f"companion board edit {sheet.title}")
        from companion.board_editor.window import EditorWindow

        window = EditorWindow(editor, surface, photo=photo.convert() if photo is not None else None,
                              source=f"{kind} {source}")
        window.run()
    finally:
        pygame.display.quit()
    if window.saved is not None:
        print(f"saved {window.saved}")
    else:
        print(f"not saved: the {sheet.title.replace(' --map ', ' ')} board in force is still {source}")
    return 0


def reset_main(args: argparse.Namespace) -> int:
    from companion.paths import group_maps_dir, map_source

    sheet = _sheet(args, ask=False)
    name = sheet.title.replace(" --map ", " ")
    own = group_maps_dir() / sheet.file
    if not own.is_file():
        print(f"{name}: no board of the group's own ({own}); the box uses {map_source(sheet.file)[1]}")
        return 0
    try:
        own.unlink()
    except OSError as exc:
        raise DataError(f"{own}: cannot remove: {exc.strerror}") from None
    print(f"removed {own}; {name} uses {map_source(sheet.file)[1]} again")
    return 0
