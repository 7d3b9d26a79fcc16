"""Project Stormfury rules: forecast, player defences, the hurricane's move, damage and the end."""

from __future__ import annotations

import inspect
from dataclasses import fields, replace
from pathlib import Path

import pytest

from companion.dice import Choice, DiceRolled, DiceSource, Shuffled
from companion.errors import RuleError
from companion.games import load_game
from companion.games.base import replay
from companion.games.stormfury import StormState, load
from companion.games.stormfury.state import Damage, Player, TurnLog
from companion.hexgrid import Hex

GAME = load()
B = GAME.board
NEAR_HOUSTON = Hex(5, 5)  # gulf hex next to Houston's population centre
IDENT = Shuffled((0, 1, 2, 3, 4))


def at(centre: Hex, category: int, forecast: tuple[str, ...], **kw) -> StormState:
    """A hurricane phase about to flip ``forecast`` in order (identity shuffle)."""
    state = GAME.new_game({"players": [{"role": "aquatic_engineer", "city": "houston"},
                                       {"role": "architect", "city": "houston"},
                                       {"role": "evac_specialist", "city": "lake_charles"},
                                       {"role": "relief_corps", "city": "new_orleans"}]})
    deck = "ocean" if centre in B.ocean else "land"
    return replace(state, centre=centre, category=category, forecast=forecast, phase="hurricane", deck=deck, **kw)


def players_phase(**kw) -> StormState:
    return replace(at(NEAR_HOUSTON, 2, ("O1", "O2", "O3", "O4", "O5")), phase="players", **kw)


def test_state_fields_are_documented_and_frozen():
    for cls in (StormState, Player, Damage, TurnLog):
        src = Path(inspect.getsourcefile(cls)).read_text()
        for f in fields(cls):
            assert f'    {f.name}:' in src
            after = src.split(f"    {f.name}:", 1)[1].splitlines()[1].strip()
            assert after.startswith('"""'), f"{cls.__name__}.{f.name} has no docstring"
    with pytest.raises(AttributeError):
        GAME.new_game({}).category = 3  # type: ignore[misc]


def test_start_is_category_2_at_the_start_hex_with_the_ocean_deck():
    game = load_game("stormfury")
    s = game.new_game({})
    assert (s.category, s.centre, s.deck, s.phase) == (2, B.start, "ocean", "forecast")
    assert B.start in B.ocean
    assert all(n == 2 for _, n in s.population)
    p = game.prompt(s)
    assert p.text == "Shuffle the ocean deck and deal 5 forecast cards"
    assert p.shuffle == len(B.decks["ocean"]) == 15
    assert len(B.decks["land"]) == 12


def test_forecast_deals_the_first_five_of_the_shuffled_deck():
    s = GAME.new_game({})
    order = tuple(reversed(range(15)))
    s2 = GAME.apply(s, Shuffled(order))
    assert s2.forecast == tuple(B.decks["ocean"][i].id for i in order[:5])
    assert s2.phase == "players"
    assert set(GAME.prompt(s2).actions) == {"move", "fortify", "dam", "evacuate", "end_turn", "end_player_phase"}


def test_wrong_event_or_shuffle_size_is_refused_and_state_kept():
    s = GAME.new_game({})
    with pytest.raises(RuleError, match="shuffle of 15"):
        GAME.apply(s, IDENT)
    with pytest.raises(RuleError):
        GAME.apply(s, DiceRolled.of(("d6", 3)))
    with pytest.raises(RuleError):
        GAME.apply(s, Choice("end_player_phase"))
    assert s == GAME.new_game({})


@pytest.mark.parametrize(("category", "drawn"), [(1, 2), (2, 3), (3, 3), (4, 4), (5, 5)])
def test_cards_drawn_by_category(category, drawn):
    s = at(Hex(11, 7), category, ("O1", "O9", "O4", "O11", "O13"))
    assert GAME.prompt(s).text == f"Hurricane phase: draw {drawn} of the 5 forecast cards"
    s2 = GAME.apply(s, Shuffled((4, 3, 2, 1, 0)))
    assert s2.log[-1].drawn == ("O13", "O11", "O4", "O9", "O1")[:drawn]


@pytest.mark.parametrize(("category", "radius"), [(1, 1), (2, 2), (3, 2), (4, 2), (5, 3)])
def test_size_by_category(category, radius):
    from companion.games.stormfury import storm

    assert storm.footprint(B, Hex(11, 7), [Hex(11, 6)], category) == {
        h for h in Hex(11, 6).within(radius) if h in B.hexes}


