"""Engine states kept in the journal, so resume and undo do not replay a whole night.

Resume and undo were a replay of every live event from the start: linear in a game's length (about 400 ms
at 10,000 Kansas events). Every :data:`SNAPSHOT_EVERY` live events the game's state is stored beside the
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
- ``version``: :func:`engine_version`, a hash of the engine package's source, the shared modules it is
  built on, and the map files in force: new code or corrected data never meet an old state.
- ``checksum``: SHA-256 of the payload (a damaged page is noticed before anything is unpickled).
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
its own transaction. Snapshots are a cache: :mod:`companion.journal_salvage` does not copy them, a
journal that refuses writes drops them (the entries wait, the snapshots do not), and only the newest
:data:`KEEP` per game are kept.
"""

from __future__ import annotations

import gc
import hashlib
import itertools
import json
import logging
import sqlite3
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, overload

from companion import journal_codec as codec
from companion.dice import event_from_dict, event_to_dict
from companion.journal_codec import Types

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 25
"""Live events between two stored states: a load replays at most this many less one. A replayed Kansas event
costs about 0.02-0.05 ms, so an undo right after a resume, which lands one event before the newest snapshot,
replays up to 24 of them: about a millisecond. A snapshot of a 10,000-event Kansas game pickles to about 110 KB
(its 320 past tornado phases as one text, :class:`companion.games.kansas.state.TurnHistory`) in about 0.2 ms and
unpickles in under 0.1 ms (it was 200 KB of objects: 15 ms to pack, 6.5 ms to unpickle); it is stored after the
roll that reached it is shown (once in 25 rolls). In a game of ordinary length the state is a few KB."""
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

_SHARED_SOURCES = ("dice.py", "hexgrid.py", "places.py", "datafile.py", "errors.py", "paths.py",
                   "games/base.py", "games/registry.py", "journal_codec.py")
"""Modules of the core every engine is built on: a change to one may change what a state means."""

_sources: dict[tuple[type | str, str], str] = {}
_files: dict[tuple[str, int, int], str] = {}


def engine_version(game: Any, maps: Path | None = None) -> str:
    """A tag that changes when the engine's code or its map data changes: SHA-256 over the source files of the
    engine's package and of the shared core (read once per process: the code cannot change under it), and over
    the game's map files in force (``<key>*.toml``, the group's own copy where there is one; each read again only
    when its size or modification time changed, since the session loads the engine anew for each game)."""
    key = str(getattr(game, "key", ""))
    if (type(game), key) not in _sources:
        _sources[(type(game), key)] = _code_digest(key, _engine_sources(game, key))
    return _with_maps(_sources[(type(game), key)], key, maps)


def package_version(key: str, maps: Path | None = None) -> str | None:
    """The :func:`engine_version` of the engine a registered game package loads, known before loading it (the
    engine cache looks it up by this), or None for a game that is not a package (its engine's module is known
    only from the engine)."""
    if ("package", key) not in _sources:  # read once per process, as engine_version does
        sources = _package_sources(key)
        if sources is None:
            return None
        _sources[("package", key)] = _code_digest(key, sources)
    return _with_maps(_sources[("package", key)], key, maps)


def _code_digest(key: str, sources: list[Path]) -> str:
    digest = hashlib.sha256(f"{key}\n".encode())
    core = Path(__file__).parent
    for path in [*sources, *(core / name for name in _SHARED_SOURCES)]:
        digest.update(f"\n{path.name}\n{_file_digest(path)}".encode())
    return digest.hexdigest()


def _with_maps(code: str, key: str, maps: Path | None) -> str:
    from companion.paths import group_maps_dir, map_file, maps_dir

    digest = hashlib.sha256(code.encode())
    names: set[str] = set()
    for folder in [maps] if maps is not None else [maps_dir(), group_maps_dir()]:
        if folder.is_dir():
            names.update(p.name for p in folder.glob(f"{key}*.toml"))
    for name in sorted(names):
        digest.update(f"\n{name}\n{_file_digest(map_file(name, maps))}".encode())
    return digest.hexdigest()[:32]


