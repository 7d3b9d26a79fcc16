"""Nothing acknowledged is ever lost: the link ACKs a roll only once it is on disk, and never one it did not deliver.

- A tower restarted in place (a UART bridge, a soft reset: the port stays open) whose HELLO is lost or damaged
  numbers its rolls from 1 again. Each of them must arrive once, in either protocol version.
- Wire-level rules on a pty the test plays by hand: a "duplicate" under other dice, or running backwards, is
  not ACKed but answered with SYNC; a roll of another boot waits for its HELLO; an unsettled roll is neither
  ACKed nor delivered twice; each tower is answered in its own version; fuzzed lines are counted, never fatal.
- A box that restarts knows what it journaled: each entry names the tower rolls (boot, seq, dice) its dice came
  from, the link is primed with them at start, and a resend of one is ACKed, not played again; a roll that is not
  on disk (another boot, other dice) is delivered and ACKed only once journaled.
- The ACK means "on disk": the real link, session, loop and journal, in this process and in a child killed
  with SIGKILL while rolls flow (some kills aimed between a commit and its ACK); every roll the tower saw
  acknowledged is in the journal afterwards, and none is in it twice.

This file is also the child: ``python tests/test_link_durability.py JOURNAL PORT MODE`` runs one box, and
``--boxes`` a parent that forks one per line it reads (see :class:`Boxes`).
"""

from __future__ import annotations

import os
import queue
import random
import select
import signal
import subprocess
import sys
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.config import load_config
from companion.dice import DiceRolled, Prompt, take_dice
from companion.inputs import RollRef
from companion.journal import Entry, Journal
from companion.session import Hold, Press, Session
from companion.session.loop import Loop
from companion.sim import build_table, journaled_rolls, screen_config
from firmware_bridge.events import TowerRoll
from firmware_bridge.link import TowerLink
from firmware_bridge.virtual import VirtualTower
from firmware_bridge.wire import HOST_FRAMES, MAX_LINE, REASONS, Frame, FrameParser, encode, encode_body

REPO = Path(__file__).resolve().parent.parent
RESTARTS = 15
BOOTING = 0.1
"""Seconds a restarted tower is deaf while it boots (a real board: a few hundred ms)."""
"""Per protocol version and HELLO fault: restarts in place."""
KILL_POINTS = 120
"""SIGKILLs of a box while rolls flow, a third of each kind (about 15 s; under 60 s with both cores busy)."""
FUZZED = 3000
"""Fuzzed lines sent to one link."""


class TallyGame:
    """Asks for a D6, for ever: each tower roll the session takes is one journal entry."""

    key = "tally"
    title = "Tally"

    def new_game(self, options: Any) -> int:
        return 0

    def prompt(self, state: int) -> Prompt:
        return Prompt(f"Roll {state + 1}: a D6", "Roll D6", dice=("d6",))

    def choices(self, state: int) -> list[Any]:
        return []

    def apply(self, state: int, event: Any) -> int:
        take_dice(event, ("d6",))
        return state + 1

    def status(self, state: int) -> str:
        return f"{state} rolls"

    def recap(self, state: int) -> tuple[str, ...]:
        return ()

    def risk_map(self, state: int) -> dict[Any, float]:
        return {}


def loader(key: str, maps: Any) -> TallyGame:
    return TallyGame()


class SettlingQueue(queue.Queue[Any]):
    """A consumer that has each roll safe as soon as it is queued (as ``companion tower listen`` once printed)."""

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        super().put(item, block, timeout)
        if isinstance(item, TowerRoll):
            item.settle()


def until(cond: Callable[[], bool], timeout: float = 10.0) -> None:
    """Poll a condition another thread or process makes true (not a sleep standing in for one)."""
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.002)


def drain(q: queue.Queue[Any]) -> list[Any]:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


def connected(lk: TowerLink) -> Callable[[], bool]:
    return lambda: lk.state == "connected" and bool(lk.boot)


# -- 1. a tower restarted in place, its HELLO lost or damaged ---------------------------------------------------------


