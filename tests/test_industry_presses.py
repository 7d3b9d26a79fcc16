"""Age of Industry entries with few presses, counted through the real session (tests/entry_presses.py): the
likely answer first at every step (places near the last entry, the industry last built or the one the location's
own space takes, the player of the last entry as owner, those with actions left before those without, a rail link
first after a building by a player with an action left, the card kinds most numerous in the deck), each list laid
out round its likeliest answer (the next four one press away), a step the rules leave one answer to not asked, a
rail link going on from the new end, and the turn ended by the entry that takes the last player's last action
("Green, end turn", one press from the cursor: it ends the turn, so the cursor never starts on it).

The round (benchmarks/presses_scripted.py, the one the presses benchmark counts): Japan, three players, six
entries (two industries, a link, a display card, two industries and a link), the last one ending the turn, then
the display's refill, its cards dealt in the order of a seeded shuffle of the deck (the table deals: each card
named, one pick each) or by the box (one ROLL).

| | entries | End turn and refill | the round |
| --- | --- | --- | --- |
| before any defaults | 62 | 17 | 79 |
| before the turn's actions were counted | 31 | 14 | 45 |
| before the lists were laid out round the likeliest | 28 | 10 (the refill alone) | 38 |
| now, the table dealing | 27 | 6 (the refill alone) | 33 |
| now, the box dealing | 27 | 1 (one ROLL) | 28 |
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from entry_presses import Presses, enter

from benchmarks.presses_scripted import INDUSTRY_ROUND, deck_order, industry_round
from companion.dice import Choice
from companion.inputs import Decide
from companion.journal import Journal
from companion.session import Session

ROUND_TARGET = 35
"""Issue target: an Age of Industry round for three players in at most 35 presses, the end of the turn and the
display's refill included: met with the table dealing the display (each card named) and with the box dealing it."""
ENTRIES_BOUND = 27
"""The six entries of the round, the last ending the turn: 27 measured (28 before the lists were laid out round
the likeliest, 62 before any defaults)."""


