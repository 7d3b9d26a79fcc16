"""Scoring as the base game does it, with the disasters' changes.

- A completed city scores 2 a tile and 2 a shield, a road 1 a tile, a cloister 1 and 1 for each of its 8
  neighbours -- a meteor among them is a gap and scores nothing ("8 points for that cloister instead of 9").
- At the end an unfinished city scores 1 a tile and 1 a shield, a road 1 a tile, a cloister 1 and 1 a neighbour
  (not a meteor); a farmer scores 3 for each completed city its field touches.
- The earthquake: "Any unfinished city with an earthquake token in it does not score any points. If a finished
  city has an earthquake marker in it, then that city does not score any points for the farmers."
The players with most followers on a feature each score it; its followers then go home.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from companion.games.carcassonne.features import Analysis, Feature
from companion.games.carcassonne.state import Follower
from companion.places import Cell


def earthquake_zone(at: Cell, orthogonal: int, diagonal: int) -> frozenset[Cell]:
    """The earthquake tile and every space within ``orthogonal`` steps straight or ``diagonal`` diagonally."""
    reach = max(orthogonal, diagonal)
    return frozenset(Cell(at.x + dx, at.y + dy) for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)
                     if abs(dx) + abs(dy) <= orthogonal or max(abs(dx), abs(dy)) <= diagonal)


def cities_hit(analysis: Analysis, zone: frozenset[Cell]) -> list[int]:
    """Ids of the cities with a section in the earthquake's zone: each gets an earthquake token."""
    return [i for i, f in enumerate(analysis.features) if f.kind == "city" and f.cells & zone]


def points(feature: Feature, final: bool) -> int:
    """What a feature scores now: completed (``final`` False), or as it stands at the end."""
    tiles = len(feature.cells)
    if feature.kind == "city":
        return (1 if final and not feature.complete else 2) * (tiles + feature.shields)
    if feature.kind == "road":
        return tiles
    if feature.kind == "cloister":
        return 1 + 8 - feature.open_sides - feature.meteor_sides
    return 0


def owners(feature_id: int, analysis: Analysis, followers: Iterable[Follower]) -> list[int]:
    """The players with most followers on a feature (none when it has none)."""
    count = Counter(f.player for f in followers if f.segment >= 0
                    and analysis.feature_of.get((f.cell, f.segment)) == feature_id)
    if not count:
        return []
    top = max(count.values())
    return sorted(p for p, n in count.items() if n == top)


def on_feature(feature_id: int, analysis: Analysis, followers: Iterable[Follower]) -> list[Follower]:
    return [f for f in followers if f.segment >= 0 and analysis.feature_of.get((f.cell, f.segment)) == feature_id]
