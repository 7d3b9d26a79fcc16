"""A scripted Allegheny game through the real session: the buttons, typed decisions, the journal, the panel.

It runs the five opening auctions, the first player, the P&LE's opening with its auction and free link (and no
second opening), and develop actions that decline the second development through all four metro fallbacks
and then nothing; bad input is refused with a one-line reason and nothing journaled.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.dice import Choice
from companion.inputs import Decide
from companion.journal import Journal
from companion.places import Link, Location
from companion.session import Hold, Press, Session
from companion.views import oled


@pytest.fixture
def journal(tmp_path: Path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def choose(s: Session, label: str) -> None:
    """Move the cursor to ``label`` with the arrows (on the board, or down the list) and pick it with OK, as a
    player would."""
    assert s.panel.menu is not None, s.panel
    items = s.panel.menu.items
    assert label in items, (label, items)
    for button in s.presses_to(items.index(label)):
        s.handle(Press(button))
    assert not s.panel.message or s.panel.message == "undone", s.panel.message


def logged(s: Session, journal: Journal) -> list[Choice]:
    assert s.current is not None
    return [x.event for x in journal.events(s.current.game_id)]  # type: ignore[misc]


def refused(s: Session, journal: Journal, event: Choice, words: str) -> None:
    """A typed decision the rules refuse: one line on the panel, nothing journaled, the state as it was."""
    assert s.current is not None
    before, count = s.current.state, len(logged(s, journal))
    s.handle(Decide(event))
    assert words in s.panel.message and "\n" not in s.panel.message, s.panel.message
    assert s.current.state is before and len(logged(s, journal)) == count


def test_a_scripted_allegheny_game(journal: Journal) -> None:
    s = Session(journal, game_keys=("kansas", "stormfury", "allegheny"))
    s.start()
    choose(s, "New: Allegheny")
    assert s.panel.menu is not None and s.panel.menu.items == ("3", "4", "5", "6")
    choose(s, "4")
    choose(s, "Numbers (Player 1..)")
    assert s.current is not None and s.current.options == {"players": 4}
    assert s.panel.game == "Age of Rail: Allegheny" and s.panel.status == "Initial offering 1/5"

    # -- the five opening auctions, in the text's order, bids with the buttons or typed ------------------------
    assert s.panel.prompt is not None and "the C&O (red), base Richmond" in s.panel.prompt.text
    assert s.panel.menu.title == "Player 1: C&O bid" and s.panel.menu.items[:2] == ("Bid $1", "Bid $2")
    choose(s, "Bid $5")
    assert s.panel.menu.items[0] == "Bid $6" and s.panel.menu.items[-1] == "Pass"  # the arrows step the amount
    choose(s, "Bid $6")
    refused(s, journal, Choice("bid", {"amount": 5}), "beat the high bid of $6")  # below the current bid
    refused(s, journal, Choice("bid", {"amount": 6}), "beat the high bid of $6")
    choose(s, "Pass")
    choose(s, "Pass")
    choose(s, "Pass")
    assert s.panel.result[0] == "Player 2 wins the C&O for $6" and s.panel.result[-1] == "$6 to the C&O treasury"
    assert logged(s, journal)[-1] == Choice("pass", {"railroad": "co", "player": 1})

    assert "the B&O (blue), base Baltimore" in s.panel.prompt.text and s.panel.menu.title == "Player 2: B&O bid"
    s.handle(Decide(Choice("bid", {"amount": 9})))  # typed
    for _ in range(3):
        choose(s, "Pass")
    for opener, winner_bid in (("Player 3", "Bid $1"), ("Player 4", "Bid $5")):
        assert s.panel.menu.title.startswith(opener)
        choose(s, winner_bid)
        for _ in range(3):
            choose(s, "Pass")
    assert "the PRR (purple), base Philadelphia" in s.panel.prompt.text
    assert s.panel.menu.title == "Player 1: PRR bid"
    choose(s, "Bid $1")
    choose(s, "Pass")
    choose(s, "Pass")
    choose(s, "Bid $6")  # Player 4
    choose(s, "Pass")  # Player 1
    state = s.current.state
    assert [(x.railroad, x.seat + 1, x.price) for x in state.shares] == [
        ("co", 2, 6), ("bo", 2, 9), ("nyc", 3, 1), ("bm", 4, 5), ("prr", 4, 6)]
    refused(s, journal, Choice("bid", {"railroad": "ple", "amount": 3}), "P&LE is not offered now")

    # -- the first player: the PRR's owner, then clockwise ---------------------------------------------------
    assert "Player 4 owns the PRR: first player" in s.panel.result
    assert s.panel.status == "Player 4's turn - auto: Pittsburgh 0/2"
    # her own railroads nearest the cursor (on the B&M, the PRR just below), the others one press away round
    # them (UP and DOWN one, LEFT and RIGHT a page), End game never one press away
    menu = s.panel.menu
    assert menu.items[menu.selected] == "Build: B&M" and menu.items[menu.selected + 1] == "Build: PRR"
    one_press = {o.label for i, o in enumerate(s.options()) if len(s.presses_to(i)) == 2}
    assert one_press == {"Build: PRR", "Build: C&O", "Build: B&O", "Build: NYC"}
    assert {"Develop locations", "Other action", "End game"} <= set(menu.items)

    # -- building into Pittsburgh opens the P&LE -------------------------------------------------------------
    choose(s, "Build: B&O")
    # a single end to build from is not asked: the build starts there, and the OLED's title says so
    assert s.current.state.build_from == "baltimore" and oled.oled_lines(s.panel)[0] == "B&O from Baltimore"
    # the board cursor starts at the end built from: on the link from Baltimore nearest it
    assert s.panel.menu.items[0] == "To Cumberland" and s.frame.cursor == Link("baltimore", "harrisburg")
    choose(s, "Other end")
    assert s.panel.menu.items == ("From Baltimore", "Done building")
    assert s.frame.cursor == Location("baltimore")  # the projector's cursor sits on the option's place
    choose(s, "From Baltimore")
    assert s.panel.menu.items[0] == "To Cumberland"
    assert s.frame.cursor == s.options()[s.panel.menu.selected].place == Link("baltimore", "harrisburg")
    choose(s, "To Cumberland")
    # the next link starts from the new end, and the OLED says which (under the options until the cursor moves)
    assert s.current.state.build_from == "cumberland" and "Other end" in s.panel.menu.items
    assert "Next link from Cumberland (the new end)" in s.panel.result
    assert oled.oled_lines(s.panel)[0] == "B&O from Cumberland"  # the title says the end
    choose(s, "Other end")
    assert s.current.state.build_from == "" and s.panel.menu.items[:2] == ("From Baltimore", "From Cumberland")
    choose(s, "From Cumberland")
    s.handle(Hold("BACK"))  # undo steps back one: the end picked
    choose(s, "OK: yes")
    assert s.current.state.build_from == ""
    choose(s, "From Cumberland")
    choose(s, "To Pittsburgh")
    state = s.current.state
    assert state.phase == "ple_auction" and "The P&LE opens: auction, Player 4 first" in s.panel.result
    assert s.panel.menu.title == "Player 4: P&LE bid"  # the player whose turn made the connection
    assert s.panel.prompt.text.startswith("The P&LE (black) opens: its share is auctioned. Player 4: bid")
    choose(s, "Bid $1")
    choose(s, "Bid $6")  # Player 1: four presses of DOWN from $2
    choose(s, "Pass")
    choose(s, "Pass")
    choose(s, "Pass")  # Player 4
    assert "Player 1 wins the P&LE for $6" in s.panel.result and "$6 to the P&LE treasury" in s.panel.result
    assert s.panel.prompt.text == "Player 1 builds the P&LE's free link from Pittsburgh"
    assert s.panel.menu.items == ("To Altoona", "To Erie", "To Wheeling", "To Youngstown")
    choose(s, "To Erie")
    assert "P&LE: Pittsburgh - Erie (free)" in s.panel.result
    assert "P&LE income $0 (value 3)" in s.panel.result
    # the interrupted build goes on from its new end, Pittsburgh, and the OLED's title says so
    assert s.current.state.phase == "build" and s.panel.menu.title == "B&O from Pittsburgh"
    assert "B&O goes on from Pittsburgh" in s.panel.result
    choose(s, "Done building")

    # -- a second railroad reaching Pittsburgh opens nothing -------------------------------------------------
    assert s.panel.status.startswith("Player 1's turn")
    assert "Build: P&LE" in s.panel.menu.items
    choose(s, "Build: PRR")
    assert s.current.state.build_from == "philadelphia"  # its base, the only end: not asked
    for to in ("Harrisburg", "Altoona", "Pittsburgh"):  # each link from the new end, picked for the table
        choose(s, f"To {to}")
    assert s.current.state.phase == "build" and s.current.state.auction is None
    assert len(s.current.state.shares) == 6
    refused(s, journal, Choice("build", {"link": ["pittsburgh", "erie"]}),
            "no double track link into and out of Pittsburgh: the P&LE has a track on Erie - Pittsburgh")
    refused(s, journal, Choice("bid", {"railroad": "ple", "amount": 7}), "P&LE was auctioned already")
    choose(s, "Done building")

    # -- develop, declining the second: Pittsburgh, Cincinnati, Detroit, Chicago, then nothing ---------------
    autos = []
    for turn in range(9):
        choose(s, "Develop locations")
        assert s.panel.menu.title.endswith(": develop")
        first = s.panel.menu.items[turn % 3]
        choose(s, first)
        if turn == 0:
            refused(s, journal, Choice("develop", {"location": "boston"}), "the second development costs $3")
            refused(s, journal, Choice("develop", {"location": "chicago", "paid": 3}),
                    "no railroad connects to Chicago")
        no_second = s.panel.menu.items[0]
        assert no_second.startswith("No 2nd: ")
        autos.append(no_second.removeprefix("No 2nd: "))
        choose(s, no_second)
        autos.append(s.panel.result[0])
    assert autos[0::2] == ["Pittsburgh", "Pittsburgh", "Cincinnati", "Cincinnati", "Detroit", "Detroit", "Chicago",
                           "Chicago", "nothing"]
    assert autos[1::2] == ["Automatic: Pittsburgh 1/2", "Automatic: Pittsburgh 2/2", "Automatic: Cincinnati 1/2",
                           "Automatic: Cincinnati 2/2", "Automatic: Detroit 1/2", "Automatic: Detroit 2/2",
                           "Automatic: Chicago 1/2", "Automatic: Chicago 2/2",
                           "Automatic: every metro is full, nothing happens"]
    assert s.panel.status.endswith("auto: none")

    # -- a second development paid: no automatic one ---------------------------------------------------------
    choose(s, "Develop locations")
    choose(s, s.panel.menu.items[0])
    paid = next(x for x in s.panel.menu.items if x.startswith("$3: "))
    choose(s, paid)
    assert s.panel.result[0].endswith("pays $3: " + paid.removeprefix("$3: ").replace("0/", "1/"))

    # -- the journal holds it all: the game resumes to the same state ----------------------------------------
    end = s.current.state
    again = Session(journal)
    again.start()
    assert again.current is not None and again.current.state == end
    choose(again, "End game")
    assert again.panel.menu.title == "End game?" and again.panel.prompt is None  # one press ends nothing
    again.handle(Press("OK"))
    assert again.panel.prompt is not None and again.panel.prompt.done
