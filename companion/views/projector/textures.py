"""Terrain that reads like a printed board: textures per kind, sea depth, coasts, rivers and roads.

A projector flattens colour, so every known terrain also has a pattern drawn in its own darker or
lighter shade: grass tufts on plains, humps on hills, peaks on mountains, trees in forests, waves on
the sea (dense ripples in the shallows, a long swell far out). The pattern tells kinds apart without
colour (a colour-blind player reads plains from hills by their marks), and the key draws the same
swatches. Sea hexes touching land are lighter (the shallows), each coastline edge is a dark line
with pale surf on the sea side; rivers are lines through the hexes the map data names, roads a
pale surface between dark edges.

Everything here is drawn once into the board layer (cached per game and resolution), so none of it
costs anything per frame. The marks keep clear of each area's probe point (towards its east
corner), where the plain fill shows for the risk overlay and the tests.
"""

from __future__ import annotations

import math
import zlib
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from typing import Any

import pygame

from companion.hexgrid import Hex
from companion.places import Cell
from companion.views.projector import palette
from companion.views.projector.layout import Layout
from companion.views.projector.marks import clipped, outline_rect
from companion.views.projector.palette import Colour
from companion.views.projector.shapes.base import Point

TEXTURES: dict[str, str] = {
    "plain": "grass", "plains": "grass", "land": "grass", "river": "grass",
    "farm": "furrows",
    "hill": "hills", "hills": "hills",
    "mountain": "peaks", "mountains": "peaks",
    "forest": "trees",
    "ocean": "waves", "water": "waves", "sea": "waves",
}
"""Terrain kind -> its pattern; other kinds (a tile game's "city", "field") stay flat with their letter."""
SLOTS: tuple[tuple[float, float], ...] = ((-0.02, -0.42), (-0.42, 0.1), (0.14, 0.2), (-0.16, 0.52))
"""Where a pattern's marks sit, in units from the centre: all left of +0.35 units, so the probe point
(+0.62 units east) keeps the plain fill."""
DEEP = 4
"""Sea this many areas or more from land is open ocean: a long swell instead of ripples."""
MEANDER = 0.2
"""How far a river bends off the straight line between two area centres, in units."""
SURF_DEPTH = 0.2
"""How far the surf band reaches into a coastal sea area, as a share of the way to its centre."""


def texture_of(kind: str) -> str | None:
    return TEXTURES.get(kind)


def is_sea(kind: str) -> bool:
    return kind in palette.SEA_KINDS


def neighbours(place: Any) -> list[Any]:
    """The areas next to ``place`` (hexes: six, cells: four); other places have none."""
    if isinstance(place, Hex | Cell):
        return list(place.neighbours())
    return []


def sea_depth(terrain: Mapping[Any, str]) -> dict[Any, int]:
    """Each sea area's distance in areas to the nearest land (1: the shallows); a sea with no land
    anywhere is all open ocean."""
    depth: dict[Any, int] = {}
    queue: deque[Any] = deque()
    for place, kind in terrain.items():
        if not is_sea(kind):
            continue
        if any(n in terrain and not is_sea(terrain[n]) for n in neighbours(place)):
            depth[place] = 1
            queue.append(place)
    while queue:
        place = queue.popleft()
        for n in neighbours(place):
            if n in terrain and is_sea(terrain[n]) and n not in depth:
                depth[n] = depth[place] + 1
                queue.append(n)
    return {p: depth.get(p, DEEP) for p, k in terrain.items() if is_sea(k)}


def area_fill(kind: str, depth: int, fill: Callable[[str], Colour]) -> Colour:
    """The fill of an area: its kind's colour, the shallows lighter."""
    return palette.SHALLOWS if is_sea(kind) and depth == 1 else fill(kind)


def _shade(colour: Colour, amount: float) -> Colour:
    """Darker (amount < 0) or lighter (amount > 0) by ``abs(amount)`` of the way to black or white."""
    target = (255, 255, 255) if amount > 0 else (0, 0, 0)
    return palette.faded(colour, abs(amount), target)


def _jitter(place: Any, k: int) -> tuple[float, float]:
    """A small fixed offset per place and slot, so patterns do not look stamped (the same every time)."""
    h = zlib.crc32(f"{place!r}/{k}".encode()) & 0xFFFF  # not hash(): salted per process
    return ((h & 0xFF) / 255 - 0.5) * 0.1, ((h >> 8) / 255 - 0.5) * 0.1


