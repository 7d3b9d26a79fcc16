"""Fewer presses for a Carcassonne turn, through the real session: the likely answer first, the steps the rules
leave one answer to not asked, a tile that fits nowhere discarded, and the light mode.

Run as a script (``python tests/test_carcassonne_presses.py``) it plays scripted whole 3-player games in tile mode
and in the light mode and prints the presses a table makes: per turn (median, p90) and per game.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.dice import Choice
from companion.games.base import Option
from companion.games.carcassonne import load
from companion.games.carcassonne.engine import CarcassonneGame
from companion.games.carcassonne.state import CarcState
from companion.journal import Journal
from companion.places import Cell
from companion.session import Decide, Press, Session

TRUTH = load()
"""The table's own game, known tile by tile: what is really drawn, laid and deployed."""


@dataclass
class Table:
    """A scripted table: the session it presses buttons on, and the presses each turn cost."""

    session: Session
    presses: dict[int, int] = field(default_factory=dict)
    turn: int = 1

    def pick(self, wanted: Callable[[Choice], bool]) -> Option:
        """Move the OLED's cursor to the first option whose event is ``wanted`` (the shorter way round) and
        press OK, counting every press."""
        s = self.session
        options = s.options()
        at = next((i for i, o in enumerate(options) if wanted(o.event)), None)
        assert at is not None, (s.panel.prompt.short, [o.label for o in options])
        menu = s.panel.menu
        assert menu is not None
        n = len(options)
        down, up = (at - menu.selected) % n, (menu.selected - at) % n
        button, steps = ("DOWN", down) if down <= up else ("UP", up)
        for _ in range(steps):
            self.press(button)
        while s.panel.menu is not None and s.panel.menu.selected != at:  # a list that would not wrap
            self.press("DOWN")
        self.press("OK")
        if s.panel.menu is not None and s.panel.menu.title.endswith("?") and options[at].event.action == "end":
            self.press("OK")  # ending the game asks to confirm
        return options[at]

    def press(self, button: str) -> None:
        self.session.handle(Press(button))
        self.presses[self.turn] = self.presses.get(self.turn, 0) + 1


def same(event: Choice, action: str, **args: Any) -> bool:
    return event.action == action and all(event.args.get(k) == v for k, v in args.items())


def bag(seed: int) -> list[str]:
    """The tiles of a game without the river, shuffled: the base game's but the start tile, and the new ones."""
    tiles = [t.key for t in TRUTH.catalog.types if not t.river for _ in range(t.count)]
    tiles.remove(TRUTH.catalog.start.key)
    random.Random(seed).shuffle(tiles)
    return tiles


def play(mode: str, seed: int = 1, players: int = 3) -> dict[int, int]:
    """A whole game with the same tiles and the same choices, entered in ``mode``; the presses of each turn."""
    with tempfile.TemporaryDirectory() as folder, Journal(Path(folder) / "j.sqlite") as journal:
        s = Session(journal)
        s.start(game="carcassonne", options={"players": players, "board": mode})
        table = Table(s)
        truth = TRUTH.new_game({"players": players})
        tiles = bag(seed)
        while truth.phase != "over":
            table.turn = truth.turn
            rng = random.Random(f"{seed}:{truth.turn}:{truth.phase}:{len(tiles)}")
            event = decide(truth, tiles, rng)
            if event.action == "discard" and not hasattr(TRUTH, "unlayable"):
                continue  # a box from before discards: the tile cannot be entered, the bag never empties
            enter = ENTER[mode]
            enter(table, truth, event)
            truth = TRUTH.apply(truth, event)
        return table.presses


