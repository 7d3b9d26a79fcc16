"""The laptop's window: pumps pygame events (keys, gamepad, close) and shows the OLED beside the map.

Keys drive the gpiozero mock pins through hardware.keys.KeyboardButtons, so the same Buttons code
as on the box debounces and queues them; T throws the dice the box asks for into the virtual
tower (over the pty, through the real link); O toggles the risk overlay (the OVERLAY button); a
gamepad maps as in companion.session.gamepad. With a projector renderer the window shows the map
(only the rectangles that changed are copied) with the OLED scaled up beside it; without one, a
small window shows the OLED alone.

The window is a plain software surface: SDL's default for a window surface on most drivers is a
texture streamed through an OpenGL renderer, which loads the GL stack (much of the process's resident
memory, with Mesa's software rasteriser and its threads) to show a 2D picture that changes a few rectangles at
a time. SDL_FRAMEBUFFER_ACCELERATION=0 asks for the software framebuffer instead (X11 shared
memory, Wayland shm, or the offscreen driver's own); set it in the environment to override.
"""

from __future__ import annotations

import os
import queue
from collections.abc import Callable
from typing import Any

from companion.dice import FACES, DiceSource
from companion.inputs import Press, Quit
from companion.session.core import Frame
from companion.session.gamepad import Gamepads

SCALE = 4
"""OLED scale in the OLED-only window."""
BESIDE_SCALE = 3
"""OLED scale beside the map."""
MAP_SIZE = (1120, 630)
"""The map's size in the laptop window (16:9, fits a 1366-pixel-wide screen with the OLED beside it)."""


class OledWindow:
    """A pygame window showing the OLED image, and the pump of every pygame event."""

    def __init__(self, inbox: queue.Queue[Any], keys: Any, oled_image: Callable[[], Any], *,
                 tower: Any = None, wanted: Callable[[], tuple[str, ...]] = tuple, projector: Any = None) -> None:
        os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")  # read by SDL when the surface is made
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
        self.projector = projector
        self.shown = 0
        """Frames drawn and flipped (a quiet table draws none)."""
        if projector is not None:
            self._oled_scale, self._oled_at = BESIDE_SCALE, (projector.size[0], 0)
            size = (projector.size[0] + 128 * BESIDE_SCALE, max(projector.size[1], 64 * BESIDE_SCALE))
        else:
            self._oled_scale, self._oled_at = SCALE, (0, 0)
            size = (128 * SCALE, 64 * SCALE + 24)
        self.surface = pygame.display.set_mode(size)
        pygame.display.set_caption("storm companion (sim): arrows, Enter=OK, Esc=BACK, Space=ROLL, T=tower, "
                                   "O=risk overlay")

    def show(self, frame: Frame) -> None:
        pygame = self._pygame
        changed: list[Any] = []
        if self.projector is None:
            self.surface.fill((0, 0, 0))
        else:
            drawn = self.projector.render(frame)
            for rect in self.projector.dirty:
                self.surface.blit(drawn, rect, rect)
            changed.extend(self.projector.dirty)
        image = self._oled_image()
        if image is not None:
            rgb = image.convert("RGB")
            oled = pygame.image.frombytes(rgb.tobytes(), rgb.size, "RGB")
            scale = self._oled_scale
            changed.append(self.surface.blit(pygame.transform.scale(oled, (128 * scale, 64 * scale)), self._oled_at))
        if self.projector is None:
            pygame.display.flip()
        else:
            pygame.display.update(changed)  # only what changed reaches the screen
        self.shown += 1

    def pump(self) -> bool:
        """Hand every pending pygame event on; True when there was any (the loop keeps its short tick)."""
        pygame = self._pygame
        events = pygame.event.get()
        for event in events:
            if event.type == pygame.QUIT:
                self.inbox.put(Quit())
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_t:
                self.throw()
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_o:
                self.inbox.put(Press("OVERLAY"))
            elif event.type == pygame.KEYDOWN:
                self.keys.key_down(pygame.key.name(event.key))
            elif event.type == pygame.KEYUP:
                self.keys.key_up(pygame.key.name(event.key))
            else:
                translated = self._pads.translate(event)
                if translated is not None:
                    self.inbox.put(translated)
        return bool(events)

    def throw(self) -> None:
        """The dice the box asks for, thrown into the virtual tower (OS randomness, as a real throw)."""
        kinds = self._wanted()
        if self.tower is not None and kinds:
            self.tower.roll([(k, self._dice.roll([k]).dice[0].value) for k in kinds if k in FACES])

    def close(self) -> None:
        self._pygame.display.quit()
