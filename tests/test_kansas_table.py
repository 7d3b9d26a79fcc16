"""A whole Kansas game on the simulated table: virtual tower on a pty, mock buttons, journal, views."""

from __future__ import annotations

from companion.commands.demo import play_night
from companion.journal import Journal
from companion.session import Session
from companion.session.autoplay import ScriptedGame


def test_a_six_player_kansas_game_to_the_end_and_back_from_the_journal(tmp_path):
    path = tmp_path / "j.sqlite"
    frames = tmp_path / "frames"
    with Journal(path) as journal:
        assert play_night(journal, [ScriptedGame("kansas", {"players": 6})], seed=3, out=frames) == 0
        [game] = journal.games()
        assert game.game == "kansas" and game.finished
        session = Session(journal)
        session.resume(game)
        state = session.current.state
        assert state.phase == "over" and state.turn == 6
        assert [turn for turn, _ in state.history] == [1, 2, 3, 4, 5]
        assert [len(t) for _, t in state.history] == [4, 3, 2, 1, 1]
        sources = {e.event.source for e in journal.events(game.id) if hasattr(e.event, "source")}
        assert {"tower", "os"} <= sources  # dice from the virtual tower and from the ROLL button
    assert len(list(frames.glob("oled-*.png"))) > 40 and list(frames.glob("projector-*.png"))
