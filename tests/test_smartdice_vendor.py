"""Pixels and GoDice as their makers publish them: ids and bytes copied from the vendors' own sources.

Nothing here comes from the project's constants: every UUID, company id and message below is a literal
taken from (commits as fetched):
- GameWithPixels/pixels-js 3fa3c1a7d952260b44d8411e5b7c059ad2d25d7b:
  packages/pixels-core-connect/src/PixelsBluetoothIds.ts (die, legacyDie, systemicGamesCompanyId),
  packages/pixels-core-connect/src/DieMessages.ts (MessageTypeValues: rollState = 3, requestRollState = 23;
  RollState message = type, state, faceIndex), packages/pixels-core-connect/src/PixelRollState.ts
  (unknown 0, rolled 1, handling 2, rolling 3, crooked 4, onFace 5),
  packages/react-native-pixels-connect/src/getScannedPixel.ts (manufacturer data: ledCount, designAndColor
  with the die type in the high nibble, rollState, faceIndex, battery with charging in bit 7; 8 bytes of
  service data), packages/pixels-core-animation/src/PixelDieType.ts (d6 = 2, d8 = 3).
- GameWithPixels/DiceFirmware 571e0ce5bc5c1184a1a86803b136eb6485e51861 (2024-09-30, "Use new (random)
  service & characteristic UUID, use BLE company id"): before it, the service base 6e40xxxx with TX
  (notify) 0x0001 and RX (write) 0x0002, company id 0xFFFF; c4fa5be (2024-10-21): before it the roll
  states were unknown 0, onFace 1, handling 2, rolling 3, crooked 4.
- ParticulaCode/GoDiceJavaScriptAPI 1a0cc90f4f3d366be41e97b545cc7a6e323124ab: godice.js (namePrefix
  'GoDice_', service 6e400001, write 6e400002, notify 6e400003; 82 'R' roll start, 83 'S' + three int8
  stable; 66 97 116 'Bat' + level; BATTERY_LEVEL = 3; d6Vectors 3: [0, 64, 0], 5: [0, 0, -64]).

The dice run on the fake radio (bleak's real BleakClient/BleakScanner over its backend= seam), which keeps
BlueZ's rule of one discovery at a time per D-Bus client.
"""

from __future__ import annotations

import asyncio
import queue
from typing import Any

from companion.dice import Die
from companion.inputs import Roll, SourceFault, SourceStatus
from hardware.smartdice.adapter import SmartDice
from hardware.smartdice.fakeble import FakePeripheral, FakeRadio
from hardware.smartdice.pairing import scan
from hardware.smartdice.store import PairedDie

# pixels-js PixelsBluetoothIds.ts
PIXELS_SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
PIXELS_NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
PIXELS_WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"
LEGACY_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
LEGACY_NOTIFY = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
LEGACY_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
SYSTEMIC_GAMES = 0x0D39
NO_COMPANY = 0xFFFF  # DiceFirmware before 571e0ce
DEVICE_INFORMATION = "0000180a-0000-1000-8000-00805f9b34fb"  # the firmware's BLE_UUID_DEVICE_INFORMATION_SERVICE
# GoDiceJavaScriptAPI godice.js
GODICE_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
GODICE_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
GODICE_NOTIFY = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"

ROLL_STATE, REQUEST_ROLL_STATE = 3, 23
ROLLED, ROLLING, ON_FACE = 1, 3, 5  # current firmware
LEGACY_ON_FACE = 1


def pixels_die(address: str, *, legacy: bool, leds: int, die_type: int, state: int, face_index: int,
               battery: int = 80) -> FakePeripheral:
    service = {LEGACY_SERVICE: (LEGACY_NOTIFY, LEGACY_WRITE)} if legacy else {PIXELS_SERVICE: (PIXELS_NOTIFY,
                                                                                              PIXELS_WRITE)}
    return FakePeripheral(address, "Pixel " + address[-2:], service,
                          manufacturer_data={NO_COMPANY if legacy else SYSTEMIC_GAMES:
                                             bytes([leds, die_type << 4, state, face_index, battery])},
                          service_data={DEVICE_INFORMATION: bytes([1, 2, 3, 4, 0x80, 0x5E, 0xF0, 0x66])},
                          replies={bytes([REQUEST_ROLL_STATE]): [bytes([ROLL_STATE, state, face_index])]})


def godice_die(address: str, battery: int = 80) -> FakePeripheral:
    return FakePeripheral(address, "GoDice_" + address[-2:] + "_K_v04", {GODICE_SERVICE: (GODICE_NOTIFY, GODICE_WRITE)},
                          replies={bytes([3]): [bytes([66, 97, 116, battery])]})


def expect(events: queue.Queue[Any], match: Any) -> Any:
    while True:
        item = events.get(timeout=5)
        if match(item):
            return item


