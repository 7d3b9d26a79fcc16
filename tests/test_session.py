"""The session driven event by event, without threads, against a small game keeping the Game contract."""

from __future__ import annotations

import queue
from dataclasses import dataclass, replace

import pytest

from companion.dice import Choice, DiceRolled, DiceSource, Prompt, Shuffled, take_dice
from companion.errors import RuleError
from companion.games.base import Option
from companion.hexgrid import Hex
from companion.journal import Journal
from companion.session import Hold, Notice, Press, Quit, Roll, Session, SourceStatus
from companion.session.loop import Loop


@dataclass(frozen=True)
class Race:
    """A little race: roll a D8 to start, 2D6 to move, choose a lane, shuffle; three laps then done."""

    lap: int = 0
    step: str = "start"
    pos: int = 0
    lane: str = ""
    log: tuple[str, ...] = ()


class RaceGame:
    key = "race"
    title = "Race"

    def new_game(self, options):
        if options.get("players", 2) not in (2, 3):
            raise RuleError("2 or 3 players")
        return Race()

    def prompt(self, s):
        if s.lap >= 3:
            return Prompt("Race over", "Over", done=True)
        if s.step == "start":
            return Prompt(f"Lap {s.lap + 1}: roll a D8 to start", "Roll D8", dice=("d8",))
        if s.step == "move":
            return Prompt("Roll 2D6 to move", "Roll 2D6", dice=("d6", "d6"))
        if s.step == "lane":
            return Prompt("Choose a lane", "Lane?", actions=("lane",))
        return Prompt("Shuffle 3", "Shuffle", shuffle=3)

    def choices(self, s):
        return [Option.of("lane inner 0 0", Choice("lane", {"name": "inner", "q": 0, "r": 0})),
                Option.of("lane outer 1 0", Choice("lane", {"name": "outer", "q": 1, "r": 0}))]

    def apply(self, s, event):
        p = self.prompt(s)
        if p.dice:
            dice = take_dice(event, p.dice)
            total = sum(d.value for d in dice)
            nxt = "move" if s.step == "start" else "lane"
            return replace(s, step=nxt, pos=s.pos + total, log=(*s.log, f"+{total}"))
        if p.actions:
            if not isinstance(event, Choice) or event.action != "lane":
                raise RuleError("choose a lane")
            return replace(s, step="shuffle", lane=event.args["name"], log=(*s.log, event.args["name"]))
        if p.shuffle:
            if not isinstance(event, Shuffled) or len(event.order) != 3:
                raise RuleError("shuffle 3")
            return replace(s, step="start", lap=s.lap + 1, log=(*s.log, "shuffled"))
        raise RuleError("game over")

    def status(self, s):
        return f"Lap {s.lap + 1} - {s.step}"

    def recap(self, s):
        return s.log[-2:]

    def risk_map(self, s):
        return {Hex(0, 0): 0.5}


def loader(key, maps):
    return RaceGame()


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def make(journal, **kw):
    s = Session(journal, loader=loader, game_keys=("race",), dice=DiceSource(seed=1), **kw)
    return s


def roll(*pairs, source="tower"):
    return Roll.of(DiceRolled.of(*pairs, source=source))


def test_a_roll_is_journaled_before_the_panel_shows_it(journal):
    s = make(journal)
    s.start("race", {"players": 2})
    assert s.panel.prompt.dice == ("d8",)
    assert s.handle(roll(("d8", 5)))
    assert [x.event for x in journal.events(s.current.game_id)] == [DiceRolled.of(("d8", 5), source="tower")]
    assert s.panel.dice[0].value == 5 and s.panel.prompt.dice == ("d6", "d6")


def test_wrong_kind_is_refused_and_changes_nothing(journal):
    s = make(journal)
    s.start("race", {})
    s.handle(roll(("d6", 3)))
    assert s.panel.message == "need D8, got D6=3"
    assert s.current.state == Race() and journal.events(s.current.game_id) == []


