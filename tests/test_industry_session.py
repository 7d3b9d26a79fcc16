"""Age of Industry through the real session: a scripted game of each map, entered with the box's buttons (and
decisions sent as the command line would), journaled, undone step by step, read back, and ended by the deck with
the final ledger checked against totals worked out by hand."""

from __future__ import annotations

import pytest

from companion.dice import Choice
from companion.inputs import Decide
from companion.journal import Journal
from companion.session import Hold, Press, Session


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def menu_ok(session: Session) -> None:
    """Every list the OLED shows stays readable: whole names (the OLED fits them), not absurdly many."""
    menu = session.panel.menu
    assert menu is not None
    assert all(len(label) <= 48 for label in menu.items), menu.items
    assert len(menu.items) <= 30, menu.items


def pick(session: Session, label: str) -> None:
    """Move the cursor to ``label`` with the arrows and press OK, as a player does; in a list given a page at a
    time ("Albert Lea to Chicago (east)") first the page whose names take it in."""
    menu_ok(session)
    menu = session.panel.menu
    if label not in menu.items:
        page = next(item for item in menu.items if " to " in item
                    and item.split(" to ")[0] <= label <= item.split(" to ")[1])
        pick(session, page)
        menu = session.panel.menu
    assert label in menu.items, (label, menu.items)
    for button in session.presses_to(menu.items.index(label)):
        session.handle(Press(button))
    assert session.message == "", session.message


def decide(session: Session, action: str, **args) -> None:
    session.handle(Decide(Choice(action, args)))
    assert session.message == "", session.message


def refused(session: Session, action: str, reason: str, **args) -> None:
    before = len(session.journal.events(session.current.game_id))
    session.handle(Decide(Choice(action, args)))
    assert reason in session.message and "\n" not in session.message
    assert len(session.journal.events(session.current.game_id)) == before


def test_a_japan_game_builds_runs_the_display_three_turns_and_ends_with_the_deck(journal):
    session = Session(journal)
    session.start(game="industry", options={"map": "Japan", "players": 3})
    state = lambda: session.current.state  # noqa: E731
    assert session.panel.prompt.short == "Space 1: which card?"
    for label in ("Coal mine", "Cotton mill", "Location card", "Ship", "Ironworks", "Manufactured goods"):
        pick(session, label)
    assert state().deck == 33 and session.panel.status == "Japan turn 1 - deck 33"

    # Turn 1, with the buttons: each entry a few short lists; BACK held takes back one step.
    pick(session, "Build industry")
    pick(session, "Osaka")
    assert session.panel.menu.title == "Which industry?"
    session.handle(Hold("BACK"))
    session.handle(Press("OK"))  # "Undo last?" yes
    assert state().pending == "industry" and "Osaka" in session.panel.menu.items  # back on the page of names
    pick(session, "Osaka")
    pick(session, "Ironworks")
    pick(session, "Red")
    pick(session, "Build rail link")  # from where the last entry was: Osaka, said on the OLED
    assert session.panel.prompt.short == "From Osaka to?"
    menu = session.panel.menu
    assert set(menu.items) == {"Kobe", "Kyoto", "Other start", "Cancel"} and menu.items[menu.selected] == "Kobe"
    assert menu.items[menu.selected + 1] == "Kyoto"  # the next likeliest one press down
    pick(session, "Kobe")
    pick(session, "Red")
    assert session.panel.result == ("Red: rail Osaka - Kobe ($4)",)
    pick(session, "Take display card")
    pick(session, "2 $2 Cotton mill")
    pick(session, "Free (Take Cards)")
    pick(session, "Blue")
    pick(session, "End turn")
    # coal and ironworks leave, the taken cotton mill is gone, the rest slide down: three to deal
    assert [s.card for s in state().display] == ["location", "ship", "goods", "", "", ""]
    for label in ("Port", "Coal mine", "Cotton mill"):
        pick(session, label)
    assert state().deck == 30

    # Turn 2, as decisions: ports at both ends of the Harima Sea and a ship between them.
    decide(session, "industry", location="kobe", kind="port", owner="Blue")
    decide(session, "industry", location="kobe", kind="cotton", owner="Green")
    decide(session, "industry", location="takamatsu", kind="port", owner="Green")
    decide(session, "ship", space="harima", owner="Green", tech=1)
    assert session.current.game.ledger_json(state())["lanes"] == [["kobe", "takamatsu"]]
    decide(session, "link", **{"from": "kobe", "to": "okayama", "owner": "Blue"})
    decide(session, "link", **{"from": "okayama", "to": "hiroshima", "owner": "Green"})
    decide(session, "link", **{"from": "takamatsu", "to": "kochi", "owner": "Green"})
    refused(session, "link", "Osaka and Sapporo are not adjacent", **{"from": "osaka", "to": "sapporo",
                                                                      "owner": "Red"})
    decide(session, "card", space=2, how="paid", player="Red")
    assert session.panel.result == ("Red takes Manufactured goods from space 3: pay $3",)
    decide(session, "end_turn")
    assert [s.card for s in state().display] == ["location", "ship", "port", "cotton", "", ""]
    pick(session, "Ironworks")
    pick(session, "Ship")

    # Turn 3: the ship's coal taken flips it; twenty cards drawn bring the deck into its last round.
    decide(session, "industry", location="okayama", kind="cotton", owner="Red")
    decide(session, "industry", location="kochi", kind="goods", owner="Blue")
    decide(session, "take", source="ship:harima")
    assert state().ship("harima").flipped
    decide(session, "flip", counter="kobe/0")
    decide(session, "draw", count=20)
    assert state().deck == 8 and session.panel.status.endswith("last round?")
    assert "The deck may run out this round" in session.panel.prompt.text
    decide(session, "end_turn")
    assert [s.card for s in state().display] == ["location", "ship", "port", "cotton", "ship", ""]
    pick(session, "Port")

    # Turn 4: the deck runs out; the game ends at the end of the turn with cards still on display.
    decide(session, "draw", count=7)
    decide(session, "end_turn")
    assert session.panel.prompt.done and all(s.card for s in state().display)
    # By hand: Osaka-Kobe (Red) 3 + 1 (ironworks) + 2 (port, cotton) = 6; Kobe-Okayama (Blue) 3 + 2 + 1 = 6;
    # Okayama-Hiroshima (Green) 3 + 1 + 0 = 4; Takamatsu-Kochi (Green) 3 + 1 (port) + 1 (goods) = 5.
    assert "Rail links: Red $6, Blue $6, Green $9" in session.panel.prompt.text
    assert session.panel.result[-1] == "Rail links: Red $6, Blue $6, Green $9"

    # The journal replays to the same game (resume after a power cut).
    record = journal.games()[0]
    assert record.finished
    again = Session(journal)
    again.resume(record)
    assert again.current.state == state()


