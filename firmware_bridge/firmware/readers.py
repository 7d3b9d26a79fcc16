"""How the tower learns a die's face: small pluggable readers (MicroPython, also importable on CPython).

A reader has ``poll(now)`` returning None (nothing new), "rolling" (dice tumbling),
("crooked", text) or a list of (kind, face) once the dice have settled. The tower has a keypad
(one button per face, a kind switch); the chip's random source stands in for it on a bench only.

``clock`` measures spans between ``now`` values: seconds by default (host tests), MicroPython's
``time`` module on the board, where ``now`` is ``time.ticks_ms()`` (integer milliseconds that
wrap) and every span goes through ``ticks_diff``/``ticks_add``, so no float carries time.
"""

try:
    from firmware_bridge.tower import Seconds
except ImportError:  # MicroPython: the files sit flat on the board's filesystem
    from tower import Seconds  # type: ignore[no-redef]

try:
    import os
    urandom = os.urandom
except (ImportError, AttributeError):  # a port without os.urandom (the WebAssembly one CI runs)
    import random

    def urandom(n):  # same shape as os.urandom
        return bytes(random.getrandbits(8) for _ in range(n))


class RandomReader:
    """Bench only: invents a roll of ``kinds`` every ``every``, saying "rolling" ``lead`` before.

    Faces come from the chip's random source (RP2040 ROSC). ``start`` is the ``now`` it counts from.
    """

    def __init__(self, kinds=("d8", "d6"), every=5.0, lead=1.0, clock=Seconds, start=0):
        self.kinds = kinds
        self.every = every
        self.lead = lead
        self.clock = clock
        self.next_at = clock.ticks_add(start, every)
        self.tumbling = False

    def _face(self, faces):
        # Rejection sampling: a plain modulo would favour the low faces.
        while True:
            b = urandom(1)[0]
            if b < 256 - 256 % faces:
                return 1 + b % faces

    def poll(self, now):
        left = self.clock.ticks_diff(self.next_at, now)
        if left > self.lead or (self.tumbling and left > 0):
            return None
        if not self.tumbling:
            self.tumbling = True
            return "rolling"
        self.tumbling = False
        self.next_at = self.clock.ticks_add(now, self.every)
        faces = {"d6": 6, "d8": 8}
        return [(kind, self._face(faces[kind])) for kind in self.kinds]


class KeypadReader:
    """One button per face (1..8) and a switch for the die kind; a face held ``settle`` counts.

    ``pins`` are machine.Pin inputs with pull-ups (pressed reads 0); ``kind_pin`` high means d8.
    Pressing two faces at once reports ``crooked``: the player could not tell which face is up.
    """

    def __init__(self, pins, kind_pin, settle=0.05, clock=Seconds):
        self.pins = pins
        self.kind_pin = kind_pin
        self.settle = settle
        self.clock = clock
        self.down_since = None
        self.face = 0
        self.reported = False
        self.crooked = False

    def poll(self, now):
        pressed = [i + 1 for i, pin in enumerate(self.pins) if pin.value() == 0]
        if not pressed:
            self.down_since = None
            self.reported = self.crooked = False
            return None
        if len(pressed) > 1:
            if not self.crooked:
                self.crooked = self.reported = True
                return ("crooked", "two faces pressed")
            return None
        if self.down_since is None or pressed[0] != self.face:
            self.down_since, self.face = now, pressed[0]
            return "rolling"
        if not self.reported and self.clock.ticks_diff(now, self.down_since) >= self.settle:
            self.reported = True
            kind = "d8" if self.kind_pin.value() else "d6"
            if self.face > (8 if kind == "d8" else 6):
                return ("crooked", "face " + str(self.face) + " on a " + kind)
            return [(kind, self.face)]
        return None
