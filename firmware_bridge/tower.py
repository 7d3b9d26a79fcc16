"""The tower's half of the protocol: numbering rolls, keeping them until acknowledged, heartbeats.

Plain Python shared by the reference firmware (MicroPython on an RP2040) and the virtual tower,
so the laptop exercises exactly what the board runs. The tower only calls ``write(bytes)``; when
the cable is gone the bytes are lost, but every roll stays in the outbox until the host ACKs it
and is sent again after the host's SYNC (sent on every (re)connect) or after ``retry`` seconds.
The host ACKs a roll only once it is safe on its side (journaled), so an ACK is the only thing
that may empty the outbox. In version 2 every ROLL and ACK names the boot: an ACK meant for an
earlier power-up (the box answering late, across a restart) is ignored.
"""

try:
    from firmware_bridge.wire import FACES, HOST_FRAMES, PROTOCOL_VERSION, Frame, FrameParser, encode
except ImportError:  # MicroPython: the files sit flat on the board's filesystem
    from wire import FACES, HOST_FRAMES, PROTOCOL_VERSION, Frame, FrameParser, encode  # type: ignore[no-redef]

FIRMWARE_VERSION = "2.1.0"
OUTBOX_SIZE = 32
"""Unacknowledged rolls kept; beyond this the oldest is dropped and an ERR,outbox_full is sent."""


class Seconds:
    """The host's clock arithmetic: ``now`` in seconds (a float is fine on a 64-bit host).

    The board passes MicroPython's ``time`` module instead, whose ``ticks_diff``/``ticks_add``
    work on integer milliseconds that wrap every 2**30 ms: there every span is measured with
    ``ticks_diff`` and no float ever carries time (the RP2040's floats are single precision, so a
    float sum of seconds stops advancing after about three days).
    """

    @staticmethod
    def ticks_diff(later, earlier):
        return later - earlier

    @staticmethod
    def ticks_add(ticks, delta):
        return ticks + delta


class TowerProtocol:
    """Tower-side protocol state. ``write`` sends bytes; ``boot`` identifies this power-up.

    ``version`` is the protocol spoken (1 only to stand in for an old tower in tests and benches).
    ``clock`` measures spans between two ``now`` values (:class:`Seconds` by default; the board
    passes its ``time`` module, with ``now`` from ``time.ticks_ms()`` and ``heartbeat``/``retry`` in ms).
    """

    def __init__(self, write, boot, firmware=FIRMWARE_VERSION, kinds=None, heartbeat=1.0,
                 retry=1.0, version=PROTOCOL_VERSION, clock=Seconds):
        self.write = write
        self.boot = boot
        self.version = version
        self.firmware = firmware
        self.kinds = tuple(kinds or FACES)
        self.heartbeat = heartbeat
        self.retry = retry
        self.clock = clock
        self.next_seq = 1
        self.outbox = []  # [(seq, dice, last_sent)] in seq order
        self.parser = FrameParser(accept=HOST_FRAMES, versions=(version,))
        self.last_sent = None
        """When the tower last wrote (None: never), for the heartbeat."""
        self.acked = 0
        self.foreign_acks = 0
        """ACKs naming another boot (version 2), ignored."""

    def _send(self, frame, now=0):
        self.last_sent = now
        self.write(encode(frame, self.version))

    def hello_frame(self):
        """The HELLO this tower would send now (``first``: its oldest unacknowledged roll)."""
        first = self.outbox[0][0] if self.outbox else self.next_seq
        return Frame("HELLO", version=self.version, firmware=self.firmware, kinds=self.kinds,
                     boot=self.boot, seq=first)

    def hello(self, now=0):
        """Say who we are, then resend every roll the host has not acknowledged."""
        self._send(self.hello_frame(), now)
        self.resend(now)

    def resend(self, now=0):
        for i in range(len(self.outbox)):
            seq, dice, _ = self.outbox[i]
            self.outbox[i] = (seq, dice, now)
            self._send(Frame("ROLL", seq=seq, dice=dice, boot=self.boot), now)

    def rolling(self, now=0):
        """Dice are tumbling: lets the box show it before the faces are read."""
        self._send(Frame("ROLLING"), now)

    def roll(self, dice, now=0):
        """Number a settled roll (a list of (kind, face)), keep it, send it; returns its seq."""
        seq = self.next_seq
        self.next_seq += 1
        if len(self.outbox) >= OUTBOX_SIZE:
            lost = self.outbox.pop(0)
            self._send(Frame("ERR", code="outbox_full", text="roll " + str(lost[0]) + " dropped"), now)
        self.outbox.append((seq, tuple(dice), now))
        self._send(Frame("ROLL", seq=seq, dice=dice, boot=self.boot), now)
        return seq

    def error(self, code, text="", now=0):
        """A fault the players should hear about (``crooked``: a die leaning on the wall)."""
        self._send(Frame("ERR", code=code, text=text), now)

    def receive(self, data, now=0):
        """Handle bytes from the host: ACK drops a roll from the outbox, SYNC says hello again."""
        for item in self.parser.feed(data):
            if not isinstance(item, Frame):
                continue
            if item.kind == "ACK":
                if self.version >= 2 and item.boot != self.boot:
                    self.foreign_acks += 1
                    continue
                before = len(self.outbox)
                self.outbox = [entry for entry in self.outbox if entry[0] != item.seq]
                self.acked += before - len(self.outbox)
            elif item.kind == "SYNC":
                self.hello(now)

    def tick(self, now):
        """Call often: resends rolls left unacknowledged for ``retry`` s, heartbeats when idle."""
        since = self.clock.ticks_diff
        if self.outbox and since(now, self.outbox[0][2]) >= self.retry:
            self.resend(now)
        elif self.last_sent is None or since(now, self.last_sent) >= self.heartbeat:
            self._send(Frame("HB"), now)
