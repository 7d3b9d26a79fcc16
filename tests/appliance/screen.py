"""What is on the guest's screen, against what the map should be.

The expected picture is drawn on the host by ``companion snapshot`` from the guest's own journal export,
at the display's size: the same game state through the same renderer. The live picture is QEMU's screen
dump of the virtio-gpu scanout, what a projector would show. The text console draws in cells 16 pixels
high and 8 wide (the kernel's 8x16 font), black behind light grey text. Below the box's top bar the live
map matches the snapshot pixel for pixel (seen: 0 differing pixels but the console's), so any differing
pixel there is the console's: a line of kernel messages, a login prompt, or the blinking cursor's one
cell. The top bar (the box's name, its last message, the tower's state) may say something else than the
snapshot, which has no messages, but may not hold the console's black cells.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

TOLERANCE = 24
"""Largest per-channel difference still counted the same colour (scaling and dithering of the 32-bit
framebuffer against the renderer's own surface)."""

CELL = (8, 16)
"""Width and height of one text-console character cell."""

TOP_BAR = 0.08
"""The share of the height, from the top, where the box's status bar is (86 rows of 1080)."""

STRAY = 16
"""Differing pixels below the top bar still taken as no console there (one cursor cell is 128)."""


@dataclass
class Verdict:
    size: tuple[int, int]
    differing: float
    """Share of all pixels that differ from the expected map."""
    stray: int
    """Differing pixels below the top bar (the map itself), where only the console can put them."""
    cells: int
    """Console character cells (8x16) those pixels touch."""
    stray_box: tuple[int, int, int, int]
    """Where they are: left, top, right, bottom (all 0 when none)."""
    console_cells: float
    """Share of the top bar's pixels that are the console's black where the map has none."""
    black: float
    """Share of the whole screen that is pure black (a text console is nearly all black)."""

    def map_shown(self) -> bool:
        return self.differing <= 0.03 and self.black < 0.5

    def no_console_text(self) -> bool:
        return self.stray <= STRAY and self.console_cells <= 0.005

    def describe(self) -> str:
        where = "" if not self.stray else " at x {}-{}, y {}-{}".format(*(self.stray_box[i] for i in (0, 2, 1, 3)))
        return (f"{self.size[0]}x{self.size[1]}: {self.differing:.2%} of pixels differ from the map; below the top "
                f"bar {self.stray} pixels in {self.cells} console cells{where}; console black in the top bar "
                f"{self.console_cells:.2%}; black {self.black:.1%}")


def load(path: Path) -> np.ndarray:
    with Image.open(path) as image:
        return np.asarray(image.convert("RGB")).astype(np.int16)


def compare(live_path: Path, expected_path: Path) -> Verdict:
    live, expected = load(live_path), load(expected_path)
    height, width = live.shape[:2]
    if expected.shape != live.shape:
        return Verdict((width, height), 1.0, width * height, 0, (0, 0, 0, 0), 1.0, float(_black(live).mean()))
    differs = np.abs(live - expected).max(axis=2) > TOLERANCE
    top = int(height * TOP_BAR)
    ys, xs = np.nonzero(differs[top:])
    ys = ys + top
    box = (int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())) if len(xs) else (0, 0, 0, 0)
    cells = len(set(zip((xs // CELL[0]).tolist(), (ys // CELL[1]).tolist(), strict=True)))
    console = _black(live[:top]) & ~_black(expected[:top])
    return Verdict((width, height), float(differs.mean()), len(xs), cells, box, float(console.mean()),
                   float(_black(live).mean()))


def _black(pixels: np.ndarray) -> np.ndarray:
    return np.asarray(pixels.max(axis=2) <= 2)
