"""Exact tornado risk against a plain simulation of the rules, and the forecast choices it ranks."""

from __future__ import annotations

import math
import random
import struct
from collections import Counter

import pytest

from benchmarks.bench_journal import long_kansas_maps, scripted_events
from companion.dice import Choice, DiceRolled
from companion.games.kansas import KansasGame, load
from companion.games.kansas.risk import PLAYED, Risk, combine, forecast_lines, forecast_options, phase_risk, state_risk
from companion.hexgrid import Hex


@pytest.fixture(scope="module")
def game() -> KansasGame:
    return load()


def walk(game: KansasGame, rng: random.Random, start: Hex | None = None, moves: int | None = None) -> list[Hex]:
    """The rules done by hand: two D8 for the start, then 2D6 per move, rolled again when off the map."""
    b = game.board
    x = start if start is not None else b.grid[rng.randint(1, 8), rng.randint(1, 8)]
    path = [x] if start is None else []
    left = b.moves_per_tornado if moves is None else moves
    while left:
        to = x.neighbour(b.path_key[rng.randint(1, 6) + rng.randint(1, 6)])
        if to in b.terrain:
            path.append(to)
            x, left = to, left - 1
    return path


def agree(exact: dict[Hex, float], counts: Counter[Hex], n: int, *, expectation: bool = False) -> None:
    for h in set(exact) | set(counts):
        p, seen = exact.get(h, 0.0), counts.get(h, 0) / n
        spread = math.sqrt(max(p, 1e-4) * (1 + (4 if expectation else 0)) / n)
        assert abs(p - seen) < 5 * spread + 2e-3, (h, p, seen)


def test_one_tornado_agrees_with_simulation(game):
    rng, n = random.Random(7), 20_000
    hit, markers = Counter(), Counter()
    for _ in range(n):
        path = walk(game, rng)
        hit.update(set(path))
        markers.update(path)
    risk = phase_risk(game.chain, 1)
    agree(risk.p_hit, hit, n)
    agree(risk.expected, markers, n, expectation=True)


def test_a_whole_phase_agrees_with_simulation(game):
    rng, n = random.Random(8), 6_000
    hit = Counter()
    for _ in range(n):
        hit.update({h for _ in range(3) for h in walk(game, rng)})
    risk = phase_risk(game.chain, 3)
    agree(risk.p_hit, hit, n)
    assert sum(risk.expected.values()) == pytest.approx(15)
    assert all(risk.p_hit[h] <= risk.expected[h] + 1e-12 for h in risk.p_hit)


def test_the_rest_of_a_tornado_in_flight_agrees_with_simulation(game):
    state = game.new_game({"players": 4, "turn": 7})
    for e in (DiceRolled.of(("d8", 7)), DiceRolled.of(("d8", 3)), DiceRolled.of(("d6", 3), ("d6", 4))):
        state = game.apply(state, e)
    here = state.tornadoes[0].position
    rng, n = random.Random(9), 20_000
    hit = Counter()
    for _ in range(n):
        hit.update(set(walk(game, rng, start=here, moves=3)))
    risk = state_risk(game, state)
    agree(risk.p_hit, hit, n)
    assert sum(risk.expected.values()) == pytest.approx(3)
    assert game.risk_map(state) == risk.p_hit


def test_re_roll_rule_is_in_the_exact_figures(game):
    # from a hex on the northern edge, N is impossible: its chance goes to the directions that stay on the map
    edge = game.board.grid[1, 1]
    assert edge.neighbour("N") not in game.board.terrain
    risk = game.chain.tornado({edge: 1.0}, moves=1, count_start=False)
    assert sum(risk.expected.values()) == pytest.approx(1)
    assert edge.neighbour("N") not in risk.p_hit


def test_forecast_choices_are_ranked_and_each_agrees_with_simulation(game):
    state = game.new_game({"players": 4, "turn": 1, "forecaster": 2})
    options = forecast_options(game, state)
    assert len(options) == 16 and {(o.line, o.value) for o in options} == {(a, v) for a in ("ns", "we")
                                                                          for v in range(1, 9)}
    assert [o.on_places for o in options] == sorted(o.on_places for o in options)
    assert options[0].on_places < options[-1].on_places
    worst = options[-1]
    rng, n = random.Random(10), 8_000
    hit = Counter()
    b = game.board
    for _ in range(n):
        ns = worst.value if worst.line == "ns" else rng.randint(1, 8)
        we = worst.value if worst.line == "we" else rng.randint(1, 8)
        paths = [[*walk(game, rng, start=b.grid[ns, we], moves=4), b.grid[ns, we]]]
        paths += [walk(game, rng) for _ in range(3)]
        hit.update({h for p in paths for h in p})
    agree(worst.risk.p_hit, hit, n)


