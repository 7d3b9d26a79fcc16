"""Mend a past entry in place: a wrong tile, build or decision, or a mis-typed die, corrected without undoing
every later event.

The main menu's "Mend an entry" lists the past entries newest first, each by the words the table saw when it
made it (the option's label, the dice as the OLED says them), a page at a time. Picking one offers what was
legal at that point: the engine's own options for a decision (the one taken marked ``*`` and the cursor on
it), or the dice of a roll to type again (UP/DOWN change the die under the cursor, LEFT/RIGHT move between
dice, ROLL or a throw on the tower sets them, OK enters). The run then replays every later entry on top.

A mend can make a later entry illegal (a counter built elsewhere, and a cube taken later from where it stood): the
box of a game that can set an entry aside (:class:`Drops`: Age of Industry) names that entry ("entry 12 (1 iron
from Red's ironworks in Osaka) no longer fits") and offers what is legal there now, in the same go: another
answer, "Drop it", or "Leave all as it was" (nothing written). The chain goes on until every later entry fits.
Only then is anything written: one journaled mend row at a time (:meth:`GameRun.mend`, each on disk before the
next), in an order in which every row leaves a game that replays (the later entries first, or set aside first and
given their new answer after), so the journal folds row by row and a power cut between two rows leaves a game
that resumes. Another game's mend that a later entry no longer fits is refused in one line naming that entry,
nothing written: without setting entries aside, such a chain could not be written one replayable row at a time.
A screen then says what changed, by comparing what the engine already says of its states (its status and recap)
before and after.

Generic: it asks the engine only for the :class:`~companion.games.base.Game` contract and its options, so
every game can be mended the same way. A shuffle is not listed (it is dealt again by undoing it).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol, runtime_checkable

from companion.dice import FACES, Choice, DiceRolled, Die, Event, Shuffled, event_to_dict, match_dice
from companion.errors import CompanionError
from companion.games.base import Game, Option
from companion.places import Place, place_from_args
from companion.read_confirm import say_dice
from companion.session.choices import options_for
from companion.session.game_run import GameRun, Mended
from companion.session.menus import MenuState

log = logging.getLogger(__name__)

PAGE = 8
"""Entries listed at a time: describing one asks the engine for the options of the state before it (a long
list for a Carcassonne space), so older ones are listed only when asked for ("Older entries")."""

CHANGES = 8
"""Lines at most on the screen that says what a mend changed, beyond the entry's own two (now, was)."""

MARK = "* "
"""Before the option that was taken, in the list of what was legal at that point."""

DROP = "Drop it"
LEAVE = "Leave all as it was"


@runtime_checkable
class Drops(Protocol):
    """A game that can set a past entry aside at a mend: the event standing in its place changes nothing."""

    def dropped(self) -> Event: ...


@dataclass(frozen=True)
class Broken:
    """The first later entry a chain of changes leaves illegal: its index, the state it met, the engine's reason."""

    index: int
    state: Any
    reason: str


def same_event(a: Event, b: Event) -> bool:
    """Equal as the journal writes them (a tuple in one and a list in the other, as JSON reads back, match)."""
    return json.dumps(event_to_dict(a), sort_keys=True) == json.dumps(event_to_dict(b), sort_keys=True)


def offered(game: Game[Any], state: Any) -> list[Option]:
    """What the table could decide in ``state``: the engine's options (one per prompt action without them)."""
    prompt = game.prompt(state)
    return options_for(game, state, prompt) if prompt.actions else []


def describe(game: Game[Any], state: Any, event: Event) -> str:
    """An entry in the table's words: the label of the option it was (``state`` is the state before it), the
    dice as the OLED says them, else the engine's recap of what it did. Never an action code or its args."""
    return described(game, state, event)[0]


def described(game: Game[Any], state: Any, event: Event) -> tuple[str, Place | None]:
    """An entry in the table's words (:func:`describe`) and the place it concerns (that of the option it was, else
    the one its details name; None for a roll): the projector rings it while the entry is under the cursor."""
    if isinstance(event, DiceRolled):
        return f"Roll {say_dice(event.dice)}", None
    if isinstance(event, Shuffled):
        return "Cards shuffled", None
    named = place_from_args(event.args) if isinstance(event, Choice) else None
    for option in offered(game, state):
        if same_event(option.event, event):
            return option.label, option.place if option.place is not None else named
    try:
        lines = game.recap(game.apply(state, event))
    except CompanionError:
        lines = ()
    prompt = game.prompt(state)
    return (lines[-1] if lines else (prompt.short or prompt.text)), named


