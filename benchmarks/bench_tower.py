"""The dice tower link: parser throughput, and pty-to-queue latency of a roll.

- Frames parsed per second: a stream of mixed ROLL/HB frames fed to FrameParser in 64-byte reads
  (about what a USB CDC packet brings).
- Latency: the whole ROLL frame but its last byte is written on the virtual tower's pty; the clock
  starts as the last byte is written and stops when the TowerRoll is taken off the link's queue.
- Reconnect: the tower is unplugged (its pty closed and its path removed, as udev does), a roll is
  thrown meanwhile, and it is plugged back; the clock starts at the replug and stops when the link
  reports "connected", and when the roll thrown while away comes off the queue. The link runs with
  its defaults, as the box does.
"""

from __future__ import annotations

import queue
import time
from typing import Any

from benchmarks._table import Row, summary
from firmware_bridge.events import SourceStatus, TowerRoll
from firmware_bridge.link import TowerLink
from firmware_bridge.virtual import VirtualTower
from firmware_bridge.wire import Frame, FrameParser, encode

AREA = "tower"


def _throughput(frames: int = 50_000) -> float:
    one = encode(Frame("ROLL", seq=123, dice=[("d6", 3), ("d8", 5)], boot="3fa9c2d1")) + encode(Frame("HB"))
    stream = one * (frames // 2)
    parser = FrameParser()
    start = time.perf_counter()
    parsed = 0
    for i in range(0, len(stream), 64):
        parsed += len(parser.feed(stream[i:i + 64]))
    return parsed / (time.perf_counter() - start)


def _latency(rolls: int = 300) -> list[float]:
    events: queue.Queue[Any] = queue.Queue()
    samples = []
    with VirtualTower(heartbeat=60, retry=60) as tower:
        link = TowerLink(events, tower.path, retry=0.02).start()
        try:
            while not (isinstance(e := events.get(timeout=5), SourceStatus) and e.state == "connected"):
                pass
            for seq in range(1, rolls + 1):
                line = tower.frame(Frame("ROLL", seq=seq, dice=[("d8", 1 + seq % 8)]))
                tower.send_raw(line[:-1])
                start = time.perf_counter()
                tower.send_raw(line[-1:])
                while not isinstance(got := events.get(timeout=5), TowerRoll):
                    pass
                samples.append((time.perf_counter() - start) * 1000)
                assert got.settle is not None
                got.settle()
        finally:
            link.stop()
    return samples


def _wait(events: queue.Queue[Any], match: Any) -> None:
    while not match(events.get(timeout=5)):
        pass


def _reconnect(times: int = 12) -> tuple[list[float], list[float]]:
    events: queue.Queue[Any] = queue.Queue()
    connected_ms, roll_ms = [], []
    with VirtualTower() as tower, TowerLink(events, tower.path) as _link:
        _wait(events, lambda e: isinstance(e, SourceStatus) and e.state == "connected")
        for n in range(times):
            tower.unplug()
            _wait(events, lambda e: isinstance(e, SourceStatus) and e.state == "away")
            tower.roll([("d6", 1 + n % 6)])
            start = time.perf_counter()
            tower.replug()
            _wait(events, lambda e: isinstance(e, SourceStatus) and e.detail.startswith("opened"))  # this replug's
            _wait(events, lambda e: isinstance(e, SourceStatus) and e.state == "connected")
            connected_ms.append((time.perf_counter() - start) * 1000)
            _wait(events, lambda e: isinstance(e, TowerRoll) and e.settle is not None and (e.settle() or True))
            roll_ms.append((time.perf_counter() - start) * 1000)
    return connected_ms, roll_ms


def run() -> list[Row]:
    rows = [Row(AREA, "frames parsed per second", _throughput(), "frames/s", least=10000)]
    rows += summary(AREA, "roll, last byte on pty to queue", _latency(), p99=20.0)
    connected_ms, roll_ms = _reconnect()
    rows += summary(AREA, "replug -> connected", connected_ms, p99=1000.0)
    rows += summary(AREA, "replug -> roll thrown while away", roll_ms, p99=1000.0)
    return rows
