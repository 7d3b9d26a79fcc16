"""Stormfury board and deck files: the shipped data is sound, and mistakes name file and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.errors import DataError
from companion.games.stormfury import load
from tests.conftest import edit_map


@pytest.fixture
def copy(tmp_path: Path, maps_dir: Path) -> Path:
    for name in ("stormfury.toml", "stormfury_cards.toml"):
        shutil.copy(maps_dir / name, tmp_path / name)
    return tmp_path


edit = edit_map


def test_shipped_board_is_a_gulf_coast():
    b = load().board
    assert 8 <= len(b.cities) <= 10
    assert sum(len(d) for d in b.decks.values()) == 27
    assert b.start in b.ocean
    for city in b.cities:
        assert city.infrastructure and city.population_centre in b.land
        assert any(n in b.ocean for s in city.spaces for n in s.hex.neighbours()) or city.id == "tallahassee"
    for road in b.roads:
        assert road.middle in b.land and road.middle in road.hexes
    ids = [c.id for c in b.cities]
    assert {"houston", "new_orleans", "tampa", "mobile"} <= set(ids)
    assert all(c.mark != "strengthen" for c in b.decks["land"])
    assert any(c.mark == "strengthen" for c in b.decks["ocean"])
    assert sum(c.mark == "weaken" for c in b.decks["land"]) > len(b.decks["land"]) / 2


def test_map_and_cards_json_shapes():
    game = load()
    data = game.map_json()
    assert data["start"] == {"q": game.board.start.q, "r": game.board.start.r}
    assert {h["terrain"] for h in data["hexes"]} == {"land", "ocean"}
    assert data["cities"][0]["spaces"][-1]["kind"] == "population"
    assert all(set(r) == {"id", "name", "ends", "middle", "hexes"} for r in data["roads"])
    assert all(r["middle"] in r["hexes"] for r in data["roads"])
    cards = game.cards_json()
    assert [len(cards["ocean"]), len(cards["land"])] == [15, 12]
    assert set(cards["ocean"][0]) == {"id", "deck", "steps", "mark"}


@pytest.mark.parametrize(("name", "old", "new", "message"), [
    ("stormfury.toml", 'both_marks = "net"', 'both_marks = "dice"', "rules.both_marks: expected one of"),
    ("stormfury.toml", "radius = [1, 2, 2, 2, 3]", "radius = [1, 2, 3]", "rules.radius: expected 5 integers"),
    ("stormfury.toml", "start = { q = 11, r = 9 }", "start = { q = 11, r = -3 }", "board.start: 11,-3 is not a gulf"),
    ("stormfury.toml", 'id = "houston"', 'id = "brownsville"', "cities[2].id: duplicate city id"),
    ("stormfury.toml", 'ends = ["houston", "lake_charles"]', 'ends = ["houston", "atlantis"]', "roads[2].ends"),
    ("stormfury.toml", "population_centre = { q = 5, r = 4 }", "population_centre = { q = 5, r = 9 }",
     "cities[2].population_centre: 5,9 is not a land hex"),
    ("stormfury.toml", 'name = "Houston"', 'name = "Houston"\nmayor = "x"', "cities[2].mayor: unknown key"),
    ("stormfury.toml", "hexes = [{ q = 6, r = 2 }]", "hexes = [{ q = 6, r = 1 }]",
     "roads[2].hexes[0]: 6,1 is not next to a space of houston"),
    ("stormfury.toml", "{ q = 19, r = -4 }, { q = 20, r = -4 }", "{ q = 19, r = -4 }, { q = 21, r = -4 }",
     "roads[8].hexes[2]: 21,-4 is not next to 19,-4 (a road is a chain of hexes)"),
    ("stormfury.toml", "hexes = [{ q = 8, r = 0 }]", "hexes = [{ q = 8, r = 0 }, { q = 8, r = -1 }]",
     "roads[3].hexes: the last hex 8,-1 is not next to a space of new_orleans"),
    ("stormfury.toml", "hexes = [{ q = 1, r = 11 }]", "hexes = [{ q = 1, r = 13 }]",
     "roads[0].hexes[0]: 1,13 is not a land hex"),
    ("stormfury.toml", "hexes = [{ q = 1, r = 11 }]", "hexes = []", "roads[0].hexes: a road needs at least one hex"),
    ("stormfury.toml", 'damaged_population = "lost"', 'damaged_population = "gone"',
     "rules.damaged_population: expected one of lost, stays"),
    ("stormfury.toml", 'id = "relief_corps"', 'id = "mayor"', "roles[3].id: expected one of"),
    ("stormfury_cards.toml", 'steps = ["NE", "N"]', 'steps = ["N", "E"]', "ocean[2].steps: expected directions"),
    ("stormfury_cards.toml", 'id = "O3"', 'id = "O1"', "ocean[2].id: duplicate card id"),
    ("stormfury_cards.toml", 'id = "L9"\nsteps = ["N"]', 'id = "L9"\nsteps = ["N"]\nmark = "strengthen"',
     "land[8].mark: a land card cannot strengthen"),
    ("stormfury_cards.toml", 'id = "O5"\nsteps = ["N"]\nmark = "strengthen"', 'id = "O5"\nsteps = ["N"]\nmark = "up"',
     "ocean[4].mark: expected one of"),
])
def test_mistakes_name_file_and_field(copy, name, old, new, message):
    edit(copy, name, old, new)
    with pytest.raises(DataError) as info:
        load(copy)
    text = str(info.value)
    assert text.startswith(str(copy / name)) and message in text
    assert "\n" not in text


def test_missing_file_is_one_line(tmp_path):
    with pytest.raises(DataError, match=r"stormfury\.toml: file not found"):
        load(tmp_path)