def _engine_sources(game: Any, key: str) -> list[Path]:
    """The engine's source files: every module of the game's package when the registry names one (its engine
    loader lives in the package's ``__init__``), else the one module that defines the engine's class."""
    package = _package_sources(key)
    if package is not None:
        return package
    module = sys.modules.get(type(game).__module__)
    return [Path(module.__file__)] if module is not None and module.__file__ else []


def _package_sources(key: str) -> list[Path] | None:
    """Every module of the package the registry names for ``key`` (imported by then: listing the games does),
    or None when the game is not such a package."""
    from companion.games.registry import specs

    spec = specs().get(key)
    package = sys.modules.get(spec.engine.partition(":")[0]) if spec is not None else None
    if package is not None and package.__file__ and Path(package.__file__).name == "__init__.py":
        return sorted(Path(package.__file__).parent.rglob("*.py"))
    return None


def _file_digest(path: Path) -> str:
    try:
        stat = path.stat()
        cache_key = (str(path), stat.st_mtime_ns, stat.st_size)
        if cache_key not in _files:
            _files[cache_key] = hashlib.sha256(path.read_bytes()).hexdigest()
        return _files[cache_key]
    except OSError:
        return "(unreadable)"


class HistoryDigest:
    """SHA-256 over a game's key, its options and its history rows' stored text, one row at a time.

    The journal keeps one per game it writes (:meth:`add` on each append); a load recomputes it from the rows."""

    def __init__(self, game: str, options_json: str) -> None:
        self._hash = hashlib.sha256(f"{game}\n{options_json}\n".encode())

    def add(self, payload: str) -> None:
        self._hash.update(payload.encode())
        self._hash.update(b"\n")

    def add_joined(self, joined: bytes | None) -> None:
        """Rows joined by newlines (SQLite's group_concat, as UTF-8 bytes), the same as :meth:`add` for each."""
        if joined:
            self._hash.update(joined)
            self._hash.update(b"\n")

    def copy(self) -> HistoryDigest:
        other = HistoryDigest.__new__(HistoryDigest)
        other._hash = self._hash.copy()
        return other

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


def canonical_options(options: Any) -> str:
    return json.dumps(dict(options), sort_keys=True)


def chain_next(previous: str, event: Any, rerolled: bool) -> str:
    """The live chain after one more live event: a running SHA-256 over the events' canonical JSON and their
    re-rolled marks, so a game's fingerprint never needs its whole live list."""
    text = json.dumps([event_to_dict(event), rerolled], sort_keys=True)
    return hashlib.sha256(f"{previous}\n{text}".encode()).hexdigest()


