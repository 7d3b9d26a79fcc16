"""An idle table stays idle: no redraw or flip without a change, and the loop's wait backs off when quiet.

Counts, not timings: the loop's clock is injected where its pace is checked, and the window's
frames are counted.
"""

from __future__ import annotations

import queue
import sys
import time
from pathlib import Path

import pytest

from companion.inputs import Quit
from companion.journal import Journal
from companion.session.loop import IDLE_TICK, Loop

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_session import Recorder, loader, make, roll


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def test_loop_backs_off_when_quiet_and_comes_back_on_input(journal):
    s = make(journal)
    s.start("race", {})
    inbox: queue.Queue = queue.Queue()
    now = [0.0]
    rec = Recorder()
    loop = Loop(s, inbox, [rec], tick=0.05, clock=lambda: now[0])
    assert loop.wait() == 0.05  # just started: the short tick
    now[0] = 1.0
    loop.step(timeout=0)
    assert loop.wait() == IDLE_TICK == loop.idle_tick and rec.frames == []  # a quiet second: no frame, long wait
    inbox.put(roll(("d8", 3)))
    assert loop.step(timeout=0)
    assert len(rec.frames) == 1 and loop.wait() == 0.05  # input: shown once, short tick again
    now[0] = 1.9
    loop.step(timeout=0)
    assert loop.wait() == 0.05  # still within the quiet second after the roll
    now[0] = 2.0
    loop.step(timeout=0)
    assert loop.wait() == IDLE_TICK and len(rec.frames) == 1


def test_a_pump_that_saw_events_keeps_the_short_tick(journal):
    s = make(journal)
    s.start("race", {})
    now = [5.0]
    seen = [False]
    loop = Loop(s, queue.Queue(), [], tick=0.05, clock=lambda: now[0], pumps=[lambda: seen[0]])
    now[0] = 7.0
    loop.step(timeout=0)
    assert loop.wait() == IDLE_TICK
    seen[0] = True  # the mouse moved over the window, say
    loop.step(timeout=0)
    assert loop.wait() == 0.05


def test_a_slow_tick_is_never_shortened_by_the_idle_tick(journal):
    loop = Loop(make(journal), queue.Queue(), [], tick=0.5)
    assert loop.idle_tick == 0.5
    assert Loop(make(journal), queue.Queue(), [], tick=0.02, idle_tick=0.3).idle_tick == 0.3


def test_window_pump_says_whether_anything_came():
    import pygame

    from companion.session.window import OledWindow

    inbox: queue.Queue = queue.Queue()
    window = OledWindow(inbox, None, lambda: None)
    try:
        window.pump()  # whatever the window's opening put on SDL's queue
        assert window.pump() is False
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        assert window.pump() is True
        assert isinstance(inbox.get_nowait(), Quit)
    finally:
        window.close()


def test_quiet_table_with_the_map_in_the_window_draws_nothing_until_a_key(tmp_path):
    """The simulated table with its window (map + OLED): turns without input neither render nor flip;
    one key is one frame."""
    import pygame

    from companion.session.window import OledWindow
    from companion.sim import build_table, sim_config

    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal, sim_config(), loader=loader,
                                                                game_keys=("race",), tick=0.02) as table:
        assert table.parts["projector"] == "window"
        window = next(v for v in table.loop.views if isinstance(v, OledWindow))
        assert window.projector is not None
        table.session.start("race", {})
        table.loop.show()
        deadline = time.monotonic() + 10
        while table.session.panel.tower != "connected":
            assert time.monotonic() < deadline, table.session.panel
            table.loop.step(timeout=0.05)
        while table.loop.step(timeout=0):  # anything still queued from start-up
            pass
        shown, frames = window.shown, table.loop.frames_shown
        for _ in range(50):
            assert not table.loop.step(timeout=0)
        assert (window.shown, table.loop.frames_shown) == (shown, frames)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0))
        while table.loop.frames_shown == frames:
            assert time.monotonic() < deadline + 10, table.session.panel
            table.loop.step(timeout=0.05)
        assert table.session.current.state.step == "move"  # SPACE rolled the D8 on the ROLL mock pin
        assert window.shown == shown + 1 and table.loop.frames_shown == frames + 1
