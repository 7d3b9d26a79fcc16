"""Seats named by the table: "Player 2" and "P2" on the screens become "Ann" or "Blue".

A game whose engine numbers its seats (``numbered_seats = True``: Kansas, Allegheny) asks, once its setup
questions are answered, whether the table names them; each seat then takes a name from a short list (the box
has no keyboard). The names are an option of the game (``seats``), journaled with it as every option is, so a
resumed game keeps them; the engine ignores the option, and the session says the names in everything the
panel carries (status, request, options, results), a whole word at a time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from companion.views.drawn import say
from companion.views.panel import Menu, Panel

__all__ = ["NAMES", "SEATS_OPTION", "named", "names_seats", "offered", "say", "seat_names"]

SEATS_OPTION = "seats"
NAMES: tuple[str, ...] = ("Red", "Blue", "Green", "Yellow", "Purple", "Black", "White", "Orange",
                          "Ann", "Ben", "Cleo", "Dev", "Eva", "Finn", "Gus", "Hana")
"""The names the box offers a seat: colours first (the tables' own pieces), then short first names."""

def names_seats(engine: Any) -> bool:
    """Whether the engine numbers its seats, so the table may name them."""
    return bool(getattr(engine, "numbered_seats", False))


def seat_names(options: Mapping[str, Any]) -> tuple[str, ...]:
    """The seats' names from a game's options (empty: the engine's own numbers)."""
    value = options.get(SEATS_OPTION, ())
    if isinstance(value, list | tuple) and all(isinstance(v, str) and v for v in value):
        return tuple(value)
    return ()


def offered(chosen: Sequence[str]) -> list[str]:
    """The names still free for the next seat."""
    return [name for name in NAMES if name not in chosen]


def named(panel: Panel, seats: Sequence[str]) -> Panel:
    """The panel with the seats said by name, wherever it carries words."""
    if not seats:
        return panel

    def lines(values: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(say(v, seats) for v in values)

    menu = panel.menu
    if menu is not None:
        menu = Menu(say(menu.title, seats), lines(menu.items), menu.selected)
    prompt = panel.prompt
    if prompt is not None:
        prompt = dataclasses.replace(prompt, text=say(prompt.text, seats), short=say(prompt.short, seats))
    return dataclasses.replace(panel, status=say(panel.status, seats), prompt=prompt, result=lines(panel.result),
                               menu=menu, request=say(panel.request, seats), last=lines(panel.last),
                               happened=say(panel.happened, seats))