def test_extra_dice_never_spill_into_the_next_request(journal):
    s = make(journal)
    s.start("race", {})
    s.handle(roll(("d8", 2), ("d8", 7), ("d6", 4)))
    assert s.current.state.pos == 2
    assert "extra ignored: D8=7" in s.panel.message and "refused D6=4" in s.panel.message
    assert s.panel.prompt.dice == ("d6", "d6") and s.panel.dice == (s.current.live[-1].event.dice)


def test_dice_appear_as_they_arrive(journal):
    s = make(journal)
    s.start("race", {})
    s.handle(roll(("d8", 1)))
    s.handle(roll(("d6", 6)))
    assert [d.value for d in s.panel.dice] == [6] and s.current.state.step == "move"
    s.handle(roll(("d6", 2)))
    assert s.current.state.pos == 9 and s.current.state.step == "lane"


def test_roll_button_uses_the_dice_source_and_typed_entry_works(journal):
    s = make(journal)
    s.start("race", {})
    s.handle(Press("UP"))
    s.handle(Press("UP"))
    assert "D8=2" in s.panel.message
    s.handle(Press("OK"))
    assert s.current.live[-1].event == DiceRolled.of(("d8", 2), source="typed")
    s.handle(Press("ROLL"))
    assert s.current.state.step == "lane" and s.current.live[-1].event.source == "seed"


def test_choice_by_cursor_and_ok_then_shuffle_by_roll(journal):
    s = make(journal)
    s.start("race", {})
    s.handle(roll(("d8", 1)))
    s.handle(roll(("d6", 1), ("d6", 1)))
    assert s.panel.menu.items == ("lane inner 0 0", "lane outer 1 0")
    assert s.frame.cursor == Hex(0, 0)
    s.handle(Press("RIGHT"))
    assert s.frame.cursor == Hex(1, 0) and s.panel.menu.selected == 1
    s.handle(roll(("d8", 3)))
    assert "not waiting for dice" in s.panel.message
    s.handle(Press("OK"))
    assert s.current.state.lane == "outer"
    s.handle(Press("ROLL"))
    assert s.current.state.lap == 1 and isinstance(s.current.live[-1].event, Shuffled)


def test_undo_asks_first_and_is_journaled(journal):
    s = make(journal)
    s.start("race", {})
    s.handle(roll(("d8", 4)))
    s.handle(Hold("BACK"))
    assert s.panel.menu.title == "Undo last?" and s.current.state.pos == 4
    s.handle(Press("BACK"))
    assert s.panel.menu is None and s.current.state.pos == 4
    s.handle(Hold("BACK"))
    s.handle(Press("OK"))
    assert s.current.state == Race()
    assert [e.kind for e in journal.entries(s.current.game_id)] == ["event", "undo"]


def test_reroll_asks_first_replaces_the_roll_and_is_marked(journal):
    s = make(journal)
    s.start("race", {})
    s.handle(roll(("d8", 4)))
    s.handle(Hold("ROLL"))
    assert s.panel.menu.title == "Re-roll last?"
    s.handle(Press("OK"))
    assert s.panel.prompt.dice == ("d8",) and s.current.state.pos == 4
    s.handle(roll(("d8", 7)))
    assert s.current.state.pos == 7 and s.current.state.step == "move"
    assert s.panel.rerolled == (True,) and s.panel.dice[0].value == 7
    assert [e.kind for e in journal.entries(s.current.game_id)] == ["event", "reroll"]


def test_resume_replays_the_journal_to_the_same_state(journal, tmp_path):
    s = make(journal)
    s.start("race", {})
    for ev in (roll(("d8", 4)), roll(("d6", 2), ("d6", 3)), Press("DOWN"), Press("OK")):
        s.handle(ev)
    shown = s.panel
    again = make(journal)
    again.start()
    assert again.current.state == s.current.state and again.panel == shown


