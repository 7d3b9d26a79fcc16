"""Age of Industry's maps as data: both boards load, their graphs hold what the text names, and a mistake in a
copied map is one line naming the file and the field."""

from __future__ import annotations

import shutil

import pytest

from companion.errors import DataError
from companion.games import load_game
from companion.games.industry.data import load_all
from companion.places import GraphBoard, Link


@pytest.fixture
def copy(tmp_path, maps_dir):
    for name in ("industry.toml", "industry_japan.toml", "industry_minnesota.toml"):
        shutil.copy(maps_dir / name, tmp_path / name)
    return tmp_path


def edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_both_maps_load_as_two_boards_of_one_package(maps_dir):
    rules, boards = load_all(maps_dir)
    assert list(boards) == ["Japan", "Minnesota"]
    japan, minnesota = boards["Japan"], boards["Minnesota"]
    assert len(japan.display_costs) == 6 and japan.sea_lanes and not minnesota.has_display
    assert {s.name for s in japan.spots.values() if "ironworks" in s.spaces} >= {"Kamaishi", "Yawata", "Muroran"}
    assert {s.name for s in minnesota.spots.values() if s.iron_range} >= {"Hibbing", "Virginia"}
    assert {s.name for s in minnesota.spots.values() if s.hydro} == {"Bemidji", "Fergus Falls", "St. Anthony Falls"}
    assert {s.name for s in minnesota.spots.values() if s.area == "chicago"} == {"Braidwood", "Coal City",
                                                                                   "Wilmington"}
    twin = {s.key for s in minnesota.spots.values() if s.area == "twin_cities"}
    assert twin == {"st_paul", "st_anthony_falls", "downtown_minneapolis"}
    assert {Link("st_paul", "downtown_minneapolis"), Link("braidwood", "chicago_south")} <= minnesota.implicit
    assert rules.colours[:2] == ("Red", "Blue") and rules.link_base == 3


def test_the_game_asks_for_the_map_and_publishes_both_boards(maps_dir):
    game = load_game("industry", maps_dir)
    names = [q.name for q in game.setup_questions()]
    assert names == ["map", "players", "display"] and tuple(game.setup_questions()[0].values) == ("Japan",
                                                                                                 "Minnesota")
    data = game.map_json()
    assert set(data["maps"]) == {"Japan", "Minnesota"} and data["link_base"] == 3
    board = game.board_for(game.new_game({"map": "Minnesota"}))
    assert isinstance(board, GraphBoard) and board.name_of(Link("duluth", "superior")) == "Duluth - Superior"
    japan = game.board_for(game.new_game({"map": "Japan"}))
    assert japan.links[Link("aomori", "hakodate")] == "sea" and japan.links[Link("kyoto", "osaka")] == "rail"


@pytest.mark.parametrize(("file", "old", "new", "message"), [
    ("industry_japan.toml", '["kyoto", "osaka"]', '["kyoto", "edo"]',
     "industry_japan.toml: links[15]: unknown location 'edo'"),
    ("industry_japan.toml", 'spaces = ["clear", "clear"] },\n  { key = "yubari"', 'spaces = ["clera"] },\n'
     '  { key = "yubari"', "industry_japan.toml: locations[0].spaces: unknown space kind 'clera'"),
    ("industry_japan.toml", 'ends = ["aomori", "hakodate"]', 'ends = ["aomori", "morioka"]',
     "industry_japan.toml: ships[0].ends: a sea lane joins two ports, but Morioka has no port space"),
    ("industry_minnesota.toml", 'x = 42, y = 46, spaces = ["any"]', 'x = 42, y = 46, spaces = ["any", "clear"]',
     "industry_minnesota.toml: locations[18].spaces: a Twin Cities location holds one industry counter"),
    ("industry_minnesota.toml", "prices = [1, 1, 2, 2, 3, 3, 4, 4]\nfilled = 4",
     "prices = [4, 1]\nfilled = 1", "industry_minnesota.toml: demand.coal.prices: expected prices cheapest first"),
    ("industry.toml", 'ironworks = ["iron"]', 'ironworks = ["steel"]',
     "industry.toml: spaces.ironworks: unknown industry kind 'steel'"),
    ("industry.toml", "actions_per_turn = 2", "actions_per_turn = -1",
     "industry.toml: players.actions_per_turn: expected 0..9, got -1"),
])
def test_a_mistake_in_a_map_names_file_and_field(copy, file, old, new, message):
    edit(copy / file, old, new)
    with pytest.raises(DataError) as err:
        load_all(copy)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_the_cli_prints_both_maps(capsys, maps_dir):
    from companion.cli import main

    assert main(["map", "industry", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"Japan"' in out and '"Minnesota"' in out and "Kamaishi" in out
