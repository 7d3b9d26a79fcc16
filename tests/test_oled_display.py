"""Display over luma's dummy device: images arrive, I2C errors are retried and logged once, no OLED is fine."""

from __future__ import annotations

import errno
import logging
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.device import dummy
from luma.core.error import DeviceNotFoundError

from companion.dice import Die, Prompt
from companion.errors import CompanionError
from companion.views.oled import render
from companion.views.panel import Panel
from hardware.oled import Display, OledSettings, open_device


class FlakyDummy(dummy):
    """luma's dummy device whose display() raises OSError (as an I2C write does) ``failures`` times."""

    def __init__(self, failures: int = 0, **kwargs):
        super().__init__(mode="1", **kwargs)
        self.failures = failures
        self.calls = 0

    def display(self, image):
        self.calls += 1
        if self.failures > 0:
            self.failures -= 1
            raise OSError(121, "Remote I/O error")
        super().display(image)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def screen(value: int):
    return render(Panel(prompt=Prompt("roll", dice=("d8",)), dice=(Die("d8", value),)))


def test_image_reaches_the_dummy_device():
    device = dummy(mode="1")
    display = Display(device=device)
    image = screen(3)
    assert display.show(image) is True
    assert device.image.tobytes() == image.tobytes()
    assert display.show(screen(8)) is True
    assert device.image.tobytes() != image.tobytes()


def test_a_transient_i2c_error_is_retried_at_once():
    device = FlakyDummy(failures=1)
    display = Display(device=device, attempts=2)
    assert display.show(screen(5)) is True
    assert device.calls == 2 and not display.failing and display.errors == 1


def test_outage_backs_off_logs_once_and_recovers(caplog):
    clock = Clock()
    device = FlakyDummy(failures=10)
    display = Display(device=device, clock=clock, attempts=2, retry_s=1.0, max_backoff_s=4.0)
    with caplog.at_level(logging.WARNING, logger="companion.oled"):
        assert display.show(screen(1)) is False
        assert display.failing
        calls = device.calls
        assert display.show(screen(2)) is False  # inside the backoff: no bus traffic
        assert device.calls == calls
        for step in (1.0, 2.0, 4.0):  # doubling, bounded
            clock.now += step
            assert display.flush() is False
        clock.now += 4.0  # capped at max_backoff_s
        assert display.flush() is False
        clock.now += 4.0
        assert display.flush() is True  # failures exhausted: the newest image arrives
    assert device.image.tobytes() == screen(2).tobytes()
    failed = [r for r in caplog.records if "failed" in r.getMessage()]
    back = [r for r in caplog.records if "back" in r.getMessage()]
    assert len(failed) == 1 and len(back) == 1
    assert not display.failing


def test_no_oled_at_start_is_a_state_not_an_error(caplog):
    clock = Clock()
    with caplog.at_level(logging.WARNING, logger="companion.oled"):
        # the real luma i2c interface on a bus that does not exist
        display = Display(OledSettings(i2c_port=97), clock=clock, reopen_s=5.0)
        assert not display.present and display.absent_reason
        assert display.show(screen(4)) is False
        clock.now += 5.0
        assert display.show(screen(4)) is False
    assert len([r for r in caplog.records if "no OLED" in r.getMessage()]) == 1


def test_oled_plugged_in_later_is_picked_up():
    clock = Clock()
    device = dummy(mode="1")
    tries = []

    def opener(settings):
        tries.append(clock.now)
        if len(tries) == 1:
            raise DeviceNotFoundError("I2C device not found: /dev/i2c-1")
        return device

    display = Display(opener=opener, clock=clock, reopen_s=10.0)
    assert display.show(screen(6)) is False
    clock.now += 10.0
    assert display.show(screen(6)) is True
    assert display.present and device.image.tobytes() == screen(6).tobytes()


def test_open_device_real_luma_error_on_missing_bus():
    with pytest.raises(DeviceNotFoundError):
        open_device(OledSettings(i2c_port=97))


@pytest.mark.parametrize("field, value", [("driver", "ssd9999"), ("interface", "usb"), ("rotation", 4), ("rotation", 1),
                                          ("contrast", 300)])
def test_bad_settings_are_one_line_errors(field, value):
    with pytest.raises(CompanionError, match=field):
        OledSettings(**{field: value})


def test_close_releases_the_device():
    device = dummy(mode="1")
    display = Display(device=device)
    display.show(screen(2))
    display.close()
    assert not display.present
    assert display.show(screen(3)) is False  # still never raises


