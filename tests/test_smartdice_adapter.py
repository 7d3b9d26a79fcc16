"""The real adapter (bleak's BleakClient and BleakScanner included) over a fake radio on bleak's backend seam."""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import Any

import pytest

from companion.config import Config, DiceConfig
from companion.dice import Die
from companion.inputs import Roll, SourceFault, SourceStatus
from hardware.smartdice import pixels
from hardware.smartdice.adapter import SmartDice
from hardware.smartdice.fakeble import FakeRadio
from hardware.smartdice.source import start_smartdice
from hardware.smartdice.store import PairedDie, save_pairing

BLUE_D6 = PairedDie("godice", "AA:00:00:00:00:01", "GoDice_0A1B2C_K_v04", "d6", "blue")
RED_D8 = PairedDie("pixels", "AA:00:00:00:00:02", "Pixel 8", "d8", "red")
S2 = b"S\x00\x00\x40"  # GoDice at rest, face 2 in a D6 shell
S5 = b"S\x00\x00\xc0"  # face 5


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def expect(events: queue.Queue[Any], match: Callable[[Any], bool], seen: list[Any] | None = None) -> Any:
    """The first item matching; everything taken on the way goes to ``seen``."""
    while True:
        item = events.get(timeout=5)
        if seen is not None:
            seen.append(item)
        if match(item):
            return item


def status(source: str, state: str) -> Callable[[Any], bool]:
    return lambda e: isinstance(e, SourceStatus) and e.source == source and e.state == state


def drain(events: queue.Queue[Any]) -> list[Any]:
    items = []
    while not events.empty():
        items.append(events.get_nowait())
    return items


@pytest.fixture
def clock() -> Clock:
    return Clock()


def adapter(radio: FakeRadio, events: queue.Queue[Any], dice: list[PairedDie], clock: Clock, **kw: Any) -> SmartDice:
    settings = {"retry": 0.01, "client_backend": radio.client_backend, "scanner_backend": radio.scanner_backend,
                "clock": clock, **kw}
    return SmartDice(events, dice, **settings)


def test_godice_throw_is_one_roll_with_the_dies_identity_and_status_like_the_towers(clock):
    radio = FakeRadio()
    radio.add_godice(BLUE_D6.address, battery=80)
    events: queue.Queue[Any] = queue.Queue()
    with adapter(radio, events, [BLUE_D6], clock) as dice:
        first = expect(events, lambda e: isinstance(e, SourceStatus))
        assert first == SourceStatus("godice:Blue D6", "waiting", "looking for it")
        expect(events, status("godice:Blue D6", "connected"))
        assert expect(events, status("godice:Blue D6", "connected")).detail == "battery 80 %"  # its answer
        radio.notify(BLUE_D6.address, b"R")
        expect(events, status("godice:Blue D6", "rolling"))
        clock.now += 1.5
        radio.notify(BLUE_D6.address, S2)
        roll = expect(events, lambda e: isinstance(e, Roll))
        assert roll == Roll((Die("d6", 2),), source="godice:Blue D6")
        radio.notify(BLUE_D6.address, S2)  # the same rest again, as a doubled notification
        radio.notify(BLUE_D6.address, b"FS\x00\x00\x40")
        dice.flush()
        assert [e for e in drain(events) if isinstance(e, Roll)] == []
        radio.notify(BLUE_D6.address, b"Bat\x0c")
        assert expect(events, lambda e: isinstance(e, SourceStatus)).detail == "battery low (12 %)"
        assert dice.counts()["Blue D6"]["rolls"] == 1
    assert radio.peripherals[BLUE_D6.address].writes[0] == b"\x03"  # it asked for the battery


def test_bluez_aborting_the_connect_is_retried_at_once(clock):
    radio = FakeRadio()
    radio.add_godice(BLUE_D6.address)
    radio.fail_next_connects(BLUE_D6.address, 2)
    events: queue.Queue[Any] = queue.Queue()
    with adapter(radio, events, [BLUE_D6], clock, retry=60) as dice:  # no waiting between the retries
        seen: list[Any] = []
        expect(events, status("godice:Blue D6", "connected"), seen)
        assert radio.peripherals[BLUE_D6.address].connect_errors == []  # both aborts were retried
        assert [e.state for e in seen if isinstance(e, SourceStatus)] == ["waiting", "connected"]
        assert dice.counts()["Blue D6"].get("errors", 0) == 0


def test_a_die_that_is_not_there_is_waited_for_and_found_later(clock):
    radio = FakeRadio()
    radio.add_godice(BLUE_D6.address)
    radio.vanish(BLUE_D6.address)
    events: queue.Queue[Any] = queue.Queue()
    with adapter(radio, events, [BLUE_D6], clock) as dice:
        assert expect(events, lambda e: isinstance(e, SourceStatus)).detail == "looking for it"
        dice.flush()
        assert radio.connects == {} and drain(events) == []  # never heard: no connect attempted in vain
        radio.appear(BLUE_D6.address)
        expect(events, status("godice:Blue D6", "connected"))