def decide(truth: CarcState, tiles: list[str], rng: random.Random) -> Choice:
    """What the table does now: lay the tile drawn somewhere it fits (or discard it), deploy half the time, move
    the tornado anywhere legal, aim the meteor at random and let everyone pass, flood anywhere."""
    phase = truth.phase
    if phase == "cell":
        if not tiles:
            return Choice("end", {})
        key = tiles.pop()
        tile = TRUTH.catalog.by_key[key]
        if tile.disaster in ("meteor", "flood"):
            return Choice(tile.disaster, {})
        spots = [(c, q) for c in TRUTH.open_cells(truth) for q in tile.rotations() if not TRUTH.fits(truth, c, tile, q)]
        if not spots:
            return Choice("discard", {"kind": key})
        cell, quarters = rng.choice(spots)
        return Choice("lay", {"x": cell.x, "y": cell.y, "kind": key, "quarters": quarters})
    options = TRUTH.choices(truth)
    if phase == "deploy":
        spots = [o.event for o in options if o.event.action == "deploy"]
        return rng.choice(spots) if spots and rng.random() < 0.5 else Choice("pass", {})
    if phase == "meteor_move":
        return Choice("pass", {})
    return rng.choice(options).event


def enter_tiles(table: Table, truth: CarcState, event: Choice) -> None:
    """Tile mode: the space, the kind and the turn (each asked only when the box cannot know it), everything
    else as it happens."""
    s = table.session
    state: CarcState = s.current.state
    if event.action == "discard" and not any(o.event.action == "discard" for o in s.options()):
        return  # a box that cannot record it: the tile is simply not entered
    if event.action == "end" and state.phase != "cell":
        return  # the box ended the game itself
    if state.phase != truth.phase and truth.phase in getattr(CarcassonneGame, "FOLDED_PHASES", ()):
        return  # a step the box took itself
    if event.action != "lay":
        table.pick(lambda e: e.action == event.action and e.args == event.args)
        return
    a = event.args
    table.pick(lambda e: same(e, "cell", x=a["x"], y=a["y"]) or same(e, "lay", x=a["x"], y=a["y"], kind=a["kind"]))
    if s.current.state.phase == "kind":
        table.pick(lambda e: e.args.get("kind") == a["kind"])
    if s.current.state.phase == "rotation":
        table.pick(lambda e: e.args.get("quarters") == a["quarters"])


ENTER: dict[str, Callable[[Table, CarcState, Choice], None]] = {"tiles": enter_tiles}


def figures(presses: dict[int, int]) -> tuple[float, float, int, int]:
    """Median and p90 presses a turn, presses a game, turns."""
    per_turn = sorted(presses.values())
    p90 = per_turn[min(len(per_turn) - 1, int(0.9 * len(per_turn)))]
    return statistics.median(per_turn), p90, sum(per_turn), len(per_turn)


# -- the tests --------------------------------------------------------------------------------------------------

def session(tmp_path: Path, **options: Any) -> Session:
    s = Session(Journal(tmp_path / "j.sqlite"))
    s.start(game="carcassonne", options={"players": 3, **options})
    return s


def decided(s: Session, action: str, **args: Any) -> None:
    s.handle(Decide(Choice(action, args)))
    assert s.panel.message == "", s.panel.message


def test_the_kinds_that_fit_come_first_most_numerous_left_first(tmp_path):
    """The likely tile first: only kinds left in the bag that fit the space, the kind with most left on top."""
    s = session(tmp_path)
    Table(s).pick(lambda e: same(e, "cell", x=1, y=0))
    state = s.current.state
    labels = [o.label for o in s.options()]
    left = [TRUTH.remaining(state, TRUTH.catalog.by_key[o.event.args["kind"]]) for o in s.options()]
    assert left == sorted(left, reverse=True) and labels[0] == "Road bend"  # 9 in the bag
    fit = {tile.key for tile, _ in TRUTH.layable(state, Cell(1, 0))}
    assert {o.event.args["kind"] for o in s.options()} == fit and "city4" not in fit  # its west side meets a road
    assert s.panel.menu is not None and s.panel.menu.selected == 0


def test_the_only_turn_that_fits_is_not_asked(tmp_path):
    """A kind that fits one way only is laid at once, whether picked from the list or named (typed)."""
    s = session(tmp_path)
    decided(s, "cell", x=0, y=-1)  # north of the start's city: a city corner fits two ways, a city edge one
    options = {o.label: o.event for o in s.options()}
    assert options["City edge"].action == "lay" and options["City corner"].action == "kind"
    decided(s, "kind", kind="city_edge")
    state = s.current.state
    assert state.phase == "deploy" and state.tiles[Cell(0, -1)].kind == "city_edge"
    assert state.tiles[Cell(0, -1)].quarters == 2  # its city south, on the start's


