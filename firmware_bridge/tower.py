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

FIRMWARE_VERSION = "2.0.0"
OUTBOX_SIZE = 32
"""Unacknowledged rolls kept; beyond this the oldest is dropped and an ERR,outbox_full is sent."""


class TowerProtocol:
    """Tower-side protocol state. ``write`` sends bytes; ``boot`` identifies this power-up.

    ``version`` is the protocol spoken (1 only to stand in for an old tower in tests and benches).
    """

    def __init__(self, write, boot, firmware=FIRMWARE_VERSION, kinds=None, heartbeat=1.0,
                 retry=1.0, version=PROTOCOL_VERSION):
        self.write = write
        self.boot = boot
        self.version = version
        self.firmware = firmware
        self.kinds = tuple(kinds or FACES)
        self.heartbeat = heartbeat
        self.retry = retry
        self.next_seq = 1
        self.outbox = []  # [(seq, dice, last_sent)] in seq order
        self.parser = FrameParser(accept=HOST_FRAMES, versions=(version,))
        self.last_sent = -1e9
        self.acked = 0
        self.foreign_acks = 0
        """ACKs naming another boot (version 2), ignored."""

    def _send(self, frame, now=0.0):
        self.last_sent = now
        self.write(encode(frame, self.version))

    def hello_frame(self):
        """The HELLO this tower would send now (``first``: its oldest unacknowledged roll)."""
        first = self.outbox[0][0] if self.outbox else self.next_seq
        return Frame("HELLO", version=self.version, firmware=self.firmware, kinds=self.kinds,
                     boot=self.boot, seq=first)

    def hello(self, now=0.0):
        """Say who we are, then resend every roll the host has not acknowledged."""
        self._send(self.hello_frame(), now)
        self.resend(now)

    def resend(self, now=0.0):
        for i in range(len(self.outbox)):
            seq, dice, _ = self.outbox[i]
            self.outbox[i] = (seq, dice, now)
            self._send(Frame("ROLL", seq=seq, dice=dice, boot=self.boot), now)

    def rolling(self, now=0.0):
        """Dice are tumbling: lets the box show it before the faces are read."""
        self._send(Frame("ROLLING"), now)

    def roll(self, dice, now=0.0):
        """Number a settled roll (a list of (kind, face)), keep it, send it; returns its seq."""
        seq = self.next_seq
        self.next_seq += 1
        if len(self.outbox) >= OUTBOX_SIZE:
            lost = self.outbox.pop(0)
            self._send(Frame("ERR", code="outbox_full", text="roll " + str(lost[0]) + " dropped"), now)
        self.outbox.append((seq, tuple(dice), now))
        self._send(Frame("ROLL", seq=seq, dice=dice, boot=self.boot), now)
        return seq

    def error(self, code, text="", now=0.0):
        """A fault the players should hear about (``crooked``: a die leaning on the wall)."""
        self._send(Frame("ERR", code=code, text=text), now)

    def receive(self, data, now=0.0):
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
        if self.outbox and now - self.outbox[0][2] >= self.retry:
            self.resend(now)
        elif now - self.last_sent >= self.heartbeat:
            self._send(Frame("HB"), now)
