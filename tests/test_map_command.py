"""``companion map GAME`` speaks of each board in its own shape: hexes, a graph of locations, a laid grid."""

from __future__ import annotations

import re

from companion.cli import main


def test_a_graph_board_is_summarised_as_locations_and_links_by_name(capsys):
    assert main(["map", "allegheny"]) == 0
    out = capsys.readouterr().out
    assert re.match(r"Age of Rail: Allegheny: \d+ locations \(.*metro.*\), \d+ links \(.*rail.*\)", out)
    assert "link  Pittsburgh - " in out or " - Pittsburgh  (" in out
    assert "0 hexes" not in out and not re.search(r"\b[a-z]+_[a-z_]+\b", out)  # names, never keys


def test_a_board_laid_at_the_table_prints_the_readings_in_force(capsys):
    assert main(["map", "carcassonne"]) == 0
    out = capsys.readouterr().out
    assert "0 hexes" not in out and "reading: Tornado: 12 spaces" in out


def test_a_hex_board_is_unchanged(capsys):
    assert main(["map", "kansas"]) == 0
    assert re.match(r"Kansas Tornadoes: \d+ hexes \(", capsys.readouterr().out)
