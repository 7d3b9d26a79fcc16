"""A game's history as the snapshots see it: the digest of its rows, its live events (of which the first may be
only on disk), the check of the rows against a snapshot's digest on a thread of its own, and a snapshot that
holds (:class:`Point`)."""

from __future__ import annotations

import itertools
import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from companion.dice import event_to_dict
from companion.journal.entries import LiveEvent
from companion.sha256 import sha256


class HistoryDigest:
    """SHA-256 over a game's key, its options and its history rows' stored text, one row at a time.

    The journal keeps one per game it writes (:meth:`add` on each append); a load recomputes it from the rows."""

    def __init__(self, game: str, options_json: str) -> None:
        self._hash = sha256(f"{game}\n{options_json}\n".encode())

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
    return sha256(f"{previous}\n{text}".encode()).hexdigest()


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

    def replaced(self, index: int, item: Any) -> LiveEvents:
        """With the event at ``index`` replaced by ``item`` (a mend): the running digests from there on are made
        again. An index among the events only the journal holds reads them first (every later chain changes)."""
        if not 0 <= index < len(self):
            raise IndexError("live event index out of range")
        if index < self._base:
            items = list(self)
            items[index] = item
            return LiveEvents(items)
        at = index - self._base
        items = list(self._items)
        items[at] = item
        chains = self._chains[:at]
        last = chains[-1] if chains else self._base_chain
        for later in items[at:]:
            last = chain_next(last, later.event, later.rerolled)
            chains.append(last)
        return LiveEvents(items, base=self._base, base_last=self._base_last, base_chain=self._base_chain,
                          chains=chains, prefix=self._prefix)

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


_IN_INDEX_ORDER = ("SELECT CAST(group_concat(event, '\n') AS BLOB) FROM entries INDEXED BY sqlite_autoindex_entries_1 "
                   "WHERE game_id=? AND idx>=? AND idx<?")
"""The rows' text in ``idx`` order: the primary key's index walked in order, each row handed to group_concat as it
comes (SQLite before 3.44 takes no ORDER BY inside an aggregate). A fifth cheaper than :data:`_SORTED`, whose
sorted subquery copies every row once more; a different order could only make the digests differ (the snapshot
ignored, the game replayed), never a wrong state. The separator is a newline written in the statement itself,
not ``char(10)``: a function call per row would be a large part of the scan's cost."""
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
    interpreter's switch interval: a second query, or hashing the last rows one at a time, would add such waits
    to a resume. For the same reason ``scanning`` is called by SQLite itself, as the statement's first
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
        unpickling, replaying) until the interpreter's switch interval forces it, and its scan then came
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
    None when they take back or change one of those ``live`` events (an undo or re-roll past the snapshot, a
    mend of an event it summarises: its state is then not the state of that history any more)."""
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
        elif entry.kind == "mend":
            if entry.index < live:
                return None
            at = entry.index - live
            if at < len(tail):  # past the end: changes nothing (see live_events)
                tail[at] = LiveEvent(entry.event, tail[at].rerolled)
    return tail
