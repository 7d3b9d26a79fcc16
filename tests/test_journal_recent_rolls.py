"""The tower link's priming reads the newest rows only and finds what reading every entry found: the same roll
references in the same order, games most recently played first, rows waiting in memory first, a game whose rows
do not read passed over."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from companion.dice import DiceRolled, Die
from companion.games.registry import load_game
from companion.inputs import RollRef
from companion.journal import Journal
from companion.journal.recent_rolls import journaled_rolls
from companion.journal.recent_rolls import rolls_from_every_entry as every_entry_read
from companion.session.choices import options_for
from companion.session.game_run import GameRun


def rolled(journal: Journal, key: str, options: dict, count: int, boot: str, seed: int) -> int:
    """A game of ``count`` events, the dice ones thrown in the tower (a roll reference each), the rest decided."""
    game = load_game(key)
    run = GameRun.new(journal, game, options)
    rng = random.Random(seed)
    seq = 0
    while len(run.live) < count and not run.prompt().done:
        prompt = run.prompt()
        if prompt.dice:
            dice = tuple(Die(k, rng.randint(1, 6 if k == "d6" else 8)) for k in prompt.dice)
            seq += 1
            ref = RollRef("tower", boot, seq, tuple((d.kind, d.value) for d in dice))
            run.accept(DiceRolled(dice, "tower"), (ref,))
        else:
            run.accept(rng.choice(options_for(game, run.state, prompt)).event)
    return run.game_id


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        rolled(j, "kansas", {"players": 4}, 80, "boot-a", 1)
        rolled(j, "kansas", {"players": 5}, 60, "boot-b", 2)
        yield j


@pytest.mark.parametrize(("limit", "scan"), [(256, 4096), (10, 4096), (256, 30), (256, 100), (1, 5)])
def test_the_newest_rows_give_what_reading_every_entry_gave(journal, limit, scan) -> None:
    got = journaled_rolls(journal, limit, scan)
    assert got == every_entry_read(journal, limit, scan)
    assert got and all(r.source == "tower" for r in got)
    assert got[0].boot == "boot-b" and got[0].seq == max(r.seq for r in got if r.boot == "boot-b")  # newest first


def test_a_game_whose_rows_with_rolls_do_not_read_is_passed_over(journal, tmp_path) -> None:
    newest = journal.games()[0].id
    with sqlite3.connect(tmp_path / "j.sqlite") as db:
        (idx,) = db.execute("SELECT MAX(idx) FROM entries WHERE game_id=? AND instr(event, '\"rolls\"')",
                            (newest,)).fetchone()
        db.execute("UPDATE entries SET event='{\"rolls\": [' WHERE game_id=? AND idx=?", (newest, idx))
    got = journaled_rolls(journal)
    assert got and {r.boot for r in got} == {"boot-a"}
    assert got == every_entry_read(journal)


def test_a_damaged_row_without_rolls_costs_nothing_of_the_others(journal, tmp_path) -> None:
    newest = journal.games()[0].id
    before = journaled_rolls(journal)
    with sqlite3.connect(tmp_path / "j.sqlite") as db:
        (idx,) = db.execute("SELECT MAX(idx) FROM entries WHERE game_id=? AND NOT instr(event, '\"rolls\"')",
                            (newest,)).fetchone()
        db.execute("UPDATE entries SET event='{not json' WHERE game_id=? AND idx=?", (newest, idx))
    assert journaled_rolls(journal) == before  # that row held none


def test_rows_waiting_in_memory_come_first(journal, monkeypatch) -> None:
    record = journal.games()[0]
    ref = RollRef("tower", "boot-c", 1, (("d8", 3),))
    waiting = (record.id, 10_000, "event", '{"type": "x", "rolls": [' + json.dumps(ref.to_dict()) +
               ']}', "now")
    monkeypatch.setattr(journal._pending, "rows", [waiting])
    assert journaled_rolls(journal, 3)[0] == ref
