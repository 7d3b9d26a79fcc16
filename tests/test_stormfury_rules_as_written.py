"""Project Stormfury rule sentences the box once got wrong, each read as written (maps/README.md says how)."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from companion.cli import main
from companion.dice import Choice, DiceSource, Shuffled
from companion.games.stormfury import StormfuryGame, load, storm
from companion.games.stormfury.risk import forecast_risk
from companion.games.stormfury.state import ROLES, StormState
from companion.hexgrid import Hex

GAME = load()
B = GAME.board
IDENT = Shuffled((0, 1, 2, 3, 4))
NEAR_HOUSTON = Hex(5, 5)  # gulf hex next to Houston's population centre (5,4)


def at(centre: Hex, category: int, forecast: tuple[str, ...], **kw) -> StormState:
    """A hurricane phase about to flip ``forecast`` in order (identity shuffle)."""
    state = GAME.new_game({})
    deck = "ocean" if centre in B.ocean else "land"
    return replace(state, centre=centre, category=category, forecast=forecast, phase="hurricane", deck=deck, **kw)


def seeded(seed: int, game: StormfuryGame = GAME) -> StormState:
    src = DiceSource(seed)
    s = game.new_game({})
    while not game.prompt(s).done:
        p = game.prompt(s)
        s = game.apply(s, src.shuffle(p.shuffle) if p.shuffle else Choice("end_player_phase"))
    return s


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


# -- 1. "The hurricane can only strengthen at sea and will weaken over land." -------------------------

def test_an_ocean_strengthen_does_not_apply_once_the_storm_moved_onto_land():
    # O5 (N, strengthen) then O1 (N) then O2 (west): from the gulf onto Houston and inland
    s = GAME.apply(at(NEAR_HOUSTON, 2, ("O5", "O1", "O2", "O3", "O4")), IDENT)
    assert s.centre in B.land and s.deck == "land"
    assert (s.log[-1].category_before, s.category) == (2, 2)


def test_a_strengthen_still_applies_where_the_storm_ends_at_sea():
    s = GAME.apply(at(Hex(11, 9), 2, ("O5", "O6", "O7", "O1", "O2")), IDENT)
    assert s.centre in B.ocean and s.category == 3


def test_over_land_a_weaken_drawn_with_a_strengthen_applies():
    # "net" would cancel one of each at sea; over land the strengthen does not count, the weaken does
    s = GAME.apply(at(NEAR_HOUSTON, 3, ("O5", "O14", "O1", "O2", "O3")), IDENT)
    assert s.centre in B.land and s.category == 2
    assert storm.new_category(B, 3, [B.card("O5"), B.card("O14")], at_sea=True) == 3


def test_no_seeded_game_strengthens_a_storm_that_ends_its_move_over_land(capsys):
    code, out, _ = run(capsys, "hurricane", "--seed", "0", "--json")
    assert code == 0
    turns = json.loads(out)["turns"]
    assert turns[2]["deck"] == "ocean" and not turns[2]["at_sea_after"]
    assert turns[2]["category_after"] == turns[2]["category_before"]  # once "cat 4->5 land"
    for seed in range(60):
        for t in seeded(seed).log:
            assert t.at_sea_after or t.category_after <= t.category_before, (seed, t.turn)


# -- 2. "If the hurricane is touching any part of an unprotected road, that road is flooded." ----------

def test_a_road_is_the_chain_of_hexes_between_its_cities():
    for road in B.roads:
        a, b = (B.city(e) for e in road.ends)
        assert any(road.hexes[0].distance(sp.hex) == 1 for sp in a.spaces)
        assert any(road.hexes[-1].distance(sp.hex) == 1 for sp in b.spaces)
        assert all(x.distance(y) == 1 for x, y in zip(road.hexes, road.hexes[1:], strict=False))
        assert road.middle in road.hexes
    assert max(len(r.hexes) for r in B.roads) >= 3


@pytest.mark.parametrize("end", [0, -1])
def test_any_hex_of_a_road_under_the_storm_floods_it_and_the_token_goes_on_its_centre(end):
    state = GAME.new_game({})
    for road in B.roads:
        touched = road.hexes[end]
        if touched == road.middle:
            continue
        out = storm.resolve_damage(B, state, frozenset({touched}), 1)
        assert road.id in out.flooded
        assert [(d.kind, d.amount) for d in out.damage if d.target == road.id] == [("road", 1)]
        dammed = replace(state, dams=frozenset({(road.id, road.ends[0]), (road.id, road.ends[1])}))
        assert road.id not in storm.resolve_damage(B, dammed, frozenset({touched}), 1).flooded


def test_the_engine_floods_a_road_the_storm_touches_only_at_one_end():
    road = B.road("corpus_christi-houston")
    assert road.hexes[-1] != road.middle
    # a category 1 storm south of the road's Houston end: O1 (N) then O6 (NE) cover that end, not the centre
    centre = Hex(4, 7)
    s = GAME.apply(at(centre, 1, ("O1", "O6", "O3", "O4", "O9")), IDENT)
    covered = storm.footprint(B, centre, s.log[-1].path, 1)
    assert road.hexes[-1] in covered and road.middle not in covered
    assert road.id in s.flooded
    assert [d.target for d in s.log[-1].damage if d.kind == "road"] == [road.id]


# -- 3. "At that time, the game ends immediately." -----------------------------------------------------

def test_a_category_1_storm_that_weakens_ends_the_game_before_its_damage():
    # O14 (N, weaken) then O1 (N): onto Houston, which a category 1 storm used to damage that turn
    s = GAME.apply(at(NEAR_HOUSTON, 1, ("O14", "O1", "O2", "O3", "O4")), IDENT)
    assert (s.phase, s.category, s.ended_by) == ("over", 0, "dissipated")
    assert s.log[-1].path == (Hex(5, 4), Hex(5, 3)) and s.centre == Hex(5, 3)
    assert s.log[-1].damage == () and s.damage == () and not s.destroyed and not s.flooded
    assert GAME.summary(s)["total"] == 0


def test_the_last_turn_of_every_seeded_game_does_no_damage(capsys):
    code, out, _ = run(capsys, "hurricane", "--seed", "1")
    assert code == 0
    last = [line for line in out.splitlines() if line.startswith("turn")][-1]
    assert re.search(r"cat 1->0 .* damage 0$", last), last
    for seed in range(60):
        s = seeded(seed)
        assert s.log[-1].category_after == 0 and s.log[-1].damage == (), seed


def test_the_risk_counts_a_dissipating_draw_as_hitting_nothing():
    forecast = ("O14", "O1", "O2", "O3", "O4")
    s = replace(at(NEAR_HOUSTON, 1, forecast), phase="players")
    risk = forecast_risk(B, s, forecast)
    dissipating = sum(1 for a in range(5) for b in range(5) if a != b and
                      storm.new_category(B, 1, [B.card(forecast[a]), B.card(forecast[b])], True) == 0)
    assert dissipating == 8  # O14 first or second with any of the other four
    assert risk.cities["houston"][0] == pytest.approx(1 - dissipating / 20)


# -- 4. Population centres: damaged people lost (rule choice), a fortification on an empty centre kept ----

def test_damaged_people_are_lost_and_not_damaged_again_by_default():
    assert B.rules.damaged_population == "lost"
    s = GAME.apply(at(NEAR_HOUSTON, 2, ("O1", "O2", "O3", "O4", "O9")), IDENT)
    hit = [d for d in s.log[-1].damage if d.target == "houston.population"]
    assert [d.amount for d in hit] == [2] and s.people("houston") == 0
    assert "Houston: 2 people lost" in GAME.recap(s)
    again = GAME.apply(replace(s, phase="hurricane", forecast=("O1", "O2", "O3", "O4", "O9"),
                               centre=NEAR_HOUSTON), IDENT)
    assert not [d for d in again.log[-1].damage if d.target == "houston.population"]


def test_with_damaged_people_staying_a_centre_is_damaged_on_every_hit():
    game = StormfuryGame(replace(B, rules=replace(B.rules, damaged_population="stays")))
    state = replace(game.new_game({}), centre=NEAR_HOUSTON, category=2, phase="hurricane",
                    forecast=("O1", "O2", "O3", "O4", "O9"))
    s = game.apply(state, IDENT)
    assert s.people("houston") == 2 and "Houston: 2 people hit, still there" in game.recap(s)
    again = game.apply(replace(s, phase="hurricane", forecast=state.forecast, centre=NEAR_HOUSTON), IDENT)
    assert [d.amount for d in again.log[-1].damage if d.target == "houston.population"] == [2]


def test_a_fortification_on_a_fully_evacuated_centre_is_not_used_up():
    empty = tuple((c.id, 0 if c.id == "houston" else 2) for c in B.cities)
    s = GAME.apply(at(NEAR_HOUSTON, 2, ("O1", "O2", "O3", "O4", "O9"), population=empty,
                      fortifications=(("houston.population", 1),)), IDENT)
    assert s.fortified("houston.population") == 1
    assert "houston.population" not in s.log[-1].absorbed
    assert not [d for d in s.log[-1].damage if d.kind == "population" and d.city == "houston"]


def test_the_population_rule_is_on_the_projector_side_panel():
    from companion.games.stormfury.painter import StormfuryPainter

    lines = StormfuryPainter(GAME).side_lines(GAME.new_game({}))
    assert "Damaged people are lost: a centre is not damaged twice for them" in lines
    stays = StormfuryGame(replace(B, rules=replace(B.rules, damaged_population="stays")))
    assert "Damaged people stay: every hit counts them again" in StormfuryPainter(stays).side_lines(
        stays.new_game({}))


# -- 5. The risk command refuses a forecast from the deck the storm is not using ------------------------

@pytest.mark.parametrize(("where", "cards", "message"), [
    ("5,4", "O1,O2,O3,O4,O5", "the storm at 5,4 is over land, so its forecast is dealt from the land deck, "
                              "not ocean cards"),
    ("5,6", "L1,L2,L3,L4,L5", "the storm at 5,6 is at sea, so its forecast is dealt from the ocean deck, "
                              "not land cards"),
])
def test_risk_refuses_a_forecast_from_the_other_deck(capsys, where, cards, message):
    code, out, err = run(capsys, "risk", "stormfury", "--at", where, "--category", "2", "--forecast", cards)
    assert code == 2 and out == "" and err == f"companion: --forecast: {message}\n"


def test_risk_over_land_from_the_land_deck_equals_the_engine_over_every_draw(capsys):
    import itertools

    forecast = ("L1", "L5", "L7", "L9", "L12")
    code, out, _ = run(capsys, "risk", "stormfury", "--at", "9,-1", "--category", "2", "--forecast",
                       ",".join(forecast), "--json")
    assert code == 0
    data = json.loads(out)
    state = replace(GAME.new_game({}), centre=Hex(9, -1), category=2, deck="land", forecast=forecast,
                    phase="hurricane")
    floods = {r.id: 0 for r in B.roads}
    dmg = {c.id: 0 for c in B.cities}
    perms = list(itertools.permutations(range(5)))
    for order in perms:
        for d in GAME.apply(state, Shuffled(order)).log[-1].damage:
            if d.kind == "road":
                floods[d.target] += 1
            else:
                dmg[d.city] += d.amount
    assert data["draws"] == 60
    for row in data["roads"]:
        assert row["expected_damage"] == pytest.approx(floods[row["id"]] / len(perms))
    for row in data["cities"]:
        assert row["expected_damage"] == pytest.approx(dmg[row["id"]] / len(perms))


# -- The player phase: the turn around the table and what the box reminds --------------------------------

def players_phase() -> StormState:
    return GAME.apply(GAME.new_game({}), Shuffled(tuple(range(len(B.decks["ocean"])))))


def test_each_player_takes_her_turn_with_the_reminders():
    s = players_phase()
    seen = []
    for i, role in enumerate(ROLES):
        name = B.role(role).name
        prompt = GAME.prompt(s)
        assert prompt.short == f"{name.split()[0]}: your turn"
        assert prompt.text.startswith(f"{name}'s turn: ")
        for words in ("Draw 2 (or 2 more instead of playing)", "up to 2 cities along roads that are not flooded",
                      "Discard to 5", B.role(role).power):
            assert words in prompt.text and any(words in line for line in GAME.recap(s))
        assert GAME.status(s) == f"Turn 1 - {name}'s turn - cat 2"
        seen.append(role)
        labels = [o.label for o in GAME.choices(s)]
        if i + 1 < len(ROLES):
            assert any(label.startswith(f"Done: {B.role(ROLES[i + 1]).short} next in ") for label in labels)
        s = GAME.apply(s, Choice("end_turn", {}))
    assert seen == list(ROLES) and s.phase == "hurricane"
    assert GAME.reminders(s) == ()


def test_every_power_is_one_line_of_data():
    assert [r.name for r in B.roles] == ["Aquatic Engineer", "Architect", "Evac Specialist", "Relief Corps"]
    assert all(r.power and "\n" not in r.power for r in B.roles)


def test_the_projector_marks_the_roads_open_from_each_players_city():
    from companion.games.stormfury.painter import StormfuryPainter

    painter = StormfuryPainter(GAME)
    s = players_phase()
    first = B.cities[0].id
    assert {r.id for r in painter.passable_roads(s)[first]} == {r.id for r in B.roads_of(first)}
    flooded = B.roads_of(first)[0].id
    s2 = replace(s, flooded=frozenset({flooded}))
    assert flooded not in {r.id for r in painter.passable_roads(s2)[first]}
    assert painter.passable_roads(replace(s, phase="hurricane")) == {}
    from companion.session.drawn import drawn_of

    painter.use(drawn_of(GAME, s))  # whose turn it is, worked out by the session, as the renderer hands it over
    lines = painter.side_lines(s)
    assert lines[0] == "Aquatic Engineer's turn" and "Discard to 5" in lines


# -- Names, never keys ---------------------------------------------------------------------------------

def test_players_see_names_not_keys():
    keys = {*ROLES, *(c.id for c in B.cities if c.id != c.name.lower()), *(r.id for r in B.roads)}
    keys |= {s.id for s in B.spaces}
    s = players_phase()
    s = replace(s, players=tuple(replace(p, city=c) for p, c in zip(s.players, ("houston", "lake_charles",
                                                                               "new_orleans", "corpus_christi"),
                                                                   strict=True)))
    shown: list[str] = [GAME.prompt(s).text, GAME.prompt(s).short, GAME.status(s), *GAME.recap(s)]
    for label, event in ((o.label, o.event) for o in GAME.choices(s)):
        shown.append(label)
        if event.action != "end_player_phase":
            shown += GAME.recap(GAME.apply(s, event))
    shown += GAME.recap(seeded(3))
    for text in shown:
        words = set(re.findall(r"[a-z_.-]+", text))
        assert not words & keys, (text, words & keys)
    assert B.road("corpus_christi-houston").name == "Corpus Christi - Houston"
