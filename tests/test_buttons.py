"""Buttons on gpiozero's MockFactory: presses, our debounce, holds, keys, and the pins driving the real session."""

from __future__ import annotations

import queue
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.inputs import Hold, Press
from hardware.buttons import BUTTON_NAMES, ButtonPins, Buttons
from hardware.keys import KEYMAP, KeyboardButtons


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now

    def advance_ms(self, ms: float) -> None:
        self.now += ms / 1000


def drain(events: queue.Queue) -> list:
    out = []
    while True:
        try:
            out.append(events.get_nowait())
        except queue.Empty:
            return out


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def buttons(mock_factory, clock):
    with Buttons(bounce_ms=30, hold_time=0.05, clock=clock) as b:
        yield b


def test_default_pins_avoid_i2c_spi_and_oled_control_pins():
    pins = [bcm for _, bcm in ButtonPins().items()]
    assert len(set(pins)) == len(pins) == 7
    assert not set(pins) & {2, 3, 7, 8, 9, 10, 11, 24, 25}
    assert BUTTON_NAMES == ("ROLL", "UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")


def test_each_press_is_one_event(mock_factory, buttons, clock):
    for _name, bcm in ButtonPins().items():
        pin = mock_factory.pin(bcm)
        pin.drive_low()
        clock.advance_ms(100)
        pin.drive_high()
        clock.advance_ms(100)
    got = drain(buttons.events)
    assert [e.button for e in got] == list(BUTTON_NAMES)
    assert all(isinstance(e, Press) for e in got)


def test_bounce_within_window_is_ignored(mock_factory, buttons, clock):
    pin = mock_factory.pin(ButtonPins().roll)
    pin.drive_low()             # accepted press
    for _ in range(3):          # contact chatter 2 ms apart
        clock.advance_ms(2)
        pin.drive_high()
        clock.advance_ms(2)
        pin.drive_low()
    clock.advance_ms(200)
    pin.drive_high()            # the real release
    clock.advance_ms(3)
    pin.drive_low()             # release bounce: no phantom press
    clock.advance_ms(3)
    pin.drive_high()
    assert drain(buttons.events) == [Press("ROLL")]
    assert buttons.ignored >= 6


def test_separate_presses_after_the_window_count_twice(mock_factory, buttons, clock):
    pin = mock_factory.pin(ButtonPins().roll)
    pin.drive_low()
    clock.advance_ms(40)
    pin.drive_high()
    clock.advance_ms(40)
    pin.drive_low()
    assert [e.button for e in drain(buttons.events)] == ["ROLL", "ROLL"]


def test_holding_back_emits_a_hold(mock_factory, buttons, clock):
    pin = mock_factory.pin(ButtonPins().back)
    pin.drive_low()
    hold = buttons.events.get(timeout=5)  # the hold timer, in real time; no press came first
    assert hold == Hold("BACK")
    clock.advance_ms(100)
    pin.drive_high()
    assert buttons.events.empty()  # a held button's release is not a press


def test_only_back_holds(mock_factory, buttons, clock):
    # a long ROLL press makes no hold event; BACK's hold proves the hold timers ran meanwhile
    roll, back = mock_factory.pin(ButtonPins().roll), mock_factory.pin(ButtonPins().back)
    roll.drive_low()
    back.drive_low()
    seen = [buttons.events.get(timeout=2), buttons.events.get(timeout=5)]
    assert Hold("BACK") in seen
    assert [e for e in seen if isinstance(e, Hold) and e.button != "BACK"] == []
    assert buttons.events.empty()


def test_keyboard_drives_the_mock_pins(mock_factory, buttons, clock):
    keys = KeyboardButtons(mock_factory)
    assert keys.key_down("space") and keys.key_up("space")
    clock.advance_ms(50)
    assert keys.key_down("Return") and keys.key_up("Return")
    clock.advance_ms(50)
    assert not keys.key_down("q")
    keys.press("LEFT")
    keys.release("LEFT")
    assert [e.button for e in drain(buttons.events)] == ["ROLL", "OK", "LEFT"]
    assert set(KEYMAP.values()) == set(BUTTON_NAMES)


def test_custom_pins_and_queue(mock_factory, clock):
    events: queue.Queue = queue.Queue()
    pins = ButtonPins(roll=4)
    with Buttons(pins, events, clock=clock) as b:
        KeyboardButtons(mock_factory, pins).press("ROLL")
        assert b.events is events
        assert events.get(timeout=2).button == "ROLL"


# -- the pins into the real session: what a player at the box gets --------------------------------------------

