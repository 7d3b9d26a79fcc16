"""Who is where on the projector: Stormfury's player tokens read from across a room at 720p and 1080p (a
minimum size against the hex and the screen, a colour and initials each), and no name is drawn over them;
options the rules refuse are not offered."""

from __future__ import annotations

import pygame
import pytest

from companion.commands.snapshot import frame_for
from companion.dice import Choice
from companion.games.stormfury import load
from companion.games.stormfury.painter import TOKEN_SCREEN, TOKEN_SHARE
from companion.session.drawn import painter_of
from companion.views.projector import Layout, render_frame, text
from tests.conftest import REPO

SEATS = [{"role": "aquatic_engineer", "city": "houston"}, {"role": "architect", "city": "houston"},
         {"role": "evac_specialist", "city": "new_orleans"}, {"role": "relief_corps", "city": "new_orleans"}]


@pytest.fixture(scope="module")
def game():
    return load(REPO / "maps")


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_four_players_in_two_cities_show_four_readable_tokens(game, size):
    state = game.new_game({"players": SEATS})
    surface = render_frame(frame_for(game, state), size)
    painter = painter_of(game)
    layout = Layout.fit(game.board.hexes, *size)
    spots = painter.token_spots(layout, state)
    assert len(spots) == 4
    assert len({(colour, painter.initials(role)) for role, _c, _r, colour in spots}) == 4
    assert len({painter.initials(role) for role, *_ in spots}) == 4 and len({c for *_, c in spots}) == 4
    labels = painter._label_rects(layout)
    assert labels, "the board's names were found"
    for role, (cx, cy), r, colour in spots:
        assert r >= TOKEN_SHARE * layout.hex_size - 1 and r >= TOKEN_SCREEN * size[1] - 1
        assert 2 * r >= size[1] * 0.03  # at least as tall as a city's name (3.2 % of the screen)
        box = pygame.Rect(cx - r, cy - r, 2 * r, 2 * r)
        assert box.collidelist(labels) < 0, f"a name is drawn over {role}'s token"
        # the token's colour really is on the finished picture: most of the disc outside its initials
        ring = [(round(cx + dx), round(cy + dy)) for dx, dy in
                ((-0.8 * r, -0.2 * r), (0.8 * r, 0.2 * r), (0, -0.85 * r), (0, 0.85 * r), (-0.6 * r, 0.6 * r))]
        seen = sum(1 for at in ring if tuple(surface.get_at(at))[:3] == colour)
        assert seen >= 4, f"{role}'s token is covered ({seen}/5 of its disc in its colour)"
    centres = [c for _r, c, _rad, _col in spots]
    for i, a in enumerate(centres):  # no two tokens overlap
        for b in centres[i + 1:]:
            assert (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 >= (2 * spots[0][2]) ** 2


def test_a_third_move_is_not_offered(game):
    state = game.new_game({"players": SEATS})
    from companion.dice import Shuffled

    state = game.apply(state, Shuffled(tuple(range(len(game.board.decks[state.deck])))))
    assert state.phase == "players"
    moves = game.board.rules.moves_per_turn
    for _ in range(moves):
        option = next(o for o in game.choices(state) if o.event.action == "move"
                      and o.event.args["player"] == "aquatic_engineer")
        state = game.apply(state, option.event)
    offered = [o for o in game.choices(state)
               if o.event.action == "move" and o.event.args["player"] == "aquatic_engineer"]
    assert offered == []
    with pytest.raises(Exception, match="already travelled"):
        road = game.board.roads_of(state.players[0].city)[0]
        game.apply(state, Choice("move", {"player": "aquatic_engineer", "to": road.other(state.players[0].city)}))
    for option in game.choices(state):  # every option still offered is one the rules take
        game.apply(state, option.event)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_each_defence_shows_who_made_it_in_her_colour(game, size, monkeypatch):
    """Forts, dams and evacuations carry the colour and initials of the player who made them."""
    from dataclasses import replace

    from companion.dice import Shuffled
    from companion.games.stormfury.painter import StormfuryPainter

    state = game.new_game({"players": SEATS})
    state = game.apply(state, Shuffled(tuple(range(len(game.board.decks[state.deck])))))
    houston = game.board.city("houston")
    space = next(s for s in houston.spaces if s.id != "houston.population")
    road = game.board.roads_of("houston")[0]
    state = replace(state, current=1)  # the architect's turn
    state = game.apply(state, Choice("fortify", {"player": "architect", "space": space.id}))
    state = replace(state, current=0)  # the aquatic engineer's turn
    state = game.apply(state, Choice("dam", {"player": "aquatic_engineer", "road": road.id, "city": "houston"}))
    state = game.apply(state, Choice("evacuate", {"player": "aquatic_engineer", "count": 1}))
    assert state.placer(f"fort:{space.id}") == "architect"
    assert state.placer(f"dam:{road.id}:houston") == "aquatic_engineer"
    assert state.placer("evac:houston") == "aquatic_engineer"

    drawn: list[tuple[str, tuple[float, float]]] = []
    original = StormfuryPainter._paint_maker

    def record(self, surface, layout, st, mark, at):
        original(self, surface, layout, st, mark, at)
        if st.placer(mark) is not None:
            drawn.append((mark, at))

    monkeypatch.setattr(StormfuryPainter, "_paint_maker", record)
    surface = render_frame(frame_for(game, state), size)
    painter = painter_of(game)
    marks = dict(drawn)
    assert set(marks) == {f"fort:{space.id}", f"dam:{road.id}:houston", "evac:houston"}
    for mark, at in marks.items():
        colour = painter.seat_colour(state, state.placer(mark))
        r = round(text.minimum(size[1]) * 0.75)
        ring = [(round(at[0] + dx), round(at[1] + dy)) for dx, dy in ((-0.8 * r, 0), (0.8 * r, 0), (0, -0.85 * r))]
        assert sum(1 for p in ring if tuple(surface.get_at(p))[:3] == colour) >= 2, mark
