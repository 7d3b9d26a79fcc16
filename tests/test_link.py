"""The host link through a real pty (the virtual tower) and pyserial's loop://: exactly-once rolls."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.events import SourceFault, SourceStatus, TowerRoll
from firmware_bridge.link import TowerLink
from firmware_bridge.tower import TowerProtocol
from firmware_bridge.virtual import VirtualTower
from firmware_bridge.wire import Frame, encode


class SettlingQueue(queue.Queue[Any]):
    """A consumer that has a roll safe the moment it is queued (as ``companion tower listen`` once it has
    printed it): each roll is settled as it is put, so the link ACKs it at once."""

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        super().put(item, block, timeout)
        if isinstance(item, TowerRoll):
            item.settle()


class Seen(list):
    """Every event taken off the queue by the helpers, so no roll is missed while waiting for a state."""


SEEN = Seen()


def wait_for(q: queue.Queue[Any], match: Callable[[Any], bool], timeout: float = 5.0) -> list[Any]:
    """Events up to and including the first that matches; fails after ``timeout``."""
    seen: list[Any] = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no matching event; saw {seen}")
        try:
            item = q.get(timeout=left)
        except queue.Empty:
            continue
        seen.append(item)
        SEEN.append(item)
        if match(item):
            return seen


def rolls(q: queue.Queue[Any], n: int, timeout: float = 5.0) -> list[TowerRoll]:
    """The first ``n`` rolls seen since the last call (including those seen while waiting for states)."""
    while sum(isinstance(e, TowerRoll) for e in SEEN) < n:
        wait_for(q, lambda e: isinstance(e, TowerRoll), timeout)
    got = [e for e in SEEN if isinstance(e, TowerRoll)]
    SEEN.clear()
    return got


def no_more_rolls(q: queue.Queue[Any]) -> bool:
    """True when nothing queued is a roll. A roll is queued before it is ACKed, so once the tower's outbox
    is empty every roll the link took is already on the queue."""
    while True:
        try:
            item = q.get_nowait()
        except queue.Empty:
            return True
        if isinstance(item, TowerRoll):
            return False


def state(name: str) -> Callable[[Any], bool]:
    return lambda e: isinstance(e, SourceStatus) and e.state == name


def until(cond: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.005)


@pytest.fixture
def tower() -> Iterator[VirtualTower]:
    with VirtualTower(heartbeat=0.2, retry=0.3) as vt:
        yield vt


@pytest.fixture
def link(tower: VirtualTower) -> Iterator[tuple[TowerLink, queue.Queue[Any]]]:
    q: queue.Queue[Any] = SettlingQueue()
    lk = TowerLink(q, tower.path, retry=0.05, silence=1.0).start()
    wait_for(q, state("connected"))
    SEEN.clear()
    yield lk, q
    lk.stop()


def test_roll_arrives_as_tower_dice_and_is_acknowledged(tower: VirtualTower, link: Any) -> None:
    _lk, q = link
    tower.roll([("d8", 7), ("d6", 2)])
    (roll,) = rolls(q, 1)
    assert roll.seq == 1 and roll.source == "tower"
    assert [(d.kind, d.value) for d in roll.dice] == [("d8", 7), ("d6", 2)]
    until(lambda: not tower.protocol.outbox)


def test_unplug_mid_roll_and_replug_every_roll_arrives_once(tower: VirtualTower, link: Any) -> None:
    lk, q = link
    tower.roll([("d6", 1)])
    tower.rolling()
    tower.unplug()
    tower.roll([("d6", 2)])
    tower.roll([("d8", 3)])
    wait_for(q, state("away"))
    tower.replug()
    tower.roll([("d8", 4)])
    got = rolls(q, 4)
    tower.duplicate()
    tower.hello()
    until(lambda: not tower.protocol.outbox and lk.counts["duplicates"] >= 1)
    tower.roll([("d6", 5)])
    got += rolls(q, 1)
    assert [r.seq for r in got] == [1, 2, 3, 4, 5]
    assert [r.dice[0].value for r in got] == [1, 2, 3, 4, 5]
    assert lk.counts["accepted"] == 5


def test_resent_and_duplicated_rolls_are_dropped_by_seq(tower: VirtualTower, link: Any) -> None:
    lk, q = link
    tower.silent = True  # rolls stay unacknowledged: nothing reaches the host
    tower.roll([("d6", 5)])
    tower.silent = False
    tower.duplicate()
    tower.duplicate()
    (roll,) = rolls(q, 1)
    tower.send_raw(tower.frame(Frame("ROLL", seq=1, dice=[("d6", 5)])))
    until(lambda: lk.counts["duplicates"] >= 2)
    assert roll.seq == 1 and lk.counts["accepted"] == 1


def test_tower_restart_is_not_a_replay(tower: VirtualTower, link: Any) -> None:
    _lk, q = link
    tower.roll([("d6", 1)])
    first = rolls(q, 1)[0]
    tower.restart()
    tower.roll([("d6", 6)])
    second = rolls(q, 1)[0]
    assert (first.seq, second.seq) == (1, 1)
    assert first.boot != second.boot


def test_garbage_and_wrong_baud_are_counted_and_dropped(tower: VirtualTower, link: Any) -> None:
    lk, q = link
    for _ in range(5):
        tower.garbage(200)
        tower.send_raw(b"\n")
    tower.bad_checksum([("d6", 3)], seq=40)
    tower.truncated([("d6", 3)], seq=41)
    tower.send_raw(b"\r\n")
    tower.roll([("d8", 8)])
    (roll,) = rolls(q, 1)
    assert roll.seq == 1 and roll.dice[0].value == 8
    rejected = sum(v for k, v in lk.counts.items() if k not in ("accepted", "duplicates", "disconnects"))
    assert rejected >= 6 and lk.counts["bad_checksum"] >= 1
    assert lk.state in ("connected", "rolling")


def test_version_mismatch_is_reported_and_rolls_refused(tower: VirtualTower, link: Any) -> None:
    lk, q = link
    tower.hello_version(3)
    ev = wait_for(q, state("mismatch"))[-1]
    assert "protocol 3" in ev.detail
    tower.send_raw(tower.frame(Frame("ROLL", seq=9, dice=[("d6", 1)])))
    until(lambda: lk.counts["before_hello"] >= 1)
    assert lk.counts["accepted"] == 0


def test_rolling_notice_and_crooked_fault(tower: VirtualTower, link: Any) -> None:
    _lk, q = link
    tower.rolling()
    wait_for(q, state("rolling"))
    tower.error("crooked", "d6 leaning")
    fault = next(e for e in wait_for(q, lambda e: isinstance(e, SourceFault)) if isinstance(e, SourceFault))
    assert fault == SourceFault("tower", "d6 leaning", "crooked")
    wait_for(q, state("connected"))


def test_missing_tower_is_waiting_then_found_and_stop_joins() -> None:
    q: queue.Queue[Any] = SettlingQueue()
    with VirtualTower(heartbeat=0.2) as tower:
        tower.unplug()
        lk = TowerLink(q, tower.path, retry=0.02).start()
        assert wait_for(q, state("waiting"))
        until(lambda: lk.detail != "" and lk.state == "waiting")
        tower.replug()
        wait_for(q, state("connected"))
        lk.stop()
        assert lk._thread is None
        lk.stop()


def test_stop_wakes_a_read_blocked_on_the_device() -> None:
    """A link left running all night reads with a long timeout (nothing to do between frames); a stop must
    not wait for it: pyserial's cancel_read wakes the read at once."""
    q: queue.Queue[Any] = SettlingQueue()
    with VirtualTower(heartbeat=600) as tower:
        lk = TowerLink(q, tower.path, read_timeout=600).start()
        wait_for(q, state("connected"))
        thread = lk._thread
        assert thread is not None
        lk.stop(timeout=10)
        assert not thread.is_alive()