@pytest.mark.parametrize("habit", ["leak_subscriptions", "double"])
def test_a_drop_mid_throw_asks_again_reconnects_and_doubled_callbacks_double_nothing(clock, habit):
    radio = FakeRadio(**{habit: True})
    radio.add_godice(BLUE_D6.address)
    events: queue.Queue[Any] = queue.Queue()
    with adapter(radio, events, [BLUE_D6], clock) as dice:
        expect(events, status("godice:Blue D6", "connected"))
        radio.notify(BLUE_D6.address, b"R")
        expect(events, status("godice:Blue D6", "rolling"))
        radio.drop(BLUE_D6.address)
        fault = expect(events, lambda e: isinstance(e, SourceFault))
        assert fault == SourceFault("godice:Blue D6", "lost its link mid-throw")
        assert expect(events, lambda e: isinstance(e, SourceStatus)).state == "away"
        expect(events, status("godice:Blue D6", "connected"))
        clock.now += 2
        radio.notify(BLUE_D6.address, S5)  # where it came to rest while away: not taken for the lost roll
        radio.notify(BLUE_D6.address, b"R")
        clock.now += 2
        radio.notify(BLUE_D6.address, S2)
        seen: list[Any] = []
        expect(events, lambda e: isinstance(e, Roll), seen)
        clock.now += 2
        radio.notify(BLUE_D6.address, b"R")
        clock.now += 2
        radio.notify(BLUE_D6.address, S5)
        expect(events, lambda e: isinstance(e, Roll), seen)
        dice.flush()
        seen += drain(events)
        assert [r.dice for r in seen if isinstance(r, Roll)] == [(Die("d6", 2),), (Die("d6", 5),)]
        counts = dice.counts()["Blue D6"]
        assert counts["reconnects"] == 1 and counts["lost"] == 1
        if habit == "leak_subscriptions":
            assert counts["stale_callbacks"] >= 4  # the old subscription fired on every message, in vain
        assert radio.connects[BLUE_D6.address] == 2


def test_pixels_over_a_connection_pick_up_is_no_roll_and_a_throw_is(clock):
    radio = FakeRadio()
    radio.add_pixels(RED_D8.address, state=5, face_index=2)
    events: queue.Queue[Any] = queue.Queue()
    with adapter(radio, events, [RED_D8], clock) as dice:
        expect(events, status("pixels:Red D8", "connected"))
        assert radio.peripherals[RED_D8.address].writes == [pixels.ASK_ROLL_STATE]
        for state, face in ((2, 2), (5, 6), (2, 6), (1, 3)):  # handled, put down: "onFace"; even "rolled"
            radio.notify(RED_D8.address, bytes([3, state, face]))
        dice.flush()
        assert not [e for e in drain(events) if isinstance(e, Roll)]
        radio.notify(RED_D8.address, bytes([3, 3, 0]))
        clock.now += 2
        radio.notify(RED_D8.address, bytes([3, 1, 6]))
        assert expect(events, lambda e: isinstance(e, Roll)) == Roll((Die("d8", 7),), source="pixels:Red D8")
        radio.notify(RED_D8.address, bytes([3, 3, 0]))
        clock.now += 2
        radio.notify(RED_D8.address, bytes([3, 4, 1]))
        assert expect(events, lambda e: isinstance(e, SourceFault)).text == "landed crooked"


def test_pixels_with_legacy_firmware_on_the_old_service_ids(clock):
    radio = FakeRadio()
    old = PairedDie("pixels", "AA:00:00:00:00:03", "Pixel 6", "d6", "green", firmware="legacy")
    radio.add_pixels(old.address, legacy_service=True, state=1, face_index=0)
    events: queue.Queue[Any] = queue.Queue()
    with adapter(radio, events, [old], clock):
        expect(events, status("pixels:Green D6", "connected"))
        radio.notify(old.address, bytes([3, 3, 0]))
        clock.now += 2
        radio.notify(old.address, bytes([3, 1, 3]))  # legacy "onFace" after rolling
        assert expect(events, lambda e: isinstance(e, Roll)).dice == (Die("d6", 4),)


def test_a_face_the_declared_kind_has_not_is_a_fault_not_a_roll(clock):
    radio = FakeRadio()
    d20 = PairedDie("pixels", "AA:00:00:00:00:04", "Pixel 20", "d8", "white")
    radio.add_pixels(d20.address, die_type=7)
    events: queue.Queue[Any] = queue.Queue()
    with adapter(radio, events, [d20], clock):
        expect(events, status("pixels:White D8", "connected"))
        radio.notify(d20.address, bytes([3, 3, 0]))
        radio.notify(d20.address, bytes([3, 1, 14]))
        fault = expect(events, lambda e: isinstance(e, SourceFault | Roll))
        assert fault == SourceFault("pixels:White D8", "showed 15, which a D8 has not (check its kind in the pairing)")


