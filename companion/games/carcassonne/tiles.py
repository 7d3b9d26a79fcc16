"""Carcassonne tile types: four sides, the features on them, and how a quarter turn moves them.

A tile is described upright (north on top) by its sides and its features; each feature is the set of
sides (cities, roads, rivers) or half-sides (fields) it reaches. Rotating a tile shifts those names, so
the union of features across a board (``features.py``) only ever compares side names. The data comes
from maps/carcassonne_tiles.toml and is checked here, naming file and field for every mistake.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from companion.datafile import Fields, load_toml
from companion.paths import maps_dir

SIDES = "NESW"
"""The four sides, clockwise from the top."""
HALVES = "abcdefgh"
"""The eight half-sides, clockwise from the north side's west half: a b north, c d east, e f south, g h west."""
SIDE_NAMES = {"N": "north", "E": "east", "S": "south", "W": "west"}
EDGE_LETTERS = {"C": "city", "R": "road", "F": "field", "W": "river", "X": "nothing"}
DISASTERS = ("tornado", "earthquake", "meteor", "flood")
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
FACING_HALF = {"a": "f", "b": "e", "c": "h", "d": "g", "e": "b", "f": "a", "g": "d", "h": "c"}
"""The half-side of the neighbour that a half-side faces (north's west half meets the south side's west half)."""
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
KINDS_OF_EDGE = {"city": "C", "road": "R", "river": "W"}


def rotate_side(side: str, quarters: int) -> str:
    """Where ``side`` points after ``quarters`` quarter turns clockwise."""
    return SIDES[(SIDES.index(side) + quarters) % 4]


def rotate_half(half: str, quarters: int) -> str:
    return HALVES[(HALVES.index(half) + 2 * quarters) % 8]


