"""Snapshots in the journal: resume and undo start from a stored state, and a stored state is never trusted over
the history it summarises (edited, damaged, made by other code or map data, undone past: ignored, full replay)."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from benchmarks.bench_journal import long_kansas_maps, scripted_events
from companion.cli import main
from companion.dice import DiceRolled, event_to_dict
from companion.games.base import replay
from companion.games.registry import load_game
from companion.journal import Journal
from companion.journal.codec import types_for
from companion.journal.salvage import salvage
from companion.journal.snapshots import KEEP, SNAPSHOT_EVERY, row_checksum
from companion.journal.version import engine_version
from companion.session import game_run
from companion.session.core import Session
from companion.session.game_run import GameRun

EVERY = 20
"""Snapshots this often in the tests that need many in a short game."""

GAMES = {"kansas": {"players": 4}, "stormfury": {}, "carcassonne": {}, "industry": {}, "allegheny": {}}
GAMES["carcassonne"] = {"players": 3, "board": "cells"}  # seed 3's random table ends a tile-mode game in 9 events


@pytest.fixture
def every(monkeypatch) -> int:
    monkeypatch.setattr(game_run, "SNAPSHOT_EVERY", EVERY)
    return EVERY


def played(path: Path, key: str, options: dict[str, Any], count: int, *, seed: int = 3,
           maps: Path | None = None) -> tuple[int, list[Any]]:
    """A game of ``count`` scripted events accepted one by one through a GameRun on the journal at ``path``."""
    game = load_game(key, maps)
    events = scripted_events(game, options, count, seed)
    with Journal(path) as journal:
        run = GameRun.new(journal, game, options, maps)
        for event in events:
            run.accept(event)
        return run.game_id, events


def snapshot_counts(path: Path, game_id: int) -> list[int]:
    with sqlite3.connect(path) as db:
        return [r[0] for r in db.execute("SELECT live FROM snapshots WHERE game_id=? ORDER BY live", (game_id,))]


def plant(db: sqlite3.Connection, game_id: int, payload: bytes, *, live: int | None = None,
          digest: str | None = None) -> int:
    """The game's snapshots (or the one at ``live``) given ``payload`` (and ``digest``), their checksums made to
    match, as anyone holding a genuine journal can; how many rows."""
    rows = db.execute("SELECT live, entry_idx, digest, version FROM snapshots WHERE game_id=?", (game_id,)).fetchall()
    count = 0
    for at, entry_idx, old_digest, version in rows:
        if live is None or at == live:
            new_digest = digest if digest is not None else old_digest
            checksum = row_checksum(game_id, at, entry_idx, new_digest, version, payload)
            count += db.execute("UPDATE snapshots SET payload=?, checksum=?, digest=? WHERE game_id=? AND live=?",
                                (payload, checksum, new_digest, game_id, at)).rowcount
    return count


def resumed(path: Path, key: str, game_id: int, maps: Path | None = None) -> tuple[GameRun, list[Any]]:
    """The game resumed as the box does, and the live events a full replay reads (from a journal of its own)."""
    with Journal(path, readonly=True) as reader:
        events = [x.event for x in reader.events(game_id)]
    journal = Journal(path)
    run = GameRun.resume(journal, load_game(key, maps), journal.game(game_id), maps)
    return run, events


@pytest.mark.parametrize("key", list(GAMES))
def test_resume_from_a_snapshot_equals_the_full_replay(tmp_path, every, key):
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, key, GAMES[key], 3 * EVERY + 7)
    count = len(events)
    assert count > EVERY, f"{key}: the scripted game is too short to snapshot"
    stored = snapshot_counts(path, game_id)
    assert stored and stored[-1] == count // EVERY * EVERY
    run, live = resumed(path, key, game_id)
    try:
        game = run.game
        assert run.live.base == stored[-1]  # from the snapshot, not from the first event
        assert run.state == replay(game, GAMES[key], live)
        assert len(run.live) == count and [x.event for x in run.live] == live
        full = GameRun(game, dict(GAMES[key]), game_id, run.journal, run.journal.events(game_id),
                       replay(game, GAMES[key], live))
        assert run.digest() == full.digest()  # the crash tests' fingerprint does not depend on the path taken
    finally:
        run.journal.close()


def test_a_whole_kansas_game_snapshots_at_the_default_interval(tmp_path):
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 10_000)
    assert len(events) > 2 * SNAPSHOT_EVERY
    every_point = [SNAPSHOT_EVERY * n for n in range(1, len(events) // SNAPSHOT_EVERY + 1)]
    assert snapshot_counts(path, game_id) == every_point[-KEEP:]  # the newest KEEP of them
    run, live = resumed(path, "kansas", game_id)
    with run.journal:
        assert run.state == replay(run.game, {"players": 4}, live) and run.finished


def test_a_long_kansas_game_resumes_through_the_session(tmp_path):
    """The benchmark's game on a smaller scale: the outbreak row repeated, the session starting on it."""
    maps = long_kansas_maps(tmp_path, copies=2)
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 2 * SNAPSHOT_EVERY + SNAPSHOT_EVERY // 2, maps=maps)
    with Journal(path) as journal:
        session = Session(journal, maps=maps)
        session.start()
        run = session.current
        assert run is not None and run.game_id == game_id and run.live.base == 2 * SNAPSHOT_EVERY
        assert run.state == replay(run.game, {"players": 4}, events)
        assert session.panel.prompt is not None  # the panel is built from the resumed state