def test_loop_url_link_speaks_to_itself_without_crashing() -> None:
    # loop:// echoes what the link writes (SYNC, ACK): host frames are "unknown" to the host side.
    q: queue.Queue[Any] = SettlingQueue()
    lk = TowerLink(q, "loop://", retry=0.02, silence=0.05).start()
    until(lambda: lk.counts["unknown_frame"] >= 2)
    lk.stop()
    assert lk.state == "waiting"


def test_tower_protocol_keeps_outbox_until_ack_and_resends_on_sync() -> None:
    wire: list[bytes] = []
    t = TowerProtocol(wire.append, "b00t", retry=10)
    t.roll([("d6", 4)], now=0.0)
    t.receive(encode(Frame("SYNC")), now=1.0)
    assert wire[-1] == encode(Frame("ROLL", seq=1, dice=[("d6", 4)], boot="b00t"))
    t.receive(encode(Frame("ACK", seq=1, boot="b00t")), now=2.0)
    assert t.outbox == [] and t.acked == 1
    t.tick(now=5.0)
    assert wire[-1] == encode(Frame("HB"))


def test_silent_tower_is_reported_then_found_again(tower: VirtualTower) -> None:
    q: queue.Queue[Any] = SettlingQueue()
    # Silence is three heartbeats: a loaded machine's scheduling hiccup is not taken for a silent tower.
    with TowerLink(q, tower.path, retry=0.02, silence=0.6) as lk:
        wait_for(q, state("connected"), timeout=10)
        tower.silent = True
        silent = wait_for(q, lambda e: isinstance(e, SourceStatus) and e.detail == "tower silent", timeout=10)
        assert silent[-1].state == "waiting"
        tower.silent = False
        wait_for(q, state("connected"), timeout=10)
        until(lambda: lk.state == "connected")


