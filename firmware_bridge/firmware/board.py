"""The tower's board: which Raspberry Pi Pico pin does what, and which reader runs.

One table, read by the firmware (main.py) and by the wiring picture in docs/ (drawn from it by
``python -m firmware_bridge.wiring``), so the two cannot disagree. Every input is wired from its
GPIO to a ground pin and read with the chip's internal pull-up: pressed (or closed) reads 0.
"""

READER = "keypad"
""""keypad": the tower's face buttons. "random" invents a roll every 5 s: for a bench test of the
link only, never on a table (set it in this file, copy it with mpremote, and set it back)."""

WIRING = (
    # (GPIO, Pico pin, part, wired to)
    (2, 4, "face 1 button", "GND pin 3"),
    (3, 5, "face 2 button", "GND pin 3"),
    (4, 6, "face 3 button", "GND pin 8"),
    (5, 7, "face 4 button", "GND pin 8"),
    (6, 9, "face 5 button", "GND pin 8"),
    (7, 10, "face 6 button", "GND pin 13"),
    (8, 11, "face 7 button", "GND pin 13"),
    (9, 12, "face 8 button", "GND pin 13"),
    (10, 14, "kind switch (open: d8, closed: d6)", "GND pin 18"),
)
"""Each input: its GPIO number, the Pico's physical pin, the part, and the ground pin its other leg goes to."""

FACE_PINS = tuple(gpio for gpio, _, part, _ in WIRING if part.startswith("face "))
"""GPIO of the buttons for faces 1..8, in face order."""
KIND_PIN = WIRING[-1][0]
"""GPIO of the kind switch: open (pulled high) is a d8, closed to ground is a d6."""

MAINTENANCE_FACE = 1
"""Hold this face's button while plugging the tower in: the firmware does not start (no watchdog,
Ctrl-C works), so ``mpremote`` can copy new files. Otherwise Ctrl-C from a terminal is ignored."""

SETTLE_MS = 50
"""A face counts once its button has been held this long (contact bounce is shorter)."""
HEARTBEAT_MS = 1000
RETRY_MS = 1000
WATCHDOG_MS = 5000
"""The board resets if the main loop stops for this long (RP2040 maximum: 8388 ms)."""
POLL_MS = 10
"""The longest the loop waits for a byte from the box before reading the buttons again."""
