"""The journal's SQLite file: its tables, its connections, what a file that cannot be used is, and moving one aside.

SQLite (the standard library's sqlite3) in WAL mode with ``synchronous=FULL``: a commit returns only once the
event is durable, so a power cut loses nothing the table has seen. Layout (schema version in ``PRAGMA
user_version``, :data:`companion.journal.entries.SCHEMA_VERSION`):

- ``games(id, game, options, created, updated, finished)``: one row per game; ``options`` is JSON.
- ``entries(game_id, idx, kind, event, accepted_at)``: the game's history, in order (:mod:`.entries`).
- ``snapshots``: stored states, a cache (:mod:`.snapshots`), made with the first one.
- ``data_files``, ``game_files``: the data files each game began with, by content (:mod:`.boards`).

Nothing here decides what to do with a file: :class:`companion.journal.journal.Journal` does.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from companion.errors import CompanionError, DataError, UnavailableError
from companion.journal.entries import SCHEMA_VERSION

BUSY_TIMEOUT = 0.25
"""Seconds a write waits for a lock another program holds before the entry waits in memory instead. Short:
no other box can hold the journal (the lock file), and the loop must not stall on a write."""
DAMAGED = "damaged"

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS entries (
    game_id INTEGER NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    kind TEXT NOT NULL,
    event TEXT NOT NULL,
    accepted_at TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
);
"""

SIDE_FILES = ("-wal", "-shm")
"""SQLite's files beside a journal in WAL mode: the write-ahead log (committed writes not yet copied into the
main file: it may hold whole games) and its index."""


def default_path() -> Path:
    """``$COMPANION_JOURNAL``, else ``$XDG_STATE_HOME/storm-companion/journal.sqlite`` (~/.local/state/...)."""
    override = os.environ.get("COMPANION_JOURNAL")
    if override:
        return Path(override)
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "storm-companion" / "journal.sqlite"


