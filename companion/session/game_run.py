"""The game on the table and its journal: accept an event, replace the last roll, undo.

The order inside each step is fixed: the engine accepts the event (or raises RuleError and nothing
changes), the journal commits it, and only then does the run's state move. What a screen shows is
therefore always on disk, and resuming is replaying the journal's live events.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.dice import DiceRolled, Event, Prompt, event_to_dict
from companion.errors import CompanionError
from companion.games.base import Game, replay
from companion.inputs import RollRef
from companion.journal import Entry, GameRecord, Journal, LiveEvent


def state_digest(game_id: int, game: Game[Any], options: Mapping[str, Any], live: Sequence[LiveEvent],
                 state: Any) -> str:
    """Fingerprint of a game: its journal id, live events and what the engine says about the state."""
    prompt = game.prompt(state)
    payload = json.dumps([game_id, game.key, dict(options), [[event_to_dict(x.event), x.rerolled] for x in live],
                          game.status(state), prompt.text, list(game.recap(state))], sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


@dataclass
class GameRun:
    """One game being played: engine, options, journal id, live events and the state they fold to."""

    game: Game[Any]
    options: dict[str, Any]
    game_id: int
    journal: Journal
    live: list[LiveEvent] = field(default_factory=list)
    state: Any = None
    finished: bool = False
    """What the journal says: the game has ended."""
    before_commit: Callable[[str], None] | None = None
    """Called with the digest of the state about to be journaled (the crash tests log it)."""

    @classmethod
    def new(cls, journal: Journal, game: Game[Any], options: Mapping[str, Any]) -> GameRun:
        """A new game: the engine's starting state first (a RuleError leaves the journal untouched)."""
        state = game.new_game(options)
        game_id = journal.new_game(game.key, options)
        return cls(game, dict(options), game_id, journal, [], state)

    @classmethod
    def resume(cls, journal: Journal, game: Game[Any], record: GameRecord) -> GameRun:
        live = journal.events(record.id)
        try:
            state = replay(game, record.options, [x.event for x in live])
        except CompanionError as exc:
            raise CompanionError(f"game {record.id} ({record.game}) does not replay: {exc}") from None
        return cls(game, dict(record.options), record.id, journal, live, state, record.finished)

    # -- what the game says -------------------------------------------------------------------------

    def prompt(self) -> Prompt:
        return self.game.prompt(self.state)

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
        self._commit([*self.live, LiveEvent(event)], new_state, Entry("event", event, tuple(rolls)))

    def replace_last(self, event: DiceRolled, rolls: Sequence[RollRef] = ()) -> None:
        """The last roll thrown again: the new dice replace it, marked as a re-roll (its rolls kept with it)."""
        base = replay(self.game, self.options, [x.event for x in self.live[:-1]])
        new_state = self.game.apply(base, event)
        self._commit([*self.live[:-1], LiveEvent(event, rerolled=True)], new_state,
                     Entry("reroll", event, tuple(rolls)))

    def undo(self) -> None:
        if not self.live:
            raise CompanionError("nothing to undo")
        state = replay(self.game, self.options, [x.event for x in self.live[:-1]])
        self._commit(self.live[:-1], state, Entry("undo"))

    def _commit(self, live: list[LiveEvent], state: Any, entry: Entry) -> None:
        if self.before_commit is not None:
            self.before_commit(state_digest(self.game_id, self.game, self.options, live, state))
        self.journal.append(self.game_id, entry)
        self.live, self.state = live, state
        done = self.game.prompt(state).done
        if done != self.finished:  # the end reached, or taken back by an undo: resume must know which
            self.journal.mark_finished(self.game_id, done)
            self.finished = done
