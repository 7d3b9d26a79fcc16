"""Reading the games back out of a damaged journal, row by row, without SQLite's help.

A journal can be cut short (a card pulled mid-write), have its first page overwritten (the header and
the table of tables: SQLite then refuses the whole file) or lose a page in the middle. SQLite reads
none of these as a whole, yet most rows are still on disk. This module reads the file the way SQLite
lays it out (https://www.sqlite.org/fileformat2.html): every page that is a table leaf, each cell a
record, the ``-wal`` file's newer copies of pages over the main file's; it needs neither the header nor
the table of tables, so it works where SQLite cannot open the file at all.

Rows are recognised by their shape (a ``games`` row: null id, four texts, an integer; an ``entries``
row: two integers, three texts, the kind one of the journal's) and each is checked the way the journal
reads it. A game is *saved* only if it is whole: its row, entries numbered 0..n without a gap, each one
readable, and the last written no earlier than the game's ``updated`` time (which every write moves to
the last entry's time), so an entry lost at the end is noticed too; and, for the box, only if it replays
(:mod:`companion.journal.replays`: a flipped bit can leave a row that parses). Games that are not whole are
*not saved* and named; ids between 1 and the highest seen that left no row at all count as not saved.
The damaged file itself is never changed.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.journal.entries import ENTRY_KINDS, Entry
from companion.sha256 import sha256

PAGE_SIZES = (4096, 1024, 2048, 8192, 16384, 32768, 65536, 512)
MAX_GAME_ID = 1_000_000
"""Game ids are counted from 1; a number above this in a row is taken for noise, not a game."""
_HEADER = b"SQLite format 3\x00"
_WAL_MAGIC = (0x377F0682, 0x377F0683)


@dataclass(frozen=True)
class SavedGame:
    """A whole game as the journal holds it: its ``games`` row and its ``entries`` rows in order."""

    id: int
    game: str
    options: str
    created: str
    updated: str
    finished: int
    rows: tuple[tuple[int, str, str, str], ...]
    """(idx, kind, event, accepted_at), idx 0..n-1."""
    files: tuple[tuple[str, bytes], ...] = ()
    """The data files it began with (:mod:`companion.journal.boards`), when every one of them was read back whole
    (each checked against its SHA-256); none otherwise, and it replays on the files in force."""


@dataclass
class Salvage:
    """What came back from a damaged journal: whole games, and the ids of games that did not."""

    saved: list[SavedGame] = field(default_factory=list)
    lost: dict[int, str] = field(default_factory=dict)
    """Game id -> why it is not saved (one short phrase)."""

    def summary(self) -> str:
        """``11 games saved, 1 not (game 4: entry 7 unreadable)``."""
        text = f"{len(self.saved)} game{'s' if len(self.saved) != 1 else ''} saved, {len(self.lost)} not"
        if self.lost:
            shown = [f"game {gid}: {why}" for gid, why in sorted(self.lost.items())[:3]]
            more = f", {len(self.lost) - 3} more" if len(self.lost) > 3 else ""
            text += f" ({'; '.join(shown)}{more})"
        return text


def salvage(path: Path, replays: Callable[[SavedGame], str] | None = None) -> Salvage:
    """Every whole game in the journal at ``path`` (and its ``-wal``), read row by row; with ``replays`` (see
    :mod:`companion.journal.replays`) only those it finds nothing wrong with."""
    data = _read(path)
    wal = _read(path.with_name(path.name + "-wal"))
    best: _Found = ({}, {}, _Files({}, {}))
    for size in _page_sizes(data, wal):
        found = _rows(_pages(data, wal, size), size - _reserved(data))
        if len(found[0]) + len(found[1]) > len(best[0]) + len(best[1]):
            best = found
    return _assemble(*best, replays=replays)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


def _page_sizes(data: bytes, wal: bytes) -> list[int]:
    """The header's page size first (when the header is sound), then the WAL's, then every size SQLite allows."""
    sizes: list[int] = []
    if data.startswith(_HEADER) and len(data) >= 100:
        raw = struct.unpack(">H", data[16:18])[0]
        sizes.append(65536 if raw == 1 else raw)
    if len(wal) >= 32 and struct.unpack(">I", wal[:4])[0] in _WAL_MAGIC:
        sizes.append(struct.unpack(">I", wal[8:12])[0])
    return [s for s in dict.fromkeys([*sizes, *PAGE_SIZES]) if s in PAGE_SIZES]


def _reserved(data: bytes) -> int:
    return data[20] if data.startswith(_HEADER) and len(data) >= 100 and data[20] < 64 else 0


def _pages(data: bytes, wal: bytes, size: int) -> dict[int, bytes]:
    """Page number -> bytes: the main file's pages, overlaid by the newest copy of each in the WAL."""
    pages = {n + 1: data[o:o + size] for n, o in enumerate(range(0, len(data) - size + 1, size))}
    if len(wal) >= 32 and struct.unpack(">I", wal[:4])[0] in _WAL_MAGIC and \
            struct.unpack(">I", wal[8:12])[0] == size:
        salt = wal[16:24]
        for offset in range(32, len(wal) - 24 - size + 1, 24 + size):
            frame = wal[offset:offset + 24]
            if frame[8:16] != salt:  # a frame of an earlier WAL generation: stale
                break
            number = struct.unpack(">I", frame[:4])[0]
            if number:
                pages[number] = wal[offset + 24:offset + 24 + size]
    return pages


