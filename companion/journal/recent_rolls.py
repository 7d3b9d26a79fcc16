"""The source rolls of the latest journal entries, read from the newest rows only: what the tower link is primed
with at every start.

The tower resends a roll until it hears its ACK; a roll journaled just before a stop, whose ACK never left, comes
again after the restart, and the link must know it is on disk already. Its references (:class:`RollRef`) are kept
in the entry they went into (:mod:`companion.journal.entries`), so the start reads the newest entries of the most
recently played games. It reads only those: the rows newest first, as many as it may look at, from the index the
entries table has on (game, idx), instead of every entry of the game parsed in order and the last few kept (which
grew with the game's length until it was most of a start). Only a row that names roll references is parsed at
all (a button's or a
decision's row is passed over by a look for the key), and only its references are read out of it, not its event.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from companion.errors import CompanionError
from companion.inputs import RollRef
from companion.journal.entries import _rolls

PRIMED_ROLLS = 256
"""Roll references a start looks for at most: the tower resends at most its outbox (32)."""
ROLLS_KEY = '"rolls"'
"""The key an entry's roll references are written under (:meth:`Entry.to_dict`)."""
PRIMED_SCAN = 4096
"""Journal entries read at most to find them (a long night of button rolls holds none)."""


def journaled_rolls(journal: Any, limit: int = PRIMED_ROLLS, scan: int = PRIMED_SCAN) -> list[RollRef]:
    """The source rolls of the latest journal entries, newest first, most recently played games first (entries still
    waiting in memory before those on disk). A game whose rows read here do not read is passed over (its resume
    says why)."""
    found: list[RollRef] = []
    records = journal._records(counted=False)  # not journal.games(): counting every game's rows is a scan
    for record in sorted(records, key=lambda g: (g.updated, g.id), reverse=True):
        try:
            rows = _newest_rows(journal, record.id, scan)
            refs = [_refs(payload) for payload in rows]
        except (CompanionError, sqlite3.Error, ValueError, TypeError, AttributeError):
            continue
        for entry_refs in refs:
            found.extend(entry_refs)
            scan -= 1
            if len(found) >= limit or scan <= 0:
                return found
    return found


def _newest_rows(journal: Any, game_id: int, count: int) -> list[str | bytes]:
    """The game's last ``count`` rows' JSON, newest first: those waiting in memory, then those on disk."""
    waiting = [payload for gid, _idx, _kind, payload, _at in journal._pending.rows if gid == game_id]
    rows = list(reversed(waiting))[:count]
    if len(rows) < count:
        rows += [r[0] for r in journal._db.execute(
            "SELECT event FROM entries WHERE game_id=? ORDER BY idx DESC LIMIT ?", (game_id, count - len(rows)))]
    return rows


def _refs(payload: str | bytes) -> tuple[RollRef, ...]:
    if (ROLLS_KEY not in payload) if isinstance(payload, str) else (ROLLS_KEY.encode() not in payload):
        return ()  # no roll references in this row: nothing to parse
    data = json.loads(payload)
    if not isinstance(data, dict):
        raise ValueError("an entry must be an object")
    return _rolls(data)


def rolls_from_every_entry(journal: Any, limit: int = PRIMED_ROLLS, scan: int = PRIMED_SCAN) -> list[RollRef]:
    """The same answer as :func:`journaled_rolls` by the plain way, every entry of each game read and parsed in
    order: kept as the reference the newest-rows reading is checked against (its tests, the long-game benchmark),
    never called by the box."""
    found: list[RollRef] = []
    for record in sorted(journal.games(), key=lambda g: (g.updated, g.id), reverse=True):
        try:
            entries = journal.entries(record.id)
        except CompanionError:
            continue
        for entry in reversed(entries):
            found.extend(entry.rolls)
            scan -= 1
            if len(found) >= limit or scan <= 0:
                return found
    return found
