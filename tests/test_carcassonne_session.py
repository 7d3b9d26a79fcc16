"""A scripted Carcassonne game through the real session and journal: tiles laid, the four disasters run, the
earthquake scored, bad input refused with one line, undo, and the journal replayed."""

from __future__ import annotations

from companion.dice import Choice
from companion.journal import Journal
from companion.places import Cell
from companion.session import Decide, Hold, Press, Session


def decide(s: Session, action: str, **args) -> None:
    s.handle(Decide(Choice(action, args)))
    assert s.panel.message == "", s.panel.message


def pick(s: Session, label: str) -> None:
    """Move the cursor to ``label`` with the arrows (on the board, or down the list) and pick it with OK, as a
    player does."""
    labels = list(s.panel.menu.items)
    *moves, ok = s.presses_to(labels.index(label))
    for button in moves:
        s.handle(Press(button))
    assert s.panel.menu.items[s.panel.menu.selected] == label
    s.handle(Press(ok))


def test_a_game_with_all_four_disasters_through_the_session(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal)
        s.start(game="carcassonne", options={"players": 3, "river": "yes"})
        assert s.panel.prompt.short == "Red: lay a tile"
        # Red lays the spring with the buttons: the space, the kind, the turn, then no follower
        pick(s, "1 south")
        assert s.panel.prompt.short == "Red: which tile?"
        assert "River spring" not in s.panel.menu.items  # fits two ways: each turn is named with the kind
        pick(s, "River spring: river S")
        pick(s, "No follower")
        decide(s, "lay", x=0, y=2, kind="river_cities", quarters=0)
        decide(s, "pass")
        decide(s, "lay", x=-1, y=1, kind="earthquake", quarters=0)      # Yellow
        pick(s, "Yellow: city N")
        decide(s, "lay", x=1, y=0, kind="road", quarters=1)              # Red
        pick(s, "Red: road EW")

        # the tornado: Blue's tile, 12 spaces clockwise from Blue
        decide(s, "lay", x=2, y=0, kind="tornado_road", quarters=1)
        # Blue's only move (west, west) is not asked: it goes over Red's follower
        assert "Blue moves the tornado to the start tile" in s.current.state.recent
        assert "Red inside" in s.panel.status
        assert s.panel.prompt.short == "Yellow: move the tornado 2 (10 of 12 left)"
        decide(s, "tornado", path=[[0, 1], [-1, 1]])                      # Yellow: onto Yellow's own: a swap
        assert s.current.state.tornado.inside == 2
        s.handle(Decide(Choice("tornado", {"path": [[0, 1], [0, 2], [0, 3]]})))  # bad input: 3 spaces
        assert s.panel.message == "the tornado moves 2 spaces a move, not 3"
        assert s.panel.prompt.short == "Red: move the tornado 2 (8 of 12 left)"
        oks = 0
        while s.current.state.phase == "tornado" and oks < 4:  # the first path offered; an only one is not asked
            pick(s, s.panel.menu.items[0])
            oks += 1
        assert oks < 4
        assert s.panel.prompt.short == "Yellow: place follower" and s.current.state.tornado.at == Cell(2, 0)
        pick(s, "Yellow: road EW")                                        # on the tornado tile's road
        assert s.panel.menu.items == ("No follower", "Blue: farmer ESW", "Blue: farmer NEW")
        pick(s, "No follower")                                           # Blue, on the tornado tile at last

        # the meteor: Yellow aims at the road east of the start, the others pass, Yellow leaves it
        decide(s, "meteor")
        s.handle(Decide(Choice("aim", {"x": 0, "y": 0})))
        assert s.panel.message == "the meteor may not land on the start tile"
        decide(s, "aim", x=1, y=0)
        assert s.panel.prompt.short == "Red: move meteor?"
        pick(s, "Pass")
        pick(s, "Pass")
        assert s.panel.prompt.short == "Yellow: last word"
        pick(s, "Leave it here")
        assert s.current.state.tiles[Cell(1, 0)].kind == "meteor"

        # the flood: Red replaces the river tile with two cities
        decide(s, "flood")
        pick(s, "2 south")
        decide(s, "lay", x=3, y=0, kind="road", quarters=1)               # Blue
        events = len(journal.events(s.current.game_id))
        s.handle(Hold("BACK"))
        s.handle(Press("OK"))                                             # undo the road
        assert s.panel.message == "undone" and Cell(3, 0) not in s.current.state.tiles
        s.handle(Decide(Choice("cell", {"x": 5, "y": 5})))                # bad input: not next to a tile
        assert s.panel.message == "5 east, 5 south of the start is not next to a laid tile"
        assert len(journal.events(s.current.game_id)) == events - 1
        decide(s, "lay", x=3, y=0, kind="road", quarters=1)
        decide(s, "pass")
        decide(s, "lay", x=4, y=0, kind="road", quarters=1)               # Yellow
        decide(s, "pass")
        assert s.panel.prompt.short == "Flood spreads: OK"               # Red's next turn, before drawing
        s.handle(Press("OK"))
        assert "flood spread" in s.panel.status

        # the end: the earthquake hits the cities near it, then final scoring
        pick(s, "End: final scoring")
        assert "it hits 2 cities" in s.panel.prompt.text
        s.handle(Press("OK"))
        final = s.current.state.final
        assert final[0].startswith("Earthquake tokens: 2 cities")
        assert "Red +0: unfinished city hit by the earthquake" in final
        assert "Yellow +3: unfinished road" in final  # the tornado tile to 4 east, ended by the meteor
        assert s.panel.prompt.done
        game_id, state = s.current.game_id, s.current.state

        again = Session(journal)  # the journal alone gives the same game
        again.resume(next(g for g in journal.games() if g.id == game_id))
        assert again.current.state == state
