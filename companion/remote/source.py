"""The phones as one more input source: a checked action in, the session's own input on the box's queue.

A phone's action names the frame it was made on; it is refused when the box has shown a newer one (the
table moved on), when it does not fit what that frame asks (no such option, dice not wanted, no bid), when a
seated phone decides for another player, or when another action was already taken on that frame (two phones
tapping at once: the first wins, as two hands on the buttons would). What passes becomes ``Decide``,
``Roll``, ``Hold`` or ``Press``, the inputs the buttons and the tower send, and the session applies it
by the same rules (an illegal bid is refused by the game, as from the buttons).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from companion.dice import Choice, Die
from companion.inputs import Decide, Hold, Press, Roll, Say
from companion.remote.codes import SEATS, Phone
from companion.remote.messages import Action, Answer, Bid, Dice, Pick, Undo
from companion.remote.view import Snapshot

SPENT_FOR = 2.0
"""Seconds a frame stays spent after an action was taken on it: if that action changes nothing on the screens
(refused again with the same words), the table can act again after this."""


class PhoneInputs:
    """``act(phone, action)``: a refusal's words, or "" when the input went on the queue."""

    def __init__(self, put: Callable[[Any], None], clock: Callable[[], float] = time.monotonic) -> None:
        self._put = put
        self._clock = clock
        self._lock = threading.Lock()
        self.snapshot: Snapshot | None = None
        self._spent: tuple[int, float] | None = None
        self.taken = 0
        self.refused = 0

    def say(self, text: str) -> None:
        """A line on the box's screens ("Blue's phone joined")."""
        self._put(Say(text))

    def update(self, snapshot: Snapshot) -> None:
        with self._lock:
            self.snapshot = snapshot

    def act(self, phone: Phone, action: Action) -> str:
        with self._lock:
            why = self._check(phone, action)
            if why:
                self.refused += 1
                return why
            snap = self.snapshot
            assert snap is not None
            item = self._input(phone, action, snap)
            if isinstance(item, str):
                self.refused += 1
                if item.startswith("it is"):
                    self._put(Say(f"{phone.name}: {item}"))
                return item
            self._spent = (snap.frame, self._clock())
            self.taken += 1
        for one in item:
            self._put(one)
        return ""

    def _check(self, phone: Phone, action: Action) -> str:
        snap = self.snapshot
        if snap is None:
            return "the box is starting"
        if action.frame != snap.frame:
            return "the table moved on: look again"
        spent = self._spent
        if spent is not None and spent[0] == snap.frame and self._clock() - spent[1] < SPENT_FOR:
            return "another player acted first"
        return ""

    def _input(self, phone: Phone, action: Action, snap: Snapshot) -> list[Any] | str:
        source = f"phone:{phone.seat}" if phone.seat else "phone"
        if isinstance(action, Pick):
            if action.option >= len(snap.options):
                return "no such option now"
            option = snap.options[action.option]
            return self._turn(phone, option.player) or [Decide(option.event)]
        if isinstance(action, Bid):
            if snap.bid is None:
                return "no bid is asked now"
            return self._turn(phone, snap.bid.player) or [
                Decide(Choice(snap.bid.event.action, {**snap.bid.event.args, "amount": action.amount}))]
        if isinstance(action, Dice):
            wanted = list(snap.dice)
            if not wanted:
                return "no dice are asked now"
            for kind, _value in action.dice:
                if kind not in wanted:
                    return f"no {kind.upper()} is asked now"
                wanted.remove(kind)
            return [Roll(tuple(Die(k, v) for k, v in action.dice), source)]
        if isinstance(action, Undo):
            if not snap.undo or snap.menu or snap.question:
                return "nothing to undo now"
            return [Hold("BACK")]
        if isinstance(action, Answer):
            if not snap.question:
                return "no question is asked now"
            if not action.yes:
                return [Press("BACK")]
            return [Press("OK")] if snap.yes_first else [Press("UP"), Press("OK")]
        return "unknown action"

    @staticmethod
    def _turn(phone: Phone, player: int | None) -> str:
        """A seated phone decides only for its own player (when the decision names one)."""
        mine = phone.player
        if mine is None or player is None or player == mine:
            return ""
        other = SEATS[player - 1] if 1 <= player <= len(SEATS) else f"player {player}"
        return f"it is {other}'s turn, not {phone.seat}'s"
