"""The host end of the tower link: pyserial, a reader thread, reconnects, exactly-once rolls.

The link opens the tower by path (default /dev/dice-tower, the udev symlink), or failing that by
scanning serial.tools.list_ports for the tower's USB id. One background thread reads with a
timeout, feeds the parser and delivers each (boot, seq) once and in order (a roll after a gap
waits for the tower's resend); everything the session needs goes on a queue.Queue as
firmware_bridge.events values. Any serial error (an unplugged adapter raises SerialException
"device reports readiness to read but returned no data", or OSError EIO on a pty) closes the port
and the loop tries again every ``retry`` seconds while the device is there but cannot be opened. While
no tower is found at all the link sleeps until udev announces a serial device (firmware_bridge.hotplug),
or scans slowly where udev is absent; a port given as a pseudo-terminal or a URL is looked for every
``retry`` seconds as before (udev does not announce those).

An ACK tells the tower it may forget a roll, so it is sent only once the roll is safe: the
consumer calls the roll's ``settle()`` after its journal commit (or after refusing the roll for
good), and the ACK is written there and then, from the caller's thread, so a power cut between
the commit and the ACK is as short as one write. Until then a resend of the roll is dropped.

Never ACK a roll that was not delivered: a tower that restarted without closing the port (a UART
bridge, a soft reset) and whose HELLO was lost numbers its rolls from 1 again. In protocol
version 2 every ROLL names its boot, so such a roll is simply another boot's, and the link asks
for the HELLO. In version 1 a roll carries no boot, so a "duplicate" is trusted only when it is
the resend that follows a HELLO (rising numbers from the HELLO's ``first``) with the dice
delivered under that number; any other duplicate makes the link forget the boot and send SYNC.

What it took before a restart the link learns from the journal: :meth:`TowerLink.prime` gives it the
(boot, seq, dice) of the rolls journaled last, and a resend of one of them (same boot, number and
dice, next in order) is ACKed and not delivered again, so a box stopped between a commit and the
tower hearing its ACK plays that roll once. A version 1 ROLL names no boot: the HELLO's is used.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import logging
import queue
import termios
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import serial
import serial.tools.list_ports

from companion.dice import Die
from companion.inputs import RollRef
from firmware_bridge.events import SOURCE, SourceFault, SourceStatus, TowerRoll
from firmware_bridge.hotplug import Hotplug
from firmware_bridge.link_options import DEFAULT_USB_ID
from firmware_bridge.wire import (
    BAUDRATE,
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    TOWER_FRAMES,
    Frame,
    FrameParser,
    Rejection,
    encode,
)

log = logging.getLogger(__name__)

DEFAULT_PORT = "/dev/dice-tower"
SYNC_GAP = 0.1
"""Seconds a SYNC asking for a HELLO is left to be answered before frames without one ask again: each SYNC
brings the whole outbox back, and a flood of them would keep old frames in flight for long."""
IDLE_READ_TIMEOUT = 1.5
"""The read timeout for a link left running for a night (the box, the simulated table). A read returns at
the first byte whatever its timeout, and :meth:`TowerLink.stop` wakes a read blocked on a device, so the
timeout only paces the checks made between frames (a silent tower after ``silence``, a throw that never
landed after ``rolling_for``): half the silence, so a silent tower is noticed 3 to 4.5 s after its last
byte, at two wake-ups every three seconds instead of one every read timeout of a busy link's 0.05 s."""
DICE_KEPT = 256
"""Per boot, the dice of this many latest rolls are kept to tell a resend from another roll under
the same number (the tower's outbox holds 32)."""


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


def _exists(path: str) -> bool:
    import os

    return os.path.exists(path)


