"""Age of Industry on the projector: what is built over the graph board, the ledger per link and per player.

Starts from the shared :class:`BoardPainter` (locations, printed links and the key) and adds the state: built rail
links in their owner's colour with their value now, live sea lanes, counters at each location, ships, Minnesota's
iron market counters; the side panel gives each player's rail-link total, the Japan display or the Minnesota
demand displays, and the deck. Every owner mark carries the owner's initial as well as her colour.

What only the rules can say (the ledger's figures, the live lanes, the cards' names, whether the deck may run out
this round, the map's readings) is worked out once per state by the session (:mod:`companion.games.industry.drawn`)
and handed over as plain data in a :class:`~companion.views.drawn.Drawn`: the painter imports no rule module and
asks the engine nothing; it reads the printed map the state names and the state's own facts.

Everything is given as pieces (:mod:`companion.views.projector.pieces`): a lane, a rail link, its value badge,
the counters of one location, a ship, a panel line and the key, so a new state repaints only the ones it changed
(a build touches its location and a panel line or two, not the whole map).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from companion.games.industry.state import EMPTY, TO_DEAL, UNNAMED
from companion.places import Link, Location
from companion.views.drawn import NOTHING, Drawn
from companion.views.projector import palette, text
from companion.views.projector.board import MapData
from companion.views.projector.key import paint_key
from companion.views.projector.layout import Layout, Rect
from companion.views.projector.marks import draw_line, draw_mark, outline_rect
from companion.views.projector.painters import BoardPainter
from companion.views.projector.pieces import Piece, around, rect_of

OWNER_COLOURS: dict[str, palette.Colour] = {
    "Red": (213, 94, 0), "Blue": (0, 114, 178), "Green": (0, 158, 115), "Yellow": (240, 228, 66),
    "Purple": (204, 121, 167),
}
"""Okabe-Ito colours for the player colours of maps/industry.toml (another name is drawn grey)."""
KIND_LETTERS: dict[str, str] = {"cotton": "C", "coal": "M", "iron": "I", "goods": "G", "port": "P"}
KEPT_MAX = 2000
BESIDE = {UNNAMED: "(not named yet)", TO_DEAL: "(to deal)", EMPTY: "(empty)"}
"""A face-up place beside the board that holds no named card, as the side panel says it."""
"""Pieces kept per screen size before the store starts again (a game shows a few hundred different ones)."""


def owner_colour(owner: str) -> palette.Colour:
    return OWNER_COLOURS.get(owner, palette.TEXT_DIM)


def _text_rect(label: str, at: tuple[float, float], size: int, bold: bool = True) -> pygame.Rect:
    """Where :func:`text.draw` puts ``label`` centred on ``at``."""
    image = text.rendered(label, size, bold, tuple(palette.CITY_EDGE))
    return image.get_rect(center=(round(at[0]), round(at[1])))


class IndustryPainter(BoardPainter):
    """Draws an IndustryState over its map (the map the game's setup chose)."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._data: tuple[Any, MapData] | None = None
        """(the rules' board, its map data): the same object for the whole game, so the renderer keeps its board."""
        self._kept: tuple[tuple[int, int], dict[Any, Piece]] | None = None
        """(screen size, pieces by what they show): a piece is made once and shown again while it stays."""
        self.drawn: Drawn = NOTHING
        """The rules' answers for the state drawn next (:meth:`use`)."""

    def use(self, drawn: Drawn) -> None:
        """Draw the next states with ``drawn``, the session's answers for them (the renderer hands it over with
        every new state, before asking for its pieces)."""
        self.drawn = drawn

    def board(self, state: Any) -> Any:
        """The printed map ``state`` is played on (the one the game's setup chose)."""
        return self.game.boards[state.map]

    def map_data(self, state: Any = None) -> MapData:
        if state is None:
            return super().map_data(state)
        board = self.board(state)
        if self._data is None or self._data[0] is not board:
            self._data = (board, MapData.of(board.graph(), getattr(self.game, "title", "")))
        return self._data[1]

    def _kept_pieces(self, layout: Layout) -> dict[Any, Piece]:
        if self._kept is None or self._kept[0] != (layout.width, layout.height) or len(self._kept[1]) > KEPT_MAX:
            self._kept = ((layout.width, layout.height), {})
        return self._kept[1]

    def paint_state(self, surface: Any, layout: Layout, state: Any, overlay: bool = False) -> None:
        """Lanes, rail links, their badges, counters and ships (see :meth:`state_pieces`)."""
        for piece in self.state_pieces(layout, state, overlay):
            piece.draw(surface)

    def state_pieces(self, layout: Layout, state: Any, overlay: bool = False) -> list[Piece]:
        """In drawing order: live sea lanes, built rail links, the value badges over every line, each
        location's counters and iron market, then the ships; one piece each."""
        board = self.board(state)
        kept = self._kept_pieces(layout)
        pieces: list[Piece] = []

        def piece(key: Any, make: Callable[..., Piece]) -> None:
            """The kept piece for ``key`` (made now if new) appended in drawing order."""
            if key not in kept:
                kept[key] = make()
            pieces.append(kept[key])

        for lane in self.drawn.get("lanes", ()):
            piece(("lane", board.name, lane), lambda lane=lane: self._lane_piece(layout, lane))
        rows = self.drawn.get("links", ())
        for link, owner, _ in rows:
            piece(("rail", board.name, link, owner),
                  lambda link=link, owner=owner: self._rail_piece(layout, link, owner))
        for link, owner, value in rows:
            label = f"{owner[0]} ${value}"
            piece(("badge", board.name, link, label, owner),
                  lambda link=link, label=label, owner=owner: self._badge_piece(layout, link, label, owner))
        for spot in board.spots.values():
            counters = state.at(spot.key)
            market = state.market(spot.key)
            if not counters and market is None:
                continue
            piece(("counters", board.name, spot.key, counters, market),
                  lambda spot=spot, counters=counters, market=market: self._counters_piece(
                      layout, spot.key, counters, market))
        for ship in state.ships:
            piece(("ship", board.name, ship), lambda ship=ship: self._ship_piece(layout, board, ship))
        return pieces

    def _lane_piece(self, layout: Layout, lane: Any) -> Piece:
        """A live sea lane: dashed from its middle to both ends."""
        width = max(3, round(layout.unit * 0.2))
        mid, a, b = layout.centre(lane), layout.centre(Location(lane.a)), layout.centre(Location(lane.b))

        def draw(surface: Any) -> None:
            draw_line(surface, mid, a, palette.FLOOD, width, dash=(2, 1))
            draw_line(surface, mid, b, palette.FLOOD, width, dash=(2, 1))

        return Piece(("lane", lane), around([mid, a, b], (width + 4) / 2 + 2), draw)

    def _rail_piece(self, layout: Layout, link: Link, owner: str) -> Piece:
        """A built rail link in its owner's colour."""
        width = max(4, round(layout.unit * 0.28))
        a, b = layout.centre(Location(link.a)), layout.centre(Location(link.b))
        colour = owner_colour(owner)
        return Piece(("rail", link, owner), around([a, b], (width + 4) / 2 + 2),
                     lambda surface: draw_line(surface, a, b, colour, width))

    def _badge_piece(self, layout: Layout, link: Any, label: str, owner: str) -> Piece:
        """A link's owner initial and value now, on a box in her colour at the link's middle."""
        small = text.px(text.SMALL, layout.height)
        at = layout.centre(link)
        box = _text_rect(label, at, small).inflate(6, 2)
        return Piece(("badge", link, label, owner), box,
                     lambda surface: self._badge(surface, at, label, owner_colour(owner), small))

    def _counters_piece(self, layout: Layout, key: str, counters: tuple[Any, ...], market: Any) -> Piece:
        """One location's industry counters in a row under it, and its iron market beside it."""
        unit = layout.unit
        small = text.px(text.SMALL, layout.height)
        x, y = layout.centre(Location(key))
        size = max(small + 2, round(unit * 0.7))
        left = x - (len(counters) * (size + 2)) / 2
        boxes = [pygame.Rect(round(left + i * (size + 2)), round(y + unit * 0.5), size, size)
                 for i in range(len(counters))]
        labels = [KIND_LETTERS.get(c.kind, "?") + (str(c.cubes) if c.cubes else "") for c in counters]
        rects = [*boxes, *(_text_rect(lb, box.center, small) for lb, box in zip(labels, boxes, strict=True))]
        mark = (x + unit * 0.9, y - unit * 0.6)
        if market is not None:
            rects += [around([mark], size * 0.55 + 2),
                      _text_rect("M" if market.counter else str(market.cubes), mark, small)]

        def draw(surface: Any) -> None:
            for c, box, label in zip(counters, boxes, labels, strict=True):
                pygame.draw.rect(surface, owner_colour(c.owner), box)
                outline_rect(surface, palette.CITY if c.flipped else palette.CITY_EDGE, box, 3 if c.flipped else 1)
                text.draw(surface, label, box.center, small, palette.CITY_EDGE, anchor="center", bold=True)
            if market is not None:
                draw_mark(surface, "diamond", mark, size * 0.55, palette.TEXT if market.counter else palette.GRID)
                text.draw(surface, "M" if market.counter else str(market.cubes), mark, small, palette.CITY_EDGE,
                          anchor="center", bold=True)

        return Piece(("counters", key, counters, market), rects[0].unionall(rects[1:]), draw)

    def _ship_piece(self, layout: Layout, board: Any, ship: Any) -> Piece:
        """A ship: a triangle in its owner's colour with its tech level, on its lane or beside its port."""
        unit = layout.unit
        small = text.px(text.SMALL, layout.height)
        space = board.ships[ship.space]
        place = Link(*space.ends) if len(space.ends) == 2 else Location(space.ends[0])
        cx, cy = layout.centre(place)
        at = (cx, cy) if len(space.ends) == 2 else (cx + unit * 0.9, cy + unit * 0.6)
        label = str(ship.tech)

        def draw(surface: Any) -> None:
            draw_mark(surface, "triangle", at, unit * 0.5, owner_colour(ship.owner),
                      palette.CITY if ship.flipped else palette.CITY_EDGE, 3 if ship.flipped else 2)
            text.draw(surface, label, (at[0], at[1] + 2), small, palette.CITY_EDGE, anchor="center", bold=True)

        rect = around([at], unit * 0.5 + 4).union(_text_rect(label, (at[0], at[1] + 2), small))
        return Piece(("ship", ship, space.ends), rect, draw)

    @staticmethod
    def _badge(surface: Any, at: tuple[float, float], label: str, colour: palette.Colour, size: int) -> None:
        image = text.rendered(label, size, True, tuple(palette.CITY_EDGE))
        box = image.get_rect(center=(round(at[0]), round(at[1]))).inflate(6, 2)
        pygame.draw.rect(surface, colour, box)
        outline_rect(surface, palette.CITY_EDGE, box, 1)
        surface.blit(image, image.get_rect(center=box.center))

    def side_lines(self, state: Any) -> list[tuple[str, bool]]:
        """The side panel's lines (text, heading?): the ledger per player, then the display or the markets."""
        board = self.board(state)
        drawn = self.drawn
        lines: list[tuple[str, bool]] = [("Rail links now" if state.phase != "over" else "Final rail links", True)]
        lines += [(f"{p}: ${v}", False) for p, v in drawn.get("totals", ())]
        lines.append((f"Deck: {state.deck}" + ("  (may run out this round)" if drawn.get("last_round") else ""),
                      True))
        if board.has_display:
            lines.append(("Card display", True))
            names = drawn.get("display", ())
            for i, slot in enumerate(state.display):
                name = (names[i] if i < len(names) else "") or "(empty)"
                taken = f" - taken by {slot.taken.split()[0]}" if slot.taken else ""
                lines.append((f"{i + 1}  ${board.display_costs[i]}  {name}{taken}", False))
        if state.beside:  # a map without a display: the face-up cards beside the board, by name
            lines.append(("Face up beside the board", True))
            names = drawn.get("beside", ())
            lines += [(BESIDE.get(c) or (names[i] if i < len(names) else ""), False)
                      for i, c in enumerate(state.beside)]
        for key, demand in board.demand.items():
            lines.append((f"{demand.name}: {state.cubes_on(key)} of {len(demand.prices)}", False))
        readings = drawn.get("readings", ())
        if readings:  # the open questions of the text as the maps data answers them
            lines.append(("Readings in force", True))
            lines += [(reading, False) for reading in readings]
        return lines

    def paint_side(self, surface: Any, layout: Layout, rect: Rect, state: Any) -> None:
        """The lines from the top, the key under them (see :meth:`side_pieces`)."""
        for piece in self.side_pieces(layout, rect, state):
            piece.draw(surface)

    def side_pieces(self, layout: Layout, rect: Rect, state: Any) -> list[Piece]:
        """Each panel line a piece (a new state repaints the lines it changed), then the key under the last
        line: the same while the lines keep their count, so made once per place."""
        head = text.px(text.BODY, layout.height)
        body = text.px(text.SMALL, layout.height)
        pieces: list[Piece] = []
        col = text.Column(None, rect, layout.height, pieces)
        y = rect.y
        for line, heading in self.side_lines(state):
            size = head if heading else body
            if heading and y > rect.y:
                y += 4
            colour = owner_colour(line.split(":")[0]) if line.split(":")[0] in OWNER_COLOURS else palette.TEXT
            col.text(line, (rect.x, y), size, colour if not heading else palette.TEXT, bold=heading, max_width=rect.w)
            y += size + 3
        below = Rect(rect.x, y + 8, rect.w, rect.y + rect.h - y - 8)
        data = self.map_data(state)
        kept = self._kept_pieces(layout)
        key = ("key", self.board(state).name, below.as_tuple())
        if key not in kept:
            # clips=False: the key's swatches may draw the hills' arcs, which pygame draws otherwise through a clip
            kept[key] = Piece(key, rect_of(below, 2), lambda surface: paint_key(surface, layout, below, data),
                              clips=False)
        pieces.append(kept[key])
        return pieces
