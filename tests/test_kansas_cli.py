"""Kansas on the command line: tornado (rolls and seed), risk (kansas and stormfury), and their errors."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.games.kansas import load

TEXT_EXAMPLE = ["7", "3", "4", "3", "1", "2", "1", "5", "5", "6"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_tornado_json_for_the_rule_texts_example(capsys):
    code, out, _ = run(capsys, "tornado", "--players", "4", "--turn", "7", "--rolls", *TEXT_EXAMPLE, "--json")
    assert code == 0
    data = json.loads(out)
    assert len(data["tornadoes"]) == 1
    t = data["tornadoes"][0]
    dodge = next(g for g in load().map_json()["grid"] if (g["ns"], g["we"]) == (7, 3))
    assert t["start"] == {"ns": 7, "we": 3, "q": dodge["q"], "r": dodge["r"], "name": "Dodge City"}
    assert [(m["dice"], m["sum"], m["direction"], m["rerolled"]) for m in t["moves"]] == [
        ([4, 3], 7, "NE", False), ([1, 2], 3, "N", False), ([1, 5], 6, "NE", False), ([5, 6], 11, "S", False)]
    assert t["markers"][0] == {"q": dodge["q"], "r": dodge["r"]}
    assert t["markers"][1:] == [{"q": m["q"], "r": m["r"]} for m in t["moves"]]


def test_tornado_rerolls_are_listed_and_consume_dice(capsys):
    # north-south 1, west-east 1: the northern edge, where 3 (N) points off the map
    rolls = ["1", "1", "1", "2", "4", "5", "4", "5", "4", "5", "4", "5"]
    code, out, _ = run(capsys, "tornado", "--players", "4", "--turn", "7", "--rolls", *rolls, "--json")
    assert code == 0
    moves = json.loads(out)["tornadoes"][0]["moves"]
    assert [m["rerolled"] for m in moves] == [True, False, False, False, False]
    assert len(json.loads(out)["tornadoes"][0]["markers"]) == 5


def test_tornado_seed_is_repeatable_and_readable(capsys):
    code, first, _ = run(capsys, "tornado", "--players", "5", "--turn", "1", "--seed", "4", "--json")
    assert code == 0 and len(json.loads(first)["tornadoes"]) == 4
    assert run(capsys, "tornado", "--players", "5", "--turn", "1", "--seed", "4", "--json")[1] == first
    code, text, _ = run(capsys, "tornado", "--players", "4", "--turn", "7", "--rolls", *TEXT_EXAMPLE)
    assert code == 0 and "Tornado 1: north-south 7, west-east 3 -> starts at Dodge City" in text
    assert "4+3=7  NE  move 1" in text


def test_last_turn_has_no_tornadoes(capsys):
    code, out, _ = run(capsys, "tornado", "--players", "6", "--turn", "6", "--seed", "1", "--json")
    assert code == 0 and json.loads(out) == {"tornadoes": []}


@pytest.mark.parametrize(("argv", "message"), [
    (["--players", "4", "--turn", "7", "--rolls", "9", "3"], "--rolls: value 1 (9) is not a D8 face (1-8)"),
    (["--players", "4", "--turn", "7", "--rolls", "7", "3", "0", "3"], "--rolls: value 3 (0) is not a D6 face"),
    (["--players", "4", "--turn", "7", "--rolls", "7", "3", "4"], "--rolls: too few values (3 given): Tornado 1"),
    (["--players", "7", "--turn", "1", "--seed", "1"], "players: Kansas Tornadoes is for 4, 5, 6 players, got 7"),
    (["--players", "4", "--turn", "9", "--seed", "1"], "turn: a 4-player game has turns 1..8, got 9"),
    (["--players", "4", "--turn", "7", "--rolls", *TEXT_EXAMPLE, "2"], "--rolls: 1 value(s) left over"),
])
def test_tornado_errors_are_one_line_exit_2(capsys, argv, message):
    code, out, err = run(capsys, "tornado", *argv)
    assert code == 2 and out == ""
    assert err.startswith("companion: ") and message in err and err.count("\n") == 1


def test_risk_kansas_json_covers_every_hex(capsys):
    code, out, _ = run(capsys, "risk", "kansas", "--players", "4", "--turn", "2", "--json")
    assert code == 0
    data = json.loads(out)
    board = load().board
    assert {(h["q"], h["r"]) for h in data["hexes"]} == {(h.q, h.r) for h in board.terrain}
    assert all(set(h) == {"q", "r", "p_hit", "expected_markers"} for h in data["hexes"])
    assert sum(h["expected_markers"] for h in data["hexes"]) == pytest.approx(3 * 5)
    assert all(0 <= h["p_hit"] <= 1 for h in data["hexes"])


def test_risk_kansas_forecast_ranks_choices_and_text_names_places(capsys):
    code, out, _ = run(capsys, "risk", "kansas", "--players", "4", "--turn", "1", "--forecast", "--json")
    assert code == 0
    ranked = json.loads(out)["forecast"]
    assert len(ranked) == 16
    lines = json.loads(out)["forecast_lines"]
    assert {o["line"] for o in lines} == {"ns", "we"} and set(lines[0]) == {"line", "expected_markers_on_places",
                                                                          "best_place_by_roll"}
    assert lines[0]["expected_markers_on_places"] <= lines[1]["expected_markers_on_places"]
    assert list(lines[0]["best_place_by_roll"]) == [str(v) for v in range(1, 9)]
    assert lines[0]["expected_markers_on_places"] <= ranked[0]["expected_markers_on_places"] + 1e-9
    assert [o["expected_markers_on_places"] for o in ranked] == sorted(o["expected_markers_on_places"]
                                                                       for o in ranked)
    code, text, _ = run(capsys, "risk", "kansas", "--players", "4", "--turn", "1")
    assert code == 0 and "Dodge City" in text and "p_hit" in text
    code, text, _ = run(capsys, "risk", "kansas", "--players", "4", "--turn", "1", "--forecast")
    assert code == 0 and "forecast the west-east line, place picked after the roll: " in text


def test_risk_kansas_bad_players_exit_2(capsys):
    code, _, err = run(capsys, "risk", "kansas", "--players", "2", "--turn", "1")
    assert code == 2 and "players: Kansas Tornadoes is for 4, 5, 6 players, got 2" in err


def test_risk_stormfury_goes_through_the_same_command(capsys):
    cards = load_stormfury_forecast()
    code, out, _ = run(capsys, "risk", "stormfury", "--at", cards[0], "--category", "2", "--forecast", cards[1],
                       "--json")
    assert code == 0 and "cities" in json.loads(out)
    code, _, err = run(capsys, "risk", "stormfury", "--at", cards[0], "--category", "9", "--forecast", cards[1])
    assert code == 2 and "--category: expected 1..5" in err


def load_stormfury_forecast() -> tuple[str, str]:
    from companion.games import load_game

    game = load_game("stormfury")
    start = game.board.start
    return f"{start.q},{start.r}", ",".join(c.id for c in game.board.decks["ocean"][:5])


def test_map_stormfury_json(capsys):
    code, out, _ = run(capsys, "map", "stormfury", "--json")
    assert code == 0 and json.loads(out)


def test_kansas_has_no_cards_and_says_so(capsys):
    code, _, err = run(capsys, "cards", "kansas")
    assert code == 2 and err == "companion: kansas has no card decks\n"
    code, out, _ = run(capsys, "map", "kansas")
    assert code == 0 and "Dodge City" in out and "path key: 2=NW 3=N" in out
