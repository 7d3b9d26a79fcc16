"""A game is one package: the toy tile game under tests/toygame (a square grid, a D6, a choice at a cell)
registered at run time and played through the real session, journal, OLED and projector, with no
change outside tests/."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from companion.dice import Choice, DiceRolled
from companion.games import registry
from companion.journal import Journal
from companion.places import Cell
from companion.session import Decide, Press, Roll, Session
from companion.session.drawn import painter_of
from companion.views import oled
from companion.views.projector import Layout, ProjectorRenderer, palette, render_frame
from companion.views.projector.painters import BoardPainter
from tests.toygame import PAINTED, SPEC
from tests.toygame.engine import START, ToyGame, ToyState
from tests.toygame.painter import ORDER, Painter

SIZE = (1280, 720)


@pytest.fixture
def toy():
    """The toy packages in the registry for one test, and out of it after."""
    removers = [registry.register(SPEC), registry.register(PAINTED)]
    yield
    for remove in removers:
        remove()
    assert "toy" not in registry.specs()


def pixel(surface, at) -> tuple[int, int, int]:
    return tuple(surface.get_at(at))[:3]


def same(a, b) -> bool:
    return pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


def layout_of(frame) -> Layout:
    return Layout.for_board(frame.game.board_for(frame.state), *SIZE)


def ring_top(layout: Layout, cell: Cell) -> tuple[int, int]:
    """The middle of the cursor ring's top edge around ``cell``."""
    x, y = layout.centre(cell)
    return round(x), round(y - 1.08 * layout.unit)


def roll(value: int) -> Roll:
    return Roll.of(DiceRolled.of(("d6", value)))


def test_a_toy_game_plays_through_session_oled_projector_and_journal(tmp_path, toy):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        s = Session(journal)
        s.start(game="toy", options={"tiles": 2})
        assert s.panel.game == "Toy Tiles" and s.panel.prompt.dice == ("d6",) and s.frame.cursor is None
        s.handle(roll(1))  # a field is drawn
        menu = s.panel.menu
        assert menu.title == "Lay field" and menu.items == ("1 west", "1 north", "1 south", "1 east")
        assert s.frame.cursor == Cell(-1, 0)  # the cursor is on the first option's cell
        first = oled.render(s.panel)
        assert oled.screen_kind(s.panel) == "menu" and first.size == (128, 64)
        s.handle(Press("UP"))  # on the board: up from the west space is the north one
        assert s.frame.cursor == Cell(0, -1) and s.panel.menu.selected == 1
        assert first.tobytes() != oled.render(s.panel).tobytes()  # the OLED's menu moved with it

        frame = s.frame
        surface = render_frame(frame, SIZE)
        layout = layout_of(frame)
        assert pixel(surface, ring_top(layout, Cell(0, -1))) == palette.CURSOR
        assert pixel(surface, ring_top(layout, Cell(-1, 0))) != palette.CURSOR
        assert pixel(surface, layout.probe(START)) == palette.terrain("city")  # the laid start tile

        s.handle(Press("OK"))  # lay the field north of the start
        assert s.current.state.tiles == ((START, "city"), (Cell(0, -1), "field"))
        assert s.panel.result == ("Laid field: 1 north of the start",)
        s.handle(roll(6))  # a monastery
        before = s.current.state
        s.handle(Decide(Choice("lay", {"x": 4, "y": 4})))  # not next to a laid tile: refused, nothing changes
        assert s.current.state is before and "empty cell next to a laid one" in s.panel.message
        shown = render_frame(s.frame, SIZE)
        layout = layout_of(s.frame)
        field = pixel(shown, layout.probe(Cell(0, -1)))
        assert field != palette.terrain("city") and field != palette.BACKGROUND  # the laid field has its fill
        state, cursor = s.current.state, s.frame.cursor

    with Journal(path) as journal:  # the box restarts: the game comes back from the journal
        again = Session(journal)
        again.start()
        assert again.current.game.key == "toy" and again.current.state == state
        assert again.frame.cursor == cursor
        assert same(render_frame(again.frame, SIZE), render_frame(replace(s.frame, panel=again.frame.panel), SIZE))
        again.handle(Press("OK"))  # the monastery goes where the cursor stood
        assert again.current.state.over and again.current.game.prompt(again.current.state).done
        assert again.current.state.tiles[-1] == (cursor, "monastery")


def test_the_board_grows_and_the_renderer_follows_it(toy):
    game = ToyGame()
    state = game.new_game({"tiles": 6})
    renderer = ProjectorRenderer(SIZE)
    from companion.commands.snapshot import frame_for

    units = []
    for x in range(1, 6):  # a row of tiles east of the start: the grid outgrows its first fit
        state = game.apply(game.apply(state, DiceRolled.of(("d6", 3))), Choice("lay", {"x": x, "y": 0}))
        frame = frame_for(game, state)
        surface = renderer.render(frame)
        assert same(surface, render_frame(frame, SIZE))
        layout = renderer.layout
        units.append(layout.unit)
        for cell, _ in state.tiles:  # every laid cell inside the map area
            for px, py in layout.outline(cell):
                assert layout.map.x - 1 <= px <= layout.map.x + layout.map.w + 1
                assert layout.map.y - 1 <= py <= layout.map.y + layout.map.h + 1
        assert pixel(surface, layout.probe(Cell(x, 0))) == pixel(surface, layout.probe(Cell(1, 0)))  # roads
    # 5 cells down fix the size (the map area is wide) until the row and its margin need 8 across
    assert units[:4] == [units[0]] * 4 and units[4] < units[0]
    assert renderer.full_redraws == 5


