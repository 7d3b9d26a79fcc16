"""``isinstance`` for the project's runtime-checkable protocols, at the cost of a few attribute lookups.

typing's own check lists the protocol's members again on every call, walking its classes (3-6 microseconds back to
back on Python 3.11, more in play, out of the cache), and the box asks about five times a frame: whether each view
draws ahead (the loop), whether the game has choices, a board and a risk (the session), whether the painter gives
groups and uses the session's answers (the renderer). Here the members are listed once per protocol, as typing lists
them, and the object is asked for them as typing asks: every member present, and a method member not set to None.
Where that finds one missing, typing's other answers come from the object's class (:func:`_by_class`): a class with
every method (an instance may shadow one with None, or leave a slot unset), a subclass of the protocol itself, or
one registered with it. tests/test_conforms.py compares the two for every protocol of the project and for those cases.
"""

from __future__ import annotations

import functools
from typing import Any

_NOT_MEMBERS = frozenset({
    "__parameters__", "__orig_bases__", "__orig_class__", "_is_protocol", "_is_runtime_protocol",
    "__abstractmethods__", "__annotations__", "__dict__", "__doc__", "__init__", "__module__", "__new__", "__slots__",
    "__subclasshook__", "__weakref__", "__class_getitem__", "_MutableMapping__marker",
})
"""What Python 3.11's typing leaves out when it lists a protocol's members (with every ``_abc_`` name); from 3.12 on
a protocol carries typing's own list (``__protocol_attrs__``)."""


@functools.cache
def members(protocol: type) -> tuple[tuple[str, bool], ...]:
    """The members a runtime-checkable protocol asks for, as typing lists them, each with whether it is a method (a
    method set to None is not one). TypeError for a class that is not a runtime-checkable protocol."""
    if not getattr(protocol, "_is_runtime_protocol", False):
        raise TypeError(f"{protocol.__qualname__} is not a runtime-checkable protocol")
    names: set[str] | None = getattr(protocol, "__protocol_attrs__", None)
    if names is None:
        names = set()
        for base in protocol.__mro__[:-1]:  # object's own names are not members
            if base.__name__ in ("Protocol", "Generic"):
                continue
            for name in (*vars(base), *getattr(base, "__annotations__", {})):
                if not name.startswith("_abc_") and name not in _NOT_MEMBERS:
                    names.add(name)
    return tuple((name, callable(getattr(protocol, name, None))) for name in sorted(names))


def conforms(obj: Any, protocol: type) -> bool:
    """Whether ``obj`` is an instance of the runtime-checkable ``protocol``, as ``isinstance`` answers (a plain bool:
    mypy takes no protocol class where a class is expected, so a caller casts where it needs the narrowed type)."""
    listed = members(protocol)
    for name, method in listed:
        try:
            value = getattr(obj, name)
        except AttributeError:
            return _by_class(obj, protocol, listed)
        if method and value is None:
            return _by_class(obj, protocol, listed)
    return True


def _by_class(obj: Any, protocol: type, listed: tuple[tuple[str, bool], ...]) -> bool:
    """typing's answer when the object itself lacks a member: for a protocol of methods only, whether its class has
    them all, is a subclass of the protocol or is registered with it (``issubclass``, whose answer abc keeps per
    class); for one with data members (typing refuses ``issubclass`` there), typing's own ``isinstance``."""
    if all(method for _, method in listed):
        return issubclass(type(obj), protocol)
    return isinstance(obj, protocol)
