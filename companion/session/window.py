"""The laptop's window: pumps pygame events (keys, gamepad, close) and shows the OLED beside the map.

Keys drive the gpiozero mock pins through hardware.keys.KeyboardButtons, so the same Buttons code
as on the box debounces and queues them; T throws the dice the box asks for into the virtual
tower (over the pty, through the real link); a gamepad maps as in companion.session.gamepad.
When the projector window is installed it draws the map and this class only blits the OLED;
without it, a small window shows the OLED alone, scaled up.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import Any

from companion.dice import FACES, DiceSource
from companion.session.core import Frame
from companion.session.gamepad import Gamepads
from companion.session.inputs import Quit

SCALE = 4


class OledWindow:
    """A pygame window showing the OLED image, and the pump of every pygame event."""

    def __init__(self, inbox: queue.Queue[Any], keys: Any, oled_image: Callable[[], Any], *,
                 tower: Any = None, wanted: Callable[[], tuple[str, ...]] = tuple) -> None:
        import pygame

        pygame.display.init()
        pygame.joystick.init()
        self._pygame = pygame
        self.inbox = inbox
        self.keys = keys
        self._oled_image = oled_image
        self.tower = tower
        self._wanted = wanted
        self._pads = Gamepads()
        self._dice = DiceSource()
        self.surface = pygame.display.set_mode((128 * SCALE, 64 * SCALE + 24))
        pygame.display.set_caption("storm companion (sim): arrows, Enter=OK, Esc=BACK, Space=ROLL, T=tower")

    def show(self, frame: Frame) -> None:
        pygame = self._pygame
        image = self._oled_image()
        self.surface.fill((0, 0, 0))
        if image is not None:
            rgb = image.convert("RGB")
            oled = pygame.image.frombytes(rgb.tobytes(), rgb.size, "RGB")
            self.surface.blit(pygame.transform.scale(oled, (128 * SCALE, 64 * SCALE)), (0, 0))
        pygame.display.flip()

    def pump(self) -> None:
        pygame = self._pygame
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.inbox.put(Quit())
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_t:
                self.throw()
            elif event.type == pygame.KEYDOWN:
                self.keys.key_down(pygame.key.name(event.key))
            elif event.type == pygame.KEYUP:
                self.keys.key_up(pygame.key.name(event.key))
            else:
                translated = self._pads.translate(event)
                if translated is not None:
                    self.inbox.put(translated)

    def throw(self) -> None:
        """The dice the box asks for, thrown into the virtual tower (OS randomness, as a real throw)."""
        kinds = self._wanted()
        if self.tower is not None and kinds:
            self.tower.roll([(k, self._dice.roll([k]).dice[0].value) for k in kinds if k in FACES])

    def close(self) -> None:
        self._pygame.display.quit()
