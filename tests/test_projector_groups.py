"""The map layer in groups: a group the painter keeps is the same object while what it shows is unchanged, the
renderer compares only the groups that changed and never misses a piece that came or went, the stores that
keep groups stay bounded, and what was made cheaper (a panel line measured once, a repaint in place through a
clip) gives the same pixels as before."""

from __future__ import annotations

import random

import pygame
import pytest

from companion.games.kansas import KansasGame, load
from companion.games.kansas.painter import KansasPainter, die_piece
from companion.session.drawn import drawn_of
from companion.views.panel import Panel
from companion.views.projector import Layout, text
from companion.views.projector.layout import Rect
from companion.views.projector.marks import shadow_layer
from companion.views.projector.pieces import Memo, Piece, compare, paint_all, repaint, shown
from companion.views.projector.renderer import side_inner
from companion.views.projector.status import status_groups, status_pieces
from tests.conftest import REPO
from tests.test_kansas_rules import d6, d8, play

SIZE = (960, 540)
NOTHING = lambda s: None  # noqa: E731


@pytest.fixture(scope="module")
def game() -> KansasGame:
    return load(REPO / "maps")


def same(a: pygame.Surface, b: pygame.Surface) -> bool:
    return pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


def piece(name: str, x: int) -> Piece:
    return Piece(name, pygame.Rect(x, 0, 10, 10), NOTHING)


# -- comparing groups --------------------------------------------------------------------------------------------

def test_a_kept_group_adds_nothing_and_a_new_one_adds_what_came_or_went():
    a, b, c = piece("a", 0), piece("b", 20), piece("c", 40)
    kept, old = (a,), (b,)
    last = shown([kept, old])
    now, changed = compare(last, [kept, (c,)])
    assert {i.key for i in changed} == {"b", "c"}
    assert now[id(kept)] is last[id(kept)], "the kept group's identities are taken over, not made again"
    _, changed = compare(now, [kept, (c,)])
    assert changed == set(), "nothing changed: the same groups again"
    _, changed = compare(now, [kept, (piece("c", 40),)])
    assert changed == set(), "a new group of the same pieces: compared, and the same"


def test_comparing_groups_never_misses_a_piece_that_came_or_went():
    """Random frames of random groups, some kept from the last frame: the pieces reported cover every piece
    in one frame and not the other (the flat comparison the renderer made before)."""
    rng = random.Random(3)
    pool = [piece(f"p{k}", 10 * k) for k in range(40)]
    groups = [tuple(rng.sample(pool, rng.randint(0, 5))) for _ in range(6)]
    last = shown(groups)
    for _ in range(300):
        new = [g if rng.random() < 0.6 else tuple(rng.sample(pool, rng.randint(0, 5)))
               for g in rng.sample(groups, len(groups))]
        if rng.random() < 0.3:
            new.append(tuple(rng.sample(pool, 2)))
        if rng.random() < 0.2:
            new.append(new[0])  # the same group twice in one frame
        now, changed = compare(last, new)
        before = {p.identity for g in groups for p in g}
        after = {p.identity for g in new for p in g}
        assert before ^ after <= changed
        groups, last = new, now


# -- the stores ---------------------------------------------------------------------------------------------------

def test_the_memo_is_bounded_and_keeps_what_was_asked_for_last():
    memo = Memo(3)
    made: list[str] = []
    for key in ("a", "b", "c"):
        memo.get(key, lambda key=key: made.append(key) or key)
    memo.get("a", lambda: made.append("a again"))  # asked again: now the most recent
    memo.get("d", lambda: made.append("d") or "d")  # past the limit: "b", asked longest ago, goes
    assert len(memo) == 3
    memo.get("a", lambda: made.append("a again"))
    memo.get("b", lambda: made.append("b again") or "b")
    assert made == ["a", "b", "c", "d", "b again"]


def test_the_memo_asked_by_identity_tells_equal_objects_apart():
    memo = Memo(8)
    one, other = [1, 2], [1, 2]
    first = memo.same(one, "k", lambda: object())
    assert memo.same(one, "k", lambda: object()) is first
    assert memo.same(other, "k", lambda: object()) is not first


