"""A kept surface's pages given back to the system while the box rests, the surface itself kept.

The projector's renderer keeps a screen-sized scratch surface for its partial repaints (8 MB at 1080p): making
one costs SDL a clear of every byte (a few milliseconds, more than a press may take), so it is kept from the
first repaint on. Its pixels mean nothing between two repaints (each repaint first copies the board under the
rectangle it redraws), so while the table rests its pages are handed back (``madvise(MADV_DONTNEED)``: the
mapping stays, the memory goes, and a page touched again comes back cleared, from the kernel, without SDL's
clear of the whole surface). The next repaint pays a page fault for each page it touches again: the pages
under the pieces it redraws, not the screen.

Linux only (``MADV_DONTNEED`` and glibc's ``madvise``); elsewhere nothing is given back and the surface works as
before.
"""

from __future__ import annotations

import ctypes
import mmap
import sys
from functools import cache
from typing import Any


@cache
def _madvise() -> Any:
    """libc's ``madvise``, or None (another system)."""
    if not sys.platform.startswith("linux") or not hasattr(mmap, "MADV_DONTNEED"):
        return None
    try:
        call = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):
        return None
    call.argtypes, call.restype = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int), ctypes.c_int
    return call


def give_back_pixels(surface: Any) -> int:
    """The whole pages inside ``surface``'s pixels (a surface of its own, never a subsurface: its pixels are
    another's) given back to the system; their contents are lost. Returns the bytes given back (0: none, or
    not on this system)."""
    madvise = _madvise()
    if madvise is None or surface.get_parent() is not None:
        return 0
    address = surface._pixels_address
    page = mmap.PAGESIZE
    start = -(-address // page) * page
    end = (address + surface.get_pitch() * surface.get_height()) // page * page
    if end <= start or madvise(start, end - start, mmap.MADV_DONTNEED) != 0:
        return 0
    return end - start
