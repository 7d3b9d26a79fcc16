"""A fake of MicroPython's ``machine`` for the firmware tests (the WebAssembly port has none).

``levels`` holds each GPIO's input level (1: released, as with the pull-up); a test presses a button
by setting its level to 0. ``WDT`` counts feeds and notes any gap longer than its timeout (the gap
after which a real RP2040 would have reset).
"""

import time

levels = {}


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, gpio, mode=None, pull=None):
        self.gpio = gpio
        if gpio not in levels:
            levels[gpio] = 1

    def value(self):
        return levels[self.gpio]


class WDT:
    made = []  # noqa: RUF012  (MicroPython has no typing.ClassVar)

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        self.starved = 0
        self.last = time.ticks_ms()
        WDT.made.append(self)

    def feed(self):
        now = time.ticks_ms()
        if time.ticks_diff(now, self.last) > self.timeout:
            self.starved += 1
        self.last = now
        self.feeds += 1
