"""The projector on the Linux framebuffer: the bytes written in RGB565 and XRGB8888, only the changed
rectangles, a whole game frame, no SDL display (no GL), and a device missing or failing said once.

The device is a regular file of the right size in tmp_path and its sysfs directory a folder beside it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pygame
import pytest

from companion.commands.snapshot import frame_for, seeded_state
from companion.config import Config, ProjectorConfig, load_config
from companion.errors import DataError
from companion.games.stormfury import load
from companion.journal import Journal
from companion.session import Press
from companion.sim import attach, build_table, sim_config
from companion.views.projector import open_projector
from companion.views.projector.fbdev import Framebuffer, FramebufferView
from companion.views.projector.outputs import choose_driver

SENTINEL = 0xAB


def make_fb(tmp_path: Path, width: int, height: int, bits: int, pad: int = 0, screens: int = 1) -> tuple[Path, Path]:
    """A framebuffer file filled with SENTINEL and its sysfs folder: rows of width pixels plus ``pad`` bytes."""
    stride = width * bits // 8 + pad
    sysfs = tmp_path / "sys-fb0"
    sysfs.mkdir()
    (sysfs / "virtual_size").write_text(f"{width},{height * screens}\n")
    (sysfs / "bits_per_pixel").write_text(f"{bits}\n")
    (sysfs / "stride").write_text(f"{stride}\n")
    device = tmp_path / "fb0"
    device.write_bytes(bytes([SENTINEL]) * stride * height * screens)
    return device, sysfs


def config_for(device: Path, sysfs: Path, **more) -> ProjectorConfig:
    return ProjectorConfig(driver="fbdev", framebuffer=str(device), framebuffer_sysfs=str(sysfs), **more)


def rgb565(rgb: np.ndarray) -> np.ndarray:
    """RGB565 words from 8-bit RGB, computed here independently of pygame's conversion."""
    r, g, b = (rgb[..., i].astype(np.uint16) for i in range(3))
    return (r >> 3) << 11 | (g >> 2) << 5 | (b >> 3)


def screen_rows(device: Path, fb: tuple[int, int], stride: int, bits: int) -> np.ndarray:
    """The visible pixels of the device as (height, width) words (16 bit) or (height, width, 4) bytes (32)."""
    width, height = fb
    raw = np.frombuffer(device.read_bytes()[:stride * height], np.uint8).reshape(height, stride)
    if bits == 16:
        return raw[:, :width * 2].copy().view("<u2")
    return raw[:, :width * 4].reshape(height, width, 4)


def expected(surface: pygame.Surface, bits: int) -> np.ndarray:
    rgb = np.frombuffer(pygame.image.tobytes(surface, "RGB"), np.uint8).reshape(
        surface.get_height(), surface.get_width(), 3)
    if bits == 16:
        return rgb565(rgb)
    return rgb[..., ::-1]  # XRGB8888 little-endian: B, G, R, then the unused byte


def written(tmp_path, size: tuple[int, int], bits: int, pad: int, fill: tuple[int, int, int],
            pixels: dict[tuple[int, int], tuple[int, int, int]]) -> tuple[str, bytes]:
    """A surface of ``size`` filled with ``fill``, ``pixels`` set, written whole to a framebuffer of ``bits``
    per pixel with ``pad`` bytes past each row: the framebuffer's format and the device's bytes."""
    device, sysfs = make_fb(tmp_path, *size, bits, pad=pad)
    fb = Framebuffer(str(device), sysfs)
    surface = pygame.Surface(size)
    surface.fill(fill)
    for at, colour in pixels.items():
        surface.set_at(at, colour)
    fb.write(surface, [surface.get_rect()])
    fb.close()
    return fb.geometry.format, device.read_bytes()


