"""The GoDice and Pixels decoders on byte strings in the dice's own message shapes, and the roll tracker."""

from __future__ import annotations

import pytest

from hardware.smartdice import godice, pixels
from hardware.smartdice.reading import Reading, battery_detail
from hardware.smartdice.track import RollTracker


def s8(*values: int) -> bytes:
    return bytes(v & 0xFF for v in values)


# -- GoDice -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("xyz", "d6"), [((-64, 0, 0), 1), ((0, 0, 64), 2), ((0, 64, 0), 3), ((0, -64, 0), 4),
                                         ((0, 0, -64), 5), ((64, 0, 0), 6), ((-61, 5, -6), 1), ((3, -58, 9), 4)])
def test_godice_settled_d6_is_the_nearest_reference_vector(xyz, d6):
    assert godice.decode(b"S" + s8(*xyz), "d6") == Reading("settled", face=d6, detail="stable")


@pytest.mark.parametrize(("xyz", "d8"), [((20, -60, -20), 3), ((-20, -60, -20), 8), ((20, 0, 60), 3),
                                         ((-60, 0, 20), 1), ((40, 20, 40), 2), ((22, 57, 18), 1)])
def test_godice_settled_d8_uses_the_d8_shell(xyz, d8):
    assert godice.decode(b"S" + s8(*xyz), "d8").face == d8


def test_the_same_vector_reads_differently_in_each_shell():
    message = b"S" + s8(20, -60, -20)
    assert (godice.decode(message, "d6").face, godice.decode(message, "d8").face) == (4, 3)


def test_godice_rolling_battery_colour_and_noise():
    assert godice.decode(b"R", "d6").motion == "rolling"
    assert godice.decode(b"Bat\x50", "d6") == Reading(battery=80, detail="battery")
    low = godice.decode(b"Bat\x09", "d8")
    assert low.battery == 9 and low.motion == "none"
    assert battery_detail(low.battery) == "battery low (9 %)"
    assert battery_detail(80) == "battery 80 %" and battery_detail(None) == ""
    assert godice.decode(b"Col\x03", "d6").detail == "colour blue"
    for junk in (b"", b"S", b"S\x01", b"Q\x01\x02\x03", b"Ba", b"XS\x00\x00\x40"):
        assert godice.decode(junk, "d6").motion == "none", junk


@pytest.mark.parametrize(("prefix", "what"), [(b"FS", "fake stable"), (b"TS", "tilt stable"), (b"MS", "move stable")])
def test_godice_fake_tilt_and_move_settles_are_not_rolls(prefix, what):
    reading = godice.decode(prefix + s8(0, 0, 64), "d6")
    assert (reading.motion, reading.face, reading.detail) == ("still", 2, what)
    tracker = RollTracker()
    tracker.feed(godice.decode(b"R", "d6"), 0.0)
    assert tracker.feed(reading, 1.0).kind == "none"
    assert tracker.feed(godice.decode(b"S" + s8(0, 0, 64), "d6"), 1.5).kind == "roll"


def test_godice_refuses_a_shell_it_has_no_table_for():
    with pytest.raises(ValueError, match="shell"):
        godice.decode(b"S" + s8(0, 0, 64), "d20")


# -- Pixels -----------------------------------------------------------------------------------------

CURRENT = [(0, "unknown", "none"), (1, "rolled", "settled"), (2, "handling", "handling"), (3, "rolling", "rolling"),
           (4, "crooked", "crooked"), (5, "onFace", "settled")]
LEGACY = [(0, "unknown", "none"), (1, "onFace", "settled"), (2, "handling", "handling"), (3, "rolling", "rolling"),
          (4, "crooked", "crooked"), (5, "unknown", "none")]


@pytest.mark.parametrize(("generation", "table"), [("current", CURRENT), ("legacy", LEGACY)])
def test_every_pixels_roll_state_in_both_firmware_generations(generation, table):
    for value, name, motion in table:
        reading = pixels.decode(bytes([3, value, 4]), generation)
        assert (reading.detail, reading.motion) == (name, motion), (generation, value)
        assert reading.face == (5 if motion in ("settled", "crooked") else None)


def test_pixels_other_messages_are_not_roll_states():
    assert pixels.decode(bytes([2, 8, 0x31, 0, 0]), "current").motion == "none"  # iAmADie
    assert pixels.decode(bytes([3, 1]), "current").motion == "none"  # too short
    assert pixels.decode(b"", "legacy").motion == "none"
    with pytest.raises(ValueError, match="generation"):
        pixels.decode(bytes([3, 1, 0]), "2019")


