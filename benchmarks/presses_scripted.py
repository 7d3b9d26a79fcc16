"""Pieces of play written as a group enters them, counted through the real session (``python -m benchmarks presses``).

The whole games of :mod:`benchmarks.bench_presses` draw every answer at random, so the box's likely answers are
right only by chance there. The issue's own figures (an Age of Industry round of 73 presses, an Allegheny one-link
build of 10) were taken on pieces a group plays: a player building where the last entry was, in her own colour, her
own railroad from its newest end. These are those pieces, each written once here (the tests that check them step
by step read the same script) and pressed by the same planner as the whole games (:class:`PressPlanner`: the
fewest presses through the session's own buttons, whatever its menus are).
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.presses_play import PressPlanner
from companion.dice import Choice
from companion.games.base import Option
from companion.inputs import Decide, Press
from companion.journal import Journal
from companion.session.core import Session

INDUSTRY_ROUND: tuple[tuple[str, dict[str, Any]], ...] = (
    ("industry", {"location": "osaka", "kind": "iron", "owner": "Red"}),
    ("link", {"from": "osaka", "to": "kobe", "owner": "Red"}),
    ("card", {"space": 1, "how": "free", "player": "Blue"}),
    ("industry", {"location": "kobe", "kind": "port", "owner": "Blue"}),
    ("industry", {"location": "kobe", "kind": "cotton", "owner": "Green"}),
    ("link", {"from": "kobe", "to": "okayama", "owner": "Green", "end_turn": True}),
)
"""A Japan round for three players (docs/games/industry.md, "Presses"): Red's ironworks at Osaka and her link to
Kobe, Blue's display card and port at Kobe, Green's cotton mill at Kobe and her link to Okayama, which ends the turn."""

DECK_SEED = 33
"""The seed of the deck's shuffle the round's display is dealt from (the table deals)."""

ALLEGHENY_WINNERS: dict[str, int] = {"co": 1, "bo": 2, "nyc": 3, "bm": 1, "prr": 0}
"""The initial offering of a four-player Allegheny game, typed: Player 1 wins the PRR alone (and plays first)."""

ALLEGHENY_BUILD: tuple[Choice, ...] = (
    Choice("build_track", {"player": 1, "railroad": "prr"}),
    Choice("build", {"railroad": "prr", "link": ["harrisburg", "philadelphia"]}),
    Choice("done_building"),
)
"""Player 1's first turn: her PRR, one link from Philadelphia (its base, the only end) to Harrisburg, done."""


def deck_order(seed: int = DECK_SEED) -> list[str]:
    """The Japan deck as a table deals it: card kinds ("location" for a location card) in a seeded order, the next
    card dealt last in the list."""
    from companion.games.industry.data import load_all

    _rules, boards = load_all()
    cards = ["location" if c.startswith("at:") else c for c in boards["Japan"].deck]
    random.Random(seed).shuffle(cards)
    return cards


def leading_option(game: Any, state: Any, options: Sequence[Option], action: str,
                   args: Mapping[str, Any]) -> Option | None:
    """The option on the way to the entry ``action`` with ``args``: the one agreeing with them and giving the most;
    a page of names only when it holds such an option."""
    def fields(option: Option) -> set[str]:
        return set(option.event.args) - {"page"}

    best: Option | None = None
    for o in options:
        if o.event.action != action:
            continue
        given = {k: v for k, v in o.event.args.items() if k != "page"}
        if any(k not in args or args[k] != v for k, v in given.items()):
            continue
        if "page" in o.event.args:
            inside = game.apply(state, o.event)
            if leading_option(game, inside, [x for x in game.choices(inside) if "page" not in x.event.args],
                              action, args) is None:
                continue
        if best is None or len(given) > len(fields(best)):
            best = o
    return best


