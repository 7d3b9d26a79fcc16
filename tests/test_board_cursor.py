"""The board cursor through the real session, on all three board shapes with the real games: Kansas and Stormfury
(hexes), Carcassonne (the square grid, tiles mode), Age of Industry (the location graph).

Every option is reached by the arrows from where the cursor starts, and the projector rings the place the OLED
names; an arrow goes to the nearest place that way (worked out here again from the places' positions alone); an
option with no place is still reached; several options at one place open their short list; the cursor starts
where the last thing happened; an arrow press asks the engine nothing; and the presses a Carcassonne space costs,
on the list and on the board."""

from __future__ import annotations

import math
import random
import re
import statistics
from collections.abc import Iterator

import pytest

from companion.dice import FACES, Choice, DiceRolled, DiceSource, Die
from companion.games.base import HasBoard, Option
from companion.hexgrid import Hex
from companion.journal import Journal
from companion.places import Board, Cell, Link, Location, Place, place_from_args, position
from companion.session import Decide, Press, Roll, Session
from companion.session.board_cursor import ARROWS, BoardCursor, route
from companion.session.choices import cursor, ends
from companion.session.request import OpenRequest

GAMES = {
    "kansas": {"players": 4},
    "stormfury": {"players": 2},
    "carcassonne": {"players": 3, "board": "tiles"},
    "industry": {"players": 3},
}
"""The games whose decisions are answered on the board, by shape (Allegheny's stay lists: see its test)."""


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def board_of(s: Session) -> Board | None:
    run = s.current
    assert run is not None
    return run.game.board_for(run.state) if isinstance(run.game, HasBoard) else None


def on_board(s: Session) -> BoardCursor | None:
    """The board cursor over the options open now (None: they are a list)."""
    return BoardCursor.of(s.options(), board_of(s)) if s.options() and not s.menu_open else None


def selected(s: Session) -> int:
    assert s.panel.menu is not None
    return s.panel.menu.selected


def on_cursor(s: Session) -> int:
    """The option under the cursor as the OLED shows it, as its index in the session's options: inside a place's
    short list the OLED lists that place's options only (checked here), so its line is counted in that list."""
    menu = s.panel.menu
    assert menu is not None
    if not s.request.listing:
        return menu.selected
    options = s.options()
    moves = on_board(s)
    assert moves is not None
    here = moves.here(cursor(options, s.request.choice))
    assert menu.items == tuple(options[i].label for i in here)
    return here[menu.selected]


def press(s: Session, *buttons: str) -> None:
    for button in buttons:
        s.handle(Press(button))


def decisions(s: Session, rng: random.Random, limit: int = 500) -> Iterator[None]:
    """Play on (seeded dice, the arrows and OK to a random option that ends nothing), stopping at each decision on
    the board for the test to look at; the test's presses there are undone by BACK before play goes on."""
    for _ in range(limit):
        run = s.current
        if run is None or run.prompt().done:
            return
        if s.menu_open:
            press(s, "OK")
        elif kinds := s.wanted():
            s.handle(Roll.of(DiceRolled(tuple(Die(k, rng.randint(1, FACES[k])) for k in kinds), "tower")))
        elif run.prompt().shuffle:
            press(s, "ROLL")
        else:
            options = s.options()
            if on_board(s) is not None:
                yield
                if s.request.listing:
                    press(s, "BACK")
            fine = [i for i, o in enumerate(options) if not ends(o)] or [0]
            press(s, *s.presses_to(rng.choice(fine)))


def started(journal: Journal, game: str) -> Session:
    s = Session(journal, dice=DiceSource(seed=3))
    s.start(game, GAMES.get(game, {"players": 4}))
    return s


