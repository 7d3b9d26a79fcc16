"""The projector's outputs, one small class each, chosen by ``[projector] driver`` as kvmd picks a plugin by name:
the Linux framebuffer on a console (fbdev.py, imported only when chosen), or an SDL video driver (KMSDRM on a
console, a desktop's window, offscreen or dummy in tests). ``open_projector`` is what the box calls.

Kept apart from view.py (the view the loop draws through) so that the framebuffer output, which builds on that
view, and the chooser, which names the framebuffer output, import each other in one direction only.
"""

from __future__ import annotations

import glob
import logging
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Protocol

import pygame

from companion.views.projector.renderer import ProjectorRenderer
from companion.views.projector.settings import ProjectorSettings
from companion.views.projector.view import ProjectorView, fell_back, sdl_video_driver

log = logging.getLogger(__name__)


def choose_driver(driver: str, environ: dict[str, str] | os._Environ[str] = os.environ,
                  framebuffer: str | None = None, drm: bool | None = None) -> str | None:
    """The projector output to open: "auto" means the desktop's own SDL driver under a desktop, and on a
    console the framebuffer when ``framebuffer`` (a device path) exists, SDL's KMSDRM when only a DRM card
    does (``drm``; None: look for /dev/dri/card*), and with neither the framebuffer again, waited for (a Pi
    booted with no display has its /dev/fb0 made when one is plugged in).

    The framebuffer comes first on a console for memory: SDL2's KMSDRM always presents through OpenGL
    ES, and the GL stack is most of the box's resident set (fbdev.py). What it gives up is vsync and the
    page flip (a big change may tear for one refresh). None means SDL's own pick (a desktop)."""
    if driver != "auto":
        return driver
    if environ.get("WAYLAND_DISPLAY") or environ.get("DISPLAY"):
        return None
    if framebuffer and os.path.exists(framebuffer):
        return "fbdev"
    if drm is None:
        drm = bool(glob.glob("/dev/dri/card*"))
    return "kmsdrm" if drm or not framebuffer else "fbdev"


class ScreenOutput:
    """The projector output through an SDL video driver (KMSDRM on a console, X11 or Wayland under a
    desktop, offscreen or dummy for tests): ``open`` gives the loop's view, or None after saying once why.

    SDL quietly falls back to an offscreen driver when the one asked for is missing; that counts as no
    display."""

    def __init__(self, sdl_driver: str | None) -> None:
        self.sdl_driver = sdl_driver
        """The SDL video driver asked for; None lets SDL pick (a desktop's)."""

    def open(self, config: ProjectorSettings, say: Callable[[str], None]) -> ProjectorView | None:
        wanted = self.sdl_driver
        size = (config.width, config.height)
        if wanted == "kmsdrm" and (trouble := kmsdrm_trouble(size)):
            say(f"projector: no display ({trouble})"[:80])
            return None
        try:
            with sdl_video_driver(wanted):
                pygame.display.init()
            actual = pygame.display.get_driver()
            if fell_back(wanted):
                raise pygame.error(f"SDL fell back to the {actual} driver")
            flags = pygame.FULLSCREEN if config.fullscreen else 0
            screen = pygame.display.set_mode(size, flags, display=config.display)
            pygame.display.set_caption("storm companion")
            pygame.mouse.set_visible(False)
        except pygame.error as exc:
            pygame.display.quit()
            say(f"projector: no display ({exc})"[:80])
            return None
        log.info("projector: %s %dx%d on display %d", actual, *screen.get_size(), config.display)
        return ProjectorView(ProjectorRenderer(screen.get_size(), screen), screen)


class Output(Protocol):
    """One way out to the projector, chosen by ``[projector] driver`` (as kvmd picks a plugin by name)."""

    def open(self, config: ProjectorSettings, say: Callable[[str], None]) -> ProjectorView | None: ...


def output_for(driver: str | None) -> Output:
    """The output class for a chosen driver: "fbdev" writes the framebuffer (imported only then), any
    other name is an SDL video driver."""
    if driver == "fbdev":
        from companion.views.projector.fbdev import FbdevOutput

        return FbdevOutput()
    return ScreenOutput(driver)


def open_projector(config: ProjectorSettings, say: Callable[[str], None], *,
                   framebuffer: bool = True) -> ProjectorView | None:
    """A ProjectorView on the configured output, or None after ``say``-ing once why there is none.

    ``config`` is companion.config.ProjectorConfig (enabled, driver, width, height, fullscreen, display,
    framebuffer, framebuffer_sysfs, calibration). ``framebuffer=False`` is for a caller that needs an SDL
    window of its own (``companion calibrate`` reads its events and flips it): "auto" then never picks the
    framebuffer, and "fbdev" opens SDL's KMSDRM instead.
    """
    if not config.enabled:
        return None
    driver = config.driver
    device = config.framebuffer or "/dev/fb0"
    wanted = choose_driver(driver, framebuffer=device if framebuffer else None)
    if wanted == "fbdev" and not framebuffer:
        wanted = "kmsdrm"
    view = output_for(wanted).open(config, say)
    if view is None and driver == "auto" and wanted == "kmsdrm" and framebuffer:
        # no display yet (KMSDRM finds no connected screen): the framebuffer the kernel makes when one is
        # plugged in is waited for
        view = output_for("fbdev").open(config, say)
    if view is None:
        return None
    if config.calibration:  # only a box calibrated onto its board pays for numpy and the warp
        from companion.views.projector.warp import table_for

        view.table = table_for(config, view.renderer.size, say)  # the renderer then draws apart (ProjectorView.table)
    return view


KMSDRM_PROBE = """
import os, sys
os.environ["SDL_VIDEODRIVER"] = "kmsdrm"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame
pygame.display.init()
pygame.display.set_mode((int(sys.argv[1]), int(sys.argv[2])), pygame.FULLSCREEN)
"""
"""What opening the projector through SDL's KMSDRM does, run in a child first (see :func:`kmsdrm_trouble`)."""


def kmsdrm_trouble(size: tuple[int, int], timeout: float = 20.0) -> str:
    """Why SDL's KMSDRM cannot open the display, or "" when a child process could: SDL's KMSDRM, given a DRM
    card with no framebuffer emulation or no EGL driver for it, can crash the process inside ``set_mode``
    (pygame's parachute: a fatal error, not an exception), and under systemd that is a restart loop that
    never shows a map. A child that crashes costs nothing; the box then waits for a framebuffer instead."""
    try:
        child = subprocess.run([sys.executable, "-c", KMSDRM_PROBE, str(size[0]), str(size[1])],
                               capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"KMSDRM did not start: {exc.__class__.__name__}"
    if child.returncode == 0:
        return ""
    if child.returncode < 0:
        return f"KMSDRM crashed (signal {-child.returncode})"
    lines = [line for line in child.stderr.strip().splitlines() if line.strip()]
    return lines[-1].split(": ", 1)[-1] if lines else f"KMSDRM failed (exit {child.returncode})"
