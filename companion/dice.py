"""Dice, the events that carry them, and the prompt an engine gives for what it needs next.

Randomness enters the pure games only through these events, so a game is a fold over its
journal: replay, undo and crash recovery are all the same code.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import CompanionError, RuleError

FACES: dict[str, int] = {"d6": 6, "d8": 8}
"""Die kinds the box knows, with their number of faces."""


@dataclass(frozen=True)
class Die:
    """One settled die: its kind ("d6", "d8") and the face that came up."""

    kind: str
    value: int

    def __post_init__(self) -> None:
        faces = FACES.get(self.kind)
        if faces is None:
            raise RuleError(f"unknown die kind {self.kind!r} (known: {', '.join(FACES)})")
        if isinstance(self.value, bool) or not isinstance(self.value, int) or not 1 <= self.value <= faces:
            raise RuleError(f"a {self.kind.upper()} cannot show {self.value!r} (faces 1-{faces})")

    def __str__(self) -> str:
        return f"{self.kind.upper()}={self.value}"


@dataclass(frozen=True)
class DiceRolled:
    """Dice that arrived from a source: the tower, a button roll, a typed value, or a seed."""

    dice: tuple[Die, ...]
    source: str = "manual"

    @classmethod
    def of(cls, *pairs: tuple[str, int], source: str = "manual") -> DiceRolled:
        return cls(tuple(Die(k, v) for k, v in pairs), source)


@dataclass(frozen=True)
class Shuffled:
    """A permutation of ``len(order)`` items (0-based indices), e.g. a deck's new order."""

    order: tuple[int, ...]
    source: str = "manual"

    def __post_init__(self) -> None:
        if sorted(self.order) != list(range(len(self.order))):
            raise RuleError(f"not a permutation of 0..{len(self.order) - 1}: {list(self.order)}")


@dataclass(frozen=True)
class Choice:
    """A decision a player makes: ``action`` names it, ``args`` carry its details (JSON values)."""

    action: str
    args: Mapping[str, Any] = field(default_factory=dict)


Event = DiceRolled | Shuffled | Choice


@dataclass(frozen=True)
class Prompt:
    """What the engine needs next, in words a player understands.

    ``text`` is the full sentence for the projector, ``short`` fits the 128x64 OLED.
    Exactly one of ``dice``/``shuffle``/``actions`` is usually set; ``done`` ends the game.
    """

    text: str
    short: str = ""
    dice: tuple[str, ...] = ()
    shuffle: int = 0
    deal: int = 0
    """With ``shuffle``: how many cards from the top the rules use (0: all), so a shuffle made
    with dice needs a throw only for those."""
    actions: tuple[str, ...] = ()
    done: bool = False

    def wants_dice(self) -> bool:
        return bool(self.dice)


def event_to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready form of an event, for the journal and for export."""
    if isinstance(event, DiceRolled):
        return {"type": "dice", "dice": [[d.kind, d.value] for d in event.dice], "source": event.source}
    if isinstance(event, Shuffled):
        return {"type": "shuffle", "order": list(event.order), "source": event.source}
    if isinstance(event, Choice):
        return {"type": "choice", "action": event.action, "args": dict(event.args)}
    raise TypeError(f"not an event: {event!r}")


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Inverse of :func:`event_to_dict`; raises CompanionError naming what is malformed."""
    try:
        kind = data["type"]
        if kind == "dice":
            return DiceRolled(tuple(Die(str(k), int(v)) for k, v in data["dice"]), str(data.get("source", "")))
        if kind == "shuffle":
            return Shuffled(tuple(int(i) for i in data["order"]), str(data.get("source", "")))
        if kind == "choice":
            args = data.get("args", {})
            if not isinstance(args, Mapping):
                raise CompanionError("event args must be an object")
            return Choice(str(data["action"]), dict(args))
    except (KeyError, TypeError, ValueError) as exc:
        raise CompanionError(f"malformed event {dict(data)!r}: {exc!r}") from None
    raise CompanionError(f"unknown event type {kind!r}")


@dataclass(frozen=True)
class DiceMatch:
    """How a roll answers a request: the dice taken, the dice left over, the kinds still awaited.

    Taken dice are the first of each asked kind in the order they arrived; ``extra`` are dice of an asked
    kind beyond the number asked (never spilled into the next request), ``refused`` dice of a kind not
    asked at all."""

    taken: tuple[Die, ...]
    extra: tuple[Die, ...]
    refused: tuple[Die, ...]
    missing: tuple[str, ...]


def match_dice(wanted: Sequence[str], dice: Sequence[Die]) -> DiceMatch:
    """The one place where dice meet a request: the engines (:func:`take_dice`) and the session's
    partial rolls (a D8 now, the D6 later) both use it, so both refuse and drop alike."""
    remaining = list(wanted)
    taken: list[Die] = []
    extra: list[Die] = []
    refused: list[Die] = []
    for die in dice:
        if die.kind in remaining:
            remaining.remove(die.kind)
            taken.append(die)
        elif die.kind in wanted:
            extra.append(die)
        else:
            refused.append(die)
    return DiceMatch(tuple(taken), tuple(extra), tuple(refused), tuple(remaining))


def in_request_order(wanted: Sequence[str], dice: Sequence[Die]) -> tuple[Die, ...]:
    """``dice`` (which answer ``wanted`` exactly) in the order the request names their kinds."""
    pool = list(dice)
    ordered = []
    for kind in wanted:
        die = next(d for d in pool if d.kind == kind)
        pool.remove(die)
        ordered.append(die)
    return tuple(ordered)


def take_dice(event: Event, wanted: Sequence[str]) -> tuple[Die, ...]:
    """The dice of ``event`` that answer a request for ``wanted`` kinds, in request order.

    A roll of the wrong kind, or too few dice, is refused; extra dice are left out (they never
    spill into the next request). Games call this so every engine refuses the same way.
    """
    if not isinstance(event, DiceRolled):
        raise RuleError(f"waiting for {' + '.join(k.upper() for k in wanted)}, not a {type(event).__name__}")
    match = match_dice(wanted, event.dice)
    if match.missing:
        got = ", ".join(str(d) for d in event.dice) or "no dice"
        want = " + ".join(k.upper() for k in wanted)
        raise RuleError(f"need {want}, got {got}")
    return in_request_order(wanted, match.taken)


class DiceSource:
    """Draws dice and shuffles from a generator: the OS one by default, or a seed for replays."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng: random.Random = random.SystemRandom() if seed is None else random.Random(seed)
        self.source = "os" if seed is None else "seed"

    def roll(self, kinds: Sequence[str]) -> DiceRolled:
        return DiceRolled(tuple(Die(k, self._rng.randint(1, FACES[k])) for k in kinds), self.source)

    def shuffle(self, n: int) -> Shuffled:
        order = list(range(n))
        self._rng.shuffle(order)
        return Shuffled(tuple(order), self.source)

    def answer(self, prompt: Prompt) -> Event | None:
        """An event that satisfies a prompt's random need, or None if it asks for a decision."""
        if prompt.dice:
            return self.roll(prompt.dice)
        if prompt.shuffle:
            return self.shuffle(prompt.shuffle)
        return None
