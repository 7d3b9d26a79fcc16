"""The tower link sleeps while no tower is there: udev's announcements wake it, or a slow scan where udev is absent."""

from __future__ import annotations

import queue
import threading
from typing import Any

import pytest
import serial.tools.list_ports

from firmware_bridge import hotplug
from firmware_bridge.events import SourceStatus
from firmware_bridge.hotplug import Hotplug, udev_monitor
from firmware_bridge.link import TowerLink


@pytest.fixture
def no_udev(monkeypatch, tmp_path):
    """A system without a udev daemon: libudev's control socket is not there."""
    monkeypatch.setattr(hotplug, "UDEV_CONTROL", str(tmp_path / "no-udev" / "control"))


def test_without_a_udev_daemon_there_is_no_monitor_and_the_wait_is_the_slow_scan(no_udev):
    assert udev_monitor() is None
    plug = Hotplug.start(slow_scan=0.01)
    try:
        assert not plug.udev
        assert plug.wait() == "timeout"  # the slow scan's turn, not a hang
    finally:
        plug.close()


def test_wake_ends_a_wait_from_another_thread(no_udev):
    plug = Hotplug.start(slow_scan=600.0)
    try:
        waker = threading.Thread(target=plug.wake)
        waker.start()
        assert plug.wait() == "woken"
        waker.join()
    finally:
        plug.close()


def test_a_link_looking_for_its_tower_scans_once_then_sleeps_and_stops_at_once(no_udev, monkeypatch):
    scans: list[int] = []
    comports = serial.tools.list_ports.comports

    def counting_comports(*args: Any, **kwargs: Any) -> Any:
        scans.append(1)
        return comports(*args, **kwargs)

    monkeypatch.setattr(serial.tools.list_ports, "comports", counting_comports)
    monkeypatch.setattr(hotplug, "SLOW_SCAN", 600.0)
    sleeping = threading.Event()
    wait = Hotplug.wait

    def observed_wait(self: Hotplug, timeout: float | None = None) -> str:
        sleeping.set()
        return wait(self, timeout)

    monkeypatch.setattr(Hotplug, "wait", observed_wait)
    events: queue.Queue[Any] = queue.Queue()
    link = TowerLink(events, None, usb_id="FFFF:FFFE", retry=0.001).start()  # no such tower here
    try:
        assert sleeping.wait(timeout=10)
        assert len(scans) == 1  # not one scan per ``retry``: the link sleeps until a device arrives
    finally:
        link.stop(timeout=10)
    assert link._thread is None and link._hotplug is None
    first = events.get(timeout=1)
    assert isinstance(first, SourceStatus) and first.state == "waiting"


def test_a_pseudo_terminal_or_url_is_looked_for_every_retry_as_before():
    assert not TowerLink(queue.Queue(), "/dev/pts/7")._announced_by_udev()
    assert not TowerLink(queue.Queue(), "loop://")._announced_by_udev()
    assert TowerLink(queue.Queue(), "/dev/ttyACM0")._announced_by_udev()
    assert TowerLink(queue.Queue(), None)._announced_by_udev()