@pytest.mark.parametrize("hello", ["damaged", "lost"])
@pytest.mark.parametrize("version", [1, 2])
def test_a_tower_restarted_in_place_without_its_hello_has_every_roll_delivered_once(version: int, hello: str) -> None:
    """The port stays open across each restart; half of the new rolls repeat, under the same number, the dice the
    old power-up rolled (the case no dice check can tell apart). Each restart waits for the tower's outbox to
    empty, so a roll ACKed as a "duplicate" instead of delivered would be missing at the end."""
    rng = random.Random(version * 10 + len(hello))
    q = SettlingQueue()
    thrown: list[tuple[str, int, tuple[tuple[str, int], ...]]] = []
    with VirtualTower(heartbeat=0.2, retry=0.2, version=version) as tower, \
            TowerLink(q, tower.path, retry=0.02, silence=1.0) as lk:
        until(connected(lk))
        before: dict[int, tuple[tuple[str, int], ...]] = {}
        for restart in range(RESTARTS + 1):
            if restart:
                tower.restart(hello=hello, booting=BOOTING)
            now: dict[int, tuple[tuple[str, int], ...]] = {}
            for _ in range(rng.randint(1, 3)):
                seq = tower.protocol.next_seq
                same = seq in before and rng.random() < 0.5
                dice = before[seq] if same else (("d6", rng.randint(1, 6)),)
                boot = tower.protocol.boot
                assert tower.roll(list(dice)) == seq
                thrown.append((boot, seq, dice))
                now[seq] = dice
            until(lambda: not tower.protocol.outbox)
            before = now
        got = [e for e in drain(q) if isinstance(e, TowerRoll)]
    delivered = [(r.boot, r.seq, tuple((d.kind, d.value) for d in r.dice)) for r in got]
    if version == 2:
        assert delivered == thrown
        assert lk.counts["other_boot"] >= 1
    else:  # a version 1 roll names no boot: its number and dice are what the box can check
        assert [x[1:] for x in delivered] == [x[1:] for x in thrown]
        assert lk.counts["unconfirmed_duplicates"] + lk.counts["dice_differ"] >= 1
    if hello == "damaged":
        assert lk.counts["bad_checksum"] == RESTARTS
    assert lk.counts["accepted"] == len(thrown) and lk.counts["link_errors"] == 0


# -- 2. the rules, byte for byte on a pty ------------------------------------------------------------------------------


