"""The Kansas state's shape: the finished tornado phases kept as compact text (what a long game's snapshot
pickles and a resume unpickles), equal to the objects the engine made, and states evolved without
dataclasses.replace."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from benchmarks.bench_journal import long_kansas_maps, scripted_events
from companion.games.kansas import KansasGame, Move, Tornado, load
from companion.games.kansas.state import NO_TURNS, TurnHistory, evolve
from companion.hexgrid import Hex


@pytest.fixture(scope="module")
def long_game(tmp_path_factory) -> KansasGame:
    """Kansas with the 4-player outbreak row twice over: 16 turns, forecasts and re-rolled moves among them."""
    return load(long_kansas_maps(tmp_path_factory.mktemp("maps"), copies=2))


def played(game: KansasGame, seed: int) -> tuple[list, list]:
    """Every state of a seeded whole game, and (turn, tornadoes) of each tornado phase as it ended, taken from
    the states themselves (the turn's tornadoes the moment the phase gives way to the actions)."""
    state = game.new_game({"players": 4})
    states, ended = [state], []
    for event in scripted_events(game, {"players": 4}, 100_000, seed):
        after = game.apply(state, event)
        if state.phase == "tornado" and after.phase == "actions":
            ended.append((after.turn, after.tornadoes))
        state = after
        states.append(state)
    return states, ended


@pytest.mark.parametrize("seed", [1, 5])
def test_the_history_reads_back_every_tornado_phase_as_the_engine_played_it(long_game, seed):
    states, ended = played(long_game, seed)
    last = states[-1]
    assert last.phase == "over" and len(ended) >= 12  # turns without tornadoes end no phase
    assert any(m.rerolled for _, ts in ended for t in ts for m in t.moves)  # the rare fields are exercised
    assert any(t.forecast_line for _, ts in ended for t in ts)
    assert last.history == tuple(ended) and len(last.history) == len(ended)
    assert list(last.history) == ended and last.history[-1] == ended[-1] and last.history[1:3] == tuple(ended[1:3])
    for state in states[::37]:  # every state on the way holds the phases ended so far, no more
        over = state.phase in ("actions", "over")  # this turn's phase has ended too
        assert state.history == tuple(x for x in ended if x[0] < state.turn or (over and x[0] == state.turn))


def test_a_state_pickles_equal_and_its_history_is_built_only_when_read(long_game):
    states, _ = played(long_game, 1)
    for state in (states[len(states) // 2], states[-1]):
        again = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        assert again == state and hash(again.history) == hash(state.history)
        assert again.history._value is None  # a resume builds none of the past tornadoes
        assert list(again.history) == list(state.history)


def test_a_tornado_that_never_started_and_a_move_off_the_map_read_back_as_they_were():
    odd = (Tornado(1),
           Tornado(2, ns=3, we=4, start=Hex(-1, 2), forecast_line="we",
                   moves=(Move((1, 2), 3, "N", Hex(-1, 1)), Move((6, 6), 12, "S", Hex(9, -9), rerolled=True))))
    history = NO_TURNS.plus(3, odd).plus(4, ())
    assert history == ((3, odd), (4, ())) and len(history) == 2
    assert pickle.loads(pickle.dumps(history)) == history
    assert isinstance(history[0][1][1].start, Hex) and history[0][1][1].moves[1].rerolled is True
    assert NO_TURNS == () and len(NO_TURNS) == 0 and list(NO_TURNS) == []


def test_histories_compare_by_what_they_hold():
    one = (Tornado(1, ns=1, we=1, start=Hex(0, 0)),)
    two = (Tornado(1, ns=1, we=2, start=Hex(0, 1)),)
    a, b = NO_TURNS.plus(1, one), TurnHistory().plus(1, one)
    assert a == b and hash(a) == hash(b) and a is not b
    assert a != NO_TURNS.plus(1, two) and a != NO_TURNS.plus(2, one) and a != a.plus(2, two)
    assert ((1, one),) == a and [(1, one)] == a and a != ((1, two),)
    assert a != "not a history"


def test_evolve_is_replace_without_the_constructor(long_game):
    states, _ = played(long_game, 1)
    state = states[len(states) // 2]
    new = evolve(state, turn=99, recent=("x",))
    assert new == dataclasses.replace(state, turn=99, recent=("x",)) and type(new) is type(state)
    assert state.turn != 99 and new.markers is state.markers  # the old state unchanged, the rest shared
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.turn = 1  # type: ignore[misc]
    with pytest.raises(TypeError, match="KansasState has no field tunr"):
        evolve(state, tunr=3)
    assert evolve(Tornado(1), ns=4) == Tornado(1, ns=4)


def test_evolve_carries_only_the_fields_over(long_game):
    """Something kept on a state beside its fields (a value worked out once from them) belongs to that state;
    the evolved one works it out again from its own fields."""
    states, _ = played(long_game, 2)
    state = states[len(states) // 3]
    object.__setattr__(state, "worked_out", ("from", state.turn))
    new = evolve(state, turn=state.turn + 1)
    assert "worked_out" not in vars(new) and vars(new).keys() == {f.name for f in dataclasses.fields(state)}
