"""Gamepad events from pygame become the box's button inputs."""

from __future__ import annotations

import pygame

from companion.session.gamepad import Gamepads
from companion.session.inputs import Hold, Press


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
