"""Age of Rail: Allegheny on the projector: the map, the track each railroad laid, the developments, the
auctions and the P&LE.

Built on the shared graph parts (``BoardPainter``: locations and links where maps/allegheny.toml puts
them, names, cursor). Unbuilt links are thin grey lines (dotted to an external connection); track is
drawn in its railroad's colour as the group reads it (``[[railroads]] colour``, shown with the name
everywhere), each railroad with its own dash pattern and its name on the link, side by side where two
railroads share a link. Metro areas are discs, settlements squares, external connections diamonds with
their bonus. Under each location its development: one pip per level of capacity, filled as developed.
The next automatic metro development is ringed (dashed, yellow, "auto"), each railroad's base ringed in
its colour, and Pittsburgh carries the P&LE's tag (dashed until it opens).

The side panel: what just happened, the auction under way (stock, high bid and whose, whose bid, who
passed), then each railroad's owner, price, value and income, the automatic line, the readings and the key.

What only the rules can say (which railroads run, the automatic target, each railroad's value and income,
the engine's words) is worked out once per state by the session (:mod:`companion.games.allegheny.drawn`) and
handed over as plain data in a :class:`~companion.views.drawn.Drawn`: the painter imports no rule module and
asks the engine nothing; it reads the printed map and the state's own facts.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

import pygame

from companion.games.allegheny.state import AlleghenyState
from companion.places import Location
from companion.views.drawn import NOTHING, Drawn
from companion.views.projector import palette, text
from companion.views.projector.board import MapData, Spot
from companion.views.projector.key import SAMPLE_WIDTH, KeyEntry, paint_entries
from companion.views.projector.key import row_height as key_row_height
from companion.views.projector.layout import Layout, Rect
from companion.views.projector.marks import draw_line, draw_mark
from companion.views.projector.painters import BoardPainter
from companion.views.projector.pieces import Piece, around, rect_of
from companion.views.projector.shapes import GraphShape
from companion.views.projector.symbols import DASHES, LineStyle, Symbols

Point = tuple[float, float]

RAIL_COLOURS: dict[str, palette.Colour] = {
    "red": (213, 94, 0), "blue": (0, 114, 178), "orange": (230, 159, 0), "yellow": (240, 228, 66),
    "purple": (204, 121, 167), "black": (24, 24, 24), "green": (0, 158, 115), "sky": (86, 180, 233),
    "brown": (150, 100, 50), "grey": (165, 165, 165), "gray": (165, 165, 165), "white": (245, 245, 245),
}
"""A railroad's colour word (maps/allegheny.toml) as drawn: the Okabe-Ito colour closest to it. Black
track gets a light casing so it reads on the dark map; an unknown word takes an Okabe-Ito colour."""
UNBUILT: palette.Colour = (96, 102, 114)
AUTO: palette.Colour = palette.FORT
LINE = 0.023
"""The side panel's main lines (railroad names, the auction): a little above the shared small type."""
PIP = 0.0065
"""A development pip's radius as a share of the screen height (readable at 720p)."""
KINDS = {"metro": "city", "settlement": "town", "external": "external"}
"""The map's location kinds as the shared board draws them (metro names in the large type)."""
KIND_WORDS = {"city": "metro area", "town": "settlement", "external": "external connection"}


def _first_up(words: str) -> str:
    return words[:1].upper() + words[1:]


def rail_colour(word: str, index: int) -> palette.Colour:
    return RAIL_COLOURS.get(word.lower(), palette.OKABE_ITO[index % len(palette.OKABE_ITO)])


def casing_for(colour: palette.Colour) -> palette.Colour:
    return palette.TEXT if sum(colour) < 150 else palette.CITY_EDGE


def ink_on(colour: palette.Colour) -> palette.Colour:
    return palette.CITY_EDGE if sum(colour) > 330 else palette.CITY


