"""Exact forecast risk: every ordered draw of k of the forecast cards, all equally likely.

The walk is extended card by card in a depth-first search, so each shared prefix of a draw is
walked once; damage is resolved by the same rules the engine uses, so a draw that turns a category 1
storm into a tropical depression counts as a draw that hits nothing (the game ends before the damage).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.stormfury import storm
from companion.games.stormfury.data import Board, Card
from companion.games.stormfury.state import StormState
from companion.hexgrid import Hex


@dataclass(frozen=True)
class Risk:
    """Exact odds for the coming hurricane phase."""

    draws: int
    """Number of equally likely ordered draws enumerated (5!/(5-k)!)."""
    cities: dict[str, tuple[float, float]]
    """city id -> (P(any space of the city hit), expected damage to its spaces)."""
    roads: dict[str, tuple[float, float]]
    """road id -> (P(storm touches it), expected damage = P(it floods))."""
    hexes: dict[Hex, float]
    """hex -> P(under the footprint when the damage is resolved), for the projector overlay."""

    def to_json(self) -> dict[str, object]:
        return {"draws": self.draws,
                "cities": [{"id": k, "p_hit": p, "expected_damage": e} for k, (p, e) in self.cities.items()],
                "roads": [{"id": k, "p_hit": p, "expected_damage": e} for k, (p, e) in self.roads.items()]}


def forecast_risk(board: Board, state: StormState, forecast: Sequence[str]) -> Risk:
    """Exact per-city, per-road and per-hex risk of drawing from ``forecast`` at the state's category."""
    cards: list[Card] = [board.card(c) for c in forecast]
    k = min(board.rules.draws[state.category - 1], len(cards))
    city_hit = {c.id: 0 for c in board.cities}
    city_dmg = {c.id: 0 for c in board.cities}
    road_hit = {r.id: 0 for r in board.roads}
    road_dmg = {r.id: 0 for r in board.roads}
    hex_hit: dict[Hex, int] = {}
    count = 0
    space_city = {s.hex: s.city for s in board.spaces}
    covered_cache: dict[Hex, frozenset[Hex]] = {}

    def ring(centre: Hex) -> frozenset[Hex]:
        got = covered_cache.get(centre)
        if got is None:
            got = storm.footprint(board, centre, (centre,), state.category) if not board.rules.count_start_hex \
                else storm.footprint(board, centre, (), state.category)
            covered_cache[centre] = got
        return got

    start_cover = storm.footprint(board, state.centre, (), state.category) if board.rules.count_start_hex \
        else frozenset()

    def finish(covered: frozenset[Hex], drawn: tuple[Card, ...], end: Hex) -> None:
        nonlocal count
        count += 1
        if storm.new_category(board, state.category, drawn, end in board.ocean) == 0:
            return  # a category 1 storm that weakens ends the game before any damage
        for h in covered:
            hex_hit[h] = hex_hit.get(h, 0) + 1
        damage = storm.resolve_damage(board, state, covered, state.turn).damage
        hit_cities = {space_city[h] for h in covered if h in space_city}
        for c in hit_cities:
            city_hit[c] += 1
        for road in board.roads:
            if storm.road_hit(road.hexes, covered):
                road_hit[road.id] += 1
        for d in damage:
            if d.kind == "road":
                road_dmg[d.target] += 1
            else:
                city_dmg[d.city] += d.amount

    def go(here: Hex, used: tuple[int, ...], covered: frozenset[Hex]) -> None:
        if len(used) == k:
            # nothing covered yet means the storm could not move at all: it still stands over its hex
            # when the damage is resolved (storm.footprint)
            finish(covered or ring(state.centre), tuple(cards[i] for i in used), here)
            return
        for i, card in enumerate(cards):
            if i in used:
                continue
            path = storm.walk(board, here, (card,))
            extra = covered.union(*(ring(h) for h in path)) if path else covered
            go(path[-1] if path else here, (*used, i), extra)

    go(state.centre, (), start_cover)
    return Risk(count,
                {c: (city_hit[c] / count, city_dmg[c] / count) for c in city_hit},
                {r: (road_hit[r] / count, road_dmg[r] / count) for r in road_hit},
                {h: n / count for h, n in hex_hit.items()})
