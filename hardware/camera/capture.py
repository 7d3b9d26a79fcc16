"""Where the camera's frames come from, chosen by the ``[camera]`` section: a USB camera (UVC, through
OpenCV's VideoCapture on V4L2), the Pi's camera module (picamera2, Raspberry Pi OS's package: imported only
when chosen), or a folder of photographs (the simulated table's camera and the tests': the same decoding and
reading path as a camera's, frames from files).

Every capture is opened only while the game asks for dice and closed between requests, so an idle box keeps
neither the sensor streaming nor a thread grabbing frames.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

PICTURES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


class Capture(Protocol):
    def open(self) -> None: ...

    def frame(self) -> np.ndarray | None:
        """The next frame (BGR), or None when the camera gave none."""
        ...

    def close(self) -> None: ...


class VideoCapture:
    """A UVC camera through OpenCV (``device`` is /dev/videoN or its number)."""

    def __init__(self, device: str, width: int, height: int) -> None:
        self.device, self.width, self.height = device, width, height
        self._cap: cv2.VideoCapture | None = None

    def open(self) -> None:
        target: int | str = int(self.device) if self.device.isdigit() else self.device
        cap = cv2.VideoCapture(target, cv2.CAP_V4L2)
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        if not cap.isOpened():
            cap.release()
            raise OSError(f"no camera at {self.device}")
        self._cap = cap

    def frame(self) -> np.ndarray | None:
        if self._cap is None:
            return None
        ok, image = self._cap.read()
        return image if ok else None

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class PiCamera:
    """The Pi's camera module through picamera2 (``apt install python3-picamera2`` on Raspberry Pi OS)."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self._cam: object | None = None

    def open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise OSError("picamera2 is not installed (apt install python3-picamera2)") from None
        cam = Picamera2()
        cam.configure(cam.create_video_configuration(main={"size": (self.width, self.height), "format": "RGB888"}))
        cam.start()
        self._cam = cam

    def frame(self) -> np.ndarray | None:
        if self._cam is None:
            return None
        # picamera2's "RGB888" is laid out B, G, R in memory: OpenCV's order already.
        return np.asarray(self._cam.capture_array())  # type: ignore[attr-defined]

    def close(self) -> None:
        if self._cam is not None:
            self._cam.close()  # type: ignore[attr-defined]
            self._cam = None


class FolderCapture:
    """Photographs from a folder, in name order, each shown for ``frames_each`` frames (dice at rest for that
    long); after the last, the last stays on the tray. The files are decoded as a camera's frames are read."""

    def __init__(self, folder: str | Path, frames_each: int = 4) -> None:
        self.folder = Path(folder)
        self.frames_each = max(1, frames_each)
        self._files: list[Path] = []
        self._shown = 0
        self._cached: tuple[Path, np.ndarray] | None = None

    def open(self) -> None:
        if not self._files:
            if not self.folder.is_dir():
                raise OSError(f"no folder {self.folder}")
            self._files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in PICTURES)
            if not self._files:
                raise OSError(f"no pictures in {self.folder}")

    def frame(self) -> np.ndarray | None:
        if not self._files:
            return None
        path = self._files[min(self._shown // self.frames_each, len(self._files) - 1)]
        self._shown += 1
        if self._cached is None or self._cached[0] != path:
            image = cv2.imdecode(np.fromfile(path, np.uint8), cv2.IMREAD_COLOR)
            if image is None:
                return None
            self._cached = (path, image)
        return self._cached[1]

    def close(self) -> None:
        """The folder keeps its place: the next request sees the next photograph, as a tray keeps its dice."""
