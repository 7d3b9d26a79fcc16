"""The tornado's moves: every path of ``step`` orthogonal spaces it may take from where it stands.

"Each player ... moving the tornado 2 spaces orthogonally from its current position and may not be moved to the
same tile twice per turn." Which tiles count as visited ("move": the mover's own 2 spaces and where they started;
"tornado": everything since it was laid) and whether it may cross empty spaces are readings in
maps/carcassonne.toml. Pure functions of the tornado and the spaces that hold tiles.
"""

from __future__ import annotations

from companion.games.carcassonne.state import Tornado, long_name
from companion.places import Cell


def _blocked(t: Tornado, visited: str) -> frozenset[Cell]:
    return t.visited | {t.at} if visited == "tornado" else frozenset({t.at})


def _may_enter(cell: Cell, laid: frozenset[Cell], over_empty: bool) -> bool:
    return cell in laid or (over_empty and any(n in laid for n in cell.neighbours()))


def moves(t: Tornado, laid: frozenset[Cell], step: int, visited: str, over_empty: bool) -> list[tuple[Cell, ...]]:
    """Every legal path (the spaces entered, in order), N E S W first at each step."""
    out: list[tuple[Cell, ...]] = []
    blocked = _blocked(t, visited)

    def walk(at: Cell, path: tuple[Cell, ...]) -> None:
        if len(path) == step:
            out.append(path)
            return
        for nxt in at.neighbours():
            if nxt not in blocked and nxt not in path and _may_enter(nxt, laid, over_empty):
                walk(nxt, (*path, nxt))

    if t.left >= step:
        walk(t.at, ())
    return out


def why_not(t: Tornado, path: tuple[Cell, ...], laid: frozenset[Cell], step: int, visited: str,
            over_empty: bool) -> str:
    """One line saying why ``path`` is not a legal tornado move."""
    if len(path) != step:
        return f"the tornado moves {step} spaces a move, not {len(path)}"
    blocked = _blocked(t, visited)
    at = t.at
    for i, cell in enumerate(path):
        if cell.manhattan(at) != 1:
            return f"{long_name(cell)} is not one space straight from {long_name(at)}"
        if cell in blocked or cell in path[:i]:
            return f"the tornado was already on {long_name(cell)} this {'move' if visited == 'move' else 'turn'}"
        if not _may_enter(cell, laid, over_empty):
            return f"{long_name(cell)} holds no tile: the tornado moves over placed tiles only"
        at = cell
    return "not a legal tornado move"
