"""Stormfury on the command line: cards, hurricane (seed and replay) and the risk hooks."""

from __future__ import annotations

import argparse
import json

import pytest

from companion.cli import main
from companion.games import load_game
from companion.games.stormfury import add_risk_arguments, cli_risk

TURN_KEYS = {"turn", "deck", "forecast", "drawn", "category_before", "category_after", "path", "at_sea_after",
             "damage"}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cards_json(capsys):
    code, out, _ = run(capsys, "cards", "stormfury", "--json")
    assert code == 0
    decks = json.loads(out)
    assert [c["id"] for c in decks["land"]][:2] == ["L1", "L2"]
    assert decks == load_game("stormfury").cards_json()


def test_hurricane_seed_json_shape_and_rules(capsys):
    code, out, _ = run(capsys, "hurricane", "--seed", "5", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["turns"] and set(data["turns"][0]) == TURN_KEYS
    first = data["turns"][0]
    assert first["deck"] == "ocean" and first["category_before"] == 2 and len(first["forecast"]) == 5
    assert len(first["drawn"]) == 3 and set(first["drawn"]) <= set(first["forecast"])
    assert all(set(p) == {"q", "r"} for p in first["path"])
    assert data["turns"][-1]["category_after"] == 0
    for before, after in zip(data["turns"], data["turns"][1:], strict=False):
        assert after["category_before"] == before["category_after"]
        assert after["deck"] == ("ocean" if before["at_sea_after"] else "land")
    s = data["summary"]
    assert s["ended_by"] == "dissipated" and set(s["by_kind"]) == {"infrastructure", "population", "road"}
    assert s["total"] == sum(d["amount"] for t in data["turns"] for d in t["damage"])


def test_replay_equals_the_seed_run(capsys, tmp_path):
    record = tmp_path / "run.jsonl"
    _, seeded, _ = run(capsys, "hurricane", "--seed", "9", "--json", "--record", str(record))
    lines = record.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "shuffle"
    code, replayed, _ = run(capsys, "hurricane", "--replay", str(record), "--json")
    assert code == 0 and replayed == seeded
    code, text, _ = run(capsys, "hurricane", "--replay", str(record))
    assert code == 0 and "ended: dissipated" in text


def test_replay_errors_are_one_line(capsys, tmp_path):
    record = tmp_path / "run.jsonl"
    run(capsys, "hurricane", "--seed", "9", "--record", str(record))
    lines = record.read_text().splitlines()
    cases = {
        "short.jsonl": "\n".join(lines[:2]),
        "bad.jsonl": "{not json",
        "wrong.jsonl": json.dumps({"type": "shuffle", "order": [0, 1]}),
        "extra.jsonl": "\n".join([*lines, lines[-1]]),
        "list.jsonl": "[1, 2]",
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text + "\n")
        code, _out, err = run(capsys, "hurricane", "--replay", str(path))
        assert code == 2 and err.startswith(f"companion: {path}") and err.count("\n") == 1, (name, err)


def risk_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_risk_arguments(parser)
    return parser.parse_args(list(argv))


def test_risk_hook_json(capsys):
    code = cli_risk(risk_args("--at", "5,6", "--category", "3", "--forecast", "O3,O13,O5,O9,O14", "--json"))
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["draws"] == 60
    houston = next(c for c in data["cities"] if c["id"] == "houston")
    assert 0 < houston["p_hit"] <= 1 and houston["expected_damage"] > 0
    assert {r["id"] for r in data["roads"]} >= {"houston-lake_charles"}


def test_risk_hook_text(capsys):
    assert cli_risk(risk_args("--at", "5,6", "--category", "1", "--forecast", "O3,O13,O5,O9,O14")) == 0
    out = capsys.readouterr().out
    assert out.startswith("20 equally likely draws of 2") and "Houston" in out


@pytest.mark.parametrize(("argv", "message"), [
    (("--at", "5,6", "--category", "3", "--forecast", "O3,O13,O5,O9,X1"), "unknown card id 'X1'"),
    (("--at", "5,6", "--category", "6", "--forecast", "O3,O13,O5,O9,O14"), "--category: expected 1..5"),
    (("--at", "99,99", "--category", "2", "--forecast", "O3,O13,O5,O9,O14"), "99,99 is not a hex of the board"),
    (("--at", "five", "--category", "2", "--forecast", "O3,O13,O5,O9,O14"), "--at: expected Q,R"),
    (("--at", "5,6", "--category", "2", "--forecast", "O3,O13,O5,O9"), "expected 5 different card ids, got 4"),
    (("--at", "5,6", "--category", "2", "--forecast", "O3,O13,O3,O9,O14"), "--forecast: O3 given twice"),
    (("--at", "5,6", "--category", "2", "--forecast", "O3,O13,O5,O9,L1"),
     "--forecast: a forecast is dealt from one deck, got cards from land and ocean"),
])
def test_risk_hook_refuses_bad_input(argv, message):
    from companion.errors import CompanionError

    with pytest.raises(CompanionError) as info:
        cli_risk(risk_args(*argv))
    assert message in str(info.value) and "\n" not in str(info.value)


def test_unreadable_replay_and_unwritable_record_are_one_line(capsys, tmp_path):
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    code, _out, err = run(capsys, "hurricane", "--replay", str(binary))
    assert code == 2 and err == f"companion: {binary}: line 1: not UTF-8 text (byte 0 is 0xff)\n"
    code, _out, err = run(capsys, "hurricane", "--replay", str(tmp_path))
    assert code == 2 and err == f"companion: {tmp_path}: is a folder, not a file\n" and err.count("\n") == 1
    target = tmp_path / "no such folder" / "run.jsonl"
    code, out, err = run(capsys, "hurricane", "--seed", "3", "--record", str(target))
    assert code == 2 and out == "" and err.startswith(f"companion: --record: cannot write {target}: ")
    assert err.count("\n") == 1
