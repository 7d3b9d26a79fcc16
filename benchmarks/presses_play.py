"""Whole games played through the real session, counting the presses a table makes (``python -m benchmarks presses``).

Two parts with one job each:

- :class:`PressPlanner` knows nothing of menus or boards: for a decision it searches (breadth first) over the
  session's own answer to each button, starting from the cursor as the table finds it, until OK would enter the
  option aimed at. The search presses the real session's buttons with the cursor state put back after each press
  (``Session.request`` is one frozen value) and catches what OK would enter before it reaches the journal, so the
  path it finds is the fewest presses with whatever the menus are (a list, a board cursor, an entry that asks a
  second question) without knowing which.
- :func:`play` plays a whole game: each decision's target is a seeded random legal option (a table's choice, not
  the box's), dice come from the tower (a throw, no press), a shuffle is one ROLL press; the planner's path is then
  pressed for real, and every press counted against the turn it falls in.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.dice import FACES, DiceRolled, Die, Event
from companion.errors import CompanionError
from companion.games.base import Option
from companion.inputs import Decide, Press, Roll
from companion.session.choices import ends
from companion.session.core import Session

MOVES = ("UP", "DOWN", "LEFT", "RIGHT", "OK")
"""The buttons a decision is answered with: four arrows and OK."""

SEARCH_LIMIT = 4000
"""Cursor states the planner looks at before giving up on a target (a list of 26 spaces needs 27), at least
:data:`STATES_PER_OPTION` per option offered."""
STATES_PER_OPTION = 8
"""A board of thousands of spaces (Carcassonne's light mode: any space the box never saw) has as many cursor
states and a few lanes kept through each: a far space is found, not given up on."""


class _Entered(CompanionError):
    """Raised in place of entering an event while the planner looks ahead: the session catches a CompanionError,
    so nothing is journaled and nothing of the game changes."""

    def __init__(self, event: Event) -> None:
        super().__init__("planned")
        self.event = event


def _key(value: Any) -> Hashable:
    try:
        hash(value)
        return value  # type: ignore[no-any-return]
    except TypeError:
        return repr(value)


PASSING = frozenset({"message", "notices", "_panel", "_frame", "_listed", "_menu"})
"""What a press changes that is no cursor: the footer's message, what was shown, the options' cache, a menu a
press opened (put back: the planner only looks)."""

CACHES = frozenset({"_listed"})
"""Caches a look-ahead press may fill and that stay valid (the options of the state on the table)."""


def _state_key(state: dict[str, Any]) -> Hashable:
    return tuple(sorted((k, _key(v)) for k, v in state.items()))


class PressPlanner:
    """The fewest presses from the cursor as it is to OK entering ``target``, found by trying the session's buttons."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.looked = 0
        """Cursor states tried in all (for the benchmark's own cost)."""

    def _try(self, state: dict[str, Any], button: str) -> tuple[dict[str, Any], Event | None]:
        """The cursor state after ``button`` from ``state``, and the event OK would enter (None: none yet).

        A cursor state is whatever of the session's own attributes a press changes (the open request today;
        whatever a board cursor keeps, without knowing its name), put back after the press."""
        s = self.session
        saved = dict(vars(s))
        vars(s).update(state)
        base = dict(vars(s))
        entered: list[Event] = []

        def catch(event: Event, rolls: Any = ()) -> None:
            raise _Entered(event)

        def confirm(title: str, yes: Callable[[], None]) -> None:
            yes()

        s._accept = catch  # type: ignore[method-assign]
        s._confirm = confirm  # type: ignore[method-assign]
        try:
            s._on_press(button)
        except _Entered as got:
            entered.append(got.event)
        except CompanionError:
            pass
        finally:
            del s._accept, s._confirm  # type: ignore[method-assign]
            now = vars(s)
            changed = {k: v for k, v in now.items() if k not in PASSING and
                       (k not in base or (v is not base[k] and _key(v) != _key(base[k])))}
            caches = {k: v for k, v in now.items() if k in CACHES}
            now.clear()
            now.update(saved)
            now.update(caches)
        return {**state, **changed}, (entered[0] if entered else None)

    def plan(self, target: Event) -> list[str] | None:
        """The fewest buttons from the cursor as it is to OK entering ``target`` (None: no way found). The look-ahead
        must leave the session as it found it: a cursor mutated in place instead of replaced would make the count a
        fiction, so that is checked (what the views would be given, before and after) and refused loudly."""
        before = self.session._compose()
        path = self._search(target)
        if self.session._compose() != before:
            raise RuntimeError("the press planner's look-ahead changed what the session shows: its cursor state is "
                               "no longer replaced by each press (see PressPlanner._try)")
        return path

    def _search(self, target: Event) -> list[str] | None:
        start: dict[str, Any] = {}
        seen = {_state_key(start)}
        queue: deque[tuple[dict[str, Any], list[str]]] = deque([(start, [])])
        limit = max(SEARCH_LIMIT, STATES_PER_OPTION * len(self.session.options()))
        while queue and len(seen) < limit:
            state, path = queue.popleft()
            for button in MOVES:
                self.looked += 1
                after, entered = self._try(state, button)
                if entered is not None:
                    if entered == target:
                        return [*path, button]
                    continue
                k = _state_key(after)
                if k not in seen:
                    seen.add(k)
                    queue.append((after, [*path, button]))
        return None


@dataclass
class Turn:
    """The presses of one turn (as the game's ``turn_of`` tells turns apart), with its states at both ends."""

    key: Hashable
    presses: int
    first: Any
    last: Any


@dataclass
class Played:
    """One game's count: its turns in order, the throws of the tower, the decisions made."""

    game: str
    turns: list[Turn] = field(default_factory=list)
    throws: int = 0
    finished: bool = False
    decisions: int = 0
    unreachable: int = 0
    """Targets the planner found no way to (a fault of the menus, never expected)."""
    guessed: int = 0
    """Decisions where the game's table could not read the engine (a name it relies on changed) and any legal
    option was taken instead: the figure is then not the table's own, and the benchmark says so."""

    @property
    def total(self) -> int:
        return sum(t.presses for t in self.turns)


TurnOf = Callable[[Any], Hashable]


def _pick(rng: random.Random, options: list[Option], end_chance: float, avoid: tuple[str, ...]) -> Option:
    """A table's choice: what ends a turn or phase with ``end_chance``, otherwise any other legal option."""
    enders = [o for o in options if ends(o)]
    others = [o for o in options if not ends(o) and o.event.action not in avoid] or \
        [o for o in options if not ends(o)]
    if enders and (not others or rng.random() < end_chance):
        return rng.choice(enders)
    return rng.choice(others)


Choose = Callable[[random.Random, Any, Any, list[Option]], Option]
"""A table's choice for a decision: (random source, engine, state, the options open) -> the option aimed at."""


def any_option(end_chance: float = 0.3, avoid: tuple[str, ...] = ("cancel",)) -> Choose:
    """A table that picks any legal option, what ends a turn or phase with ``end_chance``, never ``avoid``."""
    return lambda rng, game, state, options: _pick(rng, options, end_chance, avoid)


def in_engine_order(game: Any, state: Any, offered: list[Option]) -> list[Option]:
    """The options offered, in the engine's own order: what a table decides is the game's, not the buttons', so a
    list laid out another way for the buttons leaves the same seeded game to count (the session's order is for the
    presses alone)."""
    listed = getattr(game, "choices", None)
    if not callable(listed):
        return offered
    rank = {_key(o.event): i for i, o in enumerate(listed(state))}
    return sorted(offered, key=lambda o: rank.get(_key(o.event), len(rank)))


def play(session: Session, game: str, options: Mapping[str, Any], *, seed: int, turn_of: TurnOf,
         choose: Choose | None = None, max_presses: int = 20_000,
         stop: Callable[[Any], bool] | None = None) -> Played:
    """Play a whole game of ``game`` (until its prompt says done, ``max_presses``, or ``stop`` says so of the state
    at a decision) and count its presses."""
    rng = random.Random(seed)
    session.new_game(game, dict(options))
    session.refresh()
    planner = PressPlanner(session)
    out = Played(game)

    def press(button: str) -> None:
        run = session.current
        assert run is not None
        key = turn_of(run.state)
        if not out.turns or out.turns[-1].key != key:
            out.turns.append(Turn(key, 0, run.state, run.state))
        turn = out.turns[-1]
        turn.presses += 1
        session.handle(Press(button))
        now = session.current
        turn.last = now.state if now is not None else turn.last

    presses = 0
    refused = 0
    while presses < max_presses:
        run = session.current
        if run is None:
            raise RuntimeError(f"{game}: the game left the table: {session.message}")
        prompt = run.prompt()
        if prompt.done:
            out.finished = True
            break
        if session.menu_open:
            raise RuntimeError(f"{game}: a menu is open in play: {session.panel.menu}")
        wanted = session.wanted()
        if wanted:
            dice = DiceRolled(tuple(Die(k, rng.randint(1, FACES[k])) for k in wanted), "tower")
            session.handle(Roll.of(dice))
            out.throws += 1
            continue
        if prompt.shuffle:
            press("ROLL")
            presses += 1
            continue
        choices = session.options()
        if stop is not None and stop(run.state):
            break
        if not choices:
            raise RuntimeError(f"{game}: nothing to answer {prompt.short!r} with")
        table_sees = in_engine_order(run.game, run.state, choices)
        try:
            target = (choose or any_option())(rng, run.game, run.state, table_sees)
        except (AttributeError, KeyError, TypeError, ValueError, StopIteration):
            out.guessed += 1
            target = any_option()(rng, run.game, run.state, table_sees)
        path = planner.plan(target.event)
        out.decisions += 1
        if path is None:
            out.unreachable += 1
            session.handle(Decide(target.event))
            continue
        before = len(run.live)
        for button in path:
            press(button)
            presses += 1
        if session.menu_open and session.panel.menu is not None and session.panel.menu.title.endswith("?"):
            press("OK")  # the box asks before what ends the game: yes
            presses += 1
        now = session.current
        if now is None or len(now.live) == before:  # refused (a bid beyond the money): the cursor stays, try again
            refused += 1
            if refused > 50:
                raise RuntimeError(f"{game}: {refused} choices refused in a row: {session.message}")
            continue
        refused = 0
    return out
