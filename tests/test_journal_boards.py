"""A game keeps the board it began with: a group's board edited after a game (two path-key entries swapped)
changes neither that finished game's resume nor its export; a resume says in one line that the board changed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from benchmarks.bench_journal import scripted_events
from companion.cli import main
from companion.errors import RuleError
from companion.games.base import replay
from companion.games.registry import load_game
from companion.journal import Entry, Journal
from companion.journal.boards import CHANGED
from companion.paths import group_maps_dir
from companion.session.core import Session
from companion.session.game_run import GameRun


def swap_path_key(board: Path) -> None:
    """The group's board with the path key's entries 4 (N) and 9 (SE) swapped, as a `board edit` can leave it."""
    text = board.read_text()
    assert '4 = "N"\n' in text and '9 = "SE"\n' in text
    board.write_text(text.replace('4 = "N"\n', '4 = "@"\n').replace('9 = "SE"\n', '9 = "N"\n')
                     .replace('4 = "@"\n', '4 = "SE"\n'))


def outcome(game: Any, state: Any) -> tuple[Any, ...]:
    return game.status(state), tuple(game.recap(state)), game.prompt(state).done


@pytest.fixture
def finished_game(tmp_path, maps_dir) -> tuple[Path, int, list[Any], tuple[Any, ...]]:
    """A whole Kansas game played on the group's own board (a copy of the shipped one), finished."""
    own = group_maps_dir()
    own.mkdir(parents=True)
    shutil.copy(maps_dir / "kansas.toml", own / "kansas.toml")
    path = tmp_path / "j.sqlite"
    game = load_game("kansas")
    events = scripted_events(game, {"players": 4}, 5000, seed=7)
    with Journal(path) as journal:
        run = GameRun.new(journal, game, {"players": 4})
        for event in events:
            run.accept(event)
        assert run.finished
        return path, run.game_id, events, outcome(game, run.state)


def test_a_finished_game_resumes_on_the_board_it_was_played_on(finished_game, caplog):
    path, game_id, events, before = finished_game
    swap_path_key(group_maps_dir() / "kansas.toml")
    edited = load_game("kansas")
    with pytest.raises(RuleError):  # on the edited board this game's past is another game (here: one refused)
        replay(edited, {"players": 4}, events)
    with Journal(path) as journal:
        session = Session(journal)
        session.resume(journal.game(game_id))
        run = session.current
        assert run is not None and outcome(run.game, run.state) == before
        assert session.message == CHANGED and CHANGED in caplog.text
        assert run.game.board != edited.board  # type: ignore[attr-defined]


def test_a_finished_game_exports_and_imports_with_its_board(finished_game, tmp_path, capsys):
    path, game_id, events, before = finished_game
    assert main(["export", str(game_id), "--journal", str(path)]) == 0
    export = tmp_path / "game.jsonl"
    export.write_text(capsys.readouterr().out)
    header = json.loads(export.read_text().splitlines()[0])
    assert header["files"]["kansas.toml"] == (group_maps_dir() / "kansas.toml").read_text()
    swap_path_key(group_maps_dir() / "kansas.toml")  # the board here changes before the game comes back
    other = tmp_path / "other.sqlite"
    assert main(["import", str(export), "--journal", str(other)]) == 0
    with Journal(other) as journal:
        (record,) = journal.games()
        assert record.finished
        session = Session(journal)
        session.resume(record)
        run = session.current
        assert run is not None and outcome(run.game, run.state) == before
        assert [x.event for x in run.live] == events


def test_a_game_without_stored_files_replays_on_the_files_in_force(tmp_path):
    """A journal's games from before files were kept: nothing to compare, the files in force, no notice."""
    path = tmp_path / "j.sqlite"
    game = load_game("kansas")
    events = scripted_events(game, {"players": 4}, 40, seed=3)
    with Journal(path) as journal:
        game_id = journal.new_game("kansas", {"players": 4})
        for event in events:  # the journal alone, as an older box wrote it
            journal.append(game_id, Entry("event", event))
    with Journal(path) as journal:
        assert journal.game_files(game_id) is None
        session = Session(journal)
        session.resume(journal.game(game_id))
        run = session.current
        assert run is not None and run.state == replay(game, {"players": 4}, events) and session.message == ""


def test_a_salvaged_game_keeps_its_board_and_replays_on_it(finished_game):
    """A damaged journal set aside at start: the game's data files come back with its rows (each checked against
    its digest), so the replay check and the resume use the board it was played on, not the edited one."""
    from companion.journal.replays import replay_check

    path, game_id, _, before = finished_game
    with Journal(path, readonly=True) as journal:
        files = journal.game_files(game_id)
    assert files is not None and set(files) == {"kansas.toml"}
    swap_path_key(group_maps_dir() / "kansas.toml")
    data = path.read_bytes()
    path.write_bytes(b"\x00" * 100 + data[100:])  # the header zeroed: SQLite refuses the whole file
    with Journal(path, replays=replay_check()) as journal:
        assert "1 game saved, 0 not" in journal.notice
        assert journal.game_files(game_id) == files
        session = Session(journal)
        session.resume(journal.game(game_id))
        run = session.current
        assert run is not None and outcome(run.game, run.state) == before and session.message == CHANGED
