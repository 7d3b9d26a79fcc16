"""The data files a game began with, kept in the journal by content: a game replays on the board it was played on.

A game is a fold of its events over its engine, and the engine is built from the game's data files (the board,
its tornado path key, the decks: ``<key>*.toml``, the group's own copy where ``companion board edit`` made one).
Were a game replayed on the files in force, a board corrected or reset after it would rewrite its past: a path
key's two entries swapped turns "No city hit" into "Hit: Emporia" in a finished game. So a new game's files go
into the journal with its ``games`` row, in the same transaction, by content:

- ``data_files(sha256, content)``: each distinct file once (a night of games on one board stores it once);
- ``game_files(game_id, name, sha256)``: which files, under which names, a game began with.

Both tables are made with the first game that stores files (a journal from before keeps its layout, and its
older games, which have none, replay on the files in force as they always did). A resume whose stored files
differ from those in force loads the engine from the stored ones, written once to a folder beside the journal
(``<journal>.boards/<digest>/``), and says so in one line.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path

from companion.atomicfile import write_atomic
from companion.paths import group_maps_dir, map_file, maps_dir
from companion.sha256 import sha256

SCHEMA = """
CREATE TABLE IF NOT EXISTS data_files (
    sha256 TEXT PRIMARY KEY,
    content BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS game_files (
    game_id INTEGER NOT NULL REFERENCES games(id),
    name TEXT NOT NULL,
    sha256 TEXT NOT NULL REFERENCES data_files(sha256),
    PRIMARY KEY (game_id, name)
);
"""

CHANGED = "the board changed since this game began: it plays on its own"
"""The one line a resume says when the group's files differ from the game's (the panel and the log)."""


def files_in_force(key: str, maps: Path | None = None) -> dict[str, bytes]:
    """The game's data files an engine loaded now reads (``<key>*.toml``: from ``maps`` when given, else the
    group's copy where there is one and the shipped file otherwise), by name. A file that cannot be read is left
    out: the engine's own load says what is wrong with it."""
    names: set[str] = set()
    for folder in [maps] if maps is not None else [maps_dir(), group_maps_dir()]:
        if folder.is_dir():
            names.update(p.name for p in folder.glob(f"{key}*.toml"))
    found: dict[str, bytes] = {}
    for name in sorted(names):
        try:
            found[name] = map_file(name, maps).read_bytes()
        except OSError:
            continue
    return found


def has_tables(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='game_files'").fetchone() is not None


def write(db: sqlite3.Connection, rows: list[tuple[int, str, bytes]]) -> None:
    """Inside the journal's transaction: each game's files (game, name, content), the tables made if need be."""
    if not rows:
        return
    if not has_tables(db):
        for statement in SCHEMA.split(";"):  # one by one: executescript would COMMIT the open transaction
            if statement.strip():
                db.execute(statement)
    for game_id, name, content in rows:
        digest = sha256(content).hexdigest()
        db.execute("INSERT OR IGNORE INTO data_files (sha256, content) VALUES (?, ?)", (digest, content))
        db.execute("INSERT OR REPLACE INTO game_files (game_id, name, sha256) VALUES (?, ?, ?)",
                   (game_id, name, digest))


def read(db: sqlite3.Connection, game_id: int) -> dict[str, bytes] | None:
    """The files the game began with, by name; None for a game that stored none (an older journal's). A file
    whose content no longer matches its digest (a damaged page) counts as none stored: the files in force."""
    if not has_tables(db):
        return None
    rows = db.execute("SELECT g.name, g.sha256, d.content FROM game_files g JOIN data_files d ON d.sha256 = g.sha256 "
                      "WHERE g.game_id=? ORDER BY g.name", (game_id,)).fetchall()
    if not rows:
        return None
    found: dict[str, bytes] = {}
    for name, digest, content in rows:
        data = bytes(content) if isinstance(content, bytes) else b""
        if not isinstance(name, str) or sha256(data).hexdigest() != digest:
            return None
        found[name] = data
    return found


def folder_for(journal: Path, files: Mapping[str, bytes]) -> Path:
    """A folder beside the journal holding exactly ``files`` (written once, named by their digest), for an engine
    to load from."""
    digest = sha256()
    for name in sorted(files):
        digest.update(f"{name}\n{sha256(files[name]).hexdigest()}\n".encode())
    folder = journal.with_name(journal.name + ".boards") / digest.hexdigest()[:24]
    folder.mkdir(parents=True, exist_ok=True, mode=0o750)
    for name, content in files.items():
        if Path(name).name != name or not name.endswith(".toml"):
            raise ValueError(f"{name!r} is not a data file's name")
        path = folder / name
        if not path.is_file() or path.read_bytes() != content:
            write_atomic(path, content, mode=0o640)
    return folder