def test_centre_follows_the_cards_in_order_step_by_step():
    s = GAME.apply(at(Hex(11, 7), 2, ("O3", "O13", "O1", "O2", "O4")), IDENT)
    # O3 = NE, N ; O13 = SW, NW ; O1 = N
    assert s.log[-1].path == (Hex(12, 6), Hex(12, 5), Hex(11, 6), Hex(10, 6), Hex(10, 5))
    assert s.centre == Hex(10, 5)
    assert s.deck == ("ocean" if Hex(10, 5) in B.ocean else "land")


def test_category_changes_once_however_many_marks():
    s = GAME.apply(at(Hex(11, 7), 2, ("O5", "O6", "O7", "O1", "O2")), IDENT)
    assert (s.log[-1].category_before, s.category) == (2, 3)


def test_category_never_above_5():
    s = GAME.apply(at(Hex(11, 7), 5, ("O5", "O6", "O7", "O8", "O1")), IDENT)
    assert s.category == 5


def test_both_marks_follow_the_rules_table_net():
    assert B.rules.both_marks == "net"
    s = GAME.apply(at(Hex(11, 7), 3, ("O5", "O14", "O1", "O2", "O3")), IDENT)
    assert s.category == 3  # one of each: no change
    s = GAME.apply(at(Hex(11, 7), 4, ("O5", "O14", "O6", "O2", "O3")), IDENT)
    assert s.category == 5  # two strengthen, one weaken


def test_both_marks_other_settings():
    from companion.games.stormfury import storm

    cards = [B.card("O5"), B.card("O14")]
    for rule, want in (("cancel", 3), ("strengthen", 4), ("weaken", 2)):
        board = replace(B, rules=replace(B.rules, both_marks=rule))
        assert storm.new_category(board, 3, cards) == want


def test_land_cards_weaken_and_land_deck_is_used_over_land():
    land_hex = Hex(11, -2)
    assert land_hex in B.land
    s = GAME.apply(at(land_hex, 3, ("L1", "L2", "L9", "L10", "L3")), IDENT)
    assert s.category == 2
    assert s.deck == "land" and s.phase == "forecast"
    assert GAME.prompt(s).text == "Shuffle the land deck and deal 5 forecast cards"


def test_land_card_can_turn_back_to_sea_and_the_ocean_deck_returns():
    s = GAME.apply(at(Hex(10, 1), 2, ("L11", "L12", "L9", "L10", "L1")), IDENT)
    assert s.centre in B.ocean and s.deck == "ocean"
    assert s.log[-1].at_sea_after is True


def test_category_1_weakening_at_sea_ends_the_game():
    s = GAME.apply(at(Hex(11, 7), 1, ("O14", "O1", "O2", "O3", "O4")), IDENT)
    assert s.centre in B.ocean
    assert (s.phase, s.category, s.ended_by) == ("over", 0, "dissipated")
    assert GAME.prompt(s).done
    with pytest.raises(RuleError, match="over"):
        GAME.apply(s, IDENT)


def test_category_2_weakening_does_not_end():
    s = GAME.apply(at(Hex(11, -2), 2, ("L1", "L2", "L3", "L4", "L5")), IDENT)
    assert s.phase == "forecast" and s.category == 1 and s.turn == 2


def test_off_board_step_stops_at_the_edge():
    edge = Hex(23, -11)  # top-right corner column: N leaves the board
    assert edge in B.hexes and edge.neighbour("N") not in B.hexes
    s = GAME.apply(at(edge, 1, ("L4", "L1", "L2", "L3", "L5")), IDENT)
    assert s.centre in B.hexes
    assert all(h in B.hexes for h in s.log[-1].path)


def test_damage_undefended_city_and_road():
    houston = B.city("houston")
    # (a category 1 storm drawing O14, a weaken, now dissipates before any damage: see
    # test_stormfury_rules_as_written; O5 moves the same way and its strengthen is dropped over land)
    s = GAME.apply(at(NEAR_HOUSTON, 1, ("O5", "O1", "O2", "O3", "O4")), IDENT)
    assert s.category == 1
    # O5 then O1: N onto Houston's population centre (5,4), then N again to (5,3)
    assert s.log[-1].path == (Hex(5, 4), Hex(5, 3))
    kinds = {(d.target, d.kind, d.amount) for d in s.log[-1].damage}
    assert ("houston.population", "population", 2) in kinds
    for space in houston.infrastructure:
        covered = min(space.hex.distance(h) for h in s.log[-1].path) <= 1
        assert (space.id in s.destroyed) == covered


