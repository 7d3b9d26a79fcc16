"""The Kansas board, start grid, path key and outbreak table, read from maps/kansas.toml once.

The printed board is not available, so a group copies its own into the file; every mistake is
reported as ``file: field: what is wrong`` and never as a traceback. Hexes are named in the file
by a picture's (col, row) because that is how people read a printed board; inside the box they
are axial :class:`~companion.hexgrid.Hex` like every other board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from pathlib import Path
from typing import Any

from companion.datafile import Fields, load_toml
from companion.hexgrid import DIRECTION_NAMES, Hex
from companion.paths import map_file

TERRAIN_LETTERS: dict[str, str] = {"p": "plain", "h": "hill", "r": "river"}
"""Picture letters; "." marks a hex that is not part of the map."""
COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "purple", "black")
"""Age of Steam goods colours."""
PLAYER_COUNTS: tuple[int, ...] = (4, 5, 6)
DICE_SUMS: tuple[int, ...] = tuple(range(2, 13))


NEAR = 2
"""Up to this many hexes from a city or town, an unnamed hex is named from it ("2 NE of Hays")."""


def bearing(a: Hex, b: Hex) -> str:
    """The hex direction (N, NE, SE, S, SW, NW) closest to the way from ``a`` to ``b``."""
    dq, dr = b.q - a.q, b.r - a.r
    x, y = 1.5 * dq, math.sqrt(3) * (dr + dq / 2)  # flat-topped hexes, y grows to the south
    angle = math.degrees(math.atan2(y, x))
    names = {-90: "N", -30: "NE", 30: "SE", 90: "S", 150: "SW", -150: "NW"}
    return min(names.items(), key=lambda kv: abs((angle - kv[0] + 180) % 360 - 180))[1]


def axial(col: int, row: int) -> Hex:
    """The axial hex of a picture position (flat-topped columns, odd columns half a hex lower)."""
    return Hex(col, row - (col - col % 2) // 2)


@dataclass(frozen=True)
class Place:
    """A city or town on the board."""

    name: str
    hex: Hex
    kind: str
    """"city" or "town"."""
    colour: str = ""
    """Goods colour a city takes (cities only)."""
    goods: int = 0
    """Goods cubes on the city at setup (cities only)."""


@dataclass(frozen=True)
class River:
    """A river as drawn on the board: the river hexes it runs through, source to mouth (the projector
    draws it as a line through them; the rules know only that those hexes are river hexes)."""

    name: str
    hexes: tuple[Hex, ...]


@dataclass(frozen=True)
class Board:
    """Everything the tornado rules need from the printed board."""

    terrain: dict[Hex, str]
    """Every on-map hex and its terrain (plain, hill, river)."""
    places: tuple[Place, ...]
    """Cities then towns, in file order."""
    grid: dict[tuple[int, int], Hex]
    """(north-south line, west-east line), both 1..8 -> start hex."""
    path_key: dict[int, str]
    """2D6 sum 2..12 -> direction."""
    outbreak: dict[int, tuple[int, ...]]
    """Player count -> tornadoes per turn (its length is the number of turns)."""
    markers_per_tornado: int
    rivers: tuple[River, ...] = ()
    """The rivers through the river hexes (empty: the file names none)."""

    @property
    def moves_per_tornado(self) -> int:
        """Moves after the start hex: every marker but the first."""
        return self.markers_per_tornado - 1

    @cached_property
    def hexes(self) -> frozenset[Hex]:
        return frozenset(self.terrain)

    @cached_property
    def by_hex(self) -> dict[Hex, Place]:
        return {p.hex: p for p in self.places}

    @cached_property
    def cities(self) -> tuple[Place, ...]:
        return tuple(p for p in self.places if p.kind == "city")

    def place_at(self, h: Hex) -> Place | None:
        return self.by_hex.get(h)

    @cached_property
    def grid_lines(self) -> dict[Hex, tuple[int, int]]:
        """Start-grid hex -> (north-south line, west-east line), the numbers printed along the board."""
        return {h: lines for lines, h in self.grid.items()}

    @cached_property
    def _names(self) -> dict[Hex, str]:
        """Names worked out so far (:meth:`name_of` looks for the nearest place: a search over every place,
        and replaying a long game names thousands of hexes, mostly the same ones)."""
        return {}

    def name_of(self, h: Hex) -> str:
        """A hex as people say it, never by coordinates: a place's name; next to one (up to
        ``NEAR`` hexes) where it lies from it ("2 NE of Hays"); on the start grid the two grid lines that
        reach it ("N-S 3, W-E 5", as printed along the board's edges); else where it lies from the nearest."""
        names = self._names
        if h not in names:
            names[h] = self._name_of(h)
        return names[h]

    def _name_of(self, h: Hex) -> str:
        place = self.by_hex.get(h)
        if place is not None:
            return place.name
        near = self.nearest_place(h)
        if h.distance(near.hex) <= NEAR or h not in self.grid_lines:
            return f"{h.distance(near.hex)} {bearing(near.hex, h)} of {near.name}"
        ns, we = self.grid_lines[h]
        return f"N-S {ns}, W-E {we}"

    @cached_property
    def _nearest(self) -> dict[Hex, Place]:
        """Nearest places worked out so far: the removal menu sorts every marked hex by it at each refresh (a
        search over every place each time, a millisecond of a resume's first panel in a long game)."""
        return {}

    def nearest_place(self, h: Hex) -> Place:
        """The city or town closest to ``h`` (ties: the first in file order)."""
        nearest = self._nearest
        if h not in nearest:
            nearest[h] = min(self.places, key=lambda p: p.hex.distance(h))
        return nearest[h]

    def __getstate__(self) -> dict[str, Any]:
        """What pickle keeps (the box keeps its engine between starts, :mod:`companion.journal.engine_cache`):
        the fields, with every hex's name and nearest place worked out first, so a resumed game's replay and
        first panel look them up instead of searching every place again."""
        for h in self.terrain:
            self.name_of(h)
            self.nearest_place(h)
        return dict(vars(self))

    def turns(self, players: int) -> int:
        return len(self.outbreak[players])

    def to_json(self) -> dict[str, Any]:
        """The ``companion map kansas --json`` form."""
        hexes = []
        for h in sorted(self.terrain, key=lambda x: (x.q, x.r)):
            row: dict[str, Any] = {"q": h.q, "r": h.r, "terrain": self.terrain[h]}
            place = self.by_hex.get(h)
            if place is not None:
                row["name"] = place.name
            hexes.append(row)
        grid = [{"ns": ns, "we": we, "q": h.q, "r": h.r} for (ns, we), h in sorted(self.grid.items())]
        cities = [{"name": p.name, "q": p.hex.q, "r": p.hex.r, "colour": p.colour, "goods": p.goods}
                  for p in self.cities]
        towns = [{"name": p.name, "q": p.hex.q, "r": p.hex.r} for p in self.places if p.kind == "town"]
        return {"hexes": hexes, "grid": grid, "path_key": {str(k): v for k, v in sorted(self.path_key.items())},
                "markers_per_tornado": self.markers_per_tornado, "cities": cities, "towns": towns,
                "outbreak": {str(k): list(v) for k, v in sorted(self.outbreak.items())},
                "rivers": [{"name": r.name, "hexes": [{"q": h.q, "r": h.r} for h in r.hexes]} for r in self.rivers]}


def _picture(f: Fields) -> dict[Hex, str]:
    rows = f.get("terrain", list)
    if not rows:
        raise f.error("expected at least one row", "terrain")
    terrain: dict[Hex, str] = {}
    for row, line in enumerate(rows):
        if not isinstance(line, str):
            raise f.error(f"expected a string of letters, got {line!r}", f"terrain[{row}]")
        for col, letter in enumerate(line):
            if letter == ".":
                continue
            if letter not in TERRAIN_LETTERS:
                known = ", ".join(f"{k} ({v})" for k, v in TERRAIN_LETTERS.items())
                raise f.error(f"column {col}: unknown letter {letter!r} (known: {known}, . off the map)",
                              f"terrain[{row}]")
            terrain[axial(col, row)] = TERRAIN_LETTERS[letter]
    return terrain


def _position(f: Fields, terrain: dict[Hex, str], used: dict[Hex, str], name: str) -> Hex:
    col, row = f.int_in("col", 0, 999), f.int_in("row", 0, 999)
    h = axial(col, row)
    if h not in terrain:
        raise f.error(f"col {col}, row {row} is not on the map", "col")
    if h in used:
        raise f.error(f"col {col}, row {row} is already {used[h]}", "col")
    used[h] = name
    return h


def _places(top: Fields, terrain: dict[Hex, str]) -> tuple[Place, ...]:
    used: dict[Hex, str] = {}
    places: list[Place] = []
    for kind in ("cities", "towns"):
        for f in top.tables(kind):
            name = f.get("name", str)
            h = _position(f, terrain, used, name)
            if kind == "cities":
                places.append(Place(name, h, "city", f.choice("colour", COLOURS), f.int_in("goods", 0, 9)))
            else:
                places.append(Place(name, h, "town"))
            f.reject_unknown()
    if not any(p.kind == "city" for p in places):
        raise top.error("no cities", "cities")
    return tuple(places)


def _grid(f: Fields, terrain: dict[Hex, str]) -> dict[tuple[int, int], Hex]:
    lines: dict[str, list[int]] = {}
    for key in ("ns_rows", "we_columns"):
        values = f.get(key, list)
        if len(values) != 8 or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values):
            raise f.error(f"expected 8 whole numbers (lines 1..8), got {values!r}", key)
        if any(a >= b for a, b in pairwise(values)):
            edge = "north-south line 1 is the northern edge" if key == "ns_rows" else \
                "west-east line 1 is the western edge"
            raise f.error(f"expected 8 increasing numbers ({edge}), got {values!r}", key)
        lines[key] = values
    grid: dict[tuple[int, int], Hex] = {}
    for ns, row in enumerate(lines["ns_rows"], start=1):
        for we, col in enumerate(lines["we_columns"], start=1):
            h = axial(col, row)
            if h not in terrain:
                raise f.error(f"north-south {ns}, west-east {we} (col {col}, row {row}) is not on the map",
                              "ns_rows")
            grid[ns, we] = h
    if len(set(grid.values())) != 64:
        raise f.error("two grid positions name the same hex", "we_columns")
    f.reject_unknown()
    return grid


