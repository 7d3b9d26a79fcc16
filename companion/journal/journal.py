"""The journal: every accepted event of every game, on disk before it is shown (the package's top: it puts the
entries, the store, the writer thread, the snapshots, the salvage, the recovery file and the lock together).

One process owns a journal (an exclusive lock beside it, :mod:`companion.journal.lock`); a second box
on the same file stops at start naming the first one's PID. Commands that only read take no lock and
never create, move or write anything.

A journal from another schema version, or a file that is not a sound database, is moved aside by the
owner (renamed with a time-stamp suffix, never deleted, with its -wal and -shm) and a fresh journal is
started; from a damaged file every whole game that can still be read is copied in
(:mod:`companion.journal.salvage`), and :attr:`Journal.notice` says so in one line with how many games
were saved and how many not. An empty file beside a write-ahead log that may hold games is such a damaged
file: SQLite would read it as a new journal and reset the log. A journal that is sound but cannot be opened
now (locked by another program, a folder it may not write, a directory in its place) is never moved: that is
a one-line CompanionError. A row that is not what the journal wrote (options that are not a JSON object)
leaves out that game alone, with one line in :attr:`Journal.problems`.

A full disk, or any other write the storage refuses (an SD card remounted read-only, a lock another
program holds), does not stop the game: entries wait in memory, :attr:`Journal.notice` says so (and the
log, once), and every later write (or :meth:`Journal.retry`) tries again, in order. :meth:`Journal.close`
gives them a bounded time and then keeps them in a recovery file the next start puts in the journal
(:mod:`companion.journal.recovery`).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError, DataError
from companion.journal import boards, store
from companion.journal.codec import Types
from companion.journal.entries import (
    BAD_DATA,
    ENTRY_KINDS,
    FORMAT,
    SCHEMA_VERSION,
    Entry,
    GameRecord,
    LiveEvent,
    live_events,
    now,
    parse_export,
    reason,
)
from companion.journal.history import Point
from companion.journal.lock import JournalLock
from companion.journal.recovery import read as read_recovery
from companion.journal.recovery import recovery_path
from companion.journal.recovery import to_lines as recovery_lines
from companion.journal.recovery import write as write_recovery
from companion.journal.snapshots import SnapshotStore
from companion.journal.store import (
    BUSY_TIMEOUT,
    DAMAGED,
    Pending,
    default_path,
    is_disk_full,
    is_storage_trouble,
    transaction,
)
from companion.journal.writer import Landing, WriteBehind

if TYPE_CHECKING:
    from companion.journal.salvage import Salvage, SavedGame

log = logging.getLogger(__name__)

STOP_WAIT = 3.0
"""Seconds a stop gives waiting entries to reach the journal before they go to the recovery file
(systemd allows the whole stop 10 s, TimeoutStopSec)."""
STOP_POLL = 0.1



class Journal:
    """The on-disk history of every game; one instance per process, used from one thread.

    ``readonly=True`` (``companion games``, ``export``, ``journal check``) never creates, moves or writes
    anything: a missing journal reads as empty, a damaged one is a one-line DataError. Otherwise the
    journal is owned: an exclusive lock beside it (:mod:`companion.journal.lock`) is held until
    :meth:`close`, so a second box on the same file stops at start, naming the first one's PID.
    """

    IN_MEMORY = ", game kept in memory"
    DISK_FULL = "journal: disk full" + IN_MEMORY

    def __init__(self, path: Path | str | None = None, *, readonly: bool = False, max_pages: int | None = None,
                 busy_timeout: float = BUSY_TIMEOUT, stop_wait: float = STOP_WAIT,
                 replays: Callable[[SavedGame], str] | None = None) -> None:
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
        self._replays = replays
        """What a salvage at start asks of each game before it counts it saved (the box: that it replays,
        :func:`companion.journal.replays.replay_check`; without it, that its rows read)."""
        self._busy_timeout = busy_timeout
        self._stop_wait = stop_wait
        self._pending = Pending()
        self._next_game_id: int | None = None
        self._next_idx: dict[int, int] = {}
        self._lock: JournalLock | None = None
        self._closed = False
        self.snapshots = SnapshotStore(self)
        """The games' stored states (:mod:`companion.journal.snapshots`)."""
        self.write_behind = False
        """Set by the box's loop: a write's COMMIT (the fsync) finishes on a thread of its own while the loop
        draws; :meth:`join` waits for it before anything is shown (:mod:`companion.journal.writer`)."""
        self._behind: WriteBehind | None = None
        self._committing: Pending | None = None
        """What the COMMIT under way on the writer thread writes (settled by :meth:`join`)."""
        if readonly:
            self._conn = store.open_readonly(self.path, self._busy_timeout)
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

    @property
    def db(self) -> sqlite3.Connection:
        """The connection (see :attr:`_db`), for the journal's own parts."""
        return self._db

    @property
    def pending(self) -> Pending:
        """The writes waiting in memory."""
        return self._pending

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def busy_timeout(self) -> float:
        return self._busy_timeout

    def reader(self) -> sqlite3.Connection:
        """A connection of its own for a thread that only reads (the snapshots' check)."""
        if self.readonly:
            return store.connect_readonly(self.path, self._busy_timeout)
        return sqlite3.connect(self.path, timeout=self._busy_timeout, isolation_level=None, check_same_thread=False)

    # -- opening, and what happens to a journal that cannot be used -------------------------------

    def _open(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CompanionError(f"journal {self.path}: cannot create its folder ({exc.strerror})") from None
        existed = store.existing(self.path)
        self._lock = JournalLock(self.path)
        try:
            if existed:
                probe, why = store.inspect(self.path, self._busy_timeout)
                if probe is not None:
                    probe.close()
                if why:
                    return self._set_aside(why)
            return store.open_writable(self.path, existed, self._busy_timeout, self._max_pages)
        except BaseException:
            self._lock.release()
            self._lock = None
            raise

    def _set_aside(self, why: str) -> sqlite3.Connection:
        """Move the file (and its -wal and -shm) aside (:func:`store.move_aside`), start a fresh journal, and copy
        into it every whole game that can still be read from a damaged one (:mod:`companion.journal.salvage`).
        A journal of another version is kept aside as it is: its rows are not this program's to read."""
        aside = store.move_aside(self.path, why)
        db = store.open_writable(self.path, False, self._busy_timeout, self._max_pages)
        saved = ""
        if why.startswith(DAMAGED):
            # Imported here, once a damaged journal is met, for start-up time: a box starting on a sound journal
            # (every evening) never loads the row-by-row reader.
            from companion.journal.salvage import salvage

            self.salvaged = salvage(aside, self._replays)
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
                boards.write(db, [(g.id, name, content) for name, content in g.files])

    def adopt(self, found: Salvage) -> None:
        """Add salvaged games to this (new, empty) journal: ``companion journal salvage``."""
        self._adopt(self._db, found)

    def _import_recovery(self) -> None:
        """Entries a stopped box could not write (see :mod:`companion.journal.recovery`): into the journal
        first, in order; rows the journal already holds are skipped, so importing twice changes nothing."""
        path = recovery_path(self.path)
        if not path.exists():
            return
        try:
            games, rows, finished, files = read_recovery(path)
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
        self._pending.files += [item for item in files if item[0] in self._pending.games]
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
        if self.snapshots.waiting and not self.readonly and not self._pending:
            try:
                self.snapshots.store_later()  # a clean stop keeps the snapshots a next start resumes from
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
        lines = recovery_lines(self._pending.games, self._pending.rows, self._pending.finished, self._pending.files)
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
        self._pending = Pending()

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
                self.snapshots.table_unknown()
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

    def new_game(self, game: str, options: Mapping[str, Any], files: Mapping[str, bytes] | None = None) -> int:
        """A new game's id; its row is written now (or kept in memory if the disk is full). ``files``: the data
        files its engine was built from, by name, kept with it (:mod:`companion.journal.boards`)."""
        self._writable()
        self.join()  # what waits is not touched while its COMMIT is under way
        created = now()
        opts = json.dumps(dict(options), sort_keys=True)
        if self._next_game_id is None:
            row = self._db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()
            # games still waiting (from a recovery file the journal has not taken yet) keep their ids
            self._next_game_id = max(int(row[0]), *self._pending.games, 0) + 1
        game_id = self._next_game_id
        self._next_game_id += 1
        self._next_idx[game_id] = 0
        self._pending.games[game_id] = (game, opts, created)
        self._pending.files += [(game_id, name, bytes(content)) for name, content in sorted((files or {}).items())]
        self.snapshots.started(game_id, game, opts)
        self._write()
        return game_id

    def append(self, game_id: int, entry: Entry, *, snapshot: tuple[int, str, Any, Any, str, Types] | None = None,
               forget_after: int | None = None, later: bool = False) -> bool:
        """Journal one entry; True once it is on disk, False if it waits in memory (disk full).

        ``snapshot`` (live count, version tag, state, last live event, live chain, the classes the state may be
        made of): the state this entry reaches,
        stored in the same transaction (:mod:`companion.journal.snapshots`), or with ``later`` kept until
        :meth:`store_later` (the box stores it once the table has seen the roll: packing a state costs a roll
        several milliseconds). ``forget_after``: delete the game's snapshots of more live events than this (an
        undo, re-roll or mend took one of their events back or changed it)."""
        if entry.kind not in ENTRY_KINDS:
            raise ValueError(f"unknown entry kind {entry.kind!r}")
        self._writable()
        self.join()  # what waits is not touched while its COMMIT is under way
        idx = self._next_index(game_id)
        payload = json.dumps(entry.to_dict(), sort_keys=True)
        self._pending.rows.append((game_id, idx, entry.kind, payload, now()))
        self._next_idx[game_id] = idx + 1
        self.snapshots.appended(game_id, idx, payload, snapshot, forget_after, later)
        return self._write()

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

    def transaction(self) -> AbstractContextManager[None]:
        """One write transaction on the journal, committed here (the snapshots' own writes)."""
        return self._writing()

    @contextmanager
    def _writing(self, commit: Callable[[], None] | None = None) -> Iterator[None]:
        """One write :func:`transaction` on the journal; a snapshots table made inside it is gone with it if
        it fails, so the next write looks again."""
        try:
            with transaction(self._db, commit):
                yield
        except BaseException:
            self.snapshots.table_unknown()
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
                boards.write(self._db, pending.files)
                touched: dict[int, str] = {}
                for gid, idx, kind, payload, at in pending.rows:
                    self._db.execute("INSERT INTO entries (game_id, idx, kind, event, accepted_at) VALUES (?,?,?,?,?)",
                                     (gid, idx, kind, payload, at))
                    touched[gid] = at
                for gid, at in touched.items():
                    self._db.execute("UPDATE games SET updated=? WHERE id=?", (at, gid))
                for gid, finished in pending.finished.items():
                    self._db.execute("UPDATE games SET finished=? WHERE id=?", (int(finished), gid))
                self.snapshots.write(pending)
        except (sqlite3.DatabaseError, OSError) as exc:
            return self._refused(pending, exc)
        if behind:
            self._committing = pending
        else:
            self._written(pending)
        return True

    def _refused(self, pending: Pending, exc: BaseException) -> bool:
        """The storage refused ``pending`` (disk full, read-only): it waits in memory and the notice says so;
        anything else is a bug and raised. False."""
        if not is_storage_trouble(exc):
            raise exc
        pending.snapshots.clear()  # a cache: not kept waiting in memory (a long game's state is large)
        reason = "disk full" if is_disk_full(exc) else f"cannot write ({str(exc)[:40]})"
        trouble = f"journal: {reason}{self.IN_MEMORY}"
        if trouble != self.notice:
            log.warning("%s (%s)", trouble, self.path)
        self.notice = trouble
        return False

    def _written(self, pending: Pending) -> None:
        """``pending`` is on disk: nothing waits any more, and a write trouble notice is over."""
        self.snapshots.written(pending)
        self._pending = Pending()
        if self.is_write_notice(self.notice):
            log.info("journal: every entry written again (%s)", self.path)
            self.notice = ""

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
        (counting every game's rows is a scan of the whole entries index, growing with every game played)."""
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
        # index's last entry plus one, one seek, where COUNT(*) walked every entry of the game.
        (stored,) = self._db.execute("SELECT COALESCE(MAX(idx) + 1, 0) FROM entries WHERE game_id=?",
                                     (last.id,)).fetchone()
        return replace(last, entries=last.entries + stored)

    def entries(self, game_id: int) -> list[Entry]:
        """The game's history in order, undo, re-roll and mend rows included."""
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

    def game_files(self, game_id: int) -> dict[str, bytes] | None:
        """The data files the game began with, by name (None: it stored none, as an older journal's games)."""
        waiting = {name: content for gid, name, content in self._pending.files if gid == game_id}
        return waiting or boards.read(self._db, game_id)

    # -- snapshots (companion.journal.snapshots) -------------------------------------------------------

    def snapshot_point(self, game_id: int, version: str, types: Types, at_most: int | None = None, *,
                       one_after: bool = False, fold: Callable[[Point], Any] | None = None) -> Point | None:
        """:meth:`SnapshotStore.snapshot_point`: the newest stored state of the game that holds."""
        return self.snapshots.snapshot_point(game_id, version, types, at_most, one_after=one_after, fold=fold)

    def check_snapshots(self, game_id: int) -> None:
        """:meth:`SnapshotStore.check_snapshots`: the check of the game's history starts now."""
        self.snapshots.check_snapshots(game_id)

    def replayed(self, game_id: int, live: int, version: str, state: Any, last: Any, chain: str,
                 types: Types) -> None:
        """:meth:`SnapshotStore.replayed`: a state a whole replay reached, stored with the next snapshots."""
        self.snapshots.replayed(game_id, live, version, state, last, chain, types)

    def store_later(self) -> bool:
        """:meth:`SnapshotStore.store_later`: the snapshots kept for after the roll, stored now."""
        return self.snapshots.store_later()

    # -- moving games between boxes --------------------------------------------------------------

    def export_lines(self, game_id: int) -> Iterator[str]:
        """JSON lines: a header ``{"format", "game", "options", ...}`` then the game's history, one entry per
        line: events, and the undo, re-roll and mend rows as they happened. Moved to another box the game folds to
        the same state and shows the same thing, the re-rolled mark on the dice included."""
        record = self.game(game_id)
        header: dict[str, Any] = {"format": FORMAT, "version": SCHEMA_VERSION, "game": record.game,
                                  "options": dict(record.options), "id": record.id, "created": record.created,
                                  "updated": record.updated, "finished": record.finished}
        files = self.game_files(game_id)
        if files:  # the board it was played on travels with it (data files are UTF-8 text: datafile.load_toml)
            header["files"] = {name: content.decode("utf-8", "replace") for name, content in files.items()}
        yield json.dumps(header, sort_keys=True)
        for entry in self.entries(game_id):
            yield json.dumps(replace(entry, rolls=()).to_dict(), sort_keys=True)  # this box's tower's bookkeeping

    def import_lines(self, lines: Iterable[str], name: str = "<input>") -> int:
        """A new game from exported lines; returns its id. Errors name the file and line."""
        header, entries = parse_export(lines, name)
        files = {file: text.encode() for file, text in header.get("files", {}).items()}
        game_id = self.new_game(header["game"], header["options"], files)
        for entry in entries:
            self.append(game_id, entry)
        if header.get("finished") is True:
            self.mark_finished(game_id)
        return game_id
