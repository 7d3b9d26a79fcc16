"""Age of Industry on the projector: built links in their owner's colour with their value now, live sea lanes,
the per-player ledger and the Japan display in the side panel; and ``companion snapshot industry`` at 1280x720."""

from __future__ import annotations

from companion.cli import main
from companion.dice import Choice
from companion.games import load_game
from companion.places import Link, Location
from companion.session.core import Frame
from companion.session.drawn import painter_of
from companion.views.panel import Panel
from companion.views.projector import Layout, palette, render_frame

SIZE = (1280, 720)
GAME = load_game("industry")


def play(state, *entries):
    for action, args in entries:
        state = GAME.apply(state, Choice(action, args))
    return state


def japan_built():
    state = GAME.new_game({"map": "Japan", "players": 3})
    state = play(state, *[("deal", {"card": c}) for c in ("coal", "cotton", "port", "ship", "iron", "goods")])
    return play(state,
                ("industry", {"location": "kobe", "kind": "port", "owner": "Blue"}),
                ("industry", {"location": "takamatsu", "kind": "port", "owner": "Green"}),
                ("ship", {"space": "harima", "owner": "Green", "tech": 2}),
                ("link", {"from": "osaka", "to": "kobe", "owner": "Red"}),
                ("link", {"from": "okayama", "to": "hiroshima", "owner": "Red"}),
                ("card", {"space": 1, "how": "paid", "player": "Blue"}))


def test_a_built_link_is_drawn_in_its_owners_colour_and_the_side_panel_holds_the_ledger():
    state = japan_built()
    painter = painter_of(GAME, state)  # handed the rules' answers for this state, as the renderer does
    assert type(painter).__name__ == "IndustryPainter"
    surface = render_frame(Frame(Panel(game=GAME.title), GAME, state), SIZE)
    layout = Layout.for_board(GAME.board_for(state), *SIZE)
    a, b = layout.centre(Location("okayama")), layout.centre(Location("hiroshima"))
    quarter = (a[0] + (b[0] - a[0]) * 0.18, a[1] + (b[1] - a[1]) * 0.18)  # on the line, beside the badge
    assert tuple(surface.get_at((round(quarter[0]), round(quarter[1]))))[:3] == (213, 94, 0)  # Red
    lines = [line for line, _ in painter.side_lines(state)]
    assert "Red: $7" in lines and "Blue: $0" in lines and "Deck: 33" in lines
    assert "2  $2  Cotton mill - taken by Blue" in lines
    assert GAME.ledger_json(state)["lanes"] == [["kobe", "takamatsu"]]
    assert GAME.ledger_json(state)["links"][0] == {"link": ["kobe", "osaka"], "owner": "Red", "value": 4,
                                                   "ends": [1, 0]}


def test_the_cursor_sits_on_the_location_an_option_names():
    state = play(japan_built(), ("industry", {}), ("industry", {"page": 1}))
    options = GAME.choices(state)
    osaka = next(o for o in options if o.label == "Osaka")
    assert osaka.place == Location("osaka")
    link = next(o for o in GAME.choices(play(state, ("cancel", {}), ("link", {"from": "kyoto"})))
                if o.label == "Osaka")
    assert link.place == Link("osaka", "kyoto")


def test_snapshot_draws_a_seeded_minnesota_game_at_720p(tmp_path, capsys):
    out = tmp_path / "industry.png"
    code = main(["snapshot", "industry", "--seed", "4", "--events", "60", "--option", "map=Minnesota",
                 "--size", "1280x720", "--out", str(out)])
    assert code == 0 and out.stat().st_size > 10_000
    assert "Minnesota turn" in capsys.readouterr().out
    import pygame

    image = pygame.image.load(str(out))
    assert image.get_size() == SIZE
    assert tuple(image.get_at((5, SIZE[1] // 2)))[:3] == palette.BACKGROUND
