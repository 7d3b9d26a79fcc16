"""Text on the map: pygame's bundled font, cached by size, with a dark halo so names read over any fill.

Sizes are given as a share of the screen height, so a city name is the same apparent size on a
720p window and a 1080p projector; at 1080p a city name is about 34 px tall, which reads from two
metres on a one-metre-wide image.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pygame

from companion.views.projector.palette import BACKGROUND, Colour

CITY_NAME = 0.032
"""City names: share of the screen height."""
TOWN_NAME = 0.022
BODY = 0.026
SMALL = 0.02
TITLE = 0.036


@lru_cache(maxsize=64)
def font(px: int, bold: bool = False) -> Any:
    """pygame's default font at ``px`` pixels (bundled with pygame, so no system fonts are needed)."""
    if not pygame.font.get_init():
        pygame.font.init()
    f = pygame.font.Font(None, max(8, px))
    f.set_bold(bold)
    return f


def px(share: float, height: int) -> int:
    return max(10, round(share * height))


def draw(surface: Any, text: str, pos: tuple[float, float], size: int, colour: Colour, *, anchor: str = "topleft",
         halo: bool = False, bold: bool = False, max_width: int | None = None) -> Any:
    """Render ``text`` at ``pos`` (``anchor`` names the rect attribute: "center", "midtop"...); returns its rect.

    ``max_width`` trims the text with an ellipsis rather than letting it run off its region."""
    f = font(size, bold)
    if max_width is not None and f.size(text)[0] > max_width:
        while text and f.size(text + "...")[0] > max_width:
            text = text[:-1]
        text += "..."
    image = f.render(text, True, colour)
    rect = image.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    if halo:
        shadow = f.render(text, True, BACKGROUND)
        step = max(1, size // 14)
        for dx, dy in ((-step, 0), (step, 0), (0, -step), (0, step), (-step, -step), (step, step), (-step, step),
                       (step, -step)):
            surface.blit(shadow, rect.move(dx, dy))
    surface.blit(image, rect)
    return rect