def edit_entry(path: Path, game_id: int, idx: int, change) -> None:
    with sqlite3.connect(path) as db:
        (text,) = db.execute("SELECT event FROM entries WHERE game_id=? AND idx=?", (game_id, idx)).fetchone()
        db.execute("UPDATE entries SET event=? WHERE game_id=? AND idx=?", (change(text), game_id, idx))


def test_an_event_edited_before_the_snapshot_means_a_full_replay(tmp_path, every, caplog):
    """The first roll's source edited by hand (an edit that still replays, so the game resumes): both
    snapshots summarise a history that is no longer the journal's, so both are ignored, each said once."""
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 2 * EVERY + 5)
    assert isinstance(events[0], DiceRolled) and events[0].source == "seed"
    edit_entry(path, game_id, 0, lambda text: text.replace('"source": "seed"', '"source": "typed"'))
    caplog.set_level(logging.WARNING)
    for _ in range(2):
        run, live = resumed(path, "kansas", game_id)
        with run.journal:
            assert live[0] != events[0] and live[1:] == events[1:]
            assert run.live.base == 0 and run.state == replay(run.game, {"players": 4}, live)
            assert run.live[0].event.source == "typed"
    said = [r.getMessage() for r in caplog.records if "snapshot" in r.getMessage()]
    assert len(said) == 2 and all("the events it summarises have changed" in line for line in said)


def test_a_damaged_payload_is_ignored_and_an_older_snapshot_used(tmp_path, every, caplog):
    path = tmp_path / "j.sqlite"
    game_id, _ = played(path, "stormfury", {}, 2 * EVERY + 5, seed=6)  # a game of more than 45 events
    with sqlite3.connect(path) as db:
        (data,) = db.execute("SELECT payload FROM snapshots WHERE game_id=? AND live=?",
                             (game_id, 2 * EVERY)).fetchone()
        spoilt = bytearray(data)
        spoilt[len(spoilt) // 2] ^= 0x55
        db.execute("UPDATE snapshots SET payload=? WHERE game_id=? AND live=?", (bytes(spoilt), game_id, 2 * EVERY))
    caplog.set_level(logging.WARNING)
    run, live = resumed(path, "stormfury", game_id)
    with run.journal:
        assert run.live.base == EVERY and run.state == replay(run.game, {}, live)
    assert any("payload is damaged" in r.getMessage() for r in caplog.records)


def test_a_payload_that_does_not_read_means_a_full_replay(tmp_path, every, caplog):
    """Checksum right, content not a state (as a class renamed by new code would leave it): full replay."""
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, EVERY + 3)
    junk = b"not a state at all"
    with sqlite3.connect(path) as db:
        assert plant(db, game_id, junk) == 1
    caplog.set_level(logging.WARNING)
    run, _ = resumed(path, "kansas", game_id)
    with run.journal:
        assert run.live.base == 0 and run.state == replay(run.game, {"players": 4}, events)
    assert any("payload does not read" in r.getMessage() for r in caplog.records)


