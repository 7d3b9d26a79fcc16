"""The host link through a real pty (the virtual tower) and pyserial's loop://: exactly-once rolls."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from firmware_bridge.events import TowerFault, TowerRoll, TowerState
from firmware_bridge.link import TowerLink
from firmware_bridge.tower import TowerProtocol
from firmware_bridge.virtual import VirtualTower
from firmware_bridge.wire import Frame, encode


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


def state(name: str) -> Callable[[Any], bool]:
    return lambda e: isinstance(e, TowerState) and e.state == name


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
    q: queue.Queue[Any] = queue.Queue()
    lk = TowerLink(q, tower.path, retry=0.05, silence=1.0).start()
    wait_for(q, state("connected"))
    SEEN.clear()
    yield lk, q
    lk.stop()


def test_roll_arrives_as_tower_dice_and_is_acknowledged(tower: VirtualTower, link: Any) -> None:
    _lk, q = link
    tower.roll([("d8", 7), ("d6", 2)])
    (roll,) = rolls(q, 1)
    assert roll.seq == 1 and roll.dice.source == "tower"
    assert [(d.kind, d.value) for d in roll.dice.dice] == [("d8", 7), ("d6", 2)]
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
    assert [r.dice.dice[0].value for r in got] == [1, 2, 3, 4, 5]
    assert lk.counts["accepted"] == 5


def test_resent_and_duplicated_rolls_are_dropped_by_seq(tower: VirtualTower, link: Any) -> None:
    lk, q = link
    tower.silent = True  # rolls stay unacknowledged: nothing reaches the host
    tower.roll([("d6", 5)])
    tower.silent = False
    tower.duplicate()
    tower.duplicate()
    (roll,) = rolls(q, 1)
    tower.send_raw(encode(Frame("ROLL", seq=1, dice=[("d6", 5)])))
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
    assert roll.seq == 1 and roll.dice.dice[0].value == 8
    rejected = sum(v for k, v in lk.counts.items() if k not in ("accepted", "duplicates", "disconnects"))
    assert rejected >= 6 and lk.counts["bad_checksum"] >= 1
    assert lk.state in ("connected", "rolling")


def test_version_mismatch_is_reported_and_rolls_refused(tower: VirtualTower, link: Any) -> None:
    lk, q = link
    tower.hello_version(2)
    ev = wait_for(q, state("mismatch"))[-1]
    assert "protocol 2" in ev.detail
    tower.send_raw(encode(Frame("ROLL", seq=9, dice=[("d6", 1)])))
    until(lambda: lk.counts["before_hello"] >= 1)
    assert lk.counts["accepted"] == 0


def test_rolling_notice_and_crooked_fault(tower: VirtualTower, link: Any) -> None:
    _lk, q = link
    tower.rolling()
    wait_for(q, state("rolling"))
    tower.error("crooked", "d6 leaning")
    fault = next(e for e in wait_for(q, lambda e: isinstance(e, TowerFault)) if isinstance(e, TowerFault))
    assert fault == TowerFault("crooked", "d6 leaning")
    wait_for(q, state("connected"))


def test_missing_tower_is_waiting_then_found_and_stop_joins() -> None:
    q: queue.Queue[Any] = queue.Queue()
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


def test_loop_url_link_speaks_to_itself_without_crashing() -> None:
    # loop:// echoes what the link writes (SYNC, ACK): host frames are "unknown" to the host side.
    q: queue.Queue[Any] = queue.Queue()
    lk = TowerLink(q, "loop://", retry=0.02, silence=0.05).start()
    until(lambda: lk.counts["unknown_frame"] >= 2)
    lk.stop()
    assert lk.state == "waiting"


def test_tower_protocol_keeps_outbox_until_ack_and_resends_on_sync() -> None:
    wire: list[bytes] = []
    t = TowerProtocol(wire.append, "b00t", retry=10)
    t.roll([("d6", 4)], now=0.0)
    t.receive(encode(Frame("SYNC")), now=1.0)
    assert wire[-1] == encode(Frame("ROLL", seq=1, dice=[("d6", 4)]))
    t.receive(encode(Frame("ACK", seq=1)), now=2.0)
    assert t.outbox == [] and t.acked == 1
    t.tick(now=5.0)
    assert wire[-1] == encode(Frame("HB"))


def test_silent_tower_is_reported_then_found_again(tower: VirtualTower) -> None:
    q: queue.Queue[Any] = queue.Queue()
    with TowerLink(q, tower.path, retry=0.02, silence=0.3) as lk:
        wait_for(q, state("connected"))
        tower.silent = True
        assert wait_for(q, state("waiting"))[-1].detail == "tower silent"
        tower.silent = False
        wait_for(q, state("connected"))
        assert lk.state == "connected"


def test_protocol_doc_examples_are_valid_frames() -> None:
    import re
    from pathlib import Path

    from firmware_bridge.wire import parse_line

    doc = Path(__file__).parents[1] / "docs" / "protocol.md"
    lines = re.findall(r"(?:tower|box):\s+(\$\S.*\*[0-9A-F]{2})$", doc.read_text(), re.M)
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
    assert [(r.seq, r.dice.dice[0].value) for r in got] == [(1, 1), (2, 2)]
    until(lambda: not tower.protocol.outbox)
    assert lk.counts["accepted"] == 2


def test_usb_scan_finds_nothing_for_an_absent_id_and_a_bad_id() -> None:
    from firmware_bridge.link import find_port

    assert find_port("FFFF:FFFE") is None
    assert find_port("not-an-id") is None


def test_no_port_and_no_tower_keeps_waiting_with_a_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    import firmware_bridge.link as link_module

    monkeypatch.setattr(link_module, "DEFAULT_PORT", "/nonexistent/dice-tower")
    q: queue.Queue[Any] = queue.Queue()
    with TowerLink(q, None, usb_id="FFFF:FFFE", retry=0.02) as lk:
        until(lambda: lk.detail == "no tower found")
        assert lk.state == "waiting"
