"""The tower's wiring picture, drawn from the firmware's own pin table (firmware/board.py).

``python -m firmware_bridge.wiring docs/tower-wiring.png`` redraws it. The Pico is shown from above,
USB at the top, with its 40 pins numbered as on the board (1-20 down the left, 21-40 up the right);
each input's button or switch is drawn beside the pin it is wired to, with its leg to the ground pin
the table names. The table's text is stored in the PNG (a ``wiring`` text chunk), so a test can tell
a picture drawn from an older table.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

from firmware_bridge.firmware import board

FONT = Path(__file__).resolve().parent.parent / "companion" / "fonts" / "spleen-8x16.otf"
GROUND_PINS = (3, 8, 13, 18, 23, 28, 33, 38)
"""The Pico's GND pins (physical numbers)."""
LEFT_GPIO = {1: 0, 2: 1, 4: 2, 5: 3, 6: 4, 7: 5, 9: 6, 10: 7, 11: 8, 12: 9, 14: 10, 15: 11, 16: 12, 17: 13,
             19: 14, 20: 15}
"""Physical pin -> GPIO on the Pico's left edge (pins 1-20)."""

PITCH, TOP, PICO_X, PICO_W = 26, 120, 560, 150
WIDTH, HEIGHT = 960, TOP + 20 * PITCH + 60


def table_text() -> str:
    """The pin table as text: what the picture shows, stored in it."""
    lines = [f"GP{gpio} pin {pin}: {part} -> {ground}" for gpio, pin, part, ground in board.WIRING]
    return "\n".join(lines)


def _pin_y(pin: int) -> int:
    row = pin - 1 if pin <= 20 else 40 - pin
    return TOP + row * PITCH + PITCH // 2


def draw() -> Image.Image:
    """The picture, from board.WIRING."""
    font = ImageFont.truetype(str(FONT), 16)
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    pen = ImageDraw.Draw(image)
    pen.text((20, 16), "Dice tower: Raspberry Pi Pico inputs (from firmware_bridge/firmware/board.py)",
             fill="black", font=font)
    pen.text((20, 40), "Each button or switch: one leg to its GPIO pin (red), the other to the ground rail,",
             fill="black", font=font)
    pen.text((20, 58), "which goes to the Pico's GND pins (black). The chip's pull-ups are used: no resistors.",
             fill="black", font=font)
    # The board, USB at the top.
    pen.rectangle((PICO_X, TOP - 20, PICO_X + PICO_W, TOP + 20 * PITCH + 10), outline="black", width=3,
                  fill="#2e7d32")
    pen.rectangle((PICO_X + PICO_W // 2 - 25, TOP - 40, PICO_X + PICO_W // 2 + 25, TOP - 18), outline="black",
                  width=2, fill="#bdbdbd")
    pen.text((PICO_X + PICO_W // 2 - 12, TOP - 38), "USB", fill="black", font=font)
    pen.text((PICO_X + 38, TOP + 10 * PITCH - 8), "Pico", fill="white", font=font)
    used = {pin: (gpio, part) for gpio, pin, part, _ in board.WIRING}
    grounds = {int(ground.split()[-1]) for *_, ground in board.WIRING}
    for pin in range(1, 41):
        y = _pin_y(pin)
        left = pin <= 20
        x = PICO_X if left else PICO_X + PICO_W
        colour = "black" if pin in GROUND_PINS else ("#c62828" if pin in used else "#9e9e9e")
        pen.ellipse((x - 6, y - 6, x + 6, y + 6), fill=colour)
        label = str(pin)
        pen.text((x + 10 if left else x - 10 - 8 * len(label), y - 8), label, fill="white", font=font)
        if pin in GROUND_PINS:
            pen.text((x + 34 if left else x + 12, y - 8), "GND", fill="white" if left else "black", font=font)
    rail_x = PICO_X - 130  # the ground rail: buttons sit between it and the board, so no wire crosses another
    for pin in sorted(grounds):
        y = _pin_y(pin)
        pen.line((rail_x, y, PICO_X - 6, y), fill="black", width=2)
    ys = [_pin_y(pin) for pin in used] + [_pin_y(pin) for pin in grounds]
    pen.line((rail_x, min(ys), rail_x, max(ys)), fill="black", width=3)
    for pin, (gpio, part) in sorted(used.items()):
        y = _pin_y(pin)
        button = rail_x + 40
        pen.line((rail_x, y, button, y), fill="black", width=2)
        pen.line((button + 30, y, PICO_X - 6, y), fill="#c62828", width=2)
        pen.ellipse((button - 3, y - 3, button + 3, y + 3), fill="black")
        pen.ellipse((button + 27, y - 3, button + 33, y + 3), fill="black")
        pen.line((button, y - 9, button + 30, y - 9), fill="black", width=2)  # the push-button's bar
        pen.line((button + 15, y - 9, button + 15, y - 13), fill="black", width=2)
        text = f"GP{gpio}  {part}"
        pen.text((rail_x - 12 - 8 * len(text), y - 8), text, fill="black", font=font)
    pen.text((20, HEIGHT - 40), "Red: inputs the firmware reads.  Black: ground.  Pin numbers are the Pico's "
             "physical pins.", fill="black", font=font)
    return image


def save(path: str | Path) -> Path:
    """Draw and write the PNG, with the table's text in its ``wiring`` chunk."""
    info = PngInfo()
    info.add_text("wiring", table_text())
    path = Path(path)
    draw().save(path, pnginfo=info, optimize=True)
    return path


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    print(save(args[0] if args else "docs/tower-wiring.png"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
