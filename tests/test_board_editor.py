"""The group's own board: the editor's model of edits (pure, undoable) and its window driven by synthetic
mouse and key events, saving a board the box then plays a Kansas tornado on through the real session."""

from __future__ import annotations

import tomllib

import pygame
import pytest

from companion.board_editor.files import save, sheet_for, start_doc
from companion.board_editor.hexsheets import axial, picture_of
from companion.board_editor.model import Editor
from companion.cli import main
from companion.dice import DiceRolled
from companion.errors import DataError
from companion.hexgrid import Hex
from companion.journal import Journal
from companion.session import Roll, Session


@pytest.fixture
def config_dir(tmp_path, monkeypatch):
    """The configuration directory in a temporary folder (and no COMPANION_MAPS to hide it)."""
    folder = tmp_path / "etc"
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(folder))
    monkeypatch.delenv("COMPANION_MAPS", raising=False)
    return folder


def editor(game: str) -> Editor:
    sheet = sheet_for(game)
    return Editor(sheet, start_doc(sheet)[0])


# -- the model --------------------------------------------------------------------------------------------


def test_a_painted_stroke_is_one_undo_step_and_redo_brings_it_back():
    ed = editor("kansas")
    before = ed.doc
    ed.brush = "hill"
    ed.press(axial(0, 0))
    ed.drag(axial(1, 0))
    ed.drag(axial(2, 0))
    ed.release()
    assert ed.doc["board"]["terrain"][0].startswith("hhh")
    assert ed.undo() and ed.doc == before
    assert ed.redo() and ed.doc["board"]["terrain"][0].startswith("hhh")
    assert not ed.redo() and ed.message == "nothing to redo"


def test_painting_south_or_east_of_the_picture_grows_it_and_off_the_map_keeps_a_place():
    ed = editor("kansas")
    rows = len(ed.doc["board"]["terrain"])
    ed.press(axial(3, rows))  # the row below the picture
    assert len(ed.doc["board"]["terrain"]) == rows + 1 and ed.doc["board"]["terrain"][-1][3] == "p"
    ed.brush = "off the map"
    city = ed.doc["cities"][0]
    ed.press(axial(city["col"], city["row"]))
    assert ed.message == f"{city['name']} stands there: remove it first"


def test_a_city_placed_and_named_then_removed_with_the_right_button():
    ed = editor("kansas")
    ed.set_tool("city")
    free = axial(5, 5)
    assert free not in sheet_for("kansas").places(ed.doc)
    ed.press(free)
    ed.type_text("Emporia Junction")
    ed.finish_name()
    city = ed.doc["cities"][-1]
    assert (city["name"], city["col"], city["row"]) == ("Emporia Junction", 5, 5)
    ed.press(free, 3)
    assert all(c["name"] != "Emporia Junction" for c in ed.doc["cities"])
    ed.press(Hex(40, 0))
    assert ed.message == "that hex is not on the map: paint it first"


def test_kansas_grid_lines_and_path_key_and_a_refused_save_naming_file_and_field(tmp_path):
    ed = editor("kansas")
    ed.set_tool("north-south lines")
    ed.press(axial(4, 8))  # row 8 joins the eight north-south lines: nine now
    assert ed.doc["grid"]["ns_rows"] == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    with pytest.raises(DataError) as refused:
        save(ed, tmp_path)
    assert str(refused.value) == (f"{tmp_path / 'kansas.toml'}: grid.ns_rows: expected 8 whole numbers "
                                  "(lines 1..8), got [0, 1, 2, 3, 4, 5, 6, 7, 8]")
    assert list(tmp_path.iterdir()) == []  # nothing written, not even the trial file
    ed.press(axial(4, 0))  # row 0 leaves: eight again, line 1 now on row 1
    ed.set_tool("path key")
    ed.arrow(0, 5)  # down to the sum 7
    ed.arrow(1, 0)  # NE -> SE
    assert ed.doc["path_key"]["7"] == "SE"
    saved = save(ed, tmp_path)
    from companion.games.kansas.data import load_board

    board = load_board(saved)
    assert board.path_key[7] == "SE" and board.grid[1, 1] == axial(1, 1)


def test_a_path_key_that_strands_a_hex_is_refused_with_the_loaders_reason(tmp_path):
    ed = editor("kansas")
    ed.set_tool("path key")
    for total in range(2, 13):
        while ed.doc["path_key"][str(total)] != "N":
            ed.press(total)
    with pytest.raises(DataError, match=r"kansas\.toml: path_key: from hex \d+,-?\d+ every direction of the path"):
        save(ed, tmp_path)


