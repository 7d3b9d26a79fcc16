"""Engine states kept in the journal, so resume and undo do not replay a whole night.

Resume and undo were a replay of every live event from the start: linear in a game's length, so a long
night's game was slow to resume. Every :data:`SNAPSHOT_EVERY` live events the game's state is stored beside the
entries, in the same transaction as the entry that reached it, and a load starts from the newest snapshot
that still holds and replays only what follows.

Table ``snapshots(game_id, live, entry_idx, digest, version, checksum, payload)``, one row per stored state:

- ``live``: how many live events the state follows; ``entry_idx``: how many history rows (``entries``
  with ``idx`` below it) fold to those events.
- ``digest``: SHA-256 over the game's key, its options and the stored text of those rows
  (:class:`HistoryDigest`); recomputed from the rows by the first load of the game in each open journal
  (:class:`HistoryCheck`, one scan for all its snapshots; a read-only journal, which owns nothing, at every
  load), so a history edited by hand, salvaged or imported differently is never summarised by a state that
  no longer follows from it.
- ``version``: :func:`engine_version`, a hash of the game's rules code (what its engine imports, never its
  drawing) and the map files in force: new rules or corrected data never meet an old state, and an update that
  leaves the rules alone keeps it.
- ``checksum``: SHA-256 over every other column and the payload (:func:`row_checksum`: a damaged page is noticed
  before anything is read, whichever column it hit).
- ``payload``: the state, the last live event and the live chain (:class:`LiveEvents`), pickled.

Why pickle: engine states are immutable frozen dataclasses, tuples and frozensets of many shapes; a codec
per engine would be a second description of every state to keep in step. Pickle runs code named by the
data it reads, so a payload is only unpickled from the box's own journal, after its checksum and its version
tag matched (the digest over the history is computed meanwhile, the events after it may be replayed on it
meanwhile, and the state and that replay are used only once it matched too); any unpickling failure (a class
renamed, a field gone) means the snapshot is ignored and the game is replayed in full, never a wrong state.

A snapshot that does not hold (digest, version, checksum or payload) is ignored, logged once, and the load
falls back to an older one or to the full replay. One undone past (its history folds below its ``live``
after ``entry_idx``) is simply no longer usable; an undo also deletes the snapshots beyond the live list in
its own transaction. Snapshots are a cache: :mod:`companion.journal.salvage` does not copy them, a
journal that refuses writes drops them (the entries wait, the snapshots do not), and only the newest
:data:`KEEP` per game are kept.
"""

from __future__ import annotations

import gc
import json
import logging
import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar, Protocol

from companion.dice import event_from_dict, event_to_dict
from companion.errors import CompanionError
from companion.journal import codec
from companion.journal.codec import Types, Unencodable
from companion.journal.entries import BAD_DATA, Entry, LiveEvent, reason
from companion.journal.history import HistoryCheck, HistoryDigest, Point, canonical_options, fold_from, rows_digest
from companion.journal.store import Pending, is_storage_trouble
from companion.sha256 import sha256

log = logging.getLogger(__name__)

_LAST = object()
"""What :meth:`SnapshotStore._try_snapshot` says of a snapshot it was asked to spare: no live event follows it."""

SNAPSHOT_EVERY = 25
"""Live events between two stored states: a load replays at most this many less one. A replayed event is
cheap, so an undo right after a resume, which lands one event before the newest snapshot and replays up to 24
of them, stays unnoticed. A snapshot of a 10,000-event Kansas game pickles to about 110 KB (its 320 past tornado
phases as one text, :class:`companion.games.kansas.state.TurnHistory`, not thousands of small objects, so it
packs and unpickles quickly); it is stored after the roll that reached it is shown (once in 25 rolls). In a game
of ordinary length the state is a few KB."""
KEEP = 8
"""Snapshots kept per game, the newest: undo reaches back this many times :data:`SNAPSHOT_EVERY` events before
it pays a full replay; older ones only take room (a state of a long game is about 110 KB)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS snapshots (
    game_id INTEGER NOT NULL REFERENCES games(id),
    live INTEGER NOT NULL,
    entry_idx INTEGER NOT NULL,
    digest TEXT NOT NULL,
    version TEXT NOT NULL,
    checksum TEXT NOT NULL,
    payload BLOB NOT NULL,
    PRIMARY KEY (game_id, live)
);
"""

