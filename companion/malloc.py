"""Freed memory handed back to the system (glibc's malloc, on Linux): by the phones' page at every picture, and
by the box's loop once a table has been left alone (``Loop._rest``).

Each phone's frame passes a few large buffers through the box (the picture's pixels, Pillow's image, the PNG,
the websocket frames): a few MB allocated and freed at every frame, on three threads. glibc's malloc serves
a block of 128 KB or more with a mapping of its own and unmaps it when it is freed, but it raises that
threshold to the size of every such block freed (up to 32 MB), so after the first frame these buffers come
from the threads' heaps, whose freed space stays resident in pieces too small to give back: about 12 MB more
on the box with eight phones than the buffers themselves. Fixing the threshold (``mallopt(M_MMAP_THRESHOLD)``)
keeps large blocks mapped and unmapped at once, at the price of a few system calls per frame.

Each thread that allocates gets a heap (an arena) of its own, up to eight per core, and each keeps free pages
resident: the page's server thread and its encoder's would add two more heaps to the loop's. Capping the arenas
at two (``mallopt(M_ARENA_MAX)``, set before the page's threads start) has the box's other threads share one heap:
with OpenSSL loaded by the page alone (asyncio and Tornado import ``ssl`` unconditionally; the box itself no
longer loads it, companion/sha256.py), this is what keeps the page inside its 10 MB.

The PNG encoder's own smaller buffers (zlib's state, Pillow's blocks: tens of KB each) are freed inside the
threads' heaps and stay resident there; ``malloc_trim`` after each picture gives every heap's free pages back
(a quarter of a millisecond here), about 2 MB with phones connected. It trims the whole process: part of what
it gives back is the box's own freed memory.
"""

from __future__ import annotations

import ctypes
import sys
from functools import cache
from typing import Any

M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter (malloc.h): the size from which a block gets a mapping of its own."""
LARGE = 128 * 1024
"""glibc's own starting threshold, kept fixed."""
M_ARENA_MAX = -8
"""glibc's ``mallopt`` parameter: how many heaps (arenas) the threads may spread over."""
ARENAS = 2
"""The main thread's heap and one the box's other threads share."""


@cache
def _glibc() -> Any:
    """glibc's ``mallopt`` and ``malloc_trim``, or None (another system, another C library)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        mallopt, trim = libc.mallopt, libc.malloc_trim
    except (OSError, AttributeError):
        return None
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    trim.argtypes, trim.restype = (ctypes.c_size_t,), ctypes.c_int
    return libc


def return_large_buffers() -> bool:
    """Fix malloc's mapping threshold at :data:`LARGE` and the threads' heaps at :data:`ARENAS`; False where there
    is no such knob."""
    libc = _glibc()
    if libc is None:
        return False
    libc.mallopt(M_ARENA_MAX, ARENAS)
    return bool(libc.mallopt(M_MMAP_THRESHOLD, LARGE))


def give_back() -> None:
    """Every heap's free pages back to the system (``malloc_trim(0)``); nothing where there is no glibc."""
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)