def test_the_cursor_moves_touch_little_and_equal_a_full_redraw(toy):
    game = ToyGame()
    state = game.apply(game.new_game({}), DiceRolled.of(("d6", 5)))
    from companion.commands.snapshot import frame_for

    renderer = ProjectorRenderer(SIZE)
    first = frame_for(game, state)
    renderer.render(first)
    for option in game.choices(state):
        frame = replace(first, cursor=option.place)
        surface = renderer.render(frame)
        assert renderer.full_redraws == 1
        assert sum(r.w * r.h for r in renderer.dirty) < 0.12 * SIZE[0] * SIZE[1]
        assert same(surface, render_frame(frame, SIZE))


def test_the_risk_overlay_heats_each_laid_cell_by_the_engines_exact_chance(toy):
    game = ToyGame()
    state = ToyState(tiles=((START, "city"), (Cell(1, 0), "field"), (Cell(0, 1), "road")))
    from companion.commands.snapshot import frame_for

    on = render_frame(frame_for(game, state, overlay=True), SIZE)
    layout = Layout.for_board(game.board_for(state), *SIZE)
    assert game.risk_map(state) == {START: 1 / 6, Cell(1, 0): 1 / 3, Cell(0, 1): 1 / 6}
    for cell, p in game.risk_map(state).items():
        assert pixel(on, layout.probe(cell)) == palette.heat(p)


def test_the_shared_painter_draws_the_board_and_names_every_symbol(toy):
    game = ToyGame()
    state = ToyState(tiles=((START, "city"), (Cell(1, 0), "field"), (Cell(0, 1), "monastery")))
    assert isinstance(painter_of(game), BoardPainter) and not isinstance(painter_of(game), Painter)
    from companion.commands.snapshot import frame_for

    surface = render_frame(frame_for(game, state), SIZE)
    layout = Layout.for_board(game.board_for(state), *SIZE)
    side = layout.side
    in_side = {pixel(surface, (x, y)) for x in range(side.x, side.x + side.w, 2)
               for y in range(side.y, side.y + side.h // 2, 2)}
    on_map = {pixel(surface, layout.probe(cell)) for cell, _ in state.tiles}
    assert len(on_map) == 3 and on_map <= in_side  # each kind's fill on the map has its swatch in the key
    open_cell = Cell(2, 0)
    x, y = layout.centre(open_cell)
    edge = round(y - 0.86 * layout.unit)  # the open cell's outline
    assert pixel(surface, (round(x), edge)) == palette.GRID
    assert pixel(surface, (round(x), round(y))) == palette.BACKGROUND


def test_a_game_painter_built_on_the_shared_parts(toy):
    painted = registry.load_game("toypaint")
    state = ToyState(tiles=((START, "city"), (Cell(1, 0), "field")), drawn="road", roll=3)
    assert isinstance(painter_of(painted), Painter)
    from companion.commands.snapshot import frame_for

    mine = render_frame(frame_for(painted, state), SIZE)
    shared = render_frame(frame_for(ToyGame(), state), SIZE)
    layout = Layout.for_board(painted.board_for(state), *SIZE)
    x, y = layout.centre(Cell(1, 0))
    disc = (round(x - 0.22 * layout.unit), round(y))  # on the lay-order disc, clear of its number
    assert pixel(mine, disc) == ORDER and pixel(shared, disc) != ORDER
    assert pixel(mine, layout.probe(Cell(1, 0))) == pixel(shared, layout.probe(Cell(1, 0)))  # same board under it


def test_the_options_are_listed_once_per_state_not_once_per_press(tmp_path, toy, monkeypatch):
    """An arrow press only moves the cursor: the engine's list (long for Carcassonne's spaces) is made once for
    the state, not again at every press (it was made twice a press)."""
    calls = []
    listed = ToyGame.choices

    def counted(self, state):
        calls.append(state)
        return listed(self, state)

    monkeypatch.setattr(ToyGame, "choices", counted)
    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal)
        s.start(game="toy", options={"tiles": 2})
        s.handle(roll(1))  # a field is drawn: four places to lay it
        made = len(calls)
        assert made >= 1 and s.panel.menu.items == ("1 west", "1 north", "1 south", "1 east")
        for button in ("UP", "RIGHT", "DOWN", "LEFT", "RIGHT"):  # round the start tile, then across it
            assert s.handle(Press(button))
        assert len(calls) == made and s.panel.menu.selected == 3
