"""Gamepad events from pygame become the box's button inputs."""

from __future__ import annotations

import pygame

from companion.inputs import Hold, Press
from companion.session.gamepad import Gamepads


def test_buttons_hat_and_stick():
    pads = Gamepads()
    ev = pygame.event.Event
    assert pads.translate(ev(pygame.JOYBUTTONDOWN, button=0, instance_id=0, joy=0)) == Press("OK")
    assert pads.translate(ev(pygame.JOYBUTTONDOWN, button=4, instance_id=0, joy=0)) == Hold("BACK")
    assert pads.translate(ev(pygame.JOYBUTTONDOWN, button=17, instance_id=0, joy=0)) is None
    assert pads.translate(ev(pygame.JOYHATMOTION, value=(0, 1), hat=0, instance_id=0, joy=0)) == Press("UP")
    assert pads.translate(ev(pygame.JOYHATMOTION, value=(1, 0), hat=0, instance_id=0, joy=0)) == Press("RIGHT")
    assert pads.translate(ev(pygame.JOYHATMOTION, value=(0, 0), hat=0, instance_id=0, joy=0)) is None
    stick = [pads.translate(ev(pygame.JOYAXISMOTION, axis=1, value=v, instance_id=0, joy=0))
             for v in (0.1, 0.7, 0.9, 0.2, -0.8)]
    assert stick == [None, Press("DOWN"), None, None, Press("UP")]
    assert pads.translate(ev(pygame.KEYDOWN, key=pygame.K_a)) is None


def test_on_the_box_the_pump_takes_gamepad_events_and_leaves_the_rest():
    import queue

    from companion.session.gamepad import GamepadPump

    pygame.display.init()
    try:
        pygame.display.set_mode((64, 48))
        pygame.event.clear()
        inbox = queue.Queue()
        pump = GamepadPump(inbox)
        pygame.event.post(pygame.event.Event(pygame.JOYBUTTONDOWN, button=2, instance_id=0, joy=0))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a", scancode=0))
        pygame.event.post(pygame.event.Event(pygame.JOYHATMOTION, value=(-1, 0), hat=0, instance_id=0, joy=0))
        assert pump() is True
        assert [inbox.get_nowait(), inbox.get_nowait()] == [Press("ROLL"), Press("LEFT")] and inbox.empty()
        assert [e.type for e in pygame.event.get()] == [pygame.KEYDOWN]  # not the gamepad's to take
        assert pump() is False
    finally:
        pygame.display.quit()
    assert GamepadPump(queue.Queue())() is False  # no projector, no SDL video: nothing to read


def test_the_box_with_a_projector_takes_a_gamepad_roll(tmp_path):
    import sys
    import time
    from pathlib import Path

    from companion.config import load_config
    from companion.journal import Journal
    from companion.sim import build_table

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_session import loader

    path = tmp_path / "config.toml"
    path.write_text("[tower]\nenabled = false\n[buttons]\nenabled = false\n[oled]\nenabled = false\n"
                    '[projector]\ndriver = "offscreen"\nwidth = 320\nheight = 180\nfullscreen = false\n')
    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal, load_config(path),
                                                                loader=loader, game_keys=("race",)) as table:
        assert table.parts["projector"] == "offscreen window"
        table.session.start("race", {})
        table.loop.show()
        pygame.event.post(pygame.event.Event(pygame.JOYBUTTONDOWN, button=2, instance_id=0, joy=0))  # X: ROLL
        deadline = time.monotonic() + 5
        while not table.session.current.live:
            assert time.monotonic() < deadline, table.session.panel
            table.loop.step(timeout=0.05)
        assert table.session.current.state.step == "move"
