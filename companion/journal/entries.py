"""What a journal records, at the bottom of the journal package: its entries, the live events they fold to, a
game's record, and the export format.

A game's history is its ``entries`` rows, in order. ``kind`` is ``event`` (an accepted event, JSON from
:func:`companion.dice.event_to_dict`), ``undo`` (takes back the last live event), ``reroll`` (replaces the
last live event, a dice roll, by ``event``) or ``mend`` (replaces the live event at ``index``, counted from 0,
by ``event``: a past entry corrected in place, the later ones kept and replayed on top). An event or re-roll
made from a source's rolls also keeps, under ``"rolls"`` in the same JSON, which rolls its dice came from
(:class:`companion.inputs.RollRef`: the tower's boot, number and dice), so the tower link can be told at start
which rolls are on disk already; the game's history ignores it, and an export leaves it out.

Undo, re-roll and mend are journaled as rows of their own, never by rewriting history: the live events are a
fold over the rows (:func:`live_events`), and replaying them gives the same state every time. A journal written
before mends existed has no such row and folds as it always did.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from companion.dice import Event, event_from_dict, event_to_dict
from companion.errors import CompanionError, DataError
from companion.inputs import RollRef

ENTRY_KINDS = ("event", "undo", "reroll", "mend")
"""What a journal row records: an event, an undo, a re-roll, a mend (salvage reads back only rows of these kinds)."""
SCHEMA_VERSION = 1
FORMAT = "storm-companion-game"
"""The ``format`` field of an export's header line."""

BAD_DATA = (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError)
"""What reading or replaying values no box writes may raise (a file edited by hand or made by another
program: 1e400 where a die goes, JSON nested ten thousand deep): refused with its line, never a traceback."""


def reason(exc: BaseException) -> str:
    """A one-line reason for a value that would not read (never a Python repr of a huge input)."""
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if isinstance(exc, OverflowError):
        return "a number out of range"
    return str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__


_last_stamp = ""
"""The time the last write was stamped with (see :func:`now`)."""


def now() -> str:
    """The time of a write, to the millisecond, and later than the write before it in this process.

    A salvage of a damaged journal tells that a game's last entries are gone by their time: the last entry
    left must carry the game's ``updated`` time, the time of its last write (:mod:`companion.journal.salvage`). Writes a
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
    """One row of a game's history: an event, an undo, a re-roll replacing the last event, or a mend replacing
    the live event at ``index``."""

    kind: str
    event: Event | None = None
    rolls: tuple[RollRef, ...] = ()
    """The source rolls whose dice went into ``event`` (a D8 now and a D6 later: two), written in the same
    commit; bookkeeping for the tower link, never part of the game's history (an export leaves it out)."""
    index: int = 0
    """For a mend: which live event (counted from 0) ``event`` replaces."""

    def to_dict(self) -> dict[str, Any]:
        if self.kind == "undo":
            return {"type": "undo"}
        assert self.event is not None
        data = event_to_dict(self.event)
        if self.kind == "reroll":
            data = {"type": "reroll", "event": data}
        elif self.kind == "mend":
            data = {"type": "mend", "index": self.index, "event": data}
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
        if kind == "mend":
            inner, index = data.get("event"), data.get("index")
            if not isinstance(inner, Mapping):
                raise CompanionError("a mend entry needs an 'event' object")
            if not isinstance(index, int) or isinstance(index, bool) or index < 0:
                raise CompanionError("a mend entry needs an 'index', a whole number from 0")
            return cls("mend", event_from_dict(inner), _rolls(data), index)
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
    """The events that count after undos, re-rolls and mends: the single fold behind resume, undo and export.

    A mend keeps the re-rolled mark of the event it replaces; one whose index is past the live events (no box
    writes it: a file edited by hand) changes nothing, as an undo of nothing does."""
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
        elif entry.kind == "mend":
            assert entry.event is not None
            if entry.index < len(live):
                live[entry.index] = LiveEvent(entry.event, live[entry.index].rerolled)
    return live


S = TypeVar("S")


def fold_entries(start: S, entries: Iterable[Entry], apply: Callable[[S, Event], S],
                 refused: Callable[[int, Exception], Exception] | None = None,
                 catch: tuple[type[Exception], ...] = (Exception,)) -> S:
    """The state the entries leave ``start`` in, each event applied as the rows fold (:func:`live_events`): an
    undo goes back a state, a re-roll replaces the last event, a mend replays every live event from the one it
    replaces. For the commands that check a whole history (import, snapshot): ``refused(n, exc)`` makes the
    error raised for the ``n``-th entry (from 0) when ``apply`` raises one of ``catch``."""
    states: list[S] = [start]
    live: list[Event] = []
    for number, entry in enumerate(entries):
        try:
            if entry.kind == "undo":
                if live:
                    live.pop()
                    states.pop()
                continue
            assert entry.event is not None
            if entry.kind == "mend":
                if entry.index < len(live):
                    live[entry.index] = entry.event
                    del states[entry.index + 1:]
                    for event in live[entry.index:]:
                        states.append(apply(states[-1], event))
                continue
            if entry.kind == "reroll" and live:
                live.pop()
                states.pop()
            states.append(apply(states[-1], entry.event))
            live.append(entry.event)
        except catch as exc:
            if refused is None:
                raise
            raise refused(number, exc) from None
    return states[-1]


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


def parse_export(lines: Iterable[str], name: str = "<input>") -> tuple[dict[str, Any], list[Entry]]:
    """Read an export: the header and the entries (plain events; undo, reroll and mend rows are accepted too)."""
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
            files = data.get("files", {})
            if not (isinstance(files, dict) and all(
                    isinstance(k, str) and isinstance(v, str) and Path(k).name == k and k.endswith(".toml")
                    for k, v in files.items())):
                raise DataError(f"{name}: line {number}: header.files must name data files (NAME.toml) and hold "
                                "their text")
            header = {**data, "options": options, "files": files}
            continue
        try:
            entries.append(replace(Entry.from_dict(data), rolls=()))  # another box's tower's rolls: not ours
        except (*BAD_DATA, CompanionError) as exc:
            raise DataError(f"{name}: line {number}: {reason(exc)}") from None
    if header is None:
        raise DataError(f"{name}: empty, expected a header line {{\"game\": ..., \"options\": ...}}")
    return header, entries