def connected(source: str) -> Any:
    return lambda e: isinstance(e, SourceStatus) and e.source == source and e.state == "connected"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_scan_lists_pixels_of_both_generations_and_every_godice_with_its_battery() -> None:
    radio = FakeRadio()
    radio.add(pixels_die("AA:00:00:00:00:01", legacy=False, leds=8, die_type=3, state=ON_FACE, face_index=0))
    radio.add(pixels_die("AA:00:00:00:00:02", legacy=True, leds=6, die_type=2, state=LEGACY_ON_FACE, face_index=0,
                         battery=0x80 | 55))
    for n, battery in ((3, 81), (4, 62), (5, 43)):  # several GoDice at once: one discovery, no "InProgress"
        radio.add(godice_die(f"AA:00:00:00:00:0{n}", battery))
    found = asyncio.run(scan(0.01, scanner_backend=radio.scanner_backend, client_backend=radio.client_backend))
    summary = [(f.family, f.address[-2:], f.die_type, f.firmware, f.battery) for f in found]
    assert summary == [("godice", "03", "", "current", 81), ("godice", "04", "", "current", 62),
                       ("godice", "05", "", "current", 43),
                       ("pixels", "01", "d8", "current", 80), ("pixels", "02", "d6", "legacy", 55)]
    assert radio.refused_discoveries == 0


def test_a_pixels_die_from_before_october_2024_is_read_on_its_own_characteristic() -> None:
    radio, clock = FakeRadio(), Clock()
    old = radio.add(pixels_die("AA:00:00:00:00:02", legacy=True, leds=6, die_type=2, state=LEGACY_ON_FACE,
                               face_index=0))
    paired = PairedDie("pixels", old.address, old.name, "d6", "green", firmware="legacy")
    events: queue.Queue[Any] = queue.Queue()
    with SmartDice(events, [paired], retry=0.01, client_backend=radio.client_backend,
                   scanner_backend=radio.scanner_backend, clock=clock):
        expect(events, connected("pixels:Green D6"))
        assert old.writes == [bytes([REQUEST_ROLL_STATE])]
        radio.notify(old.address, bytes([ROLL_STATE, ROLLING, 0]))
        clock.now += 2
        radio.notify(old.address, bytes([ROLL_STATE, LEGACY_ON_FACE, 4]))
        assert expect(events, lambda e: isinstance(e, Roll)) == Roll((Die("d6", 5),), source="pixels:Green D6")


def test_a_current_pixels_die_rolls_on_the_new_ids() -> None:
    radio, clock = FakeRadio(), Clock()
    die = radio.add(pixels_die("AA:00:00:00:00:01", legacy=False, leds=8, die_type=3, state=ON_FACE,
                               face_index=0))
    paired = PairedDie("pixels", die.address, die.name, "d8", "red")
    events: queue.Queue[Any] = queue.Queue()
    with SmartDice(events, [paired], retry=0.01, client_backend=radio.client_backend,
                   scanner_backend=radio.scanner_backend, clock=clock):
        expect(events, connected("pixels:Red D8"))
        radio.notify(die.address, bytes([ROLL_STATE, ROLLING, 0]))
        clock.now += 2
        radio.notify(die.address, bytes([ROLL_STATE, ROLLED, 6]))
        assert expect(events, lambda e: isinstance(e, Roll)) == Roll((Die("d8", 7),), source="pixels:Red D8")


def test_godice_connect_beside_pixels_read_from_adverts_on_one_scanner() -> None:
    radio, clock = FakeRadio(), Clock()
    pixel = radio.add(pixels_die("AA:00:00:00:00:01", legacy=False, leds=8, die_type=3, state=ON_FACE,
                                 face_index=0))
    cubes = [radio.add(godice_die(f"AA:00:00:00:00:0{n}")) for n in (3, 4, 5)]
    dice = [PairedDie("pixels", pixel.address, pixel.name, "d8", "red")]
    dice += [PairedDie("godice", c.address, c.name, "d6", colour) for c, colour in zip(cubes, ("blue", "green",
                                                                                               "yellow"), strict=True)]
    events: queue.Queue[Any] = queue.Queue()
    with SmartDice(events, dice, retry=0.01, pixels_via="advert", client_backend=radio.client_backend,
                   scanner_backend=radio.scanner_backend, clock=clock):
        for source in ("pixels:Red D8", "godice:Blue D6", "godice:Green D6", "godice:Yellow D6"):
            expect(events, connected(source))
        assert radio.refused_discoveries == 0 and len(radio.scanner_args) == 1
        radio.notify(cubes[0].address, bytes([82]))
        clock.now += 2
        radio.notify(cubes[0].address, bytes([83, 0, 64, 0]))
        assert expect(events, lambda e: isinstance(e, Roll)) == Roll((Die("d6", 3),), source="godice:Blue D6")
        radio.advertise(pixel.address, bytes([8, 0x30, ROLLING, 0, 80]))
        clock.now += 2
        radio.advertise(pixel.address, bytes([8, 0x30, ROLLED, 4, 80]))
        assert expect(events, lambda e: isinstance(e, Roll)) == Roll((Die("d8", 5),), source="pixels:Red D8")


