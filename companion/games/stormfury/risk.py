"""Exact forecast risk: every ordered draw of k of the forecast cards, all equally likely.

The walk is extended card by card in a depth-first search, so each shared prefix of a draw is
walked once; damage is resolved by the same rules the engine uses, so a draw that turns a category 1
storm into a tropical depression counts as a draw that hits nothing (the game ends before the damage).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

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
    and each centre's footprint are computed once; a footprint is a bit mask over the board's hexes
    (:class:`_Bits`: one shifted template per centre), so a path's cover is a few integer ORs; equal
    covers are counted together (every draw is a whole count, so the sums stay exact); damage is
    resolved once per distinct cover of the spaces and road hexes, the only hexes it reads."""
    cards: list[Card] = [board.card(c) for c in forecast]
    k = min(board.rules.draws[state.category - 1], len(cards))
    bits = _Bits(board, board.rules.radius[state.category - 1])
    space_city = {s.hex: s.city for s in board.spaces}
    road_masks = [(r.id, bits.mask(r.hexes)) for r in board.roads]
    relevant = bits.mask(space_city)
    for _, m in road_masks:
        relevant |= m
    relevant_hexes = [(h, b) for h in {*space_city, *(h for r in board.roads for h in r.hexes)}
                      if h in board.hexes and relevant & (b := bits.bit(h))]
    """The spaces and road hexes, the only hexes damage reads, each with its bit."""
    leaves: dict[int, int] = {}
    """Covers (bit masks) of the draws that do damage, each with how many draws end with it."""
    count = 0
    ring = bits.ring

    start_cover = bits.mask(storm.footprint(board, state.centre, (), state.category)) \
        if board.rules.count_start_hex else 0

    moves: dict[tuple[Hex, int], tuple[Hex, int]] = {}
    """(hex, card) -> where the centre ends and the mask of what it covers on the way."""
    zero: dict[tuple[int, bool], bool] = {}
    """(cards drawn, a bit each; ends at sea) -> the storm weakens to nothing (the game ends before the
    damage)."""

    ocean = board.ocean
    indices = range(len(cards))

    def go(here: Hex, used: int, left: int, covered: int) -> None:
        """Walk every draw that starts with the cards ``used`` (a bit each), ``left`` cards still to
        draw, counting the covers of those that do damage. (Plain dicts and bits: this runs for every
        prefix.)"""
        nonlocal count
        if not left:
            count += 1
            key = (used, here in ocean)
            ends = zero.get(key)
            if ends is None:
                ends = zero[key] = storm.new_category(
                    board, state.category, [cards[i] for i in indices if used >> i & 1], key[1]) == 0
            if ends:
                return  # a category 1 storm that weakens ends the game before any damage
            if not covered:
                # the storm could not move at all: it still stands over its hex when the damage is
                # resolved (storm.footprint)
                covered = ring(state.centre)
            leaves[covered] = leaves.get(covered, 0) + 1
            return
        for i in indices:
            if used >> i & 1:
                continue
            move = moves.get((here, i))
            if move is None:
                path = storm.walk(board, here, (cards[i],))
                mask = 0
                for h in path:
                    mask |= ring(h)
                move = moves[here, i] = (path[-1] if path else here, mask)
            go(move[0], used | 1 << i, left - 1, covered | move[1])

    go(state.centre, 0, k, start_cover)
    hex_hit = bits.counts(leaves)  # a hex's count: the damaging draws whose cover holds it

    by_damage: dict[int, int] = {}
    for covered, n in leaves.items():  # only the spaces and road hexes matter from here on
        key = covered & relevant
        by_damage[key] = by_damage.get(key, 0) + n

    # Damage is resolved per city (its spaces, fortifications and people) and per road, each
    # independently of the others, so the covers that differ are regrouped: per city, each distinct
    # cover of its spaces with its count of draws; then one resolve_damage call takes the j-th such
    # cover of every city at once, and one more, every road hex, tells which roads flood when touched.
    city_ids = [c.id for c in board.cities]
    hit_masks = [bits.mask(h for h, c in space_city.items() if c == cid) for cid in city_ids]
    space_masks = [bits.mask(s.hex for s in c.spaces) for c in board.cities]
    # a city is hit when its spaces are: one test for both unless a space hex is listed under two cities
    own = [hit == spaces for hit, spaces in zip(hit_masks, space_masks, strict=True)]
    per_city: list[dict[int, int]] = [{} for _ in city_ids]
    city_hit = dict.fromkeys(city_ids, 0)
    city_dmg = dict.fromkeys(city_ids, 0)
    road_hit = dict.fromkeys((r.id for r in board.roads), 0)
    for covered, n in by_damage.items():
        for i, cid in enumerate(city_ids):
            if part := covered & space_masks[i]:
                per_city[i][part] = per_city[i].get(part, 0) + n
            if part if own[i] else covered & hit_masks[i]:
                city_hit[cid] += n
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
        for d in storm.resolve_damage(board, state, bits.hexes(cover, relevant_hexes), state.turn).damage:
            column = columns[index[d.city]] if d.kind != "road" else []
            if j < len(column):
                city_dmg[d.city] += d.amount * column[j][1]
    every_road = 0
    for _, m in road_masks:
        every_road |= m
    floods = {d.target for d in storm.resolve_damage(board, state, bits.hexes(every_road, relevant_hexes),
                                                     state.turn).damage if d.kind == "road"}
    road_dmg = {r: (n if r in floods else 0) for r, n in road_hit.items()}
    return Risk(count,
                {c: (city_hit[c] / count, city_dmg[c] / count) for c in city_hit},
                {r: (road_hit[r] / count, road_dmg[r] / count) for r in road_hit},
                {h: n / count for h, n in hex_hit.items()})