def test_menu_new_game_with_setup_questions(journal):
    RaceGame.setup_questions = lambda self: [("players", "players", (2, 3))]
    try:
        s = make(journal)
        s.start()
        assert s.panel.menu.items == ("New: Race", "Help: buttons, keys")
        s.handle(Press("OK"))
        assert s.panel.menu.items == ("2", "3")
        s.handle(Press("DOWN"))
        s.handle(Press("OK"))
        assert s.current.options == {"players": 3} and s.panel.menu is None
    finally:
        del RaceGame.setup_questions


def test_whole_game_to_the_end_marks_it_finished(journal):
    s = make(journal)
    s.start("race", {})
    for _ in range(3):
        s.handle(Press("ROLL"))
        s.handle(Press("ROLL"))
        s.handle(Press("OK"))
        s.handle(Press("ROLL"))
    assert s.panel.prompt.done
    assert journal.games()[0].finished and journal.last_unfinished() is None
    s.handle(Press("OK"))
    assert s.panel.menu.title == "Menu"


def test_tower_state_and_notices_show_inline(journal):
    s = make(journal)
    s.start("race", {})
    assert s.handle(SourceStatus("tower", "connected"))
    assert s.panel.tower == "connected"
    s.handle(Notice("projector: no display"))
    s.handle(Notice("projector: no display"))
    assert s.panel.notices == ("projector: no display",)
    assert not s.handle(SourceStatus("tower", "connected"))


class Recorder:
    def __init__(self):
        self.frames = []

    def show(self, frame):
        self.frames.append(frame)


class Broken:
    def show(self, frame):
        raise OSError("I2C bus gone")


def test_loop_shows_only_on_change_and_pings_the_watchdog(journal):
    s = make(journal)
    s.start("race", {})
    inbox = queue.Queue()
    rec = Recorder()
    pings = []
    loop = Loop(s, inbox, [rec, Broken()], watchdog=lambda: pings.append(1), tick=0.01)
    loop.show()
    assert "Broken: off (I2C bus gone)" in s.notices[0]
    assert len(rec.frames) == 2 and rec.frames[-1].panel.message == s.notices[0]  # the views left are told
    loop.step(timeout=0)
    assert len(rec.frames) == 2 and pings
    inbox.put(roll(("d8", 3)))
    inbox.put(roll(("d6", 1), ("d6", 2)))
    loop.step()
    assert len(rec.frames) == 3 and rec.frames[-1].state.step == "lane"
    inbox.put(Quit())
    assert loop.run() == 0


class InboxDriver:
    """Puts the player's actions straight on the queue (the sim table uses the pty and the pins)."""

    def __init__(self, inbox):
        self.inbox = inbox

    def throw(self, dice):
        self.inbox.put(Roll.of(dice))

    def press(self, button):
        self.inbox.put(Press(button))

    def hold(self, button):
        self.inbox.put(Hold(button))


def test_autoplayer_plays_a_night_with_undos(journal):
    from companion.session.autoplay import AutoPlayer, ScriptedGame

    s = make(journal)
    s.start(resume=False)
    inbox = queue.Queue()
    loop = Loop(s, inbox, [Recorder()], tick=0.01)
    player = AutoPlayer(s, InboxDriver(inbox), [ScriptedGame("race"), ScriptedGame("race", max_events=4)],
                        seed=3, undo_every=5)
    while not player.done:
        player.act()
        if player.awaiting:
            assert loop.step(timeout=1)
    games = journal.games()
    assert [g.finished for g in games] == [False, True]
    assert any(e.kind == "undo" for e in journal.entries(games[1].id))
    assert len(journal.events(games[0].id)) == 4


