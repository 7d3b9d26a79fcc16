"""The ``[camera]`` section made into a running source: the capture it names, the taught set, the thread."""

from __future__ import annotations

import queue
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hardware.camera import taught as taught_store
from hardware.camera.capture import Capture, FolderCapture, PiCamera, VideoCapture
from hardware.camera.source import CameraSource


def make_capture(section: Any) -> Capture:
    if section.capture == "folder":
        return FolderCapture(section.folder, max(section.settle_frames + 1, 4))
    if section.capture == "picamera":
        return PiCamera(section.width, section.height)
    return VideoCapture(section.device, section.width, section.height)


def start_camera(section: Any, inbox: queue.Queue[Any], wanted: Callable[[], tuple[str, ...]]) -> CameraSource:
    taught = taught_store.load(taught_store.check_name(section.dice_set), Path(section.sets))
    return CameraSource(inbox, make_capture(section), wanted, taught, section.fps, section.settle_frames).start()
