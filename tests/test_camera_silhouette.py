"""A die's kind from its outline (hardware/camera/silhouette.py) on drawn outlines: a D8 lying on a face (a
hexagon) at any turn and size the box sees, against a flat D6 (a square), a D6 in perspective (its top and a
side face: a long hexagon with two short sides), a disc (a screw head) and a hexagon too small to tell corners
on. The photographs' outlines are checked in tests/test_camera_reader.py."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware.camera.silhouette import is_d8


def drawn(points: np.ndarray, side: int) -> np.ndarray:
    mask = np.zeros((side, side), np.uint8)
    cv2.fillPoly(mask, [np.round(points).astype(np.int32)], 255)
    x, y, w, h = cv2.boundingRect(mask)
    return np.ascontiguousarray(mask[y: y + h, x: x + w])


def polygon(corners: int, radius: float, turn: float, squash: float = 1.0) -> np.ndarray:
    angles = np.radians(turn + np.arange(corners) * 360 / corners)
    return np.stack([radius * np.cos(angles), squash * radius * np.sin(angles)], axis=1) + 2 * radius


@pytest.mark.parametrize("turn", [0, 13, 30, 47])
@pytest.mark.parametrize("radius", [30, 90])
def test_a_d8s_hexagon_is_a_d8_at_any_turn(turn, radius):
    assert is_d8(drawn(polygon(6, radius, turn), 4 * radius))
    assert is_d8(drawn(polygon(6, radius, turn, squash=0.97), 4 * radius))  # seen a little from the side


@pytest.mark.parametrize("turn", [0, 20, 45])
def test_a_d6_a_disc_and_a_tiny_hexagon_are_not(turn):
    assert not is_d8(drawn(polygon(4, 60, turn), 240))  # a flat D6
    top = polygon(4, 60, 45)  # a D6 in perspective: its square top and a sliver of two side faces
    sides = np.array([top[0], top[1] + [14, 14], top[1] + [14, 14], top[2] + [14, 14]])
    outline = cv2.convexHull(np.concatenate([top, sides]).astype(np.float32)).reshape(-1, 2)
    assert not is_d8(drawn(outline, 240))
    assert not is_d8(drawn(polygon(90, 60, turn), 240))  # a disc
    assert not is_d8(drawn(polygon(6, 12, turn), 60))  # 24 pixels across: corners cannot be told
