"""Board shapes and the places on them: what a risk map, an option or the projector's cursor points at.

Boards come in three shapes, one per family of games the box serves:

- a **hex grid** (Age of Steam's Kansas, Project Stormfury): places are :class:`~companion.hexgrid.Hex`;
- a **square grid** (Carcassonne): places are :class:`Cell`; the grid is open, so a board grows as tiles
  are laid, and neighbours are the 4 orthogonal cells (or 8 with diagonals);
- a **graph** (Age of Industry, Age of Rail): places are named :class:`Location` s joined by :class:`Link` s,
  each link with its kind (rail, sea lane, external connection).

Every place also has a position in one plane (:func:`position`), x to the right and y down as the projector
draws the board, so "right" for the buttons is right on the wall.

A place is a small frozen value, so it can key a dict (risk per place), sit in a journaled choice's
arguments (:func:`place_to_args`) and be compared by the session and the views. Every board gives a
place its player-facing name (:meth:`Board.name_of`): screens show names, never coordinates.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from companion.hexgrid import Hex, pixel_centre


@dataclass(frozen=True, order=True)
class Cell:
    """One square of a square grid: ``x`` grows to the east, ``y`` to the south."""

    x: int
    y: int

    def neighbours(self, diagonal: bool = False) -> list[Cell]:
        """The 4 orthogonal neighbours (N, E, S, W), then the 4 diagonal ones when asked."""
        steps = [(0, -1), (1, 0), (0, 1), (-1, 0)]
        if diagonal:
            steps += [(1, -1), (1, 1), (-1, 1), (-1, -1)]
        return [Cell(self.x + dx, self.y + dy) for dx, dy in steps]

    def manhattan(self, other: Cell) -> int:
        return abs(self.x - other.x) + abs(self.y - other.y)


@dataclass(frozen=True, order=True)
class Location:
    """A named location of a graph board, by its data key (the board gives its display name)."""

    key: str


@dataclass(frozen=True, order=True)
class Link:
    """A link between two locations of a graph board; the same link whichever end is named first."""

    a: str
    b: str

    def __post_init__(self) -> None:
        if self.b < self.a:  # one spelling per link, so a link keys a dict whichever way it was entered
            a, b = self.b, self.a
            object.__setattr__(self, "a", a)
            object.__setattr__(self, "b", b)

    def ends(self) -> tuple[str, str]:
        return (self.a, self.b)

    def other(self, end: str) -> str:
        return self.b if end == self.a else self.a


Place = Hex | Cell | Location | Link
"""Anything on a board a game can point at."""


def place_to_args(place: Place) -> dict[str, Any]:
    """JSON-ready arguments naming ``place``, as a journaled choice carries them."""
    if isinstance(place, Hex):
        return {"q": place.q, "r": place.r}
    if isinstance(place, Cell):
        return {"x": place.x, "y": place.y}
    if isinstance(place, Location):
        return {"location": place.key}
    return {"link": [place.a, place.b]}


def place_from_args(args: Mapping[str, Any]) -> Place | None:
    """The place a choice's arguments name (inverse of :func:`place_to_args`), or None if none."""
    q, r = args.get("q"), args.get("r")
    if isinstance(q, int) and isinstance(r, int) and not isinstance(q, bool) and not isinstance(r, bool):
        return Hex(q, r)
    x, y = args.get("x"), args.get("y")
    if isinstance(x, int) and isinstance(y, int) and not isinstance(x, bool) and not isinstance(y, bool):
        return Cell(x, y)
    location = args.get("location")
    if isinstance(location, str):
        return Location(location)
    link = args.get("link")
    if isinstance(link, list | tuple) and len(link) == 2 and all(isinstance(end, str) for end in link):
        return Link(link[0], link[1])
    return None


@runtime_checkable
class Board(Protocol):
    """What every board shape answers: its places, their names and their neighbours."""

    shape: str
    """"hex", "square" or "graph": which shared painter draws it."""

    def places(self) -> Iterable[Place]: ...

    def name_of(self, place: Place) -> str:
        """The name a player reads for ``place`` ("Dodge City", "the tile 2 east of the start")."""
        ...