def test_stormfury_city_spaces_a_road_hex_by_hex_and_the_start_hex(tmp_path):
    ed = editor("stormfury")
    sheet = sheet_for("stormfury")
    ed.set_tool("city")
    ed.press(Hex(4, 0))  # inland Texas, free land
    ed.type_text("Beaumont")
    ed.finish_name()
    ed.set_tool("space")
    ed.press(Hex(4, 1))
    assert [s["name"] for s in ed.doc["cities"][-1]["infrastructure"]] == ["Port"]
    ed.set_tool("road")
    ed.press(Hex(4, 0))  # from Beaumont
    ed.press(Hex(5, 0))
    assert ed.message == "" and ed.pending[1:] == [Hex(5, 0)]
    ed.press(Hex(7, -1))
    assert ed.message == "a road is a chain: click a hex next to the last one"
    ed.press(Hex(6, 0))  # next to Lake Charles' power plant (7, 0)
    ed.press(Hex(7, 0))  # a space of Lake Charles ends it
    road = ed.doc["roads"][-1]
    assert road["ends"] == ["beaumont", "lake_charles"] and road["hexes"] == [{"q": 5, "r": 0}, {"q": 6, "r": 0}]
    ed.set_tool("start")
    ed.press(Hex(4, 0))
    assert ed.message == "the hurricane starts in the gulf"
    ed.press(Hex(10, 8))
    saved = save(ed, tmp_path)
    from companion.games.stormfury.data import load_board
    from companion.paths import map_file

    board = load_board(saved, map_file("stormfury_cards.toml"))
    assert board.start == Hex(10, 8) and board.road(road["id"]).hexes == (Hex(5, 0), Hex(6, 0))
    ed.set_tool("city")
    ed.press(Hex(4, 0), 3)  # the city goes, and its road with it
    assert all("beaumont" not in r["ends"] for r in ed.doc["roads"])
    assert Hex(4, 0) not in sheet.spaces(ed.doc)


def test_stormfury_terrain_moves_the_coast_of_a_column():
    ed = editor("stormfury")
    land = list(ed.doc["board"]["land_rows"])
    ed.brush = "gulf"
    ed.press(axial(5, 3))
    assert ed.doc["board"]["land_rows"][5] == 3 and ed.doc["board"]["land_rows"][:5] == land[:5]
    ed.brush = "land"
    ed.press(axial(5, 9))
    assert ed.doc["board"]["land_rows"][5] == 10


def test_graph_locations_and_links_are_placed_moved_linked_and_removed(tmp_path):
    ed = editor("allegheny")
    sheet = sheet_for("allegheny")
    ed.brush = "settlement"
    ed.press((60.0, 140.0))
    ed.type_text("Morgantown")
    ed.finish_name()
    key = ed.doc["sites"][-1]["key"]
    assert ed.doc["sites"][-1] == {"key": "morgantown", "name": "Morgantown", "kind": "settlement", "x": 60.0,
                                        "y": 140.0, "levels": 1, "values": [1, 2]}
    ed.press((60.0, 140.0))
    ed.drag((64.0, 141.0))
    ed.release()
    assert (ed.doc["sites"][-1]["x"], ed.doc["sites"][-1]["y"]) == (64.0, 141.0)
    ed.set_tool("link")
    pittsburgh = next(s for s in ed.doc["sites"] if s["key"] == "pittsburgh")
    ed.press((64.0, 141.0))
    ed.press((pittsburgh["x"], pittsburgh["y"]))
    assert [key, "pittsburgh"] in sheet.links(ed.doc)
    saved = save(ed, tmp_path)
    from companion.games.allegheny.data import load_board
    from companion.places import Link

    assert Link(key, "pittsburgh") in load_board(saved).links
    ed.press((64.0, 141.0))
    ed.press((pittsburgh["x"], pittsburgh["y"]))  # the same link drawn again: removed
    assert [key, "pittsburgh"] not in sheet.links(ed.doc)
    ed.set_tool("location")
    ed.press((64.0, 141.0), 3)
    assert all(s["key"] != key for s in ed.doc["sites"])


# -- the window, through synthetic events ----------------------------------------------------------------


def post_click(pos, button=1):
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def post_key(key, mod=0):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0))


def post_text(text):
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))


@pytest.fixture
def display():
    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.set_mode((1280, 800))
    yield surface
    pygame.display.quit()


