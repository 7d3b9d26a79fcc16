"""The camera over the tray: from dice at rest to a Roll on the queue, and what the source costs while idle.

- Settle -> Roll: a 640x480 frame with two dice (cut from a real photograph, skovy_01: a red 4 and a yellow 3,
  at the size a camera 30 cm over a tray sees them), through the source's real turn: the frame that completes
  the settle (the third still frame) is compared, read for the two D6s asked, and the Roll put on the queue.
  The clock runs over that one turn; the first two still frames are fed before it starts. Its CPU time on the
  thread is given too: on a machine shared with other work the wall time's tail is mostly waiting for a core.
- Idle CPU: the source's thread with no request open (the session wants no dice) for a few seconds: the whole
  process's CPU time over that wall time, as a share of one core.

The photographs are read from ../shared/data/dice-photos (beside the checkout); they are not part of it.
"""

from __future__ import annotations

import queue
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from benchmarks._table import Row, summary
from companion.inputs import Roll
from hardware.camera.source import CameraSource

AREA = "camera"
ROOT = Path(__file__).resolve().parent.parent


def _frame() -> np.ndarray:
    for base in (ROOT.parent, ROOT.parent.parent):
        path = base / "shared" / "data" / "dice-photos" / "dev" / "skovy_01.jpg"
        if path.exists():
            photo = cv2.imread(str(path))
            # Both dice lie about x 750-1000, y 400-620 of the 1920x1080 photograph: a 960x720 cut round them,
            # scaled to 640x480, is the tray as a VGA camera over it sees it.
            return cv2.resize(photo[200:920, 400:1360], (640, 480), interpolation=cv2.INTER_AREA)
    raise SystemExit("camera benchmark: ../shared/data/dice-photos/dev is missing beside the checkout")


class _StillTray:
    """A capture whose frames are one picture: dice lying still."""

    def __init__(self, frame: np.ndarray) -> None:
        self.image = frame

    def open(self) -> None:
        pass

    def frame(self) -> np.ndarray:
        return self.image

    def close(self) -> None:
        pass


def _settle_to_roll(rolls: int = 200) -> tuple[list[float], list[float]]:
    cv2.setNumThreads(1)  # as CameraSource.start sets it on the box
    frame = _frame()
    inbox: queue.Queue[Any] = queue.Queue()
    source = CameraSource(inbox, _StillTray(frame), lambda: ("d6", "d6"))
    samples, cpu = [], []
    for _ in range(rolls):
        source.watch.forget()
        source.watch.feed(np.zeros_like(frame))  # the dice were moving
        for _ in range(source.watch.frames - 1):
            source.poll()
        start, start_cpu = time.perf_counter(), time.thread_time()
        source.poll()
        roll = inbox.get_nowait()
        samples.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - start_cpu) * 1000)
        if not isinstance(roll, Roll) or sorted(d.value for d in roll.dice) != [3, 4]:
            raise SystemExit(f"camera benchmark: the frame read as {roll!r}, not a 4 and a 3")
    return samples, cpu


def _idle_cpu(seconds: float = 6.0) -> float:
    inbox: queue.Queue[Any] = queue.Queue()
    with CameraSource(inbox, _StillTray(_frame()), lambda: ()):
        time.sleep(0.5)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        time.sleep(seconds)
        cpu1, wall1 = time.process_time(), time.perf_counter()
    return 100 * (cpu1 - cpu0) / (wall1 - wall0)


def run() -> list[Row]:
    wall, cpu = _settle_to_roll()
    rows = summary(AREA, "settled 640x480 frame, two D6 -> Roll on queue", wall, p99=50.0)
    # The same turns' CPU time on the reading thread: the work itself, without the waits a shared machine adds.
    rows += summary(AREA, "settled frame -> Roll, CPU time of the turn", cpu)
    rows.append(Row(AREA, "idle CPU, no request open", _idle_cpu(), "% core", most=0.3))
    return rows