def test_known_pixels_land_as_xrgb8888_little_endian_with_the_stride(tmp_path):
    _, data = written(tmp_path, (8, 4), 32, 12, (0, 0, 0), {(1, 2): (0x12, 0x34, 0x56), (7, 3): (255, 0, 0)})
    stride = 8 * 4 + 12
    assert data[2 * stride + 4:2 * stride + 7] == bytes([0x56, 0x34, 0x12])  # B, G, R
    assert data[3 * stride + 28:3 * stride + 31] == bytes([0, 0, 255])
    assert data[0:3] == bytes(3)
    assert data[32:stride] == bytes([SENTINEL]) * 12  # the padding past a row is not the picture's


def test_known_pixels_land_as_rgb565(tmp_path):
    form, data = written(tmp_path, (8, 4), 16, 4, (255, 255, 255),
                         {(0, 0): (255, 0, 0), (1, 0): (0, 255, 0), (2, 0): (0, 0, 255), (3, 1): (0x12, 0x34, 0x56)})
    assert form == "RGB565"
    stride = 8 * 2 + 4
    assert data[0:6] == bytes([0x00, 0xF8, 0xE0, 0x07, 0x1F, 0x00])  # 0xF800, 0x07E0, 0x001F little-endian
    assert data[stride + 6:stride + 8] == bytes([0xAA, 0x11])  # (0x12 >> 3) << 11 | (0x34 >> 2) << 5 | 0x56 >> 3
    assert data[stride + 8:stride + 10] == b"\xff\xff"  # white


def test_known_pixels_land_as_rgb888(tmp_path):
    _, data = written(tmp_path, (5, 2), 24, 1, (0, 0, 0), {(4, 1): (0x12, 0x34, 0x56)})
    stride = 5 * 3 + 1
    assert data[stride + 12:stride + 15] == bytes([0x56, 0x34, 0x12]) and data[:15] == bytes(15)


def test_a_virtual_screen_taller_than_the_mode_is_drawn_at_the_mode(tmp_path):
    device, sysfs = make_fb(tmp_path, 64, 32, 32, screens=2)
    (sysfs / "modes").write_text("U:64x32p-0\n")
    fb = Framebuffer(str(device), sysfs)
    assert fb.size == (64, 32) and fb.geometry.virtual_height == 64
    surface = pygame.Surface((64, 64))
    surface.fill((1, 2, 3))
    fb.write(surface, [surface.get_rect()])  # clipped to the visible screen
    fb.close()
    data = device.read_bytes()
    assert data[:3] == bytes([3, 2, 1]) and data[64 * 4 * 31:64 * 4 * 31 + 3] == bytes([3, 2, 1])
    assert data[64 * 4 * 32:] == bytes([SENTINEL]) * 64 * 4 * 32  # the second screen untouched