@pytest.fixture
def journal(tmp_path: Path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def play_round(s: Session, deal: list[str]) -> tuple[int, int]:
    """The round's six entries, the last one ending the turn, then the refill: (presses for the entries, for all)."""
    assert s.current is not None
    p = Presses(s)
    for action, args in INDUSTRY_ROUND:
        enter(p, action, **args)
    entries = p.count
    assert s.current.state.turn == 2 and s.current.state.acted == ()
    while s.current.state.phase == "deal":
        if s.current.prompt().shuffle:
            p.press("ROLL")
        else:
            enter(p, "deal", card=deal.pop())
    state = s.current.state
    assert [(r.link.ends(), r.owner) for r in state.rails] == [(("kobe", "osaka"), "Red"),
                                                                 (("kobe", "okayama"), "Green")]
    assert {(c.location, c.kind, c.owner) for c in state.counters} == {
        ("osaka", "iron", "Red"), ("kobe", "port", "Blue"), ("kobe", "cotton", "Green")}
    assert state.phase == "play" and all(slot.card and not slot.taken for slot in state.display)
    return entries, p.count


def test_a_japan_round_for_three_players(journal: Journal) -> None:
    s = Session(journal)
    s.start(game="industry", options={"map": "Japan", "players": 3})
    assert s.current is not None
    deal = deck_order()
    while s.current.state.phase == "deal":
        enter(Presses(s), "deal", card=deal.pop())
    entries, whole = play_round(s, deal)
    print(f"Japan round, 3 players, the table deals: {entries} presses for the entries, {whole} with the refill")
    assert entries <= ENTRIES_BOUND, entries
    assert whole <= ROUND_TARGET, whole
    assert industry_round("table") == (entries, whole)  # the benchmark's planner counts the same presses


def test_a_japan_round_for_three_players_with_the_box_dealing(journal: Journal) -> None:
    s = Session(journal)
    s.start(game="industry", options={"map": "Japan", "players": 3, "display": "box"})
    assert s.current is not None
    while s.current.state.phase == "deal":
        Presses(s).press("ROLL")
    entries, whole = play_round(s, [])
    print(f"Japan round, 3 players, the box deals: {entries} presses for the entries, {whole} with the refill")
    assert entries <= ENTRIES_BOUND, entries
    assert whole <= ROUND_TARGET, whole
    assert industry_round("box") == (entries, whole)


def test_each_step_starts_on_the_likely_answer(journal: Journal) -> None:
    """After an entry at Kobe by Blue: a build lists Kobe first, then its neighbours; the kind its free port space
    takes comes first; the owner list starts at Blue; a rail link starts at Kobe without asking (the OLED says
    so) and a link with one legal end is not asked for."""
    s = Session(journal)
    s.start(game="industry", options={"map": "Japan", "players": 3})
    assert s.current is not None
    for card in deck_order()[:6]:
        enter(Presses(s), "deal", card=card)
    p = Presses(s)
    enter(p, "link", **{"from": "osaka", "to": "kobe", "owner": "Blue"})
    p.pick("Build industry")
    assert under_cursor(s) == "Kobe" and likeliest(s)[0] == "Kobe"
    assert set(likeliest(s)[1:3]) == {"Okayama", "Osaka"}  # a link from Kobe (Takamatsu's sea lane too)
    p.pick("Kobe")
    assert under_cursor(s) == "Port"  # Kobe's own port space
    p.pick("Port")
    assert under_cursor(s) == "Blue" and likeliest(s)[:3] == ["Blue", "Green", "Red"]
    assert {"Green", "Red"} <= one_press_away(s)
    p.pick("Blue")
    p.pick("Build rail link")
    # from Kobe, where the last entry was; Okayama is the one link left there, taken without asking; the OLED
    # names the link
    assert s.current.state.pending_args() == {"from": "kobe", "to": "okayama"}
    assert s.panel.prompt is not None and s.panel.prompt.short == "Kobe-Okayama"
    # Blue has taken her two actions (the link, the port): the players with actions left come first
    assert under_cursor(s) == "Green" and likeliest(s)[:3] == ["Green", "Red", "Blue"]
    assert "Other start" in s.panel.menu.items
    p.pick("Other start")
    assert under_cursor(s) == "Kobe" and s.panel.prompt.short == "From where?"
    p.pick("Osaka")
    assert s.current.state.pending_args() == {"from": "osaka", "to": "kyoto"}  # the one link left from Osaka
    assert s.panel.prompt.short == "Osaka-Kyoto"


def under_cursor(s: Session) -> str:
    """The option the cursor is on, as the OLED shows it."""
    menu = s.panel.menu
    assert menu is not None
    return menu.items[menu.selected]


def likeliest(s: Session) -> list[str]:
    """The engine's own order of the answers, likeliest first (the session lays them out round the first)."""
    assert s.current is not None
    return [o.label for o in s.current.game.choices(s.current.state)]


def one_press_away(s: Session) -> set[str]:
    """The answers one arrow from the cursor (then OK)."""
    return {o.label for i, o in enumerate(s.options()) if len(s.presses_to(i)) == 2}


def test_a_single_answer_never_completes_an_entry_so_older_journals_replay_step_by_step(journal: Journal) -> None:
    """The last step is the table's press even with one answer: a journal from before gave every step in its own
    event ("market" {}, then "market" {"space": ...}); were the entry completed on the box's own answer, the
    second event would be a second sale."""
    s = Session(journal)
    s.start(game="industry", options={"map": "Japan", "players": 3})
    assert s.current is not None
    for card in deck_order()[:6]:
        enter(Presses(s), "deal", card=card)
    for action, args in (("industry", {"location": "okayama", "kind": "port", "owner": "Red"}),
                         ("industry", {"location": "takamatsu", "kind": "port", "owner": "Blue"}),
                         ("ship", {"space": "bingo", "owner": "Blue", "tech": 1}),
                         ("market", {})):
        s.handle(Decide(Choice(action, args)))
        assert not s.message, s.message
    assert s.current.state.pending == "market"  # one ship with a market, still asked
    assert s.panel.menu is not None and s.panel.menu.items == ("Bingo Nada", "Cancel")
    s.handle(Decide(Choice("market", {"space": "bingo"})))
    assert s.current.state.ship("bingo").market_sold and not s.current.state.pending
    again = Session(journal)
    again.start()
    assert again.current is not None and again.current.state == s.current.state


def test_the_titles_naming_a_link_fit_the_oled_beside_the_towers_word(journal: Journal) -> None:
    """"From Kobe to?" and "Kobe-Okayama" name the end and the link: whole on the OLED's title, beside the tower's
    word, for every location and link of both maps (the question is dropped before a name is cut)."""
    from companion.views.oled import SMALL, WIDTH, fit_title, text_width

    room = WIDTH - 1 - (text_width("tower", SMALL) + 4) - 1
    s = Session(journal)
    s.start(game="industry", options={"map": "Japan", "players": 3})
    assert s.current is not None
    game = s.current.game
    for name, board in game.boards.items():
        state = game.new_game({"map": name, "players": 3})
        state = replace(state, phase="play", beside=())
        for link in sorted(board.links):
            for a, b in ((link.a, link.b), (link.b, link.a)):
                for args in ({"from": a}, {"from": a, "to": b}):
                    title = game.prompt(replace(state, pending="link", args=tuple(args.items()))).short
                    assert fit_title(title, SMALL, room) == title, title
                    assert title.startswith("From ") or "-" in title