def test_a_tower_talking_again_after_a_silence_is_asked_for_its_hello(tower: VirtualTower) -> None:
    """Every SYNC the link sent while the tower was silent went unanswered: its heartbeats, when they
    come back, keep the line from going quiet, so they must bring the ask for a HELLO themselves."""
    q: queue.Queue[Any] = SettlingQueue()
    with TowerLink(q, tower.path, retry=0.02, silence=0.6) as lk:
        wait_for(q, state("connected"), timeout=10)
        tower.deaf = tower.silent = True  # nothing either way: the link's SYNCs are lost too
        wait_for(q, lambda e: isinstance(e, SourceStatus) and e.detail == "tower silent", timeout=10)
        tower.silent = False  # heartbeats again, still without a hello
        until(lambda: lk.counts["before_hello"] >= 2)
        tower.deaf = False
        wait_for(q, state("connected"), timeout=10)
        assert lk.state == "connected" and lk.boot == tower.protocol.boot


def test_protocol_doc_examples_are_valid_frames() -> None:
    import re
    from pathlib import Path

    from firmware_bridge.wire import parse_line

    doc = Path(__file__).parents[1] / "docs" / "protocol.md"
    lines = re.findall(r"(?:tower|box):\s+(\$\S.*\*(?:[0-9A-F]{4}|[0-9A-F]{2}))$", doc.read_text(), re.M)
    assert len(lines) >= 8
    for line in lines:
        assert isinstance(parse_line(line.encode()), Frame), line


def test_a_roll_lost_on_the_wire_is_recovered_before_the_next_is_delivered(tower: VirtualTower, link: Any) -> None:
    lk, q = link
    tower.silent = True  # roll 1 never reaches the host, but stays in the tower's outbox
    tower.roll([("d6", 1)])
    tower.silent = False
    tower.roll([("d6", 2)])
    got = rolls(q, 2)
    assert [(r.seq, r.dice[0].value) for r in got] == [(1, 1), (2, 2)]
    until(lambda: not tower.protocol.outbox)
    assert lk.counts["accepted"] == 2


def test_usb_scan_finds_nothing_for_an_absent_id_and_a_bad_id() -> None:
    from firmware_bridge.link import find_port

    assert find_port("FFFF:FFFE") is None
    assert find_port("not-an-id") is None


def test_no_port_and_no_tower_keeps_waiting_with_a_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    import firmware_bridge.link as link_module

    monkeypatch.setattr(link_module, "DEFAULT_PORT", "/nonexistent/dice-tower")
    q: queue.Queue[Any] = SettlingQueue()
    with TowerLink(q, None, usb_id="FFFF:FFFE", retry=0.02) as lk:
        until(lambda: lk.detail == "no tower found")
        assert lk.state == "waiting"


def test_an_ack_lost_as_the_cable_is_pulled_makes_no_second_roll(tower: VirtualTower, link: Any) -> None:
    lk, q = link
    tower.deaf = True  # the box takes the roll and ACKs it; the ACK never reaches the tower
    tower.roll([("d8", 6)])
    (roll,) = rolls(q, 1)
    until(lambda: lk.counts["accepted"] == 1)
    assert tower.protocol.outbox  # the tower still holds it: it will come again
    tower.unplug()
    wait_for(q, state("away"))
    tower.deaf = False
    tower.replug()
    until(lambda: not tower.protocol.outbox)  # resent after the SYNC, dropped by seq, ACKed again
    tower.roll([("d6", 1)])
    (second,) = rolls(q, 1)
    assert (roll.seq, second.seq) == (1, 2)
    until(lambda: not tower.protocol.outbox)
    # Whether the resent roll 1 came back (and was dropped by number) or the SYNC told the tower it had
    # arrived depends on timing; either way the box has two rolls and nothing else is queued.
    assert lk.counts["accepted"] == 2 and no_more_rolls(q)