def _session(tmp_path):
    from companion.journal import Journal
    from companion.session import Session

    journal = Journal(tmp_path / "journal.sqlite")
    session = Session(journal)
    session.start("kansas", {"players": 4, "turn": 2}, resume=False)
    return journal, session


def _handle_all(session, events: queue.Queue) -> list:
    taken = drain(events)
    for item in taken:
        session.handle(item)
    return taken


def test_back_held_on_its_pin_asks_before_it_undoes(mock_factory, buttons, clock, tmp_path):
    journal, session = _session(tmp_path)
    with journal:
        roll, back, ok = (mock_factory.pin(bcm) for bcm in (ButtonPins().roll, ButtonPins().back, ButtonPins().ok))
        roll.drive_low()
        clock.advance_ms(100)
        roll.drive_high()
        clock.advance_ms(100)
        _handle_all(session, buttons.events)
        # drawn by the session's DiceSource(): the OS generator (a seeded one would say "seed")
        assert len(session.current.live) == 1 and session.current.live[0].event.source == "os"

        back.drive_low()  # held: the press edge now, the hold from its hold timer
        hold = buttons.events.get(timeout=5)
        while not isinstance(hold, Hold):
            session.handle(hold)
            hold = buttons.events.get(timeout=5)
        session.handle(hold)
        clock.advance_ms(2000)
        back.drive_high()
        _handle_all(session, buttons.events)
        assert session.panel.menu is not None and session.panel.menu.title == "Undo last?"
        assert len(session.current.live) == 1  # asked, nothing undone yet

        clock.advance_ms(100)
        ok.drive_low()
        clock.advance_ms(100)
        ok.drive_high()
        _handle_all(session, buttons.events)
        assert session.current.live == [] and session.panel.menu is None


def test_chatter_on_the_roll_pin_rolls_once_and_a_press_with_nothing_asked_rolls_nothing(
        mock_factory, buttons, clock, tmp_path):
    journal, session = _session(tmp_path)
    with journal:
        pin = mock_factory.pin(ButtonPins().roll)
        pin.drive_low()
        for _ in range(4):  # contact chatter, 3 ms apart: one press
            clock.advance_ms(3)
            pin.drive_high()
            clock.advance_ms(3)
            pin.drive_low()
        clock.advance_ms(200)
        pin.drive_high()
        _handle_all(session, buttons.events)
        assert len(session.current.live) == 1

        session.handle(Press("BACK"))  # the menu is open: nothing is asked
        assert session.panel.menu is not None
        clock.advance_ms(200)
        pin.drive_low()
        clock.advance_ms(200)
        pin.drive_high()
        assert [e.button for e in _handle_all(session, buttons.events)] == ["ROLL"]
        assert len(session.current.live) == 1  # the press reached the session and rolled nothing


# A press as a player makes it: a quiet gap, contact chatter after the press edge, a hold, chatter after the
# release edge. Chatter flips are 1-4 ms apart and end within the 30 ms window; holds and gaps outlast it.
CHATTER = st.lists(st.integers(1, 4), max_size=6).filter(lambda flips: sum(flips) < 30)
PRESS = st.tuples(st.integers(31, 400), CHATTER, st.integers(31, 800), CHATTER)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(PRESS, min_size=1, max_size=6))
def test_any_chattering_presses_count_once_each(mock_factory, buttons, clock, presses) -> None:
    """Our debounce on an injected clock: however the contacts chatter, n presses give n Press.
    (One Buttons for every example: each starts a quiet second after the last, with the pin released.)"""
    drain(buttons.events)
    clock.advance_ms(1000)
    pin = mock_factory.pin(ButtonPins().ok)
    assert pin.state  # released (pulled up)
    level_low = False

    def flip() -> None:
        nonlocal level_low
        level_low = not level_low
        (pin.drive_low if level_low else pin.drive_high)()

    for gap, press_chatter, hold, release_chatter in presses:
        clock.advance_ms(gap)
        flip()  # the press edge
        for ms in press_chatter:
            clock.advance_ms(ms)
            flip()
        if not level_low:  # the chatter ended open: the contact settles closed
            clock.advance_ms(1)
            flip()
        clock.advance_ms(hold)
        flip()  # the release edge
        for ms in release_chatter:
            clock.advance_ms(ms)
            flip()
        if level_low:
            clock.advance_ms(1)
            flip()
    got = drain(buttons.events)
    assert got == [Press("OK") for e in got] and len(got) == len(presses)


