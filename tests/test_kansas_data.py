"""maps/kansas.toml: the shipped board follows the rule text, and mistakes name file and field."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import DataError
from companion.games.kansas import load
from companion.games.kansas.data import axial
from companion.hexgrid import DIRECTION_NAMES, Hex
from tests.conftest import edit_map


@pytest.fixture
def copy(tmp_path: Path, maps_dir: Path) -> Path:
    shutil.copy(maps_dir / "kansas.toml", tmp_path / "kansas.toml")
    return tmp_path


def edit(folder: Path, old: str, new: str) -> None:
    edit_map(folder, "kansas.toml", old, new)


def test_grid_puts_dodge_city_at_north_south_7_west_east_3():
    b = load().board
    assert b.name_of(b.grid[7, 3]) == "Dodge City"
    assert len(b.grid) == 64 and len(set(b.grid.values())) == 64
    assert all(h in b.terrain for h in b.grid.values())


def test_grid_lines_run_north_to_south_and_west_to_east():
    b = load().board
    centre_y = {h: h.r + h.q / 2 for h in b.terrain}  # a hex's height on the map, growing southwards
    for we in range(1, 9):
        ys = [centre_y[b.grid[ns, we]] for ns in range(1, 9)]
        assert ys == sorted(ys) and len(set(ys)) == 8
    for ns in range(1, 9):
        qs = [b.grid[ns, we].q for we in range(1, 9)]
        assert qs == sorted(qs) and len(set(qs)) == 8


def test_kansas_city_and_wichita_start_with_three_goods_the_others_two():
    cities = {c.name: c for c in load().board.cities}
    assert cities["Kansas City"].goods == 3 and cities["Wichita"].goods == 3
    assert all(c.goods == 2 for name, c in cities.items() if name not in ("Kansas City", "Wichita"))
    assert len(cities) >= 6


def test_path_key_keeps_the_printed_entries_and_leans_north_east():
    key = load().board.path_key
    assert (key[3], key[6], key[7], key[11]) == ("N", "NE", "NE", "S")
    assert set(key) == set(range(2, 13)) and set(key.values()) <= set(DIRECTION_NAMES)
    ways = {s: 6 - abs(s - 7) for s in key}
    by_direction = {d: sum(w for s, w in ways.items() if key[s] == d) for d in DIRECTION_NAMES}
    assert max(by_direction, key=by_direction.__getitem__) == "NE"


def test_outbreak_table_and_terrain():
    b = load().board
    assert b.outbreak == {4: (4, 3, 3, 2, 2, 1, 1, 0), 5: (4, 3, 2, 2, 1, 1, 0), 6: (4, 3, 2, 1, 1, 0)}
    assert set(b.terrain.values()) == {"plain", "hill", "river"}
    assert b.markers_per_tornado == 5


def test_axial_of_the_picture_matches_the_design_notes_directions():
    # odd columns sit half a hex lower: the hex south-east of (col 0, row 0) is (col 1, row 0)
    assert axial(1, 0) == Hex(0, 0).neighbour("SE")
    assert axial(1, 0).neighbour("N") == axial(1, -1)
    assert axial(2, 0) == axial(1, 0).neighbour("NE")


def test_map_json_has_the_agreed_shape(capsys):
    assert main(["map", "kansas", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"hexes", "grid", "path_key", "markers_per_tornado"} <= set(data)
    assert all({"q", "r", "terrain"} <= set(h) <= {"q", "r", "terrain", "name"} for h in data["hexes"])
    goods = {c["name"]: c["goods"] for c in data["cities"]}
    assert goods["Kansas City"] == goods["Wichita"] == 3 and {c["name"] for c in data["towns"]} >= {"Emporia"}
    named = {h["name"]: (h["q"], h["r"]) for h in data["hexes"] if "name" in h}
    dodge = next(g for g in data["grid"] if (g["ns"], g["we"]) == (7, 3))
    assert named["Dodge City"] == (dodge["q"], dodge["r"])
    assert data["path_key"]["3"] == "N" and list(data["path_key"]) == [str(s) for s in range(2, 13)]
    assert data["markers_per_tornado"] == 5 and len(data["grid"]) == 64


@pytest.mark.parametrize(("old", "new", "message"), [
    ('"pppppphhhhpppppp..",  # row 0', '"ppppxphhhhpppppp..",  # row 0',
     "kansas.toml: board.terrain[0]: column 4: unknown letter 'x'"),
    ("11 = \"S\"", "11 = \"E\"", "kansas.toml: path_key.11: expected one of N, NE, SE, S, SW, NW, got 'E'"),
    ("12 = \"SW\"\n", "", "kansas.toml: path_key.12: missing"),
    ("we_columns = [1, 3, 5, 7, 9, 11, 13, 15]", "we_columns = [1, 3, 5, 7, 9, 11, 13, 16]",
     "kansas.toml: grid.ns_rows: north-south 1, west-east 8 (col 16, row 0) is not on the map"),
    ("ns_rows = [0, 1, 2, 3, 4, 5, 6, 7]", "ns_rows = [0, 1, 2]", "kansas.toml: grid.ns_rows: expected 8"),
    ("ns_rows = [0, 1, 2, 3, 4, 5, 6, 7]", "ns_rows = [7, 6, 5, 4, 3, 2, 1, 0]",
     "kansas.toml: grid.ns_rows: expected 8 increasing numbers (north-south line 1 is the northern edge)"),
    ("we_columns = [1, 3, 5, 7, 9, 11, 13, 15]", "we_columns = [1, 3, 5, 7, 9, 11, 15, 13]",
     "kansas.toml: grid.we_columns: expected 8 increasing numbers (west-east line 1 is the western edge)"),
    ("4 = [4, 3, 3, 2, 2, 1, 1, 0]", "4 = [4, 3, 3, 2, 2, 1, 1]",
     "kansas.toml: outbreak.4: the last turn has no tornado phase"),
    ('colour = "red"', 'colour = "green"', "kansas.toml: cities[0].colour: expected one of red"),
    ("col = 11\nrow = 6", "col = 17\nrow = 2", "kansas.toml: cities[1].col: col 17, row 2 is already Kansas City"),
    ("markers_per_tornado = 5", "markers_per_tornado = 5\nmarkers = 4", "kansas.toml: rules.markers: unknown key"),
    ("goods = 3", "goods = \"three\"", "kansas.toml: cities[0].goods: expected an integer, got 'three'"),
])
def test_mistakes_are_one_line_naming_file_and_field(copy, old, new, message):
    edit(copy, old, new)
    with pytest.raises(DataError) as err:
        load(copy)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_a_key_that_traps_a_hex_is_refused(copy):
    for total in range(2, 13):
        edit(copy, f"\n{total} = ", f"\n{total} = \"N\"\n#")
    with pytest.raises(DataError, match=r"kansas.toml: path_key: from hex .* every direction of the path key"):
        load(copy)


def test_a_broken_map_is_an_exit_2_line_on_the_command_line(copy, capsys, monkeypatch):
    edit(copy, "markers_per_tornado = 5", "markers_per_tornado = 0")
    monkeypatch.setenv("COMPANION_MAPS", str(copy))
    assert main(["map", "kansas", "--json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: ") and "rules.markers_per_tornado: expected 1..20, got 0" in err


# -- the rivers: lines through river hexes, checked when loaded -----------------------------------------

def test_the_shipped_rivers_run_through_river_hexes_source_to_mouth():
    board = load().board
    assert len(board.rivers) >= 5 and all(r.name for r in board.rivers)
    for river in board.rivers:
        assert all(board.terrain[h] == "river" for h in river.hexes)
        assert all(b in a.neighbours() for a, b in zip(river.hexes, river.hexes[1:], strict=False))


@pytest.mark.parametrize("old, new, message", [
    ("hexes = [[9, 5], [10, 5], [10, 6], [11, 6]]", "hexes = [[9, 5], [10, 5], [10, 6], [12, 6]]",
     r"kansas.toml: rivers\[1\].hexes\[3\]: col 12, row 6 is hill, not a river hex"),
    ("hexes = [[9, 5], [10, 5], [10, 6], [11, 6]]", "hexes = [[9, 5], [11, 6]]",
     r"kansas.toml: rivers\[1\].hexes\[1\]: col 11, row 6 is not next to the hex before it"),
    ("hexes = [[16, 2], [16, 3]]", "hexes = [[16, 2]]",
     r"kansas.toml: rivers: col 16, row 3 is a river hex that no river runs through"),
    ("hexes = [[16, 2], [16, 3]]", "hexes = [[16, 2], [40, 3]]",
     r"kansas.toml: rivers\[5\].hexes\[1\]: col 40, row 3 is not on the map"),
    ("hexes = [[16, 2], [16, 3]]", "hexes = [16, 2]",
     r"kansas.toml: rivers\[5\].hexes\[0\]: expected \[col, row\], got 16"),
    ('name = "Saline River"', 'name = "Saline River"\nwidth = 3',
     r"kansas.toml: rivers\[3\].width: unknown key"),
])
def test_a_broken_river_names_file_and_field(copy, old, new, message):
    edit(copy, old, new)
    with pytest.raises(DataError, match=message):
        load(copy)


def test_a_broken_river_is_an_exit_2_line_on_the_command_line(copy, capsys, monkeypatch):
    edit(copy, "hexes = [[16, 2], [16, 3]]", "hexes = [[16, 2], [15, 3]]")
    monkeypatch.setenv("COMPANION_MAPS", str(copy))
    assert main(["map", "kansas", "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "rivers[5].hexes[1]" in err and "not a river hex" in err


def test_the_nearest_place_is_the_closest_in_file_order_each_time_it_is_asked():
    from companion.games.kansas import load_board
    from companion.games.kansas.data import default_path

    board = load_board(default_path(None))
    for _ in range(2):  # worked out, then remembered
        for h in board.terrain:
            closest = min(p.hex.distance(h) for p in board.places)
            assert board.nearest_place(h) == next(p for p in board.places if p.hex.distance(h) == closest)


def test_a_board_kept_by_pickle_comes_back_equal_with_every_name_worked_out():
    import pickle

    from companion.games.kansas import load_board
    from companion.games.kansas.data import default_path

    board = load_board(default_path(None))
    back = pickle.loads(pickle.dumps(board))
    assert back == board and set(vars(back)["_names"]) == set(board.terrain)
    fresh = load_board(default_path(None))
    assert all(back.name_of(h) == fresh.name_of(h) and back.nearest_place(h) == fresh.nearest_place(h)
               for h in board.terrain)
