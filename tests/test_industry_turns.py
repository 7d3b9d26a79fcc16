"""The turn's actions, through the real session: each player takes ``players.actions_per_turn`` actions a turn (the
base rules' two, a reading in maps/industry.toml); the box counts the entries that are actions, lists first the
players who may still act, and offers the entry that takes the last player's last action as the end of the turn
too ("Green, end turn"), beside the same answer with the turn going on. End turn stays for what is not counted."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from entry_presses import Presses

from companion.dice import Choice
from companion.inputs import Decide, Hold, Press
from companion.journal import Journal
from companion.paths import maps_dir
from companion.session import Session
from tests.conftest import edit_map

SIX = ("coal", "cotton", "location", "ship", "iron", "goods")
"""The Japan display as dealt: coal and ironworks cards leave it at the end of the turn."""


@pytest.fixture
def journal(tmp_path: Path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def japan(journal: Journal, maps: Path | None = None) -> Session:
    s = Session(journal, maps=maps)
    s.start(game="industry", options={"map": "Japan", "players": 3})
    for card in SIX:
        decide(s, "deal", card=card)
    return s


def decide(s: Session, action: str, **args: object) -> None:
    s.handle(Decide(Choice(action, args)))
    assert not s.message, s.message


def items(s: Session) -> tuple[str, ...]:
    """The answers in the engine's own order, likeliest first (the OLED lays them out round the first)."""
    assert s.current is not None and s.panel.menu is not None
    out = tuple(o.label for o in s.current.game.choices(s.current.state))
    assert set(out) == set(s.panel.menu.items)
    return out


def under_cursor(s: Session) -> str:
    assert s.panel.menu is not None
    return s.panel.menu.items[s.panel.menu.selected]


def five_actions(s: Session) -> None:
    """Red and Blue take their two actions, Green one."""
    decide(s, "industry", location="osaka", kind="iron", owner="Red")
    decide(s, "link", **{"from": "osaka", "to": "kobe", "owner": "Red"})
    decide(s, "industry", location="kobe", kind="port", owner="Blue")
    decide(s, "industry", location="kyoto", kind="cotton", owner="Blue")
    decide(s, "industry", location="okayama", kind="port", owner="Green")


def test_the_players_with_actions_left_are_asked_for_first(journal: Journal) -> None:
    s = japan(journal)
    decide(s, "industry", location="osaka", kind="iron", owner="Red")
    decide(s, "link", **{"from": "osaka", "to": "kobe", "owner": "Red"})
    assert s.current is not None and s.current.state.actions_of("Red") == 2
    decide(s, "industry", location="kobe")
    decide(s, "industry", location="kobe", kind="port")
    assert items(s)[:3] == ("Blue", "Green", "Red")  # Red has taken her two: the next seat first, Red last


def test_the_entry_taking_the_last_action_ends_the_turn_one_press_from_the_cursor(journal: Journal) -> None:
    """"At the end of the turn remove any coal or ironworks cards ... move all of the remaining cards to the lower
    value spaces ... refill the display": the turn ends when Green takes her second action, the OLED saying so on
    the answer itself; the display slides and its refill is asked at once. The answer that ends the turn is never
    where the cursor starts (no single press ends a turn by accident): one press away."""
    s = japan(journal)
    five_actions(s)
    decide(s, "link", **{"from": "okayama", "to": "kobe"})
    assert items(s)[0] == "Green, end turn"
    assert under_cursor(s) == items(s)[1]  # not under the cursor: the next answer is
    assert "Green, turn goes on" in items(s) and items(s).index("Green, turn goes on") > items(s).index("Red")
    p = Presses(s)
    p.pick("Green, end turn")
    assert p.count == 2  # an arrow, then OK
    assert s.current is not None
    state = s.current.state
    assert state.turn == 2 and state.phase == "deal" and state.acted == ()
    assert [slot.card for slot in state.display] == ["cotton", "location", "ship", "goods", "", ""]
    assert s.panel.result[0] == "Green: rail Okayama - Kobe ($5)"
    assert "Turn 2: display slides, 2 to deal" in s.panel.result and "Discarded: Coal mine, Ironworks" in s.panel.result
    assert s.panel.prompt is not None and s.panel.prompt.short == "Space 5: which card?"
    assert s.current.live[-1].event == Choice("link", {"from": "okayama", "to": "kobe", "owner": "Green",
                                                      "end_turn": True})
    s.handle(Hold("BACK"))
    s.handle(Press("OK"))  # "Undo last?" yes: the entry and the end of the turn go together
    state = s.current.state
    assert state.turn == 1 and state.phase == "play" and state.pending == "link" and state.actions_of("Green") == 1


def test_the_turn_goes_on_when_the_table_says_so_and_end_turn_stays(journal: Journal) -> None:
    s = japan(journal)
    five_actions(s)
    decide(s, "link", **{"from": "okayama", "to": "kobe"})
    Presses(s).pick("Green, turn goes on")
    assert s.current is not None and s.current.state.turn == 1 and s.current.state.actions_of("Green") == 2
    assert "End turn" in items(s)
    [iron] = s.current.state.at("osaka")
    decide(s, "take", source=f"osaka/{iron.space}")  # a cube for the ironworks' build: no action, nothing ends
    decide(s, "end_turn")
    assert s.current.state.turn == 2 and s.current.state.phase == "deal"


