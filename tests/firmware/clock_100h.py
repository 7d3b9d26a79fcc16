# The tower's main loop for 100 simulated hours under MicroPython (WebAssembly port), with the board's
# time, pins and watchdog from shim/. Prints one JSON line of findings for tests/test_firmware_micropython.py.
import json
import time

import fakes
import machine

fake_micropython = fakes.install()
import board  # noqa: E402  (after the fakes, as main imports them)
import main  # noqa: E402
from wire import Frame, encode  # noqa: E402

HOUR = 3600 * 1000
time.set_ticks(time.PERIOD - HOUR)  # the tick counter wraps one hour in
link = fakes.Link(step=2000)  # idle: each turn waits 2 s for the box (under the 5 s watchdog)
fw = main.Firmware(link)
boot = fw.tower.boot
turns = 0
while time.wraps() * time.PERIOD + time.ticks_ms() < time.PERIOD - HOUR + 100 * HOUR:
    fw.run(1000)
    turns += 1000
idle_hb = link.counts.get("HB", 0)
link.send(b"\x03\x03\r\n")  # Ctrl-C and Enter from a terminal: a line to drop, the loop goes on
link.step = 10
fw.run(10)
face = 3
machine.levels[board.FACE_PINS[face - 1]] = 0  # a die lands face 3 up on the d8 side (kind switch open)
before = dict(link.counts)
fw.run(20)  # 200 ms
rolls = [(f.seq, list(f.dice), f.boot) for f in link.frames if getattr(f, "kind", "") == "ROLL"]
types = {
    "now": type(time.ticks_ms()).__name__,
    "last_sent": type(fw.tower.last_sent).__name__,
    "outbox": sorted(set(type(entry[2]).__name__ for entry in fw.tower.outbox)),
    "down_since": type(fw.reader.down_since).__name__,
}
link.send(encode(Frame("ACK", seq=1, boot=boot)))
fw.run(40)
machine.levels[board.FACE_PINS[face - 1]] = 1
hb_before = link.counts.get("HB", 0)
fw.run(300)  # 3 s idle
print(json.dumps({
    "turns": turns,
    "wraps": time.wraps(),
    "idle_heartbeats": idle_hb,
    "rolling": link.counts.get("ROLLING", 0) - before.get("ROLLING", 0),
    "rolls": rolls,
    "boot": boot,
    "types": types,
    "outbox_after_ack": len(fw.tower.outbox),
    "heartbeats_after": link.counts.get("HB", 0) - hb_before,
    "rejected": link.counts.get("REJECTED", 0),
    "tower_rejected": fw.tower.parser.counts,
    "kbd_intr": fake_micropython.kbd_intr_calls,
    "watchdog": [(w.timeout, w.feeds, w.starved) for w in machine.WDT.made],
}))
