"""The static board: terrain, roads, cities and towns, drawn once per game and resolution.

Each game's painter describes its printed board as :class:`MapData` (plain hexes, places and road
polylines); this module knows nothing of any game. The result is cached by the renderer and every
frame starts from a copy of it, so a frame only pays for what changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pygame

from companion.hexgrid import Hex
from companion.views.projector import palette, text
from companion.views.projector.layout import Layout


@dataclass(frozen=True)
class Place:
    """A named spot on the board: a "city" (large, named in big type) or a "town" (small)."""

    name: str
    hex: Hex
    kind: str = "city"
    label: bool = True
    """Whether the name is printed (a city's secondary spaces carry only a mark)."""


@dataclass(frozen=True)
class MapData:
    """What the board painter needs: every hex's terrain, the places, and roads as hex polylines."""

    terrain: Mapping[Hex, str]
    places: tuple[Place, ...] = ()
    roads: tuple[tuple[Hex, ...], ...] = ()
    title: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def hexes(self) -> list[Hex]:
        return list(self.terrain)


def paint_board(surface: Any, layout: Layout, data: MapData) -> None:
    """Terrain, roads and place marks onto ``surface`` (names come last, see :func:`paint_labels`)."""
    surface.fill(palette.BACKGROUND)
    edge = max(1, round(layout.hex_size * 0.05))
    for h, kind in data.terrain.items():
        pts = layout.polygon(h)
        pygame.draw.polygon(surface, palette.terrain(kind), pts)
        pygame.draw.polygon(surface, palette.GRID, pts, edge)
    road_w = max(2, round(layout.hex_size * 0.16))
    for road in data.roads:
        pts = [layout.centre(h) for h in road]
        if len(pts) >= 2:
            pygame.draw.lines(surface, palette.ROAD, False, pts, road_w)
    for place in data.places:
        paint_place(surface, layout, place)


def paint_labels(surface: Any, layout: Layout, data: MapData) -> None:
    """The place names, drawn last so no storm mark hides them; a name that would overlap one
    already placed goes under its mark instead (neighbouring cities on the coast)."""
    taken: list[Any] = []
    for place in data.places:
        if place.label:
            taken.append(label_place(surface, layout, place, taken))


def paint_place(surface: Any, layout: Layout, place: Place) -> None:
    x, y = layout.centre(place.hex)
    s = layout.hex_size
    if place.kind == "city":
        r = round(s * 0.42)
        pygame.draw.circle(surface, palette.CITY, (x, y), r)
        pygame.draw.circle(surface, palette.CITY_EDGE, (x, y), r, max(2, round(s * 0.08)))
    else:
        half = round(s * 0.22)
        pygame.draw.rect(surface, palette.CITY, (x - half, y - half, 2 * half, 2 * half))
        pygame.draw.rect(surface, palette.CITY_EDGE, (x - half, y - half, 2 * half, 2 * half), max(1, round(s * 0.05)))


def label_place(surface: Any, layout: Layout, place: Place, taken: list[Any] | None = None) -> Any:
    """The name above the mark (cities in large type with a halo, legible from across the table),
    or below it when ``taken`` (rectangles of names already drawn) has that spot; returns its rectangle."""
    x, y = layout.centre(place.hex)
    share = text.CITY_NAME if place.kind == "city" else text.TOWN_NAME
    size = text.px(share, layout.height)
    bold = place.kind == "city"
    width, height = text.font(size, bold).size(place.name)
    lo, hi = layout.map.x + width / 2, layout.map.x + layout.map.w - width / 2
    x = min(max(x, lo), hi) if lo <= hi else x  # names near the edge slide inwards rather than off screen
    above = pygame.Rect(0, 0, width, height)
    above.midbottom = (round(x), round(y - layout.hex_size * 0.5))
    if taken and above.inflate(size // 2, 0).collidelist(taken) >= 0:  # halo and a little air
        return text.draw(surface, place.name, (x, y + layout.hex_size * 0.5), size, palette.TEXT, anchor="midtop",
                         halo=True, bold=bold)
    return text.draw(surface, place.name, above.midbottom, size, palette.TEXT, anchor="midbottom", halo=True,
                     bold=bold)