class TowerLink:
    """Reads a dice tower and puts TowerRoll / SourceStatus / SourceFault on ``events``.

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
        """The boot of the tower talking now, from its HELLO on this connection ("" when not sure)."""
        self.version = 0
        """The protocol version of the last HELLO (0 before any)."""
        self.hello: Frame | None = None
        self.counts: Counter[str] = Counter()
        """accepted, settled, duplicates, journaled_resends (on disk before a restart: ACKed, not delivered), faults,
        disconnects, each rejection reason, and why a roll was not ACKed: unsettled_resends, other_boot,
        dice_differ, unconfirmed_duplicates, out_of_order."""
        self._lock = threading.RLock()
        """Guards the link's state and the port's writes: the reader thread and ``settle`` callers share them."""
        self._delivered: dict[str, int] = {}
        """Per tower boot: every roll up to this seq was delivered (rolls go out in order)."""
        self._dice: dict[str, dict[int, tuple[tuple[str, int], ...]]] = {}
        """Per boot, the dice delivered under each recent seq."""
        self._unsettled: dict[str, set[int]] = {}
        """Per boot, rolls delivered but not settled yet: not ACKed, and a resend of one is dropped."""
        self._journaled: dict[str, dict[int, tuple[tuple[str, int], ...]]] = {}
        """Per boot, the dice of rolls on disk before this link started (:meth:`prime`): ACKed, not delivered."""
        self._versions: dict[str, int] = {}
        """Per boot, the protocol version it spoke (how to ACK its rolls)."""
        self._first = 0
        self._burst = -1
        """Version 1: the highest seq of the resend following the last HELLO, -1 once other frames came."""
        self._synced_for = -1
        self._asked_hello = float("-inf")
        """When a SYNC last asked for a HELLO (see SYNC_GAP; heartbeats without a HELLO ask once a silence)."""
        self._serial: serial.SerialBase | None = None
        self._parser = FrameParser(accept=TOWER_FRAMES)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._was_connected = False
        self._last_byte = 0.0
        self._rolling_since = 0.0
        self._hotplug: Hotplug | None = None
        self._missing = False
        """The last look found no device at all (as opposed to one that would not open)."""

    def prime(self, rolls: Iterable[RollRef]) -> TowerLink:
        """Rolls already on disk (the journal's, from before a restart): a resend of one of them is ACKed, not
        delivered. Only the tower's, and only a resend naming the same boot, number and dice is taken for one.
        Call before the tower can resend them (before :meth:`start`); the last :data:`DICE_KEPT` per boot are kept
        (the tower's outbox holds 32)."""
        with self._lock:
            for ref in rolls:
                if ref.source == SOURCE and ref.boot:
                    kept = self._journaled.setdefault(ref.boot, {})
                    kept[ref.seq] = ref.dice
                    if len(kept) > DICE_KEPT:
                        del kept[min(kept)]
        return self

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> TowerLink:
        self._set_state("waiting", "looking for the tower")
        if self._hotplug is None and self._announced_by_udev():
            self._hotplug = Hotplug.start()  # before the first look: an arrival in between is not missed
        self._thread = threading.Thread(target=self._run, name="tower-link", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the reader thread and close the port (safe to call twice). A read blocked on a device is
        woken at once (pyserial's ``cancel_read``), so a long read timeout never delays a stop."""
        self._stop.set()
        if self._hotplug is not None:
            self._hotplug.wake()
        ser = self._serial
        cancel = getattr(ser, "cancel_read", None)  # POSIX and Windows ports have it; loop:// needs none
        if cancel is not None:
            with contextlib.suppress(serial.SerialException, OSError, TypeError, AttributeError):
                cancel()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        if self._hotplug is not None:
            self._hotplug.close()
            self._hotplug = None
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
                self._wait_for_tower()
                continue
            try:
                data = self._serial.read(max(1, self._serial.in_waiting))  # type: ignore[union-attr]
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                # TypeError/AttributeError: pyserial after a concurrent close; same meaning.
                self._lost(str(exc))
                continue
            # The rest of a frame whose first byte woke the read, in this turn. Should the port fail here, the bytes
            # read are still handled, and the next turn's read says the port was lost.
            if data:
                with contextlib.suppress(serial.SerialException, OSError, TypeError, AttributeError):
                    if more := self._serial.in_waiting:  # type: ignore[union-attr]
                        data += self._serial.read(more)  # type: ignore[union-attr]
            now = time.monotonic()
            try:
                with self._lock:
                    if data:
                        self._last_byte = now
                        for item in self._parser.feed(data):
                            self._handle(item, now)
                    self._watch(now)
            except Exception:  # a bug here must not silence the tower for the rest of the night
                log.exception("tower link: frame handling failed")
                self.counts["link_errors"] += 1

    def _announced_by_udev(self) -> bool:
        """The default search or a device path udev manages (not a pseudo-terminal, not a URL)."""
        return self.port is None or (self.port.startswith("/dev/") and not self.port.startswith("/dev/pts/"))

    def _wait_for_tower(self) -> None:
        """No tower: sleep until a serial device arrives (or the slow scan's turn); a device that is there
        but would not open (busy, a permission being set) is tried again after ``retry``."""
        if self._hotplug is None or not self._missing:
            self._stop.wait(self.retry)
        elif not self._stop.is_set():
            self._hotplug.wait()

    def _resolve(self) -> str | None:
        if self.port is not None:
            return self.port
        import os

        if os.path.exists(DEFAULT_PORT):
            return DEFAULT_PORT
        return find_port(self.usb_id)

    def _open(self) -> bool:
        path = self._resolve()
        self._missing = path is None or (self._hotplug is not None and not _exists(path))
        if path is None:
            self._set_state("away" if self._was_connected else "waiting", "no tower found")
            return False
        try:
            # exclusive: a second box (pyserial's flock) and, once TIOCEXCL is set below, any other program
            # opening the tower while this link reads it (a terminal: screen, minicom, which ignore flock) is
            # refused, rather than both reading half the lines each. The kernel lets root through.
            self._serial = serial.serial_for_url(path, baudrate=self.baudrate, exclusive=True,
                                                 timeout=self.read_timeout, write_timeout=1.0)
            _claim_tty(self._serial)
        except (serial.SerialException, OSError, ValueError) as exc:
            self._set_state("away" if self._was_connected else "waiting", f"{path}: {exc}")
            return False
        self.path = path
        with self._lock:
            self._parser = FrameParser(accept=TOWER_FRAMES)  # a half line from before is garbage now
            # Until this connection's HELLO says which power-up is talking, a roll could belong to a
            # tower that restarted meanwhile (in version 1 its seq 1 would pass for an old duplicate, be
            # ACKed and lost). Rolls before the HELLO are left unACKed; SYNC brings them again.
            self._forget()
            self._last_byte = time.monotonic()
            self._set_state("waiting", f"opened {path}, waiting for hello")
            self._asked_hello = float("-inf")
            self._ask_hello()
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

    def _send(self, frame: Frame, version: int = 0) -> None:
        """Write one frame in ``version`` (default: the talking tower's). On the reader thread a failed
        write means the tower is gone; on another thread (a settle) it is left for the reader to find."""
        with self._lock:
            ser = self._serial
            if ser is None:
                return
            try:
                ser.write(encode(frame, version or self.version or PROTOCOL_VERSION))
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                if threading.current_thread() is self._thread:
                    self._lost(str(exc))

    def _ask_hello(self, now: float | None = None) -> None:
        """SYNC: in the talking tower's version when it is known, else in every version the box speaks
        (a tower reads only its own framing and ignores the other line). One question at a time: not again
        within SYNC_GAP unless a HELLO answered it (``_asked_hello`` is reset to ask at once)."""
        now = time.monotonic() if now is None else now
        if now - self._asked_hello < SYNC_GAP:
            return
        self._asked_hello = now
        if self.boot and self.version:
            self._send(Frame("SYNC"))
        else:
            for version in sorted(SUPPORTED_VERSIONS, reverse=True):
                self._send(Frame("SYNC"), version)

    def _forget(self) -> None:
        """Not sure any more which power-up is talking: trust rolls again only after its HELLO."""
        self.boot = ""
        self._burst = -1
        self._parser.versions = None  # the HELLO may come in either version

    def _suspect(self, reason: str) -> None:
        """A roll that cannot be this boot's resend: count it, ACK nothing, ask who is talking."""
        self.counts[reason] += 1
        self._forget()
        self._ask_hello()

    def _ack(self, boot: str, seq: int) -> None:
        """ACK a roll of ``boot``. Version 2's ACK names the boot, so a tower that restarted meanwhile
        ignores it; version 1's does not, so it goes only to the boot that is talking now (otherwise the
        tower's resend after its HELLO, a settled duplicate, brings the ACK)."""
        version = self._versions.get(boot, 1)
        if version >= 2:
            self._send(Frame("ACK", seq=seq, boot=boot), version)
        elif boot == self.boot and self.version == 1:
            self._send(Frame("ACK", seq=seq), 1)

    def _settle(self, boot: str, seq: int) -> None:
        """The consumer has the roll safe (or refused it for good): now the tower may forget it."""
        with self._lock:
            pending = self._unsettled.get(boot)
            if pending is None or seq not in pending:
                return
            pending.discard(seq)
            self.counts["settled"] += 1
            self._ack(boot, seq)

    def _set_state(self, state: str, detail: str = "") -> None:
        self.detail = detail
        if state != self.state or state == "mismatch":
            self.state = state
            self.events.put(SourceStatus(SOURCE, state, detail))

    def _watch(self, now: float) -> None:
        if self.state == "rolling" and now - self._rolling_since > self.rolling_for:
            self._set_state("connected", "no roll came")
        if self._serial is not None and now - self._last_byte > self.silence:
            self._last_byte = now
            if self.state in ("connected", "rolling"):
                self._set_state("waiting", "tower silent")
            self._forget()  # it may have restarted while silent: trust rolls again after its HELLO
            self._asked_hello = float("-inf")
            self._ask_hello(now)

    # -- frames ----------------------------------------------------------------------------
    def _handle(self, item: Frame | Rejection, now: float) -> None:
        if isinstance(item, Rejection):
            self.counts[item.reason] += 1
            if item.reason == "version_mismatch" and item.line.startswith(b"$HELLO"):
                speaks = " and ".join(str(v) for v in SUPPORTED_VERSIONS)
                self._set_state("mismatch", f"tower speaks protocol {item.detail}, box speaks {speaks}")
            if self.on_reject is not None:
                self.on_reject(item)
            return
        kind = item.kind
        if kind not in ("ROLL", "HELLO"):
            self._burst = -1  # the resend that follows a HELLO is over
        if kind == "HELLO":
            self.hello = item
            self.boot = item.boot
            self.version = item.version
            self._versions[item.boot] = item.version
            self._parser.versions = (item.version,)
            self._first = item.seq
            self._burst = 0
            self._asked_hello = float("-inf")  # answered: a new doubt may ask at once
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
                self._ask_hello(now)
        elif kind == "ROLL":
            self._roll(item)
        elif kind == "ROLLING":
            self._rolling_since = now
            self._set_state("rolling")
        elif kind == "ERR":
            self.counts["faults"] += 1
            self.events.put(SourceFault(SOURCE, item.text or item.code, item.code))
            if self.state == "rolling":
                self._set_state("connected")
        elif kind == "HB" and self.state == "waiting":
            self._set_state("connected", "heartbeat")

    def _roll(self, frame: Frame) -> None:
        boot = self.boot
        if self.version >= 2 and frame.boot != boot:
            # A tower that restarted and whose HELLO was lost: its rolls are another boot's. Its HELLO
            # says where its numbering stands (``first``); the resend after it is delivered.
            self._suspect("other_boot")
            return
        in_burst = self.version == 1 and 0 <= self._burst < frame.seq and frame.seq >= self._first
        if self.version == 1:
            self._burst = frame.seq if in_burst else -1
        last = self._delivered.get(boot, 0)
        if frame.seq <= last:
            delivered = self._dice.get(boot, {}).get(frame.seq)
            if delivered is not None and delivered != frame.dice:
                self._suspect("dice_differ")  # another roll under a delivered number: a restart
            elif self.version == 1 and (not in_burst or delivered is None):
                self._suspect("unconfirmed_duplicates")  # may be a restarted tower's: its HELLO decides
            elif frame.seq in self._unsettled.get(boot, ()):
                self.counts["unsettled_resends"] += 1  # its ACK goes out when it is settled
            else:
                # Counted before the ACK goes out, so whoever sees the tower's outbox empty sees the count.
                self.counts["duplicates"] += 1
                self._ack(boot, frame.seq)  # ACK a settled roll again: the first ACK may be lost
            return
        if frame.seq > last + 1:
            # An earlier roll was lost on the wire: hold this one back (no ACK) and ask the tower
            # to resend its outbox, which comes in order. Once per gap, not once per frame.
            self.counts["out_of_order"] += 1
            if self._synced_for != last:
                self._synced_for = last
                self._send(Frame("SYNC"))
            return
        # Recorded as delivered before it is handed over, so a resend arriving meanwhile is dropped;
        # counted before it is queued, so whoever takes it off the queue sees the count. The ACK waits
        # for its settle().
        self._delivered[boot] = frame.seq
        recent = self._dice.setdefault(boot, {})
        recent[frame.seq] = frame.dice
        recent.pop(frame.seq - DICE_KEPT, None)
        if self._journaled.get(boot, {}).get(frame.seq) == frame.dice:
            # On disk before this box restarted, its ACK never heard: the next in order, so ACKed in its place.
            self.counts["journaled_resends"] += 1
            self._ack(boot, frame.seq)
            return
        self._unsettled.setdefault(boot, set()).add(frame.seq)
        self.counts["accepted"] += 1
        dice = tuple(Die(kind, value) for kind, value in frame.dice)
        self.events.put(TowerRoll(dice, SOURCE, frame.seq, functools.partial(self._settle, boot, frame.seq), boot))
        if self.state != "connected":
            self._set_state("connected")


def _claim_tty(port: object) -> None:
    """TIOCEXCL on the port's terminal: further opens of it fail with EBUSY (for every user but root) until this
    one closes. A URL port that is no terminal (a loop, a socket) has nothing to claim."""
    fileno = getattr(port, "fileno", None)
    if fileno is None:
        return
    with contextlib.suppress(OSError, ValueError, AttributeError, serial.SerialException):
        fcntl.ioctl(fileno(), termios.TIOCEXCL)