def tag_box(centre: Point, words: str, size: int) -> pygame.Rect:
    """The pill a railroad's name is drawn in (see ``Painter._tag``)."""
    w, h = text.font(size, True).size(words)
    box = pygame.Rect(0, 0, w + size // 2 + 4, h + 2)
    box.center = (round(centre[0]), round(centre[1]))
    return box


class Painter(BoardPainter):
    """The Allegheny painter: the graph board with track, developments, auctions and the P&LE."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._data: MapData | None = None
        self._styles: dict[str, LineStyle] = {}
        self._kept: tuple[tuple[int, int], dict[Any, Piece]] | None = None
        """(screen size, pieces by what they show): see :meth:`_kept_pieces`."""
        self.drawn: Drawn = NOTHING
        """The rules' answers for the state drawn next (:meth:`use`)."""

    def use(self, drawn: Drawn) -> None:
        """Draw the next states with ``drawn``, the session's answers for them (the renderer hands it over with
        every new state, before asking for its pieces)."""
        self.drawn = drawn

    @property
    def board(self) -> Any:
        return self.game.board

    # -- the printed board --------------------------------------------------------------------------------
    def map_data(self, state: Any = None) -> MapData:
        """The printed board (the same all game: made once, so a new state does not build and compare it again)."""
        if self._data is None:
            graph = self.board.graph()
            spots = tuple(Spot(s.name, Location(k), KINDS.get(s.kind, "town")) for k, s in graph.sites.items())
            symbols = Symbols(marks={"city": "circle", "town": "square", "external": "diamond"},
                              lines={"rail": LineStyle(UNBUILT), "external": LineStyle(UNBUILT, (1, 2))})
            self._data = MapData({}, spots, (), self.game.title, board=graph, symbols=symbols)
        return self._data

    # -- what the state adds (also what the tests ask) ----------------------------------------------------
    def style(self, railroad: str) -> LineStyle:
        """A railroad's colour (from the data's word) and dash pattern (by its place in the data)."""
        if railroad not in self._styles:
            keys = [r.key for r in self.board.railroads]
            i = keys.index(railroad)
            self._styles[railroad] = LineStyle(rail_colour(self.board.by_key[railroad].colour, i),
                                               DASHES[i % len(DASHES)])
        return self._styles[railroad]

    def track_lines(self, layout: Layout, state: AlleghenyState) -> list[tuple[str, Point, Point]]:
        """(railroad, from, to) for each track laid, side by side where a link carries two."""
        out = []
        width = self.track_width(layout)
        for link in sorted({t.link for t in state.tracks}):
            if not layout.holds(link) or not isinstance(layout.shape, GraphShape):
                continue
            (ax, ay), (bx, by) = layout.shape.ends(link)
            length = math.hypot(bx - ax, by - ay) or 1.0
            nx, ny = -(by - ay) / length, (bx - ax) / length
            laid = state.tracks_on(link)
            for i, t in enumerate(laid):
                off = (i - (len(laid) - 1) / 2) * (width + 4)
                out.append((t.railroad, (ax + nx * off, ay + ny * off), (bx + nx * off, by + ny * off)))
        return out

    @staticmethod
    def track_width(layout: Layout) -> int:
        return max(4, round(layout.unit * 0.26))

    @staticmethod
    def pip_radius(layout: Layout) -> int:
        return max(3, round(PIP * layout.height))

    def pips(self, layout: Layout, key: str) -> list[Point]:
        """Where a location's development pips go: a row under its mark, one per level of capacity."""
        spot = self.board.spots[key]
        x, y = layout.centre(Location(key))
        r = self.pip_radius(layout)
        gap = 2 * r + max(2, r // 2)
        y0 = y + layout.unit * 0.5 + r + 2
        return [(x + (i - (spot.levels - 1) / 2) * gap, y0) for i in range(spot.levels)]

    def automatic_target(self, state: AlleghenyState) -> str:
        """Where the next automatic metro development goes ("" when none), as the session worked it out."""
        return str(self.drawn.get("auto", ""))

    # -- the map --------------------------------------------------------------------------------------------
    def paint_state(self, surface: Any, layout: Layout, state: Any, overlay: bool = False) -> None:
        """Track, railroad names, bases, the P&LE, the automatic target and the pips (see :meth:`state_pieces`)."""
        for piece in self.state_pieces(layout, state, overlay):
            piece.draw(surface)

    def state_pieces(self, layout: Layout, state: Any, overlay: bool = False) -> list[Piece]:
        """What the state adds to the map, each mark a piece in drawing order: every track's line, then
        the railroads' names on them, the open railroads' base rings, the P&LE's tag, the automatic
        target's ring, and each location's pips (or an external connection's bonus). Laying track
        repaints that link and its name, developing a location its pips. A piece is made once per
        screen size and kept (what it shows is all in its key)."""
        kept = self._kept_pieces(layout)
        pieces: list[Piece] = []

        def piece(key: tuple[Any, ...], make: Callable[[], Piece]) -> None:
            if key not in kept:
                kept[key] = make()
            pieces.append(kept[key])

        width = self.track_width(layout)
        lines = self.track_lines(layout, state)
        for rr, a, b in lines:
            piece(("track", rr, a, b), partial(self._track_piece, width, rr, a, b))
        label = text.px(0.016, layout.height)
        for rr, a, b in lines:
            if math.dist(a, b) > 6 * label:  # short links keep their colour and dashes only: no clutter
                mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                name, colour = self.board.by_key[rr].name, self.style(rr).colour
                piece(("tag", name, mid, colour, label, False), partial(self._tag_piece, mid, name, colour, label))
        running = self.drawn.get("open", ())
        for rr in self.board.railroads:
            if rr.key in running and rr.key != self.board.rules.ple:
                piece(("base", rr.key), partial(self._base_piece, layout, rr.key))
        r = self.board.rules
        name = self.board.by_key[r.ple].name
        at = self._ple_at(layout, label)
        words, colour = (name if state.ple_open else f"{name}?"), self.style(r.ple).colour
        piece(("tag", words, at, colour, label, not state.ple_open),
              partial(self._tag_piece, at, words, colour, label, not state.ple_open))
        target = self.automatic_target(state)
        if target:
            piece(("auto", target), partial(self._auto_piece, layout, target, label))
        for key, spot in self.board.spots.items():
            if spot.external:
                piece(("bonus", key, spot.bonus), partial(self._bonus_piece, layout, key, spot.bonus))
            else:
                level = state.level(key)
                piece(("pips", key, level), partial(self._pips_piece, layout, key, level))
        return pieces

    def _kept_pieces(self, layout: Layout) -> dict[Any, Piece]:
        """Pieces made for this screen size, by key: most of a new state's marks were on the last one."""
        size = (layout.width, layout.height)
        if self._kept is None or self._kept[0] != size or len(self._kept[1]) > 4000:
            self._kept = (size, {})
        return self._kept[1]

    def _track_piece(self, width: int, rr: str, a: Point, b: Point) -> Piece:
        style = self.style(rr)
        return Piece(("track", rr, a, b, width), around([a, b], (width + 4) / 2 + 2),
                     lambda s: draw_line(s, a, b, style.colour, width, style.dash, casing=casing_for(style.colour)))

    def _tag_piece(self, centre: Point, words: str, fill: palette.Colour, size: int, dashed: bool = False) -> Piece:
        return Piece(("tag", words, centre, fill, size, dashed), tag_box(centre, words, size).inflate(4, 4),
                     lambda s: self._tag(s, centre, words, fill, size, dashed))

    def _base_piece(self, layout: Layout, rr: str) -> Piece:
        """A railroad's base: a ring in its colour on a casing (drawn inside its radius)."""
        x, y = layout.centre(Location(self.board.by_key[rr].base))
        c = (round(x), round(y))
        ring = round(layout.unit * 0.62)
        colour = self.style(rr).colour

        def paint(surface: Any) -> None:
            pygame.draw.circle(surface, casing_for(colour), c, ring, max(4, round(layout.unit * 0.16)))
            pygame.draw.circle(surface, colour, c, ring, max(2, round(layout.unit * 0.1)))

        return Piece(("base", rr, c, ring), around([c], ring + 1), paint)

    def _auto_piece(self, layout: Layout, key: str, size: int) -> Piece:
        x, y = layout.centre(Location(key))
        pad = layout.unit * 0.85 + max(5, round(layout.unit * 0.14)) / 2 + 2
        return Piece(("auto", key, x, y, layout.unit), around([(x, y)], pad),
                     lambda s: self._paint_auto(s, layout, key, size))

    def _bonus_piece(self, layout: Layout, key: str, bonus: int) -> Piece:
        """An external connection's bonus under its mark (halo included in the rectangle)."""
        x, y = layout.centre(Location(key))
        at, size, words = (x, y + layout.unit * 0.55), text.px(text.SMALL, layout.height), f"+${bonus}"
        box = text.box(words, at, size, palette.FORT, anchor="midtop", bold=True)
        step = max(1, size // 14)
        return Piece(("bonus", key, at, size, bonus), box.inflate(2 * step + 2, 2 * step + 2),
                     lambda s: text.draw(s, words, at, size, palette.FORT, anchor="midtop", halo=True, bold=True))

    def _pips_piece(self, layout: Layout, key: str, level: int) -> Piece:
        """A location's development: one pip per level of capacity, the first ``level`` filled."""
        r = self.pip_radius(layout)
        pips = self.pips(layout, key)

        def paint(surface: Any) -> None:
            for i, (px, py) in enumerate(pips):
                centre = (round(px), round(py))
                pygame.draw.circle(surface, palette.CITY_EDGE, centre, r + 2)
                if i < level:
                    pygame.draw.circle(surface, palette.CITY, centre, r)
                else:
                    pygame.draw.circle(surface, palette.TEXT_DIM, centre, r, max(1, r // 3))

        return Piece(("pips", key, level, tuple(pips), r), around(pips, r + 3), paint)

    def _ple_at(self, layout: Layout, size: int) -> Point:
        """Where the P&LE's tag goes: right of the pips of the location that opens it."""
        r = self.board.rules
        name = self.board.by_key[r.ple].name
        pips = self.pips(layout, r.ple_opens_at)
        w = text.font(size, True).size(name + "?")[0]
        return (pips[-1][0] + self.pip_radius(layout) + 6 + w / 2 + size / 2, pips[-1][1])

    def _paint_auto(self, surface: Any, layout: Layout, key: str, size: int) -> None:
        """The next automatic metro development: a dashed yellow ring (a base's ring is solid)."""
        x, y = layout.centre(Location(key))
        radius = layout.unit * 0.85
        steps = 16
        for k in range(0, steps, 2):
            a0, a1 = 2 * math.pi * k / steps, 2 * math.pi * (k + 1) / steps
            arc = [(x + radius * math.cos(a0 + (a1 - a0) * j / 4), y + radius * math.sin(a0 + (a1 - a0) * j / 4))
                   for j in range(5)]
            pygame.draw.lines(surface, palette.CITY_EDGE, False, arc, max(5, round(layout.unit * 0.14)))
            pygame.draw.lines(surface, AUTO, False, arc, max(3, round(layout.unit * 0.09)))

    @staticmethod
    def _tag(surface: Any, centre: Point, words: str, fill: palette.Colour, size: int, dashed: bool = False) -> None:
        """A railroad's name in a small pill of its colour."""
        box = tag_box(centre, words, size)
        h = box.h - 2
        pygame.draw.rect(surface, fill, box, border_radius=h // 2)
        edge = casing_for(fill)
        if dashed:
            for x in range(box.x, box.right, 6):
                pygame.draw.line(surface, palette.TEXT, (x, box.y), (min(x + 3, box.right), box.y), 2)
                pygame.draw.line(surface, palette.TEXT, (x, box.bottom - 1), (min(x + 3, box.right), box.bottom - 1), 2)
        else:
            pygame.draw.rect(surface, edge, box, 1, border_radius=h // 2)
        text.draw(surface, words, box.center, size, ink_on(fill), anchor="center", bold=True)

    # -- the side panel --------------------------------------------------------------------------------------
    def auction_lines(self, state: AlleghenyState) -> list[str]:
        """The auction under way in words: stock, high bid and whose, whose bid, who passed."""
        a = state.auction
        if a is None:
            return []
        rules = self.board.rules
        rr = self.board.by_key[a.railroad]
        head = (f"Initial offering {state.offered + 1} of {len(rules.offering)}" if state.phase == "offering"
                else f"The {rr.name} opens")
        lines = [head, f"Stock: {rr.label}, base {self.board.name(rr.base)}",
                 f"High bid: ${a.high} by {rules.seating[a.leader]}" if a.leader is not None
                 else f"No bid yet (at least ${rules.minimum})",
                 f"Bidding now: {rules.seating[a.bidder]}"]
        if a.passed:
            lines.append("Passed: " + ", ".join(rules.seating[s] for s in sorted(a.passed)))
        return lines

    def paint_side(self, surface: Any, layout: Layout, rect: Rect, state: Any) -> None:
        """The auction, the railroads, the automatic line and the key (see :meth:`side_pieces`)."""
        for piece in self.side_pieces(layout, rect, state):
            piece.draw(surface)

    def side_pieces(self, layout: Layout, rect: Rect, state: Any) -> list[Piece]:
        """Each line of the panel a piece (a bid repaints the auction's changed lines), the railroads'
        samples and the key each one piece: the key follows the lines above it, so it moves only when
        the auction comes or goes."""
        pieces: list[Piece] = []
        col = text.Column(None, rect, layout.height, pieces)
        head, body = text.px(text.BODY, layout.height), text.px(LINE, layout.height)
        y = rect.y
        # What just happened, in names (a bid won and its price, bonuses paid, automatic growth), in a fixed
        # height so that the lines under it do not move (and repaint) when a turn says more or less.
        col.text("Just happened", (rect.x, y), head, palette.TEXT, bold=True)
        for i, line in enumerate(state.recent[:4]):  # the state's own record, in the engine's words
            col.text(line, (rect.x, y + head + 2 + i * (body + 3)), body, palette.TEXT, max_width=rect.w)
        y += head + 2 + 4 * (body + 3) + 6
        lines = self.auction_lines(state)
        if lines:
            col.text("Auction", (rect.x, y), head, palette.TEXT, bold=True)
            y += head + 2
            for i, line in enumerate(lines):
                col.text(line, (rect.x, y), body, palette.FORT if i == 3 else palette.TEXT, bold=i in (2, 3),
                         max_width=rect.w)
                y += body + 3
            y += 6
        y = self._railroad_rows(col, layout, Rect(rect.x, y, rect.w, rect.h), state)
        col.text(_first_up(self.drawn.get("automatic_line", "")), (rect.x, y + 4), body, AUTO, max_width=rect.w)
        y += body + 12
        for reading in self.drawn.get("readings", ()):  # the readings in force, in words
            col.text(reading, (rect.x, y), body, palette.TEXT_DIM, max_width=rect.w)
            y += body + 3
        y += 6
        pieces.append(self._key_piece(layout, Rect(rect.x, y, rect.w, rect.y + rect.h - y), state.ple_open))
        return pieces

    def _railroad_rows(self, col: text.Column, layout: Layout, rect: Rect, state: AlleghenyState) -> int:
        """Each railroad's sample line, name, owner, price, value and income; returns the y below."""
        head, body = text.px(text.BODY, layout.height), text.px(LINE, layout.height)
        small = text.px(text.SMALL, layout.height)
        y = rect.y
        col.text("Railroads: owner, value, income", (rect.x, y), head, palette.TEXT, bold=True, max_width=rect.w)
        y += head + 4
        sample = 2 * body
        rows = self.drawn.get("rows") or tuple({"railroad": rr.label, "owner": ""} for rr in self.board.railroads)
        for rr, row in zip(self.board.railroads, rows, strict=True):
            style = self.style(rr.key)
            ends = ((rect.x, y + body / 2), (rect.x + sample, y + body / 2))
            col.put(("sample", style, ends), around(ends, 9 / 2 + 2),
                    lambda s, style=style, ends=ends: draw_line(s, ends[0], ends[1], style.colour, 5, style.dash,
                                                                casing=casing_for(style.colour)))
            building = state.phase == "build" and state.railroad == rr.key
            col.text(row["railroad"] + ("  building" if building else ""), (rect.x + sample + 8, y), body,
                     palette.TEXT, bold=True, max_width=rect.w - sample - 8)
            y += body + 2
            if row["owner"]:
                words = f"{row['owner']} (${row['price']}): value {row['value']}, income ${row['income']}"
            elif rr.key == self.board.rules.ple:
                words = f"opens when a railroad reaches {self.board.name(self.board.rules.ple_opens_at)}"
            else:
                words = "not sold yet"
            col.text(words, (rect.x + sample + 8, y), small, palette.TEXT if row["owner"] else palette.TEXT_DIM,
                     max_width=rect.w - sample - 8)
            y += small + 6
        return y

    def _key_piece(self, layout: Layout, rect: Rect, ple_open: bool) -> Piece:
        """Every symbol of the map, laid out by the shared key in ``rect``: one piece, kept per place."""
        kept = self._kept_pieces(layout)
        key = ("key", rect.as_tuple(), ple_open)
        if key not in kept:
            line = text.font(text.px(text.BODY, layout.height), True).get_linesize()
            box = rect_of(Rect(rect.x, rect.y, rect.w, max(rect.h, line)), 4)
            sw = key_row_height(layout)
            ple = self.board.by_key[self.board.rules.ple].name
            tag = tag_box((rect.x + round(sw * SAMPLE_WIDTH) / 2, rect.y), ple + "?", text.px(0.016, layout.height))
            box.x, box.w = min(box.x, tag.x - 4), max(box.right, tag.right + 4) - min(box.x, tag.x - 4)
            kept[key] = Piece(key, box, lambda s: self._paint_key(s, layout, rect, ple_open))
        return kept[key]

    def _paint_key(self, surface: Any, layout: Layout, rect: Rect, ple_open: bool) -> None:
        """Every symbol of the map, laid out by the shared key."""
        body = text.px(text.SMALL, layout.height)
        rows = ["city", "town", "external", "pips", "rail", "external_link", "base", "auto", "ple"]
        paint_entries(surface, layout, rect, [
            KeyEntry(self._key_words(row), partial(self._key_sample, layout, row, body, ple_open)) for row in rows])

    def _key_sample(self, layout: Layout, row: str, size: int, ple_open: bool, surface: Any,
                    box: pygame.Rect) -> None:
        self._swatch(surface, layout, row, box, size, ple_open)

    def _key_words(self, row: str) -> str:
        ple = self.board.by_key[self.board.rules.ple].name
        return {"city": "metro area", "town": "settlement", "external": "external connection, bonus",
                "pips": "developed / capacity", "rail": "link to build", "external_link": "link to a connection",
                "base": "a railroad's base", "auto": "next automatic metro",
                "ple": f"{ple} (? until it opens)"}[row]

    def _swatch(self, surface: Any, layout: Layout, row: str, box: pygame.Rect, size: int, ple_open: bool) -> None:
        c = (box.centerx, box.centery)
        r = box.h / 2
        if row in ("city", "town", "external"):
            draw_mark(surface, {"city": "circle", "town": "square", "external": "diamond"}[row], c, r * 0.75)
        elif row == "pips":
            pr = max(3, round(r * 0.35))
            for i in range(3):
                at = (round(box.x + pr + 2 + i * (2 * pr + 3)), box.centery)
                pygame.draw.circle(surface, palette.CITY_EDGE, at, pr + 2)
                if i < 2:
                    pygame.draw.circle(surface, palette.CITY, at, pr)
                else:
                    pygame.draw.circle(surface, palette.TEXT_DIM, at, pr, max(1, pr // 3))
        elif row in ("rail", "external_link"):
            draw_line(surface, (box.x, box.centery), (box.right, box.centery), UNBUILT, 3,
                      (1, 2) if row == "external_link" else ())
        elif row == "base":
            pygame.draw.circle(surface, palette.TEXT_DIM, c, round(r * 0.8), 3)
        elif row == "auto":
            pygame.draw.circle(surface, AUTO, c, round(r * 0.8), 3)
        else:
            self._tag(surface, c, self.board.by_key[self.board.rules.ple].name, self.style(self.board.rules.ple).colour,
                      text.px(0.016, layout.height), dashed=not ple_open)
