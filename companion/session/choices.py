"""Decisions as menu options: what the buttons scroll through and the projector's cursor points at.

An engine that can list its legal decisions exposes ``choices(state)``; each item becomes an
:class:`Option` with a short label for the OLED, the :class:`~companion.dice.Choice` event it
sends, and the hex it concerns (if any) so the projector's cursor can sit on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.dice import Choice, Prompt
from companion.hexgrid import Hex


@dataclass(frozen=True)
class Option:
    label: str
    event: Choice
    hex: Hex | None = None


def _hex_of(args: Mapping[str, Any]) -> Hex | None:
    q, r = args.get("q"), args.get("r")
    if isinstance(q, int) and isinstance(r, int):
        return Hex(q, r)
    return None


def options_for(game: Any, state: Any, prompt: Prompt) -> list[Option]:
    """The decisions to offer now: the engine's own list if it has one, a board-aware list for the
    games known here, else one per prompt action (with no details)."""
    lister = getattr(game, "choices", None)
    if callable(lister):
        return [_option(item) for item in lister(state)]
    known = _LISTERS.get(getattr(game, "key", ""))
    if known is not None:
        return known(game, state, prompt)
    return [Option(action, Choice(action, {})) for action in prompt.actions]


def _stormfury(game: Any, state: Any, prompt: Prompt) -> list[Option]:
    """Player phase of Stormfury: end the phase first, then for each player the moves along open roads,
    a fortification of each standing space of their city, a dam at each road end there, one evacuation.
    The engine still judges each one; a refused option says why on the panel."""
    board = game.board
    out = [Option("End player phase", Choice("end_player_phase", {}))]
    flooded = set(getattr(state, "flooded", ()))
    destroyed = set(getattr(state, "destroyed", ()))
    dams = set(getattr(state, "dams", ()))
    cities = {c.id: c for c in board.cities}
    for player in state.players:
        who = player.role.replace("_", " ").split()[0].capitalize()
        here = cities.get(player.city)
        for road in board.roads_of(player.city):
            to = road.other(player.city)
            if road.id not in flooded and to in cities:
                out.append(Option(f"{who}: go {cities[to].name}", Choice("move", {"player": player.role, "to": to}),
                                  cities[to].population_centre))
        if here is not None:
            for space in here.infrastructure:
                if space.id not in destroyed:
                    out.append(Option(f"{who}: fort {space.name}",
                                      Choice("fortify", {"player": player.role, "space": space.id}), space.hex))
        for road in board.roads_of(player.city):
            if road.id not in flooded and (road.id, player.city) not in dams:
                out.append(Option(f"{who}: dam {road.id}",
                                  Choice("dam", {"player": player.role, "road": road.id, "city": player.city}),
                                  road.middle))
        if here is not None and state.people(player.city) > 0:
            out.append(Option(f"{who}: evacuate 1", Choice("evacuate", {"player": player.role, "count": 1}),
                              here.population_centre))
    return out


_LISTERS = {"stormfury": _stormfury}


def _option(item: Any) -> Option:
    if isinstance(item, Option):
        return item
    if isinstance(item, Choice):
        label = " ".join([item.action, *(str(v) for v in item.args.values())])
        return Option(label, item, _hex_of(item.args))
    label, event = item
    return Option(str(label), event, _hex_of(event.args))


def setup_questions(game: Any) -> Sequence[tuple[str, str, Sequence[Any]]]:
    """What to ask before a new game: (option name, label, values), from the engine if it has questions
    (Kansas: the player count picks the outbreak table's row; Stormfury asks nothing: all four roles play)."""
    own = getattr(game, "setup_questions", None)
    return list(own()) if callable(own) else []
