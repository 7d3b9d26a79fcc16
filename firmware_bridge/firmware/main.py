"""Reference dice tower firmware for an RP2040 board under MicroPython.

Copy wire.py, tower.py (from firmware_bridge/), readers.py and this main.py to the board's
filesystem (``mpremote cp``). The board's USB serial (VID:PID 2E8A:0005) is the link; the REPL
shares it, so a host that sends Ctrl-C gets a prompt back, as with any MicroPython board.
Choose the reader below: the keypad for a real tower, the random source for a bench test.
"""

import select
import sys
import time

import machine
from readers import KeypadReader, RandomReader
from tower import TowerProtocol

USE_KEYPAD = False
FACE_PINS = (2, 3, 4, 5, 6, 7, 8, 9)
KIND_PIN = 10


def boot_id():
    # Unique per power-up: the chip's id would repeat after a reset, so add random bits.
    import os
    return "".join(f"{b:02x}" for b in os.urandom(4))


def make_reader():
    if USE_KEYPAD:
        pins = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in FACE_PINS]
        return KeypadReader(pins, machine.Pin(KIND_PIN, machine.Pin.IN, machine.Pin.PULL_UP))
    return RandomReader()


def main():
    out = sys.stdout.buffer
    stdin = sys.stdin.buffer
    tower = TowerProtocol(out.write, boot_id())
    reader = make_reader()
    poll = select.poll()
    poll.register(stdin, select.POLLIN)
    # Seconds since start, summed step by step: ticks_ms() wraps (2**30 ms, about 12 days) and
    # ticks_diff() is only right for spans under half of that, so one diff from the start would
    # go wrong after six days and stop heartbeats and resends on a tower left switched on.
    last = time.ticks_ms()
    now = 0.0
    tower.hello(now)
    while True:
        tick = time.ticks_ms()
        now += time.ticks_diff(tick, last) / 1000
        last = tick
        if poll.poll(10):
            data = stdin.read(1)  # one byte at a time: MicroPython's stdin has no in_waiting
            if data:
                tower.receive(data, now)
        got = reader.poll(now)
        if got == "rolling":
            tower.rolling(now)
        elif isinstance(got, tuple):
            tower.error(got[0], got[1], now)
        elif got:
            tower.roll(got, now)
        tower.tick(now)


main()