def test_a_snapshot_of_other_map_data_is_ignored(tmp_path, every, maps_dir, caplog):
    import shutil

    maps = tmp_path / "maps"
    shutil.copytree(maps_dir, maps)
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, EVERY + 3, maps=maps)
    game = load_game("kansas", maps)
    before = engine_version(game, maps)
    board = maps / "kansas.toml"
    board.write_text(board.read_text() + "\n# the group's own note\n")
    assert engine_version(game, maps) != before
    caplog.set_level(logging.WARNING)
    run, _ = resumed(path, "kansas", game_id, maps)
    with run.journal:
        assert run.live.base == 0 and run.state == replay(run.game, {"players": 4}, events)
    assert any("made by other code or map data" in r.getMessage() for r in caplog.records)


def test_the_version_tag_names_the_engine(maps_dir):
    tags = {engine_version(load_game(key, maps_dir), maps_dir) for key in GAMES}
    assert len(tags) == len(GAMES)


def test_undo_across_snapshot_boundaries_equals_the_replay_of_what_is_left(tmp_path, every):
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 2 * EVERY + 3)
    count = len(events)
    for n in range(count - 1, EVERY + 1, -1):  # each undo from a fresh start: nothing in memory but the load
        run, _ = resumed(path, "kansas", game_id)
        with run.journal:
            run.undo()
            assert len(run.live) == n and run.state == replay(run.game, {"players": 4}, events[:n]), n
            assert [x.event for x in run.live] == events[:n]
    assert snapshot_counts(path, game_id) == [EVERY]  # the ones beyond the live list went with the undo
    run, _ = resumed(path, "kansas", game_id)
    with run.journal:
        assert run.live.base == EVERY and len(run.live) == EVERY + 2
        for event in events[EVERY + 2:]:  # played again: the snapshot at 2 * EVERY is written anew
            run.accept(event)
    assert snapshot_counts(path, game_id) == [EVERY, 2 * EVERY]
    run, _ = resumed(path, "kansas", game_id)
    with run.journal:
        assert run.live.base == 2 * EVERY and run.state == replay(run.game, {"players": 4}, events)


def test_many_undos_in_one_run_walk_back_through_memory_and_snapshots(tmp_path, every):
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 3 * EVERY + 5)
    run, _ = resumed(path, "kansas", game_id)
    with run.journal:
        for n in range(len(events) - 1, -1, -1):
            run.undo()
            assert len(run.live) == n and run.state == replay(run.game, {"players": 4}, events[:n]), n
        assert run.live == []


def test_a_reroll_of_the_event_a_snapshot_ends_on_replaces_that_snapshot(tmp_path, every):
    path = tmp_path / "j.sqlite"
    game = load_game("kansas")
    events = scripted_events(game, {"players": 4}, 2 * EVERY, 5)
    assert isinstance(events[EVERY - 1], DiceRolled)
    with Journal(path) as journal:
        run = GameRun.new(journal, game, {"players": 4})
        for event in events[:EVERY]:
            run.accept(event)
        old = snapshot_counts(path, run.game_id)
        run.replace_last(events[EVERY - 1])
        game_id = run.game_id
    with sqlite3.connect(path) as db:
        (kind,) = db.execute("SELECT kind FROM entries WHERE game_id=? ORDER BY idx DESC LIMIT 1",
                             (game_id,)).fetchone()
    assert old == [EVERY] and kind == "reroll" and snapshot_counts(path, game_id) == [EVERY]
    run, live = resumed(path, "kansas", game_id)
    with run.journal:
        assert run.live.base == EVERY and run.live[-1].rerolled
        assert run.state == replay(game, {"players": 4}, live) and live == events[:EVERY]


