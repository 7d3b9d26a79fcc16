"""Carcassonne's data: the tile types (sides and features) and the rule readings, checked when loaded; the
features they join into on a board; ``companion tiles`` and ``companion map``."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest

from companion.cli import main
from companion.errors import DataError
from companion.games.carcassonne import load
from companion.games.carcassonne.features import Placed, analyse
from companion.games.carcassonne.tiles import rotate_half, rotate_side
from companion.paths import maps_dir
from companion.places import Cell

G = load()
C = G.catalog


def base_types():
    return [t for t in C.types if not t.disaster and not t.river]


def test_the_base_game_has_24_tile_types_and_72_tiles_with_the_start_tile():
    """The base tile table of the notes: 24 types, 72 tiles counting the start tile."""
    assert len(base_types()) == 24 and sum(t.count for t in base_types()) == 72
    assert C.start.key == "city_edge_road" and C.start.edges == "CRFR" and C.start.count == 4
    edges = Counter(t.edges for t in base_types() for _ in range(t.count))
    assert edges["FFRR"] == 9 and edges["RFRF"] == 8 and edges["CFFC"] == 3 + 2 + 2 and edges["CCCC"] == 1


def test_the_six_new_tiles():
    """"6 new landscape tiles": earthquake, flood, meteor and (by the data's reading) three tornado tiles."""
    new = Counter(t.disaster for t in C.types for _ in range(t.count) if t.disaster)
    assert new == {"tornado": 3, "earthquake": 1, "meteor": 1, "flood": 1}


def test_a_corner_city_and_two_cities_on_adjacent_sides_share_edges_but_not_features():
    corner, apart = C.by_key["city_corner"], C.by_key["cities_adjacent"]
    assert corner.edges == apart.edges
    assert len([s for s in corner.segments if s.kind == "city"]) == 1
    assert len([s for s in apart.segments if s.kind == "city"]) == 2


def test_rotation_moves_sides_and_half_sides_clockwise():
    assert rotate_side("N", 1) == "E" and rotate_side("W", 1) == "N" and rotate_half("a", 1) == "c"
    bend = C.by_key["road_bend"]
    assert bend.edge("N", 1) == "R" and bend.edge("W", 1) == "R" and bend.edge("E", 1) == "F"
    assert C.by_key["crossroads"].rotations() == (0,) and C.by_key["road"].rotations() == (0, 1)


def test_fields_touch_the_cities_beside_them():
    start = C.start
    touches = start.city_touches()
    names = {s.describe(): i for i, s in enumerate(start.segments)}
    assert touches[names["farmer EW"]] == {names["city N"]} and touches[names["farmer ESW"]] == frozenset()


def test_a_city_closes_when_every_side_meets_a_tile_and_a_meteor_ends_it():
    board = {Cell(0, 0): Placed(C.start), Cell(0, -1): Placed(C.by_key["city_edge"], 2)}
    an = analyse(board)
    assert an.at(Cell(0, 0), 0).complete and len(an.at(Cell(0, 0), 0).cells) == 2
    road = an.at(Cell(0, 0), 1)
    assert road.kind == "road" and not road.complete
    board[Cell(1, 0)] = Placed(C.by_key["meteor"])
    board[Cell(-1, 0)] = Placed(C.by_key["junction"])
    road = analyse(board).at(Cell(0, 0), 1)
    assert road.complete and road.meteor_sides == 1


def test_a_feature_beside_the_flood_never_completes():
    board = {Cell(0, 0): Placed(C.start), Cell(0, -1): Placed(C.by_key["flood"])}
    city = analyse(board).at(Cell(0, 0), 0)
    assert city.doomed and not city.complete and city.open_sides == 0


def copy_maps(tmp_path):
    for name in ("carcassonne.toml", "carcassonne_tiles.toml"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    return tmp_path


@pytest.mark.parametrize(("old", "new", "message"), [
    ('edges = "CRRC"', 'edges = "CRRQ"', "carcassonne_tiles.toml: tile[9].edges: expected 4 letters"),
    ('cities = ["NW"]\nroads = ["ES"]', 'cities = ["N"]\nroads = ["ES"]',
     "carcassonne_tiles.toml: tile[9].cities: the city side W must belong to exactly one city"),
    ('fields = ["cf", "de"]', 'fields = ["cf"]',
     "carcassonne_tiles.toml: tile[9].fields: half-side d must belong to exactly one field"),
    ('name = "Corner, road bend"', 'name = "A corner city with a road bend"',
     "carcassonne_tiles.toml: tile[9].name: a name the OLED shows: 1..20 characters"),
    ('disaster = "meteor"', 'disaster = "volcano"', "tile[28].disaster: expected one of tornado"),
])
def test_a_wrong_tile_names_file_and_field(tmp_path, old, new, message):
    folder = copy_maps(tmp_path)
    path = folder / "carcassonne_tiles.toml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(DataError) as err:
        load(folder)
    assert message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize(("old", "new", "message"), [
    ('visited = "move"', 'visited = "turn"', "carcassonne.toml: tornado.visited: expected one of move, tornado"),
    ("spaces = 12", "spaces = 13", "tornado.spaces: spaces (13) must be a whole number of moves of 2"),
    ("diagonal = false", "diagonal = 1", "meteor.diagonal: expected true or false"),
])
def test_a_wrong_reading_names_file_and_field(tmp_path, old, new, message):
    folder = copy_maps(tmp_path)
    path = folder / "carcassonne.toml"
    path.write_text(path.read_text().replace(old, new, 1))
    with pytest.raises(DataError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load(folder)


def test_companion_tiles_and_map_print_the_data(capsys):
    assert main(["tiles", "carcassonne", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    road = next(t for t in data["tiles"] if t["key"] == "city_corner_road")
    assert road["cities"] == ["NW"] and road["roads"] == ["ES"] and road["fields"] == ["cf", "de"]
    assert main(["tiles", "carcassonne"]) == 0
    assert "89 tiles of 36 kinds" in capsys.readouterr().out
    assert main(["map", "carcassonne", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"]["tornado_visited"] == "move" and any("over placed tiles only" in r for r in data["readings"])


def test_companion_tiles_for_a_game_without_tiles_is_one_line(capsys):
    assert main(["tiles", "kansas"]) == 2
    assert capsys.readouterr().err == "companion: kansas has no tiles\n"
