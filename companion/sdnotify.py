"""Telling systemd how the service is doing (sd_notify), with the standard library alone.

The unit is ``Type=notify`` with ``WatchdogSec``: systemd waits for READY=1 before counting the
box as started, and restarts it if the watchdog pings stop. The session pings from its main loop,
never from a side thread, so a hung loop really does stop the pings. Without NOTIFY_SOCKET
(a terminal, the tests, another init) every call is a quiet no-op.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable


class Notifier:
    """A datagram link to systemd's notify socket (path or abstract ``@name``)."""

    def __init__(self, address: str | None = None, watchdog_usec: str | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last_ping: float | None = None
        self.address = os.environ.get("NOTIFY_SOCKET") if address is None else address
        usec = os.environ.get("WATCHDOG_USEC") if watchdog_usec is None else watchdog_usec
        try:
            self.watchdog_interval: float | None = int(usec) / 1_000_000 if usec else None
        except ValueError:
            self.watchdog_interval = None

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def notify(self, message: str) -> bool:
        """Send one state string; False if there is no socket or systemd is gone (never raises)."""
        if not self.address:
            return False
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                # Never wait on systemd: a full socket queue drops this message, the next one follows.
                sock.setblocking(False)
                sock.sendto(message.encode(), target)
        except OSError:
            return False
        return True

    def ready(self) -> bool:
        return self.notify("READY=1")

    def watchdog(self) -> bool:
        """Ping, at most once per :meth:`ping_gap` however often the loop turns; True if one was sent."""
        now = self._clock()
        if self._last_ping is not None and now - self._last_ping < self.ping_gap():
            return False
        self._last_ping = now
        return self.notify("WATCHDOG=1")

    def ping_gap(self) -> float:
        """Seconds between pings: half the watchdog timeout (systemd's advice), and at least once a second."""
        every = self.ping_every()
        return min(every, 1.0) if every else 1.0

    def status(self, text: str) -> bool:
        return self.notify("STATUS=" + text.replace("\n", " "))

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def ping_every(self) -> float | None:
        """How often to ping: half the watchdog timeout, as systemd recommends; None without a watchdog."""
        return self.watchdog_interval / 2 if self.watchdog_interval else None


_default: Notifier | None = None


def _notifier() -> Notifier:
    global _default
    if _default is None:
        _default = Notifier()
    return _default


def ready() -> bool:
    return _notifier().ready()


def watchdog() -> bool:
    return _notifier().watchdog()


def status(text: str) -> bool:
    return _notifier().status(text)


def stopping() -> bool:
    return _notifier().stopping()
