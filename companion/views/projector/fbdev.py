"""The projector on the Linux framebuffer (/dev/fb0): the map without OpenGL, so the box stays small.

Why: SDL2's KMSDRM driver always presents through OpenGL ES, and the GL stack is most of the box's
resident set (more than half of it: docs/performance.md, "Why the code is the way it is"). The renderer already keeps
the whole picture in a software ``pygame.Surface`` and knows which rectangles changed, so this output
copies just those rectangles into the framebuffer device through ``mmap``, converted to the device's
pixel format. The Pi's vc4 KMS driver provides /dev/fb0 through its fbdev emulation (the console's).

What is lost against KMSDRM: no vsync and no page flip. The rectangles land while the screen is being
scanned out, so a big change can tear for one refresh. The vc4 emulation allocates one screen (its
virtual height is the visible height unless the kernel is told ``drm_kms_helper.drm_fbdev_overalloc=200``),
so there is no second buffer to pan to with FBIOPAN_DISPLAY; the tearing is accepted (the map changes
once per roll or button press, not in animation).

SDL's video is started on its ``dummy`` driver only (no window, no GL, next to nothing in memory), because the USB
gamepad's events arrive on SDL's event queue, which needs an initialised display; the KMSDRM driver,
which would load GL, is never started here.
The device's geometry comes from its sysfs directory (/sys/class/graphics/fb0: ``virtual_size``,
``bits_per_pixel``, ``stride``), which the tests replace with a folder of their own beside a regular
file of the right size. Both depths the kernel gives are written in their own format: RGB565 (16 bits, what the
Pi's KMS fbdev emulation has by default) and XRGB8888 (32 bits, ``fbset -depth 32`` or the ``video=`` mode's
``-32``), converted by pygame's blit from the picture's own.

Writes go through a shared mapping, and a mapping outlives what it maps: a device that shrinks under it turns the
next write into SIGBUS (the process dies, no exception), and a device node removed and made again (a display
driver reloaded, the framebuffer given up and taken anew on hot-plug) leaves the box drawing into memory nobody
shows. So before each batch of rectangles the device is checked (``stat`` of the node against the one opened;
for a regular file, ``fstat`` of the open descriptor against the mapping's length: a device node's size reads 0,
so on a real /dev/fb0 a smaller mode is found by the sysfs check below, not before the write), and about once a second
its geometry is read again from sysfs; a device that failed a check is closed, said in one line, and opened
again (at its new mode, the whole picture repainted) once it can be. A device absent at start (no display
plugged in at boot) is waited for the same way. What remains is the microseconds between the check and the copy.

On a real framebuffer the console is put in graphics mode while the box draws (console.py), and the screen's
owner is said when it is not the box (a desktop, another console in front).
"""

from __future__ import annotations

import errno
import logging
import mmap
import os
import stat
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from companion.views.projector import console as console_module
from companion.views.projector.console import ConsoleMode
from companion.views.projector.layout import DEFAULT_SIZE
from companion.views.projector.renderer import ProjectorRenderer
from companion.views.projector.settings import ProjectorSettings
from companion.views.projector.view import ProjectorView, sdl_video_driver

log = logging.getLogger(__name__)
LOST = "projector lost: the map comes back when it does"
"""What the table reads when the framebuffer goes (shrunk, removed, replaced, a new mode); the log says which."""
BACK = "projector back"

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