class I2CBus:
    """The smbus2 bus under luma's real ``i2c`` interface (luma takes one through ``bus=``): records the
    bytes written, and raises OSError(EREMOTEIO) as the kernel does while the panel does not answer."""

    def __init__(self) -> None:
        self.down = False
        self.commands: list[int] = []
        self.data = 0
        self.writes: list[tuple[int, list[int]]] = []

    def write_i2c_block_data(self, address, mode, values):
        if self.down:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        self.writes.append((mode, list(values)))
        if mode == 0x00:
            self.commands += values
        else:
            self.data += len(values)

    def panel_memory(self) -> bytes:
        """The SSD1306's display memory after the writes seen, in its horizontal addressing mode: a
        command block ``COLUMNADDR c0 c1 PAGEADDR p0 p1`` opens a window that the data fills row of
        pages by row, column by column (what both luma's driver and the Display send)."""
        ram = bytearray(128 * 8)
        c0 = c1 = p0 = col = page = 0
        for mode, values in self.writes:
            if mode == 0x00:
                if values[:1] == [0x21] and len(values) == 6 and values[3] == 0x22:
                    c0, c1, p0 = values[1], values[2], values[4]
                    col, page = c0, p0
                continue
            for v in values:
                ram[page * 128 + col] = v
                col += 1
                if col > c1:
                    col, page = c0, page + 1
        return bytes(ram)


def real_ssd1306(bus: I2CBus):
    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306

    device = ssd1306(i2c(bus=bus, address=0x3C))
    device.persist = True  # no clear at interpreter exit through the atexit hook
    return device


def test_luma_wrapping_an_i2c_eio_in_its_own_error_is_retried_not_raised(caplog):
    """luma's i2c.command() turns EIO/EREMOTEIO into DeviceNotFoundError: that is a failed write too."""
    clock = Clock()
    bus = I2CBus()
    display = Display(device=real_ssd1306(bus), clock=clock, retry_s=1.0)
    bus.data = 0
    bus.down = True
    with pytest.raises(DeviceNotFoundError):  # what the real stack raises, so the test below means it
        real_ssd1306(bus)
    with caplog.at_level(logging.WARNING, logger="companion.oled"):
        assert display.show(screen(7)) is False
        assert display.failing and display.errors == 2
        clock.now += 1.0
        assert display.show(screen(8)) is False
        bus.down = False
        assert display.pump() is False  # inside the doubled backoff: nothing written yet
        assert bus.data == 0
        clock.now += 2.0
        assert display.pump() is False  # a retry is no activity of the table's
    assert not display.failing and bus.data == 128 * 64 // 8
    assert len([r for r in caplog.records if "failed" in r.getMessage()]) == 1


def test_an_outage_reopens_a_device_we_opened_so_a_repowered_panel_is_initialised_again():
    clock = Clock()
    bus = I2CBus()
    opened = []

    def opener(settings):
        opened.append(clock.now)
        return real_ssd1306(bus)

    display = Display(opener=opener, clock=clock, retry_s=1.0)
    assert display.show(screen(1)) is True and len(opened) == 1
    bus.down = True
    assert display.show(screen(2)) is False
    assert not display.present  # dropped without a write to the failing bus
    clock.now += 1.0
    assert display.show(screen(3)) is False and len(opened) == 2  # luma's init failed: still out
    bus.down = False
    bus.commands.clear()
    bus.data = 0
    clock.now += 2.0
    assert display.flush() is True and len(opened) == 3
    assert 0xAF in bus.commands  # DISPLAYON: the init sequence ran again before the image
    assert bus.data == 2 * 128 * 64 // 8 and not display.failing  # luma's clear, then the image


@pytest.mark.parametrize("rotation", [0, 2])
def test_every_rotation_allowed_takes_the_screens_as_drawn(rotation):
    """luma's device at each allowed rotation accepts the 128x64 screen (at 1 or 3 it would want 64x128)."""
    device = dummy(width=128, height=64, rotate=rotation, mode="1")
    OledSettings(rotation=rotation)
    assert Display(device=device).show(screen(5)) is True


def test_only_the_changed_part_of_the_panel_is_sent_and_the_panel_ends_as_a_whole_write_would():
    """The controller's memory after a partial write equals luma's own driver writing the whole frame."""
    bus = I2CBus()
    display = Display(device=real_ssd1306(bus))
    assert display.show(screen(3)) is True
    bus.data = 0
    assert display.show(screen(5)) is True
    assert 0 < bus.data <= 128 * 64 // 8 // 4  # a die's digit, not the whole kilobyte
    reference = I2CBus()
    real_ssd1306(reference).display(screen(5))
    assert bus.panel_memory() == reference.panel_memory()
    bus.data = 0
    assert display.show(screen(5)) is True and bus.data == 0  # nothing changed: nothing on the bus


