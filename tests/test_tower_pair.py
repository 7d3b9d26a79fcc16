"""The udev rule names the tower by its USB serial number, keeps ModemManager off it, and the link holds the
port exclusively. ``companion tower pair`` is run against a virtual tower on a pty, which pyserial's own
port list (ListPortInfo, as list_ports builds it from sysfs) reports with the Pico's USB id and a serial."""

from __future__ import annotations

import argparse
import os
import queue
from pathlib import Path
from typing import Any

import pytest
import serial
from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo

from companion.commands.tower import run_pair
from companion.errors import CompanionError
from firmware_bridge.link import TowerLink
from firmware_bridge.virtual import VirtualTower

SHIPPED = Path(__file__).resolve().parents[1] / "systemd" / "99-dice-tower.rules"
PICO_SERIAL = "E6614C311B7A5F2D"  # a Pico's USB serial: the flash chip's unique id, 16 hex digits


def port(device: str, serial_number: str | None = PICO_SERIAL, vid: int = 0x2E8A, pid: int = 0x0005) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.serial_number = vid, pid, serial_number
    return info


def rule_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def test_the_shipped_rule_keeps_modemmanager_off_every_pico_and_names_only_the_marked_tower() -> None:
    from firmware_bridge.udev import shipped_rules

    assert SHIPPED.read_text() == shipped_rules()
    ignore, name = rule_lines(SHIPPED.read_text())
    assert ignore == ('SUBSYSTEM=="tty", ATTRS{idVendor}=="2e8a", ATTRS{idProduct}=="0005", '
                      'ENV{ID_MM_DEVICE_IGNORE}="1"')
    assert name == ('SUBSYSTEM=="tty", ENV{COMPANION_DICE_TOWER}=="1", SYMLINK+="dice-tower", GROUP="dialout", '
                    'MODE="0660"')


def pair(monkeypatch: pytest.MonkeyPatch, ports: list[ListPortInfo], rules: Path, wait: float = 3.0) -> int:
    monkeypatch.setattr(list_ports, "comports", lambda *a, **k: ports)
    return run_pair(argparse.Namespace(rules=str(rules), wait=wait))


def test_pairing_writes_the_towers_serial_into_the_rule(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "98-dice-tower-serial.rules"
    with VirtualTower() as tower:
        others = [port("/dev/ttyUSB0", "A50285BI", vid=0x0403, pid=0x6001)]  # an FTDI cable: not a Pico
        assert pair(monkeypatch, [*others, port(tower.path)], rules) == 0
    assert rule_lines(rules.read_text()) == [
        f'SUBSYSTEM=="tty", ATTRS{{idVendor}}=="2e8a", ATTRS{{idProduct}}=="0005", ATTRS{{serial}}=="{PICO_SERIAL}", '
        'ENV{COMPANION_DICE_TOWER}="1"']
    assert rules.name < SHIPPED.name  # read before the shipped rule, which names the port it marks
    assert oct(rules.stat().st_mode & 0o777) == "0o644"
    out = capsys.readouterr().out
    assert f"USB serial {PICO_SERIAL}, firmware virtual-2.0.0" in out


def test_pairing_refuses_what_is_not_one_answering_tower(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    rules = tmp_path / "98-dice-tower-serial.rules"
    with pytest.raises(CompanionError, match="no tower plugged in"):
        pair(monkeypatch, [], rules)
    with pytest.raises(CompanionError, match="2 boards with USB id 2e8a:0005 are plugged in"):
        pair(monkeypatch, [port("/dev/ttyACM0"), port("/dev/ttyACM1", "E661000000000001")], rules)
    with pytest.raises(CompanionError, match='no usable USB serial number \\(none\\)'):
        pair(monkeypatch, [port("/dev/ttyACM0", None)], rules)
    with pytest.raises(CompanionError, match='no usable USB serial number \\(a"b\\)'):
        pair(monkeypatch, [port("/dev/ttyACM0", 'a"b')], rules)
    master, slave = os.openpty()  # a Pico with other firmware: the port opens, nothing answers
    try:
        with pytest.raises(CompanionError, match="does not answer as a dice tower"):
            pair(monkeypatch, [port(os.ttyname(slave))], rules, wait=0.3)
    finally:
        os.close(master)
        os.close(slave)
    assert not rules.exists()


def test_the_link_holds_the_port_exclusively_and_pairing_says_so(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    events: queue.Queue[Any] = queue.Queue()
    with VirtualTower() as tower:
        link = TowerLink(events, tower.path, retry=0.02).start()
        try:
            while link.status()["state"] != "connected":
                events.get(timeout=5)
            with pytest.raises(serial.SerialException):  # a terminal on the tower's port, while the box reads it
                serial.Serial(tower.path, exclusive=True)
            with pytest.raises(CompanionError, match="stop it first"):
                pair(monkeypatch, [port(tower.path)], tmp_path / "rules")
        finally:
            link.stop()
