"""A Kansas tornado phase thrown with smart dice: fake radio -> real adapter -> queue -> real Session -> journal."""

from __future__ import annotations

import queue
import random
from typing import Any

from godice import xyzinterpret

from companion.dice import DiceRolled
from companion.inputs import Roll, SourceFault, SourceStatus
from companion.journal import Journal
from companion.session.core import Session
from hardware.smartdice.adapter import SmartDice
from hardware.smartdice.fakeble import FakeRadio
from hardware.smartdice.store import PairedDie

BLUE_D8 = PairedDie("godice", "AA:00:00:00:00:08", "GoDice_D8", "d8", "blue")
BLUE_D6 = PairedDie("godice", "AA:00:00:00:00:06", "GoDice_D6", "d6", "blue")
RED_D6 = PairedDie("pixels", "AA:00:00:00:00:16", "Pixel D6", "d6", "red")


def godice_rest(kind: str, face: int) -> bytes:
    """The 'S' message of a GoDice resting on ``face``: its shell's reference vector for that face."""
    if kind == "d6":
        vector = xyzinterpret.d6Vectors[face]
    else:
        vector = xyzinterpret.d24Vectors[next(k for k, v in xyzinterpret.d8Transform.items() if v == face)]
    return b"S" + bytes(v & 0xFF for v in vector)


class Table:
    """The players' side: throw a die on the fake radio; the box's side: hand each queue item to the session."""

    def __init__(self, radio: FakeRadio, dice: SmartDice, events: queue.Queue[Any], session: Session) -> None:
        self.radio, self.dice, self.events, self.session = radio, dice, events, session
        self.now = 100.0
        self.rolls: list[Roll] = []
        self.faults: list[SourceFault] = []

    def clock(self) -> float:
        return self.now

    def pump(self) -> None:
        """Everything the radio delivered so far, through the adapter, into the session."""
        self.dice.flush()
        while not self.events.empty():
            self.take(self.events.get_nowait())

    def take(self, item: Any) -> None:
        if isinstance(item, Roll):
            self.rolls.append(item)
        elif isinstance(item, SourceFault):
            self.faults.append(item)
        self.session.handle(item)

    def wait_for(self, source: str, state: str) -> None:
        while True:
            item = self.events.get(timeout=5)
            self.take(item)
            if isinstance(item, SourceStatus) and (item.source, item.state) == (source, state):
                return

    def throw(self, die: PairedDie, face: int) -> None:
        self.now += 2.0
        if die.family == "godice":
            self.radio.notify(die.address, b"R")
            self.now += 1.0
            self.radio.notify(die.address, godice_rest(die.kind, face))
        else:
            self.radio.notify(die.address, bytes([3, 3, 0]))
            self.now += 1.0
            self.radio.notify(die.address, bytes([3, 1, face - 1]))
        self.pump()


def test_a_kansas_tornado_phase_from_smart_dice_with_a_drop_and_a_pick_up_journals_each_roll_once(tmp_path):
    radio = FakeRadio(leak_subscriptions=True)
    radio.add_godice(BLUE_D8.address)
    radio.add_godice(BLUE_D6.address)
    radio.add_pixels(RED_D6.address, die_type=2, state=5, face_index=0)
    events: queue.Queue[Any] = queue.Queue()
    journal = Journal(tmp_path / "j.sqlite")
    session = Session(journal)
    session.start(game="kansas", options={"players": 4})
    table: Table
    dice = SmartDice(events, [BLUE_D8, BLUE_D6, RED_D6], retry=0.01, client_backend=radio.client_backend,
                     scanner_backend=radio.scanner_backend,
                     clock=lambda: table.clock())
    table = Table(radio, dice, events, session)
    rng = random.Random(7)
    with dice:
        for die in (BLUE_D8, BLUE_D6, RED_D6):
            table.wait_for(die.source, "connected")
        assert session.prompt().text.startswith("Tornado 1 of 4")
        throws = 0
        dropped = picked_up = False
        while session.prompt() and session.prompt().text.startswith("Tornado") and session.wanted():
            throws += 1
            assert throws < 300, session.prompt()
            wanted = session.wanted()
            if wanted == ("d8",):
                table.throw(BLUE_D8, rng.randint(1, 8))
                continue
            if not dropped and throws > 6:
                # The blue D6 loses its link in the air: the box asks for that throw again and takes nothing.
                dropped = True
                radio.notify(BLUE_D6.address, b"R")
                table.pump()
                radio.drop(BLUE_D6.address)
                table.wait_for(BLUE_D6.source, "connected")
                assert table.faults[-1] == SourceFault(BLUE_D6.source, "lost its link mid-throw")
                assert session.message == "Blue D6: lost its link mid-throw, throw again"  # its name, not its key
                assert session.wanted() == wanted
            if not picked_up and throws > 10:
                # Someone picks the red D6 up and puts it down: no roll.
                picked_up = True
                before = len(table.rolls)
                radio.notify(RED_D6.address, bytes([3, 2, 0]))
                radio.notify(RED_D6.address, bytes([3, 5, 3]))
                table.pump()
                assert len(table.rolls) == before and session.wanted() == wanted
            table.throw(BLUE_D6, rng.randint(1, 6))
            table.throw(RED_D6, rng.randint(1, 6))
        assert dropped and picked_up
    assert not session.prompt().text.startswith("Tornado"), "the tornado phase should be over"
    game_id = journal.games()[0].id
    thrown = [e.event for e in journal.entries(game_id) if e.kind == "event" and isinstance(e.event, DiceRolled)]
    assert [d for event in thrown for d in event.dice] == [d for roll in table.rolls for d in roll.dice]
    assert {roll.source for roll in table.rolls} == {BLUE_D8.source, BLUE_D6.source, RED_D6.source}
    assert all(len(roll.dice) == 1 for roll in table.rolls)
    assert sum(d.kind == "d8" for roll in table.rolls for d in roll.dice) == 8  # two lines for each of 4 tornadoes
    assert dice.counts()["Blue D6"]["stale_callbacks"] >= 2  # the leaked subscription fired, in vain
    journal.close()