def paint_pattern(surface: Any, centre: Point, unit: float, texture: str, colour: Colour, place: Any = None,
                  depth: int = 0) -> None:
    """The marks of ``texture`` around ``centre`` on an area filled with ``colour``; ``unit`` is the
    area's radius (a key swatch passes its own)."""
    x0, y0 = centre
    w = max(1, round(unit * 0.05))
    dark, light = _shade(colour, -0.38), _shade(colour, 0.3)
    slots = SLOTS
    if texture == "waves":
        slots = SLOTS[:3] if depth == 1 else SLOTS[:2] if depth < DEEP else SLOTS[1:2]
    for k, (sx, sy) in enumerate(slots):
        jx, jy = _jitter(place, k) if place is not None else (0.0, 0.0)
        x, y = x0 + (sx + jx) * unit, y0 + (sy + jy) * unit
        if texture == "grass":
            for dx, tip in ((-0.09, -0.12), (0.0, -0.17), (0.09, -0.12)):
                pygame.draw.line(surface, dark, (x, y), (x + dx * unit, y + tip * unit), w)
        elif texture == "furrows":
            for dy in (-0.08, 0.0, 0.08):
                pygame.draw.line(surface, dark, (x - 0.16 * unit, y + dy * unit), (x + 0.16 * unit, y + dy * unit), w)
        elif texture == "hills":
            r = pygame.Rect(round(x - 0.2 * unit), round(y - 0.1 * unit), round(0.4 * unit), round(0.28 * unit))
            pygame.draw.arc(surface, light, r.move(-w, -w), math.radians(90), math.radians(170), w)
            pygame.draw.arc(surface, dark, r, 0, math.pi, max(2, w + 1))
        elif texture == "peaks":
            top, base = (x, y - 0.22 * unit), y + 0.12 * unit
            left, right = (x - 0.2 * unit, base), (x + 0.2 * unit, base)
            pygame.draw.polygon(surface, light, [top, left, (x, y + 0.12 * unit)])
            pygame.draw.polygon(surface, dark, [top, (x, y + 0.12 * unit), right])
            pygame.draw.polygon(surface, palette.CITY, [top, (x - 0.07 * unit, y - 0.12 * unit),
                                                        (x + 0.07 * unit, y - 0.12 * unit)])
            pygame.draw.polygon(surface, _shade(colour, -0.55), [top, left, right], w)
        elif texture == "trees":
            pygame.draw.line(surface, _shade(colour, -0.5), (x, y), (x, y + 0.14 * unit), max(1, w))
            pygame.draw.circle(surface, dark, (round(x), round(y - 0.02 * unit)), max(2, round(0.1 * unit)))
        elif texture == "waves":
            span = 0.3 if depth >= DEEP else 0.2
            pts = [(x + (t / 8 - 0.5) * 2 * span * unit, y + 0.035 * unit * math.sin(t * math.pi / 2))
                   for t in range(9)]
            pygame.draw.lines(surface, light if depth < DEEP else _shade(colour, 0.18), False, pts, w)


def paint_terrain(surface: Any, layout: Layout, terrain: Mapping[Any, str], fill: Callable[[str], Colour],
                  rivers: Sequence[Sequence[Any]] = (), edge: int = 1) -> None:
    """Every area filled, patterned and outlined, then the coasts and the rivers."""
    depth = sea_depth(terrain)
    on_river = {p for river in rivers for p in river}
    for place, kind in terrain.items():
        colour = area_fill(kind, depth.get(place, 0), fill)
        pygame.draw.polygon(surface, colour, layout.outline(place))
        texture = texture_of(kind)
        if texture is not None:
            paint_pattern(surface, layout.centre(place), layout.unit, texture, colour, place, depth.get(place, 0))
        if kind == "river" and place not in on_river:  # a river hex with no river line in the data: a stroke
            x, y = layout.centre(place)
            paint_river(surface, [(x - layout.unit * 0.8, y), (x + layout.unit * 0.3, y)], layout.unit)
    for place in terrain:
        pygame.draw.polygon(surface, _shade(palette.GRID, -0.1), layout.outline(place), edge)
    paint_coasts(surface, layout, terrain)
    for river in rivers:
        paint_river(surface, river_line(layout, river), layout.unit)


def shared_edge(layout: Layout, place: Any, other: Any) -> tuple[Point, Point]:
    """The two corners of ``place``'s outline on the edge it shares with the neighbour ``other``:
    the two nearest the point halfway between their centres (true of hexes and squares alike)."""
    (ax, ay), (bx, by) = layout.centre(place), layout.centre(other)
    mid = ((ax + bx) / 2, (ay + by) / 2)
    corners = sorted(layout.outline(place), key=lambda c: math.dist(c, mid))
    return corners[0], corners[1]


def coast_edges(layout: Layout, terrain: Mapping[Any, str]) -> list[tuple[Any, Point, Point]]:
    """(sea area, corner, corner) for every edge between a sea area and a land one."""
    edges = []
    for place, kind in terrain.items():
        if is_sea(kind):
            for n in neighbours(place):
                if n in terrain and not is_sea(terrain[n]):
                    a, b = shared_edge(layout, place, n)
                    edges.append((place, a, b))
    return edges