def test_check_and_salvage_still_work_on_a_journal_with_snapshots(tmp_path, every, capsys):
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 2 * EVERY + 5)
    assert main(["journal", "check", "--journal", str(path)]) == 0
    assert "sound" in capsys.readouterr().out
    found = salvage(path)
    assert [g.id for g in found.saved] == [game_id] and not found.lost
    assert len(found.saved[0].rows) == len(events)
    out = tmp_path / "saved.sqlite"
    assert main(["journal", "salvage", str(path), "--out", str(out)]) == 0
    run, live = resumed(out, "kansas", game_id)  # no snapshots came along: resumed by the full replay
    with run.journal:
        assert run.live.base == 0 and live == events and run.state == replay(run.game, {"players": 4}, events)


def test_an_old_journal_keeps_working_and_a_read_only_open_writes_nothing(tmp_path, every):
    path = tmp_path / "j.sqlite"
    game = load_game("kansas")
    events = scripted_events(game, {"players": 4}, EVERY + 5, 9)
    with Journal(path) as journal:  # entries only, as a journal from before snapshots holds them
        game_id = journal.new_game("kansas", {"players": 4})
        from companion.journal import Entry

        for event in events:
            journal.append(game_id, Entry("event", event))
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT name FROM sqlite_master WHERE name='snapshots'").fetchone() is None
    files = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with Journal(path, readonly=True) as reader:
        assert [x.event for x in reader.events(game_id)] == events
        assert reader.snapshot_point(game_id, engine_version(game), types_for(game)) is None
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == files  # not a byte, not a file
    assert main(["games", "--journal", str(path)]) == 0
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == files
    with Journal(path) as journal:  # the box resumes it by the full replay, and snapshots from then on
        run = GameRun.resume(journal, game, journal.game(game_id))
        assert run.live.base == 0 and run.state == replay(game, {"players": 4}, events)
        more = scripted_events(game, {"players": 4}, 2 * EVERY, 9)[len(events):]
        for event in more:
            run.accept(event)
    assert snapshot_counts(path, game_id) == [2 * EVERY]
    run, live = resumed(path, "kansas", game_id)
    with run.journal:
        assert run.live.base == 2 * EVERY and run.state == replay(game, {"players": 4}, live)


def test_the_live_list_reads_the_summarised_events_only_when_asked(tmp_path, every):
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, EVERY + 4)
    run, _ = resumed(path, "kansas", game_id)
    with run.journal:
        assert run.live.base == EVERY and run.live[-1].event == events[-1] and run.live[EVERY - 1].event == events[
            EVERY - 1]
        assert run.live[0].event == events[0] and run.live[3:5] == [x for x in run.journal.events(game_id)[3:5]]
        assert [event_to_dict(x.event) for x in run.live] == [event_to_dict(e) for e in events]


def test_a_full_disk_drops_the_snapshot_keeps_the_entries_and_a_later_one_is_written(tmp_path, every):
    """SQLite's own page limit makes the file "full" as the snapshot's roll is written: the roll waits in memory
    (as every entry does), the snapshot is dropped (a cache, never kept waiting), the game resumes the same."""
    path = tmp_path / "j.sqlite"
    game = load_game("kansas")
    events = scripted_events(game, {"players": 4}, 2 * EVERY + 2, 4)
    journal = Journal(path)
    run = GameRun.new(journal, game, {"players": 4})
    for event in events[:EVERY - 1]:
        run.accept(event)
    journal._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count={pages}")
    run.accept(events[EVERY - 1])  # the 20th: its snapshot does not fit, nor does the roll
    assert journal.degraded and not journal._pending.snapshots
    journal._db.execute("PRAGMA max_page_count=1000000")
    for event in events[EVERY:]:
        run.accept(event)
    assert not journal.degraded
    journal.close()
    assert snapshot_counts(path, run.game_id) == [2 * EVERY]
    again, live = resumed(path, "kansas", run.game_id)
    with again.journal:
        assert live == events and again.live.base == 2 * EVERY and again.state == replay(game, {"players": 4}, events)