def check_names(s: Session, option: Option) -> None:
    """The OLED's line under the cursor names the place, never its coordinates or a data key."""
    label, place = option.label, option.place
    assert not re.search(r"-?\d+\s*,\s*-?\d+|\b[qrxy]\s*=", label), label
    run = s.current
    assert run is not None
    if isinstance(place, Hex) and run.game.key == "kansas":
        assert run.game.board.name_of(place) in label
    if isinstance(place, Hex) and run.game.key == "stormfury":
        # a city, a space of one, a road by its cities; an evacuation names the player's own city, "Done: X next"
        # the next player's: the city whose population centre is rung
        cities = run.game.board.cities
        assert any(name in label for name in [c.name for c in cities] + [p.name for c in cities for p in c.spaces])
        if re.search(r"evacuate|^Done:", label):
            assert next(c.name for c in cities if c.population_centre == place) in label
    board = board_of(s)
    if isinstance(place, Cell) and board is not None:
        assert board.name_of(place).removesuffix(" of the start") in label.replace("start tile", "the start tile")
    if isinstance(place, Location) and board is not None:
        assert board.name_of(place) in label and place.key not in label.split()


@pytest.mark.parametrize("game", list(GAMES))
def test_every_option_is_reached_by_the_arrows_and_the_projector_rings_what_the_oled_names(journal, game):
    s = started(journal, game)
    seen = 0
    for _ in decisions(s, random.Random(1)):
        seen += 1
        options = s.options()
        for target in range(len(options)):
            *moves, last = s.presses_to(target)
            press(s, *moves)
            assert last == "OK" and on_cursor(s) == target
            assert s.frame.cursor == options[target].place  # the projector's ring on the OLED's option
            check_names(s, options[target])
        if seen == 3:
            break
    assert seen == 3, "no decision on the board"


def nearest_that_way(s: Session, at: Place, arrow: str,
                     row: list[tuple[float, float]]) -> set[Place | None] | None:
    """Worked out again from the places' positions alone (and those of the row under the board, None there): the
    nearest places within 45 degrees of ``arrow`` from ``at`` (None: no place lies that way)."""
    board = board_of(s)
    origin = position(at, board)
    assert origin is not None
    dx, dy = ARROWS[arrow]
    found: list[tuple[float, Place | None]] = []
    spots = [(position(o.place, board), o.place) for o in s.options() if o.place is not None]
    for where, place in [*spots, *((r, None) for r in row)]:
        assert where is not None
        vx, vy = where[0] - origin[0], where[1] - origin[1]
        along, across = vx * dx + vy * dy, abs(vy * dx - vx * dy)
        if along > 1e-9 and across < along - 1e-9:
            found.append((math.hypot(vx, vy), place))
    if not found:
        return None
    least = min(d for d, _ in found)
    return {p for d, p in found if d < least + 1e-6}


@pytest.mark.parametrize("game", list(GAMES))
def test_an_arrow_goes_to_the_nearest_place_that_way(journal, game):
    s = started(journal, game)
    checked = 0
    for _ in decisions(s, random.Random(2)):
        home = selected(s)
        at = s.options()[home].place
        row = [spot.at for spot in on_board(s).spots if spot.place is None]
        if at is None:
            continue
        for arrow in ARROWS:
            expected = nearest_that_way(s, at, arrow, row)
            press(s, arrow)
            reached = s.options()[selected(s)].place
            if expected is None:
                assert reached != at or s.panel.message == f"no place further {arrow.lower()}"
            else:
                assert reached in expected, (arrow, at, reached, expected)
                assert s.frame.cursor == reached
                checked += 1
            s.request = OpenRequest()  # the decision afresh: the cursor where it starts
            s.refresh()
            assert selected(s) == home
        if checked >= 12:
            break
    assert checked >= 12


def test_an_option_with_no_place_is_reached_in_the_row_under_the_board(journal):
    s = started(journal, "carcassonne")
    for _ in decisions(s, random.Random(3)):
        options = s.options()
        if s.current.state.phase == "cell" and any(o.label == "Drew the meteor" for o in options):
            break
    meteor = next(i for i, o in enumerate(options) if o.label == "Drew the meteor")
    assert options[meteor].place is None and options[s.options().start].place is not None
    for _ in range(40):  # DOWN on and on: off the lowest place, into the row of what has no place
        if options[selected(s)].place is None:
            break
        press(s, "DOWN")
    assert options[selected(s)].place is None and s.frame.cursor is None
    press(s, *s.presses_to(meteor))
    assert s.current.live[-1].event == options[meteor].event