@pytest.mark.parametrize("bits", [16, 32])
def test_only_the_dirty_rectangles_are_written(tmp_path, bits):
    device, sysfs = make_fb(tmp_path, 40, 30, bits, pad=8)
    fb = Framebuffer(str(device), sysfs)
    surface = pygame.Surface((40, 30))
    surface.fill((10, 200, 30))
    dirty = [pygame.Rect(3, 4, 5, 6), pygame.Rect(20, 25, 20, 5)]
    fb.write(surface, dirty)
    fb.close()
    stride = 40 * bits // 8 + 8
    raw = np.frombuffer(device.read_bytes(), np.uint8).reshape(30, stride)
    inside = np.zeros((30, stride), bool)
    for r in dirty:
        inside[r.top:r.bottom, r.left * bits // 8:r.right * bits // 8] = True
    assert (raw[~inside] == SENTINEL).all()  # not one byte outside the rectangles
    shown = screen_rows(device, (40, 30), stride, bits)
    want = expected(surface, bits)
    for r in dirty:
        got = shown[r.top:r.bottom, r.left:r.right]
        assert (got[..., :3] == want[r.top:r.bottom, r.left:r.right]).all() if bits == 32 else \
            (got == want[r.top:r.bottom, r.left:r.right]).all()
    assert fb.rows_written == 6 + 5


@pytest.mark.parametrize("bits", [16, 32])
def test_a_game_frame_lands_whole_then_only_what_changed_without_an_sdl_display(tmp_path, maps_dir, bits):
    pygame.display.quit()
    game = load(maps_dir)
    device, sysfs = make_fb(tmp_path, 480, 270, bits, pad=64)
    said: list[str] = []
    view = open_projector(config_for(device, sysfs, width=480, height=270), said.append)
    assert isinstance(view, FramebufferView) and said == [] and view.renderer.size == (480, 270)
    try:
        state = seeded_state(game, 7, 8)
        view.show(frame_for(game, state))
        stride = 480 * bits // 8 + 64
        shown, want = screen_rows(device, (480, 270), stride, bits), expected(view.renderer.surface, bits)
        assert (shown[..., :3] == want).all() if bits == 32 else (shown == want).all()
        assert view.framebuffer is not None and view.framebuffer.rows_written == 270
        moved = frame_for(game, state, cursor=game.board.cities[4].population_centre)
        view.show(moved)
        assert view.renderer.dirty and view.renderer.full_redraws == 1
        assert 0 < view.framebuffer.rows_written - 270 < 270  # the cursor's rectangles, not the screen
        shown, want = screen_rows(device, (480, 270), stride, bits), expected(view.renderer.surface, bits)
        assert (shown[..., :3] == want).all() if bits == 32 else (shown == want).all()
        assert pygame.display.get_driver() == "dummy"  # SDL's event queue for a gamepad; no window, no GL
    finally:
        view.close()


def test_a_frame_warped_onto_the_board_lands_whole(tmp_path, maps_dir):
    game = load(maps_dir)
    device, sysfs = make_fb(tmp_path, 480, 270, 16)
    pairs = ((40.0, 60.0, 50.0, 70.0), (440.0, 60.0, 430.0, 50.0), (440.0, 250.0, 420.0, 260.0),
             (40.0, 250.0, 60.0, 240.0))
    view = open_projector(config_for(device, sysfs, width=480, height=270, calibration=pairs), print)
    assert isinstance(view, FramebufferView) and view.table is not None
    try:
        view.show(frame_for(game, seeded_state(game, 7, 8)))
        warped = view.image.surface if view.image is not None else None
        assert warped is not None and warped is not view.renderer.surface
        shown = screen_rows(device, (480, 270), 480 * 2, 16)
        assert (shown == expected(warped, 16)).all() and (shown != expected(view.renderer.surface, 16)).any()
    finally:
        view.close()


def test_an_unusable_framebuffer_leaves_the_oled_and_is_said_once(tmp_path):
    device, sysfs = make_fb(tmp_path, 64, 32, 32)
    device.write_bytes(bytes(100))  # smaller than 64 x 32 pixels
    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal, sim_config(headless=True)) as table:
        before = list(table.loop.views)
        config = Config(projector=config_for(device, sysfs, width=64, height=32))
        assert attach(table, "projector", config.projector) is None
        assert attach(table, "projector", config.projector) is None
        assert table.loop.views == before and table.parts["projector"] == "none"
        table.session.start("stormfury")
        table.inbox.put(Press("ROLL"))
        assert table.loop.step(timeout=2)  # the game goes on with the OLED
        notices = [n for n in table.session.frame.panel.notices if n.startswith("projector")]
        assert len(notices) == 1 and notices[0].startswith("projector: no framebuffer") and "cannot map" in notices[0]


