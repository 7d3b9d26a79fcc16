"""Board shapes on the projector: one small geometry per shape behind one interface (:class:`Shape`).

``fit(board, rect)`` picks the shape of ``board`` (hex grid, square grid, graph) and sizes it into
``rect``; everything else speaks of places: ``centre(place)``, ``outline(place, scale)``,
``box(place, scale)``, ``probe(place)`` and ``unit``.
"""

from __future__ import annotations

from companion.places import Board, GraphBoard, SquareBoard
from companion.views.projector.shapes.base import Point, Rect, Shape, bounds
from companion.views.projector.shapes.graphs import GraphShape
from companion.views.projector.shapes.hexes import HexShape
from companion.views.projector.shapes.squares import SquareShape

__all__ = ["GraphShape", "HexShape", "Point", "Rect", "Shape", "SquareShape", "bounds", "fit"]


def fit(board: Board, rect: Rect) -> HexShape | SquareShape | GraphShape:
    """The geometry of ``board`` fitted into ``rect``: a square grid with a margin of open cells around
    what is laid, a graph scaled to its sites, a hex grid at the largest hex size that fits."""
    if isinstance(board, SquareBoard) or board.shape == "square":
        return SquareShape.fit(board.places(), rect)  # type: ignore[arg-type]
    if isinstance(board, GraphBoard) or board.shape == "graph":
        return GraphShape.fit(board.sites, rect)  # type: ignore[attr-defined]
    return HexShape.fit(board.places(), rect)  # type: ignore[arg-type]
