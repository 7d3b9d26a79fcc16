"""The projector on the Linux framebuffer (/dev/fb0): the map without OpenGL, so the box stays small.

Why: SDL2's KMSDRM driver always presents through OpenGL ES, and the GL stack is most of the box's
resident set (188 MB with it, about 80 MB without: docs/performance.md). The renderer already keeps
the whole picture in a software ``pygame.Surface`` and knows which rectangles changed, so this output
copies just those rectangles into the framebuffer device through ``mmap``, converted to the device's
pixel format. The Pi's vc4 KMS driver provides /dev/fb0 through its fbdev emulation (the console's).

What is lost against KMSDRM: no vsync and no page flip. The rectangles land while the screen is being
scanned out, so a big change can tear for one refresh. The vc4 emulation allocates one screen (its
virtual height is the visible height unless the kernel is told ``drm_kms_helper.drm_fbdev_overalloc=200``),
so there is no second buffer to pan to with FBIOPAN_DISPLAY; the tearing is accepted (the map changes
once per roll or button press, not in animation).

SDL's video is started on its ``dummy`` driver only (no window, no GL: about 1 MB), because the USB
gamepad's events arrive on SDL's event queue, which needs an initialised display; the KMSDRM driver,
which would load GL, is never started here.
The device's geometry comes from its sysfs directory (/sys/class/graphics/fb0: ``virtual_size``,
``bits_per_pixel``, ``stride``), which the tests replace with a folder of their own beside a regular
file of the right size.
"""

from __future__ import annotations

import errno
import logging
import mmap
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from companion.views.projector.renderer import ProjectorRenderer
from companion.views.projector.view import ProjectorView, sdl_video_driver

log = logging.getLogger(__name__)

DEFAULT_DEVICE = "/dev/fb0"

FORMATS: dict[int, tuple[str, tuple[int, int, int, int]]] = {
    16: ("RGB565", (0xF800, 0x07E0, 0x001F, 0)),
    24: ("RGB888", (0xFF0000, 0x00FF00, 0x0000FF, 0)),
    32: ("XRGB8888", (0xFF0000, 0x00FF00, 0x0000FF, 0)),
}
"""Bits per pixel -> the pixel format the kernel's DRM fbdev emulation gives that depth, and its masks
in the machine's own byte order (the framebuffer's, and pygame's)."""


class FramebufferError(Exception):
    """The framebuffer cannot be used; the message is the one line the box says."""


def sysfs_for(device: str) -> Path:
    """/sys/class/graphics/fbN for /dev/fbN: where the kernel publishes that framebuffer's geometry."""
    return Path("/sys/class/graphics") / Path(device).name


@dataclass(frozen=True)
class Geometry:
    """What the kernel says of one framebuffer: visible size, virtual height, depth and bytes per row."""

    width: int
    height: int
    virtual_height: int
    bits_per_pixel: int
    stride: int

    @property
    def format(self) -> str:
        return FORMATS[self.bits_per_pixel][0]

    @property
    def bytes_per_pixel(self) -> int:
        return self.bits_per_pixel // 8

    @property
    def length(self) -> int:
        """The bytes mapped: every row of the virtual screen."""
        return self.stride * self.virtual_height


def read_geometry(sysfs: Path) -> Geometry:
    """The geometry from ``sysfs``; an absent, unreadable or unsupported entry raises FramebufferError
    naming the file and what was wrong."""

    def entry(name: str) -> str:
        path = sysfs / name
        try:
            return path.read_text().strip()
        except OSError as exc:
            raise FramebufferError(f"{path}: cannot read ({exc.strerror})") from None

    def number(name: str, text: str) -> int:
        if not text.isdigit() or int(text) == 0:
            raise FramebufferError(f"{sysfs / name}: expected a positive number, got {text!r}")
        return int(text)

    size = entry("virtual_size")
    parts = size.split(",")
    if len(parts) != 2:
        raise FramebufferError(f"{sysfs / 'virtual_size'}: expected WIDTH,HEIGHT, got {size!r}")
    width, virtual_height = (number("virtual_size", p.strip()) for p in parts)
    bits = number("bits_per_pixel", entry("bits_per_pixel"))
    if bits not in FORMATS:
        raise FramebufferError(f"{sysfs / 'bits_per_pixel'}: {bits} bits a pixel is not supported (16, 24 or 32)")
    stride = number("stride", entry("stride"))
    if stride < width * bits // 8:
        raise FramebufferError(f"{sysfs / 'stride'}: {stride} bytes cannot hold a row of {width} pixels")
    height = _visible_height(sysfs, width, virtual_height)
    return Geometry(width, height, virtual_height, bits, stride)


