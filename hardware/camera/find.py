"""Finding dice in a picture of the tray: blobs that stand out from the local background and are die-shaped.

The background (tray felt, table, paper) is estimated by a wide median over a shrunken copy, so an uneven light
or a tray colour needs no setting; what differs from it in colour or lightness by enough, and is about square
and compact, is a candidate. A candidate is only a die once a reader reads it (pips, or a taught numeral):
magnets, crumbs and shoes are dropped there, not here. Working on a copy at most ``WORK_SIDE`` pixels keeps a
640x480 frame well under the box's 50 ms budget; the readers take their crops from the full picture.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import cv2
import numpy as np

WORK_SIDE = 640
"""The longer side of the copy candidates are looked for in."""

DIFFERENCE = 28.0
"""Lab distance from the local background (lightness counted at half weight: shadows) that marks a die pixel."""


@dataclass(frozen=True)
class Candidate:
    """A blob that may be a die, in the full picture's pixels.

    ``box`` is the upright bounding box (x, y, w, h), ``rect`` the rotated rectangle OpenCV fits to the blob
    ((cx, cy), (w, h), angle), ``mask`` the blob inside ``box`` (uint8, 255 = blob), ``fill`` the share of the
    rotated rectangle the blob covers (a flat square die: near 1; a die on its edge or two touching: less)."""

    box: tuple[int, int, int, int]
    rect: tuple[tuple[float, float], tuple[float, float], float]
    mask: np.ndarray
    fill: float
    faint: bool = False
    """Found by its edges only (a pale die on a pale cloth, or a mark on the tray's rim)."""


def _shrunk(image: np.ndarray) -> tuple[np.ndarray, float]:
    h, w = image.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h, w))
    if scale == 1.0:
        return image, 1.0
    return cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA), scale


