"""Buttons on gpiozero's MockFactory: presses, our debounce, holds, keys, and ROLL presses made into dice."""

from __future__ import annotations

import queue

import pytest

from companion.dice import DiceSource, Prompt
from hardware.buttons import BUTTON_NAMES, ButtonHold, ButtonPins, ButtonPress, Buttons
from hardware.keys import KEYMAP, KeyboardButtons
from hardware.rolling import roll_for


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
    assert [e.name for e in got] == list(BUTTON_NAMES)
    assert all(isinstance(e, ButtonPress) for e in got)


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
    assert drain(buttons.events) == [ButtonPress("ROLL", 50.0)]
    assert buttons.ignored >= 6


def test_separate_presses_after_the_window_count_twice(mock_factory, buttons, clock):
    pin = mock_factory.pin(ButtonPins().roll)
    pin.drive_low()
    clock.advance_ms(40)
    pin.drive_high()
    clock.advance_ms(40)
    pin.drive_low()
    assert [e.name for e in drain(buttons.events)] == ["ROLL", "ROLL"]


def test_holding_back_emits_a_hold(mock_factory, buttons, clock):
    pin = mock_factory.pin(ButtonPins().back)
    pin.drive_low()
    assert buttons.events.get(timeout=2) == ButtonPress("BACK", clock.now)
    hold = buttons.events.get(timeout=5)  # gpiozero's hold thread, in real time
    assert hold == ButtonHold("BACK", clock.now)
    clock.advance_ms(100)
    pin.drive_high()


def test_only_back_holds(mock_factory, buttons, clock):
    # a long ROLL press makes no hold event; BACK's hold proves the hold thread ran meanwhile
    roll, back = mock_factory.pin(ButtonPins().roll), mock_factory.pin(ButtonPins().back)
    roll.drive_low()
    back.drive_low()
    seen = [buttons.events.get(timeout=2), buttons.events.get(timeout=2), buttons.events.get(timeout=5)]
    assert ButtonHold("BACK", clock.now) in seen
    assert [e for e in seen if isinstance(e, ButtonHold) and e.name != "BACK"] == []
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
    assert [e.name for e in drain(buttons.events)] == ["ROLL", "OK", "LEFT"]
    assert set(KEYMAP.values()) == set(BUTTON_NAMES)


def test_custom_pins_and_queue(mock_factory, clock):
    events: queue.Queue = queue.Queue()
    pins = ButtonPins(roll=4)
    with Buttons(pins, events, clock=clock) as b:
        KeyboardButtons(mock_factory, pins).press("ROLL")
        assert b.events is events
        assert events.get(timeout=2).name == "ROLL"


def test_roll_for_answers_the_request_from_os_random():
    prompt = Prompt("roll D8 then D6", dice=("d8", "d6"))
    rolled = roll_for(prompt)
    assert rolled is not None and rolled.source == "button"
    assert [d.kind for d in rolled.dice] == ["d8", "d6"]
    assert DiceSource()._rng.__class__.__name__ == "SystemRandom"
    values = {roll_for(Prompt("r", dice=("d8",))).dice[0].value for _ in range(400)}
    assert values == set(range(1, 9))


def test_roll_for_with_nothing_asked_is_none():
    assert roll_for(None) is None
    assert roll_for(Prompt("choose a city", actions=("pick",))) is None
    assert roll_for(Prompt("game over", dice=("d8",), done=True)) is None


def test_a_bounced_double_press_rolls_once(mock_factory, buttons, clock):
    """One press answers one request: chatter never answers the next request too."""
    requests = [Prompt("first", dice=("d8",)), Prompt("second", dice=("d6",))]
    answered = []
    pin = mock_factory.pin(ButtonPins().roll)
    pin.drive_low()
    clock.advance_ms(5)
    pin.drive_high()
    clock.advance_ms(5)
    pin.drive_low()
    for _event in drain(buttons.events):
        rolled = roll_for(requests[len(answered)] if len(answered) < len(requests) else None)
        if rolled:
            answered.append(rolled)
    assert len(answered) == 1 and answered[0].dice[0].kind == "d8"
    # a separate press after the window answers the next request
    clock.advance_ms(100)
    pin.drive_high()
    clock.advance_ms(100)
    pin.drive_low()
    for event in drain(buttons.events):
        assert event.name == "ROLL"
        answered.append(roll_for(requests[len(answered)]))
    assert [a.dice[0].kind for a in answered] == ["d8", "d6"]
