"""The journal's mend rows: a past live event replaced in place, the rows append-only, and everything that folds
the history (live events, snapshots, export and import, the commands that check a file) folding it alike."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from benchmarks.bench_journal import scripted_events
from companion.cli import main
from companion.dice import Choice, DiceRolled, Die
from companion.errors import CompanionError, DataError
from companion.games.base import replay
from companion.games.registry import load_game
from companion.journal import Entry, Journal, LiveEvent, live_events, parse_export
from companion.journal.entries import fold_entries
from companion.journal.history import LiveEvents, fold_from
from companion.session import game_run
from companion.session.game_run import GameRun

EVERY = 10
"""Snapshots this often, so a short game has several."""


@pytest.fixture
def every(monkeypatch) -> int:
    monkeypatch.setattr(game_run, "SNAPSHOT_EVERY", EVERY)
    return EVERY


def roll(*values: int) -> DiceRolled:
    return DiceRolled(tuple(Die("d6", v) for v in values), "typed")


def test_a_mend_row_reads_back_as_it_was_written():
    entry = Entry("mend", Choice("rotate", {"quarters": 1}), index=4)
    data = entry.to_dict()
    assert data == {"type": "mend", "index": 4, "event": {"type": "choice", "action": "rotate",
                                                          "args": {"quarters": 1}}}
    assert Entry.from_dict(json.loads(json.dumps(data))) == entry


@pytest.mark.parametrize("data, why", [
    ({"type": "mend", "event": {"type": "dice", "dice": [["d6", 2]]}}, "index"),
    ({"type": "mend", "index": -1, "event": {"type": "dice", "dice": [["d6", 2]]}}, "index"),
    ({"type": "mend", "index": True, "event": {"type": "dice", "dice": [["d6", 2]]}}, "index"),
    ({"type": "mend", "index": 0}, "'event' object"),
])
def test_a_mend_row_that_is_not_one_is_refused_naming_what(data, why):
    with pytest.raises(CompanionError, match=why):
        Entry.from_dict(data)


def test_live_events_replace_the_mended_event_and_keep_its_reroll_mark():
    entries = [Entry("event", roll(1)), Entry("reroll", roll(2)), Entry("event", roll(3)), Entry("event", roll(4)),
               Entry("mend", roll(6), index=0), Entry("mend", roll(5), index=2)]
    assert live_events(entries) == [LiveEvent(roll(6), rerolled=True), LiveEvent(roll(3)), LiveEvent(roll(5))]


def test_a_mend_past_the_live_events_changes_nothing_and_undo_then_mend_folds_in_order():
    entries = [Entry("event", roll(1)), Entry("event", roll(2)), Entry("undo"), Entry("mend", roll(6), index=1)]
    assert live_events(entries) == [LiveEvent(roll(1))]
    entries += [Entry("mend", roll(4), index=0), Entry("event", roll(3)), Entry("undo")]
    assert live_events(entries) == [LiveEvent(roll(4))]


def test_fold_from_refuses_a_snapshot_whose_events_a_mend_changed():
    after = [Entry("event", roll(1)), Entry("event", roll(2))]
    assert fold_from(5, [*after, Entry("mend", roll(3), index=4)]) is None  # before the snapshot: not its state
    assert fold_from(5, [*after, Entry("mend", roll(3), index=6)]) == [LiveEvent(roll(1)), LiveEvent(roll(3))]
    assert fold_from(5, [*after, Entry("mend", roll(3), index=5)]) == [LiveEvent(roll(3)), LiveEvent(roll(2))]


def test_the_chain_of_a_mended_list_is_the_chain_of_the_list_played_so():
    items = [LiveEvent(roll(v)) for v in (1, 2, 3, 4, 5)]
    right = [*items[:2], LiveEvent(roll(6)), *items[3:]]
    assert LiveEvents(items).replaced(2, LiveEvent(roll(6))).chain == LiveEvents(right).chain
    based = LiveEvents(items[3:], base=3, base_last=items[2], base_chain=LiveEvents(items[:3]).chain)
    assert based.replaced(4, LiveEvent(roll(6))).chain == LiveEvents([*items[:4], LiveEvent(roll(6))]).chain
    with pytest.raises(IndexError):
        based.replaced(5, LiveEvent(roll(6)))


def test_fold_entries_gives_the_state_of_the_live_events():
    game = load_game("kansas", None)
    events = scripted_events(game, {"players": 4}, 12, seed=5)
    rolls = [i for i, e in enumerate(events) if isinstance(e, DiceRolled)]
    at = rolls[2]
    other = DiceRolled(tuple(Die(d.kind, d.value % 6 + 1 if d.kind == "d6" else d.value % 8 + 1)
                             for d in events[at].dice), "typed")
    entries = [Entry("event", e) for e in events] + [Entry("mend", other, index=at), Entry("undo")]
    live = [x.event for x in live_events(entries)]
    assert fold_entries(game.new_game({"players": 4}), entries, game.apply) == replay(game, {"players": 4}, live)


def kansas_run(journal: Journal, count: int) -> tuple[GameRun, list[Any]]:
    game = load_game("kansas", None)
    events = scripted_events(game, {"players": 4}, count, seed=3)
    run = GameRun.new(journal, game, {"players": 4})
    for event in events:
        run.accept(event)
    return run, events


def mended_roll(run: GameRun, start: int) -> tuple[int, DiceRolled]:
    """A roll from ``start`` on whose dice changed still let every later event fit: the index and the new dice."""
    for index in range(start, len(run.live)):
        old = run.live[index].event
        if not isinstance(old, DiceRolled):
            continue
        for bump in range(1, 8):
            dice = DiceRolled(tuple(Die(d.kind, (d.value - 1 + bump) % (6 if d.kind == "d6" else 8) + 1)
                                    for d in old.dice), "typed")
            try:
                replay(run.game, run.options, [*[x.event for x in run.live][:index], dice,
                                               *[x.event for x in run.live][index + 1:]])
            except CompanionError:
                continue
            return index, dice
    raise AssertionError("no roll can be mended here")


def snapshot_rows(path: Path, game_id: int) -> list[int]:
    with sqlite3.connect(path) as db:
        return [r[0] for r in db.execute("SELECT live FROM snapshots WHERE game_id=? ORDER BY live", (game_id,))]


def test_a_mend_forgets_the_snapshots_it_changed_and_a_resume_is_the_mended_game(tmp_path, every):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        run, _ = kansas_run(journal, 3 * EVERY + 4)
        assert snapshot_rows(path, run.game_id) == [EVERY, 2 * EVERY, 3 * EVERY]
        index, dice = mended_roll(run, EVERY + 2)
        run.mend(index, dice)
        assert snapshot_rows(path, run.game_id) == [EVERY]  # the states after the mended roll are gone
        live = [x.event for x in run.live]
        assert live[index] == dice
        assert run.state == replay(run.game, run.options, live)
    with Journal(path) as journal:
        again = GameRun.resume(journal, load_game("kansas", None), journal.game(run.game_id))
        assert [x.event for x in again.live] == live and again.state == run.state
        assert again.live.chain == LiveEvents([LiveEvent(e) for e in live]).chain


def test_a_stored_state_a_mend_changed_is_never_used_even_if_it_was_left_behind(tmp_path, every):
    """The mend row alone (no snapshot forgotten, as a journal edited by hand or a box stopped between the two
    would leave it) is enough: a snapshot of a prefix the mend changed does not hold."""
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        run, events = kansas_run(journal, 3 * EVERY + 4)
        index, dice = mended_roll(run, 2)
        journal.append(run.game_id, Entry("mend", dice, index=index))  # no forget_after: the rows stay
        assert snapshot_rows(path, run.game_id) == [EVERY, 2 * EVERY, 3 * EVERY]
    live = [*events[:index], dice, *events[index + 1:]]
    with Journal(path) as journal:
        point = journal.snapshot_point(run.game_id, run.version, run.types)
        assert point is None or point.live <= index
        again = GameRun.resume(journal, load_game("kansas", None), journal.game(run.game_id))
        assert [x.event for x in again.live] == live
        assert again.state == replay(again.game, again.options, live)


def test_undo_after_a_mend_and_a_mend_after_an_undo(tmp_path, every):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        run, _ = kansas_run(journal, 2 * EVERY + 3)
        index, dice = mended_roll(run, 3)
        run.mend(index, dice)
        mended = [x.event for x in run.live]
        run.undo()  # takes back the last live event, of the mended game
        assert [x.event for x in run.live] == mended[:-1]
        assert run.state == replay(run.game, run.options, mended[:-1])
        run.undo()
        index, dice = mended_roll(run, 1)  # a mend after the undo: of what is live now
        run.mend(index, dice)
        live = [x.event for x in run.live]
        assert live == [*mended[:index], dice, *mended[index + 1:-2]]
        assert run.state == replay(run.game, run.options, live)
        with pytest.raises(CompanionError, match="no such entry"):
            run.mend(len(run.live), dice)  # an undone entry is not there to mend
    with Journal(path) as journal:
        again = GameRun.resume(journal, load_game("kansas", None), journal.game(run.game_id))
        assert [x.event for x in again.live] == live and again.state == run.state


def test_export_and_import_carry_a_mend(tmp_path, every):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        run, _ = kansas_run(journal, EVERY + 5)
        index, dice = mended_roll(run, 2)
        run.mend(index, dice)
        lines = list(journal.export_lines(run.game_id))
        assert any('"type": "mend"' in line for line in lines)
        state = run.state
    export = tmp_path / "game.jsonl"
    export.write_text("\n".join(lines) + "\n")
    other = tmp_path / "other.sqlite"
    assert main(["import", str(export), "--journal", str(other)]) == 0
    with Journal(other) as journal:
        [record] = journal.games()
        again = GameRun.resume(journal, load_game("kansas", None), record)
        assert again.state == state


def test_import_names_the_line_of_a_mend_that_breaks_a_later_entry(tmp_path, capsys):
    with Journal(tmp_path / "j.sqlite") as journal:
        run, events = kansas_run(journal, 6)
        lines = list(journal.export_lines(run.game_id))
    first = next(i for i, e in enumerate(events) if isinstance(e, DiceRolled))
    wrong = DiceRolled(tuple(Die("d6", 1) for _ in range(len(events[first].dice) + 1)), "typed")  # wrong kinds
    lines.append(json.dumps(Entry("mend", wrong, index=first).to_dict()))
    export = tmp_path / "game.jsonl"
    export.write_text("\n".join(lines) + "\n")
    _header, entries = parse_export(lines)
    assert entries[-1].kind == "mend"
    assert main(["import", str(export), "--journal", str(tmp_path / "other.sqlite")]) == 2
    err = capsys.readouterr().err
    assert f"line {len(lines)}:" in err and "Traceback" not in err
    assert not (tmp_path / "other.sqlite").exists() or not Journal(tmp_path / "other.sqlite", readonly=True).games()


def test_an_old_journal_without_mends_resumes_as_before(tmp_path):
    """A journal written as boxes always wrote them (events, undos, re-rolls): its rows, and its game, unchanged."""
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        run, events = kansas_run(journal, 9)
        run.undo()
        state, live = run.state, [x.event for x in run.live]
        with sqlite3.connect(path) as db:
            kinds = {r[0] for r in db.execute("SELECT kind FROM entries")}
        assert kinds == {"event", "undo"}
    with Journal(path) as journal:
        again = GameRun.resume(journal, load_game("kansas", None), journal.game(run.game_id))
        assert again.state == state and [x.event for x in again.live] == live == events[:-1]


def test_a_mended_entry_never_changes_what_is_written_before_it(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        run, _ = kansas_run(journal, 8)
        with sqlite3.connect(path) as db:
            before = db.execute("SELECT idx, kind, event FROM entries ORDER BY idx").fetchall()
        index, dice = mended_roll(run, 1)
        run.mend(index, dice)
        with sqlite3.connect(path) as db:
            after = db.execute("SELECT idx, kind, event FROM entries ORDER BY idx").fetchall()
    assert after[:-1] == before and after[-1][1] == "mend"  # append-only
    assert json.loads(after[-1][2])["index"] == index


def test_salvage_reads_mend_rows(tmp_path):
    from companion.journal.salvage import salvage

    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        run, _ = kansas_run(journal, 8)
        index, dice = mended_roll(run, 1)
        run.mend(index, dice)
    found = salvage(path)
    [game] = found.saved
    assert [row[1] for row in game.rows][-1] == "mend"


def test_data_error_names_the_entry_of_a_bad_mend_row(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        run, _ = kansas_run(journal, 4)
        journal.append(run.game_id, Entry("mend", roll(2), index=0))
    with sqlite3.connect(path) as db:
        db.execute("UPDATE entries SET event=? WHERE kind='mend'", (json.dumps({"type": "mend", "index": "x"}),))
    with Journal(path, readonly=True) as journal, pytest.raises(DataError, match="entry 4: a mend entry needs"):
        journal.entries(run.game_id)


def test_a_mend_behind_the_snapshot_a_resume_started_from(tmp_path, every):
    """Resumed from a stored state, the run holds only the events after it: a mend of one before it reads the
    others from the journal once, and the live list, its chain and the state are those of the mended game."""
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        run, events = kansas_run(journal, 3 * EVERY + 4)
    with Journal(path) as journal:
        again = GameRun.resume(journal, load_game("kansas", None), journal.game(run.game_id))
        assert again.live.base >= EVERY
        index, dice = mended_roll(again, 1)
        assert index < again.live.base
        again.mend(index, dice)
        live = [*events[:index], dice, *events[index + 1:]]
        assert [x.event for x in again.live] == live
        assert again.live.chain == LiveEvents([LiveEvent(e) for e in live]).chain
        assert again.state == replay(again.game, again.options, live)
        again.undo()
        assert again.state == replay(again.game, again.options, live[:-1])
    with Journal(path) as journal:
        third = GameRun.resume(journal, load_game("kansas", None), journal.game(run.game_id))
        assert [x.event for x in third.live] == live[:-1] and third.state == again.state
