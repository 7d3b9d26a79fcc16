"""The projector in the running box: ``show(frame)`` for the loop, and opening its output.

Each output is one small class chosen by ``[projector] driver``: on the Pi's console the Linux
framebuffer (fbdev.py: no OpenGL, the box's memory budget), else SDL's KMSDRM driver (no desktop
needed) or a desktop's (``ScreenOutput``, here). SDL quietly falls back to an offscreen driver
when the one asked for is missing, which would "work" while showing nothing, so the driver actually
chosen is checked. When no output can be opened the box carries on with the OLED alone:
``open_projector`` returns None after saying so once.
"""

from __future__ import annotations

import glob
import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import pygame

from companion.views.projector.layout import DEFAULT_SIZE
from companion.views.projector.renderer import ProjectorRenderer

log = logging.getLogger(__name__)

HEADLESS_DRIVERS = ("offscreen", "dummy")


class SurfaceImage:
    """A pygame surface with the ``save(path)`` the frames folder calls on every image."""

    def __init__(self, surface: Any) -> None:
        self.surface = surface

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    def save(self, path: str | Path) -> None:
        """PNG through Pillow at low compression: a frames folder gets a PNG per change, and pygame's
        own PNG writer (zlib level 6) costs several times as much for a few per cent of size."""
        from PIL import Image

        size = self.surface.get_size()
        Image.frombytes("RGB", size, pygame.image.tobytes(self.surface, "RGB")).save(path, compress_level=1)


class ProjectorView:
    """Renders each frame (only what changed) and, with a screen, updates just the changed rectangles."""

    def __init__(self, renderer: ProjectorRenderer | None = None, screen: Any = None, table: Any = None) -> None:
        self.renderer = renderer or ProjectorRenderer(screen.get_size() if screen is not None else DEFAULT_SIZE)
        self.screen = screen
        self.table = table
        """A warp.TableProjection when the projector draws onto the printed board (``companion calibrate``)."""
        self.shown = 0
        self._surface: Any = None
        self._prepared: Any = None
        """The frame drawn by :meth:`prepare` and not shown yet."""
        self._owed: list[pygame.Rect] = []
        """Rectangles drawn since the last frame shown: the next :meth:`show` puts them all on the screen."""

    def prepare(self, frame: Any, landing: Any = None) -> None:
        """Draw ``frame`` (only what changed, and warped onto a board when calibrated) without showing it:
        the loop draws while the journal's write reaches the disk, and shows the frame once it is there
        (SDL's screen is the loop thread's, so ``landing``, that write, is not waited on here)."""
        surface, dirty = self.renderer.render(frame), self.renderer.dirty
        if self.table is not None and dirty:  # the last step: the map warped onto the board, the rest black
            warped = self.table.project(self.renderer, frame)  # only where the changed rectangles land
            surface, dirty = (warped, self.table.dirty) if warped is not None else (surface, dirty)
        self._surface = surface
        self._owed += dirty
        self._prepared = frame

    def show(self, frame: Any) -> None:
        """Show ``frame`` (drawn now unless :meth:`prepare` drew it); a screen that went away (projector
        unplugged, display closed) raises pygame.error once, and the loop then drops this view and says so:
        the OLED carries on."""
        if self._prepared is not frame:
            self.prepare(frame)
        self._prepared = None
        self.shown += 1
        dirty, self._owed = self._owed, []
        if dirty:
            self._present(self._surface, dirty)

    def _present(self, surface: Any, dirty: list[pygame.Rect]) -> None:
        """The changed rectangles onto SDL's screen (none: only drawn, the headless table)."""
        if self.screen is None:
            return
        try:
            if not pygame.display.get_init():
                raise pygame.error("the display was closed")
            for rect in dirty:
                self.screen.blit(surface, rect, rect)
            pygame.display.update(dirty)
        except pygame.error:
            self.screen = None
            raise

    @property
    def image(self) -> SurfaceImage | None:
        """The last frame drawn (None before the first), for the headless frames folder."""
        return SurfaceImage(self._surface) if self.shown else None

    def pump(self) -> None:
        """Keep SDL's event queue drained on a fullscreen display (nothing is read from it). Once the
        display is gone there is nothing to drain; ``show`` reports it."""
        if self.screen is None or not pygame.display.get_init():
            return
        try:
            pygame.event.pump()
        except pygame.error:
            return

    def close(self) -> None:
        if self.screen is not None:
            pygame.display.quit()
            self.screen = None


