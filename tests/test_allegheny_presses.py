"""Allegheny entries with few presses, counted through the real session: a one-link build is at most five presses
(the railroad she owns under the cursor, the end to build from not asked when there is one, the link nearest that
end under the cursor, then Done building one press away: it ends her turn, so it is never under the cursor). A
build goes on from the new end, and a game journaled the older way (the end picked by hand) still replays."""

from __future__ import annotations

from pathlib import Path

import pytest
from entry_presses import Presses

from benchmarks.presses_scripted import ALLEGHENY_WINNERS, allegheny_build, allegheny_offering
from companion.dice import Choice
from companion.inputs import Decide, Press
from companion.journal import Journal
from companion.places import Location
from companion.session import Session
from companion.views import oled

ONE_LINK_TARGET = 5
"""Issue target: an Allegheny one-link build in at most five presses (the same build took nine before)."""


@pytest.fixture
def journal(tmp_path: Path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def offered(s: Session) -> None:
    """A four-player game through its initial offering, typed: Player 1 wins the PRR alone and plays first."""
    allegheny_offering(s)
    assert s.current is not None
    assert {x.railroad: x.seat for x in s.current.state.shares} == ALLEGHENY_WINNERS
    assert s.current.state.phase == "turn" and s.current.state.current == 0


def test_a_one_link_build_takes_at_most_five_presses(journal: Journal) -> None:
    s = Session(journal)
    offered(s)
    p = Presses(s)
    menu = s.panel.menu
    assert menu is not None and menu.items[menu.selected] == "Build: PRR"  # hers under the cursor
    assert menu.items[menu.selected + 1] == "Build: C&O"  # her other railroad one press away
    p.pick("Build: PRR")
    assert s.current is not None and s.current.state.build_from == "philadelphia"  # the only end: not asked
    assert oled.oled_lines(s.panel)[0] == "PRR from Philadelphia"  # the OLED says which end
    p.pick("To Harrisburg")
    assert s.current.state.build_from == "harrisburg"  # the next link from the new end
    assert oled.oled_lines(s.panel)[0] == "PRR from Harrisburg"
    menu = s.panel.menu
    assert menu is not None and menu.items[menu.selected].startswith("To ")  # a link from the new end
    assert len(p._route("Done building")) == 1  # never under the cursor: an arrow away (then OK)
    route = p._route("Done building")
    s.handle(Press(route[0]))  # on the board, at the end the build stands on: the projector rings Harrisburg
    assert s.frame is not None and s.frame.cursor == Location("harrisburg")
    assert oled.oled_lines(s.panel)[0] == "PRR from Harrisburg"
    p.pick("Done building")
    assert s.current.state.phase == "turn" and s.current.state.current == 1
    assert p.count + 1 <= ONE_LINK_TARGET, p.count + 1
    assert allegheny_build() == p.count + 1  # the presses benchmark counts this build, and counts it alike


def test_after_a_link_the_next_link_is_at_most_one_arrow_away(journal: Journal) -> None:
    """Once a link is laid the build goes on: the link nearest the new end is under the cursor, the others an
    arrow or two away (then OK), and the build goes on after it."""
    s = Session(journal)
    offered(s)
    p = Presses(s)
    p.pick("Build: PRR")
    p.pick("To Harrisburg")
    assert s.current is not None and s.current.state.phase == "build" and len(s.current.state.tracks) == 1
    before = p.count
    links = [o.label for o in s.options() if o.event.action == "build"]
    assert links, "links from Harrisburg"
    arrows = {label: len(p._route(label)) for label in links}  # before the OK that picks it
    assert min(arrows.values()) == 0 and max(arrows.values()) <= 2, arrows
    nearest = min(links, key=lambda label: arrows[label])
    p.pick(nearest)
    assert p.count - before == 1
    assert s.current.state.phase == "build" and len(s.current.state.tracks) == 2  # still building


def test_the_next_build_of_a_railroad_starts_at_its_newest_end(journal: Journal) -> None:
    """A build goes on from where the railroad stopped: its next build starts at the end of its newest link,
    and a link from there is one press."""
    s = Session(journal)
    offered(s)
    for action in (Choice("build_track", {"railroad": "prr"}),
                   Choice("build", {"link": ["philadelphia", "harrisburg"]}),
                   Choice("done_building"), *[Choice("other_action")] * 3):
        s.handle(Decide(action))
        assert not s.message, s.message
    p = Presses(s)
    p.pick("Build: PRR")
    assert s.current is not None and s.current.state.build_from == "harrisburg"
    p.pick(s.panel.menu.items[0] if s.panel.menu else "")
    p.pick("Done building")
    assert p.count <= ONE_LINK_TARGET, p.count
    assert [t.link.ends() for t in s.current.state.tracks][-1][0] in ("harrisburg", "altoona", "baltimore")


def test_a_build_journaled_with_the_end_picked_by_hand_still_replays(journal: Journal) -> None:
    """Journals from before keep their "build_from" step: it is still taken, and the game resumes the same."""
    s = Session(journal)
    offered(s)
    for action in (Choice("build_track", {"railroad": "co"}), Choice("build_from", {"location": "richmond"}),
                   Choice("build", {"railroad": "co", "link": ["richmond", "lynchburg"]}),
                   Choice("build_from", {"location": "richmond"}),
                   Choice("build", {"railroad": "co", "link": ["richmond", "baltimore"]}), Choice("done_building")):
        s.handle(Decide(action))
        assert not s.message, s.message
    assert s.current is not None
    end = s.current.state
    again = Session(journal)
    again.start()
    assert again.current is not None and again.current.state == end
    assert {t.link.ends() for t in end.tracks} == {("lynchburg", "richmond"), ("baltimore", "richmond")}


def _to_player_two(s: Session) -> None:
    for action in (Choice("build_track", {"railroad": "prr"}),
                   Choice("build", {"link": ["philadelphia", "harrisburg"]}), Choice("done_building")):
        s.handle(Decide(action))
        assert not s.message, s.message
    assert s.current is not None and s.current.state.current == 1  # Player 2: the C&O and the B&M


def _b_and_m_builds(journal: Journal, link: str) -> tuple[Session, Presses]:
    """Player 2 builds one B&M link (``link``, as the OLED names it), every press counted."""
    s = Session(journal)
    offered(s)
    _to_player_two(s)
    p = Presses(s)
    p.pick("Build: B&M")
    p.pick(link)
    return s, p


def test_a_link_that_ends_the_line_leaves_the_cursor_on_an_end_never_on_done_building(journal: Journal) -> None:
    """An external connection ends a line: the cursor is on an end to build from, never on Done building (it ends
    her turn), which is one arrow away."""
    s, p = _b_and_m_builds(journal, "To Maine +$3")
    assert s.current is not None and s.current.state.phase == "build" and s.current.state.build_from == ""
    menu = s.panel.menu
    assert menu is not None and menu.items[menu.selected] == "From Boston"
    assert len(p._route("Done building")) == 1  # an arrow away (then OK)
    p.pick("Done building")
    assert s.current.state.phase == "turn" and s.current.state.current == 2
    assert p.count <= ONE_LINK_TARGET, p.count


def test_after_other_end_the_cursor_is_on_an_end_not_on_done_building(journal: Journal) -> None:
    """"Other end" asks for another end: the cursor starts on one, never on Done building."""
    s, p = _b_and_m_builds(journal, "To Springfield")
    assert s.current is not None and s.current.state.build_from == "springfield"
    assert s.panel.menu is not None and s.panel.menu.items[s.panel.menu.selected] != "Done building"
    p.pick("Other end")
    menu = s.panel.menu
    assert s.current.state.build_from == "" and menu is not None
    assert menu.items[menu.selected].startswith("From "), menu
    p.pick(menu.items[menu.selected])
    assert s.current.state.build_from in ("boston", "springfield")
