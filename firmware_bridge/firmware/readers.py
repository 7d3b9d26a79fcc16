"""How the tower learns a die's face: small pluggable readers (MicroPython, also importable on CPython).

A reader has ``poll(now)`` returning None (nothing new), "rolling" (dice tumbling),
("crooked", text) or a list of (kind, face) once the dice have settled. The reference board
has a keypad (one button per face, a kind switch) and, for bench tests, the chip's random source.
"""

try:
    import os
    urandom = os.urandom
except (ImportError, AttributeError):  # pragma: no cover - very small ports
    urandom = None  # type: ignore[assignment]  # MicroPython fallback: no os.urandom on this port


class RandomReader:
    """Rolls ``kinds`` every ``every`` seconds from the chip's random source (RP2040 ROSC)."""

    def __init__(self, kinds=("d8", "d6"), every=5.0):
        self.kinds = kinds
        self.every = every
        self.next_at = every
        self.tumbling = False

    def _face(self, faces):
        # Rejection sampling: a plain modulo would favour the low faces.
        while True:
            b = urandom(1)[0]
            if b < 256 - 256 % faces:
                return 1 + b % faces

    def poll(self, now):
        if now < self.next_at - 1.0 or (self.tumbling and now < self.next_at):
            return None
        if not self.tumbling:
            self.tumbling = True
            return "rolling"
        self.tumbling = False
        self.next_at = now + self.every
        faces = {"d6": 6, "d8": 8}
        return [(kind, self._face(faces[kind])) for kind in self.kinds]


class KeypadReader:
    """One button per face (1..8) and a switch for the die kind; a face held ``settle`` s counts.

    ``pins`` are machine.Pin inputs with pull-ups (pressed reads 0); ``kind_pin`` high means d8.
    Pressing two faces at once reports ``crooked``: the player could not tell which face is up.
    """

    def __init__(self, pins, kind_pin, settle=0.05):
        self.pins = pins
        self.kind_pin = kind_pin
        self.settle = settle
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
        if not self.reported and now - self.down_since >= self.settle:
            self.reported = True
            kind = "d8" if self.kind_pin.value() else "d6"
            if self.face > (8 if kind == "d8" else 6):
                return ("crooked", "face " + str(self.face) + " on a " + kind)
            return [(kind, self.face)]
        return None