class HandTower:
    """The far end of a pty, played by the test frame by frame: the link opens the other end's path."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.parser = FrameParser(accept=HOST_FRAMES)
        self.heard: list[Frame] = []

    def send(self, frame: Frame, version: int) -> None:
        os.write(self.master, encode(frame, version))

    def send_raw(self, data: bytes) -> None:
        os.write(self.master, data)

    def next(self, timeout: float = 5.0) -> Frame:
        """The next frame the box sent."""
        deadline = time.monotonic() + timeout
        while not self.heard:
            left = deadline - time.monotonic()
            assert left > 0, "the box sent nothing"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                self.heard += [x for x in self.parser.feed(os.read(self.master, 4096)) if isinstance(x, Frame)]
        return self.heard.pop(0)

    def upto(self, kind: str) -> list[Frame]:
        """Frames the box sent up to and including the next ``kind``."""
        out = [self.next()]
        while out[-1].kind != kind:
            out.append(self.next())
        return out

    def asked(self) -> list[Frame]:
        """Frames up to a question from a box that is no longer sure who is talking: SYNC in version 2 and
        in version 1 (the pair is read as one question)."""
        out = self.upto("SYNC")
        second = self.next()
        assert (out[-1].wire, second) == (2, Frame("SYNC")) and second.wire == 1
        return out

    def close(self) -> None:
        for fd in (self.master, self.slave):
            os.close(fd)


@pytest.fixture
def hand() -> Iterator[tuple[HandTower, TowerLink, queue.Queue[Any]]]:
    far = HandTower()
    q: queue.Queue[Any] = queue.Queue()
    lk = TowerLink(q, far.path, retry=0.02, silence=30.0).start()
    first = [far.next(), far.next()]
    assert [(f.kind, f.wire) for f in first] == [("SYNC", 2), ("SYNC", 1)]  # either tower hears its own
    yield far, lk, q
    lk.stop()
    far.close()


def hello(boot: str, version: int, first: int = 1) -> Frame:
    return Frame("HELLO", version=version, firmware=f"{version}.0.0", kinds=("d6", "d8"), boot=boot, seq=first)


def roll(boot: str, seq: int, value: int) -> Frame:
    return Frame("ROLL", seq=seq, dice=[("d6", value)], boot=boot)


def ack(boot: str, seq: int, version: int) -> Frame:
    return Frame("ACK", seq=seq, boot=boot if version >= 2 else "")


def take(q: queue.Queue[Any]) -> TowerRoll:
    while True:
        item = q.get(timeout=5)
        if isinstance(item, TowerRoll):
            return item


def rolls_in(q: queue.Queue[Any]) -> list[TowerRoll]:
    return [e for e in drain(q) if isinstance(e, TowerRoll)]


@pytest.mark.parametrize("version", [1, 2])
def test_a_duplicate_under_other_dice_is_not_acked_but_asks_for_a_hello(hand: Any, version: int) -> None:
    far, lk, q = hand
    far.send(hello("a0a0a0a0", version), version)
    far.send(roll("a0a0a0a0", 1, 3), version)
    first = take(q)
    first.settle()
    got = far.next()
    assert got == ack("a0a0a0a0", 1, version) and got.wire == version  # answered in the tower's own version
    far.send(roll("a0a0a0a0", 1, 5), version)  # number 1 again, other dice: a tower that restarted
    assert far.asked() == [Frame("SYNC")]  # no ACK before the question
    assert lk.counts["dice_differ"] == 1 and rolls_in(q) == [] and lk.boot == ""


def test_version_1_a_duplicate_is_acked_only_in_the_resend_that_follows_a_hello(hand: Any) -> None:
    far, lk, q = hand
    far.send(hello("b1b1b1b1", 1), 1)
    far.send(roll("", 1, 2), 1)
    far.send(roll("", 2, 4), 1)
    for r in (take(q), take(q)):
        r.settle()
    assert [far.next(), far.next()] == [ack("", 1, 1), ack("", 2, 1)]
    far.send(roll("", 1, 2), 1)  # same number, same dice, but running backwards: maybe a new power-up's roll 1
    assert far.asked() == [Frame("SYNC")]
    assert lk.counts["unconfirmed_duplicates"] == 1
    far.send(hello("b1b1b1b1", 1, first=1), 1)  # the same boot: roll 1 is its resend after all
    far.send(roll("", 1, 2), 1)
    assert far.next() == ack("", 1, 1)
    far.send(Frame("HB"), 1)  # the resend is over
    far.send(roll("", 2, 4), 1)
    assert far.asked() == [Frame("SYNC")]
    assert lk.counts["duplicates"] == 1 and lk.counts["unconfirmed_duplicates"] == 2 and rolls_in(q) == []


def test_version_2_a_roll_of_another_boot_waits_for_its_hello(hand: Any) -> None:
    far, lk, q = hand
    far.send(hello("c0c0c0c0", 2), 2)
    far.send(roll("c0c0c0c0", 1, 6), 2)
    take(q).settle()
    assert far.next() == ack("c0c0c0c0", 1, 2)
    far.send(roll("d1d1d1d1", 1, 6), 2)  # the same number and dice from a power-up whose HELLO was lost
    assert far.asked() == [Frame("SYNC")]
    assert lk.counts["other_boot"] == 1 and rolls_in(q) == []
    far.send(hello("d1d1d1d1", 2), 2)
    far.send(roll("d1d1d1d1", 1, 6), 2)
    new = take(q)
    assert (new.boot, new.seq) == ("d1d1d1d1", 1)
    new.settle()
    assert far.next() == ack("d1d1d1d1", 1, 2)


@pytest.mark.parametrize("version", [1, 2])
def test_an_unsettled_roll_is_not_acked_nor_delivered_again_and_settling_acks_it_once(hand: Any, version: int) -> None:
    far, lk, q = hand
    far.send(hello("e2e2e2e2", version), version)
    far.send(roll("e2e2e2e2", 1, 4), version)
    held = take(q)
    far.send(hello("e2e2e2e2", version), version)  # the tower's resend (version 1 trusts it after a HELLO)
    far.send(roll("e2e2e2e2", 1, 4), version)
    far.send(roll("e2e2e2e2", 3, 1), version)  # a gap: the box asks for the outbox, and so says it is done
    assert [f.kind for f in far.upto("SYNC")] == ["SYNC"]  # no ACK for the unsettled roll
    assert lk.counts["unsettled_resends"] == 1 and rolls_in(q) == []
    held.settle()
    held.settle()  # twice (a retry, a second path): one ACK
    far.send(roll("e2e2e2e2", 1, 5), version)  # other dice: answered with SYNC, which ends what we read
    assert far.asked() == [ack("e2e2e2e2", 1, version), Frame("SYNC")]
    assert lk.counts["settled"] == 1


@pytest.mark.parametrize("version", [1, 2])
def test_a_roll_settled_after_its_tower_restarted_is_not_acked_to_the_new_one(hand: Any, version: int) -> None:
    far, lk, q = hand
    far.send(hello("f3f3f3f3", version), version)
    far.send(roll("f3f3f3f3", 1, 2), version)
    old = take(q)
    far.send(hello("a4a4a4a4", version), version)  # restarted: its roll 1 is another roll
    until(lambda: lk.boot == "a4a4a4a4")
    old.settle()
    far.send(roll("a4a4a4a4", 5, 1), version)  # a gap: SYNC ends what we read
    heard = far.upto("SYNC")
    if version == 2:  # the ACK names the old boot: the new power-up ignores it
        assert heard == [ack("f3f3f3f3", 1, 2), Frame("SYNC")]
    else:  # version 1's ACK names no boot: it would drop the new roll 1, so none is sent
        assert heard == [Frame("SYNC")]


def test_fuzzed_lines_are_counted_by_reason_and_never_stop_the_link(hand: Any) -> None:
    """Thousands of damaged, cut, overlong, wrong-version and random lines between good rolls: the link's counts
    are a reference parser's, no roll but the good ones is delivered, and the link reads on."""
    far, lk, q = hand
    boot = "5eed5eed"
    far.send(hello(boot, 2), 2)
    until(connected(lk))
    rng = random.Random(4242)
    reference = FrameParser(accept=("HELLO", "HB", "ROLLING", "ROLL", "ERR"), versions=(2,))
    good = 0
    for n in range(FUZZED):
        kind = rng.randrange(8)
        line = encode(roll(boot, 900000 + n, rng.randint(1, 6)))  # far past the next number: never delivered
        if kind == 0:
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(200))) + b"\n"
        elif kind == 1:
            damaged = bytearray(line)
            for _ in range(rng.randint(1, 3)):
                damaged[rng.randrange(len(damaged) - 2)] = rng.randrange(32, 127)
            data = bytes(damaged)
        elif kind == 2:
            data = line[: rng.randrange(1, len(line) - 2)] + b"\n"
        elif kind == 3:
            data = b"$" + b"9" * (MAX_LINE + rng.randrange(0, 40)) + rng.choice([b"\n", b"\r\n"])
        elif kind == 4:  # version 1 framing, and changes its XOR would miss, on a version 2 link
            data = encode(Frame("ROLL", seq=1, dice=[("d6", 3), ("d6", 4)]), 1).replace(b"d6:3,d6:4", b"d6:2,d6:5")
        elif kind == 5:
            data = encode_body("ROLL," + boot + ",x,d6:1")
        elif kind == 6:
            data = encode_body("ROLL," + boot + f",{900000 + n},d6:7")
        else:
            data = encode_body("FOO," + boot)
        if n % 100 == 0:  # a good roll now and then, which must come through
            good += 1
            data += encode(roll(boot, good, 1 + good % 6))
        reference.feed(data)
        far.send_raw(data)
    far.send(Frame("HB"), 2)
    reference.feed(encode(Frame("HB"), 2))
    until(lambda: sum(lk.counts[r] for r in REASONS) == sum(reference.counts.values()), timeout=30)
    assert {r: lk.counts[r] for r in REASONS} == reference.counts
    assert all(reference.counts[r] > 0 for r in REASONS)
    delivered = [(r.seq, r.dice[0].value) for r in rolls_in(q)]
    assert delivered == [(n, 1 + n % 6) for n in range(1, good + 1)]
    assert lk.counts["link_errors"] == 0 and lk._thread is not None and lk._thread.is_alive()
    far.send(roll(boot, good + 1, 2), 2)
    assert take(q).seq == good + 1  # still reading


