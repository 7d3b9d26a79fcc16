"""Colours of the projector map, chosen so colour-blind players read them as well as anyone.

The risk heat-map runs along cividis (dark blue to yellow), which keeps its order for every common
colour-vision deficiency and in greyscale; categorical marks (forecast paths, damage kinds) use the
Okabe-Ito set. Meaning never rests on colour alone: damage also has a shape, paths a label.
"""

from __future__ import annotations

import functools
import math
from bisect import bisect_right
from itertools import pairwise

Colour = tuple[int, int, int]

BACKGROUND: Colour = (16, 20, 28)
PANEL: Colour = (28, 32, 42)
TEXT: Colour = (240, 240, 240)
TEXT_DIM: Colour = (170, 175, 185)
GRID: Colour = (60, 66, 78)

TERRAIN: dict[str, Colour] = {
    "ocean": (38, 70, 110),
    "water": (38, 70, 110),
    "sea": (38, 70, 110),
    "land": (150, 150, 118),
    "plains": (170, 160, 110),
    "plain": (170, 160, 110),
    "hill": (136, 116, 84),
    "hills": (136, 116, 84),
    "mountain": (118, 108, 104),
    "mountains": (118, 108, 104),
    "forest": (84, 118, 74),
    "river": (158, 164, 112),
    "farm": (150, 160, 100),
    "town": (185, 175, 150),
    "city": (205, 195, 170),
}
"""Terrain fill by kind; unknown kinds fall back to LAND. A river hex is land a river runs through (the
river itself is a line), so it is a plain a shade greener, never a blue that reads as a lake."""
LAND: Colour = TERRAIN["land"]
SEA_KINDS = frozenset({"ocean", "water", "sea"})
SHALLOWS: Colour = (58, 104, 142)
"""Sea hexes touching land: lighter than the open sea (``TERRAIN["ocean"]``), as on a printed chart."""
SURF: Colour = (150, 196, 214)
"""The pale band of sea along a coast."""
COAST: Colour = (28, 34, 40)
"""The coastline drawn along every edge between land and sea."""
RIVER: Colour = (74, 150, 214)
RIVER_EDGE: Colour = (24, 52, 86)
ROAD: Colour = (232, 214, 170)
"""A road's pale surface; its dark edges are ROAD_EDGE."""
ROAD_EDGE: Colour = (70, 52, 40)
SHADOW = (0, 0, 0, 90)
"""Drop shadow under marks and tokens (RGBA), so they stand off any terrain."""
CITY: Colour = (250, 250, 250)
CITY_EDGE: Colour = (20, 20, 20)

OKABE_ITO: tuple[Colour, ...] = (
    (230, 159, 0),    # orange
    (86, 180, 233),   # sky blue
    (0, 158, 115),    # bluish green
    (240, 228, 66),   # yellow
    (204, 121, 167),  # reddish purple
    (213, 94, 0),     # vermillion
    (0, 114, 178),    # blue
)
"""Seven colours distinguishable under protanopia, deuteranopia and tritanopia."""

DAMAGE: Colour = (213, 94, 0)
"""Vermillion, with a cross shape for destroyed spaces."""
FLOOD: Colour = (86, 180, 233)
FORT: Colour = (240, 228, 66)
DAM: Colour = (0, 158, 115)
CURSOR: Colour = (255, 255, 255)
TRACK: Colour = (204, 121, 167)

KIND_COLOURS: dict[str, Colour] = {"infrastructure": (230, 159, 0), "population": (204, 121, 167),
                                   "road": (86, 180, 233)}
"""Damage kinds in the end-of-game chart."""

CATEGORY: tuple[Colour, ...] = ((240, 228, 66), (230, 159, 0), (213, 94, 0), (204, 121, 167), (150, 60, 140))
"""Storm category 1..5: lighter to darker, warmer to purple (ordered in luminance too)."""

CIVIDIS: tuple[tuple[float, Colour], ...] = (
    (0.00, (0, 34, 78)),
    (0.25, (65, 77, 107)),
    (0.50, (124, 123, 120)),
    (0.75, (187, 175, 113)),
    (1.00, (254, 232, 56)),
)
"""Stops of the cividis colour map (Nuñez, Anderton and Renslow 2018), linear between them."""