def test_undo_in_the_run_that_wrote_the_snapshots_loads_them_without_a_memory(tmp_path, every):
    """States forgotten (as after more than STATE_CACHE undos): each undo starts from the snapshot this run wrote."""
    path = tmp_path / "j.sqlite"
    game = load_game("stormfury")
    events = scripted_events(game, {}, 2 * EVERY + 4, 2)
    with Journal(path) as journal:
        run = GameRun.new(journal, game, {})
        for event in events:
            run.accept(event)
        for n in range(len(events) - 1, EVERY - 2, -1):
            run._states.clear()
            run.undo()
            assert run.state == replay(game, {}, events[:n]) and [x.event for x in run.live] == events[:n], n
        assert snapshot_counts(path, run.game_id) == []  # undone past both


def stored(path: Path, game_id: int) -> list[int]:
    """The live counts of the game's stored snapshots (none before the first made the table)."""
    try:
        return snapshot_counts(path, game_id)
    except sqlite3.OperationalError:
        return []


def test_the_box_stores_a_snapshot_after_the_roll_is_shown_not_inside_it(tmp_path, every):
    """Packing a state costs a roll milliseconds: the session keeps a due snapshot until the loop has shown the
    roll, then stores it in a transaction of its own; an undo before that drops it; a clean stop stores it."""
    import queue

    from companion.inputs import Press
    from companion.session.loop import Loop

    path = tmp_path / "j.sqlite"
    game = load_game("stormfury")
    events = scripted_events(game, {}, EVERY + 1, 2)
    seen_at_show: list[list[int]] = []

    class Watcher:
        def show(self, frame: Any) -> None:
            if session.current is not None:
                seen_at_show.append(stored(path, session.current.game_id))

    with Journal(path) as journal:
        session = Session(journal)
        session.start("stormfury", {})
        run = session.current
        assert run is not None and run.snapshots_later
        for event in events[:EVERY - 1]:
            run.accept(event)
        inbox: queue.Queue[Any] = queue.Queue()
        loop = Loop(session, inbox, [Watcher()], tick=0.01)
        run.accept(events[EVERY - 1])  # the roll that reaches a snapshot point
        assert stored(path, run.game_id) == []  # not in the roll's own transaction
        inbox.put(Press("DOWN"))
        assert loop.step(timeout=1)
        assert seen_at_show[-1] == []  # the frame went out first
        assert stored(path, run.game_id) == []  # and the turn that showed it did not pack the state either
        assert not loop.step(timeout=0)  # the next turn with no input ...
        assert stored(path, run.game_id) == [EVERY]  # ... stores the snapshot
        run.accept(events[EVERY])
        run.undo()
        run.undo()  # back past the stored snapshot: forgotten with the undo
        assert stored(path, run.game_id) == []
        run.accept(events[EVERY - 1])  # due again, kept for later ...
        assert stored(path, run.game_id) == []
        game_id = run.game_id
    assert stored(path, game_id) == [EVERY]  # ... and stored by the clean stop
    resumed_run, replayed = resumed(path, "stormfury", game_id)
    try:
        assert resumed_run.state == replay(game, {}, replayed)
    finally:
        resumed_run.journal.close()


def test_a_game_cut_right_after_a_snapshot_resumes_from_the_one_before_so_an_undo_needs_no_load(tmp_path, every,
                                                                                                  monkeypatch):
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 2 * EVERY)
    assert snapshot_counts(path, game_id) == [EVERY, 2 * EVERY]
    run, live = resumed(path, "kansas", game_id)
    with run.journal:
        assert run.live.base == EVERY and len(run.live) == 2 * EVERY and run.state == replay(run.game, {"players": 4},
                                                                                               live)

        def no_load(*_args: Any, **_kw: Any) -> None:
            raise AssertionError("the undo loaded a snapshot")

        monkeypatch.setattr(run.journal, "snapshot_point", no_load)
        run.undo()
        assert run.state == replay(run.game, {"players": 4}, events[:-1]) and len(run.live) == 2 * EVERY - 1


