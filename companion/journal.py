"""The journal: every accepted event of every game, on disk before it is shown.

SQLite (the standard library's sqlite3) in WAL mode with ``synchronous=FULL``: a commit returns
only once the event is durable, so a power cut loses nothing the table has seen.

Layout (schema version in ``PRAGMA user_version``, currently :data:`SCHEMA_VERSION`):

- ``games(id, game, options, created, updated, finished)`` -- one row per game; ``options`` is JSON.
- ``entries(game_id, idx, kind, event, accepted_at)`` -- the game's history, in order (exported as is). ``kind`` is
  ``event`` (an accepted event, JSON from :func:`companion.dice.event_to_dict`), ``undo`` (takes back
  the last live event) or ``reroll`` (replaces the last live event, a dice roll, by ``event``).

Undo and re-roll are journaled as rows of their own, never by rewriting history: the live events are
a fold over the rows (:func:`live_events`), and replaying them gives the same state every time.

A journal from another schema version, or a file that is not a sound database, is moved aside
(renamed with a time-stamp suffix, never deleted) and a fresh journal is started; :attr:`Journal.notice`
says so in one line. A journal that is sound but cannot be opened now (locked by another process, a
folder it may not write, a directory in its place) is never moved: that is a one-line CompanionError.
A full disk, or any other write the storage refuses (an SD card remounted read-only), does not stop
the game: entries wait in memory, :attr:`Journal.notice` says so (and the log, once), and every later
write (or :meth:`Journal.retry`) tries again, in order.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.dice import Event, event_from_dict, event_to_dict
from companion.errors import CompanionError, DataError, UnavailableError

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
FORMAT = "storm-companion-game"
"""The ``format`` field of an export's header line."""

ENTRY_KINDS = ("event", "undo", "reroll")

_SCHEMA = """
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


def default_path() -> Path:
    """``$COMPANION_JOURNAL``, else ``$XDG_STATE_HOME/storm-companion/journal.sqlite`` (~/.local/state/...)."""
    override = os.environ.get("COMPANION_JOURNAL")
    if override:
        return Path(override)
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "storm-companion" / "journal.sqlite"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Entry:
    """One row of a game's history: an event, an undo, or a re-roll replacing the last event."""

    kind: str
    event: Event | None = None

    def to_dict(self) -> dict[str, Any]:
        if self.kind == "event":
            assert self.event is not None
            return event_to_dict(self.event)
        if self.kind == "undo":
            return {"type": "undo"}
        assert self.event is not None
        return {"type": "reroll", "event": event_to_dict(self.event)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Entry:
        kind = data.get("type") if isinstance(data, Mapping) else None
        if kind == "undo":
            return cls("undo")
        if kind == "reroll":
            inner = data.get("event")
            if not isinstance(inner, Mapping):
                raise CompanionError("a reroll entry needs an 'event' object")
            return cls("reroll", event_from_dict(inner))
        if not isinstance(data, Mapping):
            raise CompanionError(f"an entry must be an object, got {data!r}")
        return cls("event", event_from_dict(data))


@dataclass(frozen=True)
class LiveEvent:
    """An event that counts, and whether it replaced an earlier roll (for the re-rolled mark)."""

    event: Event
    rerolled: bool = False


def live_events(entries: Iterable[Entry]) -> list[LiveEvent]:
    """The events that count after undos and re-rolls: the single fold behind resume, undo and export."""
    live: list[LiveEvent] = []
    for entry in entries:
        if entry.kind == "event":
            assert entry.event is not None
            live.append(LiveEvent(entry.event))
        elif entry.kind == "undo":
            if live:
                live.pop()
        elif entry.kind == "reroll":
            assert entry.event is not None
            if live:
                live.pop()
            live.append(LiveEvent(entry.event, rerolled=True))
    return live


@dataclass(frozen=True)
class GameRecord:
    """A saved game as listed by ``companion games``."""

    id: int
    game: str
    options: Mapping[str, Any]
    created: str
    updated: str
    finished: bool
    entries: int = 0


@dataclass
class _Pending:
    """Writes that could not reach the disk yet (disk full), replayed in order by :meth:`Journal.retry`."""

    games: dict[int, tuple[str, str, str]] = field(default_factory=dict)
    rows: list[tuple[int, int, str, str, str]] = field(default_factory=list)
    finished: dict[int, bool] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.games or self.rows or self.finished)