def test_the_window_edits_saves_and_the_box_plays_a_kansas_tornado_on_the_groups_board(config_dir, display,
                                                                                         tmp_path, capsys):
    from companion.board_editor.window import EditorWindow

    ed = editor("kansas")
    window = EditorWindow(ed, display)
    town = axial(5, 5)  # where a west-east line 2 tornado running south-east passes
    post_text("2")  # the city tool
    post_click(window.centre(town))
    post_text("Testville")
    post_key(pygame.K_RETURN)
    post_text("6")  # the path key
    for _ in range(5):
        post_key(pygame.K_DOWN)  # down to 7
    post_key(pygame.K_RIGHT)  # 7: NE -> SE
    post_text("1")  # terrain: paint a hill by dragging over two hexes
    post_key(pygame.K_TAB)
    a, b = window.centre(axial(0, 8)), window.centre(axial(1, 8))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=b, rel=(b[0] - a[0], b[1] - a[1]), buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1))
    post_key(pygame.K_s, pygame.KMOD_CTRL)
    assert window.step()
    saved = config_dir / "maps" / "kansas.toml"
    assert window.saved == saved and ed.message == f"saved {saved}"
    data = tomllib.loads(saved.read_text())
    assert data["path_key"]["7"] == "SE" and data["board"]["terrain"][8].startswith("hh")
    assert {"name": "Testville", "col": 5, "row": 5} .items() <= data["cities"][-1].items()
    assert picture_of(window.target(tuple(round(v) for v in window.centre(town)))) == (5, 5)

    assert main(["config", "show"]) == 0
    assert f"#   kansas: {saved} (the group's own)" in capsys.readouterr().out

    with Journal(tmp_path / "j.sqlite") as journal:  # the real session, the default maps: the group's board
        session = Session(journal)
        session.start("kansas", {"players": 4})
        session.handle(Roll.of(DiceRolled.of(("d8", 5), source="tower")))  # north-south 5: row 4
        session.handle(Roll.of(DiceRolled.of(("d8", 2), source="tower")))  # west-east 2: column 3
        for _ in range(4):
            session.handle(Roll.of(DiceRolled.of(("d6", 3), ("d6", 4), source="tower")))  # 7: south-east now
        tornado = session.current.state.tornadoes[0]
        assert tornado.markers == (axial(3, 4), Hex(4, 3), Hex(5, 3), Hex(6, 3), Hex(7, 3))
        assert town == Hex(5, 3) and session.current.game.board.name_of(town) == "Testville"
        assert session.current.state.markers_at(town) == 1


def test_the_window_shows_a_refused_save_and_esc_twice_leaves_unsaved(config_dir, display):
    from companion.board_editor.window import EditorWindow

    ed = editor("kansas")
    window = EditorWindow(ed, display)
    post_text("4")  # north-south lines
    post_click(window.centre(axial(2, 8)))
    post_key(pygame.K_s, pygame.KMOD_CTRL)
    window.step()
    assert ed.message.startswith(f"not saved: {config_dir / 'maps' / 'kansas.toml'}: grid.ns_rows: expected 8")
    assert not (config_dir / "maps" / "kansas.toml").exists()
    post_key(pygame.K_z, pygame.KMOD_CTRL)
    post_text("2")
    post_click(window.centre(axial(5, 5)))
    post_key(pygame.K_ESCAPE)  # drops the name being typed
    post_key(pygame.K_ESCAPE)  # unsaved: asks
    assert window.step() and ed.message.startswith("not saved: Ctrl+S saves")
    post_key(pygame.K_ESCAPE)
    assert not window.step()


def test_the_photo_underneath_moves_with_the_mouse_and_scales_with_the_wheel(config_dir, display):
    from companion.board_editor.window import EditorWindow

    photo = pygame.Surface((400, 300))
    photo.fill((200, 30, 30))
    window = EditorWindow(editor("stormfury"), display, photo=photo)
    u = window.editor.underlay
    assert u.scale == pytest.approx(min(window.map.w / 400, window.map.h / 300))
    post_text("p")
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(100, 100), button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(130, 90), rel=(30, -10), buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(130, 90), button=1))
    window.step()
    assert (u.x, u.y) == (30, -10)
    before = u.scale
    u.zoom(2.0, (30, -10))  # the wheel's call, about the photo's corner: the corner stays put
    assert (u.x, u.y, u.scale) == (30, -10, before * 2)
    window.step()
    assert display.get_at((40, 40))[:3] != (200, 30, 30)  # the board is drawn over the photo, translucent
    assert window.editor.doc == start_doc(sheet_for("stormfury"))[0]  # photo moves are not board edits


def test_board_reset_goes_back_to_the_shipped_board(config_dir, capsys):
    from companion.paths import map_source

    (config_dir / "maps").mkdir(parents=True)
    ed = editor("allegheny")
    save(ed, config_dir / "maps")
    assert map_source("allegheny.toml")[0] == "group"
    assert main(["board", "reset", "allegheny"]) == 0
    assert map_source("allegheny.toml")[0] == "shipped"
    assert "removed" in capsys.readouterr().out
    assert main(["board", "edit", "carcassonne"]) == 2
    assert capsys.readouterr().err.strip() == ("companion: no board editor for 'carcassonne' "
                                               "(boards: kansas, stormfury, allegheny, industry)")