def difference_map(small: np.ndarray) -> np.ndarray:
    """Per pixel, how far the picture is from its local background (float32, Lab units, lightness at half
    weight). OpenCV's own per-pixel operations: this runs on every settled frame."""
    h, w = small.shape[:2]
    # The median's window is about a quarter of the picture: several times a die, so a die is never its own
    # background, yet small enough to follow a tray's shading.
    tiny = cv2.resize(small, (max(1, w // 16), max(1, h // 16)), interpolation=cv2.INTER_AREA)
    window = max(3, (min(tiny.shape[:2]) // 4) | 1)
    background = cv2.cvtColor(cv2.medianBlur(tiny, window), cv2.COLOR_BGR2LAB)
    background = cv2.resize(background, (w, h), interpolation=cv2.INTER_LINEAR)
    delta = cv2.absdiff(cv2.cvtColor(small, cv2.COLOR_BGR2LAB), background).astype(np.float32)
    squared = cv2.transform(cv2.multiply(delta, delta), np.array([[0.25, 1.0, 1.0]], np.float32))
    return np.asarray(cv2.sqrt(squared), np.float32)


PALE = 150
"""Grey level (0-255) of a blob's middle at or above which a blob seen by its edges only may be a pale die."""


def edge_mask(small: np.ndarray) -> np.ndarray:
    """Where edges crowd: a white die on a white sheet hardly differs from it in colour, but its pips and
    outline are sharp edges, closed here into a blob the size of the die."""
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(cv2.GaussianBlur(grey, (3, 3), 0), 60, 150)
    closed = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (11, 11)))
    # An outline closed all round is a ring: its hole filled, when it is die-sized (a tray's rim is a ring too,
    # round the whole floor: that hole stays open, and the dice inside it stay apart).
    rings, hierarchy = cv2.findContours(closed, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    largest = closed.shape[0] * closed.shape[1] * 0.01
    holes = [c for c, h in zip(rings, hierarchy[0] if hierarchy is not None else [], strict=True)
             if h[3] >= 0 and cv2.contourArea(c) < largest]
    cv2.drawContours(closed, holes, -1, 255, cv2.FILLED)
    closed = cv2.morphologyEx(closed, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    # A pale die's outline is broken where its edge meets the light: its pips and the outline's pieces make a
    # ragged blob, whose convex hull is the die.
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hulls = np.zeros_like(closed)
    least = closed.shape[0] * closed.shape[1] * 0.04
    cv2.drawContours(hulls, [cv2.convexHull(c) for c in contours if cv2.contourArea(c) < least], -1, 255, cv2.FILLED)
    return hulls


def find_candidates(image: np.ndarray) -> list[Candidate]:
    """Die-shaped blobs of ``image`` (BGR uint8), largest first: those that differ from the background in
    colour, then those only edges show (white on white) where the first found nothing."""
    small, scale = _shrunk(image)
    mask: np.ndarray = (difference_map(small) > DIFFERENCE).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    found = _blobs(mask, small.shape[:2], scale)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    for extra in _blobs(edge_mask(small), small.shape[:2], scale):
        ex, ey, ew, eh = extra.box
        centre = (ex + ew / 2, ey + eh / 2)
        # Blobs the colour found inside this outline: the same die, unless they are mere pieces of it (a pale
        # die's shaded side differs from a pale cloth, its lit top does not): pieces under half the outline's
        # size give way to the whole outline.
        inside = [c for c in found
                  if ex <= c.box[0] + c.box[2] / 2 <= ex + ew and ey <= c.box[1] + c.box[3] / 2 <= ey + eh]
        if any(c.box[2] * c.box[3] >= 0.5 * ew * eh for c in inside):
            continue
        if not inside and any(x <= centre[0] <= x + w and y <= centre[1] <= y + h
                              for x, y, w, h in (c.box for c in found)):
            continue
        # Only a pale blob: a dark or coloured die differs from a pale cloth and was found above already; what
        # only edges show and is dark is a tray's printed rim, a seam, a shadow.
        cx, cy, r = int(centre[0] * scale), int(centre[1] * scale), max(1, int(min(ew, eh) * scale / 4))
        if float(np.median(grey[max(0, cy - r): cy + r, max(0, cx - r): cx + r])) >= PALE:
            found = [c for c in found if not any(c is piece for piece in inside)]
            found.append(dataclasses.replace(extra, faint=True))
    return found


def _die_shaped(contour: np.ndarray) -> tuple[float, tuple[tuple[float, float], tuple[float, float], float]] | None:
    """(fill, rotated rectangle) of a contour shaped like a die seen from above, or None."""
    area = cv2.contourArea(contour)
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
    if min(rw, rh) <= 0 or max(rw, rh) / min(rw, rh) > 1.8:
        return None
    fill = area / (rw * rh)
    hull = cv2.contourArea(cv2.convexHull(contour))
    if fill < 0.55 or (hull and area / hull < 0.8):
        return None
    return fill, ((cx, cy), (rw, rh), angle)


def split(contour: np.ndarray) -> list[np.ndarray]:
    """Dice touching each other make one blob: its thick cores (the distance transform's high ground, one per
    die) are grown back over the blob, each into a piece of its own. One core: the blob as it was."""
    x, y, w, h = cv2.boundingRect(contour)
    blob = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(blob, [contour - [x - 1, y - 1]], -1, 255, cv2.FILLED)
    depth = cv2.distanceTransform(blob, cv2.DIST_L2, 5)
    cores = (depth > 0.6 * float(depth.max())).astype(np.uint8)
    count, markers = cv2.connectedComponents(cores)
    if count < 3:
        return _halves(contour)
    markers[blob == 0] = count  # the outside: one more basin, so the pieces stop at the blob's edge
    cv2.watershed(cv2.cvtColor(blob, cv2.COLOR_GRAY2BGR), markers)
    pieces = []
    for label in range(1, count):
        piece = (markers == label).astype(np.uint8)
        outline, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if outline:
            pieces.append(max(outline, key=cv2.contourArea) + np.array([x - 1, y - 1]))
    return pieces


def _halves(contour: np.ndarray) -> list[np.ndarray]:
    """A blob about twice as long as wide with one core (two pale dice side by side, their hull one shape): its
    two halves across the long side. Anything else: the blob as it was."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
    if min(w, h) <= 0 or not 1.6 <= max(w, h) / min(w, h) <= 2.6:
        return [contour]
    along = np.radians(angle if w >= h else angle + 90)
    step = max(w, h) / 4
    dx, dy = np.cos(along) * step, np.sin(along) * step
    half = (max(w, h) / 2, min(w, h)) if w >= h else (min(w, h), max(w, h) / 2)
    return [cv2.boxPoints(((cx + sign * dx, cy + sign * dy), half, angle)).astype(np.int32).reshape(-1, 1, 2)
            for sign in (-1, 1)]


def _blobs(mask: np.ndarray, shape: tuple[int, ...], scale: float) -> list[Candidate]:
    # CCOMP: a die inside a tray's dark rim is an outer boundary of its own, not lost inside the rim's.
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    contours = [c for c, h in zip(contours, hierarchy[0] if hierarchy is not None else [], strict=True) if h[3] < 0]
    sh, sw = shape[:2]
    least = max(80.0, sh * sw * 0.0002)
    most = sh * sw * 0.04
    found: list[tuple[float, Candidate]] = []
    for whole in contours:
        area = cv2.contourArea(whole)
        if not least <= area <= 3 * most:
            continue
        shaped = _die_shaped(whole) if area <= most else None
        pieces = [(whole, shaped)]
        if shaped is None or shaped[0] < 0.8:  # not square and full: perhaps dice touching
            parts = [(p, _die_shaped(p)) for p in split(whole) if len(p) >= 3]
            if sum(f is not None for _, f in parts) >= 2 or shaped is None:
                pieces = parts
        for contour, fitted in pieces:
            if fitted is None or not least <= cv2.contourArea(contour) <= most:
                continue
            fill, ((cx, cy), (rw, rh), angle) = fitted
            x, y, w, h = cv2.boundingRect(contour)
            blob = np.zeros((h, w), np.uint8)
            cv2.drawContours(blob, [contour - [x, y]], -1, 255, cv2.FILLED)
            inv = 1.0 / scale
            box = (int(x * inv), int(y * inv), max(1, round(w * inv)), max(1, round(h * inv)))
            full_mask = cv2.resize(blob, (box[2], box[3]), interpolation=cv2.INTER_NEAREST)
            rect = ((cx * inv, cy * inv), (rw * inv, rh * inv), angle)
            found.append((cv2.contourArea(contour), Candidate(box, rect, full_mask, fill)))
    found.sort(key=lambda t: -t[0])
    return [c for _, c in found]


WIDER = 1.1
"""How much longer than the blob's own rectangle a die's body-colour outline may be before it is not believed."""


def refine(image: np.ndarray, candidate: Candidate) -> tuple[tuple[float, float], tuple[float, float], float]:
    """A tighter rotated rectangle round the die of ``candidate``: the blob found against the background holds
    its shadow and, in perspective, its side faces; the die's own body colour, taken from the blob's middle,
    marks its top face better. Falls back to the blob's rectangle when the body cannot be told."""
    x, y, w, h = candidate.box
    pad = max(w, h) // 5
    top, left = max(0, y - pad), max(0, x - pad)
    crop = image[top: y + h + pad, left: x + w + pad]
    lab = cv2.cvtColor(cv2.GaussianBlur(crop, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    cy, cx = (y - top) + h // 2, (x - left) + w // 2
    r = max(2, min(w, h) // 6)
    middle = lab[max(0, cy - r): cy + r, max(0, cx - r): cx + r].reshape(-1, 3)
    if not 0 <= cy < lab.shape[0] or not 0 <= cx < lab.shape[1] or not len(middle):
        return candidate.rect  # a box running off the picture (rounded up from the shrunken copy)
    body = np.median(middle, axis=0)
    distance = np.sqrt(((lab - body) ** 2).sum(axis=2))
    mask = (distance < 38).astype(np.uint8)
    k = max(3, (min(w, h) // 5) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    own = labels[cy, cx]
    if own == 0 or not 0.35 * w * h <= stats[own][4] <= 1.2 * w * h:
        return candidate.rect
    ys, xs = np.nonzero(labels == own)
    points = np.stack([xs + left, ys + top], axis=1).astype(np.float32)
    (rx, ry), (rw, rh), angle = cv2.minAreaRect(points)
    if min(rw, rh) <= 0 or max(rw, rh) / min(rw, rh) > 1.6:
        return candidate.rect
    # Tighter, never wider: a body colour that runs on past the blob is the die's coloured light on the cloth
    # round it (a translucent die casts its colour) or the dark thing the blob is a corner of, not more of the die.
    if max(rw, rh) > WIDER * max(candidate.rect[1]):
        return candidate.rect
    return (rx, ry), (rw, rh), angle
