"""Reading a D8 by the numeral on its upward face, against numerals the table taught the box.

Fonts, colours and underlines differ between dice sets, so nothing is guessed from a font: the box keeps, per
face, the numeral it saw when the table showed that face (:mod:`hardware.camera.taught`). A numeral is cut out
as a glyph: the marks far from the die's body colour nearest the centre of the die (the upward face's numeral is
the largest and most central; the neighbours' numerals lie at the edges, foreshortened). The glyph is centred on
its own centre of mass and scaled by its own extent, so the die's distance and the crop's size do not matter; the
die lies at any angle, so the glyph is compared with each taught one turned in ``STEP`` degree steps.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

GLYPH = 32
"""The side, in pixels, of a normalised glyph."""

STEP = 10
"""Degrees between the turns a glyph is compared at."""

ALIKE = 0.8
"""Likeness any numeral of a set's font has to another: a read's confidence counts only what is above it."""

CROP = 96
"""The side, in pixels, a D8 is cut out at before its numeral is looked for."""


def glyph(square: np.ndarray) -> np.ndarray | None:
    """The upward numeral of an upright die square (BGR) as a ``GLYPH`` x ``GLYPH`` float32 image, or None."""
    side = square.shape[0]
    lab = cv2.cvtColor(cv2.GaussianBlur(square, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    middle = lab[side // 4: -side // 4, side // 4: -side // 4].reshape(-1, 3)
    body = np.median(middle, axis=0)
    distance = np.sqrt(((lab - body) ** 2).sum(axis=2))
    inner = np.clip(distance[side // 4: -side // 4, side // 4: -side // 4], 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(inner, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = (distance > max(30.0, float(otsu))).astype(np.uint8)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(mask)
    keep = np.zeros_like(mask)
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        near = np.hypot(centres[i][0] - side / 2, centres[i][1] - side / 2) < side * 0.2
        inside = x > 0 and y > 0 and x + w < side and y + h < side  # the tray around the die touches the edge
        if near and inside and side * side * 0.002 <= area <= side * side * 0.08:
            keep[labels == i] = 1
    ys, xs = np.nonzero(keep)
    if len(xs) < 8:
        return None
    cx, cy = xs.mean(), ys.mean()
    extent = float(np.sqrt((xs - cx) ** 2 + (ys - cy) ** 2).max()) + 1.0
    scale = (GLYPH * 0.45) / extent
    matrix = np.array([[scale, 0, GLYPH / 2 - cx * scale], [0, scale, GLYPH / 2 - cy * scale]], np.float32)
    out = cv2.warpAffine(keep.astype(np.float32), matrix, (GLYPH, GLYPH), flags=cv2.INTER_AREA)
    return np.asarray(out, np.float32)


def _turns(g: np.ndarray) -> list[np.ndarray]:
    centre = (GLYPH / 2, GLYPH / 2)
    return [cv2.warpAffine(g, cv2.getRotationMatrix2D(centre, angle, 1.0), (GLYPH, GLYPH))
            for angle in range(0, 360, STEP)]


def _likeness(a: np.ndarray, b: np.ndarray) -> float:
    a0 = a - a.mean()
    b0 = b - b.mean()
    norm = float(np.sqrt((a0 * a0).sum() * (b0 * b0).sum()))
    return float((a0 * b0).sum() / norm) if norm else 0.0


def match(g: np.ndarray, templates: dict[int, list[np.ndarray]]) -> dict[int, float]:
    """For each taught face, how alike ``g`` is to its best template at its best turn (-1..1)."""
    turned = _turns(g)
    return {face: max(_likeness(t, each) for t in turned for each in shown) for face, shown in templates.items()}


def read_numeral(square: np.ndarray, templates: dict[int, list[np.ndarray]]) -> tuple[int, float]:
    """(face, confidence) of an upright D8 square: 0 and 0.0 when nothing taught is like it.

    The confidence is the best likeness, lowered when a second face is nearly as like it (a 6 and a taught 8
    with a blurred loop): being sure means being sure of one face over the others."""
    g = glyph(square)
    if g is None or not templates:
        return 0, 0.0
    scores = sorted(match(g, templates).items(), key=lambda kv: -kv[1])
    face, best = scores[0]
    second = scores[1][1] if len(scores) > 1 else 0.0
    margin = min(1.0, max(0.0, best - second) / 0.15)
    # Another die's numerals in the same font are alike to 0.8 or so; the same numeral seen again, above 0.9.
    confidence = min(1.0, max(0.0, (best - ALIKE) / 0.15)) * (0.5 + 0.5 * margin)
    return face, round(confidence, 3)


PRINTED_FONT = cv2.FONT_HERSHEY_SIMPLEX
"""A plain sans-serif: the printed digits a D8 nobody taught is compared with."""


@functools.cache
def printed() -> dict[int, list[np.ndarray]]:
    """Glyphs of the digits 1-8 as plainly printed (white on a coloured square, cut out as a die's numeral is).
    Not a taught font: a numeral read against them is a guess to show the table, never a read to take."""
    out: dict[int, list[np.ndarray]] = {}
    for digit in range(1, 9):
        square = np.full((CROP, CROP, 3), (200, 80, 20), np.uint8)
        (w, h), _ = cv2.getTextSize(str(digit), PRINTED_FONT, 1.4, 3)
        cv2.putText(square, str(digit), ((CROP - w) // 2, (CROP + h) // 2), PRINTED_FONT, 1.4, (255, 255, 255), 3,
                    cv2.LINE_AA)
        g = glyph(square)
        if g is not None:
            out[digit] = [g]
    return out


def guess(square: np.ndarray) -> int:
    """The printed digit most like the upward numeral of an upright D8 square; 1 when no numeral is seen (the
    table sets the face anyway: a guess is only where the arrows start)."""
    g = glyph(square)
    if g is None:
        return 1
    likeness = match(g, printed())
    return max(likeness, key=lambda face: likeness[face])