def test_fortification_absorbs_one_and_is_removed():
    s = at(NEAR_HOUSTON, 2, ("O1", "O2", "O3", "O4", "O9"), fortifications=(("houston.population", 2),
                                                                            ("houston.port", 1)))
    s2 = GAME.apply(s, IDENT)
    assert s2.fortified("houston.population") == 1
    assert s2.fortified("houston.port") == 0
    assert not [d for d in s2.log[-1].damage if d.target in ("houston.population", "houston.port")]
    assert "houston.port" not in s2.destroyed
    assert set(s2.log[-1].absorbed) >= {"houston.population", "houston.port"}


def test_population_damage_counts_unevacuated_only_and_once_per_turn():
    s = at(NEAR_HOUSTON, 2, ("O1", "O2", "O3", "O4", "O9"), population=tuple(
        (c.id, 1 if c.id == "houston" else 2) for c in B.cities))
    s2 = GAME.apply(s, IDENT)
    pops = [d for d in s2.log[-1].damage if d.target == "houston.population"]
    assert [d.amount for d in pops] == [1]  # path crosses it several times: counted once
    empty = replace(s, population=tuple((c.id, 0) for c in B.cities))
    assert not [d for d in GAME.apply(empty, IDENT).log[-1].damage if d.kind == "population"]


def test_destroyed_infrastructure_takes_no_more_damage():
    s = at(NEAR_HOUSTON, 2, ("O1", "O2", "O3", "O4", "O9"), destroyed=frozenset({"houston.port"}))
    s2 = GAME.apply(s, IDENT)
    assert not [d for d in s2.log[-1].damage if d.target == "houston.port"]


def test_roads_flood_unless_dammed_at_both_ends():
    road = next(r for r in B.roads if r.id == "corpus_christi-houston")
    centre = road.middle
    base = at(Hex(3, 8), 1, ("O1", "O2", "O3", "O4", "O9"))
    path_hexes = GAME.apply(base, IDENT).log[-1].path
    assert any(h.distance(centre) <= 1 for h in path_hexes)
    flooded = GAME.apply(base, IDENT)
    assert road.id in flooded.flooded
    one_end = GAME.apply(replace(base, dams=frozenset({(road.id, "houston")})), IDENT)
    assert road.id in one_end.flooded
    both = GAME.apply(replace(base, dams=frozenset({(road.id, "houston"), (road.id, "corpus_christi")})), IDENT)
    assert road.id not in both.flooded
    assert (road.id, "houston") in both.dams  # dams stay permanently


def test_move_along_unflooded_roads_up_to_two_cities():
    s = players_phase(current=1)  # the architect's turn
    s = GAME.apply(s, Choice("move", {"player": "architect", "to": "lake_charles"}))
    s = GAME.apply(s, Choice("move", {"player": "architect", "to": "new_orleans"}))
    assert s.players[1].city == "new_orleans"
    with pytest.raises(RuleError, match="already travelled"):
        GAME.apply(s, Choice("move", {"player": "architect", "to": "biloxi"}))
    with pytest.raises(RuleError, match="no road"):
        GAME.apply(replace(s, current=0), Choice("move", {"player": "aquatic_engineer", "to": "tampa"}))
    flooded = replace(players_phase(current=1), flooded=frozenset({"houston-lake_charles"}))
    with pytest.raises(RuleError, match="flooded"):
        GAME.apply(flooded, Choice("move", {"player": "architect", "to": "lake_charles"}))


def test_moves_reset_each_forecast():
    s = players_phase(players=(Player("architect", "houston", 2),))
    s = replace(s, phase="forecast")
    s2 = GAME.apply(s, Shuffled(tuple(range(15))))
    assert s2.players[0].moves == 0


def test_fortify_only_in_your_city():
    s = players_phase(current=1)
    s2 = GAME.apply(s, Choice("fortify", {"player": "architect", "space": "houston.port", "count": 2}))
    assert s2.fortified("houston.port") == 2
    with pytest.raises(RuleError, match="Architect is in Houston, not Tampa"):
        GAME.apply(s, Choice("fortify", {"player": "architect", "space": "tampa.port"}))
    with pytest.raises(RuleError, match="unknown space"):
        GAME.apply(s, Choice("fortify", {"player": "architect", "space": "houston.zoo"}))
    with pytest.raises(RuleError, match="count"):
        GAME.apply(s, Choice("fortify", {"player": "architect", "space": "houston.port", "count": 0}))
    with pytest.raises(RuleError, match="no player"):
        GAME.apply(s, Choice("fortify", {"player": "mayor", "space": "houston.port"}))