def _is_disk_full(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.OperationalError):
        code = getattr(exc, "sqlite_errorcode", None)
        return code == sqlite3.SQLITE_FULL or "database or disk is full" in str(exc)
    return isinstance(exc, OSError) and exc.errno == errno.ENOSPC


def _is_damage(exc: sqlite3.DatabaseError) -> bool:
    """True when the file itself is bad (not a database, malformed), the only errors that move it aside.
    A busy, locked, read-only or unopenable file is sound: moving it would split the history in two."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
    text = str(exc)
    return "file is not a database" in text or "malformed" in text


def _is_storage_trouble(exc: BaseException) -> bool:
    """A write the storage refused (full, read-only, I/O error, corrupt page): the game goes on in memory.
    Constraint and programming errors are bugs and still raise."""
    if isinstance(exc, OSError):
        return True
    return isinstance(exc, sqlite3.OperationalError) or type(exc) is sqlite3.DatabaseError


class Journal:
    """The on-disk history of every game; one instance per process, used from one thread."""

    IN_MEMORY = ", game kept in memory"
    DISK_FULL = "journal: disk full" + IN_MEMORY

    def __init__(self, path: Path | str | None = None, *, max_pages: int | None = None,
                 busy_timeout: float = 5.0) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.notice = ""
        """One line for the panel when the journal is not what it should be (moved aside, disk full)."""
        self._max_pages = max_pages
        self._busy_timeout = busy_timeout
        self._pending = _Pending()
        self._next_game_id: int | None = None
        self._next_idx: dict[int, int] = {}
        self._db = self._open()

    # -- opening, and what happens to a journal that cannot be used -------------------------------

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=self._busy_timeout, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        if self._max_pages is not None:
            db.execute(f"PRAGMA max_page_count={int(self._max_pages)}")
        return db

    def _open(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CompanionError(f"journal {self.path}: cannot create its folder ({exc.strerror})") from None
        try:
            if self.path.exists() and not self.path.is_file():
                raise CompanionError(f"journal {self.path}: not a file")
            existed = self.path.exists() and self.path.stat().st_size > 0
        except OSError as exc:  # a folder this user may not read (the service's own, 0750)
            raise CompanionError(f"journal {self.path}: cannot open ({exc.strerror})") from None
        db: sqlite3.Connection | None = None
        try:
            db = self._connect()
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            why = ""
            if existed and version != SCHEMA_VERSION:
                age = "an older" if version < SCHEMA_VERSION else "a newer"
                why = f"from {age} version (schema {version}, this program reads {SCHEMA_VERSION})"
            elif existed and not {"games", "entries"} <= tables:
                why = "not a companion journal"
            elif (check := db.execute("PRAGMA quick_check").fetchone()[0]) != "ok":
                why = f"damaged ({check})"
            if why:
                db.close()
                return self._set_aside(why)
            if not existed:
                db.executescript(_SCHEMA)
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            return db
        except sqlite3.DatabaseError as exc:
            if db is not None:
                db.close()
            if _is_disk_full(exc):
                raise UnavailableError(f"journal {self.path}: disk full, cannot start a journal") from None
            if _is_damage(exc):
                return self._set_aside(f"damaged ({exc})")
            raise UnavailableError(f"journal {self.path}: cannot open ({exc})") from None

    def _set_aside(self, why: str) -> sqlite3.Connection:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.{stamp}.aside")
        n = 1
        while aside.exists():
            aside = self.path.with_name(f"{self.path.name}.{stamp}-{n}.aside")
            n += 1
        try:
            os.replace(self.path, aside)
            for suffix in ("-wal", "-shm"):
                extra = self.path.with_name(self.path.name + suffix)
                if extra.exists():
                    os.replace(extra, aside.with_name(aside.name + suffix))
        except OSError as exc:
            raise CompanionError(f"journal {self.path}: {why}; cannot move it aside ({exc.strerror}): "
                                 "move it away by hand") from None
        self.notice = f"journal {self.path.name}: {why}; kept as {aside.name}, new journal started"
        db = self._connect()
        db.executescript(_SCHEMA)
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        return db

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------------

    @property
    def degraded(self) -> bool:
        """True while some accepted entries live only in memory (disk full)."""
        return bool(self._pending)

    def new_game(self, game: str, options: Mapping[str, Any]) -> int:
        """A new game's id; its row is written now (or kept in memory if the disk is full)."""
        created = _now()
        opts = json.dumps(dict(options), sort_keys=True)
        if self._next_game_id is None:
            row = self._db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()
            self._next_game_id = int(row[0]) + 1
        game_id = self._next_game_id
        self._next_game_id += 1
        self._next_idx[game_id] = 0
        self._pending.games[game_id] = (game, opts, created)
        self._flush()
        return game_id

    def append(self, game_id: int, entry: Entry) -> bool:
        """Journal one entry; True once it is on disk, False if it waits in memory (disk full)."""
        if entry.kind not in ENTRY_KINDS:
            raise ValueError(f"unknown entry kind {entry.kind!r}")
        idx = self._next_index(game_id)
        payload = json.dumps(entry.to_dict(), sort_keys=True)
        self._pending.rows.append((game_id, idx, entry.kind, payload, _now()))
        self._next_idx[game_id] = idx + 1
        return self._flush()

    def mark_finished(self, game_id: int, finished: bool = True) -> bool:
        """Record that the game has ended (or, after an undo of its last event, that it is open again)."""
        self._pending.finished[game_id] = finished
        return self._flush()

    def retry(self) -> bool:
        """Try again to write what waits in memory; True when nothing waits any more."""
        return self._flush()

    def _next_index(self, game_id: int) -> int:
        if game_id not in self._next_idx:
            row = self._db.execute("SELECT COALESCE(MAX(idx) + 1, 0) FROM entries WHERE game_id=?",
                                   (game_id,)).fetchone()
            self._next_idx[game_id] = int(row[0])
        return self._next_idx[game_id]

    def _flush(self) -> bool:
        if not self._pending:
            return True
        pending = self._pending
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for gid, (game, opts, created) in pending.games.items():
                    self._db.execute("INSERT INTO games (id, game, options, created, updated) VALUES (?,?,?,?,?)",
                                     (gid, game, opts, created, created))
                touched: dict[int, str] = {}
                for gid, idx, kind, payload, at in pending.rows:
                    self._db.execute("INSERT INTO entries (game_id, idx, kind, event, accepted_at) VALUES (?,?,?,?,?)",
                                     (gid, idx, kind, payload, at))
                    touched[gid] = at
                for gid, at in touched.items():
                    self._db.execute("UPDATE games SET updated=? WHERE id=?", (at, gid))
                for gid, finished in pending.finished.items():
                    self._db.execute("UPDATE games SET finished=? WHERE id=?", (int(finished), gid))
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        except (sqlite3.DatabaseError, OSError) as exc:
            if not _is_storage_trouble(exc):
                raise
            reason = "disk full" if _is_disk_full(exc) else f"cannot write ({str(exc)[:40]})"
            trouble = f"journal: {reason}{self.IN_MEMORY}"
            if trouble != self.notice:
                log.warning("%s (%s)", trouble, self.path)
            self.notice = trouble
            return False
        self._pending = _Pending()
        if self.is_write_notice(self.notice):
            log.info("journal: every entry written again (%s)", self.path)
            self.notice = ""
        return True

    @classmethod
    def is_write_notice(cls, text: str) -> bool:
        """True for the notice of entries waiting in memory (it goes once they are written)."""
        return text.startswith("journal: ") and text.endswith(cls.IN_MEMORY)

    # -- reading ---------------------------------------------------------------------------------

    def games(self) -> list[GameRecord]:
        """Every saved game, newest first (including games still waiting in memory)."""
        rows = self._db.execute(
            "SELECT g.id, g.game, g.options, g.created, g.updated, g.finished, COUNT(e.idx) "
            "FROM games g LEFT JOIN entries e ON e.game_id = g.id GROUP BY g.id ORDER BY g.id DESC").fetchall()
        records = [GameRecord(r[0], r[1], json.loads(r[2]), r[3], r[4], self._pending.finished.get(r[0], bool(r[5])),
                              r[6] + sum(1 for p in self._pending.rows if p[0] == r[0])) for r in rows]
        for gid, (game, opts, created) in self._pending.games.items():
            records.insert(0, GameRecord(gid, game, json.loads(opts), created, created,
                                         self._pending.finished.get(gid, False),
                                         sum(1 for p in self._pending.rows if p[0] == gid)))
        return sorted(records, key=lambda g: -g.id)

    def game(self, game_id: int) -> GameRecord:
        for record in self.games():
            if record.id == game_id:
                return record
        raise CompanionError(f"no saved game {game_id} in {self.path}")

    def last_unfinished(self) -> GameRecord | None:
        """The most recently played game that has not ended, the one to resume on start."""
        open_games = [g for g in self.games() if not g.finished]
        return max(open_games, key=lambda g: (g.updated, g.id)) if open_games else None

    def entries(self, game_id: int) -> list[Entry]:
        """The game's history in order, undo and re-roll rows included."""
        rows = self._db.execute("SELECT idx, kind, event FROM entries WHERE game_id=? ORDER BY idx",
                                (game_id,)).fetchall()
        pending = [(idx, kind, payload) for gid, idx, kind, payload, _ in self._pending.rows if gid == game_id]
        out = []
        for idx, _kind, payload in [*rows, *pending]:
            try:
                out.append(Entry.from_dict(json.loads(payload)))
            except (ValueError, CompanionError) as exc:
                raise DataError(f"{self.path}: game {game_id} entry {idx}: {exc}") from None
        return out

    def events(self, game_id: int) -> list[LiveEvent]:
        return live_events(self.entries(game_id))

    # -- moving games between boxes --------------------------------------------------------------

    def export_lines(self, game_id: int) -> Iterator[str]:
        """JSON lines: a header ``{"format", "game", "options", ...}`` then the game's history, one entry per
        line: events, and the undo and re-roll rows as they happened. Moved to another box the game folds to
        the same state and shows the same thing, the re-rolled mark on the dice included."""
        record = self.game(game_id)
        header = {"format": FORMAT, "version": SCHEMA_VERSION, "game": record.game, "options": dict(record.options),
                  "id": record.id, "created": record.created, "updated": record.updated,
                  "finished": record.finished}
        yield json.dumps(header, sort_keys=True)
        for entry in self.entries(game_id):
            yield json.dumps(entry.to_dict(), sort_keys=True)

    def import_lines(self, lines: Iterable[str], name: str = "<input>") -> int:
        """A new game from exported lines; returns its id. Errors name the file and line."""
        header, entries = parse_export(lines, name)
        game_id = self.new_game(header["game"], header["options"])
        for entry in entries:
            self.append(game_id, entry)
        if header.get("finished") is True:
            self.mark_finished(game_id)
        return game_id


def parse_export(lines: Iterable[str], name: str = "<input>") -> tuple[dict[str, Any], list[Entry]]:
    """Read an export: the header and the entries (plain events; undo/reroll rows are accepted too)."""
    header: dict[str, Any] | None = None
    entries: list[Entry] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError as exc:
            raise DataError(f"{name}: line {number}: not JSON ({exc.msg})") from None
        if header is None:
            if not isinstance(data, dict) or not isinstance(data.get("game"), str):
                raise DataError(f"{name}: line {number}: the header needs a \"game\" key naming the game")
            options = data.get("options", {})
            if not isinstance(options, dict):
                raise DataError(f"{name}: line {number}: header.options must be an object")
            header = {**data, "options": options}
            continue
        try:
            entries.append(Entry.from_dict(data))
        except CompanionError as exc:
            raise DataError(f"{name}: line {number}: {exc}") from None
    if header is None:
        raise DataError(f"{name}: empty, expected a header line {{\"game\": ..., \"options\": ...}}")
    return header, entries
