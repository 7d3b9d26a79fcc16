"""`companion run` starts any game with the options its page gives, and a game that cannot start does not stop
the box: Carcassonne with `board` and `river`, Japan with the display dealt by the box, a bad option said in one
line with the menu open (exit 0 when the table quits)."""

from __future__ import annotations

import gc
import io
import logging
import sys

from companion.cli import main
from companion.journal import Journal


def run(tmp_path, monkeypatch, *args: str) -> int:
    """One `companion run` on the simulated table until the typed "quit"; the objects it froze at READY are
    unfrozen after (a later test counting frozen objects must not see this run's)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level  # `run` puts its own handler on this test's stderr
    try:
        return main(["run", "--sim", "--headless", "--stdin", "--journal", str(tmp_path / "j.sqlite"), *args])
    finally:
        gc.unfreeze()
        gc.enable()
        root.handlers[:] = handlers
        root.setLevel(level)


def games(tmp_path):
    with Journal(tmp_path / "j.sqlite", readonly=True) as journal:
        return [(g.game, dict(g.options)) for g in journal.games()]


def test_carcassonne_takes_board_and_river(tmp_path, monkeypatch):
    assert run(tmp_path, monkeypatch, "--game", "carcassonne", "--players", "3",
               "--option", "board=cells", "--option", "river=yes") == 0
    assert games(tmp_path) == [("carcassonne", {"board": "cells", "river": "yes", "players": 3})]


def test_japan_dealt_by_the_box_starts(tmp_path, monkeypatch):
    assert run(tmp_path, monkeypatch, "--game", "industry", "--option", "map=Japan",
               "--option", "display=box") == 0
    assert games(tmp_path)[0][0] == "industry"
    assert run(tmp_path, monkeypatch) == 0  # and resumes on the next start


def test_a_game_that_cannot_start_leaves_the_box_up(tmp_path, monkeypatch, capfd):
    assert run(tmp_path, monkeypatch, "--game", "carcassonne", "--players", "9") == 0
    assert games(tmp_path) == []
    said = [line for line in capfd.readouterr().err.splitlines() if "players" in line]
    assert len(said) == 1 and "Carcassonne is for 2..6 players" in said[0]
    assert run(tmp_path, monkeypatch, "--option", "nonsense") == 2  # a malformed command line is still refused