class Counted:
    """A session and the presses made on it: each answer reached by the planner's fewest presses, then pressed."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.planner = PressPlanner(session)
        self.count = 0

    def press(self, button: str) -> None:
        self.session.handle(Press(button))
        self.count += 1

    def pick(self, event: Choice) -> None:
        """The presses that enter ``event`` (an option offered now), pressed."""
        path = self.planner.plan(event)
        if path is None:
            raise RuntimeError(f"no presses reach {event}")
        for button in path:
            self.press(button)

    def enter(self, action: str, args: Mapping[str, Any]) -> None:
        """An entry made step by step, each step's answer the one leading to ``args`` (steps the box fills itself
        are not pressed)."""
        s = self.session
        for _ in range(12):
            run = s.current
            assert run is not None
            option = leading_option(run.game, run.state, s.options(), action, args)
            if option is None:
                raise RuntimeError(f"no option leads to {action} {dict(args)}: {[o.label for o in s.options()]}")
            self.pick(option.event)
            if s.current is None or not s.current.state.pending:
                return
        raise RuntimeError(f"entry {action} {dict(args)} not made in 12 steps")


@contextmanager
def _session() -> Iterator[Session]:
    with tempfile.TemporaryDirectory(prefix="bench-scripted-") as tmp, \
            Journal(Path(tmp) / "journal.sqlite") as journal:
        yield Session(journal)


def deal_display(counted: Counted, deck: list[str]) -> None:
    """The display's cards while the box asks for them: one ROLL when the box deals, else each card the table
    dealt (the next from ``deck``), picked from the kinds."""
    s = counted.session
    while s.current is not None and s.current.state.phase == "deal":
        if s.current.prompt().shuffle:
            counted.press("ROLL")
        else:
            counted.enter("deal", {"card": deck.pop()})


def industry_round(display: str) -> tuple[int, int]:
    """:data:`INDUSTRY_ROUND` with the display dealt by ``display`` ("table" or "box"): (presses for the six
    entries, for the whole round with the display's refill). The first deal of the display is not counted."""
    with _session() as s:
        s.start(game="industry", options={"map": "Japan", "players": 3, "display": display})
        deck = deck_order() if display == "table" else []
        deal_display(Counted(s), deck)
        counted = Counted(s)
        for action, args in INDUSTRY_ROUND:
            counted.enter(action, args)
        entries = counted.count
        deal_display(counted, deck)
        assert s.current is not None and s.current.state.turn == 2 and s.current.state.phase == "play"
        return entries, counted.count


def allegheny_offering(session: Session) -> None:
    """A four-player Allegheny game through its initial offering, typed (:data:`ALLEGHENY_WINNERS`)."""
    session.start(game="allegheny", options={"players": 4})
    while session.current is not None and (a := session.current.state.auction) is not None:
        wanted = ALLEGHENY_WINNERS[a.railroad]
        if (a.bidder == wanted and a.leader != wanted) or a.leader is None:
            session.handle(Decide(Choice("bid", {"amount": a.high + 1})))
        else:
            session.handle(Decide(Choice("pass", {})))
        if session.message:
            raise RuntimeError(session.message)


def _same(given: Any, wanted: Any) -> bool:
    """An argument as wanted (a link's two ends in either order)."""
    if isinstance(given, list | tuple) and isinstance(wanted, list | tuple):
        return sorted(given) == sorted(wanted)
    return bool(given == wanted)


def allegheny_build() -> int:
    """The presses of :data:`ALLEGHENY_BUILD`, a one-link build, after the offering."""
    with _session() as s:
        allegheny_offering(s)
        counted = Counted(s)
        for event in ALLEGHENY_BUILD:
            option = next((o for o in s.options() if o.event.action == event.action and
                           all(_same(o.event.args.get(k), v) for k, v in event.args.items())), None)
            if option is None:
                raise RuntimeError(f"{event} is not offered: {[o.label for o in s.options()]}")
            counted.pick(option.event)
        assert s.current is not None and s.current.state.current == 1 and len(s.current.state.tracks) == 1
        return counted.count
