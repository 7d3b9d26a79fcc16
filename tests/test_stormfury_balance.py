"""The shipped board is worth defending: over 1,000 seeded undefended games every city is at stake.

The figures are in maps/README.md; this test keeps them true when the board or the decks change.
"""

from __future__ import annotations

from collections import Counter

from companion.dice import Choice, DiceSource
from companion.games.stormfury import load

GAMES = 1000


def undefended_games(n: int):
    """``n`` seeded games (seeds 0..n-1) with no defences, as ``companion hurricane --seed S`` plays them."""
    game = load()
    for seed in range(n):
        src = DiceSource(seed)
        s = game.new_game({})
        while not game.prompt(s).done:
            p = game.prompt(s)
            s = game.apply(s, src.shuffle(p.shuffle) if p.shuffle else Choice("end_player_phase"))
        yield game.board, s


def test_every_city_is_damaged_in_5_to_60_percent_and_the_storm_makes_landfall_in_90():
    damaged: Counter[str] = Counter()
    landfall = 0
    board = None
    for board, s in undefended_games(GAMES):
        damaged.update({d.city for d in s.damage if d.kind != "road"})  # its own spaces: infrastructure, people
        landfall += any(h in board.land for t in s.log for h in t.path)
        assert s.ended_by == "dissipated"
    assert board is not None
    shares = {c.name: damaged[c.id] / GAMES for c in board.cities}
    assert all(0.05 <= p <= 0.60 for p in shares.values()), shares
    assert landfall / GAMES >= 0.90, landfall


def test_the_road_network_has_inland_routes_past_the_coast():
    """At least two roads that skip a coastal city and keep off the shore: a flood-proof escape route."""
    b = load().board
    order = [c.id for c in b.cities]
    inland = [r for r in b.roads
              if abs(order.index(r.ends[0]) - order.index(r.ends[1])) > 1
              and not any(n in b.ocean for h in r.hexes for n in h.neighbours())]
    assert len(inland) >= 2, [r.name for r in inland]
    for r in b.roads:
        assert r.name == f"{b.city(r.ends[0]).name} - {b.city(r.ends[1]).name}"