def side_of_half(half: str) -> str:
    return SIDES[HALVES.index(half) // 2]


@dataclass(frozen=True)
class Segment:
    """One feature of a tile: its kind and the sides (or, for a field, the half-sides) it reaches."""

    kind: str
    """"city", "road", "river", "field" or "cloister"."""
    sides: frozenset[str]

    def turned(self, quarters: int) -> Segment:
        turn = rotate_half if self.kind == "field" else rotate_side
        return Segment(self.kind, frozenset(turn(s, quarters) for s in self.sides))

    def edge_sides(self) -> frozenset[str]:
        """The tile sides this feature touches (a field's half-sides folded to their sides)."""
        return frozenset(side_of_half(h) for h in self.sides) if self.kind == "field" else self.sides

    def describe(self) -> str:
        """"city NW", "road E", "farmer ESW", "monk": how a player tells a tile's features apart (compass
        letters of the sides each reaches, short enough for the OLED)."""
        if self.kind == "cloister":
            return "monk"
        name = "farmer" if self.kind == "field" else self.kind
        return f"{name} " + "".join(s for s in SIDES if s in self.edge_sides())


@dataclass(frozen=True)
class TileType:
    """A kind of tile as printed, upright."""

    key: str
    name: str
    count: int
    edges: str
    segments: tuple[Segment, ...]
    shield: bool = False
    start: bool = False
    disaster: str = ""
    spring: bool = False
    river: bool = False

    def edge(self, side: str, quarters: int = 0) -> str:
        """The landscape letter on ``side`` once turned ``quarters`` clockwise."""
        return self.edges[(SIDES.index(side) - quarters) % 4]

    def turned(self, quarters: int) -> tuple[Segment, ...]:
        return tuple(s.turned(quarters) for s in self.segments)

    @cached_property
    def cloister(self) -> bool:
        return any(s.kind == "cloister" for s in self.segments)

    def city_touches(self) -> dict[int, frozenset[int]]:
        """Field index -> the city indices (on this tile) it touches: a field half next to a city side."""
        touches: dict[int, frozenset[int]] = {}
        for i, field in enumerate(self.segments):
            if field.kind != "field":
                continue
            near = set()
            for half in field.sides:
                k = HALVES.index(half)
                for other in (HALVES[(k - 1) % 8], HALVES[(k + 1) % 8]):
                    side = side_of_half(other)
                    near |= {j for j, s in enumerate(self.segments) if s.kind == "city" and side in s.sides}
            touches[i] = frozenset(near)
        return touches

    def rotations(self) -> tuple[int, ...]:
        """The quarter turns that give different tiles (a crossroads has one, a straight road two)."""
        seen: dict[tuple[str, frozenset[Segment]], int] = {}
        for q in range(4):
            look = ("".join(self.edge(s, q) for s in SIDES), frozenset(self.turned(q)))
            seen.setdefault(look, q)
        return tuple(sorted(seen.values()))


@dataclass(frozen=True)
class Catalog:
    """Every tile type, in file order."""

    types: tuple[TileType, ...]

    @cached_property
    def by_key(self) -> dict[str, TileType]:
        return {t.key: t for t in self.types}

    @cached_property
    def start(self) -> TileType:
        return next(t for t in self.types if t.start)

    def get(self, key: str) -> TileType | None:
        return self.by_key.get(key)

    def to_json(self) -> list[dict[str, Any]]:
        out = []
        for t in self.types:
            row: dict[str, Any] = {"key": t.key, "name": t.name, "count": t.count, "edges": t.edges}
            for kind in ("city", "road", "river", "field"):
                row[f"{kind}s" if kind != "city" else "cities"] = [
                    "".join(sorted(s.sides, key=(HALVES if kind == "field" else SIDES).index))
                    for s in t.segments if s.kind == kind]
            row.update(shield=t.shield, cloister=t.cloister, start=t.start, disaster=t.disaster,
                       spring=t.spring, river=t.river)
            out.append(row)
        return out


_KEY = re.compile(r"^[a-z][a-z0-9_]*$")


def _sides(f: Fields, key: str, letters: str) -> list[frozenset[str]]:
    raw = f.get(key, list, [])
    out = []
    for i, item in enumerate(raw):
        if not isinstance(item, str) or not item or any(ch not in letters for ch in item) \
                or len(set(item)) != len(item):
            raise f.error(f"expected letters from {letters} (each once), got {item!r}", f"{key}[{i}]")
        out.append(frozenset(item))
    return out


def _tile(f: Fields) -> TileType:
    key = f.get("key", str)
    if not _KEY.match(key):
        raise f.error(f"expected lowercase letters, digits and _, got {key!r}", "key")
    name = f.get("name", str)
    if not 0 < len(name) <= 20:
        raise f.error(f"a name the OLED shows: 1..20 characters, got {len(name)}", "name")
    count = f.int_in("count", 0, 99)
    edges = f.get("edges", str)
    if len(edges) != 4 or any(ch not in EDGE_LETTERS for ch in edges):
        raise f.error(f"expected 4 letters N, E, S, W from {', '.join(EDGE_LETTERS)}, got {edges!r}", "edges")
    segments: list[Segment] = []
    for kind, field_key in (("city", "cities"), ("road", "roads"), ("river", "rivers")):
        letter = KINDS_OF_EDGE[kind]
        found = _sides(f, field_key, SIDES)
        for i, sides in enumerate(found):
            wrong = sorted(s for s in sides if edges[SIDES.index(s)] != letter)
            if wrong:
                raise f.error(f"side {wrong[0]} is not a {kind} side in edges {edges!r}", f"{field_key}[{i}]")
        for side in SIDES:
            if edges[SIDES.index(side)] == letter and sum(side in s for s in found) != 1:
                raise f.error(f"the {kind} side {side} must belong to exactly one {kind}", field_key)
        segments += [Segment(kind, s) for s in found]
    fields = _sides(f, "fields", HALVES)
    for i, halves in enumerate(fields):
        wrong = sorted(h for h in halves if edges[SIDES.index(side_of_half(h))] in "CX")
        if wrong:
            raise f.error(f"half-side {wrong[0]} lies on a {EDGE_LETTERS[edges[SIDES.index(side_of_half(wrong[0]))]]}"
                          f" side", f"fields[{i}]")
    for half in HALVES:
        if edges[SIDES.index(side_of_half(half))] not in "CX" and sum(half in s for s in fields) != 1:
            raise f.error(f"half-side {half} must belong to exactly one field", "fields")
    segments += [Segment("field", s) for s in fields]
    if f.get("cloister", bool, False):
        segments.append(Segment("cloister", frozenset()))
    disaster = f.get("disaster", str, "")
    if disaster and disaster not in DISASTERS:
        raise f.error(f"expected one of {', '.join(DISASTERS)}, got {disaster!r}", "disaster")
    shield = f.get("shield", bool, False)
    if shield and not any(s.kind == "city" for s in segments):
        raise f.error("a shield needs a city on the tile", "shield")
    tile = TileType(key, name, count, edges, tuple(segments), shield, f.get("start", bool, False), disaster,
                    f.get("spring", bool, False), f.get("river", bool, False))
    f.reject_unknown()
    return tile


def load_catalog(path: Path) -> Catalog:
    """Read and check maps/carcassonne_tiles.toml; a DataError names file and field."""
    top = load_toml(path)
    types: list[TileType] = []
    for f in top.tables("tile"):
        tile = _tile(f)
        if any(t.key == tile.key for t in types):
            raise f.error(f"tile key {tile.key!r} is used twice", "key")
        types.append(tile)
    top.reject_unknown()
    starts = [t for t in types if t.start]
    if len(starts) != 1:
        raise top.error(f"exactly one tile type must be the start tile (start = true), found {len(starts)}", "tile")
    if starts[0].count < 1 or starts[0].disaster or starts[0].river:
        raise top.error(f"the start tile {starts[0].key!r} must be a base tile with a count of at least 1", "tile")
    for kind in DISASTERS:
        if not any(t.disaster == kind for t in types):
            raise top.error(f"no {kind} tile (disaster = {kind!r})", "tile")
    return Catalog(tuple(types))


def default_path(maps: Path | None) -> Path:
    return (maps if maps is not None else maps_dir()) / "carcassonne_tiles.toml"