def test_the_newest_snapshot_still_serves_when_the_one_before_does_not_hold(tmp_path, every, caplog):
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 2 * EVERY)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE snapshots SET checksum='0' WHERE game_id=? AND live=?", (game_id, EVERY))
    caplog.set_level(logging.WARNING)
    run, _ = resumed(path, "kansas", game_id)
    with run.journal:
        assert run.live.base == 2 * EVERY and run.state == replay(run.game, {"players": 4}, events)
    assert any("payload is damaged" in r.getMessage() for r in caplog.records)


def no_second_check(self: Journal) -> sqlite3.Connection:
    raise AssertionError("the history was read again")


def test_one_scan_checks_every_snapshot_so_a_deep_undo_reads_no_row_again(tmp_path, every, monkeypatch, caplog):
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 3 * EVERY + 2)
    caplog.set_level(logging.WARNING)
    run, _ = resumed(path, "kansas", game_id)
    with run.journal:
        assert run.live.base == 3 * EVERY
        monkeypatch.setattr(Journal, "reader", no_second_check)
        for n in range(len(events) - 1, EVERY - 1, -1):  # past the snapshots at 3 and 2 * EVERY, down to EVERY
            run._states.clear()  # nothing in memory: each undo loads a snapshot
            run.undo()
            assert run.state == replay(run.game, {"players": 4}, events[:n]), n
            assert run.live.base == max(b for b in (EVERY, 2 * EVERY, 3 * EVERY) if b <= n)  # each one held
    assert not [r for r in caplog.records if "ignored" in r.getMessage()]


def test_an_older_snapshot_whose_digest_was_changed_is_refused_on_a_deep_undo(tmp_path, every, caplog):
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 3 * EVERY + 2)
    with sqlite3.connect(path) as db:  # its checksum made to match: the check against the history refuses it
        (payload,) = db.execute("SELECT payload FROM snapshots WHERE game_id=? AND live=?",
                                (game_id, 2 * EVERY)).fetchone()
        assert plant(db, game_id, payload, live=2 * EVERY, digest="0" * 64) == 1
    caplog.set_level(logging.WARNING)
    run, _ = resumed(path, "kansas", game_id)
    with run.journal:
        assert run.live.base == 3 * EVERY
        for n in range(len(events) - 1, 2 * EVERY - 2, -1):
            run._states.clear()
            run.undo()
            assert run.state == replay(run.game, {"players": 4}, events[:n]), n
        assert run.live.base == EVERY  # the changed one passed over for the one before it
    said = [r.getMessage() for r in caplog.records if f"snapshot at {2 * EVERY} events ignored" in r.getMessage()]
    assert len(said) == 1 and "the events it summarises have changed" in said[0]


