"""Garbage collection in the loop's quiet turns, never between a roll and its frame.

Python collects cyclic garbage whenever enough objects have been made, wherever that happens: in the
middle of drawing a roll, a young collection costs the frame up to a millisecond, an older one several,
and a full one tens (measured on the build machine: docs/performance.md). The table's loop therefore
switches automatic collection off (:func:`take_over`) and runs the collections that are due
(:func:`collect_due`, by the interpreter's own thresholds) in its quiet turns: a turn with no input,
which comes a tick after every frame at a table where rolls are seconds apart. A turn that finds the
collector far behind (a stream of inputs with no pause) collects anyway, so memory stays bounded.
"""

from __future__ import annotations

import gc
from collections.abc import Callable

OVERDUE = 20
"""A busy turn collects anyway once this many times the youngest generation's threshold has piled up."""


def take_over() -> Callable[[], None]:
    """Automatic collection off: the loop collects in its quiet turns. Returns what puts it back."""
    was = gc.isenabled()
    gc.disable()
    return gc.enable if was else (lambda: None)


def collect_due() -> int | None:
    """While automatic collection is off, the collection the interpreter would have run by now (the oldest
    generation whose count passed its threshold, with the younger ones); the generation collected, or
    None when none was due (or collection is automatic)."""
    if gc.isenabled():
        return None
    counts, thresholds = gc.get_count(), gc.get_threshold()
    for generation in (2, 1, 0):
        if thresholds[generation] and counts[generation] > thresholds[generation]:
            gc.collect(generation)
            return generation
    return None


def overdue() -> bool:
    """The young objects waiting for a collection have piled up far past the threshold."""
    threshold = gc.get_threshold()[0]
    return not gc.isenabled() and bool(threshold) and gc.get_count()[0] > OVERDUE * threshold
