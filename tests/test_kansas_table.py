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


def test_kansas_from_the_menu_with_tower_and_buttons(tmp_path):
    from companion.dice import DiceRolled, DiceSource
    from companion.session import Press, Roll

    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal, dice=DiceSource(seed=2))
        s.start()
        assert s.panel.menu.items[0] == "New: Kansas"
        s.handle(Press("OK"))
        assert s.panel.menu.items == ("4", "5", "6")
        s.handle(Press("DOWN"))
        s.handle(Press("OK"))
        assert s.panel.menu.items == ("Numbers (Player 1..)", "Name each seat")
        s.handle(Press("OK"))
        assert s.current.options == {"players": 5}
        assert s.panel.prompt.text == "Tornado 1 of 4: roll a D8 for the north-south line"
        s.handle(Roll.of(DiceRolled.of(("d8", 7), source="tower")))
        s.handle(Roll.of(DiceRolled.of(("d6", 2), source="tower")))  # a D6 while a D8 is asked: refused
        assert "need D8" in s.panel.message and s.current.state.tornadoes[0].we is None
        s.handle(Press("ROLL"))  # the box rolls the west-east D8
        assert s.current.state.tornadoes[0].start is not None
        assert s.panel.prompt.dice == ("d6", "d6")


def test_the_forecast_picked_with_the_buttons_and_the_cursor(tmp_path):
    from companion.dice import DiceRolled
    from companion.session import Press, Roll

    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal)
        s.start("kansas", {"players": 4, "forecaster": 1})
        labels = [o.label for o in s.options()]
        assert labels[:3] == ["No forecast", "Tornado 1: fix north-south", "Tornado 1: fix west-east"]
        s.handle(Press("DOWN"))
        s.handle(Press("DOWN"))
        s.handle(Press("OK"))
        s.handle(Roll.of(DiceRolled.of(("d8", 7), source="tower")))
        board = s.current.game.board
        assert s.frame.cursor == board.grid[7, 1]  # the cursor sits on the first place along the line
        *moves, ok = s.presses_to(next(i for i, o in enumerate(s.options()) if o.place == board.grid[7, 3]))
        for button in moves:  # the arrows on the board, to the third place of the line
            s.handle(Press(button))
        assert s.frame.cursor == board.grid[7, 3]
        s.handle(Press(ok))
        assert s.current.state.tornadoes[0].start == board.grid[7, 3]
        assert s.panel.result[0] == "Start: Dodge City"
