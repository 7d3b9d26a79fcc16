"""The camera over the tray as a source: starting it opens the capture, loads the taught set and adds "Teach dice"
to the main menu. Its type (options: the ``[camera]`` section's ``CameraConfig``, read by the same reader) is
declared in companion.config, which knows the section; this module imports nothing above the registry."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.sources import Closeable, SourceContext


def start(options: Any, context: SourceContext) -> Closeable:
    """Start the camera with ``options`` (a ``CameraConfig``)."""
    from hardware.camera.teach_menu import teach_action  # OpenCV and the reader: only for a box with a camera
    from hardware.camera.wiring import start_camera

    source = start_camera(options, context.inbox, context.wanted)
    context.add_action("Teach dice", teach_action(source, Path(options.sets), context.inbox))
    return source


def describe(options: Any, part: Any) -> str:
    return str(options.capture)
