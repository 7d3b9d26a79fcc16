"""The Kansas tornado phase and its markers, rule by rule, as a pure fold over events."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import Choice, DiceRolled, Shuffled
from companion.errors import RuleError
from companion.games.base import replay
from companion.games.kansas import KansasGame, KansasState, load
from companion.hexgrid import Hex


@pytest.fixture(scope="module")
def game() -> KansasGame:
    return load()


def d8(v: int) -> DiceRolled:
    return DiceRolled.of(("d8", v))


def d6(a: int, b: int) -> DiceRolled:
    return DiceRolled.of(("d6", a), ("d6", b))


def play(game: KansasGame, state: KansasState, *events) -> KansasState:
    for e in events:
        state = game.apply(state, e)
    return state


def named(game: KansasGame, name: str) -> Hex:
    return next(p.hex for p in game.board.places if p.name == name)


# the rule text's path example: start, 4+3=7 NE, 1+2=3 N, 1+5=6 NE, 5+6=11 S
EXAMPLE = (d8(7), d8(3), d6(4, 3), d6(1, 2), d6(1, 5), d6(5, 6))


@pytest.mark.parametrize(("players", "table"), [(4, [4, 3, 3, 2, 2, 1, 1, 0]), (5, [4, 3, 2, 2, 1, 1, 0]),
                                               (6, [4, 3, 2, 1, 1, 0])])
def test_outbreak_table(game, players, table):
    assert [game.outbreak(players, t) for t in range(1, len(table) + 1)] == table


@pytest.mark.parametrize(("options", "message"), [
    ({"players": 3}, "players: Kansas Tornadoes is for 4, 5, 6 players, got 3"),
    ({"players": 6, "turn": 7}, "turn: a 6-player game has turns 1..6, got 7"),
    ({"players": 4, "turn": 0}, "turn: a 4-player game has turns 1..8, got 0"),
    ({"players": "4"}, "players: Kansas Tornadoes is for 4, 5, 6 players"),
    ({"players": [4]}, r"players: Kansas Tornadoes is for 4, 5, 6 players, got \[4\]"),
    ({"players": 4, "turn": 2.0}, "turn: a 4-player game has turns 1..8, got 2.0"),
])
def test_bad_player_counts_and_turns_are_refused(game, options, message):
    with pytest.raises(RuleError, match=message):
        game.new_game(options)


def test_the_last_turn_has_no_tornado_phase(game):
    state = game.new_game({"players": 5, "turn": 7})
    assert state.phase == "actions" and state.count == 0 and state.tornadoes == ()
    assert "no tornadoes (last turn)" in state.recent[-1]


def test_the_rule_texts_path_example(game):
    state = play(game, game.new_game({"players": 4, "turn": 2}), *EXAMPLE)
    dodge = named(game, "Dodge City")
    t = state.tornadoes[0]
    assert t.start == dodge and (t.ns, t.we) == (7, 3)
    assert [m.direction for m in t.moves] == ["NE", "N", "NE", "S"]
    expected = [dodge, dodge.neighbour("NE")]
    for d in ("N", "NE", "S"):
        expected.append(expected[-1].neighbour(d))
    assert list(t.markers) == expected and len(t.markers) == 5
    assert sum(n for _, n in state.markers) == 5
    assert state.phase == "tornado" and state.tornadoes[-1].number == 2 and state.count == 3


def test_one_tornado_phase_ends_after_five_markers(game):
    state = play(game, game.new_game({"players": 4, "turn": 7}), *EXAMPLE)
    assert state.count == 1 and state.phase == "actions"
    assert state.history == ((7, state.tornadoes),)
    # the OLED's result: the last marker first (the table places it now), then the tornado's summary
    assert state.recent == ("Marker on 1 SW of Great Bend", "Start: Dodge City", "Path: NE N NE S",
                            "Hit: Dodge City")


def test_prompts_say_what_to_roll_in_words(game):
    state = game.new_game({"players": 4, "turn": 2})
    p = game.prompt(state)
    assert p.text == "Tornado 1 of 3: roll a D8 for the north-south line" and p.dice == ("d8",)
    state = game.apply(state, d8(7))
    assert game.prompt(state).text == "Tornado 1 of 3: roll a D8 for the west-east line"
    state = game.apply(state, d8(3))
    p = game.prompt(state)
    assert p.text == "Tornado 1 of 3, move 1 of 4: roll 2D6 for the path" and p.dice == ("d6", "d6")
    assert p.short == "Tornado 1 of 3: move 1 of 4: 2D6"
    assert all(len(part) <= 16 for part in p.short.split(": ", 1))  # who, then what: one OLED line each
    assert game.status(state) == "Turn 2/8 - tornado phase"


def test_a_move_off_the_map_is_rolled_again_without_a_marker(game):
    # north-south 1 is the northern edge: from there 3 (N) leaves the map
    state = play(game, game.new_game({"players": 4, "turn": 7}), d8(1), d8(1))
    start = state.tornadoes[0].start
    assert start is not None and start.neighbour("N") not in game.board.terrain
    state = game.apply(state, d6(1, 2))
    t = state.tornadoes[0]
    assert t.moves[-1].rerolled and t.moves_made == 0 and t.markers == (start,)
    assert "roll again" in game.prompt(state).text and "off the map" in state.recent[0]
    state = game.apply(state, d6(3, 4))
    assert state.tornadoes[0].moves_made == 1 and not state.tornadoes[0].moves[-1].rerolled


def test_paths_may_double_back_and_markers_stack(game):
    # NE then SW returns to the start; two more moves: N then S returns again
    state = play(game, game.new_game({"players": 4, "turn": 7}), d8(7), d8(3), d6(3, 4), d6(6, 6), d6(1, 2),
                 d6(5, 6))
    dodge = named(game, "Dodge City")
    assert state.markers_at(dodge) == 3
    assert state.markers_at(dodge.neighbour("N")) == 1 and state.markers_at(dodge.neighbour("NE")) == 1


def test_wrong_dice_are_refused_and_change_nothing(game):
    state = game.new_game({"players": 4, "turn": 1})
    with pytest.raises(RuleError, match="need D8, got D6=4"):
        game.apply(state, DiceRolled.of(("d6", 4)))
    with pytest.raises(RuleError, match="waiting for D8"):
        game.apply(state, Shuffled((1, 0)))
    after = game.apply(state, DiceRolled.of(("d6", 2), ("d8", 5)))  # the D8 answers, the extra D6 is left out
    assert after.tornadoes[0].ns == 5 and after.tornadoes[0].we is None


def test_forecast_the_rule_texts_example(game):
    # Gwynneth took Emergency Response/Forecast in round 2; in round 3 she forecasts tornado 2 on the west-east
    # line; the north-south die shows 7 and she picks 3: the tornado starts on Dodge City.
    state = game.new_game({"players": 4, "turn": 2})
    state = play(game, state, *([d8(7), d8(3)] + [d6(3, 4)] * 4) * 3)
    assert state.phase == "actions"
    state = play(game, state, Choice("emergency", {"player": 2}), Choice("end_turn"))
    assert state.turn == 3 and state.phase == "forecast" and state.forecaster == 2
    assert game.prompt(state).actions == ("forecast", "no_forecast")
    state = game.apply(state, Choice("forecast", {"tornado": 2, "line": "we"}))
    state = play(game, state, d8(7), d8(3), *[d6(3, 4)] * 4)  # tornado 1 rolls as usual
    assert state.tornadoes[-1].number == 2 and state.tornadoes[-1].forecast_line == "we"
    state = game.apply(state, d8(7))
    assert game.need(state) == "forecast_at"
    options = game.choices(state)
    assert len(options) == 8 and options[2].label == "west-east 3: Dodge City"
    state = game.apply(state, Choice("forecast_at", {"value": 3}))
    assert state.tornadoes[-1].start == named(game, "Dodge City") and state.forecast == (2, "we", 3)


def test_forecast_of_the_north_south_line_rolls_west_east_first(game):
    state = game.new_game({"players": 4, "turn": 1, "forecaster": 1})
    state = play(game, state, Choice("forecast", {"tornado": 1, "line": "ns"}))
    assert game.prompt(state).text.endswith("roll a D8 for the west-east line")
    state = play(game, state, d8(3), Choice("forecast_at", {"value": 7}))
    assert state.tornadoes[0].start == named(game, "Dodge City")


@pytest.mark.parametrize(("event", "message"), [
    (Choice("forecast", {"tornado": 5, "line": "we"}), "tornado: this turn has tornadoes 1..4, got 5"),
    (Choice("forecast", {"tornado": 1, "line": "diagonal"}), "line: expected ns"),
    (Choice("forecast", {"tornado": 1, "line": ["ns"]}), r"line: expected ns \(north-south\) or we .*got \['ns'\]"),
    (Choice("forecast", {"tornado": True, "line": "ns"}), "tornado: this turn has tornadoes 1..4, got True"),
    (Choice("end_turn"), "unknown action 'end_turn' here"),
])
def test_bad_forecasts_are_refused(game, event, message):
    state = game.new_game({"players": 4, "turn": 1, "forecaster": 1})
    with pytest.raises(RuleError, match=message):
        game.apply(state, event)


def after_example(game: KansasGame) -> KansasState:
    """Turn 7 of 4 players (one tornado): the text's path from Dodge City, then the build phase."""
    return play(game, game.new_game({"players": 4, "turn": 7}), *EXAMPLE)


