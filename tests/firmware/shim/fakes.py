"""The rest of the board the firmware needs, for tests under the WebAssembly MicroPython.

``micropython`` is built into the port and cannot be shadowed by a file, so ``install()`` puts a
stand-in with a recording ``kbd_intr`` into sys.modules. ``Link`` replaces the USB serial: the box's
bytes are queued with ``send``; a ``read`` with nothing queued waits ``step`` ms of fake time (as the
real poll waits for a byte); what the tower writes is parsed by the shared wire module.
"""

import sys
import time

from wire import FrameParser


class _Micropython:
    def __init__(self):
        self.kbd_intr_calls = []

    def kbd_intr(self, char):
        self.kbd_intr_calls.append(char)


def install():
    fake = _Micropython()
    sys.modules["micropython"] = fake
    return fake


class Link:
    def __init__(self, step=10):
        self.step = step
        self.inbox = bytearray()
        self.parser = FrameParser()
        self.counts = {}
        self.frames = []
        self.keep = 20

    def send(self, data):
        self.inbox.extend(data)

    def read(self, timeout_ms):
        if self.inbox:
            byte = bytes(self.inbox[:1])
            self.inbox = self.inbox[1:]
            return byte
        time.advance(self.step)
        return b""

    def write(self, data):
        for frame in self.parser.feed(data):
            kind = getattr(frame, "kind", "REJECTED")
            self.counts[kind] = self.counts.get(kind, 0) + 1
            self.frames.append(frame)
            if len(self.frames) > self.keep:
                self.frames.pop(0)
