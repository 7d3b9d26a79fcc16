"""Features across the board: which tile segments join into one city, road or field, and which are complete.

A union-find over tile sides: each segment of each laid tile is a node; two laid tiles side by side join the
segment that reaches the shared side on one with the segment that reaches it on the other (fields by half-side).
A side that faces an empty space keeps a city or road open; a side that faces a meteor ends it there (the text:
"any features that touch the meteor are considered to end at the meteor"); a feature that touches the flood, or
lies under its cut-out, can never be completed. Pure: the board in, the features out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.games.carcassonne.tiles import FACING_HALF, OPPOSITE, STEP, Segment, TileType, side_of_half
from companion.places import Cell

Part = tuple[Cell, int]
"""A segment of a laid tile: the cell and the segment's index on that tile."""


@dataclass(frozen=True)
class Placed:
    """A laid tile: its type and how many quarter turns clockwise it was turned."""

    tile: TileType
    quarters: int = 0

    @property
    def segments(self) -> tuple[Segment, ...]:
        return self.tile.turned(self.quarters)

    def edge(self, side: str) -> str:
        return self.tile.edge(side, self.quarters)

    @property
    def ends_features(self) -> bool:
        """A meteor: what touches it ends there."""
        return self.tile.disaster == "meteor"

    @property
    def floods(self) -> bool:
        return self.tile.disaster == "flood"


@dataclass
class Feature:
    """One city, road, field or cloister as it stands on the board."""

    kind: str
    parts: set[Part] = field(default_factory=set)
    cells: set[Cell] = field(default_factory=set)
    open_sides: int = 0
    """Sides facing an empty space (cities and roads); a cloister counts its empty neighbours."""
    shields: int = 0
    doomed: bool = False
    """Touches the flood: can never be completed."""
    meteor_sides: int = 0
    """Sides ending at a meteor (a cloister: meteors among its 8 neighbours)."""
    cities: set[int] = field(default_factory=set)
    """A field: the ids of the cities it touches."""

    @property
    def complete(self) -> bool:
        if self.kind == "field" or self.kind == "river":
            return False
        return self.open_sides == 0 and not self.doomed


def neighbour(cell: Cell, side: str) -> Cell:
    dx, dy = STEP[side]
    return Cell(cell.x + dx, cell.y + dy)


def around(cell: Cell) -> list[Cell]:
    """The 8 cells around ``cell`` (a cloister's neighbourhood)."""
    return [Cell(cell.x + dx, cell.y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]


class _Union:
    def __init__(self) -> None:
        self.parent: dict[Part, Part] = {}

    def add(self, p: Part) -> None:
        self.parent.setdefault(p, p)

    def find(self, p: Part) -> Part:
        root = p
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[p] != root:
            self.parent[p], p = root, self.parent[p]
        return root

    def join(self, a: Part, b: Part) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


@dataclass(frozen=True)
class Analysis:
    """The features of a board: each segment's feature id, and the features by id."""

    feature_of: Mapping[Part, int]
    features: tuple[Feature, ...]

    def at(self, cell: Cell, segment: int) -> Feature:
        return self.features[self.feature_of[(cell, segment)]]


def _segment_at(segments: tuple[Segment, ...], kind: str, side: str) -> int | None:
    for i, s in enumerate(segments):
        if s.kind == kind and side in s.sides:
            return i
    return None


def analyse(board: Mapping[Cell, Placed], flooded: frozenset[Cell] = frozenset()) -> Analysis:
    """Join the segments of ``board`` into features. ``flooded`` are the spaces under the flood's cut-out
    (the flood tile itself is found on the board): a feature on or next to one of them is doomed."""
    u = _Union()
    segs = {cell: placed.segments for cell, placed in board.items()}
    for cell, ss in segs.items():
        for i in range(len(ss)):
            u.add((cell, i))
    for cell, ss in segs.items():
        for side in ("E", "S"):  # each shared side once
            other = neighbour(cell, side)
            if other not in board:
                continue
            for kind in ("city", "road", "river"):
                mine, theirs = _segment_at(ss, kind, side), _segment_at(segs[other], kind, OPPOSITE[side])
                if mine is not None and theirs is not None:
                    u.join((cell, mine), (other, theirs))
            for half in "abcdefgh":
                if side_of_half(half) != side:
                    continue
                mine, theirs = _segment_at(ss, "field", half), _segment_at(segs[other], "field", FACING_HALF[half])
                if mine is not None and theirs is not None:
                    u.join((cell, mine), (other, theirs))
    roots: dict[Part, int] = {}
    features: list[Feature] = []
    feature_of: dict[Part, int] = {}
    for cell in sorted(segs):
        for i, seg in enumerate(segs[cell]):
            if seg.kind == "cloister":
                fid = len(features)
                features.append(Feature("cloister"))
            else:
                root = u.find((cell, i))
                if root not in roots:
                    roots[root] = len(features)
                    features.append(Feature(seg.kind))
                fid = roots[root]
            feature_of[(cell, i)] = fid
            f = features[fid]
            f.parts.add((cell, i))
            f.cells.add(cell)
            placed = board[cell]
            if seg.kind == "city" and placed.tile.shield:
                f.shields += 1
            if cell in flooded:
                f.doomed = True
            if seg.kind == "cloister":
                for near in around(cell):
                    if near not in board:
                        f.open_sides += 1
                    elif board[near].ends_features:
                        f.meteor_sides += 1
                    if near in flooded or (near in board and board[near].floods):
                        f.doomed = True
                continue
            for side in seg.edge_sides():
                other = neighbour(cell, side)
                if other in flooded or (other in board and board[other].floods):
                    f.doomed = True
                if other not in board:
                    f.open_sides += 1 if seg.kind != "field" else 0
                elif board[other].ends_features:
                    f.meteor_sides += 1
    for cell in segs:  # fields and the cities beside them, once every city has its id
        touches = board[cell].tile.city_touches()
        for i, beside in touches.items():
            features[feature_of[(cell, i)]].cities |= {feature_of[(cell, j)] for j in beside}
    return Analysis(feature_of, tuple(features))