def test_a_tampered_state_is_never_used_although_its_tail_is_replayed_during_the_check(tmp_path, every, caplog):
    """A payload swapped for another game's state (checksum made to match): the replay of the events after it
    runs on it while the history is checked, and its result is thrown away with it."""
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 2 * EVERY + 3)
    with sqlite3.connect(path) as db:
        (data,) = db.execute("SELECT payload FROM snapshots WHERE game_id=? AND live=?",
                             (game_id, EVERY)).fetchone()
        other = bytes(data)  # a state that reads, under the newest snapshot's row
        (newest,) = db.execute("SELECT digest FROM snapshots WHERE game_id=? AND live=?",
                               (game_id, 2 * EVERY)).fetchone()
        assert plant(db, game_id, other, live=2 * EVERY, digest="f" * 64) == 1
        assert newest != "f" * 64
    caplog.set_level(logging.WARNING)
    run, _ = resumed(path, "kansas", game_id)
    with run.journal:
        assert run.live.base == EVERY and run.state == replay(run.game, {"players": 4}, events)
    assert any("the events it summarises have changed" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("primary_key", [True, False])
def test_the_history_digest_follows_idx_whatever_order_the_rows_were_written_in(primary_key):
    """Through the primary key's index, or (a table without it) through the sorted form."""
    from companion.journal.history import HistoryDigest, rows_digest

    db = sqlite3.connect(":memory:")
    key = ", PRIMARY KEY (game_id, idx)" if primary_key else ""
    db.execute(f"CREATE TABLE entries (game_id INTEGER, idx INTEGER, kind TEXT, event TEXT, accepted_at TEXT{key})")
    texts = [f'{{"n": {n}}}' for n in range(40)]
    for n in [*range(39, 19, -1), *range(20)]:  # written out of order, another game's rows between
        db.execute("INSERT INTO entries VALUES (1, ?, 'event', ?, '')", (n, texts[n]))
        db.execute("INSERT INTO entries VALUES (2, ?, 'event', 'other', '')", (n,))
    expected = HistoryDigest("kansas", "{}")
    for text in texts[:30]:
        expected.add(text)
    assert rows_digest(db, HistoryDigest("kansas", "{}"), 1, 30).hexdigest() == expected.hexdigest()
    tail = rows_digest(db, rows_digest(db, HistoryDigest("kansas", "{}"), 1, 10), 1, 30, start=10)
    assert tail.hexdigest() == expected.hexdigest()


def test_the_box_checks_the_history_once_from_its_start_and_undoes_past_every_snapshot(tmp_path, every, monkeypatch):
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 3 * EVERY + 2)
    with Journal(path) as journal:
        session = Session(journal)
        session.start()
        run = session.current
        assert run is not None and run.game_id == game_id and run.live.base == 3 * EVERY
        monkeypatch.setattr(Journal, "reader", no_second_check)
        for n in range(len(events) - 1, EVERY - 1, -1):
            run._states.clear()
            session.undo()
            assert run.state == replay(run.game, {"players": 4}, events[:n]), n


def test_a_history_that_cannot_be_read_for_the_check_means_the_full_replay(tmp_path, every, caplog, monkeypatch):
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, EVERY + 3)

    def refused(self: Journal) -> sqlite3.Connection:
        return sqlite3.connect(tmp_path / "missing" / "j.sqlite")  # cannot be opened

    monkeypatch.setattr(Journal, "reader", refused)
    caplog.set_level(logging.WARNING)
    run, _ = resumed(path, "kansas", game_id)
    with run.journal:
        assert run.live.base == 0 and run.state == replay(run.game, {"players": 4}, events)
    assert any("could not be read" in r.getMessage() for r in caplog.records)


def test_a_start_checks_the_history_once_from_the_moment_it_knows_the_game(tmp_path, every, monkeypatch):
    """The check the start begins on finding the game to resume is the one the resume uses: one reader, one scan
    (the session asks for it again while the engine loads)."""
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 3 * EVERY + 2)
    readers = []
    reader = Journal.reader

    def counted(self: Journal) -> sqlite3.Connection:
        readers.append(1)
        return reader(self)

    monkeypatch.setattr(Journal, "reader", counted)
    with Journal(path) as journal:
        record = journal.last_unfinished()
        assert record is not None and record.id == game_id and len(readers) == 1  # under way already
        assert record.entries == len(events) == journal.games()[0].entries
        session = Session(journal)
        session.start()
        run = session.current
        assert run is not None and run.live.base == 3 * EVERY and len(readers) == 1
        assert run.state == replay(run.game, {"players": 4}, events)


def test_a_start_still_refuses_a_snapshot_over_an_edited_history(tmp_path, every, caplog):
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 2 * EVERY + 5)
    edit_entry(path, game_id, 3, lambda text: text.replace('"source": "seed"', '"source": "typed"'))
    caplog.set_level(logging.WARNING)
    with Journal(path) as journal:
        session = Session(journal)
        session.start()
        run = session.current
        assert run is not None and run.live.base == 0  # the full replay, from the rows as they are now
        live = [x.event for x in journal.events(game_id)]
        assert live[3] != events[3] and run.state == replay(run.game, {"players": 4}, live)
    said = [r.getMessage() for r in caplog.records if "snapshot" in r.getMessage()]
    assert said and all("the events it summarises have changed" in line for line in said)


