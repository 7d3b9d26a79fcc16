"""A table quiet for long sleeps longer between turns; any input wakes it to the short tick at once."""

from __future__ import annotations

import queue
import sys
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.session.loop import IDLE_TICK, SLEEP_AFTER, SLEEP_TICK, Loop

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_session import Recorder, make, roll


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def test_a_long_quiet_spell_sleeps_longer_and_a_roll_brings_the_short_tick_back(journal):
    s = make(journal)
    s.start("race", {})
    inbox: queue.Queue = queue.Queue()
    now = [0.0]
    rec = Recorder()
    loop = Loop(s, inbox, [rec], tick=0.03, clock=lambda: now[0])
    now[0] = SLEEP_AFTER - 0.01
    loop.step(timeout=0)
    assert loop.wait() == IDLE_TICK
    now[0] = SLEEP_AFTER
    loop.step(timeout=0)
    assert loop.wait() == SLEEP_TICK > IDLE_TICK and rec.frames == []
    inbox.put(roll(("d8", 3)))
    assert loop.step(timeout=0) and len(rec.frames) == 1
    assert loop.wait() == 0.03


def test_a_slow_tick_is_never_shortened_by_the_sleep_tick(journal):
    assert Loop(make(journal), queue.Queue(), [], tick=0.5).sleep_tick == 0.5
