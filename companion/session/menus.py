"""The OLED's menus: a title, a few labels, what OK does on each, and what BACK does.

A menu is the session's modal state (choose a game, answer a setup question, confirm an undo);
while one is open the buttons move through it and nothing reaches the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.dice import DiceRolled
from companion.places import Place
from companion.views.panel import Menu


@dataclass
class MenuState:
    title: str
    labels: list[str]
    actions: list[Callable[[], None]]
    back: Callable[[], None] | None = None
    selected: int = 0
    holds_rolls: bool = False
    """A question about the game in play ("Re-roll last?"): dice thrown meanwhile wait for its answer
    instead of being refused, so a throw made while the table decides is neither lost nor misread."""
    take_dice: Callable[[DiceRolled], None] | None = None
    """A menu that is itself asking for dice (a past roll being mended): a throw goes to it, not to the game."""
    places: Sequence[Place | None] = ()
    """The place each item concerns (a past decision's options being mended): the projector rings the one under
    the cursor, as it does in play. Empty: the menu names no place."""

    def press(self, button: str) -> None:
        """UP/LEFT and DOWN/RIGHT move, OK runs the selected item, BACK runs ``back`` when there is one."""
        if button in ("UP", "LEFT"):
            self.selected = (self.selected - 1) % len(self.labels)
        elif button in ("DOWN", "RIGHT"):
            self.selected = (self.selected + 1) % len(self.labels)
        elif button == "OK":
            self.actions[self.selected]()
        elif button == "BACK" and self.back is not None:
            self.back()

    def place(self) -> Place | None:
        """The place of the item under the cursor, if it names one."""
        return self.places[self.selected] if 0 <= self.selected < len(self.places) else None

    def view(self) -> Menu:
        return Menu(self.title, tuple(self.labels), self.selected)