def side_file(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


@dataclass
class Pending:
    """Writes that could not reach the disk yet (disk full), replayed in order by the journal's retry."""

    games: dict[int, tuple[str, str, str]] = field(default_factory=dict)
    rows: list[tuple[int, int, str, str, str]] = field(default_factory=list)
    finished: dict[int, bool] = field(default_factory=dict)
    snapshots: list[tuple[int, int, int, str, str, str, bytes]] = field(default_factory=list)
    """States to store with these rows (see :mod:`companion.journal.snapshots`); dropped, not kept waiting, when
    the storage refuses the write: they are a cache."""
    forget: list[tuple[int, int]] = field(default_factory=list)
    """(game, live count): snapshots beyond it are deleted with these rows (an undo past them)."""
    files: list[tuple[int, str, bytes]] = field(default_factory=list)
    """(game, name, content): the data files a new game began with (:mod:`companion.journal.boards`), written with
    its ``games`` row."""

    def __bool__(self) -> bool:
        return bool(self.games or self.rows or self.finished)


def is_disk_full(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.OperationalError):
        code = getattr(exc, "sqlite_errorcode", None)
        return code == sqlite3.SQLITE_FULL or "database or disk is full" in str(exc)
    return isinstance(exc, OSError) and exc.errno == errno.ENOSPC


def is_damage(exc: sqlite3.DatabaseError) -> bool:
    """True when the file itself is bad (not a database, malformed), the only errors that move it aside.
    A busy, locked, read-only or unopenable file is sound: moving it would split the history in two."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
    text = str(exc)
    return "file is not a database" in text or "malformed" in text


def is_storage_trouble(exc: BaseException) -> bool:
    """A write the storage refused (full, read-only, I/O error, corrupt page): the game goes on in memory.
    Constraint and programming errors are bugs and still raise."""
    if isinstance(exc, OSError):
        return True
    return isinstance(exc, sqlite3.OperationalError) or type(exc) is sqlite3.DatabaseError


@contextmanager
def transaction(db: sqlite3.Connection, commit: Callable[[], None] | None = None) -> Iterator[None]:
    """A write transaction, committed at the end of the block and rolled back whole on any failure
    (BEGIN IMMEDIATE: the write lock is taken at the start, not at the first write). ``commit``: what
    commits it instead of a COMMIT here (the journal's writer thread, which rolls back if it fails)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        if commit is None:
            db.execute("COMMIT")
        else:
            commit()
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def connect(path: Path, busy_timeout: float, max_pages: int | None = None) -> sqlite3.Connection:
    """The owner's connection: WAL, every commit fsynced."""
    db = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    if max_pages is not None:
        db.execute(f"PRAGMA max_page_count={int(max_pages)}")
    return db


def connect_readonly(path: Path, busy_timeout: float) -> sqlite3.Connection:
    """A connection that writes nothing beside the journal. A WAL journal with no ``-wal`` file has no
    writer and all its rows in the main file: read it as immutable (opening it read-only would leave
    ``-wal`` and ``-shm`` files behind). With a ``-wal`` file (a box running, or killed) read it
    read-only through SQLite's locks, so what the box has committed is seen too."""
    with path.open("rb") as f:
        header = f.read(20)
    in_wal_mode = len(header) == 20 and header[18] == 2
    mode = "immutable=1" if in_wal_mode and not side_file(path, "-wal").exists() else "mode=ro"
    uri = f"file:{quote(str(path.resolve()))}?{mode}"
    return sqlite3.connect(uri, uri=True, timeout=busy_timeout, isolation_level=None, check_same_thread=False)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def stranded_log(path: Path) -> int:
    """The size of a write-ahead log beside a journal whose main file is empty or gone (0: none). SQLite reads
    such a log as nothing (it takes the empty file for a new database and resets the log at its first write),
    yet it may hold every game the box committed since its last checkpoint."""
    try:
        if path.exists() and path.stat().st_size > 0:
            return 0
    except OSError:
        return 0
    return _size(side_file(path, "-wal"))


def existing(path: Path) -> bool:
    """True when there is a journal to read (a file with something in it, or a write-ahead log that may hold
    games beside an empty one); a one-line error when the path cannot be one."""
    try:
        if path.exists() and not path.is_file():
            raise CompanionError(f"journal {path}: not a file")
        return (path.exists() and path.stat().st_size > 0) or stranded_log(path) > 0
    except OSError as exc:  # a folder this user may not read (the service's own, 0750)
        raise CompanionError(f"journal {path}: cannot open ({exc.strerror})") from None


def inspect(path: Path, busy_timeout: float) -> tuple[sqlite3.Connection | None, str]:
    """Open the existing file read-only and say what is wrong with it ('' when nothing is)."""
    stranded = stranded_log(path)
    if stranded:
        what = "an empty file" if path.exists() else "no file"
        return None, f"{DAMAGED} ({what} beside a write-ahead log of {stranded} bytes that may hold games)"
    db: sqlite3.Connection | None = None
    try:
        db = connect_readonly(path, busy_timeout)
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if version != SCHEMA_VERSION:
            age = "an older" if version < SCHEMA_VERSION else "a newer"
            return db, f"from {age} version (schema {version}, this program reads {SCHEMA_VERSION})"
        if not {"games", "entries"} <= tables:
            return db, "not a companion journal"
        if (check := db.execute("PRAGMA quick_check").fetchone()[0]) != "ok":
            return db, f"{DAMAGED} ({check})"
        return db, ""
    except sqlite3.DatabaseError as exc:
        if db is not None:
            db.close()
        if is_damage(exc):
            return None, f"{DAMAGED} ({exc})"
        raise UnavailableError(f"journal {path}: cannot open ({exc})") from None
    except OSError as exc:
        if db is not None:
            db.close()
        raise CompanionError(f"journal {path}: cannot open ({exc.strerror})") from None


def open_readonly(path: Path, busy_timeout: float) -> sqlite3.Connection:
    """Reading only: a missing journal is an empty one (nothing created), a bad one a one-line DataError."""
    if not existing(path):
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        db.executescript(SCHEMA)
        return db
    found, why = inspect(path, busy_timeout)
    if why:
        if found is not None:
            found.close()
        hint = (f"; nothing was changed: `companion journal salvage {path}` copies the games that can be "
                "read, and `companion run` sets it aside and does the same" if why.startswith(DAMAGED) else
                "; nothing was changed")
        raise DataError(f"journal {path}: {why}{hint}")
    assert found is not None
    return found


def open_writable(path: Path, existed: bool, busy_timeout: float, max_pages: int | None) -> sqlite3.Connection:
    """The owner's connection to a sound journal, or to a new one (its tables made)."""
    db: sqlite3.Connection | None = None
    try:
        db = connect(path, busy_timeout, max_pages)
        if not existed:
            db.executescript(SCHEMA)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        return db
    except sqlite3.DatabaseError as exc:
        if db is not None:
            db.close()
        if is_disk_full(exc):
            raise UnavailableError(f"journal {path}: disk full, cannot start a journal") from None
        raise UnavailableError(f"journal {path}: cannot open ({exc})") from None


def move_aside(path: Path, why: str) -> Path:
    """Move the file and its -wal and -shm to ``<name>.<time>.aside`` (never deleted, never truncated: what
    may hold games is kept whole); the new name."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    aside = path.with_name(f"{path.name}.{stamp}.aside")
    n = 1
    while aside.exists() or any(side_file(aside, suffix).exists() for suffix in SIDE_FILES):
        aside = path.with_name(f"{path.name}.{stamp}-{n}.aside")
        n += 1
    try:
        if path.exists():
            os.replace(path, aside)
        else:  # only a log is left: an empty main file beside it keeps the pair readable by salvage
            aside.touch()
        for suffix in SIDE_FILES:
            extra = side_file(path, suffix)
            if extra.exists():
                os.replace(extra, side_file(aside, suffix))
    except OSError as exc:
        raise CompanionError(f"journal {path}: {why}; cannot move it aside ({exc.strerror}): "
                             "move it away by hand") from None
    return aside