@pytest.mark.parametrize("primary_key", [True, False])
def test_one_statement_gives_the_digest_at_every_boundary(primary_key):
    """Each boundary's digest equals the rows below it hashed one by one, empty stretches between boundaries
    included, through the index or (a table without it) the sorted form; ``scanning`` is called once."""
    from companion.journal.history import HistoryDigest, rows_digests

    db = sqlite3.connect(":memory:")
    key = ", PRIMARY KEY (game_id, idx)" if primary_key else ""
    db.execute(f"CREATE TABLE entries (game_id INTEGER, idx INTEGER, kind TEXT, event TEXT, accepted_at TEXT{key})")
    texts = [f'{{"n": {n}, "text": "é{n}"}}' for n in range(50)]
    for n in [*range(49, 24, -1), *range(25)]:
        db.execute("INSERT INTO entries VALUES (7, ?, 'event', ?, '')", (n, texts[n]))
        db.execute("INSERT INTO entries VALUES (8, ?, 'event', 'other', '')", (n,))
    bounds = [10, 10, 23, 40, 50]
    calls: list[int] = []
    got = rows_digests(db, HistoryDigest("kansas", "{}"), 7, bounds, lambda: calls.append(1), start=4)
    assert len(calls) == 1
    for bound, digest in zip(bounds, got, strict=True):
        expected = HistoryDigest("kansas", "{}")
        for text in texts[4:bound]:
            expected.add(text)
        assert digest.hexdigest() == expected.hexdigest(), bound
    assert rows_digests(db, HistoryDigest("kansas", "{}"), 7, [], lambda: calls.append(1)) == [] and len(calls) == 2


@pytest.mark.parametrize("column", ["payload", "digest"])
def test_a_snapshot_cell_that_reads_as_text_that_is_not_utf8_means_the_replay(tmp_path, every, caplog, column):
    """One flipped bit in a cell's type byte makes a BLOB a TEXT: SQLite's quick_check passes, reading it raises
    sqlite3.OperationalError. The game resumes by replay, said once in the log, at every start alike."""
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 2 * EVERY + 3)
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE snapshots SET {column}=CAST(x'ff00fe80c3' AS TEXT) WHERE game_id=?", (game_id,))
        assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        with pytest.raises(sqlite3.OperationalError):
            db.execute(f"SELECT {column} FROM snapshots").fetchall()
    caplog.set_level(logging.WARNING)
    for start in range(2):
        live = events[:len(events) - start]  # each start undoes one event
        with Journal(path) as journal:
            session = Session(journal)
            session.start()
            run = session.current
            assert run is not None and run.game_id == game_id and run.live.base == 0
            assert run.state == replay(run.game, {"players": 4}, live)
            session.undo()
            assert len(run.live) == len(live) - 1
    said = [r.getMessage() for r in caplog.records if "do not read" in r.getMessage()]
    assert len(said) == 1 and f"game {game_id}: snapshots ignored" in said[0]


@pytest.mark.parametrize("column", ["live", "entry_idx", "game_id"])
def test_a_flipped_column_of_a_snapshot_row_makes_it_one_that_does_not_hold(tmp_path, every, caplog, column):
    """Every column a load relies on is under the row's checksum: ``live`` one lower would make the newest state
    stand for one event fewer (the rows after it folded on it again), ``game_id`` would move it to another game."""
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 2 * EVERY + 3)
    other, _ = played(path, "kansas", {"players": 4}, 3, seed=4)  # a game the row could be moved to
    with sqlite3.connect(path) as db:
        value = {"live": 2 * EVERY - 1, "entry_idx": 2 * EVERY - 1, "game_id": other}[column]
        assert db.execute(f"UPDATE snapshots SET {column}=? WHERE game_id=? AND live=?",
                          (value, game_id, 2 * EVERY)).rowcount == 1
    caplog.set_level(logging.WARNING)
    for gid, count in ((game_id, len(events)), (other, 3)):
        run, live = resumed(path, "kansas", gid)
        with run.journal:
            assert len(run.live) == count and run.state == replay(run.game, {"players": 4}, live)
            assert run.live.base != 2 * EVERY - 1
    assert any("or a column of its row" in r.getMessage() for r in caplog.records)
