"""The projector in the running box: ``show(frame)`` for the loop (outputs.py opens the configured output).

SDL quietly falls back to an offscreen driver when the one asked for is missing, which would "work" while
showing nothing: ``fell_back`` tells such a fall, and the outputs check the driver actually chosen.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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
        self._table: Any = None
        self.table = table
        self.shown = 0
        self._surface: Any = None
        self._prepared: Any = None
        """The frame drawn by :meth:`prepare` and not shown yet."""
        self._owed: list[pygame.Rect] = []
        """Rectangles drawn since the last frame shown: the next :meth:`show` puts them all on the screen."""

    @property
    def table(self) -> Any:
        """A warp.TableProjection when the projector draws onto the printed board (``companion calibrate``)."""
        return self._table

    @table.setter
    def table(self, table: Any) -> None:
        """Given a projection, the renderer draws on a surface of its own if it drew on the screen: the warp reads
        the map from the renderer's surface and puts the warped picture on the screen."""
        self._table = table
        if table is not None and self.screen is not None and self.renderer.surface is self.screen:
            self.renderer = ProjectorRenderer(self.renderer.size)

    def prepare(self, frame: Any, landing: Any = None) -> None:
        """Draw ``frame`` (only what changed, and warped onto a board when calibrated) without showing it:
        the loop draws while the journal's write reaches the disk, and shows the frame once it is there
        (SDL's screen is the loop thread's, so ``landing``, that write, is not waited on here). The renderer may
        draw on SDL's screen itself: nothing reaches the display until :meth:`show` updates it, so nothing else
        may update the display (a flip, an expose handler) between the two."""
        if self._gone():  # nothing to draw on (the renderer may draw on the screen itself): show says so
            return
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
        if self._gone():
            self.screen = None
            raise pygame.error("the display was closed")
        if self._prepared is not frame:
            self.prepare(frame)
        self._prepared = None
        self.shown += 1
        dirty, self._owed = self._owed, []
        if dirty:
            self._present(self._surface, dirty)

    def _gone(self) -> bool:
        """The screen's display was closed under the view (projector unplugged, SDL shut down)."""
        return self.screen is not None and not pygame.display.get_init()

    def _present(self, surface: Any, dirty: list[pygame.Rect]) -> None:
        """The changed rectangles onto SDL's screen (none: only drawn, the headless table)."""
        if self.screen is None:
            return
        try:
            if surface is not self.screen:  # the renderer draws on the screen itself unless a warp comes between
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

    def rest(self) -> int:
        """The table rests (the loop says when): the renderer's scratch memory goes back to the system."""
        return self.renderer.rest()

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