def journaled(boot: str, *rolls: tuple[int, int]) -> list[RollRef]:
    """What a journal holds of the tower's rolls ``(seq, d6 face)`` of power-up ``boot``."""
    return [RollRef("tower", boot, seq, (("d6", value),)) for seq, value in rolls]


@pytest.mark.parametrize("version", [1, 2])
def test_a_resend_of_a_journaled_roll_is_acked_and_not_delivered_again(hand: Any, version: int) -> None:
    """The box restarted after journaling rolls 1 and 2 without the tower hearing their ACKs: primed with them, the
    link ACKs their resend, in order, and delivers only roll 3; a later resend of 2 (its ACK lost) is ACKed again."""
    far, lk, q = hand
    lk.prime(journaled("a1b2c3d4", (1, 3), (2, 5)))
    far.send(hello("a1b2c3d4", version), version)
    for seq, value in ((1, 3), (2, 5), (3, 1)):
        far.send(roll("a1b2c3d4", seq, value), version)
    assert [far.next(), far.next()] == [ack("a1b2c3d4", 1, version), ack("a1b2c3d4", 2, version)]
    new = take(q)
    assert (new.seq, new.dice[0].value) == (3, 1) and rolls_in(q) == []
    far.send(hello("a1b2c3d4", version, first=2), version)  # version 1 trusts a duplicate in a HELLO's resend
    far.send(roll("a1b2c3d4", 2, 5), version)
    assert far.next() == ack("a1b2c3d4", 2, version)
    new.settle()
    assert far.next() == ack("a1b2c3d4", 3, version)
    assert lk.counts["journaled_resends"] == 2 and lk.counts["accepted"] == 1 and lk.counts["duplicates"] == 1


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("other", ["boot", "dice"])
def test_a_roll_that_is_not_on_disk_is_delivered_and_acked_only_once_settled(hand: Any, version: int,
                                                                             other: str) -> None:
    """Priming is matched on boot, number and dice: a roll 1 of another power-up (in version 1 the boot is the
    HELLO's), or under other dice, is a roll the journal does not hold."""
    far, lk, q = hand
    lk.prime(journaled("a1b2c3d4", (1, 3)))
    boot, value = ("e5f6a7b8", 3) if other == "boot" else ("a1b2c3d4", 4)
    far.send(hello(boot, version), version)
    far.send(roll(boot, 1, value), version)
    got = take(q)
    assert (got.boot, got.seq, got.dice[0].value) == (boot, 1, value)
    far.send(roll(boot, 3, 1), version)  # a gap: the box asks for the outbox, which ends what it sent
    assert [f.kind for f in far.upto("SYNC")] == ["SYNC"]  # no ACK before the settle
    got.settle()
    assert far.next() == ack(boot, 1, version)
    assert lk.counts["journaled_resends"] == 0


