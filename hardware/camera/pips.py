"""Reading a D6 by its pips: count the spots on the upward face, and say how sure the count is.

The die is turned upright and scaled to a square of ``SIDE`` pixels; its body colour is the median of the square
(pips cover at most a sixth of a face), and a pip is a round spot far enough from that colour, darker or lighter,
so white-on-black, black-on-white and coloured pips read alike. Every pip layout of a D6 is symmetric through
the face's centre: a spot's mirror image through the centre of the spots is another spot (or itself, the middle
pip). How well that holds, how alike the spots are in size and how near their centre is to the die's centre make
the confidence; a face where they disagree (a blurred die, a side face showing through, a pip hidden under a
glint) is asked about, never guessed.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

SIDE = 72
"""The square, in pixels, a die is read at."""

PIP_DISTANCE = 38.0
"""Lab distance from the body colour that marks a pip pixel."""


@dataclass(frozen=True)
class PipRead:
    """What the pips say: ``face`` 1-6 or 0 when none could be counted, ``confidence`` 0-1, ``spots`` the pip
    centres in the square (for the annotated picture)."""

    face: int
    confidence: float
    spots: tuple[tuple[float, float], ...] = ()


def upright(image: np.ndarray, rect: tuple[tuple[float, float], tuple[float, float], float],
            side: int = SIDE, grow: float = 1.0) -> np.ndarray:
    """The rotated rectangle ``rect`` of ``image`` cut out, turned upright and scaled to ``side`` square."""
    (cx, cy), (w, h), angle = rect
    size = max(w, h) * grow
    scale = side / max(size, 1.0)
    matrix = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    matrix[0, 2] += side / 2 - cx
    matrix[1, 2] += side / 2 - cy
    return cv2.warpAffine(image, matrix, (side, side), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def _spots(face: np.ndarray) -> list[tuple[float, float, float]]:
    lab = cv2.cvtColor(cv2.GaussianBlur(face, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    inner = lab[SIDE // 6: -SIDE // 6, SIDE // 6: -SIDE // 6].reshape(-1, 3)
    body = np.median(inner, axis=0)
    delta = lab - body
    delta[..., 0] *= 0.8
    distance = np.sqrt((delta * delta).sum(axis=2))
    inner_distance = distance[SIDE // 6: -SIDE // 6, SIDE // 6: -SIDE // 6]
    otsu, _ = cv2.threshold(np.clip(inner_distance, 0, 255).astype(np.uint8), 0, 255,
                            cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = (distance > max(PIP_DISTANCE * 0.6, float(otsu))).astype(np.uint8)
    edge = SIDE // 12
    mask[:edge] = 0
    mask[-edge:] = 0
    mask[:, :edge] = 0
    mask[:, -edge:] = 0
    count, _, stats, centres = cv2.connectedComponentsWithStats(mask)
    area_face = SIDE * SIDE
    spots = []
    for i in range(1, count):
        _, _, w, h, area = stats[i]
        if not area_face * 0.006 <= area <= area_face * 0.11:
            continue
        if max(w, h) > 2.2 * min(w, h) or area < 0.4 * w * h:
            continue
        spots.append((float(centres[i][0]), float(centres[i][1]), float(area)))
    return spots


def _symmetry(points: np.ndarray) -> float:
    """0-1: how well the spots mirror through their own centre (every D6 layout does)."""
    centre = points.mean(axis=0)
    mirrored = 2 * centre - points
    gaps = np.sqrt(((mirrored[:, None, :] - points[None, :, :]) ** 2).sum(axis=2)).min(axis=1)
    return float(max(0.0, 1.0 - gaps.mean() / (SIDE * 0.08)))


def _score(spots: list[tuple[float, float, float]]) -> float:
    points = np.array([(x, y) for x, y, _ in spots], np.float32)
    areas = np.array([a for _, _, a in spots], np.float32)
    alike = float(areas.min() / areas.max()) if len(spots) > 1 else 1.0
    symmetry = _symmetry(points) if len(spots) > 1 else 1.0
    offset = float(np.hypot(*(points.mean(axis=0) - SIDE / 2))) / (SIDE / 2)
    centred = max(0.0, 1.0 - offset / 0.7)
    confidence = min(1.0, 0.35 + 0.65 * alike) * symmetry * centred
    # Pips are as large and as far apart as a die's face makes them: two touching dice read as one blob,
    # or a speck on a big face, have spots too small or too close together for the die they are on.
    size = float(np.sqrt(areas.mean())) / SIDE
    confidence *= max(0.0, 1.0 - max(0.0, 0.1 - size, size - 0.26) / 0.05)
    if len(spots) > 1:
        spread = float(np.sqrt(((points - points.mean(axis=0)) ** 2).sum(axis=1)).max()) / SIDE
        confidence *= max(0.0, 1.0 - max(0.0, 0.2 - spread, spread - 0.42) / 0.06)
    if len(spots) == 1:
        confidence *= 0.97  # one spot is the easiest to invent: a glint, a logo
    return confidence


def read_pips(face: np.ndarray) -> PipRead:
    """The count of pips on an upright die square (BGR, ``SIDE`` x ``SIDE``).

    Spots of a side face seen in perspective, or a glint, can join the top face's: the reading is the subset,
    dropping at most two spots (each drop costs confidence), whose layout is the most die-like."""
    found = _spots(face)
    middle = float(np.median([a for _, _, a in found])) if found else 0.0
    doubtful = [s for s in found
                if s[2] < 0.6 * middle or np.hypot(s[0] - SIDE / 2, s[1] - SIDE / 2) > 0.36 * SIDE]
    best: tuple[float, list[tuple[float, float, float]]] = (0.0, [])
    for dropped in range(0, min(2, len(doubtful)) + 1):
        for gone in itertools.combinations(doubtful, dropped):
            kept = [s for s in found if s not in gone]
            if 1 <= len(kept) <= 6:
                score = _score(list(kept)) * 0.85 ** dropped
                if score > best[0]:
                    best = (score, list(kept))
    spots = best[1]
    if not spots:
        return PipRead(0, 0.0, tuple((x, y) for x, y, _ in found))
    return PipRead(len(spots), round(best[0], 3), tuple((x, y) for x, y, _ in spots))
