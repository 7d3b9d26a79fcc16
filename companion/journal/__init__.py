"""The journal: every accepted event of every game, on disk before it is shown.

One package, layered bottom-up (each module imports only those above it in this list, never one below):

- :mod:`.entries`: what a journal records (entries, live events, a game's record, the export format);
- :mod:`.codec`: states and engines as plain data that reading cannot make run code;
- :mod:`.store`: the SQLite file (tables, connections, what a file that cannot be used is, moving one aside);
- :mod:`.writer`: the thread a COMMIT finishes on while the box draws;
- :mod:`.history`, :mod:`.version`, :mod:`.snapshots`: stored states, checked against the history they summarise
  and the code and data they were made by; :mod:`.engine_cache`: engines kept between starts;
- :mod:`.salvage`: games read back row by row from a damaged file;
- :mod:`.recovery`: writes a stopping box could not make, kept for the next start;
- :mod:`.lock`: one box per journal;
- :mod:`.journal`: :class:`Journal`, which puts them together.

Callers import from here.
"""

from __future__ import annotations

from companion.journal.entries import (
    BAD_DATA,
    ENTRY_KINDS,
    FORMAT,
    SCHEMA_VERSION,
    Entry,
    GameRecord,
    LiveEvent,
    live_events,
    parse_export,
    reason,
)
from companion.journal.journal import Journal
from companion.journal.store import default_path, transaction

__all__ = ["BAD_DATA", "ENTRY_KINDS", "FORMAT", "SCHEMA_VERSION", "Entry", "GameRecord", "Journal", "LiveEvent",
           "default_path", "live_events", "parse_export", "reason", "transaction"]
