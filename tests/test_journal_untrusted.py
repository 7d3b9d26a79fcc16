"""Nothing read from a journal runs: a snapshot or an engine cache entry carrying a pickle that would run a command
(its checksum and version tag made to match, as anyone holding a genuine journal can) runs nothing, and the game
resumes by replaying its events, in the right state."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import pickle
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.games.base import replay
from companion.games.registry import load_game
from companion.journal import Journal
from companion.journal.codec import Types, Unencodable, dumps, loads, types_for
from companion.journal.engine_cache import MAGIC, SUFFIX, cache_folder
from companion.session import game_run
from companion.session.core import Session
from tests.test_journal_snapshots import plant, played

EVERY = 10


class _RunsACommand:
    """The classic payload: unpickling it calls ``os.system`` with a command that leaves a marker file."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.system, (f"touch {self.marker}",))


@pytest.fixture(autouse=True)
def every(monkeypatch) -> None:
    monkeypatch.setattr(game_run, "SNAPSHOT_EVERY", EVERY)


def evil(marker: Path) -> bytes:
    payload = pickle.dumps(_RunsACommand(marker))
    assert b"system" in payload  # what it would call
    return payload


def plant_snapshot(path: Path, game_id: int, payload: bytes) -> None:
    """Every stored snapshot of the game replaced by ``payload``, its checksum made to match."""
    with sqlite3.connect(path) as db:
        assert plant(db, game_id, payload) >= 2


def plant_engine(entry: Path, payload: bytes) -> None:
    """The engine cache entry's payload replaced, its magic, tag and checksum kept matching."""
    head, _, _ = entry.read_bytes().partition(b"\n\n")
    magic, tag, _ = head.split(b"\n")
    assert magic + b"\n" == MAGIC
    entry.write_bytes(b"\n".join([magic, tag, hashlib.sha256(payload).hexdigest().encode()]) + b"\n\n" + payload)


def test_a_pickle_in_a_snapshot_runs_nothing_and_the_game_is_replayed(tmp_path, caplog):
    path, marker = tmp_path / "j.sqlite", tmp_path / "ran"
    game_id, events = played(path, "kansas", {"players": 4}, 3 * EVERY + 4)
    plant_snapshot(path, game_id, evil(marker))
    caplog.set_level(logging.WARNING)
    with Journal(path) as journal:
        session = Session(journal)
        session.start()
        run = session.current
        assert run is not None and run.game_id == game_id
        assert run.live.base == 0  # replayed from the first event
        assert run.state == replay(run.game, {"players": 4}, events)
    assert not marker.exists()
    assert any("payload does not read" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("body", [
    '["A","os:system","x",1]',
    '["A","subprocess:Popen"]',
    '["A","builtins:object"]',
    '["N","companion.games.kansas.engine:os"]',
    '["A","companion.games.kansas.state:__builtins__"]',
    '["A","companion.games.kansas.state:Tornado","__class__",["A","companion.games.kansas.state:Move"]]',
    '["E","companion.games.kansas.state:KansasState",1]',
])
def test_a_payload_naming_anything_but_the_games_own_classes_is_refused(tmp_path, body):
    """The codec's own format, naming a callable, a class from elsewhere, or an attribute no state has."""
    path = tmp_path / "j.sqlite"
    game_id, events = played(path, "kansas", {"players": 4}, 2 * EVERY + 3)
    plant_snapshot(path, game_id, f'["storm-companion state 1",null,"",{body}]'.encode())
    with Journal(path) as journal:
        run = game_run.GameRun.resume(journal, load_game("kansas"), journal.game(game_id))
        assert run.live.base == 0 and run.state == replay(run.game, {"players": 4}, events)


def test_a_pickle_in_the_engine_cache_runs_nothing_and_the_engine_is_loaded_from_its_files(tmp_path):
    path, marker = tmp_path / "j.sqlite", tmp_path / "ran"
    game_id, events = played(path, "kansas", {"players": 4}, 2 * EVERY + 3)
    with Journal(path) as journal:
        Session(journal).start()  # the first start keeps the engine beside the journal
    folder = cache_folder(path)
    entry = folder / f"kansas{SUFFIX}"
    plant_engine(entry, evil(marker))
    (folder / "kansas.pickle").write_bytes(evil(marker))  # where an older box kept it: never read
    with Journal(path) as journal:
        session = Session(journal)
        session.start()
        run = session.current
        assert run is not None and run.game_id == game_id
        assert run.game.board == load_game("kansas").board  # type: ignore[attr-defined]
        assert run.state == replay(run.game, {"players": 4}, events)
    assert not marker.exists()
    assert json.loads(entry.read_bytes().partition(b"\n\n")[2])[0] == "A"  # rewritten as data


def test_the_codec_writes_only_the_games_own_classes():
    game = load_game("kansas")
    types = types_for(game)
    state = game.new_game({"players": 4})
    assert loads(dumps(state, types), types) == state
    with pytest.raises(Unencodable):
        dumps(os.system, types)
    with pytest.raises(Unencodable):
        dumps(state, Types(["companion.games.stormfury"]))  # another game's classes only
    with pytest.raises(ValueError):
        loads(dumps(state, types), Types(["companion.games.stormfury"]))