class FramebufferGone(FramebufferError):
    """The framebuffer opened is no longer the one to write (shrunk, removed, replaced, another mode)."""


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
    """One framebuffer device mapped into memory, written a rectangle at a time in its own format, and checked
    before each write that the mapping still covers the device (see the module's docstring)."""

    def __init__(self, device: str, sysfs: Path | None = None) -> None:
        self.device = device
        self.sysfs = sysfs if sysfs is not None else sysfs_for(device)
        try:
            fd = os.open(device, os.O_RDWR | os.O_CLOEXEC)
        except OSError as exc:
            hint = ", not in the video group" if exc.errno in (errno.EACCES, errno.EPERM) else ""
            raise FramebufferError(f"{device}: {(exc.strerror or str(exc)).lower()}{hint}") from None
        try:
            self.geometry = g = read_geometry(self.sysfs)
            opened = os.fstat(fd)
            try:
                self._map: mmap.mmap | None = mmap.mmap(fd, g.length, mmap.MAP_SHARED,
                                                        mmap.PROT_READ | mmap.PROT_WRITE)
            except (OSError, ValueError) as exc:
                raise FramebufferError(f"{device}: cannot map {g.length} bytes ({exc})") from None
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        """Kept open: its ``fstat`` tells a file that shrank under the mapping."""
        self.identity = (opened.st_dev, opened.st_ino, opened.st_rdev)
        """The node opened: a node at the same path with another identity is another device."""
        self.regular = stat.S_ISREG(opened.st_mode)
        """A regular file (the tests' stand-in) has a size to check; a device node's is 0."""
        self._scratch: pygame.Surface | None = None
        """A surface in the device's format, the size of the screen: the rectangles are converted into
        it (by pygame's blit) when the picture's own format is not the device's."""
        self.rows_written = 0

    @property
    def size(self) -> tuple[int, int]:
        return self.geometry.width, self.geometry.height

    def problem(self, *, geometry: bool = False) -> str:
        """Why the mapping must not be written now ("" when it may): closed, shrunk under the mapping, the node
        removed or replaced; with ``geometry``, also a mode that is no longer the one mapped (sysfs read again)."""
        if self._map is None:
            return "is closed"
        if self.regular:
            size = os.fstat(self._fd).st_size
            if size < self.geometry.length:
                return f"shrank to {size} bytes under its {self.geometry.length}-byte mapping"
        try:
            node = os.stat(self.device)
        except FileNotFoundError:
            return "was removed"
        except OSError as exc:
            return f"cannot be checked ({(exc.strerror or str(exc)).lower()})"
        if (node.st_dev, node.st_ino, node.st_rdev) != self.identity:
            return "was replaced by another device"
        if geometry:
            try:
                now = read_geometry(self.sysfs)
            except FramebufferError as exc:
                return f"lost its mode ({exc})"
            if now != self.geometry:
                return f"changed its mode to {now.width}x{now.height} {now.format}"
        return ""

    def _source(self, surface: pygame.Surface, rects: list[pygame.Rect]) -> pygame.Surface:
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

    def write(self, surface: pygame.Surface, rects: Iterable[pygame.Rect]) -> None:
        """Copy ``rects`` of ``surface`` (the screen's size or smaller, from the top left) to the screen.
        A device that may not be written (:meth:`problem`) raises FramebufferGone, a failing one OSError."""
        reason = self.problem()
        if reason:
            raise FramebufferGone(f"{self.device} {reason}")
        assert self._map is not None
        bounds = pygame.Rect((0, 0), self.size).clip(surface.get_rect())
        clipped = [r for r in (pygame.Rect(rect).clip(bounds) for rect in rects) if r.w and r.h]
        if not clipped:
            return
        source = self._source(surface, clipped)
        pitch, stride, bpp = source.get_pitch(), self.geometry.stride, self.geometry.bytes_per_pixel
        # locks the surface until released; pygame's BufferProxy has the buffer protocol its stubs do not declare
        view = memoryview(source.get_buffer()).cast("B")  # type: ignore[arg-type]
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
            os.close(self._fd)


CHECK_PERIOD = 1.0
"""Seconds between the view's checks of its device's mode (and, with the device gone, between tries to open it
again): a few sysfs reads, too many to make before every write, which checks only the device itself."""


