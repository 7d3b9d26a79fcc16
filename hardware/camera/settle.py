"""Telling that the dice have stopped: no change over a few frames, and a change since the last read.

Frames are compared as small grey thumbnails (cheap on a Pi, blind to sensor noise): a thumbnail that differs
from the one before by less than ``STILL`` on average is still. ``frames`` still thumbnails in a row mean the
dice are at rest; they are read only when the tray differs from what was last read, so dice left lying after a
roll are not read again as a new roll.
"""

from __future__ import annotations

import cv2
import numpy as np

THUMB = (80, 60)
STILL = 2.5
"""Mean grey-level difference (0-255) below which two thumbnails are the same picture."""


def thumbnail(frame: np.ndarray) -> np.ndarray:
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    return cv2.resize(grey, THUMB, interpolation=cv2.INTER_AREA).astype(np.int16)


def differs(a: np.ndarray, b: np.ndarray) -> bool:
    return float(np.abs(a - b).mean()) >= STILL


class SettleWatch:
    """Feed it frames; it says when a frame shows dice at rest that were not read yet."""

    def __init__(self, frames: int = 3) -> None:
        self.frames = frames
        self._last: np.ndarray | None = None
        self._still = 0
        self._read: np.ndarray | None = None

    def feed(self, frame: np.ndarray) -> bool:
        """True when ``frame`` should be read: at rest for ``frames`` frames, and not what was read last."""
        thumb = thumbnail(frame)
        self._still = self._still + 1 if self._last is not None and not differs(thumb, self._last) else 1
        self._last = thumb
        if self._still < self.frames:
            return False
        if self._read is not None and not differs(thumb, self._read):
            return False
        self._read = thumb
        return True

    def forget(self) -> None:
        """Read the tray again even if unchanged (a request opened after the dice were already lying there)."""
        self._read = None
