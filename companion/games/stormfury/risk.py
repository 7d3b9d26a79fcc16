"""Exact forecast risk: every ordered draw of k of the forecast cards, all equally likely.

The walk is extended card by card in a depth-first search, so each shared prefix of a draw is
walked once; damage is resolved by the same rules the engine uses, so a draw that turns a category 1
storm into a tropical depression counts as a draw that hits nothing (the game ends before the damage).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
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
    """Exact per-city, per-road and per-hex risk of drawing from ``forecast`` at the state's category.

    Why it is quick (a Pi core is several times slower than a laptop's, and the players wait for it):
    the draws are walked depth-first so a shared prefix is walked once; each card's walk from a hex
    and each centre's footprint are computed once; a footprint is a bit mask over the board's hexes,
    so a path's cover is a few integer ORs; equal covers are counted together (every draw is a whole
    count, so the sums stay exact); damage is resolved once per distinct cover of the spaces and road
    hexes, the only hexes it reads."""
    cards: list[Card] = [board.card(c) for c in forecast]
    k = min(board.rules.draws[state.category - 1], len(cards))
    order = sorted(board.hexes)
    bit = {h: 1 << i for i, h in enumerate(order)}
    space_city = {s.hex: s.city for s in board.spaces}
    road_masks = [(r.id, _mask(bit, r.hexes)) for r in board.roads]
    relevant = _mask(bit, space_city)
    for _, m in road_masks:
        relevant |= m
    relevant_hexes = [h for h in order if relevant & bit[h]]
    rings: dict[Hex, int] = {}
    leaves: Counter[int] = Counter()
    """Covers (bit masks) of the draws that do damage, each with how many draws end with it."""
    count = 0

    radius = board.rules.radius[state.category - 1]
    offsets = [(h.q, h.r) for h in Hex(0, 0).within(radius)]

    def ring(centre: Hex) -> int:
        """The board hexes within the storm's radius of ``centre`` (storm.footprint of a centre that
        moved there), as a mask: plain (q, r) tuples look up like the Hex they equal."""
        got = rings.get(centre)
        if got is None:
            q, r = centre
            got = 0
            for dq, dr in offsets:
                got |= bit.get((q + dq, r + dr), 0)  # type: ignore[call-overload]
            rings[centre] = got
        return got

    start_cover = _mask(bit, storm.footprint(board, state.centre, (), state.category)) \
        if board.rules.count_start_hex else 0

    moves: dict[tuple[Hex, int], tuple[Hex, int]] = {}
    """(hex, card) -> where the centre ends and the mask of what it covers on the way."""
    zero: dict[tuple[frozenset[int], bool], bool] = {}
    """(cards drawn, ends at sea) -> the storm weakens to nothing (the game ends before the damage)."""

    fresh: Counter[int] = Counter()
    """Hexes newly covered by a move (a mask), with how many damaging draws follow that move: a hex's hit
    count is the sum over the moves that first cover it, so a prefix shared by many draws counts once."""

    def go(here: Hex, used: tuple[int, ...], covered: int) -> int:
        """Walk every draw that starts with ``used``; the number of them that do damage."""
        nonlocal count
        if len(used) == k:
            count += 1
            key = (frozenset(used), here in board.ocean)
            ends = zero.get(key)
            if ends is None:
                ends = zero[key] = storm.new_category(board, state.category, [cards[i] for i in sorted(used)],
                                                      key[1]) == 0
            if ends:
                return 0  # a category 1 storm that weakens ends the game before any damage
            if not covered:
                # the storm could not move at all: it still stands over its hex when the damage is
                # resolved (storm.footprint)
                covered = ring(state.centre)
                fresh[covered] += 1
            leaves[covered] += 1
            return 1
        damaging = 0
        for i, card in enumerate(cards):
            if i in used:
                continue
            move = moves.get((here, i))
            if move is None:
                path = storm.walk(board, here, (card,))
                mask = 0
                for h in path:
                    mask |= ring(h)
                move = moves[here, i] = (path[-1] if path else here, mask)
            below = go(move[0], (*used, i), covered | move[1])
            if below and (new := move[1] & ~covered):
                fresh[new] += below
            damaging += below
        return damaging

    damaging = go(state.centre, (), start_cover)
    if start_cover and damaging:
        fresh[start_cover] += damaging
    hex_hit = _bit_counts(fresh, len(order))

    by_damage: Counter[int] = Counter()
    for covered, n in leaves.items():
        by_damage[covered & relevant] += n
    leaves = by_damage  # only the spaces and road hexes matter from here on

    # Damage is resolved per city (its spaces, fortifications and people) and per road, each
    # independently of the others, so the covers that differ are regrouped: per city, each distinct
    # cover of its spaces with its count of draws; then one resolve_damage call takes the j-th such
    # cover of every city at once, and one more, every road hex, tells which roads flood when touched.
    city_ids = [c.id for c in board.cities]
    hit_masks = [_mask(bit, (h for h, c in space_city.items() if c == cid)) for cid in city_ids]
    space_masks = [_mask(bit, (s.hex for s in c.spaces)) for c in board.cities]
    per_city: list[Counter[int]] = [Counter() for _ in city_ids]
    city_hit = dict.fromkeys(city_ids, 0)
    city_dmg = dict.fromkeys(city_ids, 0)
    road_hit = dict.fromkeys((r.id for r in board.roads), 0)
    for covered, n in leaves.items():
        for i, cid in enumerate(city_ids):
            if covered & hit_masks[i]:
                city_hit[cid] += n
            if part := covered & space_masks[i]:
                per_city[i][part] += n
        for road_id, m in road_masks:
            if covered & m:
                road_hit[road_id] += n
    columns = [list(c.items()) for c in per_city]
    index = {cid: i for i, cid in enumerate(city_ids)}
    for j in range(max((len(c) for c in columns), default=0)):
        cover = 0
        for column in columns:
            if j < len(column):
                cover |= column[j][0]
        for d in storm.resolve_damage(board, state, _hexes(cover, relevant_hexes, bit), state.turn).damage:
            column = columns[index[d.city]] if d.kind != "road" else []
            if j < len(column):
                city_dmg[d.city] += d.amount * column[j][1]
    every_road = 0
    for _, m in road_masks:
        every_road |= m
    floods = {d.target for d in storm.resolve_damage(board, state, _hexes(every_road, relevant_hexes, bit),
                                                     state.turn).damage if d.kind == "road"}
    road_dmg = {r: (n if r in floods else 0) for r, n in road_hit.items()}
    return Risk(count,
                {c: (city_hit[c] / count, city_dmg[c] / count) for c in city_hit},
                {r: (road_hit[r] / count, road_dmg[r] / count) for r in road_hit},
                {h: hex_hit[i] / count for i, h in enumerate(order) if hex_hit[i]})


def _mask(bit: dict[Hex, int], hexes: Iterable[Hex]) -> int:
    """The bit mask of ``hexes`` (those on the board)."""
    m = 0
    for h in hexes:
        m |= bit.get(h, 0)
    return m


def _hexes(mask: int, candidates: Iterable[Hex], bit: dict[Hex, int]) -> frozenset[Hex]:
    return frozenset(h for h in candidates if mask & bit[h])


def _bit_counts(masks: Counter[int], bits: int) -> list[int]:
    """For each bit, the summed counts of the masks that have it (masks here are small: a move's new hexes)."""
    counts = [0] * bits
    for m, n in masks.items():
        while m:
            low = m & -m
            counts[low.bit_length() - 1] += n
            m ^= low
    return counts