def test_an_idle_box_runs_no_thread_for_its_buttons_and_a_held_button_one_timer(mock_factory, clock):
    """gpiozero's Button polls for holds on its own thread (ten wake-ups a second, held or not); the buttons
    time a hold with one timer started on the press edge instead, so an idle box pays nothing for them."""
    from gpiozero.mixins import HoldThread

    before = set(threading.enumerate())
    with Buttons(hold_names=("BACK", "ROLL"), hold_time=60, clock=clock) as b:
        assert set(threading.enumerate()) == before  # nothing polls while no button is down
        up, back = mock_factory.pin(ButtonPins().up), mock_factory.pin(ButtonPins().back)
        up.drive_low()  # a plain input gives its press on the edge, with no timer
        assert set(threading.enumerate()) == before
        clock.advance_ms(100)
        up.drive_high()
        back.drive_low()
        timers = [t for t in threading.enumerate() if t not in before]
        assert len(timers) == 1 and not isinstance(timers[0], HoldThread)  # one timer, for the button held down
        clock.advance_ms(100)
        back.drive_high()  # released before its hold time: the timer is cancelled, and the release is a press
        timers[0].join(timeout=5)
        assert not timers[0].is_alive()
        assert drain(b.events) == [Press("UP"), Press("BACK")]
    assert set(threading.enumerate()) == before


def test_a_release_dropped_as_bounce_leaves_no_hold(mock_factory, clock):
    """A tap shorter than the debounce window: its release edge is dropped, yet the button is not down when
    the hold time is up, so no Hold (gpiozero's hold, which reads the pin, behaved the same)."""
    with Buttons(bounce_ms=30, hold_time=0.3, clock=clock) as b:
        back, ok = mock_factory.pin(ButtonPins().back), mock_factory.pin(ButtonPins().ok)
        back.drive_low()
        [timer] = [t for t in threading.enumerate() if t.name == "hold BACK"]
        clock.advance_ms(5)
        back.drive_high()  # within the window: dropped
        timer.join(timeout=5)  # the hold time is up
        clock.advance_ms(100)
        ok.drive_low()  # a later press is still seen, and nothing came before it
        assert drain(b.events) == [Press("OK")]


def test_holding_roll_while_dice_are_asked_journals_nothing_until_the_re_roll_question_is_answered(
        mock_factory, clock, tmp_path):
    """A held ROLL sends only its Hold: no roll first, then "Re-roll last?" about the roll before it."""
    with Buttons(bounce_ms=30, hold_time=0.05, clock=clock, hold_names=("BACK", "ROLL", "RIGHT")) as buttons:
        journal, session = _session(tmp_path)
        with journal:
            roll, ok = mock_factory.pin(ButtonPins().roll), mock_factory.pin(ButtonPins().ok)
            roll.drive_low()  # a short press: one roll, on release
            clock.advance_ms(100)
            assert buttons.events.empty()
            roll.drive_high()
            assert _handle_all(session, buttons.events) == [Press("ROLL")]
            assert len(session.current.live) == 1 and session.wanted()  # the next request is open
            entries = journal.entries(session.current.game_id)

            clock.advance_ms(100)
            roll.drive_low()  # held past its hold time
            assert buttons.events.get(timeout=5) == Hold("ROLL")
            session.handle(Hold("ROLL"))
            clock.advance_ms(100)
            roll.drive_high()
            assert _handle_all(session, buttons.events) == []  # the release of a hold is not a press
            assert session.panel.menu is not None and session.panel.menu.title == "Re-roll last?"
            assert journal.entries(session.current.game_id) == entries  # nothing journaled while it asks

            clock.advance_ms(100)
            ok.drive_low()
            clock.advance_ms(100)
            ok.drive_high()
            _handle_all(session, buttons.events)
            assert session.rerolling() and journal.entries(session.current.game_id) == entries
            clock.advance_ms(100)
            roll.drive_low()
            clock.advance_ms(100)
            roll.drive_high()
            _handle_all(session, buttons.events)
            kinds = [e.kind for e in journal.entries(session.current.game_id)]
            assert kinds == ["event", "reroll"] and len(session.current.live) == 1


def test_a_pin_that_cannot_be_claimed_releases_the_pins_claimed_before_it(mock_factory, clock):
    """Like gpiozero's CompositeDevice: a failed construction leaves no pin held."""
    from gpiozero import DigitalInputDevice
    from gpiozero.exc import GPIOPinInUse

    taken = DigitalInputDevice(ButtonPins().back)  # BACK is the last pin Buttons claims
    try:
        with pytest.raises(GPIOPinInUse):
            Buttons(clock=clock)
        for name, bcm in ButtonPins().items():
            if name != "BACK":  # each pin claimed before the failure was closed again: it can be claimed now
                DigitalInputDevice(bcm).close()
    finally:
        taken.close()