def heat(p: float) -> Colour:
    """Colour of probability ``p`` (clamped to 0..1) on the cividis ramp: the colour :func:`heat_exact`
    works out, looked up in :func:`heat_table` (one bisection instead of the ramp's arithmetic: the
    overlay colours every place on every roll)."""
    if p != p:  # NaN: the ramp's clamp makes it 0
        p = 0.0
    breaks, colours = heat_table()
    return colours[bisect_right(breaks, p)]


def heat_exact(p: float) -> Colour:
    """The cividis ramp worked out: linear between the stops, each channel rounded (half to even)."""
    p = min(1.0, max(0.0, p))
    for (p0, c0), (p1, c1) in pairwise(CIVIDIS):
        if p <= p1:
            t = (p - p0) / (p1 - p0)
            return (round(c0[0] + (c1[0] - c0[0]) * t), round(c0[1] + (c1[1] - c0[1]) * t),
                    round(c0[2] + (c1[2] - c0[2]) * t))
    return CIVIDIS[-1][1]


@functools.cache
def heat_table() -> tuple[list[float], list[Colour]]:
    """``heat(p)`` is ``colours[bisect_right(breaks, p)]`` for any ``p`` but NaN: for a caller that colours
    many places at once (the overlay), without a call per place. Made at its first call (once, a fixed size:
    not worth paying at import) by :func:`_heat_table`."""
    return _heat_table()


def _heat_table() -> tuple[list[float], list[Colour]]:
    """Every probability at which :func:`heat_exact` changes colour (``breaks``, ascending) and the colour
    from each on (``colours[i + 1]`` from ``breaks[i]``; ``colours[0]`` below the first, 0 and under).

    Why this is the same colour for every float, not an approximation: between two stops each channel is
    ``round(c0 + d * ((p - p0) / w))``, and every operation in it (a subtraction, a division by a positive
    constant, a product by a constant, an addition, a rounding) is monotone in IEEE arithmetic, so each
    channel is a step function of ``p`` there. Each of its steps is found exactly: from the step's place
    on the real line, ``nextafter`` moves to the first float where the channel as computed has changed.
    With every step of every channel and every stop listed, the colour is constant between two
    consecutive entries, and each entry's colour comes from ``heat_exact`` itself. Above 1 the last
    colour holds, as the clamp gives; below 0 the first. The tests check every entry and the floats
    either side of it against ``heat_exact``, and random floats."""
    places: set[float] = set()
    for j, ((p0, c0), (p1, c1)) in enumerate(pairwise(CIVIDIS)):
        first = p0 if j == 0 else math.nextafter(p0, math.inf)  # a stop belongs to the segment below it
        places.add(first)
        for k in range(3):
            places.update(_channel_steps(c0[k], c1[k] - c0[k], p0, p1 - p0, first, p1))
    breaks: list[float] = []
    colours: list[Colour] = [heat_exact(0.0)]
    for p in sorted(x for x in places if x > 0.0):
        colour = heat_exact(p)
        if colour != colours[-1]:
            breaks.append(p)
            colours.append(colour)
    return breaks, colours


def _channel_steps(c0: int, d: int, p0: float, width: float, first: float, last: float) -> list[float]:
    """The first float of each step of ``round(c0 + d * ((p - p0) / width))`` for ``p`` in first..last."""
    if d == 0:
        return []

    def channel(p: float) -> int:
        return round(c0 + d * ((p - p0) / width))

    sign = 1 if d > 0 else -1
    out = []
    for value in range(channel(first), channel(last), sign):
        def past(p: float, value: int = value) -> bool:
            return (channel(p) - value) * sign > 0

        # where the channel crosses value +- 1/2 on the real line: the float wanted is a few ulps away
        p = min(last, max(first, p0 + (value + sign / 2 - c0) / d * width))
        while p > first and past(math.nextafter(p, -math.inf)):
            p = math.nextafter(p, -math.inf)
        while not past(p):
            p = math.nextafter(p, math.inf)
        out.append(p)
    return out


def category_colour(category: int) -> Colour:
    return CATEGORY[min(5, max(1, category)) - 1]


def terrain(kind: str) -> Colour:
    return TERRAIN.get(kind, LAND)


def faded(colour: Colour, amount: float, towards: Colour = BACKGROUND) -> Colour:
    """``colour`` moved ``amount`` (0..1) towards ``towards``: earlier tracks are drawn fainter."""
    return (round(colour[0] + (towards[0] - colour[0]) * amount), round(colour[1] + (towards[1] - colour[1]) * amount),
            round(colour[2] + (towards[2] - colour[2]) * amount))
