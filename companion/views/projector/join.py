"""The join card: while the box's "Phones" menu is open, a QR code and the page's address over the map.

One piece keyed by what it shows, so it is drawn once when the menu opens and the map under it comes back
when it closes (the renderer repaints the rectangle of a piece that went).
"""

from __future__ import annotations

from typing import Any

import pygame

from companion.views.panel import Panel
from companion.views.projector import text
from companion.views.projector.layout import Layout
from companion.views.projector.pieces import Group, Piece


def join_groups(layout: Layout, panel: Panel) -> list[Group]:
    """The card as one group (none when no join is shown)."""
    if not panel.join_url:
        return []
    from companion.views.qr import modules

    rows = modules(panel.join_url)
    area = layout.map
    words = text.px(text.BODY, layout.height)
    scale = max(2, int(min(area.w, area.h) * 0.55) // (len(rows) + 8))
    side = (len(rows) + 8) * scale
    card = pygame.Rect(0, 0, side, side + 3 * words)
    card.center = (area.x + area.w // 2, area.y + area.h // 2)

    def paint(surface: Any) -> None:
        pygame.draw.rect(surface, (255, 255, 255), card)
        for y, row in enumerate(rows):
            for x, dark in enumerate(row):
                if dark:
                    surface.fill((0, 0, 0), (card.x + (x + 4) * scale, card.y + (y + 4) * scale, scale, scale))
        text.draw(surface, panel.join, (card.centerx, card.y + side + words), words, (0, 0, 0), anchor="center",
                  bold=True, max_width=side)

    return [(Piece(("join", panel.join_url, panel.join), card, paint),)]