def test_a_journaled_roll_that_comes_before_its_turn_waits_for_the_rolls_before_it(hand: Any) -> None:
    """Rolls go in order even when one is on disk: roll 2, journaled, arriving before roll 1 (lost on the wire) is
    held back like any roll after a gap, and ACKed once roll 1 has been delivered."""
    far, lk, q = hand
    lk.prime(journaled("a1b2c3d4", (2, 5)))
    far.send(hello("a1b2c3d4", 2), 2)
    far.send(roll("a1b2c3d4", 2, 5), 2)
    assert [f.kind for f in far.upto("SYNC")] == ["SYNC"] and lk.counts["out_of_order"] == 1
    far.send(roll("a1b2c3d4", 1, 6), 2)
    far.send(roll("a1b2c3d4", 2, 5), 2)
    assert far.next() == ack("a1b2c3d4", 2, 2)
    assert [(r.seq, r.dice[0].value) for r in [take(q)]] == [(1, 6)] and rolls_in(q) == []


# -- 3. the ACK means "on disk" ----------------------------------------------------------------------------------------


def journal_values(path: Path) -> list[int]:
    """The D6 values journaled by the tally game, in order."""
    with Journal(path, readonly=True) as j:  # a reader beside the running box
        games = j.games()
        return [x.event.dice[0].value for x in j.events(games[-1].id)] if games else []


@pytest.fixture(params=[False, True], ids=["written in the loop", "written behind the drawing"])
def box(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[VirtualTower, TowerLink, Loop, Journal]]:
    """The box's parts on a virtual tower; the journal written in the loop's own thread, and (as the box runs)
    with each COMMIT finishing on its writer thread while the loop draws."""
    with VirtualTower(heartbeat=0.2, retry=0.2) as tower, Journal(tmp_path / "j.sqlite") as journal:
        journal.write_behind = request.param
        session = Session(journal, loader=loader, game_keys=("tally",))
        session.start("tally", {})
        q: queue.Queue[Any] = queue.Queue()
        loop = Loop(session, q)
        with TowerLink(q, tower.path, retry=0.02, silence=1.0) as lk:
            until(connected(lk))
            yield tower, lk, loop, journal


def test_a_roll_is_acked_only_once_the_session_has_journaled_it(box: Any) -> None:
    tower, lk, loop, journal = box
    tower.roll([("d6", 3)])
    until(lambda: lk.counts["accepted"] == 1)  # delivered, not yet handled: the tower must still hold it
    until(lambda: lk.counts["unsettled_resends"] >= 1)  # and its resend was dropped, not delivered again
    assert [seq for seq, _, _ in tower.protocol.outbox] == [1]
    loop.step(0)
    assert journal_values(journal.path) == [3]
    until(lambda: not tower.protocol.outbox)
    assert lk.counts["settled"] == 1 and lk.counts["accepted"] == 1


def test_while_the_journal_cannot_write_the_roll_stays_with_the_tower_until_it_is_on_disk(box: Any) -> None:
    """SQLite's query_only refuses writes as a card remounted read-only does: the game goes on in memory, the
    ACK waits, resends are dropped, and the ACK goes out from the housekeeping turn that writes the entry."""
    tower, lk, loop, journal = box
    journal._db.execute("PRAGMA query_only=ON")
    tower.roll([("d6", 5)])
    until(lambda: lk.counts["accepted"] == 1)
    loop.step(0)
    assert journal.degraded and loop.session.current.state == 1
    until(lambda: lk.counts["unsettled_resends"] >= 2)
    assert tower.protocol.outbox and lk.counts["accepted"] == 1
    assert not any(isinstance(e, TowerRoll) for e in drain(loop.inbox))
    journal._db.execute("PRAGMA query_only=OFF")
    loop.session.tick()
    until(lambda: not tower.protocol.outbox)
    assert journal_values(journal.path) == [5]


def test_a_refused_roll_is_settled_and_logged(box: Any, caplog: pytest.LogCaptureFixture) -> None:
    tower, lk, loop, journal = box
    tower.roll([("d8", 7)])  # the game wants a D6: refused for good, so the tower may forget it
    until(lambda: lk.counts["accepted"] == 1)
    with caplog.at_level("INFO", logger="companion.session.core"):
        loop.step(0)
    until(lambda: not tower.protocol.outbox)
    assert journal_values(journal.path) == []
    assert any("tower roll refused" in r.getMessage() for r in caplog.records)


