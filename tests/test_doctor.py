"""``companion doctor``: one line per part, ok or FAIL with the reason, exit 0 only when all pass.

Each part through its own library's seam: luma's ssd1306 driver on luma's noop interface (and the missing bus as
luma reports it), gpiozero's MockFactory pins pressed when the check asks, the box's own tower link reading a
virtual tower on a pty, sysfs folders for Bluetooth and the framebuffer, group files of this system."""

from __future__ import annotations

import grp
import io
import os
import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.commands import doctor
from companion.config import ButtonsConfig, DiceConfig, OledConfig, ProjectorConfig, TowerConfig
from firmware_bridge.virtual import VirtualTower
from tests.test_projector_fbdev import make_fb


def test_an_oled_that_answers_and_one_that_is_not_there(tmp_path, monkeypatch):
    from luma.core.interface.serial import noop
    from luma.oled.device import ssd1306

    found = doctor.check_oled(OledConfig(), opener=lambda s: ssd1306(noop(), width=s.width, height=s.height))
    assert found.ok and found.text == "ssd1306 128x64 answers at 0x3C on /dev/i2c-1"
    monkeypatch.setattr("hardware.oled.DEVICES", tmp_path)  # no /dev/i2c-1: I2C not switched on, or no such bus
    missing = doctor.check_oled(OledConfig())
    assert not missing.ok and missing.line().startswith("OLED:      FAIL ssd1306 not found at 0x3C on /dev/i2c-1")
    assert f"I2C device not found: {tmp_path}/i2c-1" in missing.text
    assert doctor.check_oled(OledConfig(type="disabled")).ok


def test_each_button_pressed_when_asked_passes(mock_factory):
    asked = []

    def press(name, bcm):
        asked.append(name)
        pin = mock_factory.pin(bcm)
        pin.drive_low()
        pin.drive_high()  # BACK's press is said on release (it holds)

    result = doctor.check_buttons(ButtonsConfig(bounce_ms=0), timeout=5, skip=False, ask=press)
    assert result.ok and result.text.startswith("all 7 pressed") and asked == list(doctor_names())


def doctor_names():
    from hardware.buttons import BUTTON_NAMES

    return BUTTON_NAMES


def test_a_button_that_never_comes_is_named_with_its_pin(mock_factory):
    def press(name, bcm):
        if name != "UP":
            mock_factory.pin(bcm).drive_low()
            mock_factory.pin(bcm).drive_high()

    result = doctor.check_buttons(ButtonsConfig(bounce_ms=0), timeout=0.3, skip=False, ask=press)
    assert not result.ok and result.text == "no press from UP (BCM 5) within 0.3 s; check its wire to GND"
    assert doctor.check_buttons(ButtonsConfig(), timeout=0.3, skip=True).text == "not tried (--no-buttons)"


def test_the_towers_hello_and_firmware_through_the_link(tmp_path):
    with VirtualTower(str(tmp_path)) as tower:
        result = doctor.check_tower(TowerConfig(port=tower.path), timeout=10)
        assert result.ok, result.text
        # the virtual tower names itself in its HELLO's firmware field ("virtual-2.0.0" for protocol 2), which is
        # not the shipped firmware's version: the line reports what the tower said
        assert result.text == f"HELLO on {tower.path}: firmware virtual-2.0.0, protocol 2, dice d6+d8"
    gone = doctor.check_tower(TowerConfig(port=str(tmp_path / "nothing")), timeout=0.3)
    assert not gone.ok and gone.text.startswith(f"no HELLO from {tmp_path / 'nothing'} within 0.3 s")


def adapter(root: Path, name: str, driver: str) -> None:
    (root / name / "device").mkdir(parents=True)
    (root / name / "device" / "uevent").write_text(f"DRIVER={driver}\nMODALIAS=usb:v0A12p0001\n")


def test_the_bluetooth_adapter_its_driver_and_rfkill(tmp_path):
    hci, rfkill = tmp_path / "bluetooth", tmp_path / "rfkill"
    hci.mkdir()
    rfkill.mkdir()
    assert not doctor.check_bluetooth(DiceConfig(enabled=True), hci, rfkill).ok
    assert doctor.check_bluetooth(DiceConfig(enabled=False), hci, rfkill).ok  # no dice, no adapter needed
    adapter(hci, "hci0", "hci_uart_bcm")
    adapter(hci, "hci1", "btusb")
    result = doctor.check_bluetooth(DiceConfig(enabled=True), hci, rfkill)
    assert result.ok and result.text == "hci0 (hci_uart_bcm), hci1 (btusb)"
    (rfkill / "rfkill0").mkdir()
    (rfkill / "rfkill0" / "type").write_text("bluetooth\n")
    (rfkill / "rfkill0" / "soft").write_text("1\n")
    (rfkill / "rfkill0" / "hard").write_text("0\n")
    blocked = doctor.check_bluetooth(DiceConfig(enabled=True), hci, rfkill)
    assert not blocked.ok and blocked.text.endswith("switched off: sudo rfkill unblock bluetooth")


