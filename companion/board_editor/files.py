"""Which sheet edits a game, the document it starts from, and saving: written, judged by the game's loader, kept.

A board is saved to the group's maps folder (``companion.paths.group_maps_dir``) only once the game's own
loader reads it: the loader judges the text in memory (``companion.datafile.staged``, its errors naming the
file it will be), then the text is written whole or not at all (``companion.atomicfile.write_atomic``), so
the box never sees half a file or a board it would refuse, and nothing is left beside it. A refusal is the
loader's one line, naming the file and the field.

The editor opens only a board the game's loader reads: the group's own file that does not (damaged, another
game's board saved under this name) is refused in one line, since the editor's drawing assumes a sound board;
``companion board reset GAME`` goes back to the shipped one.
"""

from __future__ import annotations

import contextlib
import tomllib
from pathlib import Path

from companion.atomicfile import sweep_leftovers, write_atomic
from companion.board_editor.graphsheet import FORMATS, MAP_FORMATS, GraphSheet, map_format
from companion.board_editor.hexsheets import KansasSheet, StormfurySheet
from companion.board_editor.model import Doc, Editor, Sheet
from companion.board_editor.tomlout import dumps
from companion.datafile import read_text, staged
from companion.errors import CompanionError, DataError
from companion.paths import group_maps_dir, map_source


def sheet_for(game: str, board: str | None = None) -> Sheet:
    """The sheet of a game whose board can be edited (``board``: which map, for a game with several);
    any other game, or a map the game does not have, is a one-line error."""
    if game in MAP_FORMATS:
        names = MAP_FORMATS[game]
        if board is None:
            raise CompanionError(f"{game} has {len(names)} maps: add --map {' or --map '.join(names)}")
        chosen = next((n for n in names if n.lower() == board.lower()), None)
        if chosen is None:
            raise CompanionError(f"--map: {game} has no map {board!r} (maps: {', '.join(names)})")
        return GraphSheet(map_format(game, chosen))
    if board is not None:
        raise CompanionError(f"--map: {game} has one board; leave --map out")
    if game == "kansas":
        return KansasSheet()
    if game == "stormfury":
        return StormfurySheet()
    if game in FORMATS:
        return GraphSheet(FORMATS[game])
    raise CompanionError(f"no board editor for {game!r} (boards: {', '.join(editable())})")


def editable() -> tuple[str, ...]:
    return ("kansas", "stormfury", *FORMATS, *MAP_FORMATS)


def boards() -> list[tuple[str, str | None]]:
    """Every editable board: (game, None) for a game with one, (game, map) for each map of the others."""
    return [(game, board) for game in editable() for board in MAP_FORMATS.get(game, (None,))]


def start_doc(sheet: Sheet) -> tuple[Doc, Path]:
    """The board in force (the group's own if there is one, else the shipped one) as a document, once the
    game's loader reads it; a board it refuses is a DataError with the loader's reason (naming file and
    field) and, for the group's own, the way back to the shipped board."""
    kind, path = map_source(sheet.file)
    try:
        text = read_text(path)
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise DataError(f"{path}: not valid TOML: {exc}") from None
        except RecursionError:
            raise DataError(f"{path}: not valid TOML: nested too deeply") from None
        with staged(path, text):
            sheet.validate(path)
    except DataError as exc:
        if kind != "group":
            raise
        name = sheet.title.replace(" --map ", " ")
        raise DataError(f"{exc}; `companion board reset {sheet.title}` goes back to the shipped {name} board"
                        ) from None
    return doc, path


HEADER = """{game} board drawn with `companion board edit {title}` (from {source}).
The box reads this file instead of the shipped one; `companion board reset {title}` goes back to it."""


def save(editor: Editor, folder: Path | None = None, source: Path | str = "the shipped board") -> Path:
    """Write the editor's document as ``folder/<file>`` (default: the group's maps folder) once the game's
    loader accepts it; raises DataError with the loader's reason (naming the final file) otherwise."""
    folder = folder if folder is not None else group_maps_dir()
    target = folder / editor.sheet.file
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataError(f"{folder}: cannot create the folder: {exc.strerror}") from None
    text = dumps(editor.doc, HEADER.format(game=editor.sheet.game, title=editor.sheet.title, source=source))
    with staged(target, text):
        editor.sheet.validate(target)
    sweep_leftovers(target)  # what a save killed before its rename left
    with contextlib.suppress(OSError):  # the trial file of earlier versions
        (folder / f".{editor.sheet.file}.new").unlink(missing_ok=True)
    try:
        write_atomic(target, text)
    except OSError as exc:
        raise DataError(f"{target}: cannot write: {exc.strerror or exc}") from None
    editor.saved_doc = editor.doc
    return target