def test_a_card_paid_for_is_the_action_it_pays_for_and_sales_in_a_row_are_one(journal: Journal) -> None:
    """"Alternatively, you can pay the amount marked under the space to take a card and use it immediately": the
    paid card and its build are one action; two free cards in a row (Take Cards) are one action too."""
    s = japan(journal)
    decide(s, "card", space=0, how="paid", player="Red")
    decide(s, "industry", location="osaka", kind="iron", owner="Red")
    assert s.current is not None and s.current.state.acted == (("Red", "build"),)
    decide(s, "card", space=1, how="free", player="Blue")
    decide(s, "card", space=2, how="free", player="Blue")
    assert s.current.state.acted == (("Red", "build"), ("Blue", "cards"))
    decide(s, "card", space=3, how="free", player="Red")
    assert s.current.state.actions_of("Red") == 2


def test_minnesota_sales_in_a_row_by_one_player_are_one_action(journal: Journal) -> None:
    s = Session(journal)
    s.start(game="industry", options={"map": "Minnesota", "players": 2})
    decide(s, "deal", card="port")
    decide(s, "deal", card="iron")
    decide(s, "industry", location="duluth", kind="port", owner="Red")
    decide(s, "link", **{"from": "duluth", "to": "eveleth", "owner": "Red"})
    decide(s, "industry", location="eveleth", kind="iron", owner="Blue")
    decide(s, "sell", player="Blue", source="eveleth/0", target="demand:iron")
    decide(s, "sell", player="Blue", source="eveleth/0", target="demand:iron")
    assert s.current is not None and s.current.state.acted == (("Red", "build"), ("Red", "link"),
                                                              ("Blue", "build"), ("Blue", "sell"))
    assert s.current.state.turn == 1  # typed decisions end nothing: only the answer that says so does


def test_a_journal_from_before_replays_as_it_was_made(journal: Journal) -> None:
    """An entry without ``end_turn`` (every journal written before the box counted actions) ends nothing, even
    the last action; its own End turn then ends the turn, once."""
    s = japan(journal)
    five_actions(s)
    decide(s, "link", **{"from": "okayama", "to": "kobe", "owner": "Green"})
    assert s.current is not None and s.current.state.turn == 1
    decide(s, "end_turn")
    again = Session(journal)
    again.start()
    assert again.current is not None and again.current.state == s.current.state
    assert again.current.state.turn == 2


@pytest.mark.parametrize(("args", "reason"), [
    ({"from": "okayama", "to": "kobe", "owner": "Green", "end_turn": "yes"}, "end_turn is true or false"),
    ({"from": "okayama", "to": "kobe", "end_turn": True}, "ends the turn only with its last step"),
])
def test_an_end_of_turn_typed_wrong_is_refused_in_one_line(journal: Journal, args: dict[str, object],
                                                           reason: str) -> None:
    s = japan(journal)
    five_actions(s)
    before = len(journal.events(s.current.game_id))  # type: ignore[union-attr]
    s.handle(Decide(Choice("link", args)))
    assert reason in s.message and "\n" not in s.message
    assert len(journal.events(s.current.game_id)) == before  # type: ignore[union-attr]


def test_the_reading_zero_counts_nothing(tmp_path: Path) -> None:
    maps = tmp_path / "maps"
    shutil.copytree(maps_dir(), maps)
    edit_map(maps, "industry.toml", "actions_per_turn = 2", "actions_per_turn = 0")
    with Journal(tmp_path / "j.sqlite") as journal:
        s = japan(journal, maps)
        five_actions(s)
        decide(s, "link", **{"from": "okayama", "to": "kobe"})
        assert items(s)[:3] == ("Green", "Red", "Blue") and not any("end turn" in i for i in items(s))
        assert s.current is not None and s.current.state.acted == ()


def presses_to(s: Session) -> dict[str, int]:
    """Each answer offered and the presses that pick it from where the cursor starts (the arrows, then OK)."""
    return {o.label: len(s.presses_to(i)) for i, o in enumerate(s.options())}


def test_each_list_is_laid_out_round_its_likeliest_and_end_turn_is_one_press_away_never_under_the_cursor(
        journal: Journal) -> None:
    """The entries, most made first: the likeliest under the cursor, the next four one press away (UP, DOWN, and
    LEFT and RIGHT a page), every other within two; End turn one arrow away (the box cannot count what it never
    sees, so a table ends some turns itself) and never under the cursor; a page turned never lands on it."""
    s = japan(journal)
    decide(s, "industry", location="osaka", kind="iron", owner="Red")
    likely = items(s)
    presses = presses_to(s)
    assert under_cursor(s) == likely[0] == "Build rail link"  # a link goes on from the new building
    assert presses["End turn"] == 2 and under_cursor(s) != "End turn"
    assert sum(1 for n in presses.values() if n == 2) == 4
    assert all(presses[label] == 2 for label in likely[1:4] if label != "End turn")
    assert max(presses.values()) <= 3
    for arrow in ("LEFT", "RIGHT"):  # a page turned from anywhere never stops on End turn
        for at in range(len(s.options())):
            s.request = s.request.with_(choice=at)
            s.handle(Press(arrow))
            assert under_cursor(s) != "End turn"
    s.request = s.request.with_(choice=None)
    Presses(s).pick("End turn")
    assert s.current is not None and s.current.state.turn == 2
