"""Lists laid out for five buttons: the likeliest answer under the cursor, the next likeliest fewest presses away.

A list the session steps round (UP and DOWN one option, LEFT and RIGHT a page of ``jump``) reaches four options in
one press from where the cursor starts; an engine that knows how likely each answer is (Carcassonne's kinds, by the
bag; Allegheny's railroads, by who built what) puts them there. Shared by the engines, so every list of the box
steps alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

__all__ = ["laid_out", "page"]

T = TypeVar("T")


def page(n: int) -> int:
    """How far LEFT and RIGHT step on a list of ``n`` (UP and DOWN: one): about its square root, at least two, so
    round the list any of five is one press from the first, of ten three, of thirty five."""
    return max(2, round(n ** 0.5))


def laid_out(likeliest_first: Sequence[T], jump: int) -> tuple[list[T], int]:
    """A list laid out round its likeliest item for buttons that step it round (UP and DOWN one, LEFT and RIGHT
    ``jump``), and where that item is (in the middle). The fewer presses a place in the list is from the
    likeliest, the likelier the item put there; of places as near, the one next to it first (UP, DOWN: the second
    likeliest just below, the third just above, the OLED showing both beside the cursor), then the nearer in the
    list. With ``jump`` 3 and ten items, the four after the likeliest are one press away and all within three."""
    n = len(likeliest_first)
    if n <= 2:
        return list(likeliest_first), 0
    if n == 3:  # the second just below the first, the third just above: each one press, no wrap needed
        return [likeliest_first[2], likeliest_first[0], likeliest_first[1]], 1
    far = {0: 0}
    todo = [0]
    for here in todo:  # breadth first over the offsets from the likeliest, round the list
        for step in (1, -1, jump, -jump):
            there = (here + step) % n
            if there not in far:
                far[there] = far[here] + 1
                todo.append(there)
    def signed(offset: int) -> int:
        return offset if offset <= n // 2 else offset - n
    order = sorted(far, key=lambda o: (far[o], abs(signed(o)), signed(o) < 0))
    start = n // 2
    out: list[T | None] = [None] * n
    for item, offset in zip(likeliest_first, order, strict=True):
        out[(start + signed(offset)) % n] = item
    return [item for item in out if item is not None], start
