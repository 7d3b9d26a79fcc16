"""The journal: every accepted event of every game, on disk before it is shown.

SQLite (the standard library's sqlite3) in WAL mode with ``synchronous=FULL``: a commit returns
only once the event is durable, so a power cut loses nothing the table has seen.

Layout (schema version in ``PRAGMA user_version``, currently :data:`SCHEMA_VERSION`):

- ``games(id, game, options, created, updated, finished)`` -- one row per game; ``options`` is JSON.
- ``entries(game_id, idx, kind, event, accepted_at)`` -- the game's history, in order (exported as is). ``kind`` is
  ``event`` (an accepted event, JSON from :func:`companion.dice.event_to_dict`), ``undo`` (takes back
  the last live event) or ``reroll`` (replaces the last live event, a dice roll, by ``event``). An event or
  re-roll made from a source's rolls also keeps, under ``"rolls"`` in the same JSON, which rolls its dice came from
  (:class:`companion.inputs.RollRef`: the tower's boot, number and dice), so the tower link can be told at start
  which rolls are on disk already; the game's history ignores it, and an export leaves it out.

Undo and re-roll are journaled as rows of their own, never by rewriting history: the live events are
a fold over the rows (:func:`live_events`), and replaying them gives the same state every time.

One process owns a journal (an exclusive lock beside it, :mod:`companion.journal_lock`); a second box
on the same file stops at start naming the first one's PID. Commands that only read take no lock and
never create, move or write anything.

A journal from another schema version, or a file that is not a sound database, is moved aside by the
owner (renamed with a time-stamp suffix, never deleted, with its -wal and -shm) and a fresh journal is
started; from a damaged file every whole game that can still be read is copied in
(:mod:`companion.journal_salvage`), and :attr:`Journal.notice` says so in one line with how many games
were saved and how many not. A journal that is sound but cannot be opened now (locked by another
program, a folder it may not write, a directory in its place) is never moved: that is a one-line
CompanionError. A row that is not what the journal wrote (options that are not a JSON object) leaves
out that game alone, with one line in :attr:`Journal.problems`.

A full disk, or any other write the storage refuses (an SD card remounted read-only, a lock another
program holds), does not stop the game: entries wait in memory, :attr:`Journal.notice` says so (and the
log, once), and every later write (or :meth:`Journal.retry`) tries again, in order. :meth:`Journal.close`
gives them a bounded time and then keeps them in a recovery file the next start puts in the journal
(:mod:`companion.journal_recovery`).
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from companion.dice import Event, event_from_dict, event_to_dict
from companion.errors import CompanionError, DataError, UnavailableError
from companion.inputs import RollRef
from companion.journal_codec import Types, Unencodable
from companion.journal_lock import JournalLock
from companion.journal_recovery import read as read_recovery
from companion.journal_recovery import recovery_path
from companion.journal_recovery import to_lines as recovery_lines
from companion.journal_recovery import write as write_recovery
from companion.journal_snapshots import (
    KEEP,
    HistoryCheck,
    HistoryDigest,
    Logged,
    Point,
    canonical_options,
    fold_from,
    has_table,
    pack,
    rows_digest,
    unpack,
)
from companion.journal_snapshots import SCHEMA as SNAPSHOT_SCHEMA
from companion.journal_writer import Landing, WriteBehind

if TYPE_CHECKING:  # salvage is imported only when a damaged journal is met
    from companion.journal_salvage import Salvage

log = logging.getLogger(__name__)

_LAST = object()
"""What :meth:`Journal._try_snapshot` says of a snapshot it was asked to spare: no live event follows it."""

ENTRY_KINDS = ("event", "undo", "reroll")
"""What a journal row records: an event, an undo, a re-roll (salvage reads back only rows of these kinds)."""
SCHEMA_VERSION = 1
FORMAT = "storm-companion-game"
"""The ``format`` field of an export's header line."""

BUSY_TIMEOUT = 0.25
"""Seconds a write waits for a lock another program holds before the entry waits in memory instead. Short:
no other box can hold the journal (the lock file), and the loop must not stall on a write."""
STOP_WAIT = 3.0
"""Seconds a stop gives waiting entries to reach the journal before they go to the recovery file
(systemd allows the whole stop 10 s, TimeoutStopSec)."""
STOP_POLL = 0.1
DAMAGED = "damaged"

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


_last_stamp = ""
"""The time the last write was stamped with (see :func:`_now`)."""


def _now() -> str:
    """The time of a write, to the millisecond, and later than the write before it in this process.

    A salvage of a damaged journal tells that a game's last entries are gone by their time: the last entry
    left must carry the game's ``updated`` time, the time of its last write (journal_salvage). Writes a
    moment apart (an undo and a decision, a game filled fast) would share a millisecond and hide such a
    loss, so a stamp that would not be later than the last one is moved one millisecond past it; the
    format (and so each row's size) stays as it was."""
    global _last_stamp
    stamp = datetime.now(UTC).isoformat(timespec="milliseconds")
    if stamp <= _last_stamp:
        stamp = (datetime.fromisoformat(_last_stamp) + timedelta(milliseconds=1)).isoformat(timespec="milliseconds")
    _last_stamp = stamp
    return stamp


