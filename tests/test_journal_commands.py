"""`companion games`, `companion export`: the journal seen from the command line."""

from __future__ import annotations

import json

from companion.cli import main
from companion.dice import DiceRolled
from companion.journal import Entry, Journal


def test_games_and_export(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        gid = j.new_game("kansas", {"players": 4})
        j.append(gid, Entry("event", DiceRolled.of(("d8", 7))))
        j.append(gid, Entry("event", DiceRolled.of(("d8", 2))))
        j.append(gid, Entry("undo"))
    assert main(["games", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert "kansas" in out and "players=4" in out and "open" in out and "   1 events" in out
    assert main(["games", "--json", "--journal", str(path)]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert (listed["id"], listed["game"], listed["options"], listed["finished"]) == (gid, "kansas", {"players": 4},
                                                                                     False)
    assert (listed["events"], listed["entries"]) == (1, 3)  # the undo took one back; every row is kept
    out_file = tmp_path / "g.jsonl"
    assert main(["export", str(gid), "--journal", str(path), "--out", str(out_file)]) == 0
    lines = out_file.read_text().splitlines()
    assert json.loads(lines[0])["game"] == "kansas"
    assert json.loads(lines[1]) == {"dice": [["d8", 7]], "source": "manual", "type": "dice"}


def test_export_of_unknown_game_is_one_line(tmp_path, capsys):
    assert main(["export", "9", "--journal", str(tmp_path / "j.sqlite")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: no saved game 9") and err.count("\n") == 1


def test_import_of_a_broken_file_names_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "kansas", "options": {}}\n{"type": "dice", "dice": [["d8", 11]]}\n')
    assert main(["import", str(bad), "--journal", str(tmp_path / "j.sqlite")]) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl: line 2" in err and "D8" in err


def test_on_the_box_the_commands_use_the_configured_journal(tmp_path, capsys, monkeypatch):
    """With /etc/companion/config.toml present, `companion games` lists the service's games (its [journal] path)."""
    import companion.config

    served = tmp_path / "var" / "journal.sqlite3"
    config = tmp_path / "config.toml"
    config.write_text(f'[journal]\npath = "{served}"\n')
    monkeypatch.setattr(companion.config, "DEFAULT_PATH", config)
    monkeypatch.setenv("COMPANION_JOURNAL", str(tmp_path / "mine.sqlite"))
    with Journal(served) as j:
        gid = j.new_game("stormfury", {})
    assert main(["games"]) == 0
    assert "stormfury" in capsys.readouterr().out
    assert main(["export", str(gid), "--out", str(tmp_path / "g.jsonl")]) == 0
    assert main(["games", "--journal", str(tmp_path / "other.sqlite")]) == 0  # --journal still wins
    assert "no saved games" in capsys.readouterr().out
    config.write_text("[journal]\npaht = 'x'\n")
    assert main(["games"]) == 2  # a broken configuration is said, not guessed around
    assert "journal.paht: unknown key" in capsys.readouterr().err
