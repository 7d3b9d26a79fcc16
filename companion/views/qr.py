"""A QR code as pixels, for the screens that show how a phone joins the box (segno makes the code).

Light background, dark modules, as every phone camera reads them; the caller scales it to its screen.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=4)
def modules(data: str) -> tuple[tuple[bool, ...], ...]:
    """The code's modules, True for dark, without a quiet zone (the smallest code that holds ``data``)."""
    import segno

    code = segno.make(data, error="l", micro=False)
    return tuple(tuple(bool(v) for v in row) for row in code.matrix)


def oled_mask(data: str, width: int, height: int, scale: int = 2, border: int = 1) -> tuple[int, int]:
    """The OLED's QR code, top right: the mask of the square it covers and the mask of the pixels lit in it,
    each as an integer of ``width`` x ``height`` bits row by row (the OLED screen's own packing)."""
    rows = modules(data)
    side = (len(rows) + 2 * border) * scale
    x0 = width - side
    area = lit = 0
    for y in range(min(side, height)):
        row_area = ((1 << side) - 1) << (width - x0 - side)
        area |= row_area << ((height - 1 - y) * width)
        my = y // scale - border
        for x in range(side):
            mx = x // scale - border
            dark = 0 <= my < len(rows) and 0 <= mx < len(rows) and rows[my][mx]
            if not dark:
                lit |= 1 << ((height - 1 - y) * width + (width - 1 - (x0 + x)))
    return area, lit