def did(game: Game[Any], state: Any, event: Event) -> str:
    """What an entry did, in the engine's words (its recap after it: "Red: cotton mill in Osaka"); the entry as the
    table picked it (:func:`describe`) when the recap says nothing or the entry no longer fits there."""
    try:
        lines = game.recap(game.apply(state, event))
    except CompanionError:
        lines = ()
    return "; ".join(lines) if lines else describe(game, state, event)


def changes(game: Game[Any], mended: Mended) -> list[str]:
    """What a mend changed beyond the entry itself, in the engine's own words: its recap right after the mended
    entry, and its status and recap now, compared before and after (lines that went: "was: ...", lines that
    came: "now: ...")."""
    lines: list[str] = []

    def compare(before: Sequence[str], after: Sequence[str]) -> None:
        for line in after:
            if line not in before:
                lines.append(f"now: {line}")
        for line in before:
            if line not in after:
                lines.append(f"was: {line}")

    compare(game.recap(mended.then_before), game.recap(mended.then_after))
    compare([game.status(mended.now_before)], [game.status(mended.now_after)])
    compare(game.recap(mended.now_before), game.recap(mended.now_after))
    unique = list(dict.fromkeys(lines))
    return unique[:CHANGES] or ["Nothing else changed"]


@dataclass
class DiceMenu(MenuState):
    """The dice of a past roll typed again, as the request takes a typed die: UP/DOWN change the die under the
    cursor, LEFT/RIGHT move between dice, ROLL throws them all, a throw from a source (the tower) replaces the dice
    of its kinds (:meth:`thrown`), OK enters, BACK leaves."""

    dice: list[Die] = field(default_factory=list)
    enter: Callable[[DiceRolled], None] | None = None
    throw: Callable[[tuple[str, ...]], DiceRolled] | None = None
    source: str = "typed"
    """Where the dice on the menu came from last (typed, the box's ROLL, a source's throw): journaled with them."""

    def __post_init__(self) -> None:
        self.labels = [str_die(d) for d in self.dice]
        self.actions = [self._enter] * len(self.dice)
        self.take_dice = self.thrown

    def thrown(self, rolled: DiceRolled) -> None:
        """Dice thrown (on the tower, smart dice) while the roll is mended: each replaces the next die of its kind
        not yet replaced; OK then enters them. Dice of no kind asked: refused in one line."""
        dice = rolled.dice
        kinds = [d.kind for d in self.dice]
        match = match_dice(kinds, dice)
        if not match.taken:
            need = " + ".join(k.upper() for k in kinds)
            raise CompanionError(f"need {need}, got {', '.join(str(d) for d in dice) or 'no dice'}")
        free = list(range(len(self.dice)))
        for die in match.taken:
            at = next(i for i in free if self.dice[i].kind == die.kind)
            free.remove(at)
            self.dice[at] = die
        self.source = rolled.source
        self.labels = [str_die(d) for d in self.dice]

    def press(self, button: str) -> None:
        if button in ("UP", "DOWN"):
            die = self.dice[self.selected]
            step = 1 if button == "UP" else -1
            self.dice[self.selected] = Die(die.kind, (die.value - 1 + step) % FACES[die.kind] + 1)
            self.source = "typed"
        elif button == "ROLL" and self.throw is not None:
            rolled = self.throw(tuple(d.kind for d in self.dice))
            self.dice, self.source = list(rolled.dice), rolled.source
        else:
            super().press(button)
            return
        self.labels = [str_die(d) for d in self.dice]

    def _enter(self) -> None:
        if self.enter is not None:
            self.enter(DiceRolled(tuple(self.dice), self.source))


def str_die(die: Die) -> str:
    return f"{die.kind.upper()} {die.value}"