def test_dam_rules_and_aquatic_engineer_power():
    s = players_phase(current=1)
    road = "houston-lake_charles"
    s2 = GAME.apply(s, Choice("dam", {"player": "architect", "road": road}))
    assert (road, "houston") in s2.dams
    with pytest.raises(RuleError, match="cannot dam"):
        GAME.apply(s, Choice("dam", {"player": "architect", "road": road, "city": "lake_charles"}))
    s3 = GAME.apply(replace(s2, current=0),
                    Choice("dam", {"player": "aquatic_engineer", "road": road, "city": "lake_charles"}))
    assert s3.dammed(road, ("houston", "lake_charles"))
    s3 = replace(s3, current=1)
    with pytest.raises(RuleError, match="already dammed"):
        GAME.apply(s3, Choice("dam", {"player": "architect", "road": road}))
    with pytest.raises(RuleError, match="already flooded"):
        GAME.apply(replace(s, flooded=frozenset({road})), Choice("dam", {"player": "architect", "road": road}))
    with pytest.raises(RuleError, match="does not end"):
        GAME.apply(s, Choice("dam", {"player": "architect", "road": "mobile-pensacola"}))


def test_evacuate_never_more_than_is_left():
    s = players_phase(current=1)
    s2 = GAME.apply(s, Choice("evacuate", {"player": "architect", "count": 2}))
    assert s2.people("houston") == 0 and s2.people("tampa") == 2
    with pytest.raises(RuleError, match="cannot evacuate 1"):
        GAME.apply(replace(s2, current=0), Choice("evacuate", {"player": "aquatic_engineer"}))
    with pytest.raises(RuleError, match="cannot evacuate 3"):
        GAME.apply(s, Choice("evacuate", {"player": "architect", "count": 3}))


def test_the_evac_specialist_evacuates_at_any_time_the_others_in_the_player_phase():
    # her power: "At any time she can discard two cards to evacuate 1 Population"
    hurricane = at(NEAR_HOUSTON, 2, ("O1", "O2", "O3", "O4", "O9"))
    assert hurricane.players[2] == Player("evac_specialist", "lake_charles")
    s = GAME.apply(hurricane, Choice("evacuate", {"player": "evac_specialist"}))
    assert s.people("lake_charles") == 1 and s.phase == "hurricane" and s.forecast == hurricane.forecast
    forecast = replace(hurricane, phase="forecast", forecast=())
    assert GAME.apply(forecast, Choice("evacuate", {"player": "evac_specialist", "count": 2})).people(
        "lake_charles") == 0
    with pytest.raises(RuleError,
                       match="only the Evac Specialist evacuates outside the player phase, not the Architect"):
        GAME.apply(hurricane, Choice("evacuate", {"player": "architect"}))
    with pytest.raises(RuleError, match="cannot evacuate 3"):
        GAME.apply(hurricane, Choice("evacuate", {"player": "evac_specialist", "count": 3}))
    with pytest.raises(RuleError, match="waiting for a shuffle of 5 cards"):
        GAME.apply(hurricane, Choice("fortify", {"player": "evac_specialist", "space": "lake_charles.port"}))
    with pytest.raises(RuleError, match="the game is over"):
        GAME.apply(replace(hurricane, phase="over"), Choice("evacuate", {"player": "evac_specialist"}))
    with pytest.raises(RuleError, match="no player 'nobody'"):
        GAME.apply(hurricane, Choice("evacuate", {"player": "nobody"}))


def test_end_player_phase_then_hurricane_prompt():
    s = GAME.apply(players_phase(), Choice("end_player_phase"))
    assert s.phase == "hurricane" and GAME.prompt(s).shuffle == 5
    with pytest.raises(RuleError, match="unknown action"):
        GAME.apply(players_phase(), Choice("pray"))


