"""The presses that answer the game: a die typed with UP/DOWN and entered with OK, and a decision picked with the
arrows and OK (on the board, :mod:`companion.session.board_cursor`, or down a list).

They only move the open request (:class:`~companion.session.request.OpenRequest`) and hand on what the table
answered, through a narrow interface (:class:`PressHost`): the session keeps the dispatch (a menu open, BACK, the
held buttons, a shuffle) and what an answer does (the dice meet the request, an option is journaled, or confirmed
first when it ends the game).
"""

from __future__ import annotations

from typing import Protocol

from companion.dice import FACES, DiceRolled, Die
from companion.errors import CompanionError
from companion.games.base import Option
from companion.session.board_cursor import BoardCursor, moved
from companion.session.choices import Offered, cursor
from companion.session.request import OpenRequest

__all__ = ["PressHost", "choice_press", "dice_press"]


class PressHost(Protocol):
    """What the presses need of the session, and no more."""

    request: OpenRequest
    message: str

    def wanted(self) -> tuple[str, ...]:
        """The dice kinds the open request still waits for."""

    def decision(self) -> tuple[Offered, BoardCursor | None]:
        """The options open now and their board cursor (None: a list)."""

    def throw(self, kinds: tuple[str, ...]) -> DiceRolled:
        """Dice rolled by the box (ROLL)."""

    def take_dice(self, rolled: DiceRolled) -> None:
        """Dice for the open request (rolled by the box, or a die typed)."""

    def pick(self, option: Option) -> None:
        """The option the table picked: journaled, or asked to confirm first when it ends the game."""


def dice_press(host: PressHost, button: str) -> None:
    """A press while the game waits for dice: ROLL rolls them, UP/DOWN type the first die wanted, OK enters it."""
    wanted = host.wanted()
    kind = wanted[0]
    if button == "ROLL":
        host.take_dice(host.throw(wanted))
    elif button in ("UP", "DOWN"):
        faces = FACES[kind]
        step = 1 if button == "UP" else -1
        entry = host.request.entry
        current = entry if entry is not None else (0 if step == 1 else 1)
        entry = (current - 1 + step) % faces + 1
        host.request = host.request.with_(entry=entry)
        host.message = f"typed {kind.upper()}={entry}: OK enters"
    elif button == "OK":
        if host.request.entry is None:
            host.message = "UP/DOWN to type a die, ROLL to roll"
            return
        value = host.request.entry
        host.request = host.request.with_(entry=None)
        host.take_dice(DiceRolled((Die(kind, value),), "typed"))


def choice_press(host: PressHost, button: str) -> None:
    """A press on a decision: on the board (:mod:`companion.session.board_cursor`) the arrows go to the nearest
    place that way and OK on a place with several options opens their short list; a list is stepped one by
    one. OK picks; ending the game asks first."""
    options, moves = host.decision()
    if not options:
        raise CompanionError("no choice is possible here")
    request = host.request
    after = moved(options, moves, request, button)
    if after is not None:
        host.request = after
        if after.listing and not request.listing and moves is not None:
            host.message = f"{len(moves.here(cursor(options, after.choice)))} here: arrows, OK"
    elif button in ("UP", "LEFT", "DOWN", "RIGHT"):
        host.message = f"no place further {button.lower()}"
    elif button == "OK":
        host.pick(options[cursor(options, request.choice)])
    elif button == "ROLL":
        host.message = "a decision: pick with the arrows and OK"