def test_pixels_advertisement_carries_state_face_battery_and_type():
    advert = pixels.decode_advert(bytes([8, 0x31, 1, 6, 0x80 | 42]))
    assert advert is not None
    assert (advert.die_type, advert.kind, advert.led_count) == ("d8", "d8", 8)
    assert advert.reading == Reading("settled", face=7, battery=42, charging=True, detail="rolled")
    low = pixels.decode_advert(bytes([6, 0x20, 3, 0, 7]))
    assert low is not None and low.kind == "d6" and low.reading.motion == "rolling" and low.reading.battery == 7
    assert battery_detail(7, False) == "battery low (7 %)"
    assert pixels.decode_advert(bytes([20, 0x70, 5, 19, 90])).kind is None  # a D20 is no die the games use
    assert pixels.decode_advert(bytes([6, 0x00, 5, 2, 90])).kind == "d6"  # no type advertised: six LEDs
    assert pixels.decode_advert(bytes([1, 2, 3, 4, 5, 6, 7])) is None


# -- the tracker ------------------------------------------------------------------------------------

ROLLING = Reading("rolling")
HANDLING = Reading("handling")


def rest(face: int) -> Reading:
    return Reading("settled", face=face)


def test_rolling_then_a_rest_is_one_roll_and_a_doubled_rest_is_not_a_second():
    tracker = RollTracker(debounce=1.0)
    assert tracker.feed(ROLLING, 0.0).kind == "none"
    assert tracker.feed(ROLLING, 0.0).kind == "none"
    assert tracker.feed(rest(4), 1.2).kind == "roll"
    doubled = tracker.feed(rest(4), 1.2)
    assert doubled.kind == "dropped" and "not thrown" in doubled.why
    assert tracker.counts == {"rolls": 1, "not_thrown": 1}


def test_a_pick_up_that_never_rolled_is_not_a_roll():
    tracker = RollTracker()
    assert tracker.feed(HANDLING, 0.0).kind == "none"
    assert tracker.feed(rest(3), 2.0).kind == "dropped"
    assert tracker.feed(HANDLING, 5.0).kind == "none"
    assert tracker.feed(ROLLING, 5.5).kind == "none"
    assert tracker.feed(rest(2), 6.5).face == 2


def test_a_second_settle_within_the_debounce_is_the_same_throw():
    tracker = RollTracker(debounce=1.0)
    tracker.feed(ROLLING, 0.0)
    assert tracker.feed(rest(5), 1.0).kind == "roll"
    tracker.feed(ROLLING, 1.3)  # it bounced
    bounce = tracker.feed(rest(6), 1.6)
    assert bounce.kind == "dropped" and "within 1 s" in bounce.why
    tracker.feed(ROLLING, 4.0)
    assert tracker.feed(rest(1), 5.0).kind == "roll"  # a new throw after the debounce


def test_debounce_is_a_setting():
    quick = RollTracker(debounce=0.2)
    quick.feed(ROLLING, 0.0)
    assert quick.feed(rest(5), 1.0).kind == "roll"
    quick.feed(ROLLING, 1.1)
    assert quick.feed(rest(6), 1.5).kind == "roll"


def test_a_link_lost_mid_throw_is_said_and_the_next_rest_is_not_taken_for_it():
    tracker = RollTracker()
    tracker.feed(ROLLING, 0.0)
    assert tracker.lost() is True
    assert tracker.feed(rest(3), 2.0).kind == "dropped"
    assert tracker.lost() is False


def test_crooked_after_a_throw_asks_again_and_a_stuck_roll_is_noticed_once():
    tracker = RollTracker()
    tracker.feed(ROLLING, 0.0)
    assert tracker.feed(Reading("crooked", face=2), 1.0).kind == "crooked"
    assert tracker.feed(Reading("crooked", face=2), 1.0).kind == "none"
    tracker.feed(ROLLING, 10.0)
    assert not tracker.stuck(12.0, after=5.0)
    assert tracker.stuck(15.0, after=5.0)
    assert not tracker.stuck(16.0, after=5.0)
    assert tracker.feed(rest(4), 17.0).kind == "roll"  # it did settle in the end