def test_pixels_from_advertisements_without_connecting(clock):
    radio = FakeRadio()
    radio.add_pixels(RED_D8.address, state=5, face_index=2, battery=64)
    events: queue.Queue[Any] = queue.Queue()
    with adapter(radio, events, [RED_D8], clock, pixels_via="advert", advert_timeout=10.0, tick=0.01) as dice:
        connected = expect(events, status("pixels:Red D8", "connected"))
        assert connected.detail == "battery 64 %"
        assert radio.scanner_args[-1]["bluez"] == {"filters": {"DuplicateData": True}}
        assert radio.connects == {}
        rolling, rolled = bytes([8, 0x30, 3, 0, 64]), bytes([8, 0x30, 1, 4, 64])
        radio.advertise(RED_D8.address, rolling)
        radio.advertise(RED_D8.address, rolling)
        clock.now += 1.5
        for _ in range(3):
            radio.advertise(RED_D8.address, rolled)  # heard three times: one roll
        assert expect(events, lambda e: isinstance(e, Roll)).dice == (Die("d8", 5),)
        dice.flush()
        assert not [e for e in drain(events) if isinstance(e, Roll)]
        clock.now += 11
        expect(events, status("pixels:Red D8", "away"))
        radio.advertise(RED_D8.address)
        expect(events, status("pixels:Red D8", "connected"))


def test_no_bluetooth_adapter_keeps_the_dice_waiting_and_says_why(clock):
    radio = FakeRadio(adapter=False)
    radio.add_pixels(RED_D8.address)
    events: queue.Queue[Any] = queue.Queue()
    with adapter(radio, events, [RED_D8], clock, pixels_via="advert"):
        said = expect(events, lambda e: isinstance(e, SourceStatus) and e.detail != "looking for it")
        assert said == SourceStatus("pixels:Red D8", "waiting", "No Bluetooth adapters found.")


def test_start_smartdice_from_the_configuration(tmp_path, clock):
    events: queue.Queue[Any] = queue.Queue()
    start_smartdice(Config(), events).close()
    assert events.get_nowait() == SourceStatus("smartdice", "off", "smart dice not enabled ([dice] enabled = false)")
    store = tmp_path / "dice.toml"
    section = DiceConfig(enabled=True, pairing=str(store))
    start_smartdice(section, events).close()
    assert "no die paired yet" in events.get_nowait().detail
    store.write_text("[[die]]\nfamily = 'godice'\n")
    start_smartdice(section, events).close()
    assert events.get_nowait().detail == f"{store}: die[0].address: missing"
    save_pairing(store, [BLUE_D6])
    radio = FakeRadio()
    radio.add_godice(BLUE_D6.address)
    running = start_smartdice(Config(dice=section), events, client_backend=radio.client_backend,
                              scanner_backend=radio.scanner_backend, clock=clock)
    try:
        expect(events, status("godice:Blue D6", "connected"))
        radio.notify(BLUE_D6.address, b"R")
        radio.notify(BLUE_D6.address, S5)
        assert expect(events, lambda e: isinstance(e, Roll)).dice == (Die("d6", 5),)
    finally:
        running.close()


def test_the_ready_line_says_smartdice_on_only_when_a_die_is_read(tmp_path):
    from types import SimpleNamespace

    from companion.sim import attach

    def table() -> SimpleNamespace:
        return SimpleNamespace(parts={}, closers=[], inbox=queue.Queue(),
                               session=SimpleNamespace(extras=[], notice=lambda text: True),
                               loop=SimpleNamespace(views=[], add_pump=lambda pump, polled: None))

    def _attach_smartdice(table, config):
        attach(table, "smartdice", config.dice, role="source", type_name="smartdice")

    store = tmp_path / "dice.toml"
    nothing_paired = table()
    _attach_smartdice(nothing_paired, Config(dice=DiceConfig(enabled=True, pairing=str(store))))
    assert nothing_paired.parts["smartdice"] == "off"
    assert [name for name, _ in nothing_paired.session.extras] == ["Pair dice"]  # pairing stays offered
    store.write_bytes(b"\xff\xfe not toml")
    damaged = table()
    _attach_smartdice(damaged, Config(dice=DiceConfig(enabled=True, pairing=str(store))))
    assert damaged.parts["smartdice"] == "off"
    for close in nothing_paired.closers + damaged.closers:
        close()
    from hardware.smartdice.source import describe

    save_pairing(store, [BLUE_D6])
    radio = FakeRadio()
    running = start_smartdice(Config(dice=DiceConfig(enabled=True, pairing=str(store))), queue.Queue(),
                              client_backend=radio.client_backend, scanner_backend=radio.scanner_backend)
    try:
        assert describe(running) == "on (1 dice)"
    finally:
        running.close()
