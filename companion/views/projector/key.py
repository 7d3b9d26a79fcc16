"""The key to a board's symbols in the side panel: every terrain (with its pattern), the shallows and the
coast, rivers, roads, open cells, location and link kinds, and whatever marks a game's painter adds,
each drawn as it is on the map beside its name.

The map's symbols differ by more than colour (a pattern, a letter, a shape, a dash pattern); the key
names each, so nothing on the map has to be guessed. A game's painter passes its own marks as
:class:`KeyEntry` values (a label and a function drawing the sample), so every game's key looks alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from companion.places import SquareBoard
from companion.views.projector import palette, text, textures
from companion.views.projector.board import MapData
from companion.views.projector.layout import Layout, Rect
from companion.views.projector.marks import draw_line, draw_mark, outline_rect
from companion.views.projector.pieces import Piece, rect_of
from companion.views.projector.symbols import words

AREA_LABELS = {"river": "river hex"}
"""Area kinds whose word alone would name another row too (a river hex beside the river's line)."""
SAMPLE_WIDTH = 1.6
"""A sample's width in row heights (a line needs some length to show its pattern)."""


@dataclass(frozen=True)
class KeyEntry:
    """One row of the key: the sample drawn into its box, and what it means."""

    label: str
    draw: Callable[[Any, Any], None]
    """(surface, pygame.Rect of the sample) -> None."""


def key_rows(data: MapData) -> list[tuple[str, str, str]]:
    """(what, kind, label) for each symbol on the map, in the order the key shows them:
    areas, the shallows and the coast, open cells, rivers, roads, locations, links."""
    rows: list[tuple[str, str, str]] = [("area", k, AREA_LABELS.get(k, words(k)))
                                        for k in sorted(set(data.terrain.values()))]
    if textures.has_coast(data.terrain):
        sea = next(k for k in sorted(set(data.terrain.values())) if textures.is_sea(k))
        rows += [("shallows", sea, "shallows"), ("coast", sea, "coast")]
    if isinstance(data.board, SquareBoard):
        rows.append(("open", "", "open: a tile may go here"))
    if data.rivers:
        rows.append(("river", "", "river"))
    if data.roads:
        rows.append(("road", "", "road"))
    rows += [("spot", k, words(k)) for k in sorted({p.kind for p in data.places})]
    links = getattr(data.board, "links", {})
    rows += [("link", k, words(k)) for k in sorted(set(links.values()))]
    return rows


def board_entries(data: MapData) -> list[KeyEntry]:
    """The key rows of the board itself, each with its sample."""
    symbols = data.symbols
    fill = symbols.fill if symbols is not None else palette.terrain
    land = next((k for k in sorted(set(data.terrain.values())) if not textures.is_sea(k)), "land")
    entries: list[KeyEntry] = []
    for what, kind, label in key_rows(data):
        entries.append(KeyEntry(label, _sampler(what, kind, data, fill, land)))
    return entries


def _sampler(what: str, kind: str, data: MapData, fill: Callable[[str], palette.Colour],
             land: str) -> Callable[[Any, Any], None]:
    symbols = data.symbols

    def area(surface: Any, box: Any) -> None:
        square = pygame.Rect(box.x, box.y, box.h, box.h)
        textures.paint_swatch(surface, square, kind, fill, 1 if what == "shallows" else textures.DEEP)
        if symbols is not None and symbols.letters.get(kind):
            text.draw(surface, symbols.letters[kind], square.center, text.minimum(surface.get_height()),
                      palette.CITY_EDGE, anchor="center")

    def coast(surface: Any, box: Any) -> None:
        half = box.h // 2
        pygame.draw.rect(surface, fill(land), (box.x, box.y, half, box.h))
        pygame.draw.rect(surface, palette.SHALLOWS, (box.x + half, box.y, box.h - half, box.h))
        pygame.draw.rect(surface, palette.SURF, (box.x + half, box.y, max(2, box.h // 6), box.h))
        pygame.draw.line(surface, palette.COAST, (box.x + half, box.y), (box.x + half, box.bottom - 1),
                         max(2, box.h // 10))

    def opened(surface: Any, box: Any) -> None:
        outline_rect(surface, palette.GRID, pygame.Rect(box.x, box.y, box.h, box.h).inflate(-4, -4), 2)

    def river(surface: Any, box: Any) -> None:
        textures.paint_river(surface, [(box.x + 2, box.centery + box.h // 6), (box.right - 2, box.centery -
                                                                               box.h // 6)], box.h * 0.6)

    def road(surface: Any, box: Any) -> None:
        textures.paint_road(surface, [(box.x + 4, box.centery), (box.right - 4, box.centery)], box.h * 0.8)

    def spot(surface: Any, box: Any) -> None:
        centre = (box.x + box.h / 2, box.centery)
        mark = data.mark(kind) or ("circle" if kind == "city" else "square")
        r = box.h * (0.46 if mark == "circle" else 0.4)
        draw_mark(surface, mark, centre, r, width=2)

    def link(surface: Any, box: Any) -> None:
        style = (symbols.line(kind) if symbols is not None else None)
        if style is not None:
            draw_line(surface, (box.x, box.centery), (box.right, box.centery), style.colour, 3, style.dash)

    return {"area": area, "shallows": area, "coast": coast, "open": opened, "river": river, "road": road,
            "spot": spot}.get(what, link)


def row_height(layout: Layout) -> int:
    return text.px(text.SMALL, layout.height) + 8


def columns(layout: Layout, width: int) -> int:
    """Two columns when each still leaves a label of about twelve characters beside its sample."""
    body = text.px(text.SMALL, layout.height)
    sample = round(row_height(layout) * SAMPLE_WIDTH)
    return 2 if (width // 2) - sample - 8 >= body * 6 else 1


def key_height(layout: Layout, width: int, entries: Sequence[KeyEntry], title: bool = True) -> int:
    """The pixels the key of ``entries`` takes at ``width``."""
    rows = -(-len(entries) // columns(layout, width))
    head = text.font(text.px(text.BODY, layout.height), True).get_linesize() if title else 0
    return head + rows * (row_height(layout) + 4)


def paint_entries(surface: Any, layout: Layout, rect: Rect, entries: Sequence[KeyEntry], title: str = "Key") -> int:
    """``entries`` under ``title`` from the top of ``rect``, in one or two columns; returns the y below.
    Rows that do not fit are left out (the rectangle's height is the limit)."""
    head = text.px(text.BODY, layout.height)
    body = text.px(text.SMALL, layout.height)
    y = rect.y
    if title:
        text.draw(surface, title, (rect.x, y), head, palette.TEXT, bold=True, max_width=rect.w)
        y += text.font(head, True).get_linesize()
    cols = columns(layout, rect.w)
    col_w = rect.w // cols
    sw = row_height(layout)
    sample_w = round(sw * SAMPLE_WIDTH)
    for i, entry in enumerate(entries):
        col, row = i % cols, i // cols
        top = y + row * (sw + 4)
        if top + sw > rect.y + rect.h:
            break
        x = rect.x + col * col_w
        box = pygame.Rect(x, top, sample_w, sw)
        entry.draw(surface, box)
        text.draw(surface, entry.label, (box.right + 8, box.centery), body, palette.TEXT, anchor="midleft",
                  max_width=col_w - sample_w - 12)
    rows = -(-len(entries) // cols)
    return y + rows * (sw + 4)


def paint_key(surface: Any, layout: Layout, rect: Rect, data: MapData, title: str = "Key",
              extra: Sequence[KeyEntry] = ()) -> int:
    """The key of every symbol on the map (and a painter's ``extra`` marks) under ``title`` from the
    top of ``rect``; returns the y below it."""
    return paint_entries(surface, layout, rect, [*board_entries(data), *extra], title)


def key_foot_split(layout: Layout, rect: Rect, data: MapData, extra: Sequence[KeyEntry] = ()) -> tuple[Rect, Rect]:
    """Where :func:`paint_key_foot` puts the key in ``rect``: (the space left above it, the key with its
    rule above)."""
    entries = [*board_entries(data), *extra]
    height = min(rect.h, key_height(layout, rect.w, entries))
    top = rect.y + rect.h - height
    return Rect(rect.x, rect.y, rect.w, max(0, top - 12 - rect.y)), Rect(rect.x, top - 7, rect.w, height + 7)


def paint_key_foot(surface: Any, layout: Layout, rect: Rect, data: MapData, extra: Sequence[KeyEntry] = (),
                   title: str = "Key") -> Rect:
    """The key at the foot of ``rect``; returns the space left above it for the game's own lines."""
    entries = [*board_entries(data), *extra]
    height = min(rect.h, key_height(layout, rect.w, entries))
    top = rect.y + rect.h - height
    pygame.draw.line(surface, palette.GRID, (rect.x, top - 6), (rect.x + rect.w, top - 6), 2)
    paint_entries(surface, layout, Rect(rect.x, top, rect.w, height), entries, title)
    return Rect(rect.x, rect.y, rect.w, max(0, top - 12 - rect.y))


class FootKey:
    """The key at the foot of a side panel as one piece (:mod:`companion.views.projector.pieces`). It is the
    same all game, so it is laid out once per screen size and panel rectangle, and the game's rows above it
    get the space left."""

    def __init__(self) -> None:
        self._made: tuple[Any, Rect, Piece] | None = None

    def split(self, layout: Layout, rect: Rect, data: Callable[[], MapData],
              entries: Callable[[], Sequence[KeyEntry]]) -> tuple[Rect, Piece]:
        """(the space above the key, the key's piece); ``data`` and ``entries`` are asked only when laid out."""
        made_for = (layout.width, layout.height, rect)
        if self._made is None or self._made[0] != made_for:
            board, extra = data(), list(entries())
            above, key = key_foot_split(layout, rect, board, extra)
            # clips=False: a hills swatch draws arcs, which pygame draws otherwise through a clip
            piece = Piece(("key", layout.width, layout.height), rect_of(key, 2),
                          lambda surface: paint_key_foot(surface, layout, rect, board, extra), clips=False)
            self._made = (made_for, above, piece)
        return self._made[1], self._made[2]
