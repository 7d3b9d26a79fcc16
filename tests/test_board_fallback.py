"""The group's own board that does not load (damaged, not UTF-8, another game's board under this name) never
keeps a game from the table: the box plays on the shipped board, says so in one line (OLED footer, the map's
status strip, the log with the loader's reason), and the board editor refuses it in one line, exit 2."""

from __future__ import annotations

import logging
import shutil

import pytest

from companion.cli import main
from companion.dice import DiceRolled
from companion.errors import DataError
from companion.games import load_game
from companion.games.registry import board_note
from companion.journal import Journal
from companion.journal.boards import CHANGED
from companion.session import Roll, Session

MAPS = __import__("pathlib").Path(__file__).resolve().parent.parent / "maps"
NOTE = "Kansas Tornadoes: own board does not load, shipped board used"


@pytest.fixture
def own_maps(tmp_path, monkeypatch):
    """The configuration directory's maps/ folder (where `companion board edit` saves), empty."""
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "etc"))
    monkeypatch.delenv("COMPANION_MAPS", raising=False)
    folder = tmp_path / "etc" / "maps"
    folder.mkdir(parents=True)
    return folder


BROKEN = {
    "not UTF-8": lambda folder: (folder / "kansas.toml").write_bytes(
        (MAPS / "kansas.toml").read_bytes().replace(b"Emporia", b"Empor\xeda")),
    "a Stormfury board": lambda folder: shutil.copy(MAPS / "stormfury.toml", folder / "kansas.toml"),
    "cut short": lambda folder: (folder / "kansas.toml").write_bytes((MAPS / "kansas.toml").read_bytes()[:1500]),
    "empty": lambda folder: (folder / "kansas.toml").write_bytes(b""),
}


@pytest.mark.parametrize("how", BROKEN)
def test_a_broken_board_of_the_groups_own_falls_back_to_the_shipped_one(own_maps, how, caplog):
    BROKEN[how](own_maps)
    shipped = load_game("kansas", MAPS)
    with caplog.at_level(logging.WARNING, logger="companion.games.registry"):
        game = load_game("kansas")
    assert game.board == shipped.board and board_note(game) == NOTE
    assert board_note(shipped) == ""
    [record] = caplog.records
    assert record.getMessage().startswith(f"{own_maps / 'kansas.toml'}: ")
    assert "playing Kansas Tornadoes on the shipped board" in record.getMessage()
    assert "\n" not in record.getMessage()


def test_a_sound_board_of_the_groups_own_is_played_without_a_note(own_maps):
    (own_maps / "kansas.toml").write_text((MAPS / "kansas.toml").read_text().replace("Emporia", "Emporium"))
    game = load_game("kansas")
    assert board_note(game) == "" and "Emporium" in {p.name for p in game.board.places}


def test_when_the_shipped_board_fails_too_the_groups_reason_is_raised(own_maps, tmp_path, monkeypatch):
    BROKEN["not UTF-8"](own_maps)
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    monkeypatch.setattr("companion.paths.maps_dir", lambda: shipped)
    with pytest.raises(DataError, match=rf"^{own_maps / 'kansas.toml'}: line \d+: not UTF-8 text"):
        load_game("kansas")


def test_the_box_resumes_a_game_on_its_own_board_when_the_groups_breaks(own_maps, tmp_path):
    """Before: the box could not play Kansas at all (a traceback for a file not UTF-8, a restart loop). A game
    keeps the board it began on (kept in the journal), so the broken file only changes what is said."""
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        session = Session(journal)
        session.start("kansas", {"players": 4})
        session.handle(Roll.of(DiceRolled.of(("d8", 5), source="tower")))
        assert session.notices == [] and session.message == ""
        played = len(session.current.live)
    BROKEN["not UTF-8"](own_maps)
    for _start in range(2):  # the second start takes the engine from the cache beside the journal: still said
        with Journal(path) as journal:
            session = Session(journal)
            session.start()
            assert session.current is not None and session.current.game.key == "kansas"
            assert len(session.current.live) == played
            assert session.message == CHANGED and NOTE not in session.notices
            assert session.handle(Roll.of(DiceRolled.of(("d8", 2), source="tower")))
            played = len(session.current.live)


def test_a_new_game_from_the_menu_on_a_broken_board_is_played_too(own_maps, tmp_path):
    BROKEN["a Stormfury board"](own_maps)
    with Journal(tmp_path / "j.sqlite") as journal:
        session = Session(journal)
        session.start("kansas", {"players": 4})
        assert session.current is not None and session.notices == [NOTE]


@pytest.mark.parametrize("how", BROKEN)
def test_board_edit_on_a_broken_board_is_one_line_exit_2(own_maps, how, capsys):
    """Before: a Stormfury file saved as kansas.toml was a KeyError traceback in the editor."""
    BROKEN[how](own_maps)
    assert main(["board", "edit", "kansas"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"companion: {own_maps / 'kansas.toml'}: ")
    assert err.endswith("; `companion board reset kansas` goes back to the shipped kansas board\n")
    assert main(["board", "reset", "kansas"]) == 0
    assert not (own_maps / "kansas.toml").exists()


def test_the_commands_that_show_a_board_use_the_shipped_one_and_say_so(own_maps, capsys):
    BROKEN["a Stormfury board"](own_maps)
    assert main(["map", "kansas"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Kansas Tornadoes: ") and "Emporia" in out
    assert err.count("\n") <= 1 and "Traceback" not in err