def test_a_framebuffer_absent_at_start_is_waited_for_and_shown_when_it_comes(tmp_path, maps_dir):
    """No display at boot: no /dev/fb0 yet. The view waits (the game goes on with the OLED) and puts the whole
    map on the device once it is there, at the device's mode."""
    sysfs = tmp_path / "sys-fb0"
    device = tmp_path / "fb0"
    config = Config(projector=config_for(device, sysfs, width=64, height=32))
    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal, sim_config(headless=True)) as table:
        view = attach(table, "projector", config.projector)
        assert isinstance(view, FramebufferView) and view.framebuffer is None and view in table.loop.views
        notices = [n for n in table.session.notices if n.startswith("projector")]
        assert len(notices) == 1 and "no such file or directory); waiting for it" in notices[0]
        table.session.start("stormfury")
        table.inbox.put(Press("ROLL"))
        assert table.loop.step(timeout=2) and view.shown >= 1
        view.watch()
        assert view.framebuffer is None  # still nothing there
        make_fb(tmp_path, 160, 90, 16)  # the projector is switched on
        view.watch()
        assert view.framebuffer is not None and view.renderer.size == (160, 90) and view.reopened == 1
        shown = screen_rows(device, (160, 90), 160 * 2, 16)
        assert (shown == expected(view.renderer.surface, 16)).all()  # the whole map, at the mode's size
        assert table.session.message == "projector back"
        view.close()


@pytest.mark.parametrize(("entry", "text", "needle"), [
    ("bits_per_pixel", "8", "8 bits a pixel is not supported"),
    ("virtual_size", "1920", "expected WIDTH,HEIGHT"),
    ("stride", "10", "cannot hold a row of 64 pixels"),
    ("stride", "", "expected a positive number"),
])
def test_a_framebuffer_it_cannot_write_is_named_in_one_line(tmp_path, entry, text, needle):
    device, sysfs = make_fb(tmp_path, 64, 32, 32)
    (sysfs / entry).write_text(text)
    said: list[str] = []
    assert open_projector(config_for(device, sysfs), said.append) is None
    assert len(said) == 1 and needle in said[0] and str(sysfs / entry) in said[0] and "\n" not in said[0]


def test_a_framebuffer_failing_mid_game_is_said_once_and_opened_again(tmp_path, caplog):
    device, sysfs = make_fb(tmp_path, 320, 180, 16)
    config = Config(projector=config_for(device, sysfs, width=320, height=180))
    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal, sim_config(headless=True)) as table:
        view = attach(table, "projector", config.projector)
        assert isinstance(view, FramebufferView) and view in table.loop.views
        assert table.parts["projector"] == "fbdev fullscreen"
        oled = next(v for v in table.loop.views if type(v).__name__ == "OledView")
        table.session.start("kansas")
        table.inbox.put(Press("ROLL"))
        assert table.loop.step(timeout=2) and view.shown >= 1
        assert view.framebuffer is not None
        view.framebuffer.close()  # the device went away under the view
        shown = oled.shown
        device.write_bytes(bytes([SENTINEL]) * 320 * 2 * 180)
        table.inbox.put(Press("ROLL"))
        assert table.loop.step(timeout=2)  # no exception out of the loop
        assert view in table.loop.views and oled.shown == shown + 1
        said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("projector:")]
        # the same turn's check opened it again at once (the file is there), the whole picture on it
        assert said == [f"projector: {device} is closed; the map comes back when it does",
                        f"projector: {device} back, 320x180 RGB565"]
        assert view.framebuffer is not None and view.reopened == 1
        assert (screen_rows(device, (320, 180), 640, 16) == expected(view.renderer.surface, 16)).all()
        assert table.session.message == "projector back"  # the path and sizes in the log only


def test_auto_picks_the_framebuffer_on_a_console_unless_only_drm_is_there(tmp_path):
    device = tmp_path / "fb0"
    assert choose_driver("auto", {}, framebuffer=str(device), drm=True) == "kmsdrm"  # no fbdev emulation
    assert choose_driver("auto", {}, framebuffer=str(device), drm=False) == "fbdev"  # no display yet: wait for it
    device.touch()
    assert choose_driver("auto", {}, framebuffer=str(device), drm=True) == "fbdev"
    assert choose_driver("auto", {"DISPLAY": ":0"}, framebuffer=str(device)) is None  # a desktop's own
    assert choose_driver("kmsdrm", {}, framebuffer=str(device)) == "kmsdrm"


