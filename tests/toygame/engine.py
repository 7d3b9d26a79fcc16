"""The toy tile game's engine: pure, immutable state, driven by a D6 and a "lay" choice at a cell."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.dice import Choice, Event, Prompt, take_dice
from companion.errors import RuleError
from companion.games.base import Option, SetupQuestion
from companion.places import Cell, Place, SquareBoard, place_from_args

KINDS = {1: "field", 2: "field", 3: "road", 4: "road", 5: "city", 6: "monastery"}
"""What a D6 draws."""
BURNS = {"field": 2 / 6}
"""The fire's chance per kind (a field burns on 5-6); any other kind burns on a 6."""
START = Cell(0, 0)


@dataclass(frozen=True)
class ToyState:
    goal: int = 3
    tiles: tuple[tuple[Cell, str], ...] = ((START, "city"),)
    drawn: str = ""
    """The tile in hand, waiting to be laid ("" while a D6 is wanted)."""
    roll: int = 0
    last: str = ""

    @property
    def laid(self) -> int:
        return len(self.tiles) - 1

    @property
    def over(self) -> bool:
        return self.laid >= self.goal


class ToyGame:
    def __init__(self, key: str = "toy", title: str = "Toy Tiles") -> None:
        self.key = key
        self.title = title

    def setup_questions(self) -> list[SetupQuestion]:
        return [SetupQuestion("tiles", "tiles to lay", (2, 3, 4))]

    def new_game(self, options: Mapping[str, Any]) -> ToyState:
        goal = options.get("tiles", 3)
        if not isinstance(goal, int) or isinstance(goal, bool) or not 1 <= goal <= 6:
            raise RuleError(f"tiles: 1 to 6, not {goal!r}")
        return ToyState(goal=goal)

    def board_for(self, state: ToyState) -> SquareBoard:
        return SquareBoard(dict(state.tiles), START)

    def apply(self, state: ToyState, event: Event) -> ToyState:
        if state.over:
            raise RuleError("the game is over")
        if not state.drawn:
            (die,) = take_dice(event, ("d6",))
            return replace(state, drawn=KINDS[die.value], roll=die.value)
        if not isinstance(event, Choice) or event.action != "lay":
            raise RuleError(f"lay the {state.drawn} first")
        cell = place_from_args(event.args)
        board = self.board_for(state)
        if not isinstance(cell, Cell) or cell not in board.open_cells():
            raise RuleError("a tile goes on an empty cell next to a laid one")
        return replace(state, tiles=(*state.tiles, (cell, state.drawn)), drawn="",
                       last=f"{state.drawn}: {board.name_of(cell)}")

    def prompt(self, state: ToyState) -> Prompt:
        if state.over:
            return Prompt("All tiles are laid", "Game over", done=True)
        if not state.drawn:
            return Prompt(f"Roll a D6 for tile {state.laid + 1} of {state.goal}", "Roll D6: next tile", dice=("d6",))
        return Prompt(f"Lay the {state.drawn} next to a laid tile", f"Lay {state.drawn}", actions=("lay",))

    def status(self, state: ToyState) -> str:
        return "All laid" if state.over else f"Tile {state.laid + 1} of {state.goal}"

    def recap(self, state: ToyState) -> tuple[str, ...]:
        lines = [f"Drew {state.drawn} ({state.roll})"] if state.drawn else []
        return (*lines, f"Laid {state.last}") if state.last else tuple(lines)

    def choices(self, state: ToyState) -> list[Option]:
        if not state.drawn or state.over:
            return []
        board = self.board_for(state)
        return [Option.of(board.name_of(c).removesuffix(" of the start"), Choice("lay", {"x": c.x, "y": c.y}),
                          text=f"Lay the {state.drawn} {board.name_of(c)}") for c in board.open_cells()]

    def risk_map(self, state: ToyState) -> dict[Place, float]:
        """Exact: the fire's one D6 against each laid tile's kind."""
        return {cell: BURNS.get(kind, 1 / 6) for cell, kind in state.tiles}