def test_dice_waiting_for_the_rest_of_a_request_are_settled_with_it(tmp_path: Path) -> None:
    """A D8 thrown for a D8 + D6 request lives in memory until the D6 comes: both are ACKed after the commit."""
    from tests.test_session import loader as race_loader

    with VirtualTower(heartbeat=0.2, retry=0.2) as tower, Journal(tmp_path / "j.sqlite") as journal:
        session = Session(journal, loader=race_loader, game_keys=("race",))
        session.start("race", {"players": 2})
        q: queue.Queue[Any] = queue.Queue()
        loop = Loop(session, q)
        with TowerLink(q, tower.path, retry=0.02, silence=1.0) as lk:
            until(connected(lk))
            tower.roll([("d8", 4)])  # the start roll: journaled at once
            until(lambda: lk.counts["accepted"] == 1)
            loop.step(0)
            until(lambda: not tower.protocol.outbox)
            tower.roll([("d6", 2)])  # the first of the 2D6 move
            until(lambda: lk.counts["accepted"] == 2)
            loop.step(0)
            until(lambda: lk.counts["unsettled_resends"] >= 1)
            assert [seq for seq, _, _ in tower.protocol.outbox] == [2]
            tower.roll([("d6", 5)])
            until(lambda: lk.counts["accepted"] == 3)
            loop.step(0)
            until(lambda: not tower.protocol.outbox)
        assert [x.event for x in journal.events(session.current.game_id)][-1] == \
            DiceRolled.of(("d6", 2), ("d6", 5), source="tower")


def test_each_entry_keeps_the_tower_rolls_its_dice_came_from(tmp_path: Path) -> None:
    """A D6 now and a D6 later make one event from two rolls; a re-roll's entry keeps its own; an undo takes back the
    event, not the rolls (they were taken: a resend must not be played); dice cleared with BACK were never on disk."""
    from tests.test_session import loader as race_loader

    def tower(seq: int, *dice: tuple[str, int]) -> TowerRoll:
        return TowerRoll(DiceRolled.of(*dice).dice, "tower", seq, None, "a1b2c3d4")

    with Journal(tmp_path / "j.sqlite") as journal:
        session = Session(journal, loader=race_loader, game_keys=("race",))
        session.start("race", {"players": 2})
        for item in [tower(1, ("d8", 4)), tower(2, ("d6", 2)), tower(3, ("d6", 5), ("d8", 7)),
                     Hold("ROLL"), Press("OK"), tower(4, ("d6", 6), ("d6", 6)),
                     Hold("BACK"), Press("OK"), tower(5, ("d6", 1)), Press("BACK"), tower(6, ("d6", 3), ("d6", 3))]:
            session.handle(item)
        entries = journal.entries(session.current.game_id)
        assert [(e.kind, [r.seq for r in e.rolls]) for e in entries] == [
            ("event", [1]), ("event", [2, 3]), ("reroll", [4]), ("undo", []), ("event", [6])]
        assert entries[1].rolls[1] == RollRef("tower", "a1b2c3d4", 3, (("d6", 5), ("d8", 7)))  # as the tower sent it
        assert [r.seq for r in journaled_rolls(journal)] == [6, 4, 2, 3, 1]
        for button in ("OK", "ROLL", "ROLL"):  # a lane chosen, a shuffle and a D8 from the box's generator
            session.handle(Press(button))
        after = journal.entries(session.current.game_id)[5:]
        assert [type(e.event).__name__ for e in after] == ["Choice", "Shuffled", "DiceRolled"]
        assert all(not e.rolls for e in after)  # no source roll in them


def test_the_box_primes_its_tower_link_from_the_journal(tmp_path: Path) -> None:
    """``build_table`` (the box as ``companion run`` assembles it) gives the link the rolls on disk: the resend of
    the last one is ACKed, and the next roll is played."""
    config_file = tmp_path / "config.toml"
    far = HandTower()
    config_file.write_text(f'[tower]\nport = "{far.path}"\n[oled]\nenabled = false\n[projector]\nenabled = false\n'
                           "[buttons]\nenabled = false\n")
    try:
        with Journal(tmp_path / "j.sqlite") as journal:
            gid = journal.new_game("tally", {})
            journal.append(gid, Entry("event", DiceRolled.of(("d6", 3), source="tower"),
                                      tuple(journaled("a1b2c3d4", (1, 3)))))
            with build_table(journal, screen_config(load_config(config_file), headless=True), views=[],
                             loader=loader, game_keys=("tally",)) as table:
                table.session.start()
                assert far.asked() == [Frame("SYNC")]
                far.send(hello("a1b2c3d4", 2), 2)
                far.send(roll("a1b2c3d4", 1, 3), 2)
                far.send(roll("a1b2c3d4", 2, 5), 2)
                assert far.next() == ack("a1b2c3d4", 1, 2)
                until(lambda: table.parts["link"].counts["accepted"] == 1)
                table.loop.step(0)
                assert far.upto("ACK")[-1] == ack("a1b2c3d4", 2, 2)
            assert [x.event.dice[0].value for x in journal.events(gid)] == [3, 5]
    finally:
        far.close()


# -- killed with SIGKILL -----------------------------------------------------------------------------------------------


