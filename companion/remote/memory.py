"""Large buffers handed back to the system when freed, while the phones' page runs.

Each phone's frame passes a few large buffers through the box (the picture's pixels, Pillow's image, the PNG,
the websocket frames): a few MB allocated and freed at every frame, on three threads. glibc's malloc serves
a block of 128 KB or more with a mapping of its own and unmaps it when it is freed, but it raises that
threshold to the size of every such block freed (up to 32 MB), so after the first frame these buffers come
from the threads' heaps, whose freed space stays resident in pieces too small to give back: about 10 MB more
on the box with eight phones than the buffers themselves. Fixing the threshold (``mallopt(M_MMAP_THRESHOLD)``)
keeps large blocks mapped and unmapped at once, at the price of a few system calls per frame.
"""

from __future__ import annotations

import ctypes
import sys

M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter (malloc.h): the size from which a block gets a mapping of its own."""
LARGE = 128 * 1024
"""glibc's own starting threshold, kept fixed."""


def return_large_buffers() -> bool:
    """Fix malloc's mapping threshold at :data:`LARGE` (glibc on Linux); False where there is no such knob."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # a libc without mallopt
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, LARGE))