def test_new_game_options_validated():
    with pytest.raises(RuleError, match="unknown role"):
        GAME.new_game({"players": [{"role": "mayor", "city": "houston"}]})
    with pytest.raises(RuleError, match="unknown city"):
        GAME.new_game({"players": [{"role": "architect", "city": "atlantis"}]})
    with pytest.raises(RuleError, match=r"unknown city \['houston'\]"):  # a malformed journal, not a crash
        GAME.new_game({"players": [{"role": "architect", "city": ["houston"]}]})
    with pytest.raises(RuleError, match=r"players: expected a number 1\.\.4 or a list"):
        GAME.new_game({"players": "architect"})
    # a player count (the menu, companion run --players N) seats the first roles, who then place their tokens
    two = GAME.new_game({"players": 2})
    assert two.players == (Player("aquatic_engineer", "brownsville"), Player("architect", "brownsville"))
    assert two.phase == "setup" and GAME.new_game({}).phase == "forecast"
    for bad in (0, 5, True):
        with pytest.raises(RuleError, match="players: "):
            GAME.new_game({"players": bad})
    with pytest.raises(RuleError, match="chosen twice"):
        GAME.new_game({"players": [{"role": "architect"}, {"role": "architect"}]})


def _seeded(seed: int):
    src = DiceSource(seed)
    s = GAME.new_game({})
    events = []
    while not GAME.prompt(s).done:
        p = GAME.prompt(s)
        e = src.shuffle(p.shuffle) if p.shuffle else Choice("end_player_phase")
        events.append(e)
        s = GAME.apply(s, e)
    return s, events


def test_every_seeded_game_ends_by_dissipating_within_the_bound():
    for seed in range(300):
        s, _ = _seeded(seed)
        assert s.ended_by == "dissipated", seed
        assert len(s.log) <= B.rules.max_turns


def test_max_turns_bound_ends_the_game():
    s = at(Hex(11, 7), 3, ("O1", "O2", "O3", "O4", "O9"), turn=B.rules.max_turns)
    s2 = GAME.apply(s, IDENT)
    assert s2.phase == "over" and s2.ended_by == "max_turns"


def test_replay_of_the_journal_equals_the_run_and_summary():
    s, events = _seeded(11)
    assert replay(GAME, {}, events) == s
    summary = GAME.summary(s)
    assert summary["total"] == sum(d.amount for d in s.damage)
    assert sum(summary["by_kind"].values()) == summary["total"]
    assert summary["by_kind"]["road"] == len(s.flooded)
    per_city = sum(v["infrastructure"] + v["population"] for v in summary["by_city"].values())
    assert per_city == summary["by_kind"]["infrastructure"] + summary["by_kind"]["population"]
    assert GAME.status(s).endswith("game over - cat 0") or "game over" in GAME.status(s)
    assert GAME.recap(s)


def test_choices_list_what_the_rules_allow_each_with_its_hex():
    game = load()
    state = players_phase()  # the aquatic engineer's turn, in Houston
    options = [(o.label, o.event, o.place) for o in game.choices(state)]
    # what ends the turn or the phase comes last, never first: a single press ends nothing
    assert options[-1][:2] == ("End player phase", Choice("end_player_phase", {}))
    assert options[-2][1] == Choice("end_turn", {}) and options[0][1].action == "move"
    kinds = {event.action for _, event, _ in options}
    assert kinds == {"end_player_phase", "end_turn", "move", "fortify", "dam", "evacuate"}
    # only the player whose turn it is is offered anything
    assert {event.args["player"] for _, event, _ in options if "player" in event.args} == {"aquatic_engineer"}
    # every space of her city, the population centre included: a fortification absorbs a hit there too
    houston = game.board.city("houston")
    fortified = {event.args["space"] for _, event, _ in options if event.action == "fortify"}
    assert fortified == {space.id for space in houston.spaces} and "houston.population" in fortified
    # the aquatic engineer's power is on the buttons too: a dam at a road's end in a city next to hers
    dams = {(event.args["road"], event.args["city"]) for _, event, _ in options if event.action == "dam"}
    assert ("houston-lake_charles", "lake_charles") in dams and ("lake_charles-new_orleans", "lake_charles") in dams
    assert ("corpus_christi-houston", "corpus_christi") in dams
    assert ("lake_charles-new_orleans", "new_orleans") not in dams  # two cities away
    architect = replace(state, current=1)
    assert not any(o.event.args["city"] != "houston" for o in game.choices(architect) if o.event.action == "dam")
    for label, event, where in options[:-1]:
        assert where in game.board.hexes, label
        game.apply(state, event)  # every offered choice is accepted
    # another player's action is refused in her turn; the evac specialist evacuates at any time
    with pytest.raises(RuleError, match="it is Aquatic Engineer's turn, not Relief Corps's"):
        game.apply(state, Choice("move", {"player": "relief_corps", "to": "biloxi"}))
    assert game.apply(state, Choice("evacuate", {"player": "evac_specialist"})).people("lake_charles") == 1
    flooded = replace(state, flooded=frozenset(r.id for r in game.board.roads))
    assert not any(event.action in ("move", "dam") for event in (o.event for o in game.choices(flooded)))
    assert game.choices(replace(state, phase="hurricane")) == []


