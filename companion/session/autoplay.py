"""A scripted game night: answers each prompt the way a table would, through the real input paths.

The player looks only at what the box shows (the panel and the open options) and acts through a
:class:`Driver`: dice thrown into the (virtual) tower, buttons pressed on the (mock) pins. So a
demo exercises the same code as an evening at the table: link, buttons, session, journal, views.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.dice import FACES, DiceRolled, Die
from companion.session.choices import ends
from companion.session.core import Session


class Driver(Protocol):
    """How the scripted player touches the box."""

    def throw(self, dice: DiceRolled) -> None:
        """Dice into the tower."""

    def press(self, button: str) -> None:
        """A short press of a button."""

    def hold(self, button: str) -> None:
        """A long press of a button."""


@dataclass(frozen=True)
class ScriptedGame:
    """One game of the night: which game, the answers to its setup questions, and how far to play."""

    game: str
    options: Mapping[str, Any] = field(default_factory=dict)
    max_events: int = 10_000
    """Stop this game after so many accepted events (it is then left open, as at a real table)."""
    button_every: int = 3
    """Every n-th roll comes from the ROLL button instead of the tower."""


class AutoPlayer:
    """Issues one input at a time; the caller runs the loop until the panel changes, then asks again."""

    def __init__(self, session: Session, driver: Driver, script: Sequence[ScriptedGame], *, seed: int = 0,
                 undo_every: int = 0, reroll_every: int = 0) -> None:
        self.session = session
        self.driver = driver
        self.script = list(script)
        self.rng = random.Random(seed)
        self.undo_every = undo_every
        self.reroll_every = reroll_every
        """Every n-th roll asks for a re-roll of the last roll first (ROLL held, then OK), when it was a roll."""
        self._index = -1
        self._game_id: int | None = None
        self._rolls = 0
        self._events_at_start = 0
        self.actions = 0
        self.awaiting = False
        self._ended = False
        self.finished: list[int] = []
        self._aim: tuple[Any, int] | None = None
        """The option aimed at for the decision open now (its game and live count), and its index."""

    @property
    def done(self) -> bool:
        return self._index >= len(self.script)

    def act(self) -> str:
        """Do the next thing; returns what was done (for logs), "" when the night is over.

        After a driver action :attr:`awaiting` is True: the caller runs the loop until the panel
        changes. Starting the next game acts on the session directly and leaves it False.
        """
        self.actions += 1
        self.awaiting = True
        s = self.session
        panel = s.panel
        if self._index >= 0 and self._game_over() and not self._ended and self._finished_now():
            self._ended = True  # one beat on the final result before the next game
            self.awaiting = False
            return "game over"
        if self._index < 0 or self._game_over():
            return self._next_game()
        if panel.menu is not None and (s.options() == [] or s.menu_open):
            return self._answer_menu()
        wanted = s.wanted()
        prompt = s.prompt()
        assert prompt is not None
        self._check_shown(wanted, prompt)
        if wanted:
            self._rolls += 1
            if self.undo_every and self._rolls % self.undo_every == 0 and s.current and s.current.live:
                self.driver.hold("BACK")
                return "hold BACK (undo)"
            live = s.current.live if s.current else []
            if (self.reroll_every and self._rolls % self.reroll_every == 0 and live
                    and isinstance(live[-1].event, DiceRolled) and not s.rerolling()):
                self.driver.hold("ROLL")
                return "hold ROLL (re-roll)"
            if self.script[self._index].button_every and self._rolls % self.script[self._index].button_every == 0:
                self.driver.press("ROLL")
                return "press ROLL"
            dice = DiceRolled(tuple(Die(k, self.rng.randint(1, FACES[k])) for k in wanted), "tower")
            self.driver.throw(dice)
            return f"throw {' '.join(str(d) for d in dice.dice)}"
        if prompt.shuffle:
            self.driver.press("ROLL")
            return "press ROLL (shuffle)"
        options = s.options()
        if options:
            # Like a table that mostly gets on with it: what ends the turn or phase (e.g. "End player
            # phase", never where the cursor starts) half the time, otherwise one of the first few.
            moment = (s.current.game_id, len(s.current.live)) if s.current else None
            if self._aim is None or self._aim[0] != moment or self._aim[1] >= len(options):
                enders = [i for i, o in enumerate(options) if ends(o)]
                pick = enders[0] if enders and self.rng.random() < 0.5 else self.rng.randrange(min(len(options), 6))
                self._aim = (moment, pick)  # kept while the decision is open: the cursor walks to it
            button = s.presses_to(self._aim[1])[0]  # the cursor walks to it, on the board or down the list
            self.driver.press(button)
            return f"press {button}"
        raise RuntimeError(f"the scripted player does not know how to answer {prompt!r}")

    def _check_shown(self, wanted: Sequence[str], prompt: Any) -> None:
        """The table can only answer what the box shows: a need with no words on the OLED, or a decision
        whose options are not the menu the buttons scroll, is a fault of the box, not of the player."""
        panel = self.session.panel
        if (wanted or prompt.shuffle) and (panel.prompt is None or not (panel.prompt.short or panel.prompt.text)):
            raise RuntimeError(f"the box wants {list(wanted) or 'a shuffle'} but shows no prompt: {panel!r}")
        options = self.session.shown_options() if not wanted and not prompt.shuffle else []
        if options and (panel.menu is None or panel.menu.items != tuple(o.label for o in options)):
            raise RuntimeError(f"the box waits for a decision but its menu is not the options: {panel.menu!r}")

    def _finished_now(self) -> bool:
        cur = self.session.current
        return cur is not None and cur.game_id == self._game_id and cur.game.prompt(cur.state).done

    def _game_over(self) -> bool:
        cur = self.session.current
        if cur is None or cur.game_id != self._game_id:
            return True
        if cur.game.prompt(cur.state).done:
            return True
        return len(cur.live) - self._events_at_start >= self.script[self._index].max_events

    def _answer_menu(self) -> str:
        menu = self.session.panel.menu
        assert menu is not None
        if menu.title.endswith("?"):  # a confirmation the player asked for
            self.driver.press("OK")
            return "press OK (confirm)"
        self.driver.press("BACK")
        return "press BACK"

    def _next_game(self) -> str:
        cur = self.session.current
        if cur is not None and self._game_id == cur.game_id and cur.game.prompt(cur.state).done:
            self.finished.append(cur.game_id)
        self._index += 1
        if self.done:
            self.awaiting = False
            return ""
        step = self.script[self._index]
        self._ended = False
        self.awaiting = False
        self.session.new_game(step.game, dict(step.options))
        self.session.refresh()
        cur = self.session.current
        assert cur is not None
        self._game_id = cur.game_id
        self._events_at_start = len(cur.live)
        return f"new game {step.game} #{cur.game_id}"
