"""The framebuffer's mapping when the device changes under it: a device that shrinks (SIGBUS for a write through the
old mapping: the process dies), a node removed or made anew, a new mode. Each is found before the write, said in
one line, and the device opened again when it can be, the whole map put back on it.

The device is a regular file in tmp_path (truncating it under the mapping is a real SIGBUS on this kernel); the
writes that might die run in a subprocess, so a regression fails a test instead of killing the test run."""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from companion.views.projector.fbdev import BACK, LOST, Framebuffer, FramebufferView
from tests.test_projector_fbdev import SENTINEL, expected, make_fb, screen_rows

WRITE_AFTER_SHRINK = """
import os, sys
from pathlib import Path
import pygame
from companion.views.projector.fbdev import Framebuffer, FramebufferGone
device, sysfs, old = sys.argv[1], Path(sys.argv[2]), sys.argv[3] == "old"
fb = Framebuffer(device, sysfs)
if old:  # the write as it was: no check of the device before the copy
    fb.problem = lambda **_: ""
os.truncate(device, 4096)  # the device shrinks under the mapping
surface = pygame.Surface(fb.size)
surface.fill((200, 10, 10))
try:
    fb.write(surface, [surface.get_rect()])
except FramebufferGone as exc:
    print(exc)
    sys.exit(0)
print("written")
"""


def write_after_shrink(tmp_path: Path, old: bool) -> subprocess.CompletedProcess[str]:
    device, sysfs = make_fb(tmp_path / ("old" if old else "new"), 320, 180, 16)
    return subprocess.run([sys.executable, "-c", WRITE_AFTER_SHRINK, str(device), str(sysfs), "old" if old else "new"],
                          capture_output=True, text=True, timeout=60)


def test_a_device_shrinking_under_the_mapping_killed_the_box_and_now_is_found(tmp_path):
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    died = write_after_shrink(tmp_path, old=True)
    # SIGBUS; pygame's own handler ("parachute") turns it into an abort naming the bus error
    assert died.returncode == -signal.SIGBUS or (died.returncode == -signal.SIGABRT and "Bus Error" in died.stderr), \
        (died.returncode, died.stdout, died.stderr)
    assert "written" not in died.stdout
    found = write_after_shrink(tmp_path, old=False)
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip().endswith("fb0 shrank to 4096 bytes under its 115200-byte mapping")


LOGGED: list[str] = []
"""The framebuffer view's log lines in this test (the device's details go there; the table reads words)."""


@pytest.fixture(autouse=True)
def fbdev_log():
    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            LOGGED.append(record.getMessage())

    logger = logging.getLogger("companion.views.projector.fbdev")
    handler = Keep(logging.WARNING)
    logger.addHandler(handler)
    LOGGED.clear()
    yield
    logger.removeHandler(handler)
    LOGGED.clear()


def opened_view(tmp_path: Path, size: tuple[int, int] = (160, 90), bits: int = 16) -> tuple[FramebufferView, Path]:
    """The view with ``said``: its log lines (the details), and ``told``: what the table was told (words only)."""
    device, sysfs = make_fb(tmp_path, *size, bits)
    told: list[str] = []
    view = FramebufferView(Framebuffer(str(device), sysfs), tell=told.append)
    view.said = LOGGED  # type: ignore[attr-defined]
    view.told = told  # type: ignore[attr-defined]
    return view, device


def full_map(view: FramebufferView) -> None:
    """A frame stand-in the renderer cannot draw is not needed: the renderer's own surface is the picture."""
    view.renderer.surface.fill((30, 60, 90))
    view.renderer.surface.fill((250, 200, 0), pygame.Rect(10, 10, 20, 20))


def test_a_removed_node_is_said_and_a_new_one_gets_the_whole_map(tmp_path):
    view, device = opened_view(tmp_path)
    try:
        full_map(view)
        view._last_frame = object()  # a frame was shown: the picture is the renderer's surface
        view._surface = view.renderer.surface
        device.unlink()  # the node goes (driver unloaded, display unplugged)
        view.watch()
        assert view.framebuffer is None
        assert view.said == [f"projector: {device} was removed; the map comes back when it does"]
        view.watch()
        assert view.said[1:] == []  # absent: tried again quietly
        device.write_bytes(bytes([SENTINEL]) * 160 * 2 * 90)  # a new node, another inode
        view.watch()
        assert view.framebuffer is not None and view.said[-1] == f"projector: {device} back, 160x90 RGB565"
        assert view.told == [LOST, BACK]  # the table reads words, never the device's path
        assert (screen_rows(device, (160, 90), 320, 16) == expected(view.renderer.surface, 16)).all()
    finally:
        view.close()


def test_a_node_replaced_between_two_writes_is_not_written_through_the_old_mapping(tmp_path):
    view, device = opened_view(tmp_path)
    try:
        old = view.framebuffer
        assert old is not None
        replacement = tmp_path / "fb0.new"
        replacement.write_bytes(bytes([SENTINEL]) * 160 * 2 * 90)
        replacement.rename(device)  # same path, another device
        assert old.problem() == "was replaced by another device"
        surface = pygame.Surface((160, 90))
        surface.fill((1, 2, 3))
        view._present(surface, [surface.get_rect()])
        assert view.said == [f"projector: {device} was replaced by another device; the map comes back when it does"]
        assert view.told == [LOST]
        assert view.framebuffer is None and device.read_bytes() == bytes([SENTINEL]) * 160 * 2 * 90
        view.pump()  # the check is due at once after a loss
        assert view.framebuffer is not None and view.framebuffer is not old
    finally:
        view.close()


def test_a_new_mode_is_opened_at_its_size(tmp_path):
    view, device = opened_view(tmp_path, (160, 90), 16)
    try:
        view._last_frame = object()
        sysfs = tmp_path / "sys-fb0"
        (sysfs / "virtual_size").write_text("320,180\n")  # a projector plugged in: a bigger mode, 32 bits
        (sysfs / "bits_per_pixel").write_text("32\n")
        (sysfs / "stride").write_text(f"{320 * 4}\n")
        device.write_bytes(bytes([SENTINEL]) * 320 * 4 * 180)
        drawn: list[object] = []
        view.prepare = lambda frame, landing=None: (drawn.append(frame), setattr(view, "_surface",  # type: ignore
                                                                               view.renderer.surface))
        view.watch()
        assert view.said[0].startswith(f"projector: {device} changed its mode to 320x180 XRGB8888")
        assert view.said[1] == f"projector: {device} back, 320x180 XRGB8888"
        assert view.told == [LOST, BACK]
        assert view.renderer.size == (320, 180) and drawn == [view._last_frame]  # the last frame drawn anew
        shown = screen_rows(device, (320, 180), 320 * 4, 32)
        assert (shown[..., :3] == expected(view.renderer.surface, 32)).all()
    finally:
        view.close()