@dataclass(frozen=True)
class Entry:
    """One row of a game's history: an event, an undo, or a re-roll replacing the last event."""

    kind: str
    event: Event | None = None
    rolls: tuple[RollRef, ...] = ()
    """The source rolls whose dice went into ``event`` (a D8 now and a D6 later: two), written in the same
    commit; bookkeeping for the tower link, never part of the game's history (an export leaves it out)."""

    def to_dict(self) -> dict[str, Any]:
        if self.kind == "undo":
            return {"type": "undo"}
        assert self.event is not None
        data = event_to_dict(self.event)
        if self.kind == "reroll":
            data = {"type": "reroll", "event": data}
        if self.rolls:
            data["rolls"] = [r.to_dict() for r in self.rolls]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Entry:
        kind = data.get("type") if isinstance(data, Mapping) else None
        if kind == "undo":
            return cls("undo")
        if kind == "reroll":
            inner = data.get("event")
            if not isinstance(inner, Mapping):
                raise CompanionError("a reroll entry needs an 'event' object")
            return cls("reroll", event_from_dict(inner), _rolls(data))
        if not isinstance(data, Mapping):
            raise CompanionError(f"an entry must be an object, got {data!r}")
        return cls("event", event_from_dict(data), _rolls(data))


def _rolls(data: Mapping[str, Any]) -> tuple[RollRef, ...]:
    """The entry's roll references; an entry written before they were kept has none, and one that does not read
    counts as none (the worst that can come of it is a roll the tower resends being played again, never a game
    that will not resume)."""
    try:
        return tuple(RollRef.from_dict(r) for r in data.get("rolls") or ())
    except (*BAD_DATA, AttributeError):
        return ()


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
    snapshots: list[tuple[int, int, int, str, str, str, bytes]] = field(default_factory=list)
    """States to store with these rows (see :mod:`companion.journal_snapshots`); dropped, not kept waiting, when
    the storage refuses the write: they are a cache."""
    forget: list[tuple[int, int]] = field(default_factory=list)
    """(game, live count): snapshots beyond it are deleted with these rows (an undo past them)."""

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
    """The on-disk history of every game; one instance per process, used from one thread.

    ``readonly=True`` (``companion games``, ``export``, ``journal check``) never creates, moves or writes
    anything: a missing journal reads as empty, a damaged one is a one-line DataError. Otherwise the
    journal is owned: an exclusive lock beside it (:mod:`companion.journal_lock`) is held until
    :meth:`close`, so a second box on the same file stops at start, naming the first one's PID.
    """

    IN_MEMORY = ", game kept in memory"
    DISK_FULL = "journal: disk full" + IN_MEMORY

    def __init__(self, path: Path | str | None = None, *, readonly: bool = False, max_pages: int | None = None,
                 busy_timeout: float = BUSY_TIMEOUT, stop_wait: float = STOP_WAIT) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.readonly = readonly
        self.notice = ""
        """One line for the panel when the journal is not what it should be (moved aside, disk full)."""
        self.problems: list[str] = []
        """One line per row that is not what the journal wrote (a games row whose options are not a JSON
        object, ...): that game is left out, the others are read as usual."""
        self.salvaged: Salvage | None = None
        """What was read back from a damaged journal set aside at start (None when nothing was set aside)."""
        self._max_pages = max_pages
        self._busy_timeout = busy_timeout
        self._stop_wait = stop_wait
        self._pending = _Pending()
        self._next_game_id: int | None = None
        self._next_idx: dict[int, int] = {}
        self._lock: JournalLock | None = None
        self._closed = False
        self._history: dict[int, HistoryDigest] = {}
        """Per game written here, the digest of its history so far (what a new snapshot says it summarises)."""
        self._snapshot_table: bool | None = None
        """Whether the snapshots table exists (None: not looked yet). It is made with the first snapshot, in
        that snapshot's transaction, so a journal without long games keeps the layout it always had, and a
        journal from before snapshots (same schema version, one table fewer) gets it the first time it needs it."""
        self._logged = Logged()
        self._verified: set[tuple[int, int, int, str]] = set()
        """Snapshots (game, live, entry_idx, digest) this open journal wrote, over the history digest it keeps:
        the rows before them are the owner's (the lock), written once and never changed, so a load that goes
        back to one does not read them again."""
        self._checks: dict[int, HistoryCheck] = {}
        """Per game, the check of its history at its snapshots' boundaries an earlier load made (see
        :meth:`_check_for`)."""
        self._later: list[tuple[Any, ...]] = []
        """Snapshots to store once the table has seen the roll that reached them (see :meth:`store_later`)."""
        self.write_behind = False
        """Set by the box's loop: a write's COMMIT (the fsync) finishes on a thread of its own while the loop
        draws; :meth:`join` waits for it before anything is shown (:mod:`companion.journal_writer`)."""
        self._behind: WriteBehind | None = None
        self._committing: _Pending | None = None
        """What the COMMIT under way on the writer thread writes (settled by :meth:`join`)."""
        if readonly:
            self._conn = self._open_readonly()
            return
        self._conn = self._open()
        try:
            self._import_recovery()
        except BaseException:
            self.close(0)
            raise

    @property
    def _db(self) -> sqlite3.Connection:
        """The connection, once a write finishing behind (on the writer thread) has ended: the journal's
        thread and the writer never use it at the same time."""
        self.join()
        return self._conn

    # -- opening, and what happens to a journal that cannot be used -------------------------------

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=self._busy_timeout, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        if self._max_pages is not None:
            db.execute(f"PRAGMA max_page_count={int(self._max_pages)}")
        return db

    def _connect_readonly(self) -> sqlite3.Connection:
        """A connection that writes nothing beside the journal. A WAL journal with no ``-wal`` file has no
        writer and all its rows in the main file: read it as immutable (opening it read-only would leave
        ``-wal`` and ``-shm`` files behind). With a ``-wal`` file (a box running, or killed) read it
        read-only through SQLite's locks, so what the box has committed is seen too."""
        wal = self.path.with_name(self.path.name + "-wal")
        with self.path.open("rb") as f:
            header = f.read(20)
        in_wal_mode = len(header) == 20 and header[18] == 2
        mode = "immutable=1" if in_wal_mode and not wal.exists() else "mode=ro"
        uri = f"file:{quote(str(self.path.resolve()))}?{mode}"
        return sqlite3.connect(uri, uri=True, timeout=self._busy_timeout, isolation_level=None,
                               check_same_thread=False)

    def _existing(self) -> bool:
        """True when there is a journal file to read; a one-line error when the path cannot be one."""
        try:
            if self.path.exists() and not self.path.is_file():
                raise CompanionError(f"journal {self.path}: not a file")
            return self.path.exists() and self.path.stat().st_size > 0
        except OSError as exc:  # a folder this user may not read (the service's own, 0750)
            raise CompanionError(f"journal {self.path}: cannot open ({exc.strerror})") from None

    def _inspect(self) -> tuple[sqlite3.Connection | None, str]:
        """Open the existing file read-only and say what is wrong with it ('' when nothing is)."""
        db: sqlite3.Connection | None = None
        try:
            db = self._connect_readonly()
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
            if _is_damage(exc):
                return None, f"{DAMAGED} ({exc})"
            raise UnavailableError(f"journal {self.path}: cannot open ({exc})") from None
        except OSError as exc:
            if db is not None:
                db.close()
            raise CompanionError(f"journal {self.path}: cannot open ({exc.strerror})") from None

    def _open_readonly(self) -> sqlite3.Connection:
        """Reading only: a missing journal is an empty one (nothing created), a bad one a one-line DataError."""
        if not self._existing():
            db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            db.executescript(_SCHEMA)
            return db
        found, why = self._inspect()
        if why:
            if found is not None:
                found.close()
            hint = (f"; nothing was changed: `companion journal salvage {self.path}` copies the games that can be "
                    "read, and `companion run` sets it aside and does the same" if why.startswith(DAMAGED) else
                    "; nothing was changed")
            raise DataError(f"journal {self.path}: {why}{hint}")
        assert found is not None
        return found

    def _open(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CompanionError(f"journal {self.path}: cannot create its folder ({exc.strerror})") from None
        existed = self._existing()
        self._lock = JournalLock(self.path)
        try:
            if existed:
                probe, why = self._inspect()
                if probe is not None:
                    probe.close()
                if why:
                    return self._set_aside(why)
            return self._open_writable(existed)
        except BaseException:
            self._lock.release()
            self._lock = None
            raise

    def _open_writable(self, existed: bool) -> sqlite3.Connection:
        db: sqlite3.Connection | None = None
        try:
            db = self._connect()
            if not existed:
                db.executescript(_SCHEMA)
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            return db
        except sqlite3.DatabaseError as exc:
            if db is not None:
                db.close()
            if _is_disk_full(exc):
                raise UnavailableError(f"journal {self.path}: disk full, cannot start a journal") from None
            raise UnavailableError(f"journal {self.path}: cannot open ({exc})") from None

    def _set_aside(self, why: str) -> sqlite3.Connection:
        """Move the file (and its -wal and -shm) to ``<name>.<time>.aside``, start a fresh journal, and copy
        into it every whole game that can still be read from a damaged one (:mod:`companion.journal_salvage`).
        A journal of another version is kept aside as it is: its rows are not this program's to read."""
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
        db = self._open_writable(existed=False)
        saved = ""
        if why.startswith(DAMAGED):
            from companion.journal_salvage import salvage

            self.salvaged = salvage(aside)
            self._adopt(db, self.salvaged)
            saved = f"; {self.salvaged.summary()}"
        self.notice = f"journal {self.path.name}: {why}; kept as {aside.name}, new journal started{saved}"
        return db

    def _adopt(self, db: sqlite3.Connection, found: Salvage) -> None:
        """The salvaged games into the new journal, under their own ids, in one transaction."""
        with transaction(db):
            for g in found.saved:
                db.execute("INSERT INTO games (id, game, options, created, updated, finished) VALUES (?,?,?,?,?,?)",
                           (g.id, g.game, g.options, g.created, g.updated, g.finished))
                db.executemany("INSERT INTO entries (game_id, idx, kind, event, accepted_at) VALUES (?,?,?,?,?)",
                               [(g.id, *row) for row in g.rows])

    def adopt(self, found: Salvage) -> None:
        """Add salvaged games to this (new, empty) journal: ``companion journal salvage``."""
        self._adopt(self._db, found)

    def _import_recovery(self) -> None:
        """Entries a stopped box could not write (see :mod:`companion.journal_recovery`): into the journal
        first, in order; rows the journal already holds are skipped, so importing twice changes nothing."""
        path = recovery_path(self.path)
        if not path.exists():
            return
        try:
            games, rows, finished = read_recovery(path)
        except (DataError, OSError) as exc:
            log.error("journal: recovery file not read, left as it is: %s", exc)
            self.notice = f"journal: recovery file {path.name} unreadable, left as it is"
            return
        db = self._db
        have_games = {r[0] for r in db.execute("SELECT id FROM games")}
        for gid, item in games.items():
            if gid not in have_games:
                self._pending.games[gid] = item
        known = have_games | set(games)
        for row in rows:
            gid, idx = row[0], row[1]
            if gid in known and not db.execute("SELECT 1 FROM entries WHERE game_id=? AND idx=?",
                                               (gid, idx)).fetchone():
                self._pending.rows.append(row)
                self._next_idx[gid] = max(idx + 1, self._next_index(gid))
        self._pending.finished.update({gid: done for gid, done in finished.items() if gid in known})
        count = len(self._pending.games) + len(self._pending.rows) + len(self._pending.finished)
        if self._flush():
            path.unlink()
            log.warning("journal: %d waiting writes from %s put in the journal", count, path.name)
        else:
            log.warning("journal: %d waiting writes from %s kept in memory until the journal takes them",
                        count, path.name)

    def close(self, timeout: float | None = None) -> None:
        """Stop using the journal. Entries still waiting in memory (the journal refusing writes) get up to
        ``timeout`` seconds (default ``stop_wait``) to reach it; what still waits then is written to the
        recovery file, which the next start puts in the journal. Nothing acknowledged is dropped."""
        if self._closed:
            return
        try:
            self.join()
        except (sqlite3.Error, OSError) as exc:
            log.warning("journal: the last write failed at close (%s)", exc)
        if self._behind is not None:
            self._behind.close()
        if self._later and not self.readonly and not self._pending:
            try:
                self.store_later()  # a clean stop keeps the snapshots a next start resumes from
            except sqlite3.Error as exc:
                log.info("journal: snapshots not stored at close (%s)", exc)
        self._closed = True
        try:
            if self._pending and not self.readonly:
                deadline = time.monotonic() + (self._stop_wait if timeout is None else timeout)
                while not self._flush() and time.monotonic() < deadline:
                    time.sleep(min(STOP_POLL, max(0.0, deadline - time.monotonic())))
                if self._pending:
                    self._save_recovery()
        finally:
            self._db.close()
            if self._lock is not None:
                self._lock.release()
                self._lock = None

    def _save_recovery(self) -> None:
        lines = recovery_lines(self._pending.games, self._pending.rows, self._pending.finished)
        path = recovery_path(self.path)
        try:
            write_recovery(path, lines)
        except OSError as exc:  # the last place left is the log: journald keeps it on another disk
            log.error("journal: %d waiting writes could not be kept (%s); they follow, one a line",
                      len(lines), exc.strerror)
            for line in lines:
                log.error("journal: lost write: %s", line)
            return
        log.warning("journal: still refusing writes at stop; %d waiting writes kept in %s, "
                    "the next start puts them in the journal", len(lines), path.name)
        self._pending = _Pending()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------------

    @property
    def degraded(self) -> bool:
        """True while some accepted entries live only in memory (disk full). A write still finishing
        behind the caller is not counted: its outcome is known at :meth:`join`."""
        return bool(self._pending) and not self.writing

    @property
    def writing(self) -> bool:
        """A write is finishing behind the caller (its COMMIT under way): not known to be on disk yet."""
        return self._behind is not None and self._behind.busy

    @property
    def landing(self) -> Landing | None:
        """The write finishing behind the caller, to wait for on another thread (None when none is)."""
        return self._behind.landing if self.writing and self._behind is not None else None

    def join(self) -> bool:
        """Wait for a write finishing behind the caller; True when every accepted entry is on disk."""
        behind = self._behind
        if behind is not None and behind.busy and not behind.on_thread():
            pending, self._committing = self._committing, None
            try:
                behind.join()
            except (sqlite3.DatabaseError, OSError) as exc:
                self._snapshot_table = None
                if pending is None:
                    raise
                self._refused(pending, exc)
            else:
                if pending is not None:
                    self._written(pending)
        return not self._pending

    def _write(self) -> bool:
        """Write what waits: all here, or with :attr:`write_behind` the statements here and the COMMIT on the
        writer thread (True then: the outcome is :meth:`join`'s)."""
        self.join()
        behind = self.write_behind and bool(self._pending) and not self.readonly and not self._closed
        return self._flush(behind=behind)

    def _commit_behind(self) -> None:
        """The open transaction's COMMIT handed to the writer thread (rolled back there if it fails)."""
        db = self._conn

        def commit() -> None:
            try:
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

        if self._behind is None:
            self._behind = WriteBehind()
        self._behind.start(commit)

    def new_game(self, game: str, options: Mapping[str, Any]) -> int:
        """A new game's id; its row is written now (or kept in memory if the disk is full)."""
        self._writable()
        self.join()  # what waits is not touched while its COMMIT is under way
        created = _now()
        opts = json.dumps(dict(options), sort_keys=True)
        if self._next_game_id is None:
            row = self._db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()
            # games still waiting (from a recovery file the journal has not taken yet) keep their ids
            self._next_game_id = max(int(row[0]), *self._pending.games, 0) + 1
        game_id = self._next_game_id
        self._next_game_id += 1
        self._next_idx[game_id] = 0
        self._pending.games[game_id] = (game, opts, created)
        self._history[game_id] = HistoryDigest(game, opts)
        self._write()
        return game_id

    def append(self, game_id: int, entry: Entry, *, snapshot: tuple[int, str, Any, Any, str, Types] | None = None,
               forget_after: int | None = None, later: bool = False) -> bool:
        """Journal one entry; True once it is on disk, False if it waits in memory (disk full).

        ``snapshot`` (live count, version tag, state, last live event, live chain, the classes the state may be
        made of): the state this entry reaches,
        stored in the same transaction (:mod:`companion.journal_snapshots`), or with ``later`` kept until
        :meth:`store_later` (the box stores it once the table has seen the roll: packing a state costs a roll
        several milliseconds). ``forget_after``: delete the game's snapshots of more live events than this (an
        undo or re-roll took one of their events back)."""
        if entry.kind not in ENTRY_KINDS:
            raise ValueError(f"unknown entry kind {entry.kind!r}")
        self._writable()
        self.join()  # what waits is not touched while its COMMIT is under way
        idx = self._next_index(game_id)
        payload = json.dumps(entry.to_dict(), sort_keys=True)
        self._pending.rows.append((game_id, idx, entry.kind, payload, _now()))
        self._next_idx[game_id] = idx + 1
        if game_id in self._history:
            self._history[game_id].add(payload)
        if forget_after is not None:
            self._pending.forget.append((game_id, forget_after))
            self._later = [x for x in self._later if x[0] != game_id or x[1] <= forget_after]
        if snapshot is not None:
            live, version, state, last, chain, types = snapshot
            digest = self._history_digest(game_id)
            if digest is not None and later:
                self._later.append((game_id, live, idx + 1, digest.hexdigest(), version, state, last, chain, types))
            elif digest is not None and (packed := _packed(state, last, chain, types)) is not None:
                data, checksum = packed
                self._pending.snapshots.append((game_id, live, idx + 1, digest.hexdigest(), version, checksum, data))
        return self._write()

    def store_later(self) -> bool:
        """The snapshots kept by ``append(..., later=True)`` written now, in a transaction of their own; True when
        some were. Dropped instead while entries wait in memory (they would follow rows not on disk) or the
        storage refuses them: a snapshot is a cache, the entries are the record."""
        self.join()
        later, self._later = self._later, []
        if not later or self.readonly or self._closed:
            return False
        if self._pending:
            return False
        pending = _Pending()
        for gid, live, idx, digest, version, state, last, chain, types in later:
            if (packed := _packed(state, last, chain, types)) is not None:
                data, checksum = packed
                pending.snapshots.append((gid, live, idx, digest, version, checksum, data))
        try:
            with self._writing():
                self._write_snapshots(pending)
        except (sqlite3.DatabaseError, OSError) as exc:
            if not _is_storage_trouble(exc):
                raise
            log.info("journal: a snapshot was not stored (%s)", str(exc)[:60])
            return False
        self._verified.update((gid, live, idx, digest) for gid, live, idx, digest, *_ in pending.snapshots)
        return True

    def _history_digest(self, game_id: int) -> HistoryDigest | None:
        """The digest of the game's history so far, read once from the rows for a game this process did not
        start (resumed by a full replay, imported); None for a game the journal does not hold."""
        if game_id not in self._history:
            seed = self._seed(game_id)
            if seed is None:
                return None
            digest = rows_digest(self._db, seed, game_id, 1 << 62)
            for gid, _idx, _kind, payload, _at in self._pending.rows:
                if gid == game_id:
                    digest.add(payload)
            self._history[game_id] = digest
        return self._history[game_id]

    def _seed(self, game_id: int) -> HistoryDigest | None:
        """The start of a game's history digest: its key and its options, as the journal holds them."""
        if game_id in self._pending.games:
            game, opts, _ = self._pending.games[game_id]
            return HistoryDigest(game, opts)
        row = self._db.execute("SELECT game, options FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            return None
        try:
            return HistoryDigest(str(row[0]), canonical_options(json.loads(row[1])))
        except (*BAD_DATA, AttributeError):
            return None

    def mark_finished(self, game_id: int, finished: bool = True) -> bool:
        """Record that the game has ended (or, after an undo of its last event, that it is open again)."""
        self._writable()
        self.join()
        self._pending.finished[game_id] = finished
        return self._write()

    def _writable(self) -> None:
        if self.readonly or self._closed:
            raise CompanionError(f"journal {self.path}: opened for reading only")

    def retry(self) -> bool:
        """Try again to write what waits in memory; True when nothing waits any more."""
        self.join()
        return self._flush()

    def _next_index(self, game_id: int) -> int:
        if game_id not in self._next_idx:
            row = self._db.execute("SELECT COALESCE(MAX(idx) + 1, 0) FROM entries WHERE game_id=?",
                                   (game_id,)).fetchone()
            self._next_idx[game_id] = int(row[0])
        return self._next_idx[game_id]

    @contextmanager
    def _writing(self, commit: Callable[[], None] | None = None) -> Iterator[None]:
        """One write :func:`transaction` on the journal; a snapshots table made inside it is gone with it if
        it fails, so the next write looks again."""
        try:
            with transaction(self._db, commit):
                yield
        except BaseException:
            self._snapshot_table = None
            raise

    def _flush(self, behind: bool = False) -> bool:
        """Write what waits, in one transaction; False (and a notice) when the storage refuses it. ``behind``:
        the COMMIT is handed to the writer thread, and what it comes to is settled by :meth:`join`."""
        if not self._pending:
            return True
        pending = self._pending
        try:
            with self._writing(self._commit_behind if behind else None):
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
                if pending.snapshots or pending.forget:
                    self._write_snapshots(pending)
        except (sqlite3.DatabaseError, OSError) as exc:
            return self._refused(pending, exc)
        if behind:
            self._committing = pending
        else:
            self._written(pending)
        return True

    def _refused(self, pending: _Pending, exc: BaseException) -> bool:
        """The storage refused ``pending`` (disk full, read-only): it waits in memory and the notice says so;
        anything else is a bug and raised. False."""
        if not _is_storage_trouble(exc):
            raise exc
        pending.snapshots.clear()  # a cache: not kept waiting in memory (a long game's state is large)
        reason = "disk full" if _is_disk_full(exc) else f"cannot write ({str(exc)[:40]})"
        trouble = f"journal: {reason}{self.IN_MEMORY}"
        if trouble != self.notice:
            log.warning("%s (%s)", trouble, self.path)
        self.notice = trouble
        return False

    def _written(self, pending: _Pending) -> None:
        """``pending`` is on disk: nothing waits any more, and a write trouble notice is over."""
        self._verified.update((gid, live, idx, digest) for gid, live, idx, digest, *_ in pending.snapshots)
        self._pending = _Pending()
        if self.is_write_notice(self.notice):
            log.info("journal: every entry written again (%s)", self.path)
            self.notice = ""

    def _write_snapshots(self, pending: _Pending) -> None:
        """Inside the flush's transaction: the undone snapshots out, the new ones in, only the newest KEEP kept."""
        if not self._has_snapshot_table():
            if not pending.snapshots:
                return
            self._db.execute(SNAPSHOT_SCHEMA.strip().rstrip(";"))
            self._snapshot_table = True
        for gid, live in pending.forget:
            self._db.execute("DELETE FROM snapshots WHERE game_id=? AND live>?", (gid, live))
        for row in pending.snapshots:
            self._db.execute("INSERT OR REPLACE INTO snapshots (game_id, live, entry_idx, digest, version, checksum, "
                             "payload) VALUES (?,?,?,?,?,?,?)", row)
        for gid in {row[0] for row in pending.snapshots}:
            self._db.execute("DELETE FROM snapshots WHERE game_id=? AND live NOT IN "
                             "(SELECT live FROM snapshots WHERE game_id=? ORDER BY live DESC LIMIT ?)",
                             (gid, gid, KEEP))

    @classmethod
    def is_write_notice(cls, text: str) -> bool:
        """True for the notice of entries waiting in memory (it goes once they are written)."""
        return text.startswith("journal: ") and text.endswith(cls.IN_MEMORY)

    # -- reading ---------------------------------------------------------------------------------

    def games(self) -> list[GameRecord]:
        """Every saved game, newest first (including games still waiting in memory). A row that is not what
        the journal wrote is left out, with one line in :attr:`problems` (and the log, once)."""
        return self._records(counted=True)

    def _records(self, *, counted: bool) -> list[GameRecord]:
        """:meth:`games`; with ``counted`` False each record's ``entries`` counts only the rows waiting in memory
        (counting every game's rows is a scan of the whole entries index: 2 ms at 10,000 entries)."""
        if counted:
            rows = self._db.execute(
                "SELECT g.id, g.game, g.options, g.created, g.updated, g.finished, COUNT(e.idx) "
                "FROM games g LEFT JOIN entries e ON e.game_id = g.id GROUP BY g.id ORDER BY g.id DESC").fetchall()
        else:
            rows = [(*row, 0) for row in self._db.execute(
                "SELECT id, game, options, created, updated, finished FROM games ORDER BY id DESC")]
        waiting: dict[int, int] = {}
        for p in self._pending.rows:
            waiting[p[0]] = waiting.get(p[0], 0) + 1
        records = []
        for gid, game, opts, created, updated, finished, count in rows:
            options = self._row_options(gid, game, opts, created, updated)
            if options is not None:
                records.append(GameRecord(gid, game, options, created, updated,
                                          self._pending.finished.get(gid, bool(finished)), count + waiting.get(gid, 0)))
        for gid, (game, opts, created) in self._pending.games.items():
            records.append(GameRecord(gid, game, json.loads(opts), created, created,
                                      self._pending.finished.get(gid, False), waiting.get(gid, 0)))
        return sorted(records, key=lambda g: -g.id)

    def _row_options(self, gid: Any, game: Any, opts: Any, created: Any, updated: Any) -> dict[str, Any] | None:
        """The options of a games row, or None (and a line in :attr:`problems`) if the row is not one the
        journal wrote: one bad row must not hide the other games, nor stop a start."""
        column, why = "", ""
        if not isinstance(game, str):
            column, why = "game", f"{type(game).__name__}, not text"
        elif not (isinstance(created, str) and isinstance(updated, str)):
            column, why = "created/updated", "not text"
        else:
            try:
                options = json.loads(opts) if isinstance(opts, str) else None
            except (ValueError, RecursionError):
                options = None
                column, why = "options", "not JSON"
            if isinstance(options, dict):
                return options
            if not column:
                kind = "a JSON list" if isinstance(options, list) else "not a JSON object"
                column, why = "options", kind if isinstance(opts, str) else f"{type(opts).__name__}, not text"
        self._problem(f"journal {self.path.name}: game {gid}: column {column}: {why}; game left out")
        return None

    def _problem(self, line: str) -> None:
        """Kept in :attr:`problems`; logged by the box (a reading command prints them itself)."""
        if line not in self.problems:
            self.problems.append(line)
            if not self.readonly:
                log.warning("%s", line)

    def game(self, game_id: int) -> GameRecord:
        for record in self.games():
            if record.id == game_id:
                return record
        for line in self.problems:
            if f": game {game_id}: " in line:
                raise DataError(line)
        raise CompanionError(f"no saved game {game_id} in {self.path}")

    def last_unfinished(self) -> GameRecord | None:
        """The most recently played game that has not ended, the one to resume on start."""
        open_games = [g for g in self._records(counted=False) if not g.finished]
        if not open_games:
            return None
        last = max(open_games, key=lambda g: (g.updated, g.id))
        self.check_snapshots(last.id)  # the game a start resumes: its history is read for the check from now on
        # Its rows are numbered 0..n-1 (appends number them so, salvage keeps only such games): the count is the
        # index's last entry plus one, one seek, where COUNT(*) walked every entry (0.5-1 ms at 10,000).
        (stored,) = self._db.execute("SELECT COALESCE(MAX(idx) + 1, 0) FROM entries WHERE game_id=?",
                                     (last.id,)).fetchone()
        return replace(last, entries=last.entries + stored)

    def entries(self, game_id: int) -> list[Entry]:
        """The game's history in order, undo and re-roll rows included."""
        rows = self._db.execute("SELECT idx, kind, event FROM entries WHERE game_id=? ORDER BY idx",
                                (game_id,)).fetchall()
        pending = [(idx, kind, payload) for gid, idx, kind, payload, _ in self._pending.rows if gid == game_id]
        out = []
        for idx, _kind, payload in [*rows, *pending]:
            try:
                out.append(Entry.from_dict(json.loads(payload)))
            except (*BAD_DATA, CompanionError) as exc:
                raise DataError(f"{self.path}: game {game_id} entry {idx}: {reason(exc)}") from None
        return out

    def events(self, game_id: int) -> list[LiveEvent]:
        return live_events(self.entries(game_id))

    # -- snapshots (companion.journal_snapshots) -------------------------------------------------------

    def snapshot_point(self, game_id: int, version: str, types: Types, at_most: int | None = None, *,
                       one_after: bool = False, fold: Callable[[Point], Any] | None = None) -> Point | None:
        """The newest stored state of the game that holds, with at most ``at_most`` live events: made by
        this engine version, its payload whole, its digest equal to the one of the history rows it summarises
        (recomputed from them now), and none of its events taken back since. None: replay every event.

        ``one_after``: rather the snapshot before one that no event follows (a game cut right after a snapshot
        was stored), so the caller replays up to :data:`SNAPSHOT_EVERY` events and passes through the state
        before the last one: the first undo after a resume is then in memory, not a second load. The newest is
        still used when no older one holds.

        ``fold(point)`` is called with a candidate (its ``folded`` still None) while its history is still being
        checked (the replay of the events after it, and whatever else the caller builds from it, then cost no
        time of their own); its result is the Point's ``folded``, and is thrown away with the state when the
        check fails. What it raises is raised only for a snapshot that held (the same error the full replay would
        meet).

        Any failure reading the snapshots (a cell whose type was flipped to text that is not UTF-8, a page
        SQLite will not read) means the replay, logged once: a snapshot is a cache, never a reason a game does
        not resume."""
        try:
            return self._snapshot_point(game_id, version, types, at_most, one_after, fold)
        except sqlite3.Error as exc:
            self._logged.ignored(self.path, game_id, None, f"they do not read: {reason(exc)}")
            return None

    def _snapshot_point(self, game_id: int, version: str, types: Types, at_most: int | None, one_after: bool,
                        fold: Callable[[Point], Any] | None) -> Point | None:
        if not self._has_snapshot_table():
            return None
        seed = self._seed(game_id)
        if seed is None:
            return None
        limit = at_most if at_most is not None else 1 << 62
        candidates = self._db.execute(
            "SELECT live, entry_idx, digest, version, checksum FROM snapshots WHERE game_id=? AND live<=? "
            "ORDER BY live DESC", (game_id, limit)).fetchall()
        unchecked = [idx for live, idx, digest, tag, _ in candidates
                     if tag == version and not self._written_here(game_id, live, idx, digest)]
        check = self._check_for(game_id, seed, unchecked)
        spared: tuple[int, int, str, str, str] | None = None
        for live, entry_idx, digest, tag, checksum in candidates:
            point = self._try_snapshot(game_id, check, live, entry_idx, digest, tag, checksum, version, types,
                                       spare=one_after and spared is None, fold=fold)
            if point is _LAST:
                spared = (live, entry_idx, digest, tag, checksum)
            elif isinstance(point, Point):
                return point
        if spared is not None:
            live, entry_idx, digest, tag, checksum = spared
            point = self._try_snapshot(game_id, check, live, entry_idx, digest, tag, checksum, version, types,
                                       fold=fold)
            return point if isinstance(point, Point) else None
        return None

    def check_snapshots(self, game_id: int) -> None:
        """Start checking the game's snapshots against its history now, on a thread of its own: the scan then
        runs while the caller loads the game's engine, and :meth:`snapshot_point` finds it under way. Nothing for
        a read-only journal (only the owner keeps a check) or a game without snapshots. Returns once the scan is
        inside SQLite (see :class:`HistoryCheck`; not waiting for that cost a resume 4 ms)."""
        if self.readonly or not self._has_snapshot_table():
            return
        seed = self._seed(game_id)
        if seed is not None:
            try:
                rows = self._db.execute("SELECT live, entry_idx, digest FROM snapshots WHERE game_id=?",
                                        (game_id,)).fetchall()
            except sqlite3.Error:
                return  # the load that follows meets it again, says so and replays
            self._check_for(game_id, seed, [idx for live, idx, digest in rows
                                            if not self._written_here(game_id, live, idx, digest)])

    def _reader(self) -> sqlite3.Connection:
        """A connection of its own for a thread that only reads (the snapshots' check)."""
        if self.readonly:
            return self._connect_readonly()
        return sqlite3.connect(self.path, timeout=self._busy_timeout, isolation_level=None, check_same_thread=False)

    def _written_here(self, game_id: int, live: int, entry_idx: int, digest: str) -> bool:
        """A snapshot this open journal wrote (or checked) over the history it keeps the digest of: the rows before
        it are the owner's (the lock), written once and never changed, so they are not read again."""
        return (game_id, live, entry_idx, digest) in self._verified and game_id in self._history

    def _check_for(self, game_id: int, seed: HistoryDigest, bounds: list[int]) -> HistoryCheck | None:
        """The check of the history at these boundaries: started now (one scan for all of them), or the one an
        earlier load of this open journal made when it covers them (the rows before a boundary are the owner's,
        written once; a read-only journal, owning nothing, checks anew each time)."""
        if not bounds:
            return None
        known = self._checks.get(game_id) if not self.readonly else None
        if known is not None and all(known.covers(b) for b in bounds):
            return known
        start: tuple[int, HistoryDigest] = (0, seed)
        if known is not None:
            before = [item for item in known.known() if item[0] <= min(bounds)]
            start = before[-1] if before else start
            bounds = sorted({*bounds, *known.bounds})
        check = HistoryCheck(self._reader, game_id, bounds, start)
        if not self.readonly:
            self._checks[game_id] = check
        return check

    def _try_snapshot(self, game_id: int, check: HistoryCheck | None, live: int, entry_idx: int, digest: str,
                      tag: str, checksum: str, version: str, types: Types, spare: bool = False,
                      fold: Callable[[Point], Any] | None = None) -> Point | object | None:
        """The snapshot as a Point when it holds, else None; with ``spare``, :data:`_LAST` (nothing read or
        unpickled) when no live event follows it (see :meth:`snapshot_point`)."""
        if tag != version:
            self._logged.ignored(self.path, game_id, live, "made by other code or map data")
            return None
        rows = self._rows_from(game_id, entry_idx)
        try:
            tail = fold_from(live, [Entry.from_dict(json.loads(payload)) for _idx, payload in rows])
        except (*BAD_DATA, CompanionError):
            return None  # a row no replay can read either: the full replay says which
        if tail is None:
            return None  # undone past since: simply no longer the state of this game
        if spare and not tail and live > 0:
            return _LAST
        row = self._db.execute("SELECT payload FROM snapshots WHERE game_id=? AND live=?", (game_id, live)).fetchone()
        data = bytes(row[0]) if row is not None and isinstance(row[0], bytes) else b""
        if hashlib.sha256(data).hexdigest() != checksum:
            self._logged.ignored(self.path, game_id, live, "its payload is damaged")
            return None
        try:
            state, last, chain = unpack(data, types)  # plain data: reading it runs no code it names
        except Exception as exc:  # whatever reading it raises, the answer is a full replay
            self._logged.ignored(self.path, game_id, live, f"its payload does not read: {reason(exc)}")
            return None
        point, failed = Point(live, entry_idx, state, last, chain, tail), None
        if fold is not None:
            try:
                point = replace(point, folded=fold(point))  # meanwhile the check's thread reads and hashes the history
            except Exception as exc:  # kept until the check says whose error it is
                failed = exc
        if self._written_here(game_id, live, entry_idx, digest):
            if failed is not None:
                raise failed
            return point
        try:
            history = check.digest_at(entry_idx) if check is not None else None
        except sqlite3.Error as exc:  # the rows could not be read to check it: not trusted, the replay says more
            self._logged.ignored(self.path, game_id, live, f"the events it summarises could not be read ({exc})")
            return None
        if history is None or history.hexdigest() != digest:
            self._logged.ignored(self.path, game_id, live, "the events it summarises have changed")
            return None
        if failed is not None:
            raise failed
        if not self.readonly and game_id not in self._history:
            history = history.copy()
            for _idx, payload in rows:
                history.add(payload)
            self._history[game_id] = history
        return point

    def _has_snapshot_table(self) -> bool:
        if not self._snapshot_table:  # looked up until found: a table made by this process's own flush is known
            self._snapshot_table = has_table(self._db)
        return self._snapshot_table

    def _rows_from(self, game_id: int, start: int) -> list[tuple[int, str]]:
        """The stored text of the game's rows from ``idx`` ``start`` on, waiting ones included."""
        rows = self._db.execute("SELECT idx, event FROM entries WHERE game_id=? AND idx>=? ORDER BY idx",
                                (game_id, start)).fetchall()
        rows += [(idx, payload) for gid, idx, _kind, payload, _ in self._pending.rows
                 if gid == game_id and idx >= start]
        return rows

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
            yield json.dumps(replace(entry, rolls=()).to_dict(), sort_keys=True)  # this box's tower's bookkeeping

    def import_lines(self, lines: Iterable[str], name: str = "<input>") -> int:
        """A new game from exported lines; returns its id. Errors name the file and line."""
        header, entries = parse_export(lines, name)
        game_id = self.new_game(header["game"], header["options"])
        for entry in entries:
            self.append(game_id, entry)
        if header.get("finished") is True:
            self.mark_finished(game_id)
        return game_id


def _packed(state: Any, last: Any, chain: str, types: Types) -> tuple[bytes, str] | None:
    """:func:`pack`, or None (logged) for a state holding a value the codec does not write: a snapshot is a
    cache, the game goes on and a load replays its events."""
    try:
        return pack(state, last, chain, types)
    except (Unencodable, ValueError, RecursionError) as exc:
        log.info("journal: a snapshot was not stored (%s)", reason(exc))
        return None


BAD_DATA = (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError)
"""What reading or replaying values no box writes may raise (a file edited by hand or made by another
program: 1e400 where a die goes, JSON nested ten thousand deep): refused with its line, never a traceback."""


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


def reason(exc: BaseException) -> str:
    """A one-line reason for a value that would not read (never a Python repr of a huge input)."""
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if isinstance(exc, OverflowError):
        return "a number out of range"
    return str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__


def parse_export(lines: Iterable[str], name: str = "<input>") -> tuple[dict[str, Any], list[Entry]]:
    """Read an export: the header and the entries (plain events; undo/reroll rows are accepted too)."""
    header: dict[str, Any] | None = None
    entries: list[Entry] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise DataError(f"{name}: line {number}: not JSON ({getattr(exc, 'msg', None) or reason(exc)})") from None
        if header is None:
            if not isinstance(data, dict) or not isinstance(data.get("game"), str):
                raise DataError(f"{name}: line {number}: the header needs a \"game\" key naming the game")
            options = data.get("options", {})
            if not isinstance(options, dict):
                raise DataError(f"{name}: line {number}: header.options must be an object")
            header = {**data, "options": options}
            continue
        try:
            entries.append(replace(Entry.from_dict(data), rolls=()))  # another box's tower's rolls: not ours
        except (*BAD_DATA, CompanionError) as exc:
            raise DataError(f"{name}: line {number}: {reason(exc)}") from None
    if header is None:
        raise DataError(f"{name}: empty, expected a header line {{\"game\": ..., \"options\": ...}}")
    return header, entries