# -- the Kansas painter's groups ----------------------------------------------------------------------------------

def test_a_roll_keeps_the_groups_it_did_not_change(game):
    painter = KansasPainter(game)
    layout = Layout.fit(painter.map_data().hexes, *SIZE)
    inner = side_inner(layout, False)
    first = play(game, game.new_game({"players": 4}), d8(7), d8(3), d6(4, 3), d6(1, 2))
    t1_state = first
    while t1_state.phase == "tornado" and t1_state.current is not None and t1_state.current.number == 1:
        t1_state = game.apply(t1_state, d6(1, 5) if game.need(t1_state) == "move" else d8(4))
    before = play(game, t1_state, d8(2), d8(6))  # tornado 2 started: tornado 1 finished
    after = game.apply(before, d6(4, 3))

    def handed(state):  # as the renderer does: the session's answers for the state, then its groups
        painter.use(drawn_of(game, state))
        return state

    state_before = painter.state_groups(layout, handed(before))
    state_after = painter.state_groups(layout, handed(after))
    assert state_before[0] is state_after[0], "the finished tornado's track is the same group"
    assert state_before[-1] is state_after[-1], "the grid numbers are the same group"
    assert painter.state_pieces(layout, after) == [p for g in state_after for p in g]
    side_before = painter.side_groups(layout, inner, handed(before))
    side_after = painter.side_groups(layout, inner, handed(after))
    assert side_before[0] is side_after[0], "the key is the same group"
    assert side_before[1] is side_after[1], "the turn's title is the same group"
    assert side_before[2] is not side_after[2], "what happened changed"
    assert painter.side_pieces(layout, inner, after) == [p for g in side_after for p in g]
    again = painter.side_groups(layout, inner, after)
    assert all(a is b for a, b in zip(again, side_after, strict=True)), "the same state: the same groups"


def test_a_column_keeps_its_groups_by_key_and_height():
    kept = Memo(16)
    rect = Rect(10, 10, 300, 200)

    def write(col: text.Column) -> None:
        col.line("Markers on the map: 3", text.BODY, (240, 240, 240))

    def column(first: str) -> text.Column:
        col = text.Column(None, rect, 540, [], kept)
        col.line(first, text.BODY, (240, 240, 240))  # outside any group: a group of its own
        col.group(("markers", 3), write)
        return col

    one, two = column("Turn 1"), column("Turn 2")
    assert one.finish()[1] is two.finish()[1], "the same key at the same height: the same rows"
    assert [p.key for p in one.pieces or []] == [p.key for g in one.finish() for p in g]
    low = text.Column(None, rect, 540, [], kept)
    low.gap(0.1)
    low.group(("markers", 3), write)
    assert low.finish()[0] != one.finish()[1], "lower down: other rows"
    short = text.Column(None, Rect(10, 10, 300, 5), 540, [], kept)
    short.group(("markers", 3), write)
    assert short.full and short.finish() == [()], "a line that does not fit leaves the column full"


def test_the_status_strip_is_its_background_kept_and_its_words_kept_by_what_they_say():
    layout = Layout.fit([], *SIZE)
    a = status_groups(layout, Panel(game="Kansas Tornadoes", status="Turn 1", message=""))
    b = status_groups(layout, Panel(game="Kansas Tornadoes", status="Turn 1", message=""))
    c = status_groups(layout, Panel(game="Kansas Tornadoes", status="Turn 2", message=""))
    assert a[0] is b[0] is c[0]
    assert a[1] is b[1] and a[1] is not c[1]
    assert status_pieces(layout, Panel(game="Kansas Tornadoes", status="Turn 2")) == [*c[0], *c[1]]
    assert {p.key[0] for p in c[0]} == {"status strip"} and c[0][0].clips


# -- cheaper, the same pixels -------------------------------------------------------------------------------------