PAYLOAD_FORMAT = "storm-companion state 1"
"""The first item of every payload (:func:`pack`): a payload of another kind (an older box's pickle) reads as
none, so its snapshot is ignored and the game replayed."""


def pack(state: Any, last: Any, chain: str, types: Types) -> bytes:
    """The payload: the state in the journal's data codec (:mod:`companion.journal.codec`,
    which reads back only the classes of the game's own code, never running code a payload names), the last
    live event as the journal writes events, and the chain. :class:`Unencodable` for a state holding a value
    the codec does not write (the snapshot is then not stored)."""
    event = [event_to_dict(last.event), bool(last.rerolled)] if last is not None else None
    body = codec.dumps(state, types)
    payload = b"".join([b'["', PAYLOAD_FORMAT.encode(), b'",', json.dumps(event, separators=(",", ":")).encode(),
                        b",", json.dumps(chain).encode(), b",", body, b"]"])
    return payload


def row_checksum(game_id: int, live: int, entry_idx: int, digest: str, version: str, payload: bytes) -> str:
    """SHA-256 over every column a load relies on, the payload last: a flipped bit in any of them (a ``live``
    that would make the state stand for another count of events, a ``game_id`` that would move it to another
    game) makes the snapshot one that does not hold."""
    head = f"{game_id}\n{live}\n{entry_idx}\n{digest}\n{version}\n".encode()
    return sha256(head + payload).hexdigest()


def unpack(payload: bytes, types: Types) -> tuple[Any, Any, str]:
    """The payload's (state, last event, chain); ValueError (TypeError, RecursionError, ...) for a payload that
    is not one :func:`pack` made. Reading it runs no code it names (see :mod:`companion.journal.codec`).

    A long game's state is thousands of small objects that live as long as the game. The collector is held off
    while they are built, and then they are moved out of its reach (``gc.freeze``: the permanent generation), as
    servers do with what they load at start: otherwise the next collections walk every one of them again
    (a slow first frame after a resume, and now and then a full collection long enough for a table to notice).
    Engine states hold no reference cycles, so reference counting still frees them when the game moves on;
    the cost is that cyclic garbage that happens to exist at that moment is never collected (at start, nothing
    to speak of; a resume or a deep undo happens a few times an evening)."""
    was = gc.isenabled()
    gc.disable()
    try:
        data = json.loads(payload)
        if not (isinstance(data, list) and len(data) == 4 and data[0] == PAYLOAD_FORMAT):
            raise ValueError("not a state this box writes")
        _, event, chain, body = data
        if not isinstance(chain, str):
            raise ValueError("chain is not text")
        last = None
        if event is not None:
            if not (isinstance(event, list) and len(event) == 2 and isinstance(event[1], bool)):
                raise ValueError("the last event is not one")
            last = LiveEvent(event_from_dict(event[0]), event[1])
        state = codec.decode(body, types)
        gc.freeze()
    finally:
        if was:
            gc.enable()
    return state, last, chain


