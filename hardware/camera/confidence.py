"""How sure a read must be to be taken without asking, and how sure a read is.

One threshold for every kind: a read at or above it becomes the roll; below it, the table is shown what was
read and confirms or mends it. It was set on the labelled photographs so that no wrong read there is above it
(docs/camera.md gives the figures). A die leaning on the tray wall is never taken, whatever its reading.
"""

from __future__ import annotations

THRESHOLD = 0.6
"""Reads at or above this are taken without asking."""

CROOKED_ASPECT = 1.35
"""A die's outline longer than this times its width: it leans on a wall or on another die, showing a side."""


CUT = 0.5
"""The most a die cut by the picture's edge may be read at: part of its face is outside the picture (a 4 whose
far pips are cut off is a perfect 2), so it is always shown to the table, never taken."""


def cut(box: tuple[int, int, int, int], width: int, height: int) -> bool:
    """Whether a die's upright box (x, y, w, h) touches the edge of a ``width`` x ``height`` picture."""
    x, y, w, h = box
    return x <= 1 or y <= 1 or x + w >= width - 1 or y + h >= height - 1


def sure(confidence: float, crooked: bool = False) -> bool:
    """Whether a read is taken without asking the table."""
    return not crooked and confidence >= THRESHOLD


def crooked(width: float, height: float) -> bool:
    """Whether an outline this shape is a die standing crooked (seen from above, a flat die is about square)."""
    short, long_ = sorted((width, height))
    return short <= 0 or long_ / short > CROOKED_ASPECT


UNTAUGHT = 0.4
"""The confidence of a D8 found by its outline while no D8 set is taught (:mod:`hardware.camera.silhouette`): its
face is only a guess against printed digits, so it is always shown to the table, never taken."""
