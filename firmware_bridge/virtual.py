"""A virtual dice tower on a pty pair, running the same protocol code as the firmware.

The link opens it by path like hardware: ``path`` is a stable symlink (as udev's /dev/dice-tower
is) that points at the current pty; ``unplug`` closes the pty and removes the link, ``replug``
makes a new pty and points the link at it. The tower keeps its outbox across an unplug, as a
self-powered board would; ``restart`` is a power cycle (new boot id, numbering from 1), and can
lose or damage its HELLO, as a UART bridge or a soft reset does while the port stays open.
``version`` 1 makes it an old tower (XOR check, no boot in ROLL and ACK), for the box's side of that.
Faults for tests and demos: garbage, bad checksums, truncated lines, duplicates, silence (``silent``:
what the tower sends is lost), deafness (``deaf``: what the box sends, its ACKs and SYNCs, is lost).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import select
import tempfile
import termios
import threading
import time
import tty
from collections.abc import Iterable, Sequence

from firmware_bridge.tower import TowerProtocol
from firmware_bridge.wire import FACES, PROTOCOL_VERSION, Frame, encode

POLL = 0.1
"""Seconds between the tower's housekeeping turns (heartbeat, resends) when the host is quiet. Rolls are
written the moment they are thrown, so this sets only how fast a resend follows a reconnect, and keeps an
idle simulated table near zero CPU."""

Dice = Sequence[tuple[str, int]]


def parse_dice(text: str) -> list[tuple[str, int]]:
    """``"d6 3 d8 5"`` or ``"d6:3 d8:5"`` as [(kind, face)]; ValueError naming what is wrong."""
    tokens = text.replace(":", " ").replace(",", " ").split()
    if not tokens or len(tokens) % 2:
        raise ValueError(f"expected pairs like 'd6 3 d8 5', got {text!r}")
    dice = []
    for kind, face in zip(tokens[::2], tokens[1::2], strict=True):
        kind = kind.lower()
        if kind not in FACES or not face.isdigit() or not 1 <= int(face) <= FACES[kind]:
            raise ValueError(f"not a die: {kind} {face} (known: {', '.join(FACES)})")
        dice.append((kind, int(face)))
    return dice


class VirtualTower:
    """A tower on a pty; ``path`` is what the link opens. Use as a context manager."""

    def __init__(self, directory: str | None = None, *, heartbeat: float = 1.0, retry: float = 1.0,
                 name: str = "dice-tower", version: int = PROTOCOL_VERSION) -> None:
        self._dir = tempfile.mkdtemp(prefix="virtual-tower-") if directory is None else directory
        self.path = os.path.join(self._dir, name)
        self.heartbeat = heartbeat
        self.retry = retry
        self.version = version
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self.silent = False
        """True: the tower's own frames are lost on the wire (rolls stay in the outbox)."""
        self.deaf = False
        """True: the box's frames never reach the tower (an ACK lost: the roll is resent later)."""
        self.last_roll: Frame | None = None
        self._deaf_until = 0.0
        self.protocol = self._new_protocol()
        self._stop = threading.Event()
        self._plug()
        self._thread = threading.Thread(target=self._run, name="virtual-tower", daemon=True)
        self._thread.start()

    def _new_protocol(self) -> TowerProtocol:
        return TowerProtocol(self._write, secrets.token_hex(4), firmware=f"virtual-{self.version}.0.0",
                             heartbeat=self.heartbeat, retry=self.retry, version=self.version)

    # -- the pty ---------------------------------------------------------------------------
    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no newline mangling before the link configures it
        self._master, self._slave = master, slave
        tmp = self.path + ".new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)

    @property
    def device(self) -> str | None:
        """The pty the symlink points at now (None while unplugged)."""
        with self._lock:
            return os.ttyname(self._slave) if self._slave is not None else None

    def unplug(self) -> None:
        """The device vanishes: the link's next read fails; the outbox is kept."""
        with self._lock:
            if os.path.lexists(self.path):
                os.unlink(self.path)
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None

    def replug(self) -> None:
        """A new pty behind the same path, as udev re-creates /dev/dice-tower."""
        with self._lock:
            if self._master is None:
                self._plug()

    def restart(self, hello: str = "sent", booting: float = 0.0) -> None:
        """A power cycle: new boot id, seq from 1, unacknowledged rolls lost, then its HELLO, which is
        ``sent``, ``lost`` (a UART bridge still starting) or ``damaged`` (one byte hit on the wire).
        For ``booting`` seconds the new power-up hears nothing, as a board does while it boots (a
        MicroPython soft reset takes a few hundred ms): a box's ACK still in flight for the old one dies."""
        with self._lock:
            self.protocol = self._new_protocol()
            self._deaf_until = time.monotonic() + booting
            self.last_roll = None  # a restarted tower has thrown nothing yet: no stale frame to repeat
            if self._master is not None:  # what the box sent the old power-up dies with it (an ACK in flight)
                with contextlib.suppress(OSError):
                    termios.tcflush(self._master, termios.TCIFLUSH)
            if hello == "sent":
                self.protocol.hello(time.monotonic())
            elif hello == "damaged":
                line = bytearray(encode(self.protocol.hello_frame()))
                line[len(line) // 2] ^= 0x04  # still printable, no longer what was sent
                self._write(bytes(line))
            elif hello != "lost":
                raise ValueError(f"hello is 'sent', 'lost' or 'damaged', not {hello!r}")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2.0)
        self.unplug()
        with contextlib.suppress(OSError):
            os.rmdir(self._dir)

    def __enter__(self) -> VirtualTower:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what players and tests do ---------------------------------------------------------
    def roll(self, dice: Dice) -> int:
        """Dice settle in the tray: a numbered ROLL is sent (or kept while unplugged)."""
        with self._lock:
            seq = self.protocol.roll(list(dice), time.monotonic())
            self.last_roll = Frame("ROLL", seq=seq, dice=list(dice), boot=self.protocol.boot)
            return seq

    def rolling(self) -> None:
        with self._lock:
            self.protocol.rolling(time.monotonic())

    def error(self, code: str, text: str = "") -> None:
        with self._lock:
            self.protocol.error(code, text, time.monotonic())

    def hello(self) -> None:
        with self._lock:
            self.protocol.hello(time.monotonic())

    def send_raw(self, data: bytes) -> None:
        """Bytes straight onto the wire (garbage, a wrong baud rate, a hand-made frame)."""
        with self._lock:
            self._write(data, force=True)

    def garbage(self, n: int = 64) -> bytes:
        data = os.urandom(n)
        self.send_raw(data)
        return data

    def frame(self, frame: Frame) -> bytes:
        """``frame`` as this tower would put it on the wire (its version; a ROLL or ACK under its boot)."""
        if frame.kind in ("ROLL", "ACK") and not frame.boot:
            frame = Frame(frame.kind, seq=frame.seq, dice=frame.dice, boot=self.protocol.boot)
        return encode(frame, self.version)

    def bad_checksum(self, dice: Dice, seq: int = 1) -> None:
        line = self.frame(Frame("ROLL", seq=seq, dice=dice))
        star = line.rindex(b"*") + 1
        check = line[star:-2]
        wrong = (int(check, 16) ^ 1).to_bytes(len(check) // 2, "big").hex().upper().encode()
        self.send_raw(line[:star] + wrong + b"\r\n")

    def truncated(self, dice: Dice, seq: int = 1) -> None:
        line = self.frame(Frame("ROLL", seq=seq, dice=dice))
        self.send_raw(line[: len(line) // 2])

    def duplicate(self) -> None:
        """Send every unacknowledged roll again, and the last roll even if acknowledged."""
        with self._lock:
            if self.last_roll is not None and all(e[0] != self.last_roll.seq for e in self.protocol.outbox):
                self._write(encode(self.last_roll, self.version))
            self.protocol.resend(time.monotonic())

    def hello_version(self, version: int) -> None:
        """A hello from a tower speaking another protocol version (framed as this tower frames)."""
        p = self.protocol
        self.send_raw(encode(Frame("HELLO", version=version, firmware=p.firmware, kinds=p.kinds,
                                   boot=p.boot, seq=p.next_seq), self.version))

    def play(self, lines: Iterable[str]) -> int:
        """Roll each non-comment line of a script (``d6 3 d8 5``); returns how many rolled."""
        count = 0
        for raw in lines:
            text = raw.split("#", 1)[0].strip()
            if text:
                self.roll(parse_dice(text))
                count += 1
        return count

    # -- plumbing --------------------------------------------------------------------------
    def _write(self, data: bytes, force: bool = False) -> None:
        with self._lock:
            if self._master is None or (self.silent and not force):
                return  # nobody listening: lost on the wire, the outbox remembers
            with contextlib.suppress(OSError):
                os.write(self._master, data)

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                master = self._master
                protocol = self.protocol
            if master is None:
                self._stop.wait(POLL)
                continue
            try:
                ready, _, _ = select.select([master], [], [], POLL)
                data = os.read(master, 4096) if ready else b""
            except (OSError, ValueError):
                data = b""  # unplugged under our feet, or the slave not yet opened (EIO)
                self._stop.wait(0.01)
            with self._lock:
                if master != self._master or protocol is not self.protocol:
                    continue  # read before a restart: meant for the power-up that is gone
                now = time.monotonic()
                if data and not self.deaf and now >= self._deaf_until:
                    self.protocol.receive(data, now)
                if not self.silent:
                    self.protocol.tick(now)