def _visible_height(sysfs: Path, width: int, virtual_height: int) -> int:
    """The visible height: the current mode (``modes``, e.g. "U:1920x1080p-0") when the virtual screen
    is taller than one screen, else the virtual height itself."""
    try:
        first = (sysfs / "modes").read_text().split("\n", 1)[0]
    except OSError:
        return virtual_height
    size = first.split(":")[-1].split("p")[0].split("i")[0]
    w, _, h = size.partition("x")
    if w.isdigit() and h.isdigit() and int(w) == width and 0 < int(h) <= virtual_height:
        return int(h)
    return virtual_height


class Framebuffer:
    """One framebuffer device mapped into memory, written a rectangle at a time in its own format."""

    def __init__(self, device: str, sysfs: Path | None = None) -> None:
        self.device = device
        try:
            fd = os.open(device, os.O_RDWR | os.O_CLOEXEC)
        except OSError as exc:
            hint = ", not in the video group" if exc.errno in (errno.EACCES, errno.EPERM) else ""
            raise FramebufferError(f"{device}: {(exc.strerror or str(exc)).lower()}{hint}") from None
        try:
            self.geometry = g = read_geometry(sysfs if sysfs is not None else sysfs_for(device))
            self._map: mmap.mmap | None = mmap.mmap(fd, g.length, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        except (OSError, ValueError) as exc:
            raise FramebufferError(f"{device}: cannot map {g.length} bytes ({exc})") from None
        finally:
            os.close(fd)
        self._scratch: Any = None
        """A surface in the device's format, the size of the screen: the rectangles are converted into
        it (by pygame's blit) when the picture's own format is not the device's."""
        self.rows_written = 0

    @property
    def size(self) -> tuple[int, int]:
        return self.geometry.width, self.geometry.height

    def _source(self, surface: Any, rects: list[Any]) -> Any:
        """A surface holding ``rects`` of ``surface`` in the device's format: ``surface`` itself when
        its format already is (32-bit XRGB8888 is pygame's own default), else the scratch surface."""
        g = self.geometry
        masks = FORMATS[g.bits_per_pixel][1]
        if surface.get_bitsize() == g.bits_per_pixel and surface.get_bytesize() == g.bytes_per_pixel and \
                tuple(surface.get_masks())[:3] == masks[:3]:
            return surface
        if self._scratch is None or self._scratch.get_size() != surface.get_size():
            self._scratch = pygame.Surface(surface.get_size(), 0, g.bits_per_pixel, masks)
        for rect in rects:
            self._scratch.blit(surface, rect, rect)
        return self._scratch

    def write(self, surface: Any, rects: Iterable[Any]) -> None:
        """Copy ``rects`` of ``surface`` (the screen's size or smaller, from the top left) to the screen.
        A closed device raises ValueError, a failing one OSError."""
        if self._map is None:
            raise ValueError(f"{self.device} is closed")
        bounds = pygame.Rect((0, 0), self.size).clip(surface.get_rect())
        clipped = [r for r in (pygame.Rect(rect).clip(bounds) for rect in rects) if r.w and r.h]
        if not clipped:
            return
        source = self._source(surface, clipped)
        pitch, stride, bpp = source.get_pitch(), self.geometry.stride, self.geometry.bytes_per_pixel
        view = memoryview(source.get_buffer()).cast("B")  # locks the surface until released
        try:
            out = self._map
            for rect in clipped:
                width = rect.w * bpp
                src, dst = rect.y * pitch + rect.x * bpp, rect.y * stride + rect.x * bpp
                if width == pitch == stride:  # whole rows, the same layout: one copy
                    out[dst:dst + rect.h * stride] = view[src:src + rect.h * pitch]
                else:
                    for _ in range(rect.h):
                        out[dst:dst + width] = view[src:src + width]
                        src += pitch
                        dst += stride
                self.rows_written += rect.h
        finally:
            view.release()

    def close(self) -> None:
        if self._map is not None:
            self._map.close()
            self._map = None


class FramebufferView(ProjectorView):
    """The loop's projector view on a framebuffer: ``ProjectorView`` renders (and warps, calibrated onto a
    board) with no screen of SDL's, then the changed rectangles are copied to the device.

    A device that fails (gone, closed) raises pygame.error once, as a lost SDL screen does, so the loop
    drops this view and the OLED carries on; later calls only render."""

    def __init__(self, framebuffer: Framebuffer, renderer: ProjectorRenderer | None = None,
                 table: Any = None) -> None:
        super().__init__(renderer or ProjectorRenderer(framebuffer.size), None, table)
        self.framebuffer: Framebuffer | None = framebuffer

    def _present(self, surface: Any, dirty: list[pygame.Rect]) -> None:
        """The changed rectangles copied to the device (no SDL screen here)."""
        device = self.framebuffer
        if device is None:
            return
        # the renderer's own picture comes with its changed rectangles; a warped one is a new picture
        dirty = dirty if surface is self.renderer.surface else [surface.get_rect()]
        try:
            device.write(surface, dirty)
        except (OSError, ValueError) as exc:
            self.framebuffer = None
            device.close()
            raise pygame.error(f"the framebuffer {device.device} failed ({exc})") from None

    def close(self) -> None:
        if self.framebuffer is not None:
            self.framebuffer.close()
            self.framebuffer = None
        if self.events_started:
            pygame.display.quit()
            self.events_started = False

    events_started = False
    """Whether this view started SDL's event queue (see :func:`start_event_queue`)."""


def start_event_queue() -> bool:
    """SDL's event queue, where a USB gamepad's buttons arrive, on SDL's ``dummy`` video driver: no
    window and no GL (the reason for the framebuffer output). True when this call started it; False
    when a display was already up or SDL refused (then the buttons and the tower carry the game)."""
    if pygame.display.get_init():
        return False
    try:
        with sdl_video_driver("dummy"):
            pygame.display.init()
    except pygame.error as exc:
        log.info("projector: no event queue for a gamepad (%s)", exc)
        return False
    return True


class FbdevOutput:
    """The projector output on a framebuffer device: ``open`` gives the loop's view, or None after
    saying once why not (no device, no permission, a format it cannot write)."""

    name = "fbdev"

    @staticmethod
    def open(config: Any, say: Callable[[str], None]) -> ProjectorView | None:
        device = getattr(config, "framebuffer", "") or DEFAULT_DEVICE
        sysfs = getattr(config, "framebuffer_sysfs", "")
        try:
            framebuffer = Framebuffer(device, Path(sysfs) if sysfs else None)
        except FramebufferError as exc:
            say(f"projector: no framebuffer ({exc})")
            return None
        g = framebuffer.geometry
        wanted = (getattr(config, "width", g.width), getattr(config, "height", g.height))
        if wanted != framebuffer.size:
            log.info("projector: the framebuffer's mode is %dx%d, not the configured %dx%d: drawn at the mode's",
                     g.width, g.height, *wanted)
        log.info("projector: fbdev %s %dx%d %s (no GL; no vsync)", device, g.width, g.height, g.format)
        view = FramebufferView(framebuffer)
        view.events_started = start_event_queue()
        return view
