"""The camera over the tray as a source type: its options are the ``[camera]`` section's (checked by the same
reader), and starting it opens the capture, loads the taught set and adds "Teach dice" to the main menu."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.config import CameraConfig, read_section
from companion.datafile import Fields
from companion.sources import Closeable, SourceContext, SourceType


def _read(f: Fields) -> CameraConfig:
    options: CameraConfig = read_section("camera", f)
    return options


def _start(options: CameraConfig, context: SourceContext) -> Closeable:
    from hardware.camera.teach_menu import teach_action  # OpenCV and the reader: only for a box with a camera
    from hardware.camera.wiring import start_camera

    source = start_camera(options, context.inbox, context.wanted)
    context.add_action("Teach dice", teach_action(source, Path(options.sets), context.inbox))
    return source


def _describe(options: CameraConfig, part: Any) -> str:
    return options.capture


CAMERA = SourceType("camera", CameraConfig, _start, describe=_describe, read=_read)
