"""Teaching the box a dice set: the table shows each face once, the box keeps what that face looked like.

One picture, one die, its kind and face as the table says. The die must stand out from the tray: when the
difference between die and tray is faint (a blue die on a blue felt), teaching says so, as a player can change
the tray's cloth but the box cannot change its eyes.
"""

from __future__ import annotations

import numpy as np

from hardware.camera import numerals, pips
from hardware.camera.find import find_candidates
from hardware.camera.taught import KINDS, TaughtSet

FAINT = 45.0
"""Mean Lab distance between a die and its tray below which the tray is said to make dice hard to see."""


class TeachError(ValueError):
    """The picture cannot teach: no die in it, or its numeral could not be cut out."""


def teach(image: np.ndarray, kind: str, face: int, taught: TaughtSet) -> list[str]:
    """Add the face shown on ``image`` (one die, the largest blob) to ``taught``; returns warnings to show."""
    if kind not in KINDS:
        raise TeachError(f"kind {kind!r}: the camera is taught d8 numerals (a d6 reads by its pips)")
    if kind != "d8":
        raise TeachError("a d6 reads by its pips and needs no teaching")
    found = find_candidates(image)
    if not found:
        raise TeachError("no die found in the picture")
    die = found[0]
    square = pips.upright(image, die.rect, numerals.CROP)
    g = numerals.glyph(square)
    if g is None:
        raise TeachError("the die's numeral could not be seen: light it from above and show the face again")
    taught.add(kind, face, g)
    warnings = []
    contrast = _contrast(image, die.box, die.mask)
    if contrast < FAINT:
        warnings.append("the tray's colour is close to the dice: a plain dark or light cloth reads better")
    return warnings


def _contrast(image: np.ndarray, box: tuple[int, int, int, int], mask: np.ndarray) -> float:
    import cv2

    x, y, w, h = box
    pad = max(w, h) // 2
    top, left = max(0, y - pad), max(0, x - pad)
    around = image[top: y + h + pad, left: x + w + pad]
    lab = cv2.cvtColor(around, cv2.COLOR_BGR2LAB).astype(np.float32)
    inside = np.zeros(lab.shape[:2], bool)
    inside[y - top: y - top + h, x - left: x - left + w] = mask > 0
    if inside.all() or not inside.any():
        return 0.0
    return float(np.linalg.norm(np.median(lab[inside], axis=0) - np.median(lab[~inside], axis=0)))