def test_paid_removal_is_not_allowed_from_a_city(game):
    state = after_example(game)
    dodge = named(game, "Dodge City")
    with pytest.raises(RuleError, match="Dodge City is a city: its markers go only by Emergency Response"):
        game.apply(state, Choice("remove", dodge.to_dict()))
    h = dodge.neighbour("NE")
    state = game.apply(state, Choice("remove", h.to_dict()))
    assert state.markers_at(h) == 0 and state.recent == (f"Removed 1 from {game.board.name_of(h)}", "pay $1")
    with pytest.raises(RuleError, match="no damage marker"):
        game.apply(state, Choice("remove", h.to_dict()))


def test_emergency_response_three_free_at_most_one_from_a_city_and_kept(game):
    state = after_example(game)
    dodge = named(game, "Dodge City")
    path = state.tornadoes[0].markers
    state = play(game, state, Choice("emergency", {"player": 3}), Choice("emergency_remove", dodge.to_dict()))
    assert state.kept_by(3) == 1 and state.markers_at(dodge) == 0
    state = play(game, state, Choice("emergency_remove", path[1].to_dict()),
                 Choice("emergency_remove", path[2].to_dict()))
    assert state.kept_by(3) == 1 and state.emergency is not None and state.emergency.left == 0
    with pytest.raises(RuleError, match="used all 3 free removals"):
        game.apply(state, Choice("emergency_remove", path[3].to_dict()))
    with pytest.raises(RuleError, match="already took the Emergency Response"):
        game.apply(state, Choice("emergency", {"player": 1}))


