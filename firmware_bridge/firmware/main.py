"""The dice tower's firmware: a Raspberry Pi Pico (RP2040) under MicroPython.

Copy wire.py and tower.py (from firmware_bridge/), board.py, readers.py and this main.py to the
board's filesystem (docs/hardware.md, "The dice tower", gives the mpremote commands). The board's
USB serial (VID:PID 2E8A:0005) is the link to the box.

Three things keep a tower left switched on for days working:
- time is ``time.ticks_ms()`` (integer milliseconds, wrapping every 2**30 ms) and every span is a
  ``ticks_diff``; no float carries time (the RP2040's floats are single precision);
- the chip's watchdog resets the board if this loop stops for board.WATCHDOG_MS;
- Ctrl-C from a terminal on the port is ignored (``micropython.kbd_intr(-1)``): a 0x03 byte is
  just a byte. To reach the REPL, hold face board.MAINTENANCE_FACE while plugging the tower in.
"""

import sys
import time

import board
import machine
import micropython
from readers import KeypadReader, RandomReader, urandom
from tower import TowerProtocol


def boot_id():
    """Unique per power-up: the chip's id would repeat after a reset, so random bits."""
    return "".join(f"{b:02x}" for b in urandom(4))


def input_pin(gpio):
    return machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)


class UsbLink:
    """The USB serial the REPL also uses: bytes out on stdout, one byte at a time in from stdin
    (MicroPython's stdin has no in_waiting), waiting at most ``timeout_ms`` for it."""

    def __init__(self):
        import select

        self.stdin = sys.stdin.buffer
        self.out = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(self.stdin, select.POLLIN)

    def write(self, data):
        self.out.write(data)

    def read(self, timeout_ms):
        if self.poller.poll(timeout_ms):
            return self.stdin.read(1)
        return b""


def make_reader(now):
    if board.READER == "random":  # bench only: see board.READER
        return RandomReader(every=5000, lead=1000, clock=time, start=now)
    faces = [input_pin(gpio) for gpio in board.FACE_PINS]
    return KeypadReader(faces, input_pin(board.KIND_PIN), settle=board.SETTLE_MS, clock=time)


def maintenance_held():
    """The maintenance face held at power-up: leave the board to the REPL (and mpremote)."""
    return input_pin(board.FACE_PINS[board.MAINTENANCE_FACE - 1]).value() == 0


class Firmware:
    """The tower once started: protocol, reader, watchdog. ``run`` is the main loop."""

    def __init__(self, link):
        self.link = link
        micropython.kbd_intr(-1)  # the link is up (main.py runs once USB is enumerated): Ctrl-C is data now
        self.watchdog = machine.WDT(timeout=board.WATCHDOG_MS)
        now = time.ticks_ms()
        self.tower = TowerProtocol(link.write, boot_id(), heartbeat=board.HEARTBEAT_MS,
                                   retry=board.RETRY_MS, clock=time)
        self.reader = make_reader(now)
        self.tower.hello(now)

    def run(self, turns=-1):
        """Loop for ever (``turns`` < 0), or that many turns (tests)."""
        tower = self.tower
        while turns != 0:
            turns -= 1
            self.watchdog.feed()
            data = self.link.read(board.POLL_MS)
            now = time.ticks_ms()
            if data:
                tower.receive(data, now)
            got = self.reader.poll(now)
            if got == "rolling":
                tower.rolling(now)
            elif isinstance(got, tuple):
                tower.error(got[0], got[1], now)
            elif got:
                tower.roll(got, now)
            tower.tick(now)


def main():
    if maintenance_held():
        print("dice tower: maintenance, firmware not started (REPL and mpremote work)")
        return
    Firmware(UsbLink()).run()


if __name__ == "__main__":
    main()