def test_full_disk_game_goes_on_says_so_and_catches_up(journal):
    """SQLite's page limit gives the real SQLITE_FULL error mid-game."""
    s = make(journal)
    s.start("race", {})
    s.handle(roll(("d8", 4)))
    journal._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count={pages}")
    for _ in range(40):  # fill the last free pages, then the box is full
        s.handle(Press("ROLL"))
        s.handle(Press("OK"))
        s.handle(Press("ROLL"))
        if journal.degraded:
            break
    assert journal.degraded and "journal: disk full, game kept in memory" in s.panel.notices
    s.handle(Press("ROLL"))  # the game goes on in memory
    assert s.panel.message == "disk full: not saved"  # the OLED's footer says it on every screen
    from companion.views.oled import render

    assert render(s.panel).tobytes() != render(replace(s.panel, message="")).tobytes()
    live = list(s.current.live)
    journal._db.execute("PRAGMA max_page_count=1000000")
    assert s.tick()
    assert "journal: disk full, game kept in memory" not in s.panel.notices and not journal.degraded
    assert s.panel.message == ""
    assert journal.events(s.current.game_id) == live


def test_a_journal_that_refuses_writes_does_not_stop_the_game(journal):
    """A card remounted read-only mid-game (SQLite's query_only gives the same refusal): every roll is still
    taken and shown, the panel says the journal is not being saved, and the history catches up in order."""
    s = make(journal)
    s.start("race", {})
    s.handle(roll(("d8", 4)))
    journal._db.execute("PRAGMA query_only=ON")
    s.handle(roll(("d6", 2), ("d6", 3)))
    s.handle(Press("OK"))
    assert s.current.state.pos == 9 and s.current.state.lane == "inner"
    assert s.panel.notices == ("journal: cannot write (attempt to write a readonly database), game kept in memory",)
    assert s.panel.message == "journal: not saved"
    s.tick()  # the retry is refused too: still in memory, still said
    assert journal.degraded and len(s.panel.notices) == 1
    journal._db.execute("PRAGMA query_only=OFF")
    assert s.tick() and s.panel.notices == () and not journal.degraded
    again = make(journal)
    again.start()
    assert again.current.state == s.current.state


def test_undo_of_the_last_event_reopens_a_finished_game_for_resume(journal):
    s = make(journal)
    s.start("race", {})
    for _ in range(3):
        for button in ("ROLL", "ROLL", "OK", "ROLL"):
            s.handle(Press(button))
    assert journal.games()[0].finished and journal.last_unfinished() is None
    s.handle(Hold("BACK"))
    s.handle(Press("OK"))
    assert not s.panel.prompt.done and s.panel.prompt.shuffle == 3
    assert journal.last_unfinished().id == s.current.game_id  # a restart now resumes it
    again = make(journal)
    again.start()
    assert again.current.game_id == s.current.game_id and again.current.state == s.current.state
    again.handle(Press("ROLL"))
    assert again.panel.prompt.done and journal.games()[0].finished


def test_reroll_is_not_offered_when_the_last_event_is_not_a_roll(journal):
    s = make(journal)
    s.start("race", {})
    s.handle(Hold("ROLL"))
    assert s.panel.menu is None and "nothing to re-roll" in s.panel.message
    for button in ("ROLL", "ROLL", "OK"):  # D8, 2D6, then a lane: the last event is a choice
        s.handle(Press(button))
    s.handle(Hold("ROLL"))
    assert s.panel.menu is None and "not a roll" in s.panel.message
    assert [e.kind for e in journal.entries(s.current.game_id)] == ["event"] * 3


def test_the_tower_arriving_is_logged_once_and_again_only_after_it_was_away(journal, caplog):
    import logging

    s = make(journal)
    s.start("race", {})
    with caplog.at_level(logging.INFO, logger="companion.session"):
        for state in ("waiting", "connected", "rolling", "connected", "waiting", "connected", "away", "waiting",
                      "connected", "mismatch", "mismatch"):
            s.handle(SourceStatus("tower", state, "firmware 1.0" if state == "connected" else ""))
    assert [r.getMessage() for r in caplog.records] == ["tower connected (firmware 1.0)", "tower back (firmware 1.0)",
                                                        "tower refused"]
    assert s.panel.tower == "mismatch"