def test_several_options_at_one_place_open_their_short_list(journal):
    s = started(journal, "kansas")
    for _ in decisions(s, random.Random(4)):
        moves = on_board(s)
        assert moves is not None
        start = s.options().start
        shared = next((spot for spot in moves.spots if len(spot.options) > 1 and start not in spot.options), None)
        if shared is not None:
            break
    else:
        pytest.fail("no place with several options")
    options = s.options()
    walk = s.presses_to(shared.home)
    assert walk[-2:] == ["OK", "OK"]  # the way there, OK to open its list, OK to pick
    press(s, *walk[:-2])
    assert selected(s) == shared.home and not s.request.listing
    assert len(s.panel.menu.items) == len(options)  # on the board: the OLED lists every option
    before = len(s.current.live)
    press(s, "OK")  # a place with several options: their short list, nothing taken yet
    assert s.request.listing and len(s.current.live) == before
    assert s.panel.message == f"{len(shared.options)} here: arrows, OK"
    labels = tuple(options[i].label for i in shared.options)
    assert s.panel.menu.items == labels  # the OLED shows the short list only, the cursor on the place's first
    assert labels[selected(s)] == options[shared.home].label
    visited = []
    for _ in shared.options:
        press(s, "DOWN")
        assert s.panel.menu.items == labels and s.frame.cursor == shared.place
        visited.append(labels[selected(s)])
    assert sorted(visited) == sorted(labels)  # round the place's options, and only those
    press(s, "DOWN")  # off the place's first option, then out of the list: the cursor stays on that option
    kept = shared.options[selected(s)]
    press(s, "BACK")
    assert not s.request.listing and len(s.current.live) == before
    assert len(s.panel.menu.items) == len(options) and selected(s) == kept != options.start
    assert s.frame.cursor == shared.place != options[options.start].place
    assert s.presses_to(kept) == ["OK", "OK"]  # the route knows BACK left the cursor there
    last = shared.options[-1]
    press(s, *s.presses_to(last))
    assert s.current.live[-1].event == options[last].event


def test_the_cursor_starts_where_the_last_thing_happened(journal):
    """The meteor is aimed at any laid tile: the cursor starts on the tile laid last (the last place named)."""
    s = started(journal, "carcassonne")
    game = s.current.game
    for _ in range(5):  # five plain tiles, each where it first fits, no follower
        state = s.current.state
        cell, tile, turns = next((c, t, q) for c in game.open_cells(state) for t, q in game.layable(state, c)
                                 if not t.disaster)
        s.handle(Decide(Choice("lay", {"x": cell.x, "y": cell.y, "kind": tile.key, "quarters": turns[0]})))
        if s.current.state.phase == "deploy":
            s.handle(Decide(Choice("pass", {})))
    s.handle(Decide(Choice("meteor", {})))
    run = s.current
    assert run.state.phase == "meteor_aim", s.panel.message
    named = [place_from_args(e.event.args) for e in run.live if isinstance(e.event, Choice)]
    last = [p for p in named if isinstance(p, Cell)][-1]
    options = s.options()
    at = options[selected(s)]
    assert isinstance(at.place, Cell) and not ends(at)
    eligible = [o.place for o in options if isinstance(o.place, Cell)]
    least = min(math.dist((c.x, c.y), (last.x, last.y)) for c in eligible)
    assert math.dist((at.place.x, at.place.y), (last.x, last.y)) == pytest.approx(least)


def test_the_cursor_starts_where_the_next_tile_most_likely_goes(journal):
    """Laying a tile, the cursor starts on the space nearest, on the whole, to where the tiles left in the bag fit:
    each kind's tiles left spread evenly over the ways it fits (worked out here again from the rules' fits)."""
    s = started(journal, "carcassonne")
    game = s.current.game
    checked = 0
    for _ in decisions(s, random.Random(5)):
        state = s.current.state
        if state.phase != "cell":
            continue
        fits = {c: game.layable(state, c) for c in game.open_cells(state)}
        ways: dict[str, int] = {}
        for kinds in fits.values():
            for tile, turns in kinds:
                ways[tile.key] = ways.get(tile.key, 0) + len(turns)
        odds = {c: sum(game.remaining(state, t) * len(q) / ways[t.key] for t, q in kinds)
                for c, kinds in fits.items() if kinds}
        spread = {c: sum(p * math.dist((c.x, c.y), (o.x, o.y)) for o, p in odds.items()) for c in odds}
        at = s.options()[selected(s)].place
        assert isinstance(at, Cell) and spread[at] == pytest.approx(min(spread.values()))
        checked += 1
        if checked == 6:
            break
    assert checked == 6


