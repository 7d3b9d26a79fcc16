"""The engine cache beside the journal: a start reads the engine its map files made last time, never one made
from other files or other code, and a broken map file is still reported."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from benchmarks.bench_journal import scripted_events
from companion.errors import DataError
from companion.games import kansas
from companion.games.base import HasMapJson, replay
from companion.games.kansas import data as kansas_data
from companion.games.registry import load_game
from companion.journal import Journal
from companion.journal.boards import CHANGED
from companion.journal.engine_cache import MAGIC, SUFFIX, cache_folder, load_engine
from companion.journal.version import engine_version, package_version
from companion.session.core import Session

GAMES = {"kansas": {"players": 4}, "stormfury": {}, "carcassonne": {}, "industry": {}, "allegheny": {}}


@pytest.fixture
def maps(tmp_path, maps_dir) -> Path:
    folder = tmp_path / "maps"
    shutil.copytree(maps_dir, folder)
    return folder


def started(path: Path, maps: Path, game: str = "kansas") -> Session:
    """A session on the journal at ``path`` with ``game`` on the table (a new one, or the one resumed)."""
    with Journal(path) as journal:
        session = Session(journal, maps=maps)
        session.start(game if journal.last_unfinished() is None else None, {"players": 4})
        assert session.current is not None
        return session


def no_board_read(monkeypatch) -> None:
    def refuse(_path: Path) -> None:
        raise AssertionError("the map file was parsed")

    monkeypatch.setattr(kansas_data, "load_board", refuse)


def test_a_second_start_reads_the_engine_from_the_cache(tmp_path, maps, monkeypatch):
    path = tmp_path / "j.sqlite"
    first = started(path, maps)
    fresh = load_game("kansas", maps).board
    assert (cache_folder(path) / f"kansas{SUFFIX}").is_file()
    no_board_read(monkeypatch)
    again = started(path, maps)
    assert again.current is not None and first.current is not None
    assert again.current.game.board == first.current.game.board == fresh
    assert again.current.state == first.current.state


@pytest.mark.parametrize("key", list(GAMES))
def test_every_game_is_kept_and_plays_the_same(tmp_path, maps, key):
    folder = tmp_path / "cache"
    made = load_engine(key, maps, folder, load_game)
    back = load_engine(key, maps, folder, lambda *_: pytest.fail("loaded again"))
    assert type(back) is type(made) and back is not made and back.key == key
    assert package_version(key, maps) == engine_version(made, maps)  # the snapshots' tag, known before loading
    events = scripted_events(made, GAMES[key], 80, seed=2)
    assert replay(back, GAMES[key], events) == replay(made, GAMES[key], events)
    if isinstance(made, HasMapJson):
        assert back.map_json() == made.map_json()  # type: ignore[attr-defined]
    assert package_version(key, maps) == engine_version(made, maps)  # the snapshots' tag, known before loading


def test_a_changed_map_file_is_read_again(tmp_path, maps):
    path = tmp_path / "j.sqlite"
    assert started(path, maps).current.game.board.markers_per_tornado == 5  # type: ignore[union-attr]
    board = maps / "kansas.toml"
    board.write_text(board.read_text().replace("markers_per_tornado = 5", "markers_per_tornado = 6"))
    with Journal(path) as journal:  # the open game plays on the board it began with; a new one reads the new file
        again = Session(journal, maps=maps)
        again.start()
        assert again.current is not None and again.current.game.board.markers_per_tornado == 5
        assert again.message == CHANGED
        again.new_game("kansas", {"players": 4})
        assert again.current is not None and again.current.game.board.markers_per_tornado == 6
    assert load_engine("kansas", maps, cache_folder(path),
                       lambda *_: pytest.fail("not kept")).board.markers_per_tornado == 6


def test_a_broken_map_file_is_reported_although_an_engine_is_kept(tmp_path, maps):
    folder = tmp_path / "cache"
    load_engine("kansas", maps, folder, load_game)
    board = maps / "kansas.toml"
    board.write_text(board.read_text().replace("markers_per_tornado = 5", "markers_per_tornado = 40"))
    with pytest.raises(DataError, match=r"kansas.toml: rules.markers_per_tornado: expected 1..20, got 40"):
        load_engine("kansas", maps, folder, load_game)


def test_other_maps_folders_do_not_share_an_entry(tmp_path, maps):
    other = tmp_path / "other"
    shutil.copytree(maps, other)
    folder = tmp_path / "cache"
    load_engine("kansas", maps, folder, load_game)
    loaded = []
    load_engine("kansas", other, folder, lambda key, at: loaded.append(at) or load_game(key, at))
    assert loaded == [other]


def spoil(entry: Path, payload: bytes | None = None, flip: bool = False) -> None:
    data = entry.read_bytes()
    head, _, body = data.partition(b"\n\n")
    if payload is not None:  # a payload its checksum matches
        magic, tag, _ = head.split(b"\n")
        entry.write_bytes(b"\n".join([magic, tag, hashlib.sha256(payload).hexdigest().encode()]) + b"\n\n" + payload)
    if flip:
        spoilt = bytearray(body)
        spoilt[len(spoilt) // 2] ^= 0x55
        entry.write_bytes(head + b"\n\n" + bytes(spoilt))


@pytest.mark.parametrize("damage", ["flipped", "truncated", "not an engine", "not data", "other magic"])
def test_a_damaged_entry_means_a_load_from_the_files_and_a_new_entry(tmp_path, maps, damage):
    folder = tmp_path / "cache"
    load_engine("kansas", maps, folder, load_game)
    entry = folder / f"kansas{SUFFIX}"
    if damage == "flipped":
        spoil(entry, flip=True)
    elif damage == "truncated":
        entry.write_bytes(entry.read_bytes()[:100])
    elif damage == "not an engine":
        spoil(entry, payload=b'["D","key","kansas"]')
    elif damage == "not data":
        spoil(entry, payload=b"not a value the codec wrote")
    else:
        entry.write_bytes(entry.read_bytes().replace(MAGIC, b"something else\n", 1))
    loaded = []
    engine = load_engine("kansas", maps, folder, lambda key, at: loaded.append(key) or load_game(key, at))
    assert loaded == ["kansas"] and engine.board == load_game("kansas", maps).board
    assert load_engine("kansas", maps, folder, lambda *_: pytest.fail("not rewritten")).key == "kansas"


def test_a_folder_that_cannot_be_written_only_costs_the_load(tmp_path, maps):
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the folder would be")
    engine = load_engine("kansas", maps, blocked, load_game)
    assert engine.key == "kansas" and blocked.read_text() == "a file where the folder would be"


def test_other_loaders_and_read_only_journals_are_not_cached(tmp_path, maps):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        Session(journal, maps=maps, loader=lambda key, at: kansas.load(at)).start("kansas", {"players": 4})
    assert not cache_folder(path).exists()
    with Journal(path, readonly=True) as journal:
        Session(journal, maps=maps).start()
    assert not cache_folder(path).exists()