@dataclass
class _Files:
    """The ``game_files`` rows, (game, name) -> SHA-256, and the ``data_files`` contents that match their digest."""

    names: dict[tuple[int, str], str]
    contents: dict[str, bytes]

    def of(self, game_id: int) -> tuple[tuple[str, bytes], ...]:
        named = sorted((name, digest) for (gid, name), digest in self.names.items() if gid == game_id)
        if not all(digest in self.contents for _, digest in named):
            return ()  # a file lost with its page: the board is not whole, so none is kept
        return tuple((name, self.contents[digest]) for name, digest in named)


_Found = tuple[dict[int, tuple[Any, ...]], dict[tuple[int, int], tuple[Any, ...]], _Files]


def _rows(pages: dict[int, bytes], usable: int) -> _Found:
    """games rows by id, entries rows by (game_id, idx) and the games' data files, from every table leaf page
    that parses."""
    games: dict[int, tuple[Any, ...]] = {}
    entries: dict[tuple[int, int], tuple[Any, ...]] = {}
    files = _Files({}, {})
    for number, page in pages.items():
        for rowid, values in _cells(page, 100 if number == 1 else 0, usable, pages):
            if _is_games_row(values):
                row = (rowid, *values[1:])
                old = games.get(rowid)
                if old is None or row[4] > old[4]:  # two copies of a row: the later write wins
                    games[rowid] = row
            elif _is_entries_row(values):
                entries.setdefault((values[0], values[1]), tuple(values))
            elif _is_game_files_row(values):
                files.names.setdefault((values[0], values[1]), values[2])
            elif _is_data_files_row(values):
                files.contents[values[0]] = values[1]
    return games, entries, files


def _is_game_files_row(values: list[Any]) -> bool:
    return (len(values) == 3 and isinstance(values[0], int) and isinstance(values[1], str)
            and values[1].endswith(".toml") and _is_digest(values[2]))


def _is_data_files_row(values: list[Any]) -> bool:
    return (len(values) == 2 and _is_digest(values[0]) and isinstance(values[1], bytes)
            and sha256(values[1]).hexdigest() == values[0])