def test_a_die_dropped_mid_throw_that_comes_back_tumbling_gives_one_answer_not_two() -> None:
    radio, clock = FakeRadio(), Clock()
    cube = radio.add(godice_die("AA:00:00:00:00:03"))
    paired = PairedDie("godice", cube.address, cube.name, "d6", "blue")
    events: queue.Queue[Any] = queue.Queue()
    with SmartDice(events, [paired], retry=0.01, client_backend=radio.client_backend,
                   scanner_backend=radio.scanner_backend, clock=clock) as dice:
        expect(events, connected("godice:Blue D6"))
        radio.notify(cube.address, bytes([82]))
        radio.drop(cube.address)  # mid-throw
        assert expect(events, lambda e: isinstance(e, SourceFault)) == SourceFault("godice:Blue D6",
                                                                                    "lost its link mid-throw")
        expect(events, connected("godice:Blue D6"))
        clock.now += 1
        radio.notify(cube.address, bytes([82]))  # still tumbling when the link is back
        clock.now += 1
        radio.notify(cube.address, bytes([83, 0, 0, 0xC0]))  # and it lands: that throw was already asked again
        dice.flush()
        taken = []
        while not events.empty():
            taken.append(events.get_nowait())
        assert not [e for e in taken if isinstance(e, Roll | SourceFault)]
        clock.now += 5  # the throw asked again
        radio.notify(cube.address, bytes([82]))
        clock.now += 1
        radio.notify(cube.address, bytes([83, 0, 64, 0]))
        assert expect(events, lambda e: isinstance(e, Roll | SourceFault)) == Roll((Die("d6", 3),),
                                                                                    source="godice:Blue D6")
        assert dice.counts()["Blue D6"]["lost_throw_landed"] == 1


def test_a_die_lost_mid_throw_that_landed_while_away_takes_the_next_throw() -> None:
    radio, clock = FakeRadio(), Clock()
    cube = radio.add(godice_die("AA:00:00:00:00:03"))
    paired = PairedDie("godice", cube.address, cube.name, "d6", "blue")
    events: queue.Queue[Any] = queue.Queue()
    with SmartDice(events, [paired], retry=0.01, client_backend=radio.client_backend,
                   scanner_backend=radio.scanner_backend, clock=clock):
        expect(events, connected("godice:Blue D6"))
        radio.notify(cube.address, bytes([82]))
        radio.drop(cube.address)
        expect(events, lambda e: isinstance(e, SourceFault))
        expect(events, connected("godice:Blue D6"))
        clock.now += 4  # nothing came: it had landed while away
        radio.notify(cube.address, bytes([82]))
        clock.now += 1
        radio.notify(cube.address, bytes([83, 0, 64, 0]))
        assert expect(events, lambda e: isinstance(e, Roll)) == Roll((Die("d6", 3),), source="godice:Blue D6")


def test_any_error_from_bleak_is_a_reconnect_said_on_the_status_never_a_dead_task() -> None:
    radio, clock = FakeRadio(), Clock()
    cube = radio.add(godice_die("AA:00:00:00:00:03"))
    errors: list[BaseException] = [RuntimeError("boom"), KeyError("org.bluez.GattService1"), ValueError("bad"),
                                   AttributeError("'NoneType' object has no attribute 'path'")]
    cube.subscribe_errors.extend(errors)
    cube.connect_errors.append(RuntimeError("not a bleak error"))
    paired = PairedDie("godice", cube.address, cube.name, "d6", "blue")
    events: queue.Queue[Any] = queue.Queue()
    with SmartDice(events, [paired], retry=0.01, client_backend=radio.client_backend,
                   scanner_backend=radio.scanner_backend, clock=clock) as dice:
        said: list[SourceStatus] = []
        while True:
            event = expect(events, lambda e: isinstance(e, SourceStatus))
            said.append(event)
            if event.state == "connected":
                break
        assert cube.subscribe_errors == [] and cube.connect_errors == []
        errors_said = [e for e in said if e.detail == "Bluetooth error, connecting again"]
        assert len(errors_said) >= 4  # each failed connection said so, in players' words
        assert not [e for e in said if "NoneType" in e.detail or "Error" in e.detail]
        radio.notify(cube.address, bytes([82]))
        clock.now += 2
        radio.notify(cube.address, bytes([83, 0, 64, 0]))
        assert expect(events, lambda e: isinstance(e, Roll)).dice == (Die("d6", 3),)
        assert dice.counts()["Blue D6"]["errors"] == 4  # the four after connecting; the task lived through all