def test_after_the_other_line_is_rolled_the_eight_places_are_ranked(game):
    state = game.new_game({"players": 4, "turn": 7, "forecaster": 1})
    state = game.apply(state, Choice("forecast", {"tornado": 1, "line": "we"}))
    state = game.apply(state, DiceRolled.of(("d8", 7)))
    options = forecast_options(game, state)
    assert len(options) == 8 and {o.line for o in options} == {"we"}
    dodge = game.board.grid[7, 3]
    by_value = {o.value: o for o in options}
    assert by_value[3].risk.p_hit[dodge] == pytest.approx(1.0)


def test_between_phases_the_map_shows_the_next_turn(game):
    state = game.new_game({"players": 6, "turn": 5})
    for e in (DiceRolled.of(("d8", 7)), DiceRolled.of(("d8", 3)), *[DiceRolled.of(("d6", 3), ("d6", 4))] * 4):
        state = game.apply(state, e)
    assert state.phase == "actions"
    assert game.risk_map(state) == {}  # turn 6 of 6 players is the last: no tornadoes to come
    earlier = game.new_game({"players": 6, "turn": 4})
    for e in (DiceRolled.of(("d8", 7)), DiceRolled.of(("d8", 3)), *[DiceRolled.of(("d6", 3), ("d6", 4))] * 4):
        earlier = game.apply(earlier, e)
    assert earlier.phase == "actions"
    assert sum(state_risk(game, earlier).expected.values()) == pytest.approx(5)  # turn 5: one tornado


def test_each_line_with_its_place_picked_after_the_roll_agrees_with_simulation(game):
    # the rules' order: the line is fixed first, the other line rolled, then the place is picked
    state = game.new_game({"players": 4, "turn": 2, "forecaster": 1})
    lines = forecast_lines(game, state)
    assert [o.line for o in lines] in (["ns", "we"], ["we", "ns"]) and lines[0].on_places <= lines[1].on_places
    b, places = game.board, [p.hex for p in game.board.places]
    fixed = {(o.line, o.value): o.on_places for o in forecast_options(game, state)}
    for o in lines:
        # picking after the roll never does worse than committing to one place beforehand
        assert o.on_places <= min(v for (line, _), v in fixed.items() if line == o.line) + 1e-9
        assert sum(o.risk.expected.values()) == pytest.approx(3 * 5)
        for roll, value in o.best_place.items():
            starts = {v: b.grid[(v, roll) if o.line == "ns" else (roll, v)] for v in range(1, 9)}
            spared = {v: game.chain.tornado({h: 1.0}).expected_on(places) for v, h in starts.items()}
            assert spared[value] == pytest.approx(min(spared.values()))
    chosen = lines[-1]
    rng, n = random.Random(12), 8_000
    hit = Counter()
    for _ in range(n):
        roll = rng.randint(1, 8)
        value = chosen.best_place[roll]
        start = b.grid[(value, roll) if chosen.line == "ns" else (roll, value)]
        paths = [[start, *walk(game, rng, start=start, moves=4)]] + [walk(game, rng) for _ in range(2)]
        hit.update({h for p in paths for h in p})
    agree(chosen.risk.p_hit, hit, n)
    rolled = game.apply(game.apply(state, Choice("forecast", {"tornado": 1, "line": "we"})), DiceRolled.of(("d8", 7)))
    assert forecast_lines(game, rolled) == []  # once the line is chosen, the eight places are what is left


def enumerate_walks(game: KansasGame, starts: dict[Hex, float], moves: int,
                    count_start: bool) -> tuple[dict[Hex, float], dict[Hex, float]]:
    """Every walk the rules allow, each with its chance, added up by hand: a move is a 2D6 sum, and the
    sums that would leave the map are rolled again, so the others' chances are scaled to sum to one."""
    b = game.board
    sums = {s: (6 - abs(s - 7)) / 36 for s in range(2, 13)}
    hit: Counter[Hex] = Counter()
    markers: Counter[Hex] = Counter()

    def go(here: Hex, path: list[Hex], chance: float, left: int) -> None:
        if not left:
            for h in set(path):
                hit[h] += chance
            for h in path:
                markers[h] += chance
            return
        lands: Counter[Hex] = Counter()  # sums that land on the same hex are one branch
        for s, p in sums.items():
            if (to := here.neighbour(b.path_key[s])) in b.terrain:
                lands[to] += p
        for to, p in lands.items():
            go(to, [*path, to], chance * p / sum(lands.values()), left - 1)

    for start, p in starts.items():
        go(start, [start] if count_start else [], p, moves)
    return dict(hit), dict(markers)


def same(exact: dict[Hex, float], by_hand: dict[Hex, float]) -> None:
    assert {h for h, p in exact.items() if p} == {h for h, p in by_hand.items() if p}
    for h, p in by_hand.items():
        assert exact[h] == pytest.approx(p, rel=1e-12, abs=1e-15), h


def test_one_tornado_equals_every_walk_enumerated(game):
    cells = list(game.board.grid.values())
    hit, markers = enumerate_walks(game, {h: 1 / len(cells) for h in cells}, game.board.moves_per_tornado, True)
    risk = game.chain.from_grid()
    same(risk.p_hit, hit)
    same(risk.expected, markers)


