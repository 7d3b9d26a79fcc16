"""docs/wiring.png is drawn from the pins the code uses: redrawn here, it is the committed picture, pixel for pixel;
and the header map it uses agrees with the one docs/hardware.md's table is checked against."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops

from hardware.buttons import ButtonPins
from hardware.oled import OledSettings
from hardware.wiring import BCM_PIN, draw, wires
from tests.test_hardware_doc import HEADER as DOC_HEADER

PICTURE = Path(__file__).resolve().parent.parent / "docs" / "wiring.png"


def test_the_committed_picture_is_the_one_drawn_from_the_code():
    with Image.open(PICTURE) as committed:
        assert ImageChops.difference(committed.convert("RGB"), draw()).getbbox() is None, \
            "docs/wiring.png is out of date: python -m hardware.wiring docs/wiring.png"


def test_every_button_and_the_oled_bus_are_wired_at_their_header_pins():
    pins = {(w.part, w.terminal): w.pin for w in wires()}
    for name, bcm in ButtonPins().items():
        assert pins[(name, "button")] == DOC_HEADER[bcm]
    assert OledSettings().i2c_port == 1 and (pins[("OLED", "SDA")], pins[("OLED", "SCL")]) == (3, 5)
    assert all(BCM_PIN[bcm] == pin for bcm, pin in DOC_HEADER.items())


def test_other_pins_give_another_picture():
    assert ImageChops.difference(draw(ButtonPins(roll=27)), draw()).getbbox() is not None
