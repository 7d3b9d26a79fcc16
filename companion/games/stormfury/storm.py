"""The hurricane's move and its damage, as pure functions shared by the engine and the risk.

Keeping them apart from the event fold lets the exact forecast risk run the very same rules
over every possible draw.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.games.stormfury.data import Board, Card
from companion.games.stormfury.state import Damage, StormState
from companion.hexgrid import Hex


def walk(board: Board, start: Hex, cards: Sequence[Card]) -> tuple[Hex, ...]:
    """Every hex the centre reaches following ``cards`` in order (rules.off_board = "stop")."""
    path: list[Hex] = []
    here = start
    for card in cards:
        for step in card.steps:
            nxt = here.neighbour(step)
            if nxt not in board.hexes:
                break  # the storm leans on the edge for the rest of this card
            here = nxt
            path.append(here)
    return tuple(path)


def footprint(board: Board, start: Hex, path: Iterable[Hex], category: int) -> frozenset[Hex]:
    """Board hexes under any part of the storm along its path: each counted once per turn.

    The hex the centre starts on counts only with rules.count_start_hex, except when the centre
    cannot move at all: then the storm still stands over its hex when the damage is resolved."""
    radius = board.rules.radius[category - 1]
    path = list(path)
    centres = [start, *path] if board.rules.count_start_hex or not path else path
    return frozenset(h for c in centres for h in c.within(radius) if h in board.hexes)


def new_category(board: Board, category: int, cards: Sequence[Card], at_sea: bool = True) -> int:
    """Category after the move: one step at most, marks per rules.both_marks.

    "The hurricane can only strengthen at sea": the change comes after the move, so a strengthen
    mark counts only if the centre then stands on a gulf hex (``at_sea``); over land it is dropped
    and the other marks decide, so a weaken over land applies."""
    up = sum(c.mark == "strengthen" for c in cards) if at_sea else 0
    down = sum(c.mark == "weaken" for c in cards)
    if up and down:
        rule = board.rules.both_marks
        delta = {"cancel": 0, "strengthen": 1, "weaken": -1}.get(rule, (up > down) - (down > up))
    else:
        delta = 1 if up else -1 if down else 0
    return max(0, min(5, category + delta))


def road_hit(road_hexes: Iterable[Hex], covered: frozenset[Hex]) -> bool:
    """"If the hurricane is touching any part of an ... road": any of its hexes under the storm."""
    return not covered.isdisjoint(road_hexes)


@dataclass(frozen=True)
class Outcome:
    """What one hurricane phase's damage resolution leaves behind."""

    damage: tuple[Damage, ...]
    """Damage tokens placed."""
    absorbed: tuple[str, ...]
    """Space ids whose fortification absorbed a hit."""
    fortifications: dict[str, int]
    """Fortification tokens left, by space id."""
    destroyed: frozenset[str]
    """Infrastructure space ids lost, before and now."""
    flooded: frozenset[str]
    """Road ids flooded, before and now."""
    population: tuple[tuple[str, int], ...]
    """(city id, people left): with rules.damaged_population = "lost" the damaged people are gone."""


def resolve_damage(board: Board, state: StormState, covered: frozenset[Hex], turn: int) -> Outcome:
    """Damage from a footprint under the state's defences.

    A population centre with nobody left in it is not damaged, so a fortification there is not used
    up ("an unprotected Population Center that hasn't been completely evacuated")."""
    forts = dict(state.fortifications)
    destroyed = set(state.destroyed)
    flooded = set(state.flooded)
    people = dict(state.population)
    damage: list[Damage] = []
    absorbed: list[str] = []
    lose = board.rules.damaged_population == "lost"
    for city in board.cities:
        for space in city.spaces:
            if space.hex not in covered or space.id in destroyed:
                continue
            if space.kind == "population" and not people.get(city.id, 0):
                continue
            if forts.get(space.id, 0) > 0:
                forts[space.id] -= 1
                if not forts[space.id]:
                    del forts[space.id]
                absorbed.append(space.id)
            elif space.kind == "infrastructure":
                destroyed.add(space.id)
                damage.append(Damage(turn, city.id, "infrastructure", space.id, 1))
            else:
                damage.append(Damage(turn, city.id, "population", space.id, people[city.id]))
                if lose:
                    people[city.id] = 0
    for road in board.roads:
        if road.id not in flooded and road_hit(road.hexes, covered) and not state.dammed(road.id, road.ends):
            flooded.add(road.id)
            damage.append(Damage(turn, road.ends[0], "road", road.id, 1))
    return Outcome(tuple(damage), tuple(absorbed), forts, frozenset(destroyed), frozenset(flooded),
                   tuple((c, people[c]) for c, _ in state.population))
