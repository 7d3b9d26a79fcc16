"""The group's own Age of Industry maps in the board editor: the window driven by synthetic mouse and key events
places and names a location, gives it spaces and a printed link, saves Japan to the configuration directory,
and the box then plays on it through the real session; Minnesota's own rules refuse a save with the file and
field; the command asks which map."""

from __future__ import annotations

import tomllib

import pygame
import pytest

from companion.board_editor.files import sheet_for, start_doc
from companion.board_editor.model import Editor
from companion.cli import main
from companion.journal import Journal
from companion.session import Session
from tests.test_board_editor import config_dir, display, post_click, post_key, post_text  # noqa: F401
from tests.test_industry_session import decide, pick, refused


def industry(board: str) -> Editor:
    sheet = sheet_for("industry", board)
    return Editor(sheet, start_doc(sheet)[0])


def test_the_window_places_a_port_town_links_it_saves_japan_and_the_box_plays_on_it(config_dir, display,  # noqa: F811
                                                                                     tmp_path, capsys):
    from companion.board_editor.window import EditorWindow

    ed = industry("Japan")
    assert ed.sheet.brushes[0] == "clear" and "port" in ed.sheet.brushes
    window = EditorWindow(ed, display)
    spot = (56.0, 80.0)  # open sea south of Nagoya: no location there
    post_text("1")  # the location tool
    for _ in range(ed.sheet.brushes.index("port")):
        post_key(pygame.K_TAB)
    post_click(window.centre(spot))
    post_text("Hamamatsu")
    post_key(pygame.K_RETURN)
    post_text("3")  # spaces: a clear space added to it
    post_key(pygame.K_TAB)  # port -> the next brush, round to clear
    for _ in range(len(ed.sheet.brushes) - ed.sheet.brushes.index("port") - 2):
        post_key(pygame.K_TAB)
    assert window.step()
    assert ed.brush == "clear" and ed.tool == "spaces"
    post_click(window.centre("hamamatsu"))
    post_text("2")  # a link to Nagoya
    post_click(window.centre("hamamatsu"))
    post_click(window.centre("nagoya"))
    post_text("1")
    post_click(window.centre("kobe"), 3)  # Kobe ends the Harima Sea's ship space: not removed
    assert window.step()
    assert ed.message == "Kobe is named elsewhere in industry_japan.toml: change that there first"
    assert any(s["key"] == "kobe" for s in ed.doc["locations"])
    post_key(pygame.K_s, pygame.KMOD_CTRL)
    assert window.step()
    saved = config_dir / "maps" / "industry_japan.toml"
    assert window.saved == saved and ed.message == f"saved {saved}"
    data = tomllib.loads(saved.read_text())
    assert data["locations"][-1] == {"key": "hamamatsu", "name": "Hamamatsu", "x": 56.0, "y": 80.0,
                                     "spaces": ["port", "clear"]}
    assert ["hamamatsu", "nagoya"] in data["links"] and data["map"]["name"] == "Japan"
    assert "companion board edit industry --map Japan" in saved.read_text()

    assert main(["config", "show"]) == 0
    out = capsys.readouterr().out
    assert f"#   industry Japan: {saved} (the group's own)" in out
    assert "#   industry Minnesota: " in out and "industry_minnesota.toml (shipped)" in out

    with Journal(tmp_path / "j.sqlite") as journal:  # the real session, the default maps: the group's Japan
        session = Session(journal)
        session.start(game="industry", options={"map": "Japan", "players": 3})
        for label in ("Coal mine", "Cotton mill", "Location card", "Ship", "Ironworks", "Manufactured goods"):
            pick(session, label)
        assert session.current.state.deck == 34  # the shipped deck's 33 and Hamamatsu's location card
        decide(session, "industry", location="hamamatsu", kind="port", owner="Red")
        refused(session, "link", "Hamamatsu and Tokyo are not adjacent", **{"from": "hamamatsu", "to": "tokyo",
                                                                            "owner": "Red"})
        decide(session, "link", **{"from": "hamamatsu", "to": "nagoya", "owner": "Red"})
        assert session.panel.result == ("Red: rail Hamamatsu - Nagoya ($4)",)
        refused(session, "link", "every rail link from Hamamatsu is built", **{"from": "hamamatsu", "to": "nagoya",
                                                                               "owner": "Blue"})
        refused(session, "industry", "Hamamatsu has no ironworks symbol", location="hamamatsu", kind="iron",
                owner="Blue")  # its spaces are the ones given in the editor


def test_minnesota_refuses_a_second_space_in_the_twin_cities_naming_file_and_field(config_dir, display):  # noqa: F811
    from companion.board_editor.window import EditorWindow

    ed = industry("Minnesota")
    window = EditorWindow(ed, display)
    twin = next(i for i, s in enumerate(ed.doc["locations"]) if s.get("area") == "twin_cities")
    key = ed.doc["locations"][twin]["key"]
    post_text("3")
    post_click(window.centre(key))
    post_key(pygame.K_s, pygame.KMOD_CTRL)
    window.step()
    target = config_dir / "maps" / "industry_minnesota.toml"
    assert ed.message == (f"not saved: {target}: locations[{twin}].spaces: a Twin Cities location holds one "
                          "industry counter: give it one space")
    assert not target.exists() and not list((config_dir / "maps").iterdir())
    post_click(window.centre(key), 3)  # the space taken away again: the file is sound
    post_key(pygame.K_s, pygame.KMOD_CTRL)
    window.step()
    assert window.saved == target


def test_the_command_asks_which_map_and_refuses_an_unknown_one(config_dir, monkeypatch, capsys):  # noqa: F811
    assert main(["board", "edit", "industry"]) == 2  # no terminal to ask on: the maps named
    assert capsys.readouterr().err.strip() == "companion: industry has 2 maps: add --map Japan or --map Minnesota"
    assert main(["board", "edit", "industry", "--map", "Kyushu"]) == 2
    assert capsys.readouterr().err.strip() == "companion: --map: industry has no map 'Kyushu' (maps: Japan, Minnesota)"
    assert main(["board", "edit", "kansas", "--map", "Japan"]) == 2
    assert capsys.readouterr().err.strip() == "companion: --map: kansas has one board; leave --map out"

    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    asked: list[str] = []
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or "minnesota")
    pygame.display.init()
    try:
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        assert main(["board", "edit", "industry", "--size", "640x400"]) == 0
    finally:
        pygame.display.quit()
    assert asked == ["industry: which map (Japan, Minnesota)? "]
    assert "not saved: the industry Minnesota board in force is still" in capsys.readouterr().out
    assert main(["board", "reset", "industry", "--map", "Japan"]) == 0
    assert "industry Japan: no board of the group's own" in capsys.readouterr().out


@pytest.mark.parametrize("board", ["Japan", "Minnesota"])
def test_the_shipped_maps_saved_unchanged_load_as_they_were(board, tmp_path):
    from companion.board_editor.files import save
    from companion.games.industry.data import MAPS, load_map, load_rules
    from companion.paths import maps_dir

    ed = industry(board)
    saved = save(ed, tmp_path)
    rules = load_rules()
    assert load_map(saved, board, rules) == load_map(maps_dir() / MAPS[board], board, rules)