def _path_key(f: Fields) -> dict[int, str]:
    key: dict[int, str] = {}
    for total in DICE_SUMS:
        key[total] = f.choice(str(total), DIRECTION_NAMES)
    f.reject_unknown()
    return key


def _outbreak(f: Fields) -> dict[int, tuple[int, ...]]:
    table: dict[int, tuple[int, ...]] = {}
    for players in PLAYER_COUNTS:
        values = f.get(str(players), list)
        if not values or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 20 for v in values):
            raise f.error(f"expected tornadoes per turn as whole numbers 0..20, got {values!r}", str(players))
        if values[-1] != 0:
            raise f.error("the last turn has no tornado phase: the list must end with 0", str(players))
        table[players] = tuple(values)
    f.reject_unknown()
    return table


def _rivers(top: Fields, terrain: dict[Hex, str]) -> tuple[River, ...]:
    """[[rivers]]: each a name and its hexes as [col, row] pairs, source to mouth, every one a river hex
    next to the one before; given any, every river hex must lie on one (the map and the picture agree)."""
    rivers: list[River] = []
    for f in top.tables("rivers", []):
        name = f.get("name", str)
        course = f.get("hexes", list)
        if not course:
            raise f.error("expected at least one [col, row]", "hexes")
        hexes: list[Hex] = []
        for i, pair in enumerate(course):
            where = f"hexes[{i}]"
            if not (isinstance(pair, list) and len(pair) == 2
                    and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in pair)):
                raise f.error(f"expected [col, row], got {pair!r}", where)
            col, row = pair
            h = axial(col, row)
            if h not in terrain:
                raise f.error(f"col {col}, row {row} is not on the map", where)
            if terrain[h] != "river":
                raise f.error(f"col {col}, row {row} is {terrain[h]}, not a river hex (r in the picture)", where)
            if hexes and h not in hexes[-1].neighbours():
                raise f.error(f"col {col}, row {row} is not next to the hex before it", where)
            if h in hexes:
                raise f.error(f"col {col}, row {row} is already on this river", where)
            hexes.append(h)
        f.reject_unknown()
        rivers.append(River(name, tuple(hexes)))
    if rivers:
        on = {h for r in rivers for h in r.hexes}
        for h, kind in sorted(terrain.items()):
            if kind == "river" and h not in on:
                col, row = h.q, h.r + (h.q - h.q % 2) // 2
                raise top.error(f"col {col}, row {row} is a river hex that no river runs through", "rivers")
    return tuple(rivers)


def _check_key_leaves_a_way(f: Fields, terrain: dict[Hex, str], key: dict[int, str]) -> None:
    """Every hex needs one key direction that stays on the map, or the re-roll rule never ends."""
    directions = set(key.values())
    for h in terrain:
        if not any(h.neighbour(d) in terrain for d in directions):
            raise f.error(f"from hex {h.q},{h.r} every direction of the path key leaves the map", "path_key")


def load_board(path: Path) -> Board:
    """Read and cross-check maps/kansas.toml; DataError names file and field."""
    top = load_toml(path)
    rules = top.table("rules")
    markers = rules.int_in("markers_per_tornado", 1, 20)
    rules.reject_unknown()
    board_table = top.table("board")
    terrain = _picture(board_table)
    board_table.reject_unknown()
    places = _places(top, terrain)
    grid = _grid(top.table("grid"), terrain)
    key = _path_key(top.table("path_key"))
    _check_key_leaves_a_way(top, terrain, key)
    outbreak = _outbreak(top.table("outbreak"))
    rivers = _rivers(top, terrain)
    top.reject_unknown()
    return Board(terrain, places, grid, key, outbreak, markers, rivers)


def default_path(maps: Path | None) -> Path:
    return map_file("kansas.toml", maps)