def test_the_scripted_player_refuses_a_box_that_does_not_show_what_it_wants(journal):
    """The whole-game tests play through AutoPlayer; it answers only what the panel shows, so a need the
    OLED does not state fails them."""
    from companion.session.autoplay import AutoPlayer, ScriptedGame

    class Mute(Session):
        @property
        def panel(self):
            return replace(super().panel, prompt=None)

    s = Mute(journal, loader=loader, game_keys=("race",), dice=DiceSource(seed=1))
    s.start(resume=False)
    player = AutoPlayer(s, InboxDriver(queue.Queue()), [ScriptedGame("race")])
    player.act()  # starts the game
    with pytest.raises(RuntimeError, match="shows no prompt"):
        player.act()


def test_an_undo_while_a_reroll_is_armed_takes_the_reroll_back_too(journal):
    s = make(journal)
    s.start("race", {})
    s.handle(roll(("d8", 4)))
    s.handle(Hold("ROLL"))
    s.handle(Press("OK"))  # re-roll armed: the next D8 would replace the 4
    s.handle(Hold("BACK"))
    s.handle(Press("OK"))  # undo instead
    assert s.current.live == [] and s.panel.prompt.text == "Lap 1: roll a D8 to start"
    s.handle(roll(("d8", 6)))
    assert [e.kind for e in journal.entries(s.current.game_id)] == ["event", "undo", "event"]
    assert s.current.live[-1].rerolled is False and s.current.state.pos == 6


def test_the_loop_counts_player_inputs_even_when_nothing_shown_changes(journal):
    """A script waits for its input to be taken, not for a new frame: the same refusal twice draws nothing new."""
    s = make(journal)
    s.start("race", {})
    inbox = queue.Queue()
    loop = Loop(s, inbox, [Recorder()], tick=0.01)
    inbox.put(roll(("d6", 3)))  # refused: a D8 is wanted
    assert loop.step(timeout=1) and loop.player_inputs == 1
    inbox.put(roll(("d6", 3)))  # the same refusal: the panel is as it was
    assert not loop.step(timeout=1) and loop.player_inputs == 2
    inbox.put(SourceStatus("tower", "connected"))  # the tower's state is no player's input
    loop.step(timeout=1)
    assert loop.player_inputs == 2


def test_every_frame_a_view_gets_is_already_committed_to_the_journal_file(journal):
    """Checked from the view itself, through a second connection to the file: only committed rows are visible
    there, so whatever a screen draws survives a power cut."""
    import sqlite3

    seen: list[int] = []

    class Witness:
        def show(self, frame):
            with sqlite3.connect(journal.path) as other:
                seen.append(other.execute("SELECT COUNT(*) FROM entries").fetchone()[0])

    s = make(journal)
    s.start("race", {})
    inbox = queue.Queue()
    loop = Loop(s, inbox, [Witness()], tick=0.01)
    loop.show()
    for item in (roll(("d8", 4)), roll(("d6", 2), ("d6", 3)), Press("OK"), Hold("BACK"), Press("OK")):
        inbox.put(item)
        loop.step(timeout=1)
    assert seen == [0, 1, 2, 3, 3, 4]  # the undo's question is drawn before its row exists; the undo after it
    assert [e.kind for e in journal.entries(s.current.game_id)] == ["event", "event", "event", "undo"]


def test_a_journal_kept_aside_at_start_is_said_on_the_oled_until_the_first_input(tmp_path):
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"not a database, a shopping list" * 200)
    with Journal(path) as j:
        s = make(j)
        s.start()
        assert s.panel.message == "old journal kept aside" and "kept as" in s.panel.notices[0]
        s.handle(Press("DOWN"))
        assert s.panel.message == "" and "kept as" in s.panel.notices[0]  # the map's status strip keeps it
