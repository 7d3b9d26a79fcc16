"""The hurricane's move and its damage, as pure functions shared by the engine and the risk.

Keeping them apart from the event fold lets the exact forecast risk run the very same rules
over every possible draw.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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


def new_category(board: Board, category: int, cards: Sequence[Card]) -> int:
    """Category after the move: one step at most, marks per rules.both_marks."""
    up = sum(c.mark == "strengthen" for c in cards)
    down = sum(c.mark == "weaken" for c in cards)
    if up and down:
        rule = board.rules.both_marks
        delta = {"cancel": 0, "strengthen": 1, "weaken": -1}.get(rule, (up > down) - (down > up))
    else:
        delta = 1 if up else -1 if down else 0
    return max(0, min(5, category + delta))


def resolve_damage(board: Board, state: StormState, covered: frozenset[Hex], turn: int
                   ) -> tuple[tuple[Damage, ...], tuple[str, ...], dict[str, int], frozenset[str], frozenset[str]]:
    """Damage from a footprint under the state's defences.

    Returns (damage tokens, space ids whose fortification absorbed, fortifications after,
    destroyed after, flooded after).
    """
    forts = dict(state.fortifications)
    destroyed = set(state.destroyed)
    flooded = set(state.flooded)
    damage: list[Damage] = []
    absorbed: list[str] = []
    for city in board.cities:
        for space in city.spaces:
            if space.hex not in covered or space.id in destroyed:
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
                people = state.people(city.id)
                if people:
                    damage.append(Damage(turn, city.id, "population", space.id, people))
    for road in board.roads:
        if road.middle in covered and road.id not in flooded and not state.dammed(road.id, road.ends):
            flooded.add(road.id)
            damage.append(Damage(turn, road.ends[0], "road", road.id, 1))
    return tuple(damage), tuple(absorbed), forts, frozenset(destroyed), frozenset(flooded)