def test_a_minnesota_game_from_the_menu_to_the_final_ledger(journal):
    session = Session(journal)
    session.start()
    pick(session, "New: Industry")
    assert session.panel.menu.title == "Industry: map"
    pick(session, "Minnesota")
    pick(session, "3")
    assert session.current is not None  # no display question: Minnesota has no display
    state = lambda: session.current.state  # noqa: E731
    assert state().map == "Minnesota" and state().players == ("Red", "Blue", "Green")
    assert session.panel.status == "Minnesota turn 1 - deck 38"  # less the hands and the two beside the board
    assert session.panel.prompt.short == "Face up: which card?"  # the two face-up cards, by name
    pick(session, "Port")
    pick(session, "Ironworks")
    assert state().beside == ("port", "iron") and session.panel.status == "Minnesota turn 1 - deck 38"

    refused(session, "industry", "no coal for Moorhead: not connected to a built port or Chicago",
            location="moorhead", kind="cotton", owner="Red")
    pick(session, "Build industry")
    pick(session, "Duluth")
    pick(session, "Port")
    pick(session, "Red")
    pick(session, "Build rail link")
    assert session.panel.prompt.short == "From Duluth to?"
    pick(session, "Eveleth")
    pick(session, "Red")
    assert session.panel.result[-1] == "1 coal from the Coal Demand Display: pay $3"
    decide(session, "industry", location="eveleth", kind="iron", owner="Blue")
    assert state().at("eveleth")[0].cubes == 3  # Iron Range: one more
    decide(session, "ship", space="duluth_harbor", owner="Red", tech=1)
    pick(session, "Sell cubes")
    pick(session, "Blue")
    # her one cube to sell is not asked for: the only answer is taken
    assert state().pending_args()["source"] == "eveleth/0" and session.panel.prompt.short == "Sold to?"
    pick(session, "Duluth iron mkt")
    decide(session, "sell", player="Blue", source="eveleth/0", target="market:duluth")
    assert state().market("duluth").counter and state().ship("duluth_harbor").flipped
    decide(session, "industry", location="braidwood", kind="coal", owner="Green")
    decide(session, "link", **{"from": "chicago_south", "to": "austin", "owner": "Green"})
    assert session.panel.result[-1] == "1 coal from the Coal Demand Display: pay $4"
    decide(session, "industry", location="st_anthony_falls", kind="cotton", owner="Blue")
    refused(session, "industry", "St. Anthony Falls holds one industry counter at most",
            location="st_anthony_falls", kind="goods", owner="Red")
    refused(session, "link", "Duluth and Austin are not adjacent", **{"from": "duluth", "to": "austin",
                                                                      "owner": "Red"})
    pick(session, "Connected?")
    pick(session, "St. Anthony Falls")
    assert session.panel.result == ("St. Anthony Falls: not connected to a built port or Chicago",)
    decide(session, "end_turn")
    decide(session, "draw", count=38)
    decide(session, "end_turn")
    assert session.panel.prompt.done
    # By hand: Duluth-Eveleth (Red) 3 + 2 (port, face-down market counter) + 1 (ironworks) = 6;
    # Chicago (south)-Austin (Green) 3 + 1 (the Chicago area's one coal mine) + 0 = 4.
    assert "Rail links: Red $6, Blue $0, Green $4" in session.panel.prompt.text
