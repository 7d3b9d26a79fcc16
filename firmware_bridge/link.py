"""The host end of the tower link: pyserial, a reader thread, reconnects, exactly-once rolls.

The link opens the tower by path (default /dev/dice-tower, the udev symlink), or failing that by
scanning serial.tools.list_ports for the tower's USB id. One background thread reads with a
timeout, feeds the parser, ACKs each roll and delivers each (boot, seq) once and in order (a
roll after a gap waits for the tower's resend); everything the
session needs goes on a queue.Queue as firmware_bridge.events values. Any serial error (an
unplugged adapter raises SerialException "device reports readiness to read but returned no
data", or OSError EIO on a pty) closes the port and the loop tries again every ``retry`` seconds.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import serial
import serial.tools.list_ports

from companion.dice import DiceRolled, Die
from firmware_bridge.events import TowerFault, TowerRoll, TowerState
from firmware_bridge.wire import BAUDRATE, TOWER_FRAMES, Frame, FrameParser, Rejection, encode

log = logging.getLogger(__name__)

DEFAULT_PORT = "/dev/dice-tower"
DEFAULT_USB_ID = "2E8A:0005"
"""Raspberry Pi RP2040 running MicroPython (its default USB VID:PID)."""


def find_port(usb_id: str = DEFAULT_USB_ID) -> str | None:
    """The device path of the first serial port with USB id ``VID:PID`` (hex), or None."""
    try:
        vid, pid = (int(part, 16) for part in usb_id.split(":"))
    except ValueError:
        return None
    for info in serial.tools.list_ports.comports():
        if info.vid == vid and info.pid == pid:
            return info.device
    return None


class TowerLink:
    """Reads a dice tower and puts TowerRoll / TowerState / TowerFault on ``events``.

    ``port`` is a device path or a pyserial URL (``loop://`` in tests); None means
    /dev/dice-tower if present, else a scan for ``usb_id``. ``retry`` is how often a missing
    tower is looked for; ``silence`` how long without a byte before the link asks the tower to
    say hello again (and reports "waiting").
    """

    def __init__(self, events: queue.Queue[Any], port: str | None = None, *,
                 usb_id: str = DEFAULT_USB_ID, baudrate: int = BAUDRATE, retry: float = 0.2,
                 read_timeout: float = 0.05, silence: float = 3.0, rolling_for: float = 5.0,
                 on_reject: Callable[[Rejection], None] | None = None) -> None:
        self.events = events
        self.port = port
        self.usb_id = usb_id
        self.baudrate = baudrate
        self.retry = retry
        self.read_timeout = read_timeout
        self.silence = silence
        self.rolling_for = rolling_for
        self.on_reject = on_reject
        self.state = "off"
        self.detail = ""
        self.path: str | None = None
        self.boot = ""
        self.hello: Frame | None = None
        self.counts: Counter[str] = Counter()
        """accepted, duplicates, reconnects, faults, and each rejection reason."""
        self._delivered: dict[str, int] = {}
        """Per tower boot: every roll up to this seq was delivered (rolls go out in order)."""
        self._synced_for = -1
        self._asked_hello = float("-inf")
        """When a SYNC last asked for a HELLO because frames came without one (at most once a silence)."""
        self._serial: serial.SerialBase | None = None
        self._parser = FrameParser(accept=TOWER_FRAMES)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._was_connected = False
        self._last_byte = 0.0
        self._rolling_since = 0.0

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> TowerLink:
        self._set_state("waiting", "looking for the tower")
        self._thread = threading.Thread(target=self._run, name="tower-link", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the reader thread and close the port (safe to call twice)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._close()

    def __enter__(self) -> TowerLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def status(self) -> dict[str, Any]:
        """State, port and counters, for logs and the ``listen`` command."""
        return {"state": self.state, "detail": self.detail, "port": self.path, "boot": self.boot,
                "counts": dict(self.counts)}

    # -- the reader thread -----------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            if self._serial is None and not self._open():
                self._stop.wait(self.retry)
                continue
            try:
                data = self._serial.read(max(1, self._serial.in_waiting))  # type: ignore[union-attr]
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                # TypeError/AttributeError: pyserial after a concurrent close; same meaning.
                self._lost(str(exc))
                continue
            now = time.monotonic()
            try:
                if data:
                    self._last_byte = now
                    for item in self._parser.feed(data):
                        self._handle(item, now)
                self._watch(now)
            except Exception:  # a bug here must not silence the tower for the rest of the night
                log.exception("tower link: frame handling failed")
                self.counts["link_errors"] += 1

    def _resolve(self) -> str | None:
        if self.port is not None:
            return self.port
        import os

        if os.path.exists(DEFAULT_PORT):
            return DEFAULT_PORT
        return find_port(self.usb_id)

    def _open(self) -> bool:
        path = self._resolve()
        if path is None:
            self._set_state("away" if self._was_connected else "waiting", "no tower found")
            return False
        try:
            self._serial = serial.serial_for_url(path, baudrate=self.baudrate,
                                                 timeout=self.read_timeout, write_timeout=1.0)
        except (serial.SerialException, OSError, ValueError) as exc:
            self._set_state("away" if self._was_connected else "waiting", f"{path}: {exc}")
            return False
        self.path = path
        self._parser = FrameParser(accept=TOWER_FRAMES)  # a half line from before is garbage now
        # A ROLL carries no boot: until this connection's HELLO says which power-up is talking, a
        # roll could belong to a tower that restarted meanwhile (its seq 1 would pass for an old
        # duplicate, be ACKed and lost). Rolls before the HELLO are left unACKed; SYNC brings them again.
        self.boot = ""
        self._last_byte = time.monotonic()
        self._set_state("waiting", f"opened {path}, waiting for hello")
        self._send(Frame("SYNC"))
        return True

    def _close(self) -> None:
        ser, self._serial = self._serial, None
        if ser is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                ser.close()

    def _lost(self, why: str) -> None:
        log.info("tower lost: %s", why)
        self._close()
        self.counts["disconnects"] += 1
        self._set_state("away" if self._was_connected else "waiting", why)

    def _send(self, frame: Frame) -> None:
        if self._serial is None:
            return
        try:
            self._serial.write(encode(frame))
        except (serial.SerialException, OSError) as exc:
            self._lost(str(exc))

    def _set_state(self, state: str, detail: str = "") -> None:
        self.detail = detail
        if state != self.state or state == "mismatch":
            self.state = state
            self.events.put(TowerState(state, detail))

    def _watch(self, now: float) -> None:
        if self.state == "rolling" and now - self._rolling_since > self.rolling_for:
            self._set_state("connected", "no roll came")
        if self._serial is not None and now - self._last_byte > self.silence:
            self._last_byte = now
            if self.state in ("connected", "rolling"):
                self._set_state("waiting", "tower silent")
            self.boot = ""  # it may have restarted while silent: trust rolls again after its HELLO
            self._send(Frame("SYNC"))

    # -- frames ----------------------------------------------------------------------------
    def _handle(self, item: Frame | Rejection, now: float) -> None:
        if isinstance(item, Rejection):
            self.counts[item.reason] += 1
            if item.reason == "version_mismatch":
                self._set_state("mismatch", f"tower speaks protocol {item.detail}, box speaks 1")
            if self.on_reject is not None:
                self.on_reject(item)
            return
        kind = item.kind
        if kind == "HELLO":
            self.hello = item
            self.boot = item.boot
            # Rolls below ``first`` were acknowledged already (by us, or by the box before a restart).
            self._delivered[item.boot] = max(self._delivered.get(item.boot, 0), item.seq - 1)
            self._was_connected = True
            self._set_state("connected", f"firmware {item.firmware}, dice {'+'.join(item.kinds)}")
        elif self.state == "mismatch" or not self.boot:
            # Nothing is trusted before a hello of our version: ask for one. A tower that talks again
            # after a silence sends heartbeats, not a HELLO: its frames keep the line from going quiet,
            # so the ask must come from them (once a silence period, not once a frame).
            self.counts["before_hello"] += 1
            if self.state != "mismatch" and (kind == "ROLL" or now - self._asked_hello >= self.silence):
                self._asked_hello = now
                self._send(Frame("SYNC"))
        elif kind == "ROLL":
            self._roll(item)
        elif kind == "ROLLING":
            self._rolling_since = now
            self._set_state("rolling")
        elif kind == "ERR":
            self.counts["faults"] += 1
            self.events.put(TowerFault(item.code, item.text))
            if self.state == "rolling":
                self._set_state("connected")
        elif kind == "HB" and self.state == "waiting":
            self._set_state("connected", "heartbeat")

    def _roll(self, frame: Frame) -> None:
        last = self._delivered.get(self.boot, 0)
        if frame.seq <= last:
            # Counted before the ACK goes out, so whoever sees the tower's outbox empty sees the count.
            self.counts["duplicates"] += 1
            self._send(Frame("ACK", seq=frame.seq))  # ACK duplicates too: the first ACK may be lost
            return
        if frame.seq > last + 1:
            # An earlier roll was lost on the wire: hold this one back (no ACK) and ask the tower
            # to resend its outbox, which comes in order. Once per gap, not once per frame.
            self.counts["out_of_order"] += 1
            if self._synced_for != last:
                self._synced_for = last
                self._send(Frame("SYNC"))
            return
        # Handed over, counted, then acknowledged: whoever sees the ACK's effect (the tower's outbox
        # empty) or the count finds the roll already on the queue.
        self._delivered[self.boot] = frame.seq
        dice = DiceRolled(tuple(Die(kind, value) for kind, value in frame.dice), source="tower")
        self.events.put(TowerRoll(frame.seq, dice, self.boot))
        self.counts["accepted"] += 1
        self._send(Frame("ACK", seq=frame.seq))
        if self.state != "connected":
            self._set_state("connected")
