"""GoDice messages (Nordic UART notifications) to :class:`Reading`: a pure function per message.

The die sends 'R' when it starts rolling and 'S' + x, y, z (three signed bytes, its acceleration
vector) once it rests; 'FS', 'TS' and 'MS' + x, y, z say it stopped without a proper throw (fake,
tilt, moved while stable) and are never rolls; 'Bat' + level answers a battery request, 'Col' +
n a colour request. The die does not know which shell it wears, so the face is the reference
vector nearest to x, y, z for the shell the group declared (D6 or D8). The vectors are the
vendor's own (the ``godice`` package, pinned in pyproject.toml); its connection code is not used:
it builds a BleakClient of its own (no ``backend=`` seam), awaits its callback inside bleak's, and
its callback's argument order changed between releases. This module only parses bytes.
"""

from __future__ import annotations

from collections.abc import Callable

from godice import xyzinterpret

from hardware.smartdice.reading import Reading

NAME_PREFIX = "GoDice"
"""Advertised names start with this."""
SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
NOTIFY = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"

ASK_BATTERY = bytes([3])
ASK_COLOUR = bytes([23])
COLOURS = ("black", "red", "green", "blue", "yellow", "orange")
"""The colour of a die's dots, by the number its 'Col' answer carries."""

_FACE: dict[str, Callable[[tuple[int, int, int]], int]] = {
    "d6": xyzinterpret.get_rolled_number_d6,
    "d8": xyzinterpret.get_rolled_number_d8,
}
SHELLS = tuple(_FACE)
_NOT_ROLLS = {ord("F"): "fake stable", ord("T"): "tilt stable", ord("M"): "move stable"}


def _xyz(data: bytes) -> tuple[int, int, int]:
    x, y, z = (b - 256 if b > 127 else b for b in data[:3])
    return x, y, z


def face(xyz: tuple[int, int, int], shell: str) -> int:
    """The face up for acceleration ``xyz`` in ``shell`` ("d6" or "d8")."""
    try:
        return _FACE[shell](xyz)
    except KeyError:
        raise ValueError(f"GoDice shell must be one of {', '.join(SHELLS)}, not {shell!r}") from None


def decode(data: bytes, shell: str) -> Reading:
    """One notification from a GoDice in ``shell``. Short or unknown messages are ``none``, never an error."""
    data = bytes(data)
    if not data:
        return Reading(detail="empty message")
    if data == b"R":
        return Reading("rolling", detail="rolling")
    if data[:3] == b"Bat" and len(data) >= 4:
        return Reading(battery=min(data[3], 100), detail="battery")
    if data[:3] == b"Col" and len(data) >= 4:
        name = COLOURS[data[3]] if data[3] < len(COLOURS) else f"colour {data[3]}"
        return Reading(detail=f"colour {name}")
    if data[0] == ord("S") and len(data) == 4:
        return Reading("settled", face=face(_xyz(data[1:]), shell), detail="stable")
    if len(data) == 5 and data[1] == ord("S") and data[0] in _NOT_ROLLS:
        return Reading("still", face=face(_xyz(data[2:]), shell), detail=_NOT_ROLLS[data[0]])
    return Reading(detail=f"unknown message {data[:8].hex()}")
