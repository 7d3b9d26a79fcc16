"""The tower's pin table is the Pico's real pinout, and the docs' table and picture are drawn from it."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image, ImageChops

from firmware_bridge import wiring
from firmware_bridge.firmware import board

DOCS = Path(__file__).resolve().parents[1] / "docs"
# The Raspberry Pi Pico datasheet's pinout: physical pin -> GPn (left edge, pins 1-20), and its ground pins.
PICO_LEFT = {1: 0, 2: 1, 4: 2, 5: 3, 6: 4, 7: 5, 9: 6, 10: 7, 11: 8, 12: 9, 14: 10, 15: 11, 16: 12, 17: 13,
             19: 14, 20: 15}
PICO_GND = {3, 8, 13, 18, 23, 28, 33, 38}


def test_every_input_is_on_the_pin_the_pico_has_it_and_its_ground_is_a_ground() -> None:
    for gpio, pin, part, ground in board.WIRING:
        assert PICO_LEFT[pin] == gpio, part
        assert re.fullmatch(r"GND pin (\d+)", ground) and int(ground.split()[-1]) in PICO_GND, part
    assert board.FACE_PINS == (2, 3, 4, 5, 6, 7, 8, 9) and board.KIND_PIN == 10
    assert board.READER == "keypad"  # the shipped reader; "random" is for a bench only
    assert board.WATCHDOG_MS <= 8388  # the RP2040 watchdog's longest timeout


def test_the_docs_table_is_the_firmwares_table() -> None:
    text = (DOCS / "hardware.md").read_text()
    rows = re.findall(r"^\| (.+) \| GP(\d+) \| (\d+) \| (GND pin \d+) \|$", text, flags=re.M)
    assert [(int(g), int(p), part, ground) for part, g, p, ground in rows] == list(board.WIRING)
    assert "(tower-wiring.png)" in text


def test_the_committed_picture_was_drawn_from_this_table(tmp_path: Path) -> None:
    committed = Image.open(DOCS / "tower-wiring.png")
    assert committed.text["wiring"] == wiring.table_text()  # type: ignore[attr-defined]
    fresh = Image.open(wiring.save(tmp_path / "w.png"))
    assert fresh.size == committed.size and fresh.text["wiring"] == committed.text["wiring"]  # type: ignore[attr-defined]
    # pixel for pixel (the font is the repository's own), not only the table written into the file's metadata
    assert ImageChops.difference(committed.convert("RGB"), fresh.convert("RGB")).getbbox() is None, \
        "docs/tower-wiring.png is out of date: python -m firmware_bridge.wiring"
    assert "GP10 pin 14: kind switch" in wiring.table_text()
