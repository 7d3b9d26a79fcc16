"""Exact forecast risk: it must equal the engine summed over every draw, and agree with simulation."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from companion.dice import Shuffled
from companion.games.stormfury import load
from companion.games.stormfury.risk import forecast_risk
from companion.hexgrid import Hex

GAME = load()
B = GAME.board
FORECAST = ("O3", "O13", "O5", "O9", "O14")


def state(centre: Hex, category: int, forecast=FORECAST, **kw):
    s = GAME.new_game({})
    return replace(s, centre=centre, category=category, forecast=forecast, phase="players", **kw)


def outcome(s, order):
    after = GAME.apply(replace(s, phase="hurricane"), Shuffled(order))
    log = after.log[-1]
    covered = set()
    from companion.games.stormfury import storm

    # a category 1 storm that weakens ends the game before any damage: it covers nothing
    covered = storm.footprint(B, s.centre, log.path, s.category) if log.category_after else frozenset()
    city = {c.id: 0 for c in B.cities}
    for d in log.damage:
        if d.kind != "road":
            city[d.city] += d.amount
    return covered, city, {d.target for d in log.damage if d.kind == "road"}


@pytest.mark.parametrize(("centre", "category"), [(Hex(5, 6), 1), (Hex(5, 6), 3), (Hex(9, 4), 4), (Hex(9, 4), 5),
                                                  (min(B.hexes), 5), (max(B.hexes), 5)])  # the last two: corners
def test_exact_risk_equals_the_engine_over_every_shuffle(centre, category):
    s = state(centre, category, fortifications=(("houston.port", 1),), dams=frozenset(
        {("houston-lake_charles", "houston"), ("houston-lake_charles", "lake_charles")}),
        population=tuple((c.id, 1) for c in B.cities))
    risk = forecast_risk(B, s, FORECAST)
    k = B.rules.draws[category - 1]
    assert risk.draws == len(list(itertools.permutations(range(5), k)))
    perms = list(itertools.permutations(range(5)))
    hexes: dict[Hex, int] = {}
    dmg = {c.id: 0 for c in B.cities}
    floods = {r.id: 0 for r in B.roads}
    outcomes = [outcome(s, order) for order in perms]
    for covered, city, roads in outcomes:
        for h in covered:
            hexes[h] = hexes.get(h, 0) + 1
        for c, v in city.items():
            dmg[c] += v
        for r in roads:
            floods[r] += 1
    n = len(perms)
    assert risk.hexes == pytest.approx({h: v / n for h, v in hexes.items()})
    for c in B.cities:
        assert risk.cities[c.id][1] == pytest.approx(dmg[c.id] / n)
        hit = sum(1 for covered, _, _ in outcomes if any(sp.hex in covered for sp in c.spaces)) / n
        assert risk.cities[c.id][0] == pytest.approx(hit)
    for r in B.roads:
        assert risk.roads[r.id][1] == pytest.approx(floods[r.id] / n)
    assert risk.roads["houston-lake_charles"][1] == 0.0  # dammed at both ends never floods


def test_exact_risk_agrees_with_a_seeded_monte_carlo():
    s = state(Hex(7, 5), 3)
    risk = forecast_risk(B, s, FORECAST)
    rng = random.Random(2024)
    trials = 1500
    dmg = {c.id: 0 for c in B.cities}
    hit = {c.id: 0 for c in B.cities}
    floods = {r.id: 0 for r in B.roads}
    for _ in range(trials):
        order = list(range(5))
        rng.shuffle(order)
        covered, city, roads = outcome(s, tuple(order))
        for c in B.cities:
            dmg[c.id] += city[c.id]
            hit[c.id] += any(sp.hex in covered for sp in c.spaces)
        for r in roads:
            floods[r] += 1
    assert any(p > 0.2 for p, _ in risk.cities.values())  # the test is about something
    for c in B.cities:
        assert abs(risk.cities[c.id][0] - hit[c.id] / trials) < 0.05
        assert abs(risk.cities[c.id][1] - dmg[c.id] / trials) < 0.2
    for r in B.roads:
        assert abs(risk.roads[r.id][1] - floods[r.id] / trials) < 0.05


def test_risk_map_is_empty_before_the_forecast_and_exact_after():
    s = GAME.new_game({})
    assert GAME.risk_map(s) == {}
    s = GAME.apply(s, Shuffled(tuple(range(15))))
    overlay = GAME.risk_map(s)
    assert overlay == forecast_risk(B, s, s.forecast).hexes
    assert all(0 < p <= 1 for p in overlay.values())
    assert max(overlay.values()) == 1.0  # some hex is covered by every draw


def test_risk_json_shape():
    data = forecast_risk(B, state(Hex(5, 6), 2), FORECAST).to_json()
    assert data["draws"] == 60
    assert {tuple(sorted(row)) for row in data["cities"]} == {("expected_damage", "id", "p_hit")}
    assert len(data["roads"]) == len(B.roads)


@pytest.mark.parametrize("radius", sorted(set(B.rules.radius)))
def test_a_footprint_as_a_shifted_disc_is_the_board_hexes_within_the_radius(radius):
    from companion.games.stormfury.risk import _Bits

    bits = _Bits(B, radius)
    on = [(x, bits.bit(x)) for x in B.hexes]
    for h in B.hexes:
        assert bits.ring(h) == bits.mask(h.within(radius)), h  # mask() keeps the board's hexes only
        assert bits.hexes(bits.ring(h), on) == {x for x in h.within(radius) if x in B.hexes}, h
