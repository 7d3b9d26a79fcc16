"""The box's wiring picture (docs/wiring.png), drawn from the pin table the code uses.

Why drawn, not hand-made: the buttons' BCM pins (hardware.buttons.ButtonPins) and the OLED's I2C bus are the
code's defaults; a picture drawn from them cannot disagree with them, and a test redraws it and compares.

    python -m hardware.wiring docs/wiring.png
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from hardware.buttons import ButtonPins

HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "BCM 2 SDA", 4: "5V", 5: "BCM 3 SCL", 6: "GND", 7: "BCM 4", 8: "BCM 14 TXD",
    9: "GND", 10: "BCM 15 RXD", 11: "BCM 17", 12: "BCM 18", 13: "BCM 27", 14: "GND", 15: "BCM 22", 16: "BCM 23",
    17: "3V3", 18: "BCM 24", 19: "BCM 10 MOSI", 20: "GND", 21: "BCM 9 MISO", 22: "BCM 25", 23: "BCM 11 SCLK",
    24: "BCM 8 CE0", 25: "GND", 26: "BCM 7 CE1", 27: "BCM 0 ID_SD", 28: "BCM 1 ID_SC", 29: "BCM 5", 30: "GND",
    31: "BCM 6", 32: "BCM 12", 33: "BCM 13", 34: "GND", 35: "BCM 19", 36: "BCM 16", 37: "BCM 26", 38: "BCM 20",
    39: "GND", 40: "BCM 21",
}
"""The Raspberry Pi's 40-pin header: physical pin -> what it carries."""

BCM_PIN = {int(text.split()[1]): pin for pin, text in HEADER.items() if text.startswith("BCM")}
"""BCM number -> physical header pin."""


@dataclass(frozen=True)
class Wire:
    """One wire: a header pin to a part's terminal."""

    pin: int
    part: str
    terminal: str
    colour: str


def wires(buttons: ButtonPins | None = None) -> list[Wire]:
    """Every wire of the box: the OLED on I2C bus 1 (3.3 V, GND, SDA, SCL) and each button between its BCM pin
    and the buttons' common ground (pin 39; the Pi's internal pull-ups, no resistors)."""
    out = [Wire(1, "OLED", "VCC", "#d62728"), Wire(6, "OLED", "GND", "#000000"),
           Wire(BCM_PIN[2], "OLED", "SDA", "#1f77b4"), Wire(BCM_PIN[3], "OLED", "SCL", "#ff7f0e")]
    for name, bcm in (buttons or ButtonPins()).items():
        out.append(Wire(BCM_PIN[bcm], name, "button", "#2ca02c"))
    out.append(Wire(BUTTON_GROUND, "buttons'", "other legs", "#000000"))
    return out


BUTTON_GROUND = 39
"""The ground pin the buttons' other legs share (one wire chained from button to button)."""

FONT = Path(__file__).resolve().parent.parent / "companion" / "fonts" / "spleen-8x16.otf"
ROW = 24
TOP = 44
HEADER_X = 440


def draw(buttons: ButtonPins | None = None) -> Image.Image:
    """The header's two columns of pins, numbered and named; each wired pin filled in its wire's colour with what
    it goes to beside it (odd pins on the left, even pins on the right), so no line crosses the header."""
    font = ImageFont.truetype(str(FONT), 16)
    wired: dict[int, list[Wire]] = {}
    for wire in wires(buttons):
        wired.setdefault(wire.pin, []).append(wire)
    image = Image.new("RGB", (960, TOP + 20 * ROW + 40), "white")
    pen = ImageDraw.Draw(image)
    pen.text((10, 8), "Raspberry Pi 40-pin header, seen from above, pin 1 top left (python -m hardware.wiring)",
             fill="black", font=font)
    pen.rectangle((HEADER_X - 14, TOP - 6, HEADER_X + 38, TOP + 20 * ROW + 2), outline="black", width=2)
    for pin, text in HEADER.items():
        row, right = (pin - 1) // 2, pin % 2 == 0
        x, y = HEADER_X + (24 if right else 0), TOP + row * ROW + ROW // 2 - 2
        on = wired.get(pin, [])
        colour = on[0].colour if on else "white"
        pen.ellipse((x - 7, y - 7, x + 7, y + 7), outline="black", fill=colour, width=2)
        ink = "black" if on else "#aaaaaa"
        name = f"{pin:>2} {text}" if right else f"{text} {pin:>2}"
        to = ", ".join(f"{w.part} {w.terminal}" for w in on)
        if right:
            pen.text((x + 16, y - 8), name, fill=ink, font=font)
            if to:
                pen.line((x + 150, y, x + 180, y), fill=colour, width=3)
                pen.text((x + 188, y - 8), to, fill=ink, font=font)
        else:
            pen.text((x - 16, y - 8), name, fill=ink, font=font, anchor="ra")
            if to:
                pen.line((x - 170, y, x - 140, y), fill=colour, width=3)
                pen.text((x - 178, y - 8), to, fill=ink, font=font, anchor="ra")
    return image


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m hardware.wiring OUT.png", file=sys.stderr)
        return 2
    draw().save(argv[0], optimize=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