class Boxes:
    """Starts boxes as children of one process that has imported everything already (``fork`` from a parent
    with a single thread), so a kill point costs a fork, not an interpreter start. Each box runs the real
    link, session, loop and journal until it is killed with SIGKILL; its lines on stdout carry its pid."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, __file__, "--boxes"], cwd=REPO, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def _line(self, timeout: float = 20.0) -> str:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        assert ready, "the boxes' parent said nothing"
        line = self.proc.stdout.readline().strip()
        assert line, self.proc.stderr.read() if self.proc.stderr else "the boxes' parent stopped"
        return line

    def _ask(self, command: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def start(self, journal: Path, port: str, mode: str = "run") -> int:
        """A new box; returns its pid once it says its link is connected to the tower."""
        self._ask(f"start {journal} {port} {mode}")
        pid, word = self._line().split(" ", 1)
        assert word == "ready", word
        return int(pid)

    def said(self, pid: int) -> str:
        got, word = self._line().split(" ", 1)
        assert int(got) == pid
        return word

    def kill(self, pid: int) -> int:
        """SIGKILL the box and wait until it is gone; its wait status as a signal number."""
        os.kill(pid, signal.SIGKILL)
        self._ask(f"reap {pid}")
        while True:  # a line the box wrote just before the kill may come first: the parent's answer is "gone"
            got, word = self._line().split(" ", 1)
            assert int(got) == pid
            if word.startswith("gone "):
                return int(word.split()[-1])

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=10)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


@pytest.fixture
def boxes() -> Iterator[Boxes]:
    parent = Boxes()
    yield parent
    parent.close()


def outbox(tower: VirtualTower) -> list[int]:
    with tower._lock:
        return [seq for seq, _, _ in tower.protocol.outbox]


@pytest.mark.parametrize("version", [1, 2])
def test_killed_between_delivery_and_ack_the_roll_arrives_after_the_restart_once(tmp_path: Path, boxes: Boxes,
                                                                                version: int) -> None:
    """The box takes the roll and plays it, but the journal cannot write it (read-only), so no ACK goes out;
    SIGKILL; the box comes back, the tower resends, and the roll is journaled exactly once."""
    journal = tmp_path / "journal.sqlite"
    with VirtualTower(heartbeat=0.2, retry=0.2, version=version) as tower:
        pid = boxes.start(journal, tower.path, "readonly")
        try:
            tower.roll([("d6", 4)])
            assert boxes.said(pid) == "in memory"  # delivered and played, not on disk
            assert outbox(tower) == [1]
        finally:
            assert boxes.kill(pid) == signal.SIGKILL
        assert journal_values(journal) == [] and outbox(tower) == [1]
        pid = boxes.start(journal, tower.path)
        try:
            until(lambda: not outbox(tower))
        finally:
            boxes.kill(pid)
    assert journal_values(journal) == [4]


def journal_rolls(path: Path) -> list[tuple[str, int]]:
    """The tower rolls (boot, seq) the tally game's entries say their dice came from, in journal order."""
    with Journal(path, readonly=True) as j:
        games = j.games()
        return [(r.boot, r.seq) for e in j.entries(games[-1].id) for r in e.rolls] if games else []


@pytest.mark.parametrize("version", [1, 2])
def test_killed_between_the_commit_and_the_ack_the_roll_is_journaled_once(tmp_path: Path, boxes: Boxes,
                                                                          version: int) -> None:
    """The box journals the roll and is killed before the ACK goes out (its settle held): the tower still holds
    the roll and resends it to the restarted box, whose link, primed from the journal, ACKs it without playing it
    again. Version 1's ROLL names no boot: the HELLO's is the one journaled and matched."""
    journal = tmp_path / "journal.sqlite"
    with VirtualTower(heartbeat=0.2, retry=0.2, version=version) as tower:
        boot = tower.protocol.boot
        pid = boxes.start(journal, tower.path, "hold-ack")
        try:
            tower.roll([("d6", 4)])
            assert boxes.said(pid) == "journaled"  # committed; the ACK is never sent
            assert journal_values(journal) == [4] and outbox(tower) == [1]
        finally:
            assert boxes.kill(pid) == signal.SIGKILL
        pid = boxes.start(journal, tower.path)
        try:
            until(lambda: not outbox(tower))  # the resend ACKed by the new box
            assert journal_values(journal) == [4]
            tower.roll([("d6", 2)])  # and the next roll is played as usual
            until(lambda: not outbox(tower))
        finally:
            boxes.kill(pid)
    assert journal_values(journal) == [4, 2]
    assert journal_rolls(journal) == [(boot, 1), (boot, 2)]


