"""A fake of MicroPython's ``time`` for the firmware tests: the board's tick counter, moved by the test.

The WebAssembly port has a ``time`` of its own (the real clock); this file shadows it on sys.path so a
test can run 100 hours in seconds. Ticks wrap every 2**30 ms as on the RP2040, and ``ticks_diff`` /
``ticks_add`` refuse anything but ints, so a float carrying time fails the test at once.
"""

PERIOD = 1 << 30
_MASK = PERIOD - 1
_HALF = PERIOD // 2
_state = {"ticks": 0, "wraps": 0}


def _int(value):
    if type(value) is not int:
        raise TypeError("time carried by a " + type(value).__name__ + ": " + repr(value))
    return value


def ticks_ms():
    return _state["ticks"]


def ticks_add(ticks, delta):
    return (_int(ticks) + _int(delta)) & _MASK


def ticks_diff(later, earlier):
    return ((_int(later) - _int(earlier) + _HALF) & _MASK) - _HALF


def set_ticks(ticks):
    _state["ticks"] = _int(ticks) & _MASK


def advance(ms):
    """Move the clock on by ``ms`` milliseconds (counting wraps past 2**30)."""
    ticks = _state["ticks"] + _int(ms)
    _state["wraps"] += ticks // PERIOD
    _state["ticks"] = ticks & _MASK


def wraps():
    return _state["wraps"]