def has_table(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='snapshots'").fetchone() is not None


class Logged:
    """Says each ignored snapshot once per process (a box that resumes, undoes and reopens its journal says it
    once, not at every load)."""

    _said: ClassVar[set[tuple[str, int, int | None, str]]] = set()

    def ignored(self, path: Path, game_id: int, live: int | None, why: str) -> None:
        """``live`` None: every snapshot of the game (they could not be read at all)."""
        key = (str(path.resolve()), game_id, live, why)
        if key not in Logged._said:
            Logged._said.add(key)
            which = "snapshots" if live is None else f"snapshot at {live} events"
            log.warning("journal %s: game %d: %s ignored (%s); replaying the events instead",
                        path.name, game_id, which, why)


class Host(Protocol):
    """What the snapshots need of the journal they belong to."""

    path: Path
    readonly: bool

    @property
    def db(self) -> sqlite3.Connection:
        """The journal's connection, once no write is finishing behind."""

    @property
    def pending(self) -> Pending:
        """The writes waiting in memory (their rows are part of the history)."""

    @property
    def closed(self) -> bool: ...

    def join(self) -> bool: ...

    def reader(self) -> sqlite3.Connection:
        """A connection of its own for a thread that only reads (the snapshots' check)."""

    def transaction(self) -> AbstractContextManager[None]:
        """One write transaction on the journal."""


class SnapshotStore:
    """A journal's snapshots: the digest of each game's history written here, the states waiting to be stored,
    the check of stored ones against the rows, and writing them in the journal's transactions."""

    def __init__(self, host: Host) -> None:
        self._host = host
        self._history: dict[int, HistoryDigest] = {}
        """Per game written here, the digest of its history so far (what a new snapshot says it summarises)."""
        self._table: bool | None = None
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

    # -- what the journal tells it ------------------------------------------------------------------

    def started(self, game_id: int, game: str, options_json: str) -> None:
        """A new game's history begins (its key and options are the digest's seed)."""
        self._history[game_id] = HistoryDigest(game, options_json)

    def appended(self, game_id: int, idx: int, payload: str, snapshot: tuple[int, str, Any, Any, str, Types] | None,
                 forget_after: int | None, later: bool) -> None:
        """One more history row (``payload`` its stored text, at ``idx``), written with the waiting writes: the
        snapshots it takes back are forgotten, the one it reaches kept for later or packed to go with it."""
        if game_id in self._history:
            self._history[game_id].add(payload)
        pending = self._host.pending
        if forget_after is not None:
            pending.forget.append((game_id, forget_after))
            self._later = [x for x in self._later if x[0] != game_id or x[1] <= forget_after]
        if snapshot is None:
            return
        live, version, state, last, chain, types = snapshot
        digest = self._history_digest(game_id)
        if digest is not None and later:
            self._later.append((game_id, live, idx + 1, digest.hexdigest(), version, state, last, chain, types))
        elif digest is not None and (data := _packed(state, last, chain, types)) is not None:
            checksum = row_checksum(game_id, live, idx + 1, digest.hexdigest(), version, data)
            pending.snapshots.append((game_id, live, idx + 1, digest.hexdigest(), version, checksum, data))

    def replayed(self, game_id: int, live: int, version: str, state: Any, last: Any, chain: str,
                 types: Types) -> None:
        """A game's whole history replayed from its first event (no stored state held: its rules changed since, or
        it was imported): the state it reached, after every row so far, kept for :meth:`store_later` like the
        snapshots of the rolls, so only this first load after the change pays for the replay."""
        if self._host.readonly or live <= 0:
            return
        digest = self._history_digest(game_id)
        if digest is None:
            return
        row = self._host.db.execute("SELECT COALESCE(MAX(idx) + 1, 0) FROM entries WHERE game_id=?",
                                    (game_id,)).fetchone()
        rows = max([int(row[0]), *(idx + 1 for gid, idx, *_ in self._host.pending.rows if gid == game_id)])
        self._later = [x for x in self._later if x[0] != game_id or x[1] != live]
        self._later.append((game_id, live, rows, digest.hexdigest(), version, state, last, chain, types))

    @property
    def waiting(self) -> bool:
        """Snapshots kept for :meth:`store_later`."""
        return bool(self._later)

    def table_unknown(self) -> None:
        """A write failed: a snapshots table it made is gone with it, so the next write looks again."""
        self._table = None

    def written(self, pending: Pending) -> None:
        """``pending`` is on disk: its snapshots are known to follow the history kept here."""
        self._verified.update((gid, live, idx, digest) for gid, live, idx, digest, *_ in pending.snapshots)

    def write(self, pending: Pending) -> None:
        """Inside the journal's transaction: what ``pending`` says of snapshots."""
        if pending.snapshots or pending.forget:
            self._write_snapshots(pending)

    # -- loading ----------------------------------------------------------------------------------------

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
            self._logged.ignored(self._host.path, game_id, None, f"they do not read: {reason(exc)}")
            return None


    def _snapshot_point(self, game_id: int, version: str, types: Types, at_most: int | None, one_after: bool,
                        fold: Callable[[Point], Any] | None) -> Point | None:
        if not self._has_snapshot_table():
            return None
        seed = self._seed(game_id)
        if seed is None:
            return None
        limit = at_most if at_most is not None else 1 << 62
        candidates = self._host.db.execute(
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
        inside SQLite (see :class:`HistoryCheck`; without waiting for that, the scan would run after the caller's
        work, not beside it)."""
        if self._host.readonly or not self._has_snapshot_table():
            return
        seed = self._seed(game_id)
        if seed is not None:
            try:
                rows = self._host.db.execute("SELECT live, entry_idx, digest FROM snapshots WHERE game_id=?",
                                        (game_id,)).fetchall()
            except sqlite3.Error:
                return  # the load that follows meets it again, says so and replays
            self._check_for(game_id, seed, [idx for live, idx, digest in rows
                                            if not self._written_here(game_id, live, idx, digest)])



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
        known = self._checks.get(game_id) if not self._host.readonly else None
        if known is not None and all(known.covers(b) for b in bounds):
            return known
        start: tuple[int, HistoryDigest] = (0, seed)
        if known is not None:
            before = [item for item in known.known() if item[0] <= min(bounds)]
            start = before[-1] if before else start
            bounds = sorted({*bounds, *known.bounds})
        check = HistoryCheck(self._host.reader, game_id, bounds, start)
        if not self._host.readonly:
            self._checks[game_id] = check
        return check


    def _try_snapshot(self, game_id: int, check: HistoryCheck | None, live: int, entry_idx: int, digest: str,
                      tag: str, checksum: str, version: str, types: Types, spare: bool = False,
                      fold: Callable[[Point], Any] | None = None) -> Point | object | None:
        """The snapshot as a Point when it holds, else None; with ``spare``, :data:`_LAST` (nothing read or
        unpickled) when no live event follows it (see :meth:`snapshot_point`)."""
        if tag != version:
            self._logged.ignored(self._host.path, game_id, live, "made by other code or map data")
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
        row = self._host.db.execute("SELECT payload FROM snapshots WHERE game_id=? AND live=?",
                                    (game_id, live)).fetchone()
        data = bytes(row[0]) if row is not None and isinstance(row[0], bytes) else b""
        if row_checksum(game_id, live, entry_idx, digest, tag, data) != checksum:
            self._logged.ignored(self._host.path, game_id, live, "its payload is damaged (or a column of its row)")
            return None
        try:
            state, last, chain = unpack(data, types)  # plain data: reading it runs no code it names
        except Exception as exc:  # whatever reading it raises, the answer is a full replay
            self._logged.ignored(self._host.path, game_id, live, f"its payload does not read: {reason(exc)}")
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
            self._logged.ignored(self._host.path, game_id, live, f"the events it summarises could not be read ({exc})")
            return None
        if history is None or history.hexdigest() != digest:
            self._logged.ignored(self._host.path, game_id, live, "the events it summarises have changed")
            return None
        if failed is not None:
            raise failed
        if not self._host.readonly and game_id not in self._history:
            history = history.copy()
            for _idx, payload in rows:
                history.add(payload)
            self._history[game_id] = history
        return point


    def _has_snapshot_table(self) -> bool:
        if not self._table:  # looked up until found: a table made by this process's own flush is known
            self._table = has_table(self._host.db)
        return self._table


    def _rows_from(self, game_id: int, start: int) -> list[tuple[int, str]]:
        """The stored text of the game's rows from ``idx`` ``start`` on, waiting ones included."""
        rows = self._host.db.execute("SELECT idx, event FROM entries WHERE game_id=? AND idx>=? ORDER BY idx",
                                (game_id, start)).fetchall()
        rows += [(idx, payload) for gid, idx, _kind, payload, _ in self._host.pending.rows
                 if gid == game_id and idx >= start]
        return rows

    # -- moving games between boxes --------------------------------------------------------------


    # -- storing ----------------------------------------------------------------------------------------

    def store_later(self) -> bool:
        """The snapshots kept by ``append(..., later=True)`` written now, in a transaction of their own; True when
        some were. Dropped instead while entries wait in memory (they would follow rows not on disk) or the
        storage refuses them: a snapshot is a cache, the entries are the record."""
        self._host.join()
        later, self._later = self._later, []
        if not later or self._host.readonly or self._host.closed:
            return False
        if self._host.pending:
            return False
        pending = Pending()
        for gid, live, idx, digest, version, state, last, chain, types in later:
            if (data := _packed(state, last, chain, types)) is not None:
                checksum = row_checksum(gid, live, idx, digest, version, data)
                pending.snapshots.append((gid, live, idx, digest, version, checksum, data))
        try:
            with self._host.transaction():
                self._write_snapshots(pending)
        except (sqlite3.DatabaseError, OSError) as exc:
            if not is_storage_trouble(exc):
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
            digest = rows_digest(self._host.db, seed, game_id, 1 << 62)
            for gid, _idx, _kind, payload, _at in self._host.pending.rows:
                if gid == game_id:
                    digest.add(payload)
            self._history[game_id] = digest
        return self._history[game_id]


    def _seed(self, game_id: int) -> HistoryDigest | None:
        """The start of a game's history digest: its key and its options, as the journal holds them."""
        if game_id in self._host.pending.games:
            game, opts, _ = self._host.pending.games[game_id]
            return HistoryDigest(game, opts)
        row = self._host.db.execute("SELECT game, options FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            return None
        try:
            return HistoryDigest(str(row[0]), canonical_options(json.loads(row[1])))
        except (*BAD_DATA, AttributeError):
            return None


    def _write_snapshots(self, pending: Pending) -> None:
        """Inside the flush's transaction: the undone snapshots out, the new ones in, only the newest KEEP kept."""
        db = self._host.db
        if not self._has_snapshot_table():
            if not pending.snapshots:
                return
            db.execute(SCHEMA.strip().rstrip(";"))
            self._table = True
        for gid, live in pending.forget:
            db.execute("DELETE FROM snapshots WHERE game_id=? AND live>?", (gid, live))
        for row in pending.snapshots:
            db.execute("INSERT OR REPLACE INTO snapshots (game_id, live, entry_idx, digest, version, checksum, "
                       "payload) VALUES (?,?,?,?,?,?,?)", row)
        for gid in {row[0] for row in pending.snapshots}:
            db.execute("DELETE FROM snapshots WHERE game_id=? AND live NOT IN "
                       "(SELECT live FROM snapshots WHERE game_id=? ORDER BY live DESC LIMIT ?)", (gid, gid, KEEP))


def _packed(state: Any, last: Any, chain: str, types: Types) -> bytes | None:
    """:func:`pack`, or None (logged) for a state holding a value the codec does not write: a snapshot is a
    cache, the game goes on and a load replays its events."""
    try:
        return pack(state, last, chain, types)
    except (Unencodable, ValueError, RecursionError) as exc:
        log.info("journal: a snapshot was not stored (%s)", reason(exc))
        return None
