"""The OLED device from settings, and a :class:`Display` that never lets the panel stop the box.

luma.core keeps interface (i2c/spi), device (ssd1306/sh1106/ssd1309) and drawing apart; so do
we: :func:`open_device` builds the device, :class:`Display` only hands it finished images.
An I2C glitch is retried with bounded backoff and logged once per outage; an absent OLED at
start (DeviceNotFoundError/DevicePermissionError) leaves a "no OLED" state that is re-tried now
and then, so plugging the panel in later just works.

A failed write reaches us in two shapes: OSError from the bus, or luma's own DeviceNotFoundError,
which luma's i2c interface raises in place of the OSError when a command write gets EIO or
EREMOTEIO (the panel's address did not answer). Both mean "the I2C write failed" and are treated
alike. During an outage a device we opened ourselves is re-opened rather than written again,
because re-opening replays luma's init sequence: a panel that lost power comes back lit.

The loop never waits for the bus. A 128x64 frame is 1 KB: at the Pi's default 100 kHz I2C that is
about 90 ms on the wire, five projector frames. So on the box ``submit`` hands the image to a writer
thread of the Display's own, which keeps only the newest image (a burst of frames while the bus is
busy is coalesced into one write), and only the changed part of the panel's memory is sent: the
image is packed into the controller's pages (8 rows each, one byte per column) and compared with
what was last written, so a new die value or a moved cursor is a few dozen bytes, not a kilobyte.
The install sets the bus to 400 kHz as well (docs/hardware.md).
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image

log = logging.getLogger("companion.oled")

DRIVERS = ("ssd1306", "sh1106", "ssd1309")
LANDING_POLL = 0.5
"""How often the writer thread, waiting for the journal's write before showing an image, looks whether the
Display was closed meanwhile (the write itself wakes it at once; a close during such a wait takes up to this
long more)."""


@dataclass(frozen=True)
class OledSettings:
    """How the OLED is wired. Defaults: the common 0.96"/1.3" I2C module on the Pi's I2C bus 1."""

    driver: str = "ssd1306"
    """ssd1306 (0.96"), sh1106 (1.3") or ssd1309 (2.42")."""
    interface: str = "i2c"
    """i2c or spi."""
    i2c_port: int = 1
    """/dev/i2c-1: BCM 2 (SDA) and 3 (SCL)."""
    i2c_address: int = 0x3C
    """0x3C on most modules, 0x3D with the address jumper moved."""
    spi_port: int = 0
    spi_device: int = 0
    """SPI0 CE0 (BCM 8); MOSI BCM 10, SCLK BCM 11."""
    gpio_dc: int = 24
    gpio_rst: int = 25
    rotation: int = 0
    """0, or 2 when the panel is mounted upside down. Quarter turns (1, 3) are refused: luma then
    expects a 64x128 portrait image and every screen here is 128x64 landscape."""
    contrast: int = 255
    """0-255."""
    width: int = 128
    height: int = 64
    persist: bool = False
    """False: the panel is cleared when the service exits, so a stale prompt never pretends the box runs."""

    def __post_init__(self) -> None:
        from companion.errors import CompanionError

        if self.driver not in DRIVERS:
            raise CompanionError(f"oled driver {self.driver!r} unknown (known: {', '.join(DRIVERS)})")
        if self.interface not in ("i2c", "spi"):
            raise CompanionError(f"oled interface {self.interface!r} unknown (known: i2c, spi)")
        if self.rotation not in (0, 2):
            raise CompanionError(f"oled rotation {self.rotation!r} must be 0, or 2 for a panel mounted upside down "
                                 "(the screens are 128x64 landscape)")
        if not 0 <= self.contrast <= 255:
            raise CompanionError(f"oled contrast {self.contrast!r} must be 0-255")


DEVICES = Path("/dev")
"""Where the OLED's bus appears (luma opens ``/dev/i2c-N``; tests point this at a folder of their own)."""