def test_a_forecast_line_and_a_tornado_in_flight_equal_every_walk_enumerated(game):
    b = game.board
    line = {h: 1 / 8 for (ns, _), h in b.grid.items() if ns == 3}
    hit, markers = enumerate_walks(game, line, b.moves_per_tornado, True)
    same(game.chain.from_grid(3, None).p_hit, hit)
    same(game.chain.from_grid(3, None).expected, markers)
    # in flight: the start's marker is down already, and the walk may come back over it
    here = b.grid[4, 5]
    hit, markers = enumerate_walks(game, {here: 1.0}, 3, False)
    risk = game.chain.tornado({here: 1.0}, moves=3, count_start=False)
    same(risk.p_hit, hit)
    same(risk.expected, markers)
    assert 0 < risk.p_hit[here] < 1  # it can come back: the last-visit sum must count that once


def risk_as_before(game: KansasGame, state) -> Risk:
    """``state_risk`` as it was written before the situations' risks were kept: every figure combined
    afresh from the whole-tornado risks and the walk of the tornado in flight."""
    chain = game.chain
    if state.phase == "over":
        return Risk({}, {})
    if state.phase in ("actions", "forecast"):
        if state.phase == "actions" and state.turn >= game.board.turns(state.players):
            return Risk({}, {})
        count = state.count if state.phase == "forecast" else game.outbreak(state.players, state.turn + 1)
        return combine([chain.from_grid()] * count)
    t = state.current
    later = state.count - t.number
    if t.start is None:
        now = chain.from_grid(t.ns, t.we)
    else:
        now = chain.tornado({t.position: 1.0}, game.board.moves_per_tornado - t.moves_made, count_start=False)
    return combine([now] + [chain.from_grid()] * later)


def bits(values: dict[Hex, float]) -> dict[Hex, bytes]:
    return {h: struct.pack("<d", p) for h, p in values.items()}


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (5, 2), (6, 3), (4, 4)])
def test_every_state_of_whole_games_has_the_risk_worked_out_as_before_to_the_bit(tmp_path, players, seed):
    game = load(long_kansas_maps(tmp_path, copies=2)) if seed == 4 else load()  # 16 turns: more to keep
    state = game.new_game({"players": players})
    states = [state]
    for event in scripted_events(game, {"players": players}, 100_000, seed):
        state = game.apply(state, event)
        states.append(state)
    assert state.phase == "over"
    kinds = Counter()
    rng = random.Random(seed)
    order = states + rng.sample(states, len(states))  # each state asked again, after others, in another order
    for state in order:
        fast, before = state_risk(game, state), risk_as_before(game, state)
        assert bits(fast.p_hit) == bits(before.p_hit) and bits(fast.expected) == bits(before.expected)
        assert game.risk_map(state) == before.p_hit
        t = state.current
        kinds[state.phase, t is not None and t.start is not None, t is not None and (t.ns, t.we) != (None, None)] += 1
    # the walks in flight, a line known, none known, the phases between: every path of state_risk compared
    assert {("tornado", True, True), ("tornado", False, True), ("tornado", False, False), ("actions", False, False),
            ("forecast", False, False), ("over", False, False)} <= set(kinds)
    assert len(game.chain.played) <= PLAYED


def test_the_situations_kept_stay_bounded(game, monkeypatch):
    from companion.games.kansas import risk

    monkeypatch.setattr(risk, "PLAYED", 5)
    game.chain.played.clear()
    state = game.new_game({"players": 4})
    sizes = []
    for event in scripted_events(game, {"players": 4}, 120, 7):
        state = game.apply(state, event)
        assert state_risk(game, state) == risk_as_before(game, state)
        sizes.append(len(game.chain.played))
    assert max(sizes) == 5 and min(sizes[20:]) < 5  # full, then started again
    game.chain.played.clear()


def test_every_start_looked_up_in_the_tables_is_its_walk_to_the_bit():
    game = load()
    chain = game.chain
    walked = {(h, k): chain.rest(h, k) for h in chain.hexes for k in range(chain.moves + 1)}  # no tables yet
    assert chain._rests is None
    game.risk_map(game.new_game({"players": 4}))  # the overlay's first question makes them
    assert chain._rests is not None
    for (h, k), before in walked.items():
        looked_up = chain.rest(h, k)
        assert looked_up.vectors is not None and before.vectors is not None
        for a, b in zip(astuple_of(looked_up.vectors), astuple_of(before.vectors), strict=True):
            assert a.tobytes() == b.tobytes(), (h, k)
        assert looked_up == chain.tornado({h: 1.0}, k, count_start=False)
    kept = chain.rest(chain.hexes[0], 2).vectors
    assert kept is not None
    with pytest.raises(ValueError):  # the tables' rows are handed out read-only: no risk can change them
        kept.p[0] = 0.5


def astuple_of(v) -> tuple:
    return (v.p, v.p_keys, v.e, v.e_keys)