def _is_digest(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def _is_games_row(values: list[Any]) -> bool:
    return (len(values) == 6 and values[0] is None and all(isinstance(v, str) for v in values[1:5])
            and isinstance(values[5], int))


def _is_entries_row(values: list[Any]) -> bool:
    return (len(values) == 5 and isinstance(values[0], int) and isinstance(values[1], int)
            and all(isinstance(v, str) for v in values[2:]) and values[2] in ENTRY_KINDS)


def _cells(page: bytes, start: int, usable: int, pages: dict[int, bytes]) -> Iterator[tuple[int, list[Any]]]:
    """(rowid, values) of each cell of a table leaf page; a cell that does not parse is skipped."""
    if len(page) < start + 8 or page[start] != 0x0D:
        return
    count = struct.unpack(">H", page[start + 3:start + 5])[0]
    for i in range(count):
        at = start + 8 + 2 * i
        if at + 2 > len(page):
            return
        offset = struct.unpack(">H", page[at:at + 2])[0]
        try:
            rowid, payload = _cell(page, offset, usable, pages)
            values = _record(payload)
        except (IndexError, ValueError, struct.error, UnicodeDecodeError):
            continue
        yield rowid, values


def _cell(page: bytes, offset: int, usable: int, pages: dict[int, bytes]) -> tuple[int, bytes]:
    size, offset = _varint(page, offset)
    rowid, offset = _varint(page, offset)
    if size > 1 << 24:
        raise ValueError("cell too large")
    most = usable - 35
    if size <= most:
        local = size
    else:
        least = (usable - 12) * 32 // 255 - 23
        local = least + (size - least) % (usable - 4)
        if local > most:
            local = least
    payload = bytearray(page[offset:offset + local])
    if len(payload) != local:
        raise ValueError("cell runs off the page")
    if local < size:  # the rest lives on a chain of overflow pages
        next_page = struct.unpack(">I", page[offset + local:offset + local + 4])[0]
        seen = set()
        while len(payload) < size:
            if next_page in seen or next_page not in pages:
                raise ValueError("broken overflow chain")
            seen.add(next_page)
            overflow = pages[next_page]
            next_page = struct.unpack(">I", overflow[:4])[0]
            payload += overflow[4:usable][:size - len(payload)]
    return (rowid if rowid < 1 << 63 else rowid - (1 << 64)), bytes(payload)


def _varint(data: bytes, offset: int) -> tuple[int, int]:
    value = 0
    for i in range(9):
        byte = data[offset + i]
        if i == 8:
            return (value << 8) | byte, offset + 9
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, offset + i + 1
    raise ValueError("bad varint")  # pragma: no cover - the loop always returns


_INT_SIZES = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}


def _record(payload: bytes) -> list[Any]:
    """The values of a record (header of serial types, then the body)."""
    header_size, at = _varint(payload, 0)
    if header_size > len(payload):
        raise ValueError("record header runs past the payload")
    types = []
    while at < header_size:
        kind, at = _varint(payload, at)
        types.append(kind)
    body = header_size
    values: list[Any] = []
    for kind in types:
        if kind == 0:
            values.append(None)
        elif kind in _INT_SIZES:
            n = _INT_SIZES[kind]
            if body + n > len(payload):
                raise ValueError("value runs past the payload")
            values.append(int.from_bytes(payload[body:body + n], "big", signed=True))
            body += n
        elif kind == 7:
            values.append(struct.unpack(">d", payload[body:body + 8])[0])
            body += 8
        elif kind in (8, 9):
            values.append(kind - 8)
        elif kind >= 12:
            n = (kind - 12) // 2
            raw = payload[body:body + n]
            if len(raw) != n:
                raise ValueError("value runs past the payload")
            values.append(raw.decode("utf-8") if kind % 2 else bytes(raw))
            body += n
        else:
            raise ValueError(f"reserved serial type {kind}")
    return values


def _assemble(games: dict[int, tuple[Any, ...]], entries: dict[tuple[int, int], tuple[Any, ...]], files: _Files,
              *, replays: Callable[[SavedGame], str] | None = None) -> Salvage:
    result = Salvage()
    by_game: dict[int, dict[int, tuple[Any, ...]]] = {}
    for (gid, idx), row in entries.items():
        by_game.setdefault(gid, {})[idx] = row
    ids = set(games) | {gid for gid in by_game if 0 < gid <= MAX_GAME_ID}
    for gid in range(1, min(max(ids, default=0), MAX_GAME_ID) + 1):
        found = games.get(gid)
        if found is None:
            result.lost[gid] = "its games row is gone" if gid in by_game else "no row left"
            continue
        _, game, options, created, updated, finished = found
        try:
            if not isinstance(json.loads(options), dict):
                raise ValueError
        except (ValueError, RecursionError):
            result.lost[gid] = "options unreadable"
            continue
        rows = by_game.get(gid, {})
        why = ""
        for idx in range(len(rows)):
            if idx not in rows:
                why = f"entry {idx} is gone"
                break
            try:
                Entry.from_dict(json.loads(rows[idx][3]))
            except (ValueError, RecursionError, OverflowError, TypeError, CompanionError):
                why = f"entry {idx} unreadable"
                break
        last = rows[len(rows) - 1][4] if rows and not why else created
        if not why and last < updated:
            why = f"entries from {len(rows)} on are gone"
        if why:
            result.lost[gid] = why
            continue
        saved = SavedGame(gid, game, options, created, updated, int(bool(finished)),
                          tuple((idx, r[2], r[3], r[4]) for idx, r in sorted(rows.items())), files.of(gid))
        if replays is not None and (why := replays(saved)):
            result.lost[gid] = why
            continue
        result.saved.append(saved)
    return result