def paint_coasts(surface: Any, layout: Layout, terrain: Mapping[Any, str]) -> None:
    """Pale surf inside the sea along each coast edge, then the coastline itself."""
    edges = coast_edges(layout, terrain)
    for place, a, b in edges:
        cx, cy = layout.centre(place)
        inner = [(p[0] + (cx - p[0]) * SURF_DEPTH, p[1] + (cy - p[1]) * SURF_DEPTH) for p in (b, a)]
        pygame.draw.polygon(surface, palette.SURF, [a, b, *inner])
    width = max(2, round(layout.unit * 0.07))
    for _, a, b in edges:
        pygame.draw.line(surface, palette.COAST, a, b, width)
        for p in (a, b):  # round the corners where two coast edges meet
            pygame.draw.circle(surface, palette.COAST, (round(p[0]), round(p[1])), max(1, width // 2))


def river_line(layout: Layout, places: Sequence[Any]) -> list[Point]:
    """A river's course through ``places``: their centres, run on to the edge of the first and last
    area (a river enters and leaves the board's areas, it does not start at a centre), smoothed."""
    pts = [layout.centre(p) for p in places]
    if len(pts) == 1:
        x, y = pts[0]
        return [(x - layout.unit * 0.85, y), (x + layout.unit * 0.85, y)]
    (ax, ay), (bx, by) = pts[0], pts[1]
    head = (ax - (bx - ax) * 0.5, ay - (by - ay) * 0.5)
    (yx, yy), (zx, zy) = pts[-2], pts[-1]
    tail = (zx + (zx - yx) * 0.5, zy + (zy - yy) * 0.5)
    return smooth(meander([head, *pts, tail], layout.unit * MEANDER))


def meander(points: Sequence[Point], amount: float) -> list[Point]:
    """A bend between each two points, to alternate sides by ``amount`` pixels: a river that winds
    rather than a ruled line (it still passes through every area's centre)."""
    out = [points[0]]
    for i, (a, b) in enumerate(pairwise(points)):
        length = math.dist(a, b) or 1.0
        nx, ny = -(b[1] - a[1]) / length, (b[0] - a[0]) / length
        side = amount if i % 2 == 0 else -amount
        out += [((a[0] + b[0]) / 2 + nx * side, (a[1] + b[1]) / 2 + ny * side), b]
    return out


def smooth(points: Sequence[Point], rounds: int = 2) -> list[Point]:
    """Chaikin's corner cutting: a polyline's corners rounded off, its ends kept."""
    pts = list(points)
    for _ in range(rounds):
        if len(pts) < 3:
            return pts
        out = [pts[0]]
        for (ax, ay), (bx, by) in pairwise(pts):
            out += [(ax * 0.75 + bx * 0.25, ay * 0.75 + by * 0.25), (ax * 0.25 + bx * 0.75, ay * 0.25 + by * 0.75)]
        out.append(pts[-1])
        pts = out
    return pts


def paint_river(surface: Any, points: Sequence[Point], unit: float) -> None:
    """A river: blue over a dark edge, widening a little downstream (the last point is its mouth)."""
    if len(points) < 2:
        return
    n = len(points) - 1
    for casing in (True, False):
        for i, (a, b) in enumerate(pairwise(points)):
            w = max(2, round(unit * (0.09 + 0.07 * i / max(1, n))))
            colour = palette.RIVER_EDGE if casing else palette.RIVER
            width = w + (max(2, round(unit * 0.06)) if casing else 0)
            pygame.draw.line(surface, colour, a, b, width)
            pygame.draw.circle(surface, colour, (round(b[0]), round(b[1])), max(1, width // 2))


def paint_road(surface: Any, points: Sequence[Point], unit: float) -> None:
    """A road: a pale surface between dark edges, round at the bends, a dashed centre line."""
    if len(points) < 2:
        return
    w = max(3, round(unit * 0.13))
    edge = w + 2 * max(1, round(unit * 0.035))
    for colour, width in ((palette.ROAD_EDGE, edge), (palette.ROAD, w)):
        pygame.draw.lines(surface, colour, False, points, width)
        for x, y in points:
            pygame.draw.circle(surface, colour, (round(x), round(y)), width // 2)
    dash = max(2, round(unit * 0.12))
    for a, b in pairwise(points):
        length = math.dist(a, b)
        steps = int(length // (2 * dash))
        for k in range(1, steps):
            t0, t1 = (2 * k * dash) / length, (2 * k * dash + dash) / length
            pygame.draw.line(surface, palette.ROAD_EDGE, (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                             (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1), max(1, w // 5))


def paint_swatch(surface: Any, rect: Any, kind: str, fill: Callable[[str], Colour], depth: int = 2) -> None:
    """A key swatch for an area kind: its fill and pattern, as on the map (``depth`` 1: the shallows)."""
    colour = area_fill(kind, depth, fill)
    pygame.draw.rect(surface, colour, rect)
    texture = texture_of(kind)
    if texture is not None:
        unit = rect.h * 0.62
        with clipped(surface, rect):
            paint_pattern(surface, (rect.centerx + unit * 0.12, rect.centery + unit * 0.05), unit, texture, colour,
                          None, depth)
    if kind == "river":
        paint_river(surface, [(rect.x, rect.centery + 2), (rect.right, rect.centery - 2)], rect.h * 0.5)
    outline_rect(surface, palette.GRID, rect, 1)


def has_coast(terrain: Mapping[Any, str]) -> bool:
    """Whether any sea area touches land (the key then shows the coast and the shallows)."""
    return any(is_sea(k) and any(n in terrain and not is_sea(terrain[n]) for n in neighbours(p))
               for p, k in terrain.items())
