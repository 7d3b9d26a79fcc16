"""What a phone may send over its websocket, checked before anything else looks at it.

Each message is one JSON object of at most :data:`MAX_MESSAGE` bytes with a type ``t`` and exactly that
type's keys, each of its type and range; anything else is refused with a one-line reason (logged by the
server, said to the phone), never an exception that escapes. A message always names the frame it was
made on (``frame``): the box refuses an action made on a picture the table has moved past.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from companion.dice import FACES

MAX_MESSAGE = 512
MAX_DICE = 8
MAX_BID = 100_000
MAX_OPTIONS = 256


class Refused(ValueError):
    """A message that is not one the page sends: the reason in a few words."""


@dataclass(frozen=True)
class Pick:
    """Option ``option`` of the frame's decision (a button or a place tapped on the board)."""

    frame: int
    option: int


@dataclass(frozen=True)
class Dice:
    """Dice entered by tapping faces: (kind, value) each."""

    frame: int
    dice: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Bid:
    """A bid typed as a number."""

    frame: int
    amount: int


@dataclass(frozen=True)
class Undo:
    """Take the last event back (the box asks "Undo last?", as when BACK is held)."""

    frame: int


@dataclass(frozen=True)
class Answer:
    """Yes or no to the question the box asks ("Undo last?")."""

    frame: int
    yes: bool


Action = Pick | Dice | Bid | Undo | Answer

_KEYS = {"pick": {"t", "frame", "option"}, "dice": {"t", "frame", "dice"}, "bid": {"t", "frame", "amount"},
         "undo": {"t", "frame"}, "answer": {"t", "frame", "yes"}}


def _int(data: dict[str, object], key: str, low: int, high: int) -> int:
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise Refused(f"{key}: expected a whole number")
    if not low <= value <= high:
        raise Refused(f"{key}: out of range")
    return value


def parse(raw: str | bytes) -> Action:
    """The action in one websocket message, or :class:`Refused` naming what is wrong."""
    if not isinstance(raw, str):
        raise Refused("expected a text message")
    if len(raw.encode("utf-8", "replace")) > MAX_MESSAGE:
        raise Refused("message too long")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise Refused("not JSON") from None
    if not isinstance(data, dict):
        raise Refused("expected a JSON object")
    kind = data.get("t")
    if not isinstance(kind, str) or kind not in _KEYS:
        raise Refused("unknown message type")
    if set(data) != _KEYS[kind]:
        raise Refused(f"{kind}: unexpected or missing keys")
    frame = _int(data, "frame", 0, 2**53)
    if kind == "pick":
        return Pick(frame, _int(data, "option", 0, MAX_OPTIONS - 1))
    if kind == "bid":
        return Bid(frame, _int(data, "amount", 0, MAX_BID))
    if kind == "undo":
        return Undo(frame)
    if kind == "answer":
        if not isinstance(data["yes"], bool):
            raise Refused("yes: expected true or false")
        return Answer(frame, data["yes"])
    return Dice(frame, _dice(data["dice"]))


def _dice(value: object) -> tuple[tuple[str, int], ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_DICE:
        raise Refused(f"dice: expected 1..{MAX_DICE} dice")
    out = []
    for die in value:
        if not (isinstance(die, list) and len(die) == 2 and isinstance(die[0], str) and die[0] in FACES):
            raise Refused("dice: expected [kind, value] pairs")
        faces = FACES[die[0]]
        if not isinstance(die[1], int) or isinstance(die[1], bool) or not 1 <= die[1] <= faces:
            raise Refused("dice: a value off the die")
        out.append((die[0], die[1]))
    return tuple(out)
