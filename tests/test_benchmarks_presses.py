"""The presses benchmark's planner: through the real session it finds the fewest presses to any option (the list
wraps at its ends), pressing them for real enters exactly that option, and looking ahead changes nothing."""

from __future__ import annotations

from itertools import pairwise

import pytest

from benchmarks.bench_presses import SCRIPTS, one_link_builds, rows_of
from benchmarks.presses_play import MOVES, PressPlanner, Turn, play
from companion.journal import Journal
from companion.session import Press, Session
from companion.session.choices import ends


@pytest.fixture
def session(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        yield Session(journal)


def shorter_exists(planner: PressPlanner, target, length: int) -> bool:
    """Any sequence of fewer than ``length`` buttons entering ``target``, tried one by one (no search's shortcuts)."""
    def walk(state, depth: int) -> bool:
        if depth == 0:
            return False
        for button in MOVES:
            after, entered = planner._try(state, button)
            if entered == target or (entered is None and walk(after, depth - 1)):
                return True
        return False
    return walk({}, length - 1)


def test_the_planner_finds_the_fewest_presses_to_each_option_and_they_enter_it(session) -> None:
    session.start(game="carcassonne", options={"players": 3})
    options = session.options()
    start = session.request
    planner = PressPlanner(session)
    for option in options:
        path = planner.plan(option.event)
        assert path is not None and path[-1] == "OK"
        assert len(path) > 5 or not shorter_exists(planner, option.event, len(path))  # every shorter way tried
        assert session.refresh() is False and session.request == start  # only looked
        if ends(option):
            continue
        for button in path:
            session.handle(Press(button))
        assert session.current.live[-1].event == option.event  # entered for real: exactly the one aimed at
        session.undo()
        session.refresh()
        assert session.request == start


def test_a_whole_stormfury_game_is_counted_turn_by_turn(session) -> None:
    script = SCRIPTS["stormfury"]
    played = play(session, "stormfury", script.options, seed=3, turn_of=script.turn_of, choose=script.table())
    assert played.finished and played.unreachable == 0
    assert played.total == sum(t.presses for t in played.turns) > 0
    assert [t.key for t in played.turns] == sorted(t.key for t in played.turns)  # one entry per turn, in order
    rows = {r.measure: r for r in rows_of({"stormfury": [played]})}
    assert rows["stormfury: presses per game, median of 1"].value == played.total


def test_one_link_builds_are_cut_from_the_turns() -> None:
    class S:
        def __init__(self, tracks: int) -> None:
            self.tracks = tuple(range(tracks))

    turns = [Turn(("turn", i % 3), p, S(0), S(n)) for i, (p, n) in enumerate([(5, 1), (7, 2), (3, 0), (4, 1)])]
    assert one_link_builds(turns) == [5, 4]


def test_a_table_model_that_cannot_read_the_engine_is_counted_not_silent(session) -> None:
    script = SCRIPTS["stormfury"]

    table = script.table()

    def blind(rng, game, state, options):
        return table(rng, game, state, options) if state.turn > 1 else game.no_such_name

    played = play(session, "stormfury", script.options, seed=3, turn_of=script.turn_of, choose=blind)
    rows = {r.measure: r for r in rows_of({"stormfury": [played]})}
    assert played.finished and played.guessed > 0
    assert rows["stormfury: decisions the table model could not read the engine for"].ok is False


def test_the_age_of_industry_table_plays_the_rules_turn(session) -> None:
    """Each turn every player makes her two actions in a row, in her own colour, and only then is the turn ended
    (by the last action's "end turn" answer, or End turn): a round of three players is one turn of the game."""
    from benchmarks.bench_presses import ACTIONS

    script = SCRIPTS["industry"]
    table = script.table()
    picked: list[tuple[int, str, object, bool]] = []

    def watched(rng, game, state, options):
        option = table(rng, game, state, options)
        args = option.event.args
        given = state.pending_args() if state.pending else {}
        asked = set(args) - set(given)  # the field this step asks for (a whose step: owner or player)
        whose = args.get("owner", args.get("player")) if asked & {"owner", "player"} else None
        picked.append((state.turn, option.event.action, whose, ends(option)))
        return option

    played = play(session, "industry", script.options, seed=2, turn_of=script.turn_of, choose=watched,
                  stop=lambda state: state.turn > 3)
    assert played.unreachable == 0 and played.guessed == 0
    for turn in (1, 2, 3):
        mine = [p for p in picked if p[0] == turn]
        owners = [p[2] for p in mine if p[2] is not None]  # the owner asked for in each entry, in order
        runs = [owners[0]] + [b for a, b in pairwise(owners) if b != a]
        assert len(runs) == len(set(runs)) == 3, owners  # each player's entries together, each player once
        assert all(owners.count(who) >= ACTIONS for who in runs), owners  # two entries each (a paid card: more)
        ending = [p for p in mine if p[3]]
        assert len(ending) == 1 and ending[0] is mine[-1]  # the turn ends once, by its last answer


def test_the_table_decides_in_the_engines_order_not_the_buttons(session) -> None:
    """A list laid out for the buttons (Age of Industry's, round its likeliest) is given to the table in the
    engine's own order, so how the box lays a list out never changes the seeded game being counted."""
    from benchmarks.presses_play import in_engine_order

    session.start(game="industry", options={"map": "Japan", "players": 3})
    run = session.current
    offered = session.options()
    engine = [o.label for o in run.game.choices(run.state)]
    assert [o.label for o in offered] != engine  # laid out round the likeliest, not as listed
    assert [o.label for o in in_engine_order(run.game, run.state, offered)] == engine
