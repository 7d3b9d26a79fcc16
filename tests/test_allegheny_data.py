"""maps/allegheny.toml: the shipped map follows the expansion's text where it speaks, and mistakes name file
and field in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import DataError
from companion.games.allegheny import load
from companion.places import GraphBoard, Link, Location
from tests.conftest import edit_map


@pytest.fixture
def copy(tmp_path: Path, maps_dir: Path) -> Path:
    shutil.copy(maps_dir / "allegheny.toml", tmp_path / "allegheny.toml")
    return tmp_path


def edit(folder: Path, old: str, new: str) -> None:
    edit_map(folder, "allegheny.toml", old, new)


def test_the_shipped_map_has_what_the_text_names() -> None:
    """The five bases, Pittsburgh, the metro areas Cincinnati, Detroit and Chicago, settlements and external
    connections; the railroads with the bases of the text; the offering in the text's order."""
    b = load().board
    bases = {r.name: b.name(r.base) for r in b.railroads}
    assert bases == {"C&O": "Richmond", "B&O": "Baltimore", "NYC": "New York", "B&M": "Boston",
                     "PRR": "Philadelphia", "P&LE": "Pittsburgh"}
    metros = {s.name for s in b.spots.values() if s.kind == "metro"}
    assert {"Pittsburgh", "Cincinnati", "Detroit", "Chicago"} <= metros
    assert any(s.kind == "settlement" for s in b.spots.values())
    assert any(s.external for s in b.spots.values())
    assert b.rules.offering == ("co", "bo", "nyc", "bm", "prr") and b.rules.first_player == "prr"
    assert [b.name(k) for k in b.rules.automatic] == ["Pittsburgh", "Cincinnati", "Detroit", "Chicago"]
    assert b.rules.ple == "ple" and b.rules.ple_opens_at == "pittsburgh" and b.rules.second_cost == 3
    assert b.rules.single_track_at == frozenset({"pittsburgh"})


def test_every_location_is_reachable_from_a_base() -> None:
    """A plausible map: every location can be reached by track from some railroad's base."""
    b = load().board
    seen = {r.base for r in b.railroads}
    frontier = list(seen)
    while frontier:
        here = frontier.pop()
        for link in b.links_at(here):
            there = link.other(here)
            if there not in seen:
                seen.add(there)
                if not b.spots[there].external:
                    frontier.append(there)
    assert seen == set(b.spots)


def test_the_board_is_a_graph_with_names() -> None:
    game = load()
    board = game.board_for(game.new_game({"players": 3}))
    assert isinstance(board, GraphBoard)
    assert board.name_of(Location("pittsburgh")) == "Pittsburgh"
    assert board.links[Link("albany", "montreal")] == "external" and board.links[Link("erie", "pittsburgh")] == "rail"


def test_map_json_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "allegheny", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {r["name"]: r["colour"] for r in data["railroads"]}["C&O"] == "red"
    assert data["rules"]["automatic"] == ["pittsburgh", "cincinnati", "detroit", "chicago"]
    assert {"a": "cumberland", "b": "pittsburgh", "kind": "rail"} in data["links"]


@pytest.mark.parametrize(("old", "new", "message"), [
    ('first_player = "prr"', 'first_player = "ple"', "initial_offering.first_player: expected one of co, bo"),
    ('order = ["co", "bo", "nyc", "bm", "prr"]', 'order = ["co", "bo", "nyc", "ple", "prr"]',
     "ple.railroad: the railroad that opens later ('ple') is in the initial offering"),
    ('order = ["co", "bo", "nyc", "bm", "prr"]', 'order = ["co", "bo", "nyc", "bm", "lirr"]',
     "initial_offering.order: unknown railroad 'lirr'"),
    ('automatic = ["pittsburgh",', 'automatic = ["erie",', "develop.automatic: 'erie' is not a metro area"),
    ("levels = 2\nvalues = [2, 4, 6]", "levels = 2\nvalues = [2, 4]",
     "sites[5].values: expected 3 values (development levels 0..2), got 2"),
    ('["cumberland", "pittsburgh"]', '["cumberland", "pitsburgh"]', "board.links[10]: unknown location 'pitsburgh'"),
    ('["richmond", "baltimore"],', '["richmond", "baltimore"], ["baltimore", "richmond"],',
     "board.links[1]: the link baltimore - richmond is given twice"),
    ('base = "richmond"', 'base = "montreal"', "railroads[0].base: unknown base location 'montreal'"),
    ('pass = "out"', 'pass = "never"', "auction.pass: expected one of out, again, got 'never'"),
    ('paid_to = "treasury"', 'paid_to = "bank"', "external.paid_to: expected one of treasury, player"),
    ("track = [[0, 0], [6, 1]", "track = [[0, 0], [0, 1]", "income.track[1]: the values must increase"),
    ('single_track_at = ["pittsburgh"]', 'single_track_at = ["pittsburg"]',
     "track.single_track_at: unknown location 'pittsburg'"),
    ('seating = ["Player 1",', 'seating = [', "players.seating: expected a name for each of 6 seats, got 5"),
    ("bonus = 4", "bonus = 4\nbonnus = 1", "sites[27].bonnus: unknown key"),
])
def test_mistakes_name_file_and_field(copy: Path, old: str, new: str, message: str) -> None:
    edit(copy, old, new)
    with pytest.raises(DataError) as info:
        load(copy)
    text = str(info.value)
    assert text.startswith(str(copy / "allegheny.toml") + ": ") and message in text and "\n" not in text


def test_a_broken_map_is_an_exit_2_line_on_the_command_line(copy: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    edit(copy, "second_cost = 3", "second_cost = -3")
    monkeypatch.setenv("COMPANION_MAPS", str(copy))
    assert main(["map", "allegheny", "--json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: ") and "develop.second_cost: expected 0..99, got -3" in err
    assert "Traceback" not in err
