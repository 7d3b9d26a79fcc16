"""The map as the ``[projector]`` output: "screen" the configured driver (the framebuffer or an SDL screen,
companion.views.projector.outputs) with the gamepads read from its SDL; "window" the laptop window (the map with
the OLED beside it, keys on the mock pins, T for a tower throw); "frames" drawn off screen and written, with the
OLED's image, as PNGs into ``frames`` (nothing drawn when it names no folder). The options are the
``[projector]`` section (companion.config.ProjectorConfig). No screen is said once; the OLED carries on alone."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from companion.sources import Opened, SourceContext

log = logging.getLogger("companion.sim")


def start_screen(options: Any, context: SourceContext) -> Opened:
    """Fullscreen on the box; a USB gamepad is read from the same SDL (so not on the framebuffer output)."""
    from companion.views.projector import open_projector  # pygame: only for a box with a projector

    view = open_projector(options, context.say)
    if view is None:
        return Opened(None, "none")
    if hasattr(view, "tell"):  # the framebuffer's output says when its device goes and comes back
        view.tell = context.tell
    from companion.source_types import gamepad

    gamepad.start(gamepad.GamepadOptions(), context)  # a USB gamepad as the buttons, through the same SDL
    context.add_pump(view.pump, False)  # drains SDL's queue: no one waits on it
    context.add_view(view)
    context.parts["projector-view"] = view
    return Opened(view, f"{options.driver} {'fullscreen' if options.fullscreen else 'window'}", (view.close,))


def start_frames(options: Any, context: SourceContext) -> Opened:
    """The map drawn off screen only when frames are written (else pygame and the renderer stay unloaded)."""
    if not options.frames:
        return Opened(None, "headless")
    from companion.session.views import FrameFolder
    from companion.views.projector import ProjectorRenderer, ProjectorView

    view = ProjectorView(ProjectorRenderer((options.width, options.height)))
    context.add_view(view)
    context.parts["projector-view"] = view
    oled = context.parts.get("oled-view")
    images: dict[str, Any] = {}
    if oled is not None:
        images["oled"] = lambda: oled.image
    images["projector"] = lambda: view.image
    context.add_view(FrameFolder(Path(options.frames), images))
    context.parts["frames"] = options.frames
    return Opened(view, "headless")


def start_window(options: Any, context: SourceContext) -> Opened:
    """The laptop window: the map with the OLED image beside it, keys on the mock pins, T for a tower throw, O for
    the risk overlay, a gamepad. Started after the inputs and the OLED, whose parts it shows and drives."""
    from companion.session.window import MAP_SIZE, OledWindow
    from companion.views.projector import ProjectorRenderer

    oled = context.parts.get("oled-view")
    window = OledWindow(context.inbox, context.parts.get("keys"), (lambda: oled.image if oled else None),
                        tower=context.parts.get("tower-device"), wanted=context.wanted,
                        projector=ProjectorRenderer(MAP_SIZE))
    context.add_view(window)
    context.add_pump(window.pump, True)
    context.parts["window"] = "pygame"
    warn_if_invisible()
    return Opened(window, "window", (window.close,))


def warn_if_invisible() -> None:
    """SDL quietly falls back to an offscreen driver where there is no display (a server, an SSH
    session): the window then "works" and shows nothing. Say so once, with what to do instead."""
    from companion.views.projector.view import fell_back

    driver = fell_back(os.environ.get("SDL_VIDEODRIVER"))
    if driver:
        log.warning("window: no display here (SDL fell back to %s), nothing will show; "
                    "run with --headless --out DIR to get the frames as PNGs", driver)


def describe(options: Any, opened: Opened) -> str:
    return opened.word