def test_an_arrow_press_asks_the_engine_nothing(journal, monkeypatch):
    s = started(journal, "industry")
    for _ in decisions(s, random.Random(6)):
        if isinstance(s.options()[0].place, Location):
            break
    game = type(s.current.game)
    calls: list[str] = []
    for name in ("choices", "board_for", "prompt"):
        real = getattr(game, name)
        monkeypatch.setattr(game, name, lambda self, state, _real=real, _name=name: (calls.append(_name),
                                                                                      _real(self, state))[1])
    for arrow in ("RIGHT", "DOWN", "LEFT", "UP", "RIGHT", "RIGHT"):
        s.handle(Press(arrow))
    assert "choices" not in calls and "board_for" not in calls


def test_a_decision_with_few_places_stays_a_list(journal):
    s = started(journal, "carcassonne")
    for _ in decisions(s, random.Random(7)):
        if s.current.state.phase == "cell":
            press(s, *s.presses_to(s.options().start))  # a space: the kind is asked, every kind at that one place
            if s.current.state.phase == "kind" and len(s.options()) > 2:
                break
    assert on_board(s) is None
    start = s.options().start  # the likeliest kind, the list laid out round it
    press(s, "DOWN")
    assert selected(s) == (start + 1) % len(s.options())
    press(s, "UP", "UP")
    assert selected(s) == (start - 1) % len(s.options()) and not ends(s.options()[selected(s)])


def carcassonne_spaces(journal: Journal, turns: int) -> Iterator[tuple[int, int]]:
    """For each space of each turn's "lay a tile" in a tiles-mode game: the presses that pick it on the list (as
    before the board cursor: the arrows step one option) and on the board."""
    s = started(journal, "carcassonne")
    seen = 0
    for _ in decisions(s, random.Random(8)):
        if s.current.state.phase != "cell":
            continue
        options = s.options()
        for i, option in enumerate(options):
            if isinstance(option.place, Cell):
                yield len(route(options, None, OpenRequest(), i)), len(s.presses_to(i))
        seen += 1
        if seen == turns:
            return


def test_a_carcassonne_space_costs_fewer_presses_on_the_board(journal):
    counts = list(carcassonne_spaces(journal, 12))
    listed = statistics.mean(n for n, _ in counts)
    board = statistics.mean(n for _, n in counts)
    print(f"\nCarcassonne space, presses with OK: list {listed:.2f}, board {board:.2f} over {len(counts)} spaces")
    assert board < listed
    assert max(n for _, n in counts) <= max(n for n, _ in counts)



def test_allegheny_names_the_place_under_the_cursor(journal):
    """Allegheny's decisions name two places at most (a build goes on from one end), so they stay lists; the OLED's
    line under the cursor still names the place the projector rings: a location, or a link by its far end."""
    s = started(journal, "allegheny")
    rng, named = random.Random(9), 0
    for _ in range(400):
        run = s.current
        if run is None or run.prompt().done or named >= 10:
            break
        if s.menu_open:
            press(s, "OK")
            continue
        options = s.options()
        at = options[selected(s)] if options else None
        if at is not None and at.place is not None:
            board = board_of(s)
            assert board is not None and s.frame.cursor == at.place
            ends_named = [board.name_of(Location(end)) for end in at.place.ends()] if isinstance(at.place, Link) else []
            assert board.name_of(at.place) in at.label or any(name in at.label for name in ends_named), at.label
            check_names(s, at)
            named += 1
        if kinds := s.wanted():
            s.handle(Roll.of(DiceRolled(tuple(Die(k, rng.randint(1, FACES[k])) for k in kinds), "tower")))
        elif options and options[0].label.startswith("Bid"):  # the auctions short: pass, else the least bid
            press(s, *s.presses_to(next((i for i, o in enumerate(options) if o.label == "Pass"), 0)))
        elif options:
            fine = [i for i, o in enumerate(options) if not ends(o)] or [0]
            press(s, *s.presses_to(rng.choice(fine)))
        else:
            press(s, "ROLL")
    assert named >= 10