class LiveEvents(Sequence[Any]):
    """A game's live events, of which the first :attr:`base` may still be only in the journal.

    After a load from a snapshot the events it summarises are not read (parsing 10,000 entries costs more than
    the whole budget); what the session asks of them is the count, the last event and the chain, which the
    snapshot holds. Anything else (an index further back, iteration) reads them once from the journal
    (``loader``). Values are never changed in place: :meth:`plus` and :meth:`minus` return new lists."""

    __slots__ = ("_base", "_base_chain", "_base_last", "_chains", "_items", "_prefix")

    def __init__(self, items: Iterable[Any] = (), *, base: int = 0, base_last: Any = None, base_chain: str = "",
                 chains: Sequence[str] | None = None, prefix: _Prefix | None = None) -> None:
        self._base = base
        self._base_last = base_last
        self._base_chain = base_chain
        self._items = list(items)
        if chains is None:
            chains, last = [], base_chain
            for item in self._items:
                last = chain_next(last, item.event, item.rerolled)
                chains.append(last)
        self._chains = list(chains)
        self._prefix = prefix if prefix is not None else _Prefix(None)

    @classmethod
    def of(cls, events: Iterable[Any]) -> LiveEvents:
        return cls(events)

    @property
    def base(self) -> int:
        return self._base

    @property
    def chain(self) -> str:
        """The running digest of every live event (see :func:`chain_next`); "" for none."""
        return self._chains[-1] if self._chains else self._base_chain

    @property
    def tail(self) -> list[Any]:
        """The events after :attr:`base`, in memory."""
        return list(self._items)

    def plus(self, item: Any) -> LiveEvents:
        return LiveEvents([*self._items, item], base=self._base, base_last=self._base_last,
                          base_chain=self._base_chain, chains=[*self._chains, chain_next(self.chain, item.event,
                                                                                          item.rerolled)],
                          prefix=self._prefix)

    def minus(self) -> LiveEvents | None:
        """Without the last event; None when that needs the events only the journal holds (the caller reloads)."""
        if self._items:
            return LiveEvents(self._items[:-1], base=self._base, base_last=self._base_last,
                              base_chain=self._base_chain, chains=self._chains[:-1], prefix=self._prefix)
        return LiveEvents() if self._base == 0 else None

    def __len__(self) -> int:
        return self._base + len(self._items)

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return list(self)[index]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("live event index out of range")
        if index >= self._base:
            return self._items[index - self._base]
        if index == self._base - 1 and self._base_last is not None:
            return self._base_last
        return self._prefix.load(self._base)[index]

    def __iter__(self) -> Iterator[Any]:
        if self._base:
            yield from self._prefix.load(self._base)
        yield from self._items

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LiveEvents | list | tuple):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LiveEvents({len(self)} events, {self._base} in the journal)"


