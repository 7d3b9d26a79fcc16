"""Smart dice: notification-to-Roll latency through the real adapter, and a dropped link back.

The dice are a fake radio on bleak's own ``backend=`` seam (hardware/smartdice/fakeble.py), so bleak's
BleakClient, the adapter's asyncio loop thread, the decoder, the tracker and the queue all run as on the
box; what is not measured is the air and BlueZ (a BLE connection interval is 7.5-50 ms on top).

- Latency: a GoDice says 'R', then its rest; the clock starts as the test thread hands the rest message to
  the radio and stops when the Roll is taken off the queue. Same for a Pixels die's roll state message.
- Advertisement: a Pixels die read without connecting; from the advertisement heard to the Roll.
- Reconnect: the link drops; from the drop to the die's "connected" again (the adapter's ``retry`` is 0.05 s
  here, the box's default is 2 s; the rest is reconnecting and subscribing).
"""

from __future__ import annotations

import queue
import time
from typing import Any

from benchmarks._table import Row, summary
from companion.inputs import Roll, SourceStatus
from hardware.smartdice.adapter import SmartDice
from hardware.smartdice.fakeble import FakeRadio
from hardware.smartdice.store import PairedDie

AREA = "smartdice"
GODICE = PairedDie("godice", "AA:00:00:00:00:01", "GoDice_bench", "d6", "blue")
PIXELS = PairedDie("pixels", "AA:00:00:00:00:02", "Pixel bench", "d8", "red")


class _Clock:
    """Moves the adapter's clock past the debounce between throws (the benchmark throws faster than hands)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _wait(events: queue.Queue[Any], match: Any) -> Any:
    while not match(item := events.get(timeout=5)):
        pass
    return item


def _connected(source: str) -> Any:
    return lambda e: isinstance(e, SourceStatus) and e.source == source and e.state == "connected"


def _latency(rolls: int = 300) -> tuple[list[float], list[float]]:
    radio, events, clock = FakeRadio(), queue.Queue[Any](), _Clock()
    radio.add_godice(GODICE.address)
    radio.add_pixels(PIXELS.address)
    godice_ms: list[float] = []
    pixels_ms: list[float] = []
    with SmartDice(events, [GODICE, PIXELS], client_backend=radio.client_backend,
                   scanner_backend=radio.scanner_backend, clock=clock):
        _wait(events, _connected(GODICE.source))
        _wait(events, _connected(PIXELS.source))
        for n in range(rolls):
            for die, rolling, rest, samples in (
                    (GODICE, b"R", b"S\x00\x00\x40", godice_ms),
                    (PIXELS, bytes([3, 3, 0]), bytes([3, 1, n % 8]), pixels_ms)):
                clock.now += 2.0
                radio.notify(die.address, rolling)
                start = time.perf_counter()
                radio.notify(die.address, rest)
                _wait(events, lambda e: isinstance(e, Roll))
                samples.append((time.perf_counter() - start) * 1000)
    return godice_ms, pixels_ms


def _advert(rolls: int = 200) -> list[float]:
    radio, events, clock = FakeRadio(), queue.Queue[Any](), _Clock()
    radio.add_pixels(PIXELS.address)
    samples: list[float] = []
    with SmartDice(events, [PIXELS], pixels_via="advert", scanner_backend=radio.scanner_backend, clock=clock):
        _wait(events, _connected(PIXELS.source))
        for n in range(rolls):
            clock.now += 2.0
            radio.advertise(PIXELS.address, bytes([8, 0x30, 3, 0, 80]))
            start = time.perf_counter()
            radio.advertise(PIXELS.address, bytes([8, 0x30, 1, n % 8, 80]))
            _wait(events, lambda e: isinstance(e, Roll))
            samples.append((time.perf_counter() - start) * 1000)
    return samples


def _reconnect(times: int = 30) -> list[float]:
    radio, events = FakeRadio(leak_subscriptions=True), queue.Queue[Any]()
    radio.add_godice(GODICE.address)
    samples: list[float] = []
    with SmartDice(events, [GODICE], retry=0.05, client_backend=radio.client_backend,
                   scanner_backend=radio.scanner_backend):
        _wait(events, _connected(GODICE.source))
        for _ in range(times):
            start = time.perf_counter()
            radio.drop(GODICE.address)
            _wait(events, _connected(GODICE.source))
            samples.append((time.perf_counter() - start) * 1000)
    return samples


def run() -> list[Row]:
    godice_ms, pixels_ms = _latency()
    rows = summary(AREA, "GoDice rest notified -> Roll on queue", godice_ms, "< 20 ms")
    rows += summary(AREA, "Pixels rolled notified -> Roll on queue", pixels_ms, "< 20 ms")
    rows += summary(AREA, "Pixels advertisement -> Roll on queue", _advert(), "< 20 ms")
    rows += summary(AREA, "link dropped -> connected (retry 0.05 s)", _reconnect(), "< 200 ms")
    return rows
