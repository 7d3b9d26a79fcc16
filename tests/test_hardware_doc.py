"""The wiring table in docs/hardware.md is the pins the code uses."""

from __future__ import annotations

import re
from pathlib import Path

from hardware.buttons import ButtonPins
from hardware.oled import OledSettings

DOC = (Path(__file__).resolve().parent.parent / "docs" / "hardware.md").read_text()

# BCM -> physical header pin on the 40-pin header.
HEADER = {2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 13: 33, 16: 36, 17: 11, 19: 35, 20: 38, 21: 40, 26: 37, 27: 13, 22: 15,
          23: 16, 12: 32}


def test_button_table_matches_code():
    rows = dict(re.findall(r"^\| ([A-Z]+) \| (\d+) \| \d+ \|$", DOC, flags=re.M))
    assert {k: int(v) for k, v in rows.items()} == dict(ButtonPins().items())
    for name, bcm, header in re.findall(r"^\| ([A-Z]+) \| (\d+) \| (\d+) \|$", DOC, flags=re.M):
        assert HEADER[int(bcm)] == int(header), name


def test_oled_and_tower_match_code():
    from firmware_bridge.link import DEFAULT_USB_ID

    settings = OledSettings()
    assert f"I2C bus {settings.i2c_port}, address 0x{settings.i2c_address:02X}" in DOC
    assert f"**{DEFAULT_USB_ID}**" in DOC