class MendFlow:
    """The menus of one mend, on the game on the table. ``show`` puts a menu on the OLED (None: back to the
    game), ``say`` the footer's line, ``back`` reopens the main menu, ``throw`` rolls dice for ROLL."""

    def __init__(self, run: GameRun, show: Callable[[MenuState | None], None], say: Callable[[str], None],
                 back: Callable[[], None], throw: Callable[[tuple[str, ...]], DiceRolled] | None = None) -> None:
        self.run = run
        self.game = run.game
        self._show = show
        self._say = say
        self._back = back
        self._throw = throw

    # -- which entry --------------------------------------------------------------------------------

    def entries(self, newest: int | None = None) -> None:
        """The past entries from ``newest`` (from 0; None: the last) back, a page of them, newest first."""
        count = len(self.run.live)
        if not count:
            self._say("nothing to mend yet")
            self._back()
            return
        high = count - 1 if newest is None else min(newest, count - 1)
        low = max(0, high - PAGE + 1)
        events = self.run.events_from(low)[:high - low + 1]
        state = self.run.state_at(low)
        found: list[tuple[int, str, Any]] = []
        places: list[Place | None] = []
        for index, item in enumerate(events, start=low):
            if not isinstance(item.event, Shuffled):
                text, place = described(self.game, state, item.event)
                found.append((index, text, state))
                places.append(place)
            if index < high:
                state = self.game.apply(state, item.event)
        found.reverse()
        places.reverse()
        labels = [f"{index + 1}. {text}" for index, text, _ in found]
        actions: list[Callable[[], None]] = [partial(self.pick, index, before, high)
                                              for index, _, before in found]
        if low > 0:
            labels.append("Older entries")
            actions.append(partial(self.entries, low - 1))
        if not labels:
            labels, actions = ["(only shuffles here)"], [self._back]
        self._show(MenuState("Mend which entry?", labels, actions, back=self._back, places=places))

    def pick(self, index: int, before: Any, page: int | None = None) -> None:
        """What was legal before entry ``index``: the engine's options, or the dice of a roll to type again (BACK:
        the page of entries listed from ``page``)."""
        back = partial(self.entries, page)
        old = self.run.live[index].event
        if isinstance(old, DiceRolled):
            self._show(DiceMenu(f"Entry {index + 1} was {say_dice(old.dice)}", [], [], back=back,
                                dice=list(old.dice), throw=self._throw,
                                enter=partial(self.apply, index)))
            return
        options = offered(self.game, before)
        at = next((i for i, o in enumerate(options) if same_event(o.event, old)), None)
        if at is None and isinstance(old, Choice):  # a step the engine does not list (a whole tile at once): first
            options.insert(0, Option(describe(self.game, before, old), old))
            at = 0
        if not options:
            self._say(f"entry {index + 1} has nothing else it could have been")
            return
        labels = [(MARK if i == at else "") + o.label for i, o in enumerate(options)]
        self._show(MenuState(f"Entry {index + 1}: instead", labels,
                             [partial(self.apply, index, o.event) for o in options],
                             back=back, selected=at or 0, places=[o.place for o in options]))

    # -- the mend ---------------------------------------------------------------------------------------

    def apply(self, index: int, event: Event) -> None:
        """Mend entry ``index`` with ``event``: refused in one line (nothing written), or journaled and what it
        changed shown."""
        old = self.run.live[index].event
        if same_event(old, event) or (isinstance(old, DiceRolled) and isinstance(event, DiceRolled)
                                      and old.dice == event.dice):
            self._show(None)
            self._say(f"entry {index + 1} unchanged")
            return
        self.chain({index: event})

    # -- a chain of mends -------------------------------------------------------------------------------

    def chain(self, changed: Mapping[int, Event]) -> None:
        """Mend the entries in ``changed`` (index -> its new event; the first is the one the table picked): when a
        later entry no longer fits, ask what it becomes; when all fit, write them and say what changed."""
        try:
            broken = self.broken(changed)
        except CompanionError as exc:  # the first change itself refused
            self._show(None)
            self._say(f"not mended: {exc}")
            return
        if broken is None:
            self._write(dict(changed))
            return
        old = self.run.live[broken.index].event
        log.info("mend: entry %d no longer fits: %s", broken.index + 1, broken.reason)
        if not isinstance(self.game, Drops):  # its later entries could not be written one mend row at a time
            self._show(None)
            later = describe(self.game, self.run.state_at(broken.index), old)  # as the table entered it
            self._say(f"not mended: entry {broken.index + 1} ({later}) would no longer fit")
            return
        was = did(self.game, self.run.state_at(broken.index), old)  # what it did, in the engine's words
        options = offered(self.game, broken.state)
        labels = [o.label for o in options]
        actions: list[Callable[[], None]] = [partial(self.chain, {**changed, broken.index: o.event}) for o in options]
        places: list[Place | None] = [o.place for o in options]
        labels += [DROP, LEAVE]
        actions += [partial(self.chain, {**changed, broken.index: self.game.dropped()}), self._leave]
        places += [None, None]
        self._show(MenuState(f"Entry {broken.index + 1} then?", labels, actions, back=self._leave, places=places))
        self._say(f"entry {broken.index + 1} ({was}) no longer fits: mend it too, or drop it")

    def _leave(self) -> None:
        self._show(None)
        self._say("not mended: all left as it was")

    def broken(self, changed: Mapping[int, Event]) -> Broken | None:
        """The first later entry that no longer fits with ``changed`` in place, replayed from the first change on
        (None: every one fits). The first change itself refused raises the engine's error."""
        first = min(changed)
        state = self.run.state_at(first)
        for index, item in enumerate(self.run.events_from(first), start=first):
            try:
                state = self.game.apply(state, changed.get(index, item.event))
            except CompanionError as exc:
                if index == first:
                    raise
                return Broken(index, state, str(exc))
        return None

    def rows(self, changed: Mapping[int, Event]) -> list[tuple[int, Event]] | None:
        """The mend rows to write, in an order in which each leaves a game that replays: the later entries first
        (newest first), then the one the table picked; else, for a game that can drop an entry, the later ones
        dropped first, the picked one, then the later ones given their new answer. None: no such order."""
        first = min(changed)
        later = sorted(i for i in changed if i != first)
        orders = [[*((i, changed[i]) for i in reversed(later)), (first, changed[first])]]
        if isinstance(self.game, Drops) and later:  # (always so: only such a game is asked for a chain)
            drop = self.game.dropped()
            orders.append([*((i, drop) for i in reversed(later)), (first, changed[first]),
                           *((i, changed[i]) for i in later if not same_event(changed[i], drop))])
        for order in orders:
            done: dict[int, Event] = {}
            for index, event in order:
                done[index] = event
                try:
                    if self.broken(done) is not None:
                        break
                except CompanionError:
                    break
            else:
                return order
        return None

    def _write(self, changed: dict[int, Event]) -> None:
        """Journal the chain row by row and show what it changed."""
        first = min(changed)
        order = self.rows(changed)
        if order is None:
            self._show(None)
            self._say(f"not mended: the entries from {first + 1} on depend on each other too closely")
            return
        was = {i: did(self.game, self.run.state_at(i), self.run.live[i].event) for i in changed}
        was[first] = describe(self.game, self.run.state_at(first), self.run.live[first].event)
        before, then_before, now_before = self.run.state_at(first), self.run.state_at(first + 1), self.run.state
        try:
            for index, event in order:
                if not same_event(self.run.live[index].event, event):
                    self.run.mend(index, event)
        except CompanionError as exc:  # not expected: every row was tried first; what is written replays
            self._show(None)
            self._say(f"not mended in full: {exc}")
            return
        mended = Mended(first, before, then_before, self.run.state_at(first + 1), now_before, self.run.state)
        head = [f"now: {describe(self.game, before, changed[first])}", f"was: {was[first]}"]
        for index in sorted(changed)[1:]:
            event = changed[index]
            if isinstance(self.game, Drops) and same_event(event, self.game.dropped()):
                head.append(f"entry {index + 1} dropped: {was[index]}")
            else:
                now = did(self.game, self.run.state_at(index), event)
                head += [f"entry {index + 1} now: {now}", f"entry {index + 1} was: {was[index]}"]
        more = changes(self.game, mended)
        if len(changed) > 1 and more == ["Nothing else changed"]:
            more = []
        lines = list(dict.fromkeys([*head, *more]))
        close = [lambda: self._show(None)] * len(lines)
        self._show(MenuState(f"Entry {first + 1} mended", lines, close, back=lambda: self._show(None)))