def test_after_a_failed_write_the_whole_frame_goes_out_again():
    clock = Clock()
    bus = I2CBus()
    display = Display(device=real_ssd1306(bus), clock=clock, retry_s=1.0, attempts=1)
    assert display.show(screen(1)) is True
    bus.down = True
    assert display.show(screen(2)) is False  # part of it may have reached the panel: unknown now
    bus.down = False
    bus.data = 0
    clock.now += 1.0
    assert display.flush() is True and bus.data == 128 * 64 // 8


class GatedDummy(dummy):
    """luma's dummy device whose display() waits until the test opens the gate: a slow bus."""

    def __init__(self) -> None:
        super().__init__(mode="1")
        self.gate = threading.Event()
        self.entered = threading.Event()
        self.images: list[bytes] = []

    def display(self, image):
        self.entered.set()
        assert self.gate.wait(timeout=10)
        super().display(image)
        self.images.append(image.tobytes())


def test_submit_never_waits_for_the_bus_and_the_newest_image_wins():
    device = GatedDummy()
    display = Display(device=device, background=True)
    try:
        display.submit(screen(1))
        assert device.entered.wait(timeout=10)  # the writer thread is on the bus with the first image
        display.submit(screen(2))  # returns while the bus is busy (the gate is shut)
        display.submit(screen(3))
        assert display.written == 0 and not device.gate.is_set()
        device.gate.set()
        assert display.wait_written(2, timeout=10)
        assert device.images == [screen(1).tobytes(), screen(3).tobytes()]  # 2 was coalesced away
    finally:
        device.gate.set()
        display.close()
    assert display._writer is not None and not display._writer.is_alive()


def test_the_writer_thread_retries_a_failed_image_by_itself():
    device = FlakyDummy(failures=1)
    display = Display(device=device, background=True, attempts=1, retry_s=0.01)
    try:
        display.submit(screen(6))
        assert display.wait_written(1, timeout=10)  # no show, flush or pump from the caller
        assert device.calls == 2 and device.image.tobytes() == screen(6).tobytes()
        assert display.pump() is False
    finally:
        display.close()


def test_a_display_that_opens_its_own_panel_writes_in_the_background_and_a_handed_device_does_not():
    assert Display(opener=lambda settings: dummy(mode="1"))._background
    handed = Display(device=dummy(mode="1"))
    handed.submit(screen(4))
    assert handed.written == 1 and handed._writer is None


def test_the_oled_view_hands_its_drawing_to_the_writer_thread_and_skips_an_unchanged_panel():
    from companion.session.core import Frame
    from companion.session.views import OledView

    device = dummy(mode="1")
    display = Display(device=device, background=True)
    view = OledView(display, render)
    panel = Panel(prompt=Prompt("roll", dice=("d8",)), dice=(Die("d8", 2),))
    try:
        view.show(Frame(panel))
        assert display.wait_written(1, timeout=10)
        assert device.image.tobytes() == render(panel).tobytes() == view.image.tobytes()
        view.show(Frame(panel))  # the map moved, the OLED's words did not: nothing drawn, nothing queued
        assert display._queued is None and view.shown == 2
    finally:
        display.close()


def test_the_oled_view_draws_while_the_loop_waits_for_the_journal_and_hands_the_writer_only_the_image():
    """Loop.show asks each view to prepare first: the OLED's image is drawn then, on the loop's thread; once the
    frame is shown the writer thread gets the image itself, and puts it on the bus."""
    from companion.session.core import Frame
    from companion.session.views import OledView

    device = dummy(mode="1")
    display = Display(device=device, background=True)
    drawn_on: list[str] = []

    def drawing(panel):
        drawn_on.append(threading.current_thread().name)
        return render(panel)

    view = OledView(display, drawing)
    panel = Panel(prompt=Prompt("roll", dice=("d8",)), dice=(Die("d8", 5),))
    frame = Frame(panel)
    try:
        view.prepare(frame)
        assert drawn_on == [threading.current_thread().name] and display.written == 0  # drawn, not shown
        view.show(frame)
        assert display.wait_written(1, timeout=10)
        assert drawn_on == [threading.current_thread().name]  # not drawn again on the writer thread
        assert device.image.tobytes() == render(panel).tobytes() == view.image.tobytes()
    finally:
        display.close()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.tuples(st.integers(0, 127), st.integers(0, 63), st.integers(0, 127), st.integers(0, 63),
                                   st.booleans()), max_size=6), min_size=1, max_size=5))
