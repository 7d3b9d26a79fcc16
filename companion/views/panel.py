"""The panel: what the table is told right now, independent of which game is played.

The session builds one :class:`Panel` after every accepted event (or tower status change);
the OLED draws it whole and the projector draws it as its status line. Keeping it a plain
frozen value makes every screen a pure function ``Panel -> image`` that tests can pin down.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.dice import Die, Prompt
from companion.inputs import SOURCE_STATES

TOWER_STATES = SOURCE_STATES
"""off: no tower configured; waiting: looking for it; away: it was there and vanished;
mismatch: it speaks another protocol version."""


@dataclass(frozen=True)
class Menu:
    """A short list on the OLED (choose game, players, resume, confirm undo...)."""

    title: str
    items: tuple[str, ...]
    selected: int = 0


@dataclass(frozen=True)
class Panel:
    game: str = ""
    """Title of the game on the table ("Kansas Tornadoes"); empty before one is chosen."""
    status: str = ""
    """Where the game is: "Turn 3 - tornado phase"."""
    prompt: Prompt | None = None
    """What to do next; None while a menu is open or nothing is asked."""
    dice: tuple[Die, ...] = ()
    """Dice of the current or last request, as they arrived."""
    rerolled: tuple[bool, ...] = ()
    """Parallel to ``dice``: True where that die replaced an earlier value (shown marked)."""
    result: tuple[str, ...] = ()
    """What just happened, a few short lines ("Start: Dodge City", "Path: NE N NE S")."""
    tower: str = "off"
    """One of TOWER_STATES, shown inline, never as a pop-up."""
    sources: tuple[tuple[str, str], ...] = ()
    """Every other dice source the box has heard from (smart dice, ...), as (name, state), shown beside the tower."""
    message: str = ""
    """The last refusal or fault, one line ("need D8, got D6=3"); empty when all is well."""
    menu: Menu | None = None
    notices: tuple[str, ...] = field(default=())
    """Lasting conditions said once ("projector: no display", "journal: disk full")."""
    request: str = ""
    """The current request in the table's words, for whom and what ("Tornado 2 of 3: north-south D8",
    "Card 2 of 5: throw D8 + D6"): the body of every OLED screen in play. Empty outside a game, while a
    modal menu is open, or when the request is a decision (then the menu's title says it)."""
    arriving: bool = False
    """The dice shown are the current request's, still incomplete (a D8 in, the D6 to come): the OLED
    shows them big with the dice still wanted."""
    last: tuple[str, ...] = ()
    """The last result, most telling line first ("Marker on Hays", "Card 1: Ocean 3"), shown under the request
    until the next event; at the end of the game the final result."""
    join: str = ""
    """While the box's "Phones" menu is open: the page's address and join code in words ("10.0.0.5:8080 code
    K7PM2Q"), and ``join_url`` the same as a link for the QR code the OLED and the projector draw beside it."""
    join_url: str = ""
    happened: str = ""
    """A decision just opened: what the event before it did ("The meteor lands on 2 west of the start"), on the
    OLED's bottom line under the options until the cursor first moves."""
