"""The journal: durable, replayable, honest about damage and a full disk."""

from __future__ import annotations

import json
import logging
import sqlite3

import pytest

from companion.dice import Choice, DiceRolled, Shuffled
from companion.errors import CompanionError, DataError, UnavailableError
from companion.inputs import RollRef
from companion.journal import SCHEMA_VERSION, Entry, Journal, live_events, parse_export

D8 = DiceRolled.of(("d8", 3), source="tower")
D6 = DiceRolled.of(("d6", 2), ("d6", 5), source="os")


def test_wal_and_full_sync(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        assert j._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert j._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_events_survive_reopen_in_order(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        gid = j.new_game("kansas", {"players": 4, "turn": 2})
        assert j.append(gid, Entry("event", D8))
        assert j.append(gid, Entry("event", Choice("forecast", {"line": "ns", "at": 4})))
        assert j.append(gid, Entry("event", Shuffled((2, 0, 1))))
    with Journal(path) as j:
        [record] = j.games()
        assert (record.id, record.game, dict(record.options), record.entries) == (gid, "kansas",
                                                                               {"players": 4, "turn": 2}, 3)
        assert [e.event for e in j.events(gid)] == [D8, Choice("forecast", {"line": "ns", "at": 4}),
                                                     Shuffled((2, 0, 1))]


def test_undo_and_reroll_are_rows_and_replay_the_same(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        gid = j.new_game("kansas", {})
        j.append(gid, Entry("event", D8))
        j.append(gid, Entry("event", D6))
        j.append(gid, Entry("undo"))
        j.append(gid, Entry("event", D6))
        better = DiceRolled.of(("d6", 6), ("d6", 6), source="os")
        j.append(gid, Entry("reroll", better))
        kinds = [e.kind for e in j.entries(gid)]
        assert kinds == ["event", "event", "undo", "event", "reroll"]
        live = j.events(gid)
        assert [x.event for x in live] == [D8, better]
        assert [x.rerolled for x in live] == [False, True]


def test_undo_of_nothing_is_harmless():
    assert live_events([Entry("undo"), Entry("event", D8)]) == live_events([Entry("event", D8)])


def test_last_unfinished_game_is_resumed(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        a = j.new_game("kansas", {})
        b = j.new_game("stormfury", {})
        j.append(a, Entry("event", D8))
        j.mark_finished(a)
        assert j.last_unfinished().id == b
        j.mark_finished(b)
        assert j.last_unfinished() is None


def test_the_game_to_resume_is_the_same_record_the_listing_gives(tmp_path):
    """Its entries counted for that game alone, as ``companion games`` lists them."""
    with Journal(tmp_path / "j.sqlite") as j:
        a = j.new_game("kansas", {"players": 4})
        b = j.new_game("stormfury", {})
        for _ in range(3):
            j.append(a, Entry("event", D8))
        j.append(b, Entry("event", D8))
        j.mark_finished(b)
        listed = {g.id: g for g in j.games()}
        assert j.last_unfinished() == listed[a] and listed[a].entries == 3


def test_export_import_round_trip_keeps_the_history_and_the_rerolled_mark(tmp_path):
    better = DiceRolled.of(("d6", 6), ("d6", 6), source="os")
    with Journal(tmp_path / "a.sqlite") as j:
        gid = j.new_game("kansas", {"players": 5})
        j.append(gid, Entry("event", D8))
        j.append(gid, Entry("event", D6))
        j.append(gid, Entry("undo"))
        j.append(gid, Entry("event", D6))
        j.append(gid, Entry("reroll", better))
        lines = list(j.export_lines(gid))
        live = j.events(gid)
    header = json.loads(lines[0])
    assert header["game"] == "kansas" and header["options"] == {"players": 5}
    assert [json.loads(x)["type"] for x in lines[1:]] == ["dice", "dice", "undo", "dice", "reroll"]
    with Journal(tmp_path / "b.sqlite") as k:
        new = k.import_lines(lines)
        assert k.events(new) == live and [x.rerolled for x in live] == [False, True]
        assert [e.kind for e in k.entries(new)] == ["event", "event", "undo", "event", "reroll"]


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "empty"),
    ("not json\n", "line 1: not JSON"),
    ('{"options": {}}\n', "line 1: the header needs"),
    ('{"game": "kansas"}\n{"type": "dice", "dice": [["d8", 9]]}\n', "line 2:"),
    ('{"game": "kansas"}\n{"type": "telepathy"}\n', "line 2: unknown event type"),
])
def test_bad_exports_name_the_line(text, fragment):
    with pytest.raises(DataError) as info:
        parse_export(text.splitlines(), "night.jsonl")
    assert "night.jsonl" in str(info.value) and fragment in str(info.value)


def test_damaged_file_is_kept_aside_and_a_fresh_journal_starts(tmp_path):
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"this is not a database, it is a shopping list" * 100)
    with Journal(path) as j:
        assert "kept as" in j.notice and "new journal started" in j.notice
        assert j.games() == []
        j.new_game("kansas", {})
    aside = [p for p in tmp_path.iterdir() if ".aside" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not a database")


def test_older_schema_is_kept_aside(tmp_path):
    path = tmp_path / "j.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id INTEGER)")
    db.execute("PRAGMA user_version=0")
    db.commit()
    db.close()
    with Journal(path) as j:
        assert "from an older version (schema 0, this program reads 1)" in j.notice
        assert j.games() == []
    assert any(p.name.endswith(".aside") for p in tmp_path.iterdir())