def test_any_run_of_images_leaves_the_panel_as_luma_writing_each_whole_would(frames):
    """The pages are packed by Pillow and only their changed columns sent; after every image the controller's
    memory is what luma's own ssd1306 driver leaves when it writes that image whole."""
    from PIL import Image, ImageDraw

    bus = I2CBus()
    display = Display(device=real_ssd1306(bus))
    for shapes in frames:
        image = Image.new("1", (128, 64), 0)
        draw = ImageDraw.Draw(image)
        for x0, y0, x1, y1, lit in shapes:
            draw.rectangle((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)), fill=int(lit), outline=1)
        assert display.show(image) is True
        reference = I2CBus()
        real_ssd1306(reference).display(image)
        assert bus.panel_memory() == reference.panel_memory()


def test_an_image_handed_over_with_the_journals_write_reaches_the_panel_only_once_that_write_landed():
    """With ``after``, the writer thread holds the image until the write says it is on disk (the loop draws the
    projector meanwhile), and drops it when the write failed."""
    from companion.journal.writer import Landing

    device = dummy(mode="1")
    display = Display(device=device, background=True)
    try:
        landing = Landing()
        display.submit(screen(7), after=landing)
        assert display.wait_written(1, timeout=0.05) is False  # bounded wait: nothing reached the panel yet
        landing.end(True)
        assert display.wait_written(1, timeout=10)
        assert device.image.tobytes() == screen(7).tobytes()
        failed = Landing()
        display.submit(screen(8), after=failed)
        failed.end(False)
        display.submit(screen(2))  # the frame that says the game waits in memory
        assert display.wait_written(2, timeout=10)
        assert device.image.tobytes() == screen(2).tobytes() and display.written == 2
    finally:
        display.close()


def test_a_display_closed_while_its_image_waits_for_the_journal_stops_its_writer():
    from companion.journal.writer import Landing

    display = Display(device=dummy(mode="1"), background=True)
    display.submit(screen(3), after=Landing())  # a write that never ends
    display.close()
    assert display._writer is not None and not display._writer.is_alive() and display.written == 0


def test_the_oled_view_hands_a_rolls_image_over_before_the_frame_is_shown_and_shows_it_again_if_its_write_failed():
    from companion.journal.writer import Landing
    from companion.session.core import Frame
    from companion.session.views import OledView

    device = dummy(mode="1")
    display = Display(device=device, background=True)
    view = OledView(display, render)
    panel = Panel(prompt=Prompt("roll", dice=("d8",)), dice=(Die("d8", 4),))
    try:
        landing = Landing()
        view.prepare(Frame(panel), landing)
        assert display.wait_written(1, timeout=0.05) is False  # handed over, held for the write
        landing.end(True)
        assert display.wait_written(1, timeout=10)  # shown by the writer: the loop has not shown the frame yet
        view.show(Frame(panel))
        assert display._queued is None and display.written == 1  # not handed over twice
        other = Panel(prompt=Prompt("roll", dice=("d8",)), dice=(Die("d8", 6),))
        failed = Landing()
        view.prepare(Frame(other), failed)
        failed.end(False)
        view.show(Frame(other))  # the same words after all: the dropped image is handed over again, ungated
        assert display.wait_written(2, timeout=10)
        assert device.image.tobytes() == render(other).tobytes()
    finally:
        display.close()


class BrokenDummy(dummy):
    """luma's dummy device whose display() raises what no retry cures (a bug, not the bus)."""

    def __init__(self):
        super().__init__(mode="1")
        self.calls = 0
        self.called = threading.Event()
        self.again = threading.Event()

    def display(self, image):
        self.calls += 1
        (self.again if self.called.is_set() else self.called).set()
        raise ValueError("a bug in the drawing")


def test_a_fault_no_write_cures_is_retried_after_the_backoff_not_in_a_spin(caplog):
    device = BrokenDummy()
    display = Display(device=device, background=True, retry_s=30.0)
    try:
        with caplog.at_level(logging.ERROR, logger="companion.oled"):
            display.submit(screen(4))
            assert device.called.wait(timeout=10)
            assert not device.again.wait(timeout=0.2)  # bounded: a spinning writer calls again at once
        assert device.calls == 1 and display.written == 0
        assert "OLED writer" in caplog.text
    finally:
        display.close()