def test_auto_on_a_console_with_a_framebuffer_opens_it(tmp_path, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    device, sysfs = make_fb(tmp_path, 160, 120, 32)
    view = open_projector(ProjectorConfig(framebuffer=str(device), framebuffer_sysfs=str(sysfs)), print)
    assert isinstance(view, FramebufferView) and view.renderer.size == (160, 120)  # the device's mode
    view.close()


def test_a_caller_needing_an_sdl_window_never_gets_the_framebuffer(tmp_path):
    device, sysfs = make_fb(tmp_path, 160, 120, 32)
    said: list[str] = []
    # calibrate asks for SDL's window: "fbdev" means KMSDRM there, and this machine has no DRM device
    assert open_projector(config_for(device, sysfs), said.append, framebuffer=False) is None
    assert len(said) == 1 and said[0].startswith("projector: no display")


def test_the_configuration_names_the_framebuffer(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[projector]\ndriver = "fbdev"\nframebuffer = "/dev/fb1"\nframebuffer_sysfs = "/tmp/fb1"\n')
    projector = load_config(path).projector
    assert (projector.driver, projector.framebuffer, projector.framebuffer_sysfs) == ("fbdev", "/dev/fb1", "/tmp/fb1")
    path.write_text('[projector]\nframebuffer = ""\n')
    with pytest.raises(DataError) as info:
        load_config(path)
    assert "projector.framebuffer: expected a file path" in str(info.value) and str(path) in str(info.value)


def test_the_framebuffer_path_imports_no_numpy_and_loads_no_gl_yet_keeps_an_event_queue(tmp_path):
    """No GL library mapped (the memory the output exists to save), while SDL's event queue runs on its dummy
    driver, so a USB gamepad's buttons still arrive."""
    device, sysfs = make_fb(tmp_path, 320, 180, 32)
    code = ("from companion.config import ProjectorConfig\n"
            "from companion.views.projector.outputs import open_projector\n"
            f"view = open_projector(ProjectorConfig(driver='fbdev', framebuffer={str(device)!r}, "
            f"framebuffer_sysfs={str(sysfs)!r}), print)\n"
            "import pygame, sys\n"
            "assert view is not None and pygame.display.get_driver() == 'dummy'\n"
            "pygame.event.post(pygame.event.Event(pygame.USEREVENT))\n"
            "assert pygame.event.get(pygame.USEREVENT)\n"
            "import re\n"
            "maps = open('/proc/self/maps').read()\n"
            "assert not re.search(r'lib(GL|EGL|GLES|gbm)', maps), 'GL is loaded'\n"
            "print('\\n'.join(sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = set(out.split())
    assert "companion.views.projector.fbdev" in loaded
    assert not loaded & {"numpy", "companion.views.projector.warp"}


def test_auto_with_a_drm_card_but_no_display_waits_for_the_framebuffer(tmp_path, monkeypatch):
    """A DRM card and no /dev/fb0: auto tries SDL's KMSDRM, which finds no display (here: no DRM device at all);
    instead of giving up for the night the box waits for the framebuffer a display brings."""
    import companion.views.projector.outputs as view_module

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(view_module.glob, "glob", lambda pattern: ["/dev/dri/card0"])
    pygame.display.quit()
    device, sysfs = tmp_path / "fb0", tmp_path / "sys-fb0"
    said: list[str] = []
    view = open_projector(ProjectorConfig(framebuffer=str(device), framebuffer_sysfs=str(sysfs)), said.append)
    try:
        assert isinstance(view, FramebufferView) and view.framebuffer is None
        assert len(said) == 2 and said[0].startswith("projector: no display") and said[1].endswith("waiting for it")
        make_fb(tmp_path, 64, 32, 32)
        view.watch()
        assert view.framebuffer is not None and view.renderer.size == (64, 32)
    finally:
        view.close()
