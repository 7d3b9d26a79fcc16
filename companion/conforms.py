"""``isinstance`` for the project's runtime-checkable protocols, at the cost of a few attribute lookups.

typing's own check lists the protocol's members again on every call, walking its classes (20-30 microseconds on
Python 3.11), and the box asks on every frame: whether each view draws ahead (the loop), whether the game has
choices and a board (the session's options and board cursor). Here the members are listed once per protocol, and
the answer is typing's: every member present on the object, and a method member not set to None. The object
itself is asked, not its class, so an object given a method of its own (a test's stand-in view) is judged as
typing judges it; tests/test_conforms.py compares the two for every protocol of the project.
"""

from __future__ import annotations

import functools
from typing import Any, Generic, Protocol


@functools.cache
def members(protocol: type) -> tuple[tuple[str, bool], ...]:
    """The members a protocol asks for, each with whether it is a method (a method set to None is not one)."""
    found: dict[str, bool] = {}
    for base in reversed(protocol.__mro__):
        if base in (object, Protocol, Generic) or not getattr(base, "_is_protocol", False):
            continue
        for name in (*vars(base), *getattr(base, "__annotations__", {})):
            if not name.startswith("_"):
                found[name] = callable(getattr(protocol, name, None))
    return tuple(found.items())


def conforms(obj: Any, protocol: type) -> bool:
    """Whether ``obj`` is an instance of the runtime-checkable ``protocol``, as ``isinstance`` answers (a plain bool:
    mypy takes no protocol class where a class is expected, so a caller casts where it needs the narrowed type)."""
    for name, method in members(protocol):
        try:
            value = getattr(obj, name)
        except AttributeError:
            return False
        if method and value is None:
            return False
    return True