def test_a_storm_that_cannot_move_still_damages_what_it_stands_over():
    from companion.games.stormfury import StormfuryGame
    from companion.games.stormfury.data import City, Space
    from companion.games.stormfury.risk import forecast_risk

    corner = Hex(23, -11)  # north-east corner: N and NE leave the board, so these land cards cannot move it
    stuck = ("L1", "L2", "L4", "L5", "L9")
    assert all(corner.neighbour(B.card(c).steps[0]) not in B.hexes for c in stuck)
    hamlet = City("hamlet", "Hamlet", corner.neighbour("S"),
                  (Space("hamlet.mill", "hamlet", "Mill", corner.neighbour("NW"), "infrastructure"),))
    game = StormfuryGame(replace(B, cities=(hamlet,), roads=()))
    # category 2 (radius 2): a category 1 storm drawing these weakens and ends the game before any damage
    state = replace(game.new_game({"players": [{"role": "architect", "city": "hamlet"}]}), centre=corner,
                    category=2, deck="land", forecast=stuck, phase="hurricane")
    after = game.apply(state, IDENT)
    assert after.log[-1].path == () and after.centre == corner
    assert {(d.target, d.amount) for d in after.log[-1].damage} == {("hamlet.mill", 1), ("hamlet.population", 2)}
    risk = forecast_risk(game.board, state, stuck)
    assert risk.cities["hamlet"] == (1.0, 3.0)
    assert risk.hexes[corner] == 1.0


def test_the_forecast_cards_go_back_to_their_deck_after_the_hurricane_phase():
    s = GAME.apply(at(Hex(11, 7), 2, ("O1", "O2", "O3", "O4", "O9")), IDENT)
    assert s.phase == "forecast" and s.forecast == () and s.deck == "ocean"
    assert GAME.prompt(s).shuffle == len(B.decks["ocean"]) == 15  # the whole deck again, the 5 included
    order = (0, 1, 2, 3, 8, *range(4, 8), *range(9, 15))
    assert GAME.apply(s, Shuffled(order)).forecast == ("O1", "O2", "O3", "O4", "O9")  # they can be dealt again


def test_setup_each_player_places_her_token_in_any_city_in_table_order():
    """The rules' setup: each player places her token in any city she wants; several may share one."""
    state = GAME.new_game({"players": 3})
    assert GAME.setup_questions() == [("players", "players", (1, 2, 3, 4))]
    assert state.phase == "setup" and GAME.prompt(state).short == "Aquatic: start city"
    offered = [(o.label, o.event, o.place) for o in GAME.choices(state)]
    assert [label for label, _, _ in offered] == [c.name for c in GAME.board.cities]
    assert all(hexes == c.population_centre for (_, _, hexes), c in zip(offered, GAME.board.cities, strict=True))
    with pytest.raises(RuleError, match="places her token first"):
        GAME.apply(state, Shuffled(tuple(range(len(GAME.board.decks["ocean"])))))
    with pytest.raises(RuleError, match="unknown city 'atlantis'"):
        GAME.apply(state, Choice("place", {"city": "atlantis"}))
    with pytest.raises(RuleError, match="Aquatic Engineer's turn"):
        GAME.apply(state, Choice("place", {"player": "architect", "city": "houston"}))
    last = GAME.board.cities[-1].id
    for city in ("houston", last):
        state = GAME.apply(state, Choice("place", {"city": city}))
        assert state.phase == "setup"
    assert GAME.prompt(state).short == "Evac: start city"
    state = GAME.apply(state, Choice("place", {"player": "evac_specialist", "city": "houston"}))
    assert state.phase == "forecast" and GAME.prompt(state).shuffle
    assert [(p.role, p.city) for p in state.players] == [("aquatic_engineer", "houston"), ("architect", last),
                                                         ("evac_specialist", "houston")]