def test_the_displays_mode_depth_connectors_and_owner(tmp_path, monkeypatch):
    device, sysfs = make_fb(tmp_path, 1920, 1080, 16)
    drm = tmp_path / "drm"
    (drm / "card1-HDMI-A-1").mkdir(parents=True)
    (drm / "card1-HDMI-A-1" / "status").write_text("connected\n")
    (drm / "card1-HDMI-A-1" / "modes").write_text("1920x1080\n1280x720\n")
    (drm / "card1-HDMI-A-2").mkdir()
    (drm / "card1-HDMI-A-2" / "status").write_text("disconnected\n")
    section = ProjectorConfig(framebuffer=str(device), framebuffer_sysfs=str(sysfs))
    result = doctor.check_display(section, drm, environ={})
    assert result.text.startswith(f"{device} 1920x1080 RGB565 (16 bits); HDMI-A-1 connected 1920x1080, "
                                  "HDMI-A-2 disconnected; screen: ")
    desktop = doctor.check_display(section, drm, environ={"WAYLAND_DISPLAY": "wayland-0"})
    assert not desktop.ok and desktop.text.endswith("screen: a desktop owns the screen: the map opens as a "
                                                    "full-screen window of it")
    # the doctor runs with the service stopped: it says whose console is in front, not a mode it never read
    from companion.views.projector import console

    monkeypatch.setattr(console, "active_vt", lambda *a: "tty1")
    monkeypatch.setattr(console, "active_session", lambda *a: None)
    ours = doctor.check_display(section, drm, environ={})
    assert ours.ok and ours.text.endswith("screen: tty1, the box's console") and "graphics" not in ours.text
    (sysfs / "virtual_size").unlink()
    gone = doctor.check_display(section, drm, environ={})
    assert not gone.ok and gone.text.startswith("no framebuffer (") and "is a display plugged in?" in gone.text


def other_group() -> grp.struct_group:
    return next(g for g in grp.getgrall() if g.gr_gid != os.getgid() and g.gr_name != "root")


def test_the_services_groups_exist_and_hold_the_devices(tmp_path):
    mine = grp.getgrgid(os.getgid()).gr_name
    unit = tmp_path / "companion.service"
    node = tmp_path / "fb0"
    node.touch()
    unit.write_text(f"[Service]\nSupplementaryGroups={mine} no-such-group-here\n")
    result = doctor.check_groups([unit], [str(node)])
    assert not result.ok
    assert result.text == f"{unit}: no group no-such-group-here on this system (install.sh makes them)"
    unit.write_text(f"[Service]\nSupplementaryGroups={mine}\n")
    assert doctor.check_groups([unit], [str(node)]).ok
    other = other_group()
    os.chown(node, -1, other.gr_gid)
    outside = doctor.check_groups([unit], [str(node)])
    assert not outside.ok and f"cannot open {node} ({other.gr_name})" in outside.text
    assert not doctor.check_groups([tmp_path / "absent.service"], []).ok


def test_the_shipped_unit_has_every_group_a_pi_device_needs():
    _, groups = doctor.unit_groups([doctor.UNIT_PATHS[1]])
    assert {"video", "render", "i2c", "gpio", "dialout", "input"} <= set(groups)


def test_the_command_prints_one_line_per_part_and_fails_when_one_does(tmp_path, capsys):
    config = tmp_path / "config.toml"
    device, sysfs = make_fb(tmp_path, 64, 32, 32)
    config.write_text(f'[tower]\nport = "{tmp_path / "no-tower"}"\n[oled]\nenabled = false\n'
                      f'[projector]\nframebuffer = "{device}"\nframebuffer_sysfs = "{sysfs}"\n')
    code = main(["doctor", "--no-buttons", "--tower-timeout", "0.2", "--config", str(config)])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    parts = [re.match(r"(\S+):\s+(ok  |FAIL) ", line) for line in out[:6]]
    assert [m.group(1) for m in parts if m] == ["OLED", "buttons", "tower", "Bluetooth", "display", "groups"]
    assert parts[2] and parts[2].group(2) == "FAIL" and out[-1].endswith("part(s) failed")


def test_all_passing_is_exit_0():
    out = io.StringIO()
    ok = doctor.Result("OLED", True, "fine")
    assert doctor.report([lambda: ok, lambda: ok], out) == 0 and out.getvalue().endswith("all parts pass\n")
    assert doctor.report([lambda: ok, lambda: doctor.Result("tower", False, "x")], io.StringIO()) == 1


@pytest.mark.parametrize("argv", [["doctor", "--tower-timeout", "soon"], ["doctor", "--config"],
                                  ["doctor", "--tower-timeout", "-1"], ["doctor", "--button-timeout", "0"],
                                  ["doctor", "--tower-timeout", "nan"]])
def test_bad_arguments_are_one_line(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("companion doctor: ")


def test_the_phones_page_line(tmp_path):
    import socket

    from companion.config import RemoteConfig

    assert doctor.check_remote(RemoteConfig()).line().endswith("off ([remote] enabled = false)")
    drop_in = tmp_path / "remote.conf"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = doctor.check_remote(RemoteConfig(enabled=True, port=port, bind="127.0.0.1"), drop_in)
    assert not busy.ok and f"port {port} on 127.0.0.1 cannot be opened" in busy.text
    missing = doctor.check_remote(RemoteConfig(enabled=True, port=port, bind="127.0.0.1"), drop_in)
    assert not missing.ok and str(drop_in) in missing.text
    drop_in.write_text("[Service]\n")
    ready = doctor.check_remote(RemoteConfig(enabled=True, port=port, bind="127.0.0.1"), drop_in)
    assert ready.ok and ready.text == f"on, http://127.0.0.1:{port}/"
