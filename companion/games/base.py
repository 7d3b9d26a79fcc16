"""The contract every game engine keeps: pure, deterministic, driven only by events.

An engine is a small object with a few pure functions. State objects are immutable, so
``apply`` returns a new state and a refused event (RuleError) leaves the old one untouched.

Beyond the :class:`Game` core, an engine may offer optional hooks, each a typed Protocol below.
The session, the views and the commands ask ``isinstance(engine, HasChoices)`` (and so on; on every frame
through ``companion.conforms``, the same answer sooner), so a hook is declared once, here, with its signature,
and a game that has none still plays: its decisions are offered from the prompt's actions, its board drawn from
nothing but its places.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, TypeVar, runtime_checkable

from companion.dice import Choice, Event, Prompt
from companion.hexgrid import Hex
from companion.places import Board, Place, place_from_args

S = TypeVar("S")


class Game(Protocol[S]):
    """A game's disaster rules as a fold: ``state = apply(state, event)``."""

    key: str
    """Short name used on the command line and in the journal ("kansas")."""
    title: str
    """Name shown to people ("Age of Steam: Kansas Tornadoes")."""

    def new_game(self, options: Mapping[str, Any]) -> S:
        """The starting state; ``options`` (players, turn, ...) are journaled with the game."""
        ...

    def apply(self, state: S, event: Event) -> S:
        """The state after ``event``; raises RuleError and changes nothing if refused."""
        ...

    def prompt(self, state: S) -> Prompt:
        """What the game needs next."""
        ...

    def status(self, state: S) -> str:
        """Where the game is, one short line ("Turn 3 - tornado phase")."""
        ...

    def recap(self, state: S) -> tuple[str, ...]:
        """What just happened, a few short lines for the OLED ("Start: Dodge City")."""
        ...


@dataclass(frozen=True)
class Option:
    """One decision the table can take now: what the OLED lists, the event it sends, the place it concerns.

    ``label`` is written to fit the OLED (the engine's short form); ``text`` is the longer sentence for
    the projector, when the engine has one. ``place`` lets the projector's cursor sit on it. ``ends_turn`` marks
    an option that ends a player's turn though its action's name does not say so (Allegheny's "Done building"),
    so the cursor never starts on it (:func:`companion.session.choices.ends`).
    """

    label: str
    event: Choice
    place: Place | None = None
    text: str = ""
    ends_turn: bool = False

    @property
    def ends(self) -> bool:
        """The option ends a turn, a phase or the game: its action says so ("end", "end_turn", "end_game", ...), it
        is an entry's answer offered with the end of the turn (``end_turn`` among its arguments: Age of Industry's
        "Green, end turn"), or its engine marks it (:attr:`ends_turn`)."""
        action = self.event.action
        return self.ends_turn or action == "end" or action.startswith("end_") or self.event.args.get("end_turn") is True

    @property
    def hex(self) -> Hex | None:
        """The place when it is a hex (hex-board games and their tests speak of hexes)."""
        return self.place if isinstance(self.place, Hex) else None

    @classmethod
    def of(cls, label: str, event: Choice, place: Place | None = None, text: str = "",
           ends_turn: bool = False) -> Option:
        """An option whose place, unless given, is the one its event's arguments name."""
        return cls(label, event, place if place is not None else place_from_args(event.args), text, ends_turn)


class SetupQuestion(NamedTuple):
    """A question asked before a new game: the option it sets, its label, the values offered."""

    name: str
    label: str
    values: Sequence[Any]


@runtime_checkable
class HasChoices(Protocol):
    """An engine that lists its legal decisions, each as an :class:`Option`."""

    def choices(self, state: Any) -> Sequence[Option]: ...


@runtime_checkable
class HasSetupQuestions(Protocol):
    """An engine that asks questions before a new game (Kansas: how many play, which picks a table row)."""

    def setup_questions(self) -> Sequence[SetupQuestion]: ...


@runtime_checkable
class HasMapJson(Protocol):
    """An engine that publishes its board as data (``companion map GAME --json``)."""

    def map_json(self) -> dict[str, Any]: ...


@runtime_checkable
class HasCardsJson(Protocol):
    """An engine that publishes its decks as data (``companion cards GAME --json``)."""

    def cards_json(self) -> dict[str, Any]: ...


@runtime_checkable
class HasRiskMap(Protocol):
    """An engine that knows, exactly, how likely each place is to be hit by the coming disaster."""

    def risk_map(self, state: Any) -> Mapping[Place, float]: ...


@runtime_checkable
class HasBoard(Protocol):
    """An engine whose board the projector can draw with the shared painter of its shape."""

    def board_for(self, state: Any) -> Board:
        """The board as it stands in ``state`` (a square grid grows as tiles are laid)."""
        ...


@runtime_checkable
class NamesShuffledItems(Protocol):
    """An engine that can name the items its shuffle prompt orders (Stormfury: the cards of the deck), so a
    deal by dice says which card each throw picked ("Card 1: O3"), not only that one was picked."""

    def shuffled_items(self, state: Any) -> Sequence[str]:
        """The names of the items the current shuffle orders, in their index order."""
        ...


def replay(game: Game[S], options: Mapping[str, Any], events: Iterable[Event]) -> S:
    """Fold a journal's events over a new game: the single path for resume, undo and import."""
    state = game.new_game(options)
    for event in events:
        state = game.apply(state, event)
    return state
