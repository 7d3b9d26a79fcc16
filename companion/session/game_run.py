"""The game on the table and its journal: accept an event, replace the last roll, undo, mend a past entry.

The order inside each step is fixed: the engine accepts the event (or raises RuleError and nothing
changes), the journal commits it, and only then does the run's state move. What a screen shows is
therefore always on disk, and resuming is replaying the journal's live events.

Replaying from the first event grows with a game's length (slow to resume a long night's game), so every
:data:`~companion.journal.snapshots.SNAPSHOT_EVERY` live events the state is stored with the entry that
reached it, and resume and undo start from the newest stored state that still holds (the journal checks it
against the history it summarises: :mod:`companion.journal.snapshots`). Undo first looks in a small cache of
the states this run has passed through (:data:`STATE_CACHE`): a table undoing a few rolls never reads the disk.

A mend replaces one past live event and replays every later one on top, in memory, before anything is written:
if one of them no longer fits (:class:`MendRefused`) nothing is journaled and the game stays as it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.dice import DiceRolled, Event, Prompt
from companion.errors import CompanionError
from companion.games.base import Game, replay
from companion.inputs import RollRef
from companion.journal import Entry, GameRecord, Journal, LiveEvent, boards
from companion.journal.boards import files_in_force
from companion.journal.codec import Types, types_for
from companion.journal.history import LiveEvents, Point, prefix_from
from companion.journal.snapshots import SNAPSHOT_EVERY
from companion.journal.version import engine_version
from companion.sha256 import sha256


def stored_board(journal: Journal, record: GameRecord, maps: Path | None) -> tuple[Path | None, str]:
    """Where a resumed game's engine is loaded from: ``maps`` (the files in force) when they are the files the
    game began with (or it kept none, as an older journal's games), else a folder holding the ones it began with
    (:mod:`companion.journal.boards`), with the one line that says so."""
    stored = journal.game_files(record.id)
    if stored is None or stored == files_in_force(record.game, maps):
        return maps, ""
    return boards.folder_for(journal.path, stored), boards.CHANGED


class MendRefused(CompanionError):
    """A mend some later live event no longer fits: ``index`` is that event's place in the live list (from 0),
    ``state`` the state it met, ``reason`` what the engine said; nothing was written."""

    def __init__(self, index: int, event: Event, state: Any, reason: str) -> None:
        super().__init__(f"entry {index + 1} no longer fits: {reason}")
        self.index = index
        self.event = event
        self.state = state
        self.reason = reason


@dataclass(frozen=True)
class Mended:
    """What a mend changed: the state the mended entry met, and the states right after it and at the end, before
    and after the mend."""

    index: int
    before: Any
    then_before: Any
    then_after: Any
    now_before: Any
    now_after: Any


STATE_CACHE = 64
"""States kept in memory by live count: undo and re-roll within these many events cost no replay at all."""


def state_digest(game_id: int, game: Game[Any], options: Mapping[str, Any], live: Sequence[LiveEvent],
                 state: Any) -> str:
    """Fingerprint of a game: its journal id, live events (by their running digest, so a long game's roll does
    not serialise every event again) and what the engine says about the state."""
    chain = live.chain if isinstance(live, LiveEvents) else LiveEvents(live).chain
    prompt = game.prompt(state)
    payload = json.dumps([game_id, game.key, dict(options), chain, game.status(state), prompt.text,
                          list(game.recap(state))], sort_keys=True, default=str)
    return sha256(payload.encode()).hexdigest()[:16]


@dataclass
class GameRun:
    """One game being played: engine, options, journal id, live events and the state they fold to."""

    game: Game[Any]
    options: dict[str, Any]
    game_id: int
    journal: Journal
    live: LiveEvents = field(default_factory=LiveEvents)
    state: Any = None
    finished: bool = False
    """What the journal says: the game has ended."""
    before_commit: Callable[[str], None] | None = None
    """Called with the digest of the state about to be journaled (the crash tests log it)."""
    maps: Path | None = None
    """The maps folder the engine was loaded from (None: the files in force): part of the snapshots' version."""
    snapshots_later: bool = False
    """Keep a due snapshot for ``journal.store_later()`` instead of packing it into the roll's own transaction
    (the box: the loop stores it once the frame is shown)."""
    _states: dict[int, Any] = field(default_factory=dict, repr=False)
    """Recent states by live count, oldest first (at most STATE_CACHE)."""
    _types: Types | None = field(default=None, repr=False, compare=False)
    _prompted: tuple[Any, Prompt] | None = field(default=None, repr=False, compare=False)
    """The last state asked for its prompt, and the answer (states are immutable; a turn asks several times)."""

    def __post_init__(self) -> None:
        if not isinstance(self.live, LiveEvents):
            self.live = LiveEvents(self.live)
        if self.state is not None:  # resume builds the run first and loads its state after
            self._remember(len(self.live), self.state)

    @classmethod
    def new(cls, journal: Journal, game: Game[Any], options: Mapping[str, Any], maps: Path | None = None) -> GameRun:
        """A new game: the engine's starting state first (a RuleError leaves the journal untouched)."""
        state = game.new_game(options)
        game_id = journal.new_game(game.key, options, files_in_force(game.key, maps))
        return cls(game, dict(options), game_id, journal, LiveEvents(), state, maps=maps)

    @classmethod
    def resume(cls, journal: Journal, game: Game[Any], record: GameRecord, maps: Path | None = None) -> GameRun:
        """The game as its journal leaves it: from the newest snapshot that holds, else from the first event."""
        run = cls(game, dict(record.options), record.id, journal, LiveEvents(), None, record.finished, maps=maps)
        try:
            run.live, run.state = run._load(None)
        except CompanionError as exc:
            raise CompanionError(f"game {record.id} ({record.game}) does not replay: {exc}") from None
        return run

    @property
    def types(self) -> Types:
        """The classes this engine's states may be made of: all a snapshot may name (see
        :mod:`companion.journal.codec`)."""
        if self._types is None:
            self._types = types_for(self.game)
        return self._types

    @property
    def version(self) -> str:
        """The snapshots' version tag for this engine and its map data."""
        return engine_version(self.game, self.maps)

    # -- what the game says -------------------------------------------------------------------------

    def prompt(self) -> Prompt:
        prompted = self._prompted
        if prompted is None or prompted[0] is not self.state:
            prompted = self._prompted = (self.state, self.game.prompt(self.state))
        return prompted[1]

    def last_roll(self) -> DiceRolled | None:
        """The game's last event if it is a roll: what a re-roll would replace."""
        last = self.live[-1].event if self.live else None
        return last if isinstance(last, DiceRolled) else None

    def digest(self) -> str:
        return state_digest(self.game_id, self.game, self.options, self.live, self.state)

    # -- the three changes ----------------------------------------------------------------------------

    def accept(self, event: Event, rolls: Sequence[RollRef] = ()) -> None:
        """Apply, journal, then move: never the other way round. ``rolls`` are the source rolls the event's dice
        came from, journaled in the same entry (see :class:`companion.journal.Entry`)."""
        new_state = self.game.apply(self.state, event)  # RuleError: nothing changed
        self._commit(self.live.plus(LiveEvent(event)), new_state, Entry("event", event, tuple(rolls)))

    def replace_last(self, event: DiceRolled, rolls: Sequence[RollRef] = ()) -> None:
        """The last roll thrown again: the new dice replace it, marked as a re-roll (its rolls kept with it)."""
        shorter, base = self._back()
        new_state = self.game.apply(base, event)
        self._commit(shorter.plus(LiveEvent(event, rerolled=True)), new_state, Entry("reroll", event, tuple(rolls)),
                     forget_after=len(shorter))

    def undo(self) -> None:
        if not self.live:
            raise CompanionError("nothing to undo")
        shorter, state = self._back()
        self._commit(shorter, state, Entry("undo"), forget_after=len(shorter))

    def mend(self, index: int, event: Event, rolls: Sequence[RollRef] = ()) -> Mended:
        """The live event at ``index`` (from 0) replaced by ``event``, every later one replayed on top: refused
        (RuleError for ``event`` itself, :class:`MendRefused` naming the first later event that no longer fits)
        with nothing written, else journaled as one ``mend`` row before the run moves. Returns the states before
        and after, at the mended entry and now, for telling the table what the correction changed."""
        count = len(self.live)
        if not 0 <= index < count:
            raise CompanionError("no such entry to mend")
        old = self.live[index]
        before = self.state_at(index)
        was, now = self.state_at(index + 1), self.state
        state = self.game.apply(before, event)  # RuleError: nothing changed
        states = [state]
        for at in range(index + 1, count):
            later = self.live[at].event
            try:
                state = self.game.apply(state, later)
            except CompanionError as exc:
                raise MendRefused(at, later, state, str(exc)) from None
            states.append(state)
        live = self.live.replaced(index, LiveEvent(event, old.rerolled))
        self._commit(live, state, Entry("mend", event, tuple(rolls), index), forget_after=index)
        for stale in [n for n in self._states if n > index]:
            del self._states[stale]
        for n, reached in enumerate(states[-STATE_CACHE:], start=count + 1 - min(len(states), STATE_CACHE)):
            self._remember(n, reached)
        return Mended(index, before, was, states[0], now, state)

    def state_at(self, count: int) -> Any:
        """The state after the first ``count`` live events: from memory when this run has it, else from the
        newest snapshot at or before it (or the full replay)."""
        if count == len(self.live):
            return self.state
        if count in self._states:
            return self._states[count]
        return self._load(count)[1]

    def events_from(self, start: int) -> list[LiveEvent]:
        """The live events from ``start`` (from 0) on, oldest first (those only the journal holds read once)."""
        return [self.live[i] for i in range(max(0, start), len(self.live))]

    def _back(self) -> tuple[LiveEvents, Any]:
        """The live events without the last one and their state: from memory when this run has it, else from
        the newest snapshot before it (or, with none that holds, the full replay)."""
        count = len(self.live) - 1
        shorter = self.live.minus()
        if shorter is not None and count in self._states:
            return shorter, self._states[count]
        return self._load(count)

    def _load(self, count: int | None) -> tuple[LiveEvents, Any]:
        """The first ``count`` live events (None: all) as the journal holds them, and their state. Loading them
        all (a resume) starts, where it can, from a snapshot some event follows: the states replayed after it are
        remembered, so an undo right after the resume, the table's first press after a wrong roll and a power
        cut, costs no second load."""
        def fold(point: Point) -> tuple[list[Any], LiveEvents]:
            """The states after each wanted event of the tail, and the live list up to the last of them (its
            running digest): made while the journal checks the snapshot, so none of it waits for the check."""
            wanted = point.tail[:(len(point.tail) if count is None else count - point.live)]
            states, state = [], point.state
            for item in wanted:
                state = self.game.apply(state, item.event)
                states.append(state)
            live = LiveEvents(wanted, base=point.live, base_last=point.last, base_chain=point.chain,
                              prefix=prefix_from(lambda: self.journal.events(self.game_id)))
            return states, live

        point = self.journal.snapshot_point(self.game_id, self.version, self.types, count, one_after=count is None,
                                            fold=fold)
        if point is not None:
            states, live = point.folded
            state = point.state
            self._remember(point.live, state)
            for n, state in enumerate(states, start=point.live + 1):
                self._remember(n, state)
            return live, state
        events = self.journal.events(self.game_id)
        events = events if count is None else events[:count]
        state = replay(self.game, self.options, [x.event for x in events])
        self._remember(len(events), state)
        live = LiveEvents(events)
        if count is None and len(events) >= SNAPSHOT_EVERY and not self.journal.readonly:
            # A long game no stored state held for (its rules changed since, an imported game): the state this replay
            # reached is stored on the journal's snapshot path, so the next start does not replay it all again.
            self.journal.replayed(self.game_id, len(events), self.version, state, events[-1], live.chain, self.types)
        return live, state

    def _remember(self, count: int, state: Any) -> None:
        self._states.pop(count, None)
        self._states[count] = state
        while len(self._states) > STATE_CACHE:
            del self._states[next(iter(self._states))]

    def _commit(self, live: LiveEvents, state: Any, entry: Entry, forget_after: int | None = None) -> None:
        if self.before_commit is not None:
            self.before_commit(state_digest(self.game_id, self.game, self.options, live, state))
        count = len(live)
        snapshot = None
        if count and count % SNAPSHOT_EVERY == 0 and entry.kind != "undo":  # an undo lands on one still stored
            snapshot = (count, self.version, state, live[-1], live.chain, self.types)
        self.journal.append(self.game_id, entry, snapshot=snapshot, forget_after=forget_after,
                            later=self.snapshots_later)
        self.live, self.state = live, state
        for stale in [n for n in self._states if n > count]:  # states of events taken back
            del self._states[stale]
        self._remember(count, state)
        done = self.game.prompt(state).done
        if done != self.finished:  # the end reached, or taken back by an undo: resume must know which
            self.journal.mark_finished(self.game_id, done)
            self.finished = done
