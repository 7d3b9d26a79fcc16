"""Wake the tower link when a serial device appears, instead of scanning for one five times a second.

Looking for the tower means listing every serial port (serial.tools.list_ports walks /sys/class/tty:
a few hundred system calls, about a millisecond of a core here and four on a Pi 4). Done every 0.2 s
while the tower is unplugged, that alone kept an idle box at half a per cent of a core. udev
announces every tty device added (and, through the rule in systemd/, /dev/dice-tower exists by the
time it does), so the link looks when udev says something arrived and sleeps otherwise. udev's
announcements come through pyudev's netlink monitor, the same library the rest of the Linux world
uses for it. Where udev is absent (pyudev not installed, no udev daemon: a container, a minimal
image) the link falls back to a slow scan, every ``SLOW_SCAN`` seconds.

Without a running udev daemon libudev's monitor hears nothing at all, so "udev is present" is
checked the way libudev checks it: its control socket /run/udev/control exists.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
from typing import Any

log = logging.getLogger(__name__)

SLOW_SCAN = 2.0
"""Seconds between looks for the tower where udev is absent (a look costs a scan of the serial ports)."""
UDEV_CONTROL = "/run/udev/control"


def udev_monitor(subsystem: str = "tty") -> Any:
    """A started pyudev monitor of ``subsystem`` devices, or None where udev is absent."""
    if not os.path.exists(UDEV_CONTROL):
        return None
    try:
        import pyudev
    except ImportError:
        return None
    try:
        monitor = pyudev.Monitor.from_netlink(pyudev.Context())
        monitor.filter_by(subsystem)
        monitor.start()
    except (OSError, ImportError) as exc:  # no netlink here (a sandbox), or libudev missing
        log.info("udev monitor not available (%s): the tower is looked for every %g s", exc, SLOW_SCAN)
        return None
    return monitor


class Hotplug:
    """``wait()`` returns when a device was added (udev), when ``wake()`` was called, or after a timeout.

    Start it before the first look for the tower: an arrival between that look and the wait is then
    already in the monitor's socket and the wait returns at once."""

    def __init__(self, monitor: Any = None, *, slow_scan: float | None = None) -> None:
        self.monitor = monitor
        self.slow_scan = SLOW_SCAN if slow_scan is None else slow_scan
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)

    @classmethod
    def start(cls, slow_scan: float | None = None) -> Hotplug:
        return cls(udev_monitor(), slow_scan=slow_scan)

    @property
    def udev(self) -> bool:
        """True when arrivals are announced by udev; False: the slow scan."""
        return self.monitor is not None

    def wait(self, timeout: float | None = None) -> str:
        """Block until a device is "added", the link is "woken", or "timeout" (``timeout`` seconds;
        by default none with udev, the slow scan's period without)."""
        if timeout is None and self.monitor is None:
            timeout = self.slow_scan
        fds = [self._wake_r] + ([self.monitor.fileno()] if self.monitor is not None else [])
        try:
            ready, _, _ = select.select(fds, [], [], timeout)
        except (OSError, ValueError):  # closed under us while stopping
            return "woken"
        if self._wake_r in ready:
            with contextlib.suppress(OSError):
                os.read(self._wake_r, 64)
            return "woken"
        if ready:
            added = False
            while (device := self.monitor.poll(timeout=0)) is not None:
                added |= device.action == "add"
            return "added" if added else "timeout"
        return "timeout"

    def wake(self) -> None:
        """Make a ``wait`` in another thread return now (the link is stopping)."""
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"!")

    def close(self) -> None:
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.monitor = None