def test_only_one_free_removal_from_a_city_new_cities_included(game):
    state = after_example(game)
    dodge = named(game, "Dodge City")
    hays = named(game, "Hays")
    state = replace_markers(state, {dodge: 1, hays: 1})
    state = play(game, state, Choice("emergency", {"player": 1}), Choice("emergency_remove", dodge.to_dict()))
    with pytest.raises(RuleError, match="only one of the free removals may come from a city"):
        game.apply(state, Choice("emergency_remove", hays.to_dict()))
    town = named(game, "Great Bend")
    state = play(game, replace_markers(state, {town: 1}), Choice("new_city", town.to_dict()))
    with pytest.raises(RuleError, match="only one of the free removals may come from a city"):
        game.apply(state, Choice("emergency_remove", town.to_dict()))
    with pytest.raises(RuleError, match="Great Bend is a city"):
        game.apply(state, Choice("remove", town.to_dict()))


def replace_markers(state: KansasState, stacks: dict[Hex, int]) -> KansasState:
    from dataclasses import replace

    merged = dict(state.markers) | stacks
    return replace(state, markers=tuple(sorted(merged.items())))


def test_delivery_removes_one_city_marker_kept_by_the_deliverer(game):
    state = after_example(game)
    dodge = named(game, "Dodge City")
    state = replace_markers(state, {dodge: 2})
    with pytest.raises(RuleError, match="Dodge City takes yellow goods, not 'red'"):
        game.apply(state, Choice("deliver", {"player": 2, "good": "red", **dodge.to_dict()}))
    state = game.apply(state, Choice("deliver", {"player": 2, "good": "yellow", **dodge.to_dict()}))
    assert state.markers_at(dodge) == 1 and state.kept_by(2) == 1
    with pytest.raises(RuleError, match="is not a city"):
        game.apply(state, Choice("deliver", {"player": 2, **dodge.neighbour("NE").to_dict()}))
    with pytest.raises(RuleError, match=r"player: expected 1\.\.4, got 7"):
        game.apply(state, Choice("deliver", {"player": 7, **dodge.to_dict()}))


