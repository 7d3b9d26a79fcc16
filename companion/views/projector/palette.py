"""Colours of the projector map, chosen so colour-blind players read them as well as anyone.

The risk heat-map runs along cividis (dark blue to yellow), which keeps its order for every common
colour-vision deficiency and in greyscale; categorical marks (forecast paths, damage kinds) use the
Okabe-Ito set. Meaning never rests on colour alone: damage also has a shape, paths a label.
"""

from __future__ import annotations

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
    """Colour of probability ``p`` (clamped to 0..1) on the cividis ramp."""
    p = min(1.0, max(0.0, p))
    for (p0, c0), (p1, c1) in pairwise(CIVIDIS):
        if p <= p1:
            t = (p - p0) / (p1 - p0)
            return (round(c0[0] + (c1[0] - c0[0]) * t), round(c0[1] + (c1[1] - c0[1]) * t),
                    round(c0[2] + (c1[2] - c0[2]) * t))
    return CIVIDIS[-1][1]


def category_colour(category: int) -> Colour:
    return CATEGORY[min(5, max(1, category)) - 1]


def terrain(kind: str) -> Colour:
    return TERRAIN.get(kind, LAND)


def faded(colour: Colour, amount: float, towards: Colour = BACKGROUND) -> Colour:
    """``colour`` moved ``amount`` (0..1) towards ``towards``: earlier tracks are drawn fainter."""
    return (round(colour[0] + (towards[0] - colour[0]) * amount), round(colour[1] + (towards[1] - colour[1]) * amount),
            round(colour[2] + (towards[2] - colour[2]) * amount))