def reached(options: list[Option], moves: BoardCursor, start: int) -> set[int]:
    """Every option the buttons reach from ``start`` (the session's own rule for a press, lanes and all)."""
    from collections import deque

    from companion.session.board_cursor import ROUTE_BUTTONS, moved
    from companion.session.choices import Offered

    offered = Offered(options, start)
    seen = {(start, None, False)}
    todo = deque([OpenRequest()])
    while todo:
        now = todo.popleft()
        for button in ROUTE_BUTTONS:
            after = moved(offered, moves, now, button)
            if after is not None and (key := (cursor(offered, after.choice), after.lane, after.listing)) not in seen:
                seen.add(key)
                todo.append(after)
    return {at for at, _, _ in seen}


def spaces(cells: list[Cell], unplaced: int) -> list[Option]:
    return [*(Option.of(f"space {n}", Choice("cell", {"x": c.x, "y": c.y})) for n, c in enumerate(cells)),
            *(Option(f"other {n}", Choice(f"other{n}", {})) for n in range(unplaced))]


def test_a_space_whose_nearest_places_all_lie_on_its_diagonals_is_reached():
    """A Carcassonne board had a space (1 east, 4 south) with its nearest spaces only diagonal to it: every arrow from
    them went straight on past it. Such a space is now UP's and DOWN's from a place on its diagonal."""
    cells = [Cell(x, y) for x, y in ((-3, -6), (-3, -5), (-3, -4), (-3, -1), (-2, -7), (-2, -3), (-2, -2), (-2, 0),
                                     (-2, 2), (-1, -6), (-1, -5), (-1, 0), (-1, 1), (-1, 3), (0, -4), (0, -2), (0, 3),
                                     (1, -3), (1, -1), (1, 4), (2, -1), (2, 1), (2, 2), (2, 3), (3, 0))]
    options = spaces(cells, 3)
    moves = BoardCursor.of(options)
    assert moves is not None
    for start in range(len(options)):
        assert reached(options, moves, start) == set(range(len(options)))


def test_no_space_is_out_of_reach_on_a_grown_square_board():
    """Boards grown at random as Carcassonne's grow, some open spaces left out (no tile fits there), a few options
    with no place: from wherever the cursor is, every option is reached."""
    rng = random.Random(11)
    for _ in range(25):
        laid = {Cell(0, 0)}
        for _ in range(rng.randint(3, 70)):
            laid.add(rng.choice(sorted({n for c in laid for n in c.neighbours() if n not in laid})))
        open_cells = sorted({n for c in laid for n in c.neighbours() if n not in laid})
        options = spaces([c for c in open_cells if rng.random() < rng.choice((0.6, 0.8, 1.0))], rng.randint(0, 4))
        moves = BoardCursor.of(options)
        if moves is None:
            continue
        for start in range(len(options)):
            assert reached(options, moves, start) == set(range(len(options))), (open_cells, start)


def test_an_engines_layout_never_starts_the_cursor_on_what_ends_a_turn():
    """Whatever an engine's ``arranged`` says, the cursor does not start on an option that ends a turn: it starts on
    the first that ends nothing (the rule every decision keeps)."""
    from companion.session.board_cursor import offer

    class Laying:
        def arranged(self, state, options):
            return list(options), 0, 2  # says: start on the first, "End turn"

    options = [Option("End turn", Choice("end_turn", {})), Option("Cancel", Choice("cancel", {})),
               Option("Done building", Choice("done_building"), ends_turn=True), Option("Build", Choice("build", {}))]
    offered, moves = offer(Laying(), None, options, None)
    assert moves is None and offered[offered.start].label == "Cancel"
    assert [o.ends for o in options] == [True, False, True, False]