class _Prefix:
    """The events a snapshot summarises, read from the journal the first time something asks for one."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader
        self._events: list[Any] | None = None

    def load(self, count: int) -> list[Any]:
        if self._events is None:
            if self._loader is None:
                raise IndexError("live events not loaded")
            self._events = list(self._loader())[:count]
        return self._events


def prefix_from(loader: Any) -> _Prefix:
    return _Prefix(loader)


@dataclass(frozen=True)
class Point:
    """A snapshot that holds: the state after ``live`` events, and the live events after it in the history."""

    live: int
    entry_idx: int
    state: Any
    last: Any
    """The live event at ``live - 1`` (None at 0)."""
    chain: str
    tail: list[Any]
    """Every live event after the first ``live``, as the whole history folds (LiveEvent)."""
    folded: Any = None
    """What the caller's ``fold`` made of the state and the tail while the check ran (see
    :meth:`companion.journal.Journal.snapshot_point`)."""


PAYLOAD_FORMAT = "storm-companion state 1"
"""The first item of every payload (:func:`pack`): a payload of another kind (an older box's pickle) reads as
none, so its snapshot is ignored and the game replayed."""


def pack(state: Any, last: Any, chain: str, types: Types) -> tuple[bytes, str]:
    """The payload and its checksum: the state in the journal's data codec (:mod:`companion.journal_codec`,
    which reads back only the classes of the game's own code, never running code a payload names), the last
    live event as the journal writes events, and the chain. :class:`Unencodable` for a state holding a value
    the codec does not write (the snapshot is then not stored)."""
    event = [event_to_dict(last.event), bool(last.rerolled)] if last is not None else None
    body = codec.dumps(state, types)
    payload = b"".join([b'["', PAYLOAD_FORMAT.encode(), b'",', json.dumps(event, separators=(",", ":")).encode(),
                        b",", json.dumps(chain).encode(), b",", body, b"]"])
    return payload, hashlib.sha256(payload).hexdigest()


def unpack(payload: bytes, types: Types) -> tuple[Any, Any, str]:
    """The payload's (state, last event, chain); ValueError (TypeError, RecursionError, ...) for a payload that
    is not one :func:`pack` made. Reading it runs no code it names (see :mod:`companion.journal_codec`).

    A long game's state is thousands of small objects that live as long as the game. The collector is held off
    while they are built, and then they are moved out of its reach (``gc.freeze``: the permanent generation), as
    servers do with what they load at start: otherwise the next collections walk every one of them again
    (measured: 1-10 ms in the first frame after a resume, and now and then a full collection of some hundred
    ms). Engine states hold no reference cycles, so reference counting still frees them when the game moves on;
    the cost is that cyclic garbage that happens to exist at that moment is never collected (at start, nothing
    to speak of; a resume or a deep undo happens a few times an evening)."""
    from companion.journal import LiveEvent  # the journal imports this module: see fold_from

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


_IN_INDEX_ORDER = ("SELECT CAST(group_concat(event, '\n') AS BLOB) FROM entries INDEXED BY sqlite_autoindex_entries_1 "
                   "WHERE game_id=? AND idx>=? AND idx<?")
"""The rows' text in ``idx`` order: the primary key's index walked in order, each row handed to group_concat as it
comes (SQLite before 3.44 takes no ORDER BY inside an aggregate). A fifth cheaper than :data:`_SORTED`, whose
sorted subquery copies every row once more; a different order could only make the digests differ (the snapshot
ignored, the game replayed), never a wrong state. The separator is a newline written in the statement itself,
not ``char(10)``: a function call per row cost a third of the scan (10,000 rows: 4.2 ms against 3.1)."""
_SORTED = ("SELECT CAST(group_concat(event, '\n') AS BLOB) FROM "
           "(SELECT event FROM entries WHERE game_id=? AND idx>=? AND idx<? ORDER BY idx)")
"""Both hand the joined text over as bytes (UTF-8, as SQLite keeps it): what is hashed, with no Python string
made of it and encoded again."""


def rows_digest(db: sqlite3.Connection, seed: HistoryDigest, game_id: int, below: int,
                scanning: Callable[[], object] | None = None, start: int = 0) -> HistoryDigest:
    """``seed`` over the stored text of the game's rows with ``idx`` from ``start`` to below ``below``, in order
    (one SQL scan; the rows are read through the primary key's index, so in ``idx`` order). ``scanning`` is
    called once the scan runs inside SQLite, with the GIL let go (see :func:`rows_digests`)."""
    return rows_digests(db, seed, game_id, [below], scanning, start)[0]


def rows_digests(db: sqlite3.Connection, seed: HistoryDigest, game_id: int, bounds: Sequence[int],
                 scanning: Callable[[], object] | None = None, start: int = 0) -> list[HistoryDigest]:
    """``seed`` over the game's rows from ``idx`` ``start`` to below each of ``bounds`` (ascending).

    One SQL statement whose columns are the rows between one bound and the next, joined: the whole history is
    read inside SQLite with the GIL let go once, and the thread doing it needs the GIL back only to hash what it
    got. Each time a thread takes the GIL back it may wait for a thread running Python for up to the
    interpreter's switch interval (5 ms): a second query, or hashing the last rows one at a time, cost a resume
    a millisecond or more. For the same reason ``scanning`` is called by SQLite itself, as the statement's first
    column, once the statement's parameters are bound and it runs: a caller waiting for it to go on with Python
    work of its own then has the GIL until the scan is over."""
    if not bounds:
        if scanning is not None:
            scanning()
        return []
    edges = [start, *bounds]
    params = [value for low, high in itertools.pairwise(edges) for value in (game_id, low, high)]
    first = "NULL"
    if scanning is not None:
        started = scanning

        def signal() -> None:
            started()

        db.create_function("companion_scanning", 0, signal)
        first = "companion_scanning()"
    try:
        row = db.execute(_columns(first, _IN_INDEX_ORDER, len(bounds)), params).fetchone()
    except sqlite3.OperationalError:  # no index of that name (a file not made by this code): the sorted form
        row = db.execute(_columns(first, _SORTED, len(bounds)), params).fetchone()
    digests, digest = [], seed.copy()
    for text in row[1:]:
        digest.add_joined(text)
        digests.append(digest.copy())
    return digests


def _columns(first: str, segment: str, count: int) -> str:
    """One row: ``first``, then ``segment`` for each of ``count`` ranges (evaluated in that order)."""
    return "SELECT " + ", ".join([first, *[f"({segment})"] * count])


class HistoryCheck:
    """The digests of a game's history at the snapshots' boundaries (their ``entry_idx``), computed on a thread
    of its own from the rows themselves: one scan up to the newest boundary, cut at each one, so every snapshot
    of the game is checked for the price of the newest (an undo past the newest then reads no row again).

    The scan runs inside SQLite with the GIL let go, while the loading thread unpickles a state and replays the
    events after it; the caller uses that state only once :meth:`digest_at` gave the digest it names."""

    def __init__(self, connect: Callable[[], sqlite3.Connection], game_id: int, bounds: Iterable[int],
                 start: tuple[int, HistoryDigest]) -> None:
        """``connect`` opens the thread's own connection to the journal (a sqlite3 connection must not serve two
        threads at once, and the loading thread reads the snapshot meanwhile). Returns once the scan is inside
        SQLite: a thread only started may not get the GIL from a caller running Python (loading an engine,
        unpickling, replaying) until the interpreter's switch interval (5 ms) forces it, and its scan then came
        after the caller's work instead of beside it."""
        self.bounds = sorted({b for b in bounds if b >= start[0]})
        self._digests: dict[int, HistoryDigest] = {start[0]: start[1]}
        self._error: BaseException | None = None
        scanning = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(connect, game_id, start, scanning),
                                        name="journal-snapshot-check", daemon=True)
        self._thread.start()
        scanning.wait()

    def _run(self, connect: Callable[[], sqlite3.Connection], game_id: int, start: tuple[int, HistoryDigest],
             scanning: threading.Event) -> None:
        """Every boundary's rows in one statement inside SQLite (see :func:`rows_digests`), hashed here and cut
        at each boundary."""
        try:
            db = connect()
            try:
                below, digest = start
                digests = rows_digests(db, digest, game_id, self.bounds, scanning.set, start=below)
                self._digests.update(zip(self.bounds, digests, strict=True))
            finally:
                db.close()
        except BaseException as exc:  # handed to the loading thread, which raises it there
            self._error = exc
        finally:
            scanning.set()

    def covers(self, bound: int) -> bool:
        """Whether this check computes the digest at ``bound`` (a check that failed, say a busy file, covers
        nothing: the next load checks anew)."""
        return bound in self.bounds and not (self._error is not None and not self._thread.is_alive())

    def digest_at(self, bound: int) -> HistoryDigest | None:
        """The digest of the rows below ``bound`` (waiting for the scan), None for a boundary not asked for."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._digests.get(bound)

    def known(self) -> list[tuple[int, HistoryDigest]]:
        """The boundaries computed so far and their digests (a later check starts from the nearest)."""
        self._thread.join()
        return sorted(self._digests.items(), key=lambda item: item[0]) if self._error is None else []


def fold_from(live: int, entries: Sequence[Any]) -> list[Any] | None:
    """The live events after the first ``live`` once ``entries`` (the rows after a snapshot) are folded on, or
    None when they take back one of those ``live`` events (an undo or re-roll past the snapshot)."""
    from companion.journal import LiveEvent

    tail: list[Any] = []
    for entry in entries:
        if entry.kind == "event":
            tail.append(LiveEvent(entry.event))
        elif entry.kind in ("undo", "reroll"):
            if not tail:
                return None
            tail.pop()
            if entry.kind == "reroll":
                tail.append(LiveEvent(entry.event, rerolled=True))
    return tail


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