def test_a_tile_that_fits_nowhere_is_discarded_and_the_bag_still_empties(tmp_path):
    """"In the rare case that a drawn tile cannot be placed anywhere, it is discarded and the player draws
    another" (base rules): the box offers it only for a kind that fits no space, counts it out of the bag, and
    the same player goes on."""
    s = session(tmp_path)
    decided(s, "lay", x=0, y=-1, kind="city_edge", quarters=2)  # Red closes the start's city
    decided(s, "pass")
    labels = [o.label for o in s.options()]
    assert [x for x in labels if x.startswith("Discard")] == ["Discard City all sides"]
    before = TRUTH.bag_left(s.current.state)
    Table(s).pick(lambda e: same(e, "discard", kind="city4"))
    state = s.current.state
    assert TRUTH.bag_left(state) == before - 1 and state.current == 1 and state.phase == "cell"
    assert state.recent == ("Blue: City all sides fits nowhere, discarded",)
    s.handle(Decide(Choice("discard", {"kind": "road"})))
    assert s.panel.message == "Road fits on 1 west, 1 north of the start: it is laid, not discarded"


def test_no_follower_is_asked_when_none_can_be_deployed(tmp_path):
    """With every follower on the board the deploy step has one answer: the turn passes at once."""
    s = session(tmp_path, players=2, board="cells")
    for x in range(1, 15):  # a row east, each player deploying on each tile until none is left
        decided(s, "lay", x=x, y=0, kind="", quarters=0)
        decided(s, "deploy", x=x, y=0, segment=-1)
    assert s.current.state.supply == (0, 0)
    decided(s, "lay", x=15, y=0, kind="", quarters=0)
    state = s.current.state
    assert state.phase == "cell" and state.turn == 16 and state.current == 1


def test_a_journal_that_names_the_steps_the_box_now_takes_itself_replays_alike(tmp_path):
    """Games saved before the folds resume: their events name each forced step (the only tornado path, no
    follower), and the same game entered now, without them, comes to the same board."""
    from companion.games.base import replay

    asked = CarcassonneGame(TRUTH.data, fold=False)
    state = asked.new_game({"players": 2, "board": "cells"})
    events = []
    for x in range(1, 4):
        events += [Choice("lay", {"x": x, "y": 0, "kind": "", "quarters": 0}), Choice("pass", {})]
    events.append(Choice("lay", {"x": 4, "y": 0, "kind": "tornado_field", "quarters": 0}))
    state = replay(asked, {"players": 2, "board": "cells"}, events)
    forced = []
    while state.phase == "tornado":  # along a line: some moves have one path
        options = asked.choices(state)
        events.append(options[0].event)
        if len(options) == 1:
            forced.append(len(events) - 1)
        state = asked.apply(state, options[0].event)
    assert forced and state.phase == "deploy"
    old = replay(TRUTH, {"players": 2, "board": "cells"}, events)
    new = replay(TRUTH, {"players": 2, "board": "cells"}, [e for i, e in enumerate(events) if i not in forced])
    assert old.phase == new.phase == "deploy" and old.tornado == new.tornado == state.tornado
    assert old.board == new.board and old.recent[-1] == new.recent[-1] == "The tornado leaves the board"


def test_a_whole_game_in_tile_mode_costs_fewer_presses_than_before():
    """A scripted whole 3-player game through the real session: the box before these changes took 1,304 to
    1,381 presses, 16 a turn at the median (the same tiles and choices)."""
    median, _, total, turns = figures(play("tiles", 3))
    assert turns == 77 and median <= 15 and total < 1304


def main(argv: list[str]) -> int:
    seeds = [int(a) for a in argv] or [1, 2, 3]
    for mode in ENTER:
        for seed in seeds:
            median, p90, total, turns = figures(play(mode, seed))
            print(f"{mode:6} seed {seed}: {turns} turns, {median:.1f} a turn (median), p90 {p90}, {total} a game")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