def test_kill_9_while_rolls_flow_loses_no_acknowledged_roll_and_journals_none_twice(tmp_path: Path,
                                                                                   boxes: Boxes) -> None:
    """A child box (real link, session, loop, journal) is killed while rolls flow, a third of the time at a random
    instant after the throws, a third just after the tower hears an ACK (where the kill fell when the ACK went out
    before the commit), a third just after a commit whose ACK it holds back (where a restarted box played the roll
    again before it was primed from the journal). After each kill every roll the tower has dropped from its outbox
    (it heard the ACK) is in the journal, and no roll is in it twice: the entries' (boot, seq) are the tower's
    numbers 1, 2, 3... each once."""
    rng = random.Random(20240611)
    journal = tmp_path / "journal.sqlite"
    thrown: list[int] = []
    caught: set[int] = set()
    kinds = {"random": 0, "after ACK": 0, "before ACK": 0}
    with VirtualTower(heartbeat=0.2, retry=0.2) as tower:
        boot = tower.protocol.boot

        def throw() -> None:
            value = rng.randint(1, 6)
            thrown.append(value)
            assert tower.roll([("d6", value)]) == len(thrown)

        for point in range(KILL_POINTS + 1):
            kind = list(kinds)[point % 3]
            aimed = kind == "before ACK" and point < KILL_POINTS
            pid = boxes.start(journal, tower.path, "hold-ack" if aimed else "run")
            try:
                if point == KILL_POINTS:  # the last box lives until the tower's outbox is empty
                    until(lambda: not outbox(tower))
                elif kind == "after ACK":
                    heard = tower.protocol.acked
                    for _ in range(rng.randint(1, 3)):
                        throw()
                    target = heard + rng.randint(1, max(1, len(outbox(tower))))
                    until(lambda target=target: tower.protocol.acked >= target)
                elif kind == "before ACK":
                    for _ in range(rng.randint(1, 3)):
                        throw()
                    assert boxes.said(pid) == "journaled"
                else:
                    for _ in range(rng.randint(1, 3)):
                        throw()
                        time.sleep(rng.uniform(0, 0.003))  # pacing the throws, not waiting for anything
                    time.sleep(rng.uniform(0, 0.012))  # a random kill instant
            finally:
                assert boxes.kill(pid) == signal.SIGKILL
            if point == KILL_POINTS:
                break
            kinds[kind] += 1
            held = set(outbox(tower))
            assert len(held) < 32  # the outbox never overflowed: no roll dropped by the tower itself
            journaled = journal_rolls(journal)
            kept = len(journaled)
            assert journaled == [(boot, seq) for seq in range(1, kept + 1)], f"kill point {point}: {journaled}"
            assert journal_values(journal) == thrown[:kept]
            acked = [seq for seq in range(1, len(thrown) + 1) if seq not in held]
            assert all(seq <= kept for seq in acked), f"kill point {point}: ACKed {acked}, journaled {kept}"
            caught |= {seq for seq in held if seq <= kept}  # journaled, not ACKed: the tower will resend it
    assert journal_rolls(journal) == [(boot, seq) for seq in range(1, len(thrown) + 1)]
    assert journal_values(journal) == thrown and not outbox(tower)
    assert kinds["before ACK"] and len(caught) >= kinds["before ACK"]
    print(f"\nkill points {sum(kinds.values())} ({kinds['after ACK']} just after an ACK, {kinds['before ACK']} between "
          f"a commit and its ACK), rolls {len(thrown)}, acknowledged and lost 0, journaled-not-ACKed at a kill "
          f"{len(caught)}, journaled twice 0")


def _box(journal: str, port: str, mode: str) -> int:
    """The child: the box with the tally game, real link, session, loop and journal, until it is killed."""
    with Journal(Path(journal)) as j:
        session = Session(j, loader=loader, game_keys=("tally",))
        if j.games():
            session.start()
        else:
            session.start("tally", {})
        inbox: queue.Queue[Any] = queue.Queue()
        loop = Loop(session, inbox, tick=0.01)
        link = TowerLink(inbox, port, retry=0.02, silence=1.0).prime(journaled_rolls(j)).start()  # as build_table

        def hold(boot: str, seq: int) -> None:
            """The commit done, the ACK never sent: say so and wait for the kill."""
            print(os.getpid(), "journaled", flush=True)
            threading.Event().wait()

        ready = in_memory = False
        while True:
            loop.step()
            if not ready and link.state == "connected":
                if mode == "readonly":
                    j._db.execute("PRAGMA query_only=ON")
                if mode == "hold-ack":  # rolls delivered from now on (a roll's settle is bound at its delivery)
                    link._settle = hold  # type: ignore[method-assign]
                print(os.getpid(), "ready", flush=True)
                ready = True
            if ready and not in_memory and j.degraded:
                print(os.getpid(), "in memory", flush=True)
                in_memory = True


def _boxes() -> int:
    """The parent of the boxes: imports done, one thread, forks a box per ``start`` line and reaps it on ``reap``."""
    for line in sys.stdin:
        command, *args = line.split()
        if command == "start":
            pid = os.fork()
            if pid == 0:
                try:
                    _box(*args)
                finally:
                    os._exit(1)
        elif command == "reap":
            pid = int(args[0])
            _, status = os.waitpid(pid, 0)
            print(f"{pid} gone {os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0}", flush=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    raise SystemExit(_boxes() if sys.argv[1:] == ["--boxes"] else _box(*sys.argv[1:4]))
