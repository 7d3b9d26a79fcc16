"""The camera as an input source: watches the tray while the game asks for dice, and emits what it reads.

Idle (no request open, or a menu open) the capture is closed and the thread only asks the session what it wants
twice a second: no frame is grabbed, so the camera costs the Pi nothing between rolls. With a request open it
grabs ``fps`` frames a second until the dice are at rest (:mod:`hardware.camera.settle`), reads them
(:mod:`hardware.camera.reader`) for the kinds asked, and puts on the session's queue: a ``Roll`` when every die
is read surely and the count matches the request; the question of :mod:`companion.read_confirm` otherwise;
a ``SourceFault`` ("crooked") when a die leans, so it is thrown again as the tower asks.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from companion.dice import Die
from companion.inputs import Roll, SourceFault, SourceStatus
from companion.read_confirm import confirm_ask
from hardware.camera.capture import Capture
from hardware.camera.reader import DieRead, read_dice
from hardware.camera.settle import SettleWatch
from hardware.camera.taught import TaughtSet

log = logging.getLogger(__name__)
SOURCE = "camera"
IDLE_POLL = 0.5
"""Seconds between asking the session whether it wants dice, while it does not."""


def verdict(reads: list[DieRead], kinds: tuple[str, ...], inbox: queue.Queue[Any]) -> None:
    """Put on ``inbox`` what one settled frame's reads become (a pure step, so tests and the benchmark call it)."""
    if any(r.crooked for r in reads):
        inbox.put(SourceFault(SOURCE, "a die leans on the wall", "crooked"))
        return
    if not reads:
        return
    dice = tuple(Die(r.kind, r.face) for r in reads)
    if len(reads) != len(kinds) or sorted(d.kind for d in dice) != sorted(kinds):
        inbox.put(confirm_ask(dice, inbox, SOURCE, f"saw {len(reads)} dice, asked {len(kinds)}", kinds))
    elif not all(r.sure for r in reads):
        inbox.put(confirm_ask(dice, inbox, SOURCE, "not sure of the read", kinds))
    else:
        inbox.put(Roll(dice, SOURCE))


class CameraSource:
    """The thread watching the tray; ``wanted`` is the session's ``wanted`` (dice kinds asked right now)."""

    def __init__(self, inbox: queue.Queue[Any], capture: Capture, wanted: Callable[[], tuple[str, ...]],
                 taught: TaughtSet | None = None, fps: float = 10.0, settle_frames: int = 3) -> None:
        self.inbox, self.capture, self.wanted, self.taught = inbox, capture, wanted, taught
        self.period = 1.0 / fps
        self.watch = SettleWatch(settle_frames)
        self._stop = threading.Event()
        self._open = False
        self._lock = threading.Lock()
        """Held while the capture is used: the thread's turn, or a picture taken for teaching."""
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def start(self) -> CameraSource:
        # The reader's pictures are small: OpenCV's worker threads cost more in hand-offs than they save, and
        # on a busy core a read waits for the slowest of them. One thread reads a frame in one go.
        cv2.setNumThreads(1)
        self.inbox.put(SourceStatus(SOURCE, "connected"))
        self._thread.start()
        return self

    @property
    def capturing(self) -> bool:
        """The capture is open (frames are being looked at): only while dice are asked for."""
        return self._open

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._release()

    def __enter__(self) -> CameraSource:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _asked(self) -> tuple[str, ...]:
        try:
            return tuple(self.wanted())
        except Exception:  # the session's state read from this thread mid-change: ask again next turn
            return ()

    def _release(self) -> None:
        if self._open:
            self.capture.close()
            self._open = False

    def _run(self) -> None:
        while not self._stop.is_set():
            self._stop.wait(self.poll())
        self._release()

    def poll(self) -> float:
        """One turn: idle, or one frame looked at (and read when the dice are at rest). Returns the seconds
        to wait before the next turn. The thread calls it; a test may call it alone, turn by turn."""
        kinds = self._asked()
        with self._lock:
            if not kinds:
                self._release()
                return IDLE_POLL
            if not self._open:
                try:
                    self.capture.open()
                except OSError as exc:
                    self.inbox.put(SourceStatus(SOURCE, "away", str(exc)))
                    return 2.0
                self._open = True
            frame = self.capture.frame()
        if frame is not None and self.watch.feed(frame):
            self.step(frame, kinds)
        return self.period

    def snapshot(self) -> np.ndarray | None:
        """One picture of the tray now (teaching), the capture opened for it and closed after when it was idle;
        None when the camera gives none."""
        with self._lock:
            opened_here = not self._open
            try:
                if opened_here:
                    self.capture.open()
                return self.capture.frame()
            except OSError as exc:
                log.warning("camera: no picture to teach from (%s)", exc)
                return None
            finally:
                if opened_here:
                    self.capture.close()

    def step(self, frame: np.ndarray, kinds: tuple[str, ...]) -> None:
        """Read one settled frame and put the outcome on the queue."""
        try:
            reads = read_dice(frame, self.taught, frozenset(kinds))
        except ValueError as exc:
            log.warning("camera frame unreadable: %s", exc)
            return
        verdict(reads, kinds, self.inbox)
