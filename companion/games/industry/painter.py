"""Age of Industry on the projector: what is built over the graph board, the ledger per link and per player.

Starts from the shared :class:`BoardPainter` (locations, printed links and the key) and adds the state: built rail
links in their owner's colour with their value now, live sea lanes, counters at each location, ships, Minnesota's
iron market counters; the side panel gives each player's rail-link total, the Japan display or the Minnesota
demand displays, and the deck. Every owner mark carries the owner's initial as well as her colour.
"""

from __future__ import annotations

from typing import Any

import pygame

from companion.games.industry import ledger
from companion.games.industry.entries import card_label
from companion.places import Link, Location
from companion.views.projector import palette, text
from companion.views.projector.key import paint_key
from companion.views.projector.layout import Layout, Rect
from companion.views.projector.marks import draw_line, draw_mark
from companion.views.projector.painters import BoardPainter

OWNER_COLOURS: dict[str, palette.Colour] = {
    "Red": (213, 94, 0), "Blue": (0, 114, 178), "Green": (0, 158, 115), "Yellow": (240, 228, 66),
    "Purple": (204, 121, 167),
}
"""Okabe-Ito colours for the player colours of maps/industry.toml (another name is drawn grey)."""
KIND_LETTERS: dict[str, str] = {"cotton": "C", "coal": "M", "iron": "I", "goods": "G", "port": "P"}


def owner_colour(owner: str) -> palette.Colour:
    return OWNER_COLOURS.get(owner, palette.TEXT_DIM)


class IndustryPainter(BoardPainter):
    """Draws an IndustryState over its map (the map the game's setup chose)."""

    def paint_state(self, surface: Any, layout: Layout, state: Any, overlay: bool = False) -> None:
        game = self.game
        board = game.board(state)
        small = text.px(text.SMALL, layout.height)
        unit = layout.unit
        for lane in ledger.live_lanes(board, state):
            draw_line(surface, layout.centre(lane), layout.centre(Location(lane.a)), palette.FLOOD,
                      max(3, round(unit * 0.2)), dash=(2, 1))
            draw_line(surface, layout.centre(lane), layout.centre(Location(lane.b)), palette.FLOOD,
                      max(3, round(unit * 0.2)), dash=(2, 1))
        rows = ledger.ledger(board, game.rules, state)
        for row in rows:
            a, b = layout.centre(Location(row.link.a)), layout.centre(Location(row.link.b))
            draw_line(surface, a, b, owner_colour(row.owner), max(4, round(unit * 0.28)))
        for row in rows:  # the value badges over every line
            self._badge(surface, layout.centre(row.link), f"{row.owner[0]} ${row.value}", owner_colour(row.owner),
                        small)
        for spot in board.spots.values():
            counters = state.at(spot.key)
            market = state.market(spot.key)
            if not counters and market is None:
                continue
            x, y = layout.centre(Location(spot.key))
            size = max(small + 2, round(unit * 0.7))
            left = x - (len(counters) * (size + 2)) / 2
            for i, c in enumerate(counters):
                box = pygame.Rect(round(left + i * (size + 2)), round(y + unit * 0.5), size, size)
                pygame.draw.rect(surface, owner_colour(c.owner), box)
                pygame.draw.rect(surface, palette.CITY if c.flipped else palette.CITY_EDGE, box, 3 if c.flipped else 1)
                text.draw(surface, KIND_LETTERS.get(c.kind, "?") + (str(c.cubes) if c.cubes else ""), box.center,
                          small, palette.CITY_EDGE, anchor="center", bold=True)
            if market is not None:
                mark = (x + unit * 0.9, y - unit * 0.6)
                draw_mark(surface, "diamond", mark, size * 0.55, palette.TEXT if market.counter else palette.GRID)
                text.draw(surface, "M" if market.counter else str(market.cubes), mark, small, palette.CITY_EDGE,
                          anchor="center", bold=True)
        for ship in state.ships:
            space = board.ships[ship.space]
            place = Link(*space.ends) if len(space.ends) == 2 else Location(space.ends[0])
            cx, cy = layout.centre(place)
            at = (cx, cy) if len(space.ends) == 2 else (cx + unit * 0.9, cy + unit * 0.6)
            draw_mark(surface, "triangle", at, unit * 0.5, owner_colour(ship.owner),
                      palette.CITY if ship.flipped else palette.CITY_EDGE, 3 if ship.flipped else 2)
            text.draw(surface, str(ship.tech), (at[0], at[1] + 2), small, palette.CITY_EDGE, anchor="center",
                      bold=True)

    @staticmethod
    def _badge(surface: Any, at: tuple[float, float], label: str, colour: palette.Colour, size: int) -> None:
        image = text.font(size, True).render(label, True, palette.CITY_EDGE)
        box = image.get_rect(center=(round(at[0]), round(at[1]))).inflate(6, 2)
        pygame.draw.rect(surface, colour, box)
        pygame.draw.rect(surface, palette.CITY_EDGE, box, 1)
        surface.blit(image, image.get_rect(center=box.center))

    def side_lines(self, state: Any) -> list[tuple[str, bool]]:
        """The side panel's lines (text, heading?): the ledger per player, then the display or the markets."""
        game = self.game
        board = game.board(state)
        lines: list[tuple[str, bool]] = [("Rail links now" if state.phase != "over" else "Final rail links", True)]
        lines += [(f"{p}: ${v}", False) for p, v in ledger.totals(board, game.rules, state).items()]
        lines.append((f"Deck: {state.deck}" + ("  (may run out this round)" if game.last_round(state) else ""),
                      True))
        if board.has_display:
            lines.append(("Card display", True))
            for i, slot in enumerate(state.display):
                name = card_label(board, game.rules, slot.card) if slot.card else "(empty)"
                taken = f" - taken by {slot.taken.split()[0]}" if slot.taken else ""
                lines.append((f"{i + 1}  ${board.display_costs[i]}  {name}{taken}", False))
        for key, demand in board.demand.items():
            lines.append((f"{demand.name}: {state.cubes_on(key)} of {len(demand.prices)}", False))
        return lines

    def paint_side(self, surface: Any, layout: Layout, rect: Rect, state: Any) -> None:
        head = text.px(text.BODY, layout.height)
        body = text.px(text.SMALL, layout.height)
        y = rect.y
        for line, heading in self.side_lines(state):
            size = head if heading else body
            if heading and y > rect.y:
                y += 4
            colour = owner_colour(line.split(":")[0]) if line.split(":")[0] in OWNER_COLOURS else palette.TEXT
            text.draw(surface, line, (rect.x, y), size, colour if not heading else palette.TEXT, bold=heading,
                      max_width=rect.w)
            y += size + 3
        paint_key(surface, layout, Rect(rect.x, y + 8, rect.w, rect.y + rect.h - y - 8), self.map_data(state))
