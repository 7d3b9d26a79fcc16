"""A table quiet for long sleeps longer between turns; any input wakes it to the short tick at once."""

from __future__ import annotations

import queue
import sys
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.session.loop import IDLE_TICK, SLEEP_AFTER, SLEEP_TICK, Loop

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_session import Recorder, loader, make, roll


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


def test_asleep_with_only_pumps_nobody_waits_on_the_loop_rests_until_a_polled_pump_needs_it(journal):
    """The box with no gamepad open: SDL's queue is drained once a rest tick; a gamepad plugged in (a pump
    that needs polling now) brings the sleep tick back, so its first press waits no longer than before."""
    from companion.session.loop import REST_TICK

    s = make(journal)
    s.start("race", {})
    now = [0.0]
    pad_open = [False]
    loop = Loop(s, queue.Queue(), [Recorder()], tick=0.03, rest_tick=REST_TICK, clock=lambda: now[0])
    loop.add_pump(lambda: False, polled=False)
    loop.add_pump(lambda: False, polled=lambda: pad_open[0])
    now[0] = SLEEP_AFTER - 0.01
    loop.step(timeout=0)
    assert loop.wait() == REST_TICK  # a quiet second: only the queue brings input, and it wakes the loop
    now[0] = SLEEP_AFTER
    loop.step(timeout=0)
    assert loop.wait() == REST_TICK > SLEEP_TICK
    pad_open[0] = True
    assert loop.wait() == SLEEP_TICK
    loop.add_pump(lambda: False)  # a pump that says nothing (the laptop window's keys) is polled
    pad_open[0] = False
    assert loop.wait() == SLEEP_TICK


def test_the_box_without_a_gamepad_rests_once_asleep(tmp_path):
    """Wired as on the box: the projector's SDL queue and the OLED's retries need no polling, and no gamepad
    is open, so a table left alone turns once a rest tick."""
    from companion.config import load_config
    from companion.session.loop import REST_TICK
    from companion.sim import build_table

    path = tmp_path / "config.toml"
    path.write_text("[tower]\nenabled = false\n[buttons]\nenabled = false\n[oled]\nenabled = false\n"
                    '[projector]\ndriver = "offscreen"\nwidth = 320\nheight = 180\nfullscreen = false\n')
    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal, load_config(path),
                                                                loader=loader, game_keys=("race",)) as table:
        assert table.parts["projector"] == "offscreen window"
        table.loop.sleep_after = 0.0
        assert table.loop.wait() == REST_TICK
