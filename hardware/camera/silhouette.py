"""A die's kind from its outline alone, before anything on it is read: a D8's silhouette is not a D6's.

Seen from above, a D6 lying flat shows a square (a little more in perspective: a sliver of a side face). A D8
lying on a face shows its upward triangle over the downward one beneath it, turned a sixth of a turn: its
outline is a hexagon, six corners joined by straight sides of about one length, about as wide as long, filling
about three quarters of the rectangle fitted round it (a square fills all of it). A disc (a tray's screw head, a
coin) is rounder and has no corners: its outline is not covered by any six of its points. Corners can only be
told on a die of some size: below ``LEAST_SIDE`` pixels a rounded corner is a pixel or two. This lets the box
find a D8 it was never taught, and ask the table for its face instead of saying there are no dice.
"""

from __future__ import annotations

import cv2
import numpy as np

LEAST_SIDE = 40
"""The narrowest a blob may be, in the picture's pixels, for its corners to be told."""

CORNERS_AT = (0.03, 0.04, 0.05)
"""The hull is simplified to corners within these shares of its perimeter (a rounded edge, a pixel's step):
a hexagon at any of them will do."""

EVEN_SIDES = 0.45
"""The shortest of a D8's six sides is at least this share of the longest (the photographs: 0.48-0.78)."""

COVER = 0.865
"""The share of the hull its six corners' polygon covers: straight sides (a D8 0.87-0.92; a disc's six points
0.80-0.86)."""

FILL = (0.7, 0.85)
"""The share of its fitted rectangle a D8's hull fills (a regular hexagon 0.75, the photographs 0.78-0.80; a
flat D6 0.85 and more)."""

ROUND = (0.9, 0.975)
"""4πA/P² of the hull: a regular hexagon 0.91, a D8's rounded one 0.95-0.97; a disc 0.97 and more."""

ASPECT = 1.2
"""The most the fitted rectangle may be longer than wide (a regular hexagon: 1.15; a D8 on the photographs
1.0-1.1; a D6 in steep perspective, top and side together, more: at 1.25 a turned D6 of skovy_05 passes)."""


def is_d8(mask: np.ndarray) -> bool:
    """Whether the blob ``mask`` (uint8, 255 inside, in the picture's pixels) has a D8's outline seen from above."""
    if min(mask.shape[:2]) < LEAST_SIDE:
        return False
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return False
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    perimeter = cv2.arcLength(hull, True)
    area = cv2.contourArea(hull)
    (_, _), (w, h), _ = cv2.minAreaRect(hull)
    if perimeter <= 0 or min(w, h) <= 0 or max(w, h) / min(w, h) > ASPECT:
        return False
    if not FILL[0] <= area / (w * h) <= FILL[1] or not ROUND[0] <= 4 * np.pi * area / perimeter ** 2 <= ROUND[1]:
        return False
    return any(_hexagon(hull, share * perimeter, area) for share in CORNERS_AT)


def _hexagon(hull: np.ndarray, within: float, area: float) -> bool:
    corners = cv2.approxPolyDP(hull, within, True)
    if len(corners) != 6:
        return False
    points = corners.reshape(-1, 2).astype(np.float64)
    sides = np.hypot(*(np.roll(points, -1, axis=0) - points).T)
    return bool(sides.min() >= EVEN_SIDES * sides.max() and cv2.contourArea(corners) >= COVER * area)