def test_a_cable_pulled_halfway_through_a_frame_loses_nothing(tower: VirtualTower, link: Any) -> None:
    lk, q = link
    tower.silent = True  # the roll is kept in the outbox; only its first half reaches the wire
    tower.roll([("d8", 2), ("d6", 6)])
    line = tower.frame(Frame("ROLL", seq=1, dice=[("d8", 2), ("d6", 6)]))
    tower.send_raw(line[: len(line) // 2])
    tower.unplug()
    tower.silent = False
    wait_for(q, state("away"))
    tower.replug()
    (roll,) = rolls(q, 1)
    assert roll.seq == 1 and [(d.kind, d.value) for d in roll.dice] == [("d8", 2), ("d6", 6)]
    until(lambda: not tower.protocol.outbox)
    assert lk.counts["accepted"] == 1


FAULTS = ("roll", "roll", "lost_roll", "lost_ack", "unplug", "unplug_replug", "duplicate", "garbage", "restart")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(FAULTS), min_size=3, max_size=8))
def test_every_roll_arrives_once_in_order_whatever_the_cable_does(faults: list[str]) -> None:
    """Real pty, real link: rolls thrown among unplugs, lost frames, lost ACKs, duplicates, noise and
    power cycles come out once each, in order, with their own dice, and the tower's outbox empties."""
    q: queue.Queue[Any] = SettlingQueue()
    thrown: list[tuple[str, int, tuple[tuple[str, int], ...]]] = []
    with VirtualTower(heartbeat=0.2, retry=0.3) as tower, TowerLink(q, tower.path, retry=0.05, silence=1.0) as lk:
        wait_for(q, state("connected"))

        def throw() -> None:
            dice = (("d8", 1 + len(thrown) % 8), ("d6", 1 + len(thrown) % 6))
            thrown.append((tower.protocol.boot, tower.roll(dice), dice))

        for fault in faults:
            if fault == "roll":
                throw()
            elif fault == "lost_roll":
                tower.silent = True
                throw()
                tower.silent = False
            elif fault == "lost_ack":
                tower.deaf = True
                throw()
                until(lambda: lk.counts["accepted"] >= len(thrown) or lk.state != "connected")  # ACK lost
                tower.deaf = False
            elif fault == "unplug":  # a roll thrown while the cable is out, then the cable back
                tower.unplug()
                throw()
                tower.replug()
            elif fault == "unplug_replug":  # out and back faster than the box looks
                tower.unplug()
                tower.replug()
            elif fault == "duplicate":
                tower.duplicate()
            elif fault == "garbage":
                tower.garbage(100)
                tower.send_raw(b"\n")
            elif fault == "restart":  # a power cycle: what it had not sent is gone with it
                until(lambda: not tower.protocol.outbox)
                tower.restart()
        until(lambda: not tower.protocol.outbox and lk.counts["accepted"] >= len(thrown), timeout=10)
        got: list[TowerRoll] = []
        while True:
            try:
                item = q.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, TowerRoll):
                got.append(item)
    got = [r for r in SEEN if isinstance(r, TowerRoll)] + got
    SEEN.clear()
    seen = [(r.boot, r.seq, tuple((d.kind, d.value) for d in r.dice)) for r in got]
    assert seen == thrown, (seen, thrown)


def test_the_link_never_imports_a_game() -> None:
    import subprocess
    import sys

    code = ("import sys, firmware_bridge.link, firmware_bridge.virtual, hardware.buttons, hardware.oled; "
            "print(sorted(m for m in sys.modules if m.startswith('companion.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "companion.games" not in out and "companion.session" not in out
    assert "companion.dice" in out  # what a roll is: the one shared contract they use


def test_a_tower_restarted_while_unplugged_is_not_taken_for_the_old_one(tower: VirtualTower, link: Any) -> None:
    """Its first roll has seq 1, which the old power-up's numbering would call a duplicate: it must wait for
    the new HELLO instead of being ACKed and lost."""
    lk, q = link
    tower.roll([("d6", 1)])
    tower.roll([("d6", 2)])
    old = rolls(q, 2)
    tower.unplug()
    wait_for(q, state("away"))
    tower.restart()  # its HELLO goes nowhere
    tower.deaf = True  # and the box's SYNC on reopening is lost too
    tower.replug()
    wait_for(q, state("waiting"))
    tower.roll([("d8", 8)])
    until(lambda: lk.counts["before_hello"] >= 1)
    tower.deaf = False
    (new,) = rolls(q, 1)
    assert [(r.boot, r.seq) for r in old] == [(old[0].boot, 1), (old[0].boot, 2)]
    assert (new.boot, new.seq, new.dice[0].value) == (tower.protocol.boot, 1, 8) and new.boot != old[0].boot
    until(lambda: not tower.protocol.outbox)
    assert lk.counts["accepted"] == 3 and no_more_rolls(q)  # a resend crossing its ACK is dropped, not doubled
