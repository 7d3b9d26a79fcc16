"""Counting the presses a table makes through the real session: each pick is the arrows to the option, then OK.

A player takes the shortest way to an option, as the session moves its cursor (on the board, or down a list
wrapping past its ends). Every press is a real :class:`Press` handled by the session;
the count is what the buttons took, and the option reached is checked after the arrows.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.presses_scripted import leading_option
from companion.session import Press, Session


@dataclass
class Presses:
    """A session and the presses made on it so far."""

    session: Session
    count: int = 0

    def press(self, button: str) -> None:
        self.session.handle(Press(button))
        self.count += 1

    def pick(self, label: str) -> None:
        """Move the cursor to ``label`` the shortest way and press OK."""
        s = self.session
        menu = s.panel.menu
        assert menu is not None, s.panel
        assert label in menu.items, (label, menu.items)
        route = self._route(label)
        for button in route:
            self.press(button)
        menu = s.panel.menu
        assert menu is not None and menu.items[menu.selected] == label, (label, menu.items, menu.selected)
        self.press("OK")
        assert not s.message or s.message == "undone", s.message

    def _route(self, label: str) -> list[str]:
        """The fewest presses from the cursor to ``label`` before the OK that picks it, as the session moves the
        cursor: a decision's own way (:meth:`Session.presses_to`: on the board or down its list); a menu of the
        box's own one row a press, wrapping, the shorter way round."""
        s = self.session
        menu = s.panel.menu
        assert menu is not None
        target = menu.items.index(label)
        options = s.options() if s.current is not None and not s.menu_open else []
        if options and [o.label for o in options] == list(menu.items):
            way = s.presses_to(target)
            assert way and way[-1] == "OK", way
            return way[:-1]
        n = len(menu.items)
        down = (target - menu.selected) % n
        return ["DOWN"] * down if down <= n - down else ["UP"] * (n - down)


def enter(p: Presses, action: str, **args: object) -> None:
    """Make one entry with the buttons as a player would: at each list the option that leads to ``action`` with
    ``args`` (a page of names: the page holding the one wanted), until the entry is made. Steps the box fills
    itself are not pressed."""
    s = p.session
    assert s.current is not None
    game = s.current.game
    for _ in range(12):
        state = s.current.state
        option = leading_option(game, state, s.options(), action, args)
        assert option is not None, (action, args, [o.label for o in s.options()])
        before = len(s.journal.events(s.current.game_id))
        p.pick(option.label)
        assert len(s.journal.events(s.current.game_id)) == before + 1
        if not s.current.state.pending:  # type: ignore[attr-defined]
            return
    raise AssertionError(f"entry {action} {args} not made in 12 picks")
