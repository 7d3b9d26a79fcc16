"""Which symbol stands for which kind on a board: fills, letters, marks and line styles, with their key.

Kinds are the board's own words (a cell's "field", a site's "port", a link's "canal"). Each gets a
symbol that differs by more than colour, so a colour-blind player reads the board as well as anyone:
areas a fill *and* a letter, locations a mark shape, links a colour *and* a dash pattern. Known
terrain keeps the colour it has on the hex boards; other kinds take Okabe-Ito colours in sorted
order, so the same board always gets the same symbols and the key (``key.py``) lists every one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from companion.places import Board, GraphBoard, HexBoard, SquareBoard
from companion.views.projector import palette
from companion.views.projector.palette import Colour

MARKS = ("circle", "square", "diamond", "triangle", "hexagon", "star")
"""Mark shapes a location kind may take, in the order unknown kinds get them."""
KNOWN_MARKS = {"city": "circle", "town": "square"}
DASHES: tuple[tuple[int, ...], ...] = ((), (6, 3), (1, 2), (6, 2, 1, 2))
"""Dash patterns in units of the line's width (on, off, ...): solid, dashed, dotted, dash-dot."""
FILL_FADE = 0.3
"""Unknown area kinds: their Okabe-Ito colour moved this far towards the background (a quieter fill)."""


@dataclass(frozen=True)
class LineStyle:
    colour: Colour
    dash: tuple[int, ...] = ()


@dataclass(frozen=True)
class Symbols:
    fills: Mapping[str, Colour] = field(default_factory=dict)
    """Area kinds (hex terrain, cell contents) -> fill colour."""
    letters: Mapping[str, str] = field(default_factory=dict)
    """Area kinds -> the letter drawn in the area (colour is never alone)."""
    marks: Mapping[str, str] = field(default_factory=dict)
    """Location kinds -> mark shape (one of MARKS)."""
    lines: Mapping[str, LineStyle] = field(default_factory=dict)
    """Link kinds -> colour and dash pattern."""

    def fill(self, kind: str) -> Colour:
        return self.fills.get(kind, palette.terrain(kind))

    def mark(self, kind: str) -> str:
        return self.marks.get(kind, KNOWN_MARKS.get(kind, "square"))

    def line(self, kind: str) -> LineStyle:
        return self.lines.get(kind, LineStyle(palette.TEXT_DIM))


def words(kind: str) -> str:
    """A kind as players read it: "sea_lane" -> "sea lane"."""
    return kind.replace("_", " ").replace("-", " ")


def letters(kinds: Iterable[str]) -> dict[str, str]:
    """The shortest distinct prefix of each kind (1-3 letters, first one upper case): F, Ro, Ri."""
    ordered = sorted(set(kinds))
    out: dict[str, str] = {}
    for kind in ordered:
        clean = words(kind).replace(" ", "") or "?"
        for n in range(1, 4):
            prefix = clean[:n]
            if not any(o != kind and words(o).replace(" ", "")[:n] == prefix for o in ordered):
                break
        out[kind] = prefix[:1].upper() + prefix[1:]
    return out


def area_fills(kinds: Iterable[str]) -> dict[str, Colour]:
    """Known terrain keeps its colour; other kinds take Okabe-Ito colours, sorted, slightly quietened."""
    every = sorted(set(kinds))
    out = {k: palette.terrain(k) for k in every if k in palette.TERRAIN}
    unknown = [k for k in every if k not in palette.TERRAIN]
    for i, kind in enumerate(unknown):
        out[kind] = palette.faded(palette.OKABE_ITO[i % len(palette.OKABE_ITO)], FILL_FADE)
    return out


def mark_shapes(kinds: Iterable[str]) -> dict[str, str]:
    """City a circle, town a square, other kinds the shapes left over, in sorted order."""
    ordered = sorted(set(kinds))
    out = {k: KNOWN_MARKS[k] for k in ordered if k in KNOWN_MARKS}
    spare = [m for m in MARKS if m not in out.values()] or list(MARKS)
    for i, kind in enumerate(k for k in ordered if k not in out):
        out[kind] = spare[i % len(spare)]
    return out


def line_styles(kinds: Iterable[str]) -> dict[str, LineStyle]:
    """Each link kind a colour and a dash pattern, both by sorted order (both differ between kinds)."""
    return {kind: LineStyle(palette.OKABE_ITO[i % len(palette.OKABE_ITO)], DASHES[i % len(DASHES)])
            for i, kind in enumerate(sorted(set(kinds)))}


def symbols_for(board: Board) -> Symbols:
    """The symbols of every kind on ``board``."""
    if isinstance(board, SquareBoard):
        kinds = list(board.cells.values())
        return Symbols(area_fills(kinds), letters(kinds))
    if isinstance(board, HexBoard):
        kinds = list(board.terrain.values())
        return Symbols(area_fills(kinds), letters(kinds))
    if isinstance(board, GraphBoard):
        return Symbols(marks=mark_shapes(s.kind for s in board.sites.values()),
                       lines=line_styles(board.links.values()))
    return Symbols()
