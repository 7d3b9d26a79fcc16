"""A new dice source is one module that emits the input vocabulary: proved with a source written here.

The source below is what a smart die, a camera reader or any later source amounts to: a thread that
puts ``SourceStatus`` and ``Roll`` (with a ``settle`` callback) on the box's queue. It runs through the
real loop, session, journal and OLED renderer without an edit outside this file.
"""

from __future__ import annotations

import queue
import sqlite3
import threading

import pytest

from companion.dice import Die
from companion.inputs import Roll, SourceFault, SourceStatus
from companion.journal import Journal
from companion.session import Session
from companion.session.loop import Loop
from companion.views.oled import render


class CupOfDice:
    """A toy source: a named cup that reports its state, then throws the dice it is given, each roll
    kept until the box settles it (as the tower keeps its outbox until the ACK)."""

    name = "Cup"

    def __init__(self, inbox: queue.Queue, journal_path) -> None:
        self.inbox = inbox
        self.journal_path = journal_path
        self.unsettled: list[int] = []
        self.on_disk_when_settled: list[bool] = []
        self._seq = 0

    def connect(self) -> None:
        self.inbox.put(SourceStatus(self.name, "connected", "battery 80 %"))

    def throw(self, *dice: tuple[str, int]) -> None:
        self._seq += 1
        seq = self._seq
        self.unsettled.append(seq)

        def settle() -> None:
            # "Acknowledged" means on disk: look from a second connection, as another process would.
            with sqlite3.connect(self.journal_path) as other:
                rows = other.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
            self.on_disk_when_settled.append(rows >= seq)
            self.unsettled.remove(seq)

        roll = Roll(tuple(Die(k, v) for k, v in dice), self.name, seq, settle)
        thread = threading.Thread(target=self.inbox.put, args=(roll,))  # from its own thread, as a source does
        thread.start()
        thread.join()


class Box:
    """A Kansas game on the real session and loop, its queue and journal in tmp_path."""

    def __init__(self, path) -> None:
        self.path = path
        self.inbox: queue.Queue = queue.Queue()
        self.journal = Journal(path)
        self.session = Session(self.journal)
        self.session.start("kansas", {"players": 4, "turn": 2}, resume=False)
        self.loop = Loop(self.session, self.inbox, [], tick=0.01)


@pytest.fixture
def box(tmp_path):
    made = Box(tmp_path / "journal.sqlite")
    with made.journal:
        yield made


def test_a_source_written_outside_the_house_plays_a_tornado_start_through_the_loop(box):
    path, inbox, journal, session, loop = box.path, box.inbox, box.journal, box.session, box.loop
    cup = CupOfDice(inbox, path)
    before = render(session.panel)
    cup.connect()
    loop.step(timeout=1)
    assert session.panel.sources == (("Cup", "connected"),) and session.panel.tower == "off"
    assert render(session.panel).tobytes() != before.tobytes()  # the header shows it

    cup.throw(("d8", 7))
    cup.throw(("d8", 3))
    loop.step(timeout=1)
    events = journal.events(session.current.game_id)
    assert [e.event.dice for e in events] == [(Die("d8", 7),), (Die("d8", 3),)]
    assert {e.event.source for e in events} == {"Cup"}
    assert cup.unsettled == [] and cup.on_disk_when_settled == [True, True]
    assert session.wanted() == ("d6", "d6")  # Dodge City is the start; the path's 2D6 come next

    inbox.put(SourceFault("Cup", "die off the tray"))
    loop.step(timeout=1)
    assert session.panel.message == "Cup: die off the tray, throw again"
    assert loop.player_inputs == 2


def test_a_roll_the_rules_refuse_is_settled_too_and_journals_nothing(box):
    path, inbox, journal, session, loop = box.path, box.inbox, box.journal, box.session, box.loop
    cup = CupOfDice(inbox, path)
    cup.throw(("d6", 4))  # a D8 is asked: refused for good, said, and the source may forget it
    loop.step(timeout=1)
    assert cup.unsettled == [] and journal.events(session.current.game_id) == []
    assert session.panel.message == "need D8, got D6=4"


def test_an_item_that_is_not_an_input_is_counted_and_dropped_never_a_crash(box, caplog):
    inbox, journal, session, loop = box.inbox, box.journal, box.session, box.loop
    inbox.put(("d8", 7))  # a source that forgot the vocabulary
    loop.step(timeout=1)
    assert loop.ignored == 1 and journal.events(session.current.game_id) == []
    assert "ignored an input the session does not know: tuple" in caplog.text


def test_a_source_is_named_as_the_group_named_it_never_by_its_key(box):
    inbox, session, loop = box.inbox, box.session, box.loop
    inbox.put(SourceStatus("godice:Blue D8", "connected"))
    inbox.put(SourceFault("godice:Blue D8", "lost its link mid-throw"))
    loop.step(timeout=1)
    assert session.panel.sources == (("Blue D8", "connected"),)
    assert session.panel.message == "Blue D8: lost its link mid-throw, throw again"