def test_newer_schema_is_kept_aside_and_said_so(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        j.new_game("kansas", {})
        j._db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with Journal(path) as j:
        assert "from a newer version" in j.notice and j.games() == []
    [aside] = [p for p in tmp_path.iterdir() if p.name.endswith(".aside")]
    with sqlite3.connect(aside) as kept:
        assert kept.execute("SELECT game FROM games").fetchall() == [("kansas",)]


def test_a_locked_journal_is_never_moved_aside(tmp_path):
    """Another process holding the file is not damage: one line, and the file stays where it is."""
    path = tmp_path / "j.sqlite"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(CompanionError) as info:
            Journal(path, busy_timeout=0.05)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "cannot open (database is locked)" in str(info.value) and "\n" not in str(info.value)
    assert [p.name for p in tmp_path.iterdir()] == ["j.sqlite"]
    assert isinstance(info.value, UnavailableError)  # the service exits 75: systemd tries again later


@pytest.mark.parametrize("where", ["directory", "under a file"])
def test_a_journal_path_that_cannot_be_a_journal_is_one_line(tmp_path, where):
    if where == "directory":
        path = tmp_path / "j.sqlite"
        path.mkdir()
        needle = "not a file"
    else:
        (tmp_path / "plain").write_text("not a folder")
        path = tmp_path / "plain" / "j.sqlite"
        needle = "cannot create its folder"
    with pytest.raises(CompanionError) as info:
        Journal(path)
    assert needle in str(info.value) and str(path) in str(info.value)
    assert not any(p.name.endswith(".aside") for p in tmp_path.iterdir())


def test_disk_full_keeps_the_game_in_memory_and_catches_up(tmp_path):
    """SQLite's own page limit makes the file "full": the real SQLITE_FULL error, no stand-in."""
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    gid = j.new_game("kansas", {})
    pages = j._db.execute("PRAGMA page_count").fetchone()[0]
    j._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    j._db.execute(f"PRAGMA max_page_count={pages}")
    big = Choice("note", {"text": "x" * 20000})
    assert j.append(gid, Entry("event", big)) is False
    assert j.degraded and "disk full" in j.notice
    assert j.append(gid, Entry("event", D8)) is False
    assert [e.event for e in j.events(gid)] == [big, D8]  # still there, in memory
    assert j.retry() is False
    j._db.execute("PRAGMA max_page_count=1000000")
    assert j.retry() is True
    assert not j.degraded and j.notice == ""
    j.close()
    with Journal(path) as again:
        assert [e.event for e in again.events(gid)] == [big, D8]


def test_a_refused_write_is_kept_in_memory_logged_once_and_caught_up(tmp_path, caplog):
    """SQLite's own query_only switch refuses writes the way a card remounted read-only does."""
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    gid = j.new_game("kansas", {})
    j._db.execute("PRAGMA query_only=ON")
    with caplog.at_level(logging.INFO, logger="companion.journal"):
        assert j.append(gid, Entry("event", D8)) is False
        assert j.append(gid, Entry("event", D6)) is False
        assert j.retry() is False
        assert j.notice == "journal: cannot write (attempt to write a readonly database), game kept in memory"
        assert Journal.is_write_notice(j.notice) and j.degraded
        assert [e.event for e in j.events(gid)] == [D8, D6]
        j._db.execute("PRAGMA query_only=OFF")
        assert j.retry() is True and j.notice == "" and not j.degraded
    assert [r.levelname for r in caplog.records] == ["WARNING", "INFO"]
    j.close()
    with Journal(path) as again:
        assert [e.event for e in again.events(gid)] == [D8, D6]


def test_a_journal_held_by_another_process_exits_75_so_the_service_is_tried_again(tmp_path, capsys):
    """Exit 2 means a wrong configuration (systemd gives up, RestartPreventExitStatus=2); a journal
    another process holds may come free, so the box exits 75 and systemd starts it again later."""
    from companion.cli import main

    path = tmp_path / "j.sqlite"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        assert main(["games", "--journal", str(path)]) == 75
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    err = capsys.readouterr().err
    assert err.startswith(f"companion: journal {path}: cannot open") and err.count("\n") == 1
    assert [p.name for p in tmp_path.iterdir()] == ["j.sqlite"]


TOWER_D8 = RollRef("tower", "3fa9c2d1", 7, (("d8", 3),))
TOWER_D6 = RollRef("tower", "3fa9c2d1", 8, (("d6", 2), ("d6", 5), ("d8", 1)))  # a die refused by the game too


def test_the_rolls_an_event_came_from_are_stored_in_its_row_and_read_back(tmp_path):
    """One row, one commit: the event and the tower rolls (boot, seq, dice) its dice came from; a re-roll keeps its
    own; the game's history is the same as without them."""
    path = tmp_path / "j.sqlite"
    better = DiceRolled.of(("d8", 8), source="tower")
    again = RollRef("tower", "3fa9c2d1", 9, (("d8", 8),))
    with Journal(path) as j:
        gid = j.new_game("kansas", {})
        j.append(gid, Entry("event", D8, (TOWER_D8,)))
        j.append(gid, Entry("event", D6, (TOWER_D8, TOWER_D6)))
        j.append(gid, Entry("reroll", better, (again,)))
        j.append(gid, Entry("undo"))
    with sqlite3.connect(path) as db:
        stored = [json.loads(r[0]) for r in db.execute("SELECT event FROM entries ORDER BY idx")]
    assert stored[0]["rolls"] == [{"source": "tower", "boot": "3fa9c2d1", "seq": 7, "dice": [["d8", 3]]}]
    assert [r["seq"] for r in stored[1]["rolls"]] == [7, 8] and stored[2]["rolls"][0]["seq"] == 9
    assert "rolls" not in stored[3]
    with Journal(path, readonly=True) as j:
        assert [e.rolls for e in j.entries(gid)] == [(TOWER_D8,), (TOWER_D8, TOWER_D6), (again,), ()]
        assert [x.event for x in j.events(gid)] == [D8]


def test_a_journal_written_before_rolls_were_kept_still_reads(tmp_path):
    """Rows as the box wrote them before (the event's JSON alone): they read and replay as ever, with no rolls;
    a rolls value that does not read counts as none rather than losing the game."""
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        gid = j.new_game("kansas", {})
    rows = [("event", {"type": "dice", "dice": [["d8", 3]], "source": "tower"}),
            ("reroll", {"type": "reroll", "event": {"type": "dice", "dice": [["d8", 5]], "source": "tower"}}),
            ("event", {"type": "dice", "dice": [["d6", 2], ["d6", 5]], "source": "os", "rolls": [{"seq": "x"}]})]
    with sqlite3.connect(path) as db:
        db.executemany("INSERT INTO entries (game_id, idx, kind, event, accepted_at) VALUES (?,?,?,?,?)",
                       [(gid, i, kind, json.dumps(data), "2024-06-11T20:00:00.000+00:00")
                        for i, (kind, data) in enumerate(rows)])
    with Journal(path) as j:
        assert [e.rolls for e in j.entries(gid)] == [(), (), ()]
        assert [x.event for x in j.events(gid)] == [DiceRolled.of(("d8", 5), source="tower"), D6]


def test_export_leaves_the_rolls_out_and_import_drops_them(tmp_path):
    """The rolls name this box's tower: an export is the game's history only, and an import (of a file written
    anywhere) keeps none, so another box's tower numbers are never taken for this one's."""
    with Journal(tmp_path / "a.sqlite") as j:
        gid = j.new_game("kansas", {})
        j.append(gid, Entry("event", D8, (TOWER_D8,)))
        lines = list(j.export_lines(gid))
    assert "rolls" not in lines[1] and "3fa9c2d1" not in "".join(lines)
    with_rolls = [lines[0], json.dumps({**json.loads(lines[1]), "rolls": [TOWER_D8.to_dict()]})]
    with Journal(tmp_path / "b.sqlite") as k:
        new = k.import_lines(with_rolls)
        assert [(e.event, e.rolls) for e in k.entries(new)] == [(D8, ())]
