"""After an update that changes a game's rules code, its stored states no longer hold (they are tagged with the
code that made them): the first start replays the game from its first event, and stores the state it reached, so
the second start begins from that stored state instead of replaying again. Through the real session with Kansas."""

from __future__ import annotations

import gc
import sqlite3
from pathlib import Path

import pytest

from benchmarks.bench_journal import scripted_events
from companion.games.base import replay
from companion.games.registry import load_game
from companion.journal import Journal
from companion.journal.snapshots import SNAPSHOT_EVERY
from companion.session import game_run
from companion.session.core import Session
from companion.session.game_run import GameRun

OPTIONS = {"players": 4}


@pytest.fixture(autouse=True)
def unfrozen():
    """A resume from a stored state moves what the process holds out of the collector's reach (``gc.freeze``, see
    :func:`companion.journal.snapshots.unpack`): given back after each test, so no later test meets it."""
    yield
    gc.unfreeze()


def stored(path: Path, game_id: int) -> list[tuple[int, str]]:
    """The game's stored states: how many live events each follows, and its version tag."""
    with sqlite3.connect(path) as db:
        return db.execute("SELECT live, version FROM snapshots WHERE game_id=? ORDER BY live", (game_id,)).fetchall()


@pytest.fixture
def long_game(tmp_path) -> tuple[Path, int, list]:
    path = tmp_path / "j.sqlite"
    game = load_game("kansas")
    events = scripted_events(game, OPTIONS, 2 * SNAPSHOT_EVERY + 7, 3)
    with Journal(path) as journal:
        run = GameRun.new(journal, game, OPTIONS)
        for event in events:
            run.accept(event)
        game_id = run.game_id
    return path, game_id, events


def counted(calls: list[int]):
    """A loader for the session whose engines count the events they apply (a replay is one apply per event)."""
    def loader(key: str, maps: Path | None):
        engine = load_game(key, maps)
        apply = engine.apply

        def counting(state, event):
            calls.append(1)
            return apply(state, event)

        object.__setattr__(engine, "apply", counting)
        return engine
    return loader


def test_a_game_replayed_after_a_rules_change_is_stored_so_the_next_start_reads_it(long_game, monkeypatch):
    path, game_id, events = long_game
    count = len(events)
    before = stored(path, game_id)
    assert [live for live, _ in before] == [SNAPSHOT_EVERY, 2 * SNAPSHOT_EVERY]
    tagged = game_run.engine_version
    monkeypatch.setattr(game_run, "engine_version", lambda game, maps=None: f"{tagged(game, maps)}+rules changed")

    calls: list[int] = []
    with Journal(path) as journal:  # the first start after the update: every event replayed
        session = Session(journal, loader=counted(calls))
        session.start()
        run = session.current
        assert run is not None and run.game_id == game_id and run.live.base == 0
        assert len(calls) == count and run.state == replay(run.game, OPTIONS, events)
        assert stored(path, game_id) == before  # not written while the start is under way ...
        session.after_shown()  # ... but once the table has seen it, as the loop does
        version = run.version
        assert stored(path, game_id)[-1] == (count, version)

    calls.clear()
    with Journal(path) as journal:  # the second start: from the stored state, no event replayed
        session = Session(journal, loader=counted(calls))
        session.start()
        run = session.current
        assert run is not None and run.live.base == count and calls == []
        assert run.state == replay(run.game, OPTIONS, events)
        assert [x.event for x in run.live] == events
        session.undo()  # the game goes on from there as from a replay
        assert run.state == replay(run.game, OPTIONS, events[:-1])
    with Journal(path) as journal:
        again = Session(journal)
        again.start()
        assert again.current is not None and [x.event for x in again.current.live] == events[:-1]
        assert again.current.state == replay(again.current.game, OPTIONS, events[:-1])


def test_a_short_game_replayed_after_a_rules_change_stores_nothing(tmp_path, monkeypatch):
    """A game shorter than the interval never had a stored state: its start still writes none (a read is a read)."""
    path = tmp_path / "j.sqlite"
    game = load_game("kansas")
    events = scripted_events(game, OPTIONS, SNAPSHOT_EVERY - 1, 3)
    with Journal(path) as journal:
        run = GameRun.new(journal, game, OPTIONS)
        for event in events:
            run.accept(event)
        game_id = run.game_id
    tagged = game_run.engine_version
    monkeypatch.setattr(game_run, "engine_version", lambda game, maps=None: f"{tagged(game, maps)}+rules changed")
    with Journal(path) as journal:
        session = Session(journal)
        session.start()
        assert session.current is not None and session.current.game_id == game_id
        session.after_shown()
    with sqlite3.connect(path) as db:
        assert not db.execute("SELECT name FROM sqlite_master WHERE name='snapshots'").fetchall()