def test_end_game_scores_two_points_per_kept_city_marker(game):
    state = after_example(game)
    dodge = named(game, "Dodge City")
    state = replace_markers(state, {dodge: 3})
    state = play(game, state, *[Choice("deliver", {"player": 4, **dodge.to_dict()})] * 2, Choice("end_turn"))
    assert state.turn == 8 and state.phase == "actions" and state.count == 0
    state = game.apply(state, Choice("end_turn"))
    assert state.phase == "over" and state.scores() == {1: 0, 2: 0, 3: 0, 4: 4}
    prompt = game.prompt(state)
    assert prompt.done and "player 4 4" in prompt.text
    with pytest.raises(RuleError, match="the game is over"):
        game.apply(state, Choice("end_turn"))


def test_a_whole_game_replays_to_the_same_state(game):
    from companion.dice import DiceSource

    source, options = DiceSource(11), {"players": 6}
    state, events = game.new_game(options), []
    while not game.prompt(state).done:
        prompt = game.prompt(state)
        event = source.answer(prompt) or game.choices(state)[0].event
        events.append(event)
        state = game.apply(state, event)
    assert state.turn == 6 and len(state.history) == 5
    assert sum(len(t) for _, t in state.history) == 4 + 3 + 2 + 1 + 1
    assert replay(game, options, events) == state


def test_choices_offer_what_the_rules_allow(game):
    state = after_example(game)
    labels = [o.label for o in game.choices(state)]
    assert labels[-1] == "End turn" and labels[0] != "End turn"  # never where the cursor starts
    assert "P1 delivers Dodge City" in labels and "$1: Dodge City (1)" not in labels
    delivery = {o.label: o.event for o in game.choices(state)}["P1 delivers Dodge City"]
    assert delivery.args["good"] == "yellow"  # the journal says which good removed the marker: the city's colour
    assert any(label.startswith("$1: ") for label in labels) and "P4: Emergency/Forecast" in labels
    for event in (o.event for o in game.choices(state)):
        game.apply(state, event)  # every offered choice is accepted by the engine


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([4, 5, 6]), turn=st.integers(1, 5))
def test_every_phase_follows_the_grid_and_the_key_whatever_the_dice(seed, players, turn):
    from companion.dice import DiceSource

    game = load()
    b, source = game.board, DiceSource(seed)
    state = game.new_game({"players": players, "turn": turn})
    while state.phase == "tornado":
        state = game.apply(state, source.roll(game.prompt(state).dice))
    assert len(state.tornadoes) == state.count == game.outbreak(players, turn)
    for t in state.tornadoes:
        assert t.start == b.grid[t.ns, t.we] and len(t.markers) == b.markers_per_tornado
        here = t.start
        for m in t.moves:
            assert m.total == sum(m.dice) and m.direction == b.path_key[m.total] and m.to == here.neighbour(m.direction)
            assert m.rerolled == (m.to not in b.terrain)
            here = here if m.rerolled else m.to
        assert here == t.position
    assert sum(n for _, n in state.markers) == b.markers_per_tornado * state.count