def test_a_line_that_fits_whole_wraps_as_measuring_word_by_word_would():
    rng = random.Random(5)
    sample = ("Tornado 2 of 4, move 3 4: roll 2D6 for the path (the last left map: again) Marker on NW "
              "Concordia fff iiii WWW = 7 NE off Just happened Kept city markers")
    words = sample.split(" ")
    for _ in range(400):
        line = " ".join(rng.choice(words) for _ in range(rng.randint(1, 12)))
        size, width, bold = rng.choice((12, 21, 32)), rng.randint(20, 500), rng.random() < 0.5
        font = text.font(size, bold)
        rows: list[str] = []
        for word in line.split():
            if rows and font.size(f"{rows[-1]} {word}")[0] <= width:
                rows[-1] = f"{rows[-1]} {word}"
            else:
                rows.append(word)
        assert text.wrap(line, size, width, bold) == rows, (line, size, width)


def test_a_repaint_in_place_through_a_clip_equals_a_paint_from_scratch():
    """A fill and a text image repaint clipped to the damage, in place; a piece that does not clip reaching out
    of the damage goes through the scratch surface, made only then: both end as the frame painted whole."""
    pygame.font.init()
    base = pygame.Surface(SIZE)
    base.fill((30, 60, 90))
    strip = (0, 0, SIZE[0], 40)
    fill = Piece("strip", pygame.Rect(strip), lambda s: pygame.draw.rect(s, (20, 20, 20), strip), clips=True)
    outline = Piece("box", pygame.Rect(100, 100, 200, 100),
                    lambda s: pygame.draw.rect(s, (200, 0, 0), (100, 100, 200, 100), 3), clips=False)
    old = [fill, text.piece("status", "roll 2D6", (10, 20), 21, (230, 159, 0), anchor="midleft"), outline]
    new = [fill, text.piece("status", "roll a D8", (10, 20), 21, (230, 159, 0), anchor="midleft"), outline,
           Piece("dot", pygame.Rect(140, 140, 30, 30), lambda s: pygame.draw.circle(s, (0, 200, 0), (155, 155), 14))]
    surface, fresh, scratch = pygame.Surface(SIZE), pygame.Surface(SIZE), pygame.Surface(SIZE)
    paint_all(surface, base, old)
    _, changed = compare(shown([tuple(old)]), [tuple(new)])
    rects = [pygame.Rect(i.rect) for i in changed]
    asked: list[pygame.Surface] = []
    repaint(surface, base, new, rects, lambda: asked.append(scratch) or scratch)
    paint_all(fresh, base, new)
    assert same(surface, fresh)
    assert asked, "the dot's rectangle touches the outline, which does not clip: through the scratch"
    calm = [fill, text.piece("status", "roll 2D6", (10, 20), 21, (230, 159, 0), anchor="midleft"), outline]
    asked.clear()
    repaint(surface, base, calm, [pygame.Rect(0, 0, 300, 40)], lambda: asked.append(scratch) or scratch)
    assert not asked, "the strip's rectangle holds pieces that clip: no scratch asked for"
    assert surface.get_clip() == surface.get_rect(), "the clip is lifted again"


def test_a_die_keeps_to_its_rectangle_and_a_d6_to_its_square():
    for kind, values in (("d6", range(1, 7)), ("d8", (*range(1, 9), None))):
        for value in values:
            made = die_piece(kind, value, (50.0, 40.0), 39)
            alone = pygame.Surface((200, 200), pygame.SRCALPHA)
            made.draw(alone)
            assert made.rect.contains(alone.get_bounding_rect()), (kind, value)
            if kind == "d6":
                assert tuple(made.rect) == (50, 40, 39, 39)
    assert die_piece("d6", 3, (50.0, 40.0), 39) is die_piece("d6", 3, (50.0, 40.0), 39)


def test_a_mark_shadow_is_made_once_per_shape_and_size():
    assert shadow_layer("circle", 12.5) is shadow_layer("circle", 12.5)
    assert shadow_layer("circle", 12.5).get_size() != shadow_layer("circle", 20.0).get_size()