def open_device(settings: OledSettings) -> Any:
    """The luma device for ``settings``; raises luma's DeviceNotFoundError etc. when it is absent.

    An I2C bus with no device node is refused before luma's drivers (and smbus2, and Pillow with them)
    are imported: luma would refuse it the same way, with the same error, only after its imports
    on the Pi's start-up path, where a box without its panel is a supported configuration."""
    if settings.interface == "i2c" and not (bus := DEVICES / f"i2c-{settings.i2c_port}").exists():
        from luma.core.error import DeviceNotFoundError

        raise DeviceNotFoundError(f"I2C device not found: {bus}")
    from luma.core.interface import serial
    from luma.oled import device as oled_device

    if settings.interface == "i2c":
        interface = serial.i2c(port=settings.i2c_port, address=settings.i2c_address)
    else:
        interface = serial.spi(port=settings.spi_port, device=settings.spi_device,
                               gpio_DC=settings.gpio_dc, gpio_RST=settings.gpio_rst)
    driver = getattr(oled_device, settings.driver)
    dev = driver(interface, width=settings.width, height=settings.height, rotate=settings.rotation)
    dev.contrast(settings.contrast)
    dev.persist = settings.persist
    return dev


def _absent_errors() -> tuple[type[BaseException], ...]:
    from luma.core.error import DeviceNotFoundError, DevicePermissionError, Error

    return (DeviceNotFoundError, DevicePermissionError, Error, OSError, ImportError, RuntimeError)


def _write_errors() -> tuple[type[BaseException], ...]:
    """What a failed write to the panel raises: OSError, or luma's Error wrapping an I2C EIO."""
    try:
        from luma.core.error import Error
    except ImportError:  # a device that is no luma device (never in the product)
        return (OSError,)
    return (OSError, Error)


def _windowed(device: Any) -> bool:
    """An SSD1306-family controller (ssd1306, ssd1309): its memory takes a column and page window,
    so a part of it can be rewritten alone. The sh1106 (page addressing only) is written whole.

    Asked of luma's module only if it is loaded: a device made by it was made after importing it, and
    importing it only to learn that luma's dummy device (the simulated table's) is none would slow its start."""
    drivers = sys.modules.get("luma.oled.device")
    return drivers is not None and isinstance(device, drivers.ssd1306)


_REVERSED = bytes(int(f"{byte:08b}"[::-1], 2) for byte in range(256))
"""Each byte with its bits in the opposite order."""


def controller_pages(image: Image.Image) -> list[bytes]:
    """A mode "1" image as the SSD1306's memory: one ``bytes`` per page of 8 rows, a byte per column with
    the page's top row in its lowest bit (what luma's ssd1306 ``display`` sends, packed pixel by pixel).

    Pillow does the packing: transposed, each column is a row of the image, which ``tobytes`` packs 8
    pixels a byte, top pixel in the highest bit; reversing each byte's bits and taking every
    (height / 8)-th byte gives a page. No numpy: the box opens without it, and this is a few microseconds.
    """
    from PIL import Image

    per_column = image.size[1] // 8
    packed = image.transpose(Image.Transpose.TRANSPOSE).tobytes().translate(_REVERSED)
    return [packed[page::per_column] for page in range(per_column)]