@dataclass(frozen=True, repr=False)  # its repr would be the whole map: never printed
class HexBoard:
    """A hex grid: each hex's terrain and the names of the hexes that have one."""

    terrain: Mapping[Hex, str]
    names: Mapping[Hex, str] = field(default_factory=dict)
    shape: str = "hex"

    def places(self) -> Iterator[Hex]:
        return iter(self.terrain)

    def name_of(self, place: Place) -> str:
        if isinstance(place, Hex) and place in self.names:
            return self.names[place]
        nearest = min(self.names, key=lambda h: h.distance(place), default=None) if isinstance(place, Hex) else None
        if nearest is None or not isinstance(place, Hex):
            return "a hex off the board"
        return f"{nearest.distance(place)} from {self.names[nearest]}"


@dataclass(frozen=True, repr=False)  # its repr would be the whole map: never printed
class SquareBoard:
    """An open square grid: the cells laid so far (each with what stands on it) and where a new one may go.

    ``origin`` is the first cell (Carcassonne's start tile); a cell is named by where it lies from it,
    in the table's words ("2 east, 1 north of the start").
    """

    cells: Mapping[Cell, str]
    origin: Cell = Cell(0, 0)
    diagonal: bool = False
    names: Mapping[Cell, str] = field(default_factory=dict)
    shape: str = "square"

    def places(self) -> Iterator[Cell]:
        return iter(self.cells)

    def open_cells(self) -> list[Cell]:
        """Empty cells next to a laid one: where the board may grow (always orthogonal, as tiles are laid)."""
        laid = set(self.cells)
        found = {n for c in laid for n in c.neighbours() if n not in laid}
        return sorted(found) if laid else [self.origin]

    def name_of(self, place: Place) -> str:
        if not isinstance(place, Cell):
            return "a place off the grid"
        if place in self.names:
            return self.names[place]
        if place == self.origin:
            return "the start tile"
        dx, dy = place.x - self.origin.x, place.y - self.origin.y
        parts = []
        if dx:
            parts.append(f"{abs(dx)} {'east' if dx > 0 else 'west'}")
        if dy:
            parts.append(f"{abs(dy)} {'south' if dy > 0 else 'north'}")
        return f"{', '.join(parts)} of the start"


@dataclass(frozen=True)
class Site:
    """A location of a graph board: its display name, where it is drawn (board units) and its kind."""

    name: str
    x: float
    y: float
    kind: str = "town"


@dataclass(frozen=True, repr=False)  # its repr would be the whole map: never printed
class GraphBoard:
    """Named locations with positions, joined by links, each link with its kind ("rail", "sea", ...)."""

    sites: Mapping[str, Site]
    links: Mapping[Link, str]
    shape: str = "graph"

    def places(self) -> Iterator[Place]:
        yield from (Location(k) for k in self.sites)
        yield from self.links

    def name_of(self, place: Place) -> str:
        if isinstance(place, Location) and place.key in self.sites:
            return self.sites[place.key].name
        if isinstance(place, Link) and place.a in self.sites and place.b in self.sites:
            return f"{self.sites[place.a].name} - {self.sites[place.b].name}"
        return "a place off the map"

    def neighbours(self, key: str) -> list[str]:
        """Locations one link away from ``key``."""
        return sorted(link.other(key) for link in self.links if key in link.ends())

    def adjacent(self, a: str, b: str) -> bool:
        return Link(a, b) in self.links


Point = tuple[float, float]
"""A position in a board's plane: x grows to the right, y down, as the projector draws it."""


def position(place: Place, board: Board | None = None) -> Point | None:
    """Where ``place`` lies in its board's plane, at the board's own scale (the projector fits that plane to
    the screen with one scale for both axes, so directions and distance order hold on the wall). None when
    the board does not place it (a location of a graph board that is not given or does not know it).

    - a hex: its centre as flat-topped hexes are drawn (:func:`companion.hexgrid.pixel_centre`, unit size);
    - a cell: (x, y), x to the east, y to the south;
    - a location: its site's position on the graph board;
    - a link: the midpoint of its two ends.
    """
    if isinstance(place, Hex):
        return pixel_centre(place, 1.0)
    if isinstance(place, Cell):
        return float(place.x), float(place.y)
    sites = board.sites if isinstance(board, GraphBoard) else None
    if sites is None:
        return None
    if isinstance(place, Location):
        site = sites.get(place.key)
        return (site.x, site.y) if site is not None else None
    a, b = sites.get(place.a), sites.get(place.b)
    if a is None or b is None:
        return None
    return (a.x + b.x) / 2, (a.y + b.y) / 2