class FramebufferView(ProjectorView):
    """The loop's projector view on a framebuffer: ``ProjectorView`` renders (and warps, calibrated onto a
    board) with no screen of SDL's, then the changed rectangles are copied to the device.

    A device that fails (shrunk, removed, replaced, a new mode, an error) is closed, its reason logged in one
    line, and the table told in words ("projector lost: ...", ``tell``: the OLED's message); the map is still
    drawn, and :meth:`pump` opens the device again once it
    can, at its mode, and puts the whole picture on it. The view stays in the loop all along."""

    def __init__(self, framebuffer: Framebuffer | None, renderer: ProjectorRenderer | None = None,
                 table: Any = None, *, device: str = "", sysfs: Path | None = None,
                 config: ProjectorSettings | None = None,
                 console: ConsoleMode | None = None, tell: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        size = framebuffer.size if framebuffer is not None else \
            ((config.width, config.height) if config is not None else DEFAULT_SIZE)
        super().__init__(renderer or ProjectorRenderer(size), None, table)
        self.framebuffer: Framebuffer | None = framebuffer
        self.device = framebuffer.device if framebuffer is not None else device
        self.sysfs = framebuffer.sysfs if framebuffer is not None else sysfs
        self.config = config
        self.console = console
        self.tell: Callable[[str], None] = tell or (lambda text: None)
        """Tells the table a change of the device in words (the box: the OLED's message); the device's own details
        (its path, its sizes) go to the log only."""
        self._clock = clock
        self._next_check = clock() + CHECK_PERIOD
        self._last_frame: Any = None
        self.reopened = 0

    def show(self, frame: Any) -> None:
        self._last_frame = frame
        super().show(frame)

    def _present(self, surface: pygame.Surface, dirty: list[pygame.Rect]) -> None:
        """The changed rectangles copied to the device (no SDL screen here)."""
        device = self.framebuffer
        if device is None:
            return
        # the renderer's own picture comes with its changed rectangles; a warped one is a new picture
        dirty = dirty if surface is self.renderer.surface else [surface.get_rect()]
        try:
            device.write(surface, dirty)
        except (FramebufferError, OSError, ValueError) as exc:
            self._lost(str(exc) if isinstance(exc, FramebufferError) else f"{device.device} failed ({exc})")

    def _lost(self, reason: str) -> None:
        device, self.framebuffer = self.framebuffer, None
        if device is not None:
            device.close()
        log.warning("projector: %s; the map comes back when it does", reason)
        self.tell(LOST)
        self._next_check = self._clock()  # try at once: a new mode is there to open now

    def pump(self) -> None:
        """Every ``CHECK_PERIOD``: the device's mode and node checked, a lost device opened again. (No other VT's
        text can draw over the map meanwhile: the kernel ignores VT switches away from a VT in graphics mode.)"""
        now = self._clock()
        if now < self._next_check:
            return
        self._next_check = now + CHECK_PERIOD
        self.watch()

    def watch(self) -> None:
        """The checks :meth:`pump` makes when they are due."""
        if self.framebuffer is not None:
            reason = self.framebuffer.problem(geometry=True)
            if reason:
                self._lost(f"{self.device} {reason}")
        if self.framebuffer is None:
            self._reopen()

    def _reopen(self) -> None:
        try:
            framebuffer = Framebuffer(self.device, self.sysfs)
        except FramebufferError:
            return
        self.framebuffer = framebuffer
        self.reopened += 1
        if framebuffer.size != self.renderer.size:
            self.renderer = ProjectorRenderer(framebuffer.size)
            if self.config is not None and self.config.calibration:
                from companion.views.projector.warp import table_for

                self.table = table_for(self.config, framebuffer.size)
            self._surface = None
        g = framebuffer.geometry
        log.warning("projector: %s back, %dx%d %s", self.device, g.width, g.height, g.format)
        self.tell(BACK)
        self._repaint()

    def _repaint(self) -> None:
        """The whole picture onto the device (the last frame drawn again when the renderer is new)."""
        if self._last_frame is None or self.framebuffer is None:
            return
        if self._surface is None:
            self.prepare(self._last_frame)
            self._owed = []
        self._present(self._surface, [self._surface.get_rect()])

    def close(self) -> None:
        if self.framebuffer is not None:
            self.framebuffer.close()
            self.framebuffer = None
        if self.console is not None:
            self.console.release()
            self.console = None
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


def own_console(device: str, say: Callable[[str], None]) -> ConsoleMode | None:
    """The console in graphics mode when ``device`` is a real framebuffer (a /dev node: the console's), and who
    owns the screen said when it is not the box. None (said once) when the console cannot be switched."""
    if not device.startswith("/dev/"):
        return None
    try:
        console: ConsoleMode | None = console_module.take_console()
    except console_module.ConsoleError as exc:
        say(f"projector: {exc}; the console may draw over the map")
        console = None
    ours = console.name if console is not None else ""
    owner = console_module.screen_owner(ours, console_module.active_vt(), console_module.active_session())
    if owner.startswith(console_module.NOT_THE_BOX):
        say(f"projector: {owner}")
    else:
        log.info("projector: the screen shows %s", owner)
    return console


class FbdevOutput:
    """The projector output on a framebuffer device: ``open`` gives the loop's view, or None after
    saying once why not (no permission, a format it cannot write). A device not there yet (no display at
    boot) gives a view that waits for it."""

    name = "fbdev"

    @staticmethod
    def open(config: ProjectorSettings, say: Callable[[str], None]) -> ProjectorView | None:
        device = config.framebuffer or DEFAULT_DEVICE
        sysfs = Path(config.framebuffer_sysfs) if config.framebuffer_sysfs else None
        framebuffer: Framebuffer | None
        try:
            framebuffer = Framebuffer(device, sysfs)
        except FramebufferError as exc:
            if os.path.exists(device):
                say(f"projector: no framebuffer ({exc})")
                return None
            say(f"projector: no framebuffer ({exc}); waiting for it")
            framebuffer = None
        if framebuffer is not None:
            g = framebuffer.geometry
            wanted = (config.width, config.height)
            if wanted != framebuffer.size:
                log.info("projector: the framebuffer's mode is %dx%d, not the configured %dx%d: drawn at the "
                         "mode's", g.width, g.height, *wanted)
            log.info("projector: fbdev %s %dx%d %s (no GL; no vsync)", device, g.width, g.height, g.format)
        view = FramebufferView(framebuffer, device=device, sysfs=sysfs, config=config,
                               console=own_console(device, say))
        view.events_started = start_event_queue()
        return view
