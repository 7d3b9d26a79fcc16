"""The dice tower on the far end of the guest's USB serial adapter (QEMU's usb-serial, an FTDI chip).

The guest sees /dev/ttyUSB0; QEMU hands its bytes to a Unix socket that this tower holds. The tower speaks
through ``firmware_bridge.tower.TowerProtocol``, the code the RP2040 firmware itself runs, so the guest's
box hears exactly the bytes a real tower sends: HELLO, heartbeats, numbered ROLLs kept until ACKed.
"""

from __future__ import annotations

import contextlib
import secrets
import socket
import threading
import time
from pathlib import Path

from firmware_bridge.tower import TowerProtocol


class SocketTower:
    """A tower on QEMU's chardev socket. ``roll`` throws dice; ``acked`` tells whether the box journaled them."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(path))
        self.sock.settimeout(0.1)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self.protocol = TowerProtocol(self._write, secrets.token_hex(4), firmware="appliance-2.0.0")
        self.heard = bytearray()
        """Everything the box sent (SYNCs and ACKs), for the report."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tower", daemon=True)
        self._thread.start()
        with self._lock:
            self.protocol.hello(time.monotonic())  # as the board does when it powers up

    def _write(self, data: bytes) -> None:
        with contextlib.suppress(OSError):
            self.sock.sendall(data)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                data = b""
            except OSError:
                return
            with self._lock:
                now = time.monotonic()
                if data:
                    self.heard += data
                    self.protocol.receive(data, now)
                    self._changed.notify_all()
                self.protocol.tick(now)

    def roll(self, dice: list[tuple[str, int]]) -> int:
        with self._lock:
            return self.protocol.roll(dice, time.monotonic())

    def acked(self, seq: int) -> bool:
        with self._lock:
            return all(entry[0] != seq for entry in self.protocol.outbox)

    def wait_acked(self, seq: int, timeout: float) -> bool:
        """True once the box ACKed roll ``seq`` (it ACKs only what its journal holds), False after ``timeout``."""
        with self._changed:
            return self._changed.wait_for(lambda: all(entry[0] != seq for entry in self.protocol.outbox), timeout)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2.0)
        self.sock.close()