class _Bits:
    """The board's hexes as the bits of one integer, laid out row by row on the board's bounding
    rectangle with a margin of the storm's radius, so the footprint around any centre is one template
    (the disc of that radius) shifted to the centre and cut to the board: two integer operations, not
    a loop over the disc's hexes. Bits grow with (q, r), so reading them in order lists hexes sorted."""

    def __init__(self, board: Board, radius: int) -> None:
        self.board = board
        self.radius = radius
        q, r = np.fromiter(chain.from_iterable(board.hexes), np.int64, 2 * len(board.hexes)).reshape(-1, 2).T
        self.q0, self.r0 = int(q.min()) - radius, int(r.min()) - radius
        self.stride = int(r.max()) + radius + 1 - self.r0
        # every board hex's bit at once: the bits as bytes (lowest first), then one integer
        on = np.zeros((int(q.max()) + radius + 1 - self.q0) * self.stride, dtype=np.uint8)
        on[(q - self.q0) * self.stride + r - self.r0] = 1
        self.board_mask = int.from_bytes(np.packbits(on, bitorder="little").tobytes(), "little")
        centre = Hex(self.q0 + radius, self.r0 + radius)  # the template's centre: the lowest shift
        self._base = self.position(centre)
        self._disc = 0
        for h in centre.within(radius):
            self._disc |= self.bit(h)
        self._rings: dict[Hex, int] = {}

    def position(self, h: Hex) -> int:
        return (h.q - self.q0) * self.stride + h.r - self.r0

    def bit(self, h: Hex) -> int:
        return 1 << self.position(h)

    def mask(self, hexes: Iterable[Hex]) -> int:
        """The bit mask of ``hexes`` (those on the board)."""
        on = self.board.hexes
        m = 0
        for h in hexes:
            if h in on:
                m |= 1 << self.position(h)
        return m

    def ring(self, centre: Hex) -> int:
        """The board hexes within the storm's radius of ``centre`` (storm.footprint of a centre that
        moved there), as a mask."""
        got = self._rings.get(centre)
        if got is None:
            if centre in self.board.hexes:
                got = (self._disc << (self.position(centre) - self._base)) & self.board_mask
            else:  # a centre off the board (none in the rules' walks) may lie beyond the margin
                got = self.mask(centre.within(self.radius))
            self._rings[centre] = got
        return got

    @staticmethod
    def hexes(mask: int, candidates: Iterable[tuple[Hex, int]]) -> frozenset[Hex]:
        """The hexes of ``candidates`` (each with its bit) that ``mask`` holds."""
        return frozenset(h for h, bit in candidates if mask & bit)

    def counts(self, masks: dict[int, int]) -> dict[Hex, int]:
        """For each hex, the summed counts of the masks that have its bit, hexes in sorted order.

        The masks' bits are unpacked by numpy, a row per mask, and weighted by their counts in one
        product: counts of draws are whole numbers far below 2**53, so the float sums are exact."""
        if not masks:
            return {}
        size = (self.board_mask.bit_length() + 7) // 8
        raw = b"".join(m.to_bytes(size, "little") for m in masks)
        rows = np.unpackbits(np.frombuffer(raw, np.uint8).reshape(len(masks), size), axis=1, bitorder="little")
        totals = np.fromiter(masks.values(), np.float64, len(masks)) @ rows.astype(np.float64)
        at = np.flatnonzero(totals)
        return {Hex(p // self.stride + self.q0, p % self.stride + self.r0): n
                for p, n in zip(at.tolist(), totals[at].astype(np.int64).tolist(), strict=True)}