def fell_back(wanted: str | None) -> str:
    """The headless driver SDL chose by itself when ``wanted`` (None: SDL's own pick) was not one:
    no display behind it, so a window would "work" and show nothing. Empty when all is well."""
    actual = pygame.display.get_driver() if pygame.display.get_init() else ""
    return actual if actual in HEADLESS_DRIVERS and wanted not in HEADLESS_DRIVERS else ""


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


@contextmanager
def sdl_video_driver(name: str | None) -> Iterator[None]:
    """SDL_VIDEODRIVER set to ``name`` (None: left as it is) while SDL's video starts, then put back: the
    choice is this output's, not the process's (a later window, a test, must not inherit it)."""
    previous = os.environ.get("SDL_VIDEODRIVER")
    if name is not None:
        os.environ["SDL_VIDEODRIVER"] = name
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("SDL_VIDEODRIVER", None)
        else:
            os.environ["SDL_VIDEODRIVER"] = previous


class ScreenOutput:
    """The projector output through an SDL video driver (KMSDRM on a console, X11 or Wayland under a
    desktop, offscreen or dummy for tests): ``open`` gives the loop's view, or None after saying once why.

    SDL quietly falls back to an offscreen driver when the one asked for is missing; that counts as no
    display."""

    def __init__(self, sdl_driver: str | None) -> None:
        self.sdl_driver = sdl_driver
        """The SDL video driver asked for; None lets SDL pick (a desktop's)."""

    def open(self, config: Any, say: Callable[[str], None]) -> ProjectorView | None:
        wanted = self.sdl_driver
        size = (getattr(config, "width", DEFAULT_SIZE[0]), getattr(config, "height", DEFAULT_SIZE[1]))
        try:
            with sdl_video_driver(wanted):
                pygame.display.init()
            actual = pygame.display.get_driver()
            if fell_back(wanted):
                raise pygame.error(f"SDL fell back to the {actual} driver")
            flags = pygame.FULLSCREEN if getattr(config, "fullscreen", True) else 0
            screen = pygame.display.set_mode(size, flags, display=getattr(config, "display", 0))
            pygame.display.set_caption("storm companion")
            pygame.mouse.set_visible(False)
        except pygame.error as exc:
            pygame.display.quit()
            say(f"projector: no display ({exc})"[:80])
            return None
        log.info("projector: %s %dx%d on display %d", actual, *screen.get_size(), getattr(config, "display", 0))
        return ProjectorView(ProjectorRenderer(screen.get_size()), screen)


class Output(Protocol):
    """One way out to the projector, chosen by ``[projector] driver`` (as kvmd picks a plugin by name)."""

    def open(self, config: Any, say: Callable[[str], None]) -> ProjectorView | None: ...


def output_for(driver: str | None) -> Output:
    """The output class for a chosen driver: "fbdev" writes the framebuffer (imported only then), any
    other name is an SDL video driver."""
    if driver == "fbdev":
        from companion.views.projector.fbdev import FbdevOutput

        return FbdevOutput()
    return ScreenOutput(driver)


def open_projector(config: Any, say: Callable[[str], None], *, framebuffer: bool = True) -> ProjectorView | None:
    """A ProjectorView on the configured output, or None after ``say``-ing once why there is none.

    ``config`` is companion.config.ProjectorConfig (enabled, driver, width, height, fullscreen, display,
    framebuffer, framebuffer_sysfs, calibration). ``framebuffer=False`` is for a caller that needs an SDL
    window of its own (``companion calibrate`` reads its events and flips it): "auto" then never picks the
    framebuffer, and "fbdev" opens SDL's KMSDRM instead.
    """
    if not getattr(config, "enabled", True):
        return None
    driver = getattr(config, "driver", "auto")
    device = getattr(config, "framebuffer", "") or "/dev/fb0"
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
    if getattr(config, "calibration", ""):  # only a box calibrated onto its board pays for numpy and the warp
        from companion.views.projector.warp import table_for

        view.table = table_for(config, view.renderer.size, say)
    return view