def panel_memory(image: Image.Image) -> bytes:
    """The SSD1306's memory for a mode "1" image: its pages (8 rows each) one after the other, a byte per
    column with the page's top row in its lowest bit; the same bytes as :func:`controller_pages` joined.

    The image's pixels are taken as one integer, row by row (one ``tobytes``), and their order is changed
    with a few whole-integer bit swaps
    (:func:`_page_swaps`) in place of Pillow's transpose and its second pass over the pixels: on the OLED's
    writer thread, beside the projector's frame, each Pillow call costs tens of microseconds, and the
    transpose lets go of the GIL, which the thread then waits for behind the loop's drawing (the write's
    wall time several times longer with it, its CPU the same). A size that
    is not powers of two (a 96x16 or 64x48 panel) is packed by :func:`controller_pages`."""
    width, height = image.size
    swaps = _page_swaps(width, height)
    if swaps is None:
        return b"".join(controller_pages(image))
    bits = int.from_bytes(image.tobytes(), "big")
    for distance, mask in swaps:
        moved = ((bits >> distance) ^ bits) & mask
        bits ^= moved | (moved << distance)
    return bits.to_bytes(width * height // 8, "big").translate(_REVERSED)


@lru_cache(maxsize=4)
def _page_swaps(width: int, height: int) -> tuple[tuple[int, int], ...] | None:
    """The bit swaps that turn an image's pixels, row by row (pixel y * width + x), into the SSD1306's
    memory order (page, column, row in the page: (y // 8) * width * 8 + x * 8 + y % 8), as (distance,
    mask) pairs: each exchanges two bits of the pixel's index, for every pixel at once. None unless both
    sides are powers of two (then the index is its bits: the column's, then the row's).

    The pixel index's low bits are the column's (c), then the row-in-page's (r), then the page's: moving
    r under c is a rotation of the low bits, made of one exchange per bit out of place. Kept per panel
    size (a box has one panel; 4 sizes bound it)."""
    if width < 8 or height < 8 or width & (width - 1) or height & (height - 1):
        return None
    count = width * height
    column_bits = width.bit_length() - 1
    low = column_bits + 3  # the column's bits and the row-in-page's
    target = [*range(3, low), 0, 1, 2]  # column bit n goes to n + 3, row-in-page bit m to m
    where = list(range(low))  # where each original index bit is now
    holder = list(range(low))  # which original index bit sits at each position
    swaps: list[tuple[int, int]] = []
    for original in range(low):
        here, there = where[original], target[original]
        if here == there:
            continue
        high, lo = max(here, there), min(here, there)
        swaps.append(((1 << high) - (1 << lo), _swap_mask(high, lo, count)))
        other = holder[there]
        where[original], where[other] = there, here
        holder[there], holder[here] = original, other
    return tuple(swaps)


def _swap_mask(high: int, low: int, count: int) -> int:
    """The positions (of ``count`` bits) whose index has bit ``high`` clear and bit ``low`` set: the lower
    of each pair that exchanging those two index bits swaps."""
    ones = ((1 << (1 << low)) - 1) << (1 << low)  # bit ``low`` set, in one period of 2 ** (low + 1)
    half = ones * (((1 << (1 << high)) - 1) // ((1 << (1 << (low + 1))) - 1))  # repeated up to 2 ** high
    return half * (((1 << count) - 1) // ((1 << (1 << (high + 1))) - 1))  # repeated every 2 ** (high + 1)


class Display:
    """Shows images on the OLED; never raises to the caller, and works on with no OLED at all.

    ``show`` returns True when the image reached the panel. While the panel is absent or
    failing, the newest image is kept and handed over on the next ``show``/``flush`` once the
    backoff has passed (it doubles from ``retry_s`` up to ``max_backoff_s``).
    """

    def __init__(self, settings: OledSettings | None = None, *, device: Any = None,
                 opener: Callable[[OledSettings], Any] = open_device,
                 clock: Callable[[], float] = time.monotonic,
                 attempts: int = 2, retry_s: float = 0.5, max_backoff_s: float = 30.0,
                 reopen_s: float = 10.0, background: bool | None = None) -> None:
        self.settings = settings or OledSettings()
        self._background = device is None if background is None else background
        """``submit`` writes on a thread of its own: by default when this Display opens the device itself
        (the box's panel on its bus); a device handed in (luma's dummy on the simulated table, a test's)
        is written by the caller unless asked."""
        self._lock = threading.Condition()
        self._queued: Image.Image | Callable[[], Image.Image] | None = None
        self._queued_after: Any = None
        """What the queued image waits for before it may be shown (see :meth:`submit`)."""
        self._writer: threading.Thread | None = None
        self._sent: bytes | None = None
        """The panel's memory as last written (:func:`panel_memory`), None when unknown: then the whole
        frame is sent (after an open, a failed write or with a device that is no SSD1306 family)."""
        self.on_written: Callable[[], None] | None = None
        """Called after each image reached the panel (on the writer thread when there is one)."""
        self.written = 0
        self._opener = opener
        self._clock = clock
        self._attempts = max(1, attempts)
        self._retry_s = retry_s
        self._max_backoff_s = max_backoff_s
        self._reopen_s = reopen_s
        self._backoff = retry_s
        self._next_try = 0.0
        self._pending: Image.Image | Callable[[], Image.Image] | None = None
        """The newest image not yet on the panel, or the function that draws it: drawn only once there is a
        device to take it, so a box without its panel never draws (nor loads Pillow for) an image no one sees."""
        self.device = device
        self.failing = False
        """True during an outage (between the first failed and the next good write)."""
        self.errors = 0
        """OSErrors seen, for the status/notices line."""
        self.absent_reason = ""
        self._closed = False
        self._owned = False
        """True when the device came from ``opener``: then an outage re-opens it (luma's init again)."""
        if self.device is None:
            self._open()

    @property
    def present(self) -> bool:
        return self.device is not None

    def _open(self) -> None:
        try:
            self.device = self._opener(self.settings)
        except _absent_errors() as exc:
            self.device = None
            if self.failing:
                # Mid-outage: already logged; the backoff schedule goes on.
                self.errors += 1
                self._schedule_retry(self._clock())
                return
            if not self.absent_reason:
                log.warning("no OLED (%s); the box runs on without it", exc)
            self.absent_reason = str(exc) or type(exc).__name__
            self._next_try = self._clock() + self._reopen_s
            return
        self._owned = True
        self._sent = None
        if self.absent_reason:
            log.warning("OLED found")
        self.absent_reason = ""

    def _schedule_retry(self, now: float) -> None:
        self._next_try = now + self._backoff
        self._backoff = min(self._backoff * 2, self._max_backoff_s)

    def _release(self) -> None:
        """Drop a device we opened without touching the panel (it is failing): close its bus only."""
        device, self.device = self.device, None
        if device is not None:
            with contextlib.suppress(Exception):
                device.persist = True  # no hide/clear: those are writes to a bus that just failed
                device.cleanup()

    def show(self, image: Image.Image | Callable[[], Image.Image]) -> bool:
        """Hand ``image`` (or the function that draws it) to the panel, or keep it for later; True when it
        was displayed."""
        self._pending = image
        return self.flush()

    def flush(self) -> bool:
        """Retry the newest undelivered image if the backoff allows; call it from an idle tick."""
        if self._closed:
            return False
        if self._pending is None:
            return True
        now = self._clock()
        if now < self._next_try:
            return False
        if self.device is None:
            self._open()
            if self.device is None:
                return False
        image = self._pending = self._pending() if callable(self._pending) else self._pending
        last: BaseException | None = None
        for _ in range(self._attempts):
            try:
                self._write(image)
            except _write_errors() as exc:
                self.errors += 1
                self._sent = None  # what reached the panel is unknown: the next write is whole
                last = exc
                continue
            self.written += 1
            if self.on_written is not None:
                self.on_written()
            if self.failing:
                log.warning("OLED back after %d errors", self.errors)
            self.failing = False
            self._backoff = self._retry_s
            self._pending = None
            return True
        if not self.failing:
            log.warning("OLED write failed (%s); retrying quietly", last)
        self.failing = True
        self._schedule_retry(now)
        if self._owned:
            self._release()
        return False

    def pump(self) -> bool:
        """For the main loop's per-turn pumps: retry a held-back image once its backoff has passed.

        Without it an image that failed waits for the next change of state, which on a quiet
        table may be minutes away. Returns False always: a retry is no activity of the table's.
        With a writer thread the thread retries by itself and this does nothing.
        """
        if self._writer is not None:
            return False
        if self._pending is not None:
            self.flush()
        return False

    @property
    def background(self) -> bool:
        """True when ``submit`` hands images to a writer thread."""
        return self._background

    def submit(self, image: Image.Image | Callable[[], Image.Image], after: Any = None) -> None:
        """Hand ``image`` over without waiting for the bus: the writer thread shows the newest image
        submitted (older ones still queued are dropped; one the thread has taken, waiting for ``after``,
        is written or dropped first). ``image`` may be a function that draws it:
        the writer thread then draws it too, beside the loop's projector frame, and only the newest
        is drawn. ``after``: something with ``wait(timeout)`` (the journal's write under way, a
        ``journal_writer.Landing``): the writer thread waits for it and shows the image only if it says
        True, so the panel never shows a roll before the journal holds it. Without a writer thread: drawn
        and shown here (``after`` is the caller's to have waited for)."""
        if not self._background:
            self.show(image() if callable(image) else image)
            return
        with self._lock:
            if self._closed:
                return
            self._queued = image
            self._queued_after = after
            if self._writer is None:
                self._writer = threading.Thread(target=self._write_loop, name="oled-writer", daemon=True)
                self._writer.start()
            self._lock.notify()

    def _write_loop(self) -> None:
        """The writer thread: wait for a new image (or a held-back one's retry time), write it."""
        while True:
            with self._lock:
                while self._queued is None and not self._closed:
                    if self._pending is not None:  # a failed image: retry once its backoff has passed
                        left = self._next_try - self._clock()
                        if left <= 0:
                            break
                        self._lock.wait(timeout=left)
                    else:
                        self._lock.wait()
                if self._closed:
                    return
                image, self._queued = self._queued, None
                after, self._queued_after = self._queued_after, None
            if after is not None and not self._landed(after):
                continue  # the write failed (or the Display closed): the loop shows the frame that says so
            try:
                if image is not None:
                    self.show(image)  # drawn by flush, once a device is there to take it
                else:
                    self.flush()
            except Exception:  # the panel must never take the box down, nor stop its own thread
                log.exception("OLED writer")
                with self._lock:  # a fault no write cures (a bug, not the bus): retried after the backoff,
                    self._schedule_retry(self._clock())  # not at once in a loop that would hold a core

    def _landed(self, after: Any) -> bool:
        """Wait (off the loop's thread) for ``after`` to say whether the image may be shown; False when it
        failed or this Display closed meanwhile."""
        while not self._closed:
            ok = after.wait(LANDING_POLL)
            if ok is not None:
                return bool(ok)
        return False

    def wait_written(self, count: int, timeout: float) -> bool:
        """Block until ``written`` reaches ``count`` (for benchmarks and tests; the loop never calls it)."""
        deadline = time.monotonic() + timeout
        while self.written < count:
            if time.monotonic() > deadline:
                return False
            with self._lock:
                self._lock.wait(timeout=0.01)
        return True

    def _write(self, image: Image.Image) -> None:
        """The image to the panel: only the changed pages' changed columns on an SSD1306-family
        controller (its column and page address window), the driver's own ``display`` otherwise.

        The panel's memory is packed by :func:`panel_memory` and compared with what was last written as
        two integers: their xor's highest and lowest bits give the first and last changed pages, and in
        each page between them its first and last changed columns (not found column by column)."""
        device = self.device
        if not _windowed(device) or image.mode != "1":
            device.display(image)
            return
        assert image.size == device.size
        memory = panel_memory(device.preprocess(image))
        sent = self._sent
        if memory == sent:
            return
        self._sent = None  # unknown until the writes below went through
        start = getattr(device, "_colstart", 0)
        const = device._const
        width = image.size[0]
        pages = len(memory) // width
        if sent is None or len(sent) != len(memory):
            device.command(const.COLUMNADDR, start, start + width - 1, const.PAGEADDR, 0, pages - 1)
            device.data(list(memory))
        else:
            changed = int.from_bytes(memory, "big") ^ int.from_bytes(sent, "big")
            page_bits = width * 8
            page_mask = (1 << page_bits) - 1
            top = pages - 1 - (changed.bit_length() - 1) // page_bits  # the first page is the highest bits
            bottom = pages - 1 - ((changed & -changed).bit_length() - 1) // page_bits
            for page in range(top, bottom + 1):
                part = (changed >> (pages - 1 - page) * page_bits) & page_mask
                if not part:
                    continue
                first = width - 1 - (part.bit_length() - 1) // 8  # a page's first column is its top byte
                last = width - 1 - ((part & -part).bit_length() - 1) // 8
                device.command(const.COLUMNADDR, start + first, start + last, const.PAGEADDR, page, page)
                device.data(list(memory[page * width + first:page * width + last + 1]))
        self._sent = memory

    def close(self) -> None:
        """Release the device (clears the panel unless settings.persist); later shows are dropped."""
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        if self._writer is not None:
            self._writer.join(timeout=5)
        if self.device is not None:
            with contextlib.suppress(Exception):  # closing must never stop shutdown
                self.device.cleanup()
            self.device = None
