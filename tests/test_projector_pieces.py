"""The projector repaints a new state piece by piece: played through the real session, every frame it
shows is the frame drawn from scratch, pixel for pixel; every piece keeps to its rectangle; and a roll
touches a small part of the screen, not all of it (a Stormfury card move too)."""

from __future__ import annotations

import random
from typing import Any

import pygame
import pytest

from companion.commands.snapshot import seeded_state
from companion.dice import Choice, DiceRolled, DiceSource, Die
from companion.games import load_game
from companion.games.stormfury.painter import StormfuryPainter
from companion.inputs import Decide, Press, Roll
from companion.journal import Journal
from companion.session.core import Session
from companion.views.projector import Layout, ProjectorRenderer, palette
from companion.views.projector.pieces import Piece, damage, merge
from companion.views.projector.renderer import render_frame

SIZE = (960, 540)


def same(a: pygame.Surface, b: pygame.Surface) -> bool:
    return pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


def stray_pixels(piece: Piece, size: tuple[int, int]) -> pygame.Rect | None:
    """Where ``piece`` draws outside its rectangle, drawn alone on a clear surface (None: nowhere)."""
    alone = pygame.Surface(size, pygame.SRCALPHA)
    alone.fill((0, 0, 0, 0))
    piece.draw(alone)
    drawn = alone.get_bounding_rect()
    if drawn.w == 0 or piece.rect.contains(drawn):
        return None
    return drawn


_STRIPES: dict[tuple[int, int], pygame.Surface] = {}


def clipped_differently(piece: Piece, size: tuple[int, int]) -> pygame.Rect | None:
    """A clip rectangle through which ``piece`` draws other pixels than without one, or draws outside it, or which it
    does not leave as it found it (None: none of those tried). Tried: its rectangle cut at seven places each way,
    each side of each cut, over a background of stripes (a piece's pixels may blend with what lies under them). Only
    the piece's rectangle is drawn and compared (its pixels stay inside it: :func:`stray_pixels`)."""
    r = piece.rect.clip(pygame.Rect((0, 0), size))
    if r.w < 2 or r.h < 2:
        return None
    if size not in _STRIPES:
        _STRIPES[size] = pygame.Surface(size)
        for y in range(0, size[1], 4):
            _STRIPES[size].fill((40 + y % 160, 90, 140 - y % 120), (0, y, size[0], 2))
    under = _STRIPES[size]
    whole, through = under.copy(), under.copy()
    piece.draw(whole)
    clips = []
    for k in range(1, 8):
        x, y = r.x + k * r.w // 8, r.y + k * r.h // 8
        clips += [pygame.Rect(r.x, r.y, x - r.x, r.h), pygame.Rect(x, r.y, r.right - x, r.h),
                  pygame.Rect(r.x, r.y, r.w, y - r.y), pygame.Rect(r.x, y, r.w, r.bottom - y)]
    expected = under.copy()
    for clip in (c for c in clips if c.w and c.h):
        through.blit(under, r, r)
        expected.blit(under, r, r)
        expected.blit(whole, clip, clip)  # the piece inside the clip, what was under it outside
        through.set_clip(clip)
        piece.draw(through)
        left = through.get_clip()
        through.set_clip(None)
        if left != clip or pygame.image.tobytes(through.subsurface(r), "RGB") != \
                pygame.image.tobytes(expected.subsurface(r), "RGB"):
            return clip
    return None


def check_frame(renderer: ProjectorRenderer, frame: Any, checked: set[object], label: object) -> None:
    """The frame drawn piece by piece is the one drawn afresh, and each piece not seen before keeps to its
    rectangle and, unless it says otherwise (``clips=False``), draws the same through a clip, which the repaint
    relies on (``checked``: the keys seen so far)."""
    drawn = renderer.render(frame)
    for piece in renderer.shown_pieces:  # first: a piece breaking its promise is named, not only the frame
        if piece.key not in checked:
            checked.add(piece.key)
            assert stray_pixels(piece, SIZE) is None, f"{piece.key!r} draws outside its rectangle"
            if piece.clips:
                clip = clipped_differently(piece, SIZE)
                assert clip is None, f"{piece.key!r} draws otherwise through the clip {tuple(clip)}: say clips=False"
    assert same(drawn, render_frame(frame, SIZE)), f"{label} differs from one drawn afresh"


def play_checking(s: Session, table: Any, steps: int, name: str) -> tuple[ProjectorRenderer, set[object]]:
    """Up to ``steps`` of ``table`` playing the session's game to its end, every frame checked
    (:func:`check_frame`); the renderer and the keys of every piece shown."""
    renderer = ProjectorRenderer(SIZE)
    checked: set[object] = set()
    for step in range(steps):
        check_frame(renderer, s.frame, checked, f"{name}: frame {step}")
        if s.current is not None and s.current.prompt().done:
            break
        table.act(s)
    return renderer, checked


def act(s: Session, rng: random.Random, overlay: bool = True) -> None:
    """One thing a table does: the dice asked for, else an option, now and then the cursor or the overlay."""
    r = rng.random()
    if r < 0.04 and overlay:
        s.handle(Press("OVERLAY"))
    elif s.panel.menu is not None and s.panel.menu.title.endswith("?"):
        s.handle(Press("OK"))
    elif s.wanted():
        s.handle(Roll.of(DiceRolled(tuple(Die(k, rng.randint(1, 8 if k == "d8" else 6)) for k in s.wanted()),
                                    "tower")))
    elif r < 0.55 and s.options():
        s.handle(Press(rng.choice(("UP", "DOWN", "LEFT", "RIGHT"))))  # on a board the cursor goes any way
    elif s.panel.menu is not None and s.panel.menu.items[s.panel.menu.selected] == "End: final scoring":
        s.handle(Press("UP"))  # Carcassonne has no last turn: this table plays on to meet every disaster
    else:
        s.handle(Press("OK"))


class Table:
    """A table playing through :func:`act`, now and then walking a menu down to the first option naming
    one of ``wanted`` and taking it: a random walk seldom gets far down a long menu (Stormfury's dams
    and evacuations come after every move and fort)."""

    def __init__(self, rng: random.Random, wanted: tuple[str, ...] = (), share: float = 0.2) -> None:
        self.rng = rng
        self.wanted = wanted
        self.share = share
        self.walking = False

    def aim(self) -> tuple[str, ...]:
        """The option names this step walks to."""
        return self.wanted

    def act(self, s: Session, overlay: bool = True) -> None:
        wanted = self.aim()
        menu = s.panel.menu
        # a decision's options by their index among all of them (the OLED lists one place's only while its short
        # list is open), a menu of the box's own by its items
        names = [o.label for o in s.options()] if menu is not None and not s.menu_open else menu.items if menu else ()
        targets = [i for i, item in enumerate(names) if any(w in item for w in wanted)]
        if menu is not None and targets and (self.walking or self.rng.random() < self.share):
            presses = s.presses_to(targets[0])  # the shortest way, on the board or round the list
            self.walking = len(presses) > 1
            s.handle(Press(presses[0]))
        else:
            self.walking = False
            act(s, self.rng, overlay)


STORMFURY_CARDS = ("dam ", "evacuate")
"""The Stormfury options the table walks to: defences a random walk down the menu seldom reaches."""


@pytest.mark.parametrize(("game", "options", "steps", "wanted"),
                         [("kansas", {"players": 4, "forecaster": 2}, 2000, ()),
                          ("stormfury", {"players": 4}, 1000, STORMFURY_CARDS)])
def test_every_frame_of_a_game_is_the_frame_drawn_from_scratch(tmp_path, game, options, steps, wanted):
    table = Table(random.Random(11), wanted)
    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal, dice=DiceSource(seed=4))
        s.start(game, options)
        renderer, checked = play_checking(s, table, steps, game)
        assert s.current is not None
        assert s.current.prompt().done, "the game did not reach its end"
        kinds = {k[0] for k in checked if isinstance(k, tuple)}
        if game == "kansas":
            assert renderer.partial_updates > 100
            assert {"track line", "track start", "stack", "ring", "funnel", "grid", "label", "heat", "text", "die",
                    "key", "cursor", "status"} <= kinds
        else:
            assert renderer.partial_updates > 100
            assert {"reach tint", "reach edge", "road", "storm track", "forecast path", "space", "city", "chevron",
                    "token", "storm centre", "card", "legend token", "damage chart", "label", "heat", "text", "key",
                    "cursor", "status"} <= kinds
            shown = [k for k in checked if isinstance(k, tuple)]
            roads = [k for k in shown if k[0] == "road"]
            assert any(flooded for _, _, flooded, _ in roads), "no flooded road"
            assert any(who for _, _, _, dams in roads for _, who in dams), "no dam with its maker"
            spaces = [k for k in shown if k[0] == "space"]
            assert any(destroyed for _, _, destroyed, _, _ in spaces), "no destroyed space"
            assert any(forts and who for _, _, _, forts, who in spaces), "no fort with its maker"
            cities = [k for k in shown if k[0] == "city"]
            assert any(loss for _, _, _, loss, _ in cities), "no city lost people"
            assert any(who for _, _, _, _, who in cities), "no evacuation with its maker"


def repainted_share(renderer: ProjectorRenderer, frame: Any, what: str) -> float:
    """``frame`` drawn after ``what`` changed it: it must not repaint the whole screen; the share it repainted."""
    before = renderer.full_redraws
    renderer.render(frame)
    assert renderer.full_redraws == before, f"{what} repainted the whole screen"
    return sum(r.w * r.h for r in renderer.dirty) / (SIZE[0] * SIZE[1])


def move_shares(s: Session, table: Any, renderer: ProjectorRenderer, steps: int, counts: Any, what: str) -> list[float]:
    """Up to ``steps`` of the table's moves (overlay off) until the game ends; for each one ``counts(old, new)``
    accepts, the share of the screen it repainted (see :func:`repainted_share`)."""
    shares = []
    for _ in range(steps):
        if s.current is not None and s.current.prompt().done:
            break
        old = s.frame.state
        table.act(s, overlay=False)
        if counts(old, s.frame.state):
            shares.append(repainted_share(renderer, s.frame, what))
        else:
            renderer.render(s.frame)
    return shares


def test_a_roll_repaints_a_small_part_of_the_screen(tmp_path):
    """A D6 pair moves the tornado: the rectangles sent to the screen cover a fraction of it."""
    renderer = ProjectorRenderer(SIZE)
    rng = random.Random(2)
    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal, dice=DiceSource(seed=4))
        s.start("kansas", {"players": 4})
        renderer.render(s.frame)
        shares = []
        for _ in range(400):
            wanted = s.wanted()
            if wanted == ("d6", "d6"):
                s.handle(Roll.of(DiceRolled.of(("d6", rng.randint(1, 6)), ("d6", rng.randint(1, 6)))))
                shares.append(repainted_share(renderer, s.frame, "a roll"))
            else:
                act(s, rng, overlay=False)
                renderer.render(s.frame)
        assert len(shares) > 20
        assert max(shares) < 0.35 and sorted(shares)[len(shares) // 2] < 0.2



def card_move(old: Any, new: Any) -> bool:
    """Whether ``new`` is ``old`` after a player's card in the player phase: she travelled or built."""
    if getattr(old, "phase", None) != "players" or getattr(new, "phase", None) != "players":
        return False
    return old.placed_by != new.placed_by or [p.city for p in old.players] != [p.city for p in new.players]


def test_a_card_move_repaints_a_small_part_of_the_screen(tmp_path):
    """A Stormfury player travels, builds a fort or a dam, or evacuates: the rectangles sent to the screen
    cover a fraction of it (her token, the mark, the panel's changed rows), and no move repaints it all."""
    renderer = ProjectorRenderer(SIZE)
    table = Table(random.Random(5), STORMFURY_CARDS)
    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal, dice=DiceSource(seed=4))
        s.start("stormfury", {"players": 4})
        renderer.render(s.frame)
        shares = move_shares(s, table, renderer, 1000, card_move, "a card move")
        assert len(shares) > 10
        assert max(shares) < 0.2 and sorted(shares)[len(shares) // 2] < 0.08, sorted(shares)


def test_the_storm_tints_each_pixel_of_its_reach_once_hex_by_hex():
    """The footprint's tint is a piece per hex, each through a layer the size of its hex: drawn together
    they give the one full-screen layer's picture, also at a size where neighbouring hexes share
    pixels (tinted twice, a shared pixel would come out darker)."""
    game = load_game("stormfury")
    state = seeded_state(game, 7, 8)
    painter = StormfuryPainter(game)
    size = (640, 360)
    layout = Layout.for_board(painter.map_data().shaped(), *size)
    hexes = painter.footprint(state)
    assert len(hexes) > 5
    colour = (*palette.category_colour(state.category), 110)
    whole = pygame.Surface(size, pygame.SRCALPHA)
    for h in hexes:
        pygame.draw.polygon(whole, colour, layout.polygon(h, 0.96))
    one_layer = pygame.Surface(size)
    one_layer.fill(palette.TERRAIN["ocean"])
    one_layer.blit(whole, (0, 0))
    by_hex = pygame.Surface(size)
    by_hex.fill(palette.TERRAIN["ocean"])
    tints = [p for p in painter.state_pieces(layout, state) if p.key[0] == "reach tint"]
    assert len(tints) == len(hexes)
    for piece in tints:
        piece.draw(by_hex)
    assert same(by_hex, one_layer)
    twice = pygame.Surface(size)  # the neighbours' shared pixels exist here: without care they would show
    twice.fill(palette.TERRAIN["ocean"])
    for h in hexes:
        alone = pygame.Surface(size, pygame.SRCALPHA)
        pygame.draw.polygon(alone, colour, layout.polygon(h, 0.96))
        twice.blit(alone, (0, 0))
    assert not same(twice, one_layer)

def test_damage_is_the_pieces_that_came_or_went():
    screen = pygame.Rect(0, 0, 100, 100)
    draw = lambda s: None  # noqa: E731
    a, b, c = (Piece("a", pygame.Rect(0, 0, 10, 10), draw), Piece("b", pygame.Rect(50, 50, 10, 10), draw),
               Piece("c", pygame.Rect(5, 5, 10, 10), draw))
    assert damage([a, b], [a, b], screen) == []
    assert damage([a, b], [a], screen) == [pygame.Rect(50, 50, 10, 10)]
    assert damage([a], [a, c], screen) == [pygame.Rect(5, 5, 10, 10)]
    moved = Piece("a", pygame.Rect(20, 0, 10, 10), draw)  # the same key elsewhere: both places repaint
    assert sorted(map(tuple, damage([a], [moved], screen))) == [(0, 0, 10, 10), (20, 0, 10, 10)]
    assert merge([pygame.Rect(0, 0, 10, 10), pygame.Rect(5, 5, 10, 10)], screen) == [pygame.Rect(0, 0, 15, 15)]
    assert merge([pygame.Rect(0, 0, 90, 90)], screen) == [screen], "most of the screen: all of it"
    diagonal = [pygame.Rect(0, 0, 20, 20), pygame.Rect(18, 18, 20, 20)]  # their union is mostly neither
    assert sorted(map(tuple, merge(diagonal, screen))) == [(0, 0, 20, 20), (18, 18, 20, 20)]


# -- Age of Industry ("Japan and Minnesota") ---------------------------------------------------------------------

INDUSTRY_ENTRIES = ("Build industry", "Build rail link", "Build ship")
"""The Age of Industry entries the table walks to (one picked at random each time), so counters, rail links, ships
and sea lanes come onto the map: a random walk seldom gets past the first entry of the menu."""


class IndustryTable(Table):
    """A :class:`Table` whose target is one of ``INDUSTRY_ENTRIES`` picked afresh for each walk down the menu."""

    def aim(self) -> tuple[str, ...]:
        if not self.walking:
            self.target = self.rng.choice(INDUSTRY_ENTRIES)
        return (self.target,)


@pytest.mark.parametrize("board", ["Japan", "Minnesota"])
def test_every_frame_of_an_industry_game_is_the_frame_drawn_from_scratch(tmp_path, board):
    """Age of Industry on either map, played through the session: every frame shown is the frame drawn
    afresh, every piece keeps to its rectangle, and rail links, badges, counters, panel lines and the key
    all came as pieces."""
    table = IndustryTable(random.Random(7), share=0.5)
    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal, dice=DiceSource(seed=4))
        s.start("industry", {"players": 3, "map": board})
        renderer, checked = play_checking(s, table, 400, board)
    kinds = {k[0] for k in checked if isinstance(k, tuple)}
    assert renderer.partial_updates > 100
    assert {"rail", "badge", "counters", "ship", "text", "key", "label", "status"} <= kinds, kinds
    if board == "Japan":
        assert "lane" in kinds, "no live sea lane"
    else:
        assert any(k[0] == "counters" and k[3] is not None for k in checked if isinstance(k, tuple)), "no iron market"


def industry_build(old: Any, new: Any) -> bool:
    """Whether ``new`` is ``old`` after an entry that changed the map: a counter, rail link or ship built,
    flipped or emptied, or a cube taken."""
    if getattr(old, "map", None) is None or getattr(new, "map", None) is None:
        return False
    return (old.counters, old.rails, old.ships, old.markets) != (new.counters, new.rails, new.ships, new.markets)


@pytest.mark.parametrize("board", ["Japan", "Minnesota"])
def test_an_industry_build_repaints_a_small_part_of_the_screen(tmp_path, board):
    """A counter, rail link or ship entered: the rectangles sent to the screen cover a fraction of it (the new
    mark, the badges whose value changed, the panel lines), and no entry repaints it all."""
    renderer = ProjectorRenderer(SIZE)
    table = IndustryTable(random.Random(3), share=0.5)
    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal, dice=DiceSource(seed=4))
        s.start("industry", {"players": 3, "map": board})
        renderer.render(s.frame)
        shares = move_shares(s, table, renderer, 600, industry_build, "an entry")
        assert len(shares) > 10
        assert max(shares) < 0.1 and sorted(shares)[len(shares) // 2] < 0.03, sorted(shares)


# -- Age of Rail: Allegheny -------------------------------------------------------------------------------------

RAIL_MOVES = ("Done building", "Develop", "Pass")
"""The Allegheny options the table walks to: a random walk keeps bidding (Pass comes after sixty bids) and building
(the end of a build menu is seldom
reached) and so seldom develops a location."""

def test_every_frame_of_an_allegheny_game_is_the_frame_drawn_from_scratch(tmp_path):
    """Auctions, track laid link by link, developments, the P&LE: every frame the renderer shows piece by
    piece is the frame drawn afresh, and every piece keeps to its rectangle."""
    table = Table(random.Random(7), RAIL_MOVES, 0.3)
    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal, dice=DiceSource(seed=4))
        s.start("allegheny", {"players": 4})
        renderer, checked = play_checking(s, table, 600, "allegheny")
        assert renderer.partial_updates > 100
        shown_keys = [k for k in checked if isinstance(k, tuple)]
        kinds = {k[0] for k in shown_keys}
        assert {"track", "tag", "base", "auto", "bonus", "pips", "sample", "text", "key", "cursor", "status"} <= kinds
        assert any(k[2] for k in shown_keys if k[0] == "pips"), "no location developed"
        assert any(not dashed for *_, dashed in (k for k in shown_keys if k[0] == "tag")), "no railroad named"


def test_an_allegheny_move_repaints_a_small_part_of_the_screen(tmp_path):
    """A bid, a pass, a link built or a location developed: the rectangles sent to the screen cover a
    few percent of it (the link and its name, the pips, the panel's changed rows), and none repaints it all."""
    renderer = ProjectorRenderer(SIZE)
    table = Table(random.Random(3), RAIL_MOVES, 0.3)
    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal, dice=DiceSource(seed=4))
        s.start("allegheny", {"players": 4})
        renderer.render(s.frame)
        shares, built = [], 0
        for _ in range(600):
            if s.current is not None and s.current.prompt().done:
                break
            old = s.frame.state
            table.act(s, overlay=False)
            new = s.frame.state
            before = renderer.full_redraws
            renderer.render(s.frame)
            if new is not old and old is not None and new.phase == old.phase:
                assert renderer.full_redraws == before, f"a move in the {new.phase} phase repainted the whole screen"
                shares.append(sum(r.w * r.h for r in renderer.dirty) / (SIZE[0] * SIZE[1]))
                built += len(new.tracks) > len(old.tracks)
        assert len(shares) > 30 and built > 3
        # a link or a bid: a few percent; the most, a new line under the auction moving the rows below it
        assert max(shares) < 0.25 and sorted(shares)[len(shares) // 2] < 0.03, sorted(shares)


# -- Carcassonne: Natural Disasters ------------------------------------------------------------------------------

CARCASSONNE_WANTED = ("Tornado", "Earthquake", "Drew the", "Red: ", "Blue: ", "Yellow: ")
"""The Carcassonne options the table walks to: the disaster tiles and followers (the first option, taken
by a random walk most often, is "No follower")."""


def test_every_frame_of_a_carcassonne_game_is_the_frame_drawn_from_scratch(tmp_path):
    """Tiles, followers, the tornado, the meteor and the quake through the real session: each frame drawn
    piece by piece is the one drawn afresh, every piece keeps to its rectangle, and a step that lays no
    tile (a follower, a tornado move, a menu step) repaints a small part of the screen."""
    table = Table(random.Random(11), CARCASSONNE_WANTED, 0.3)
    renderer = ProjectorRenderer(SIZE)
    checked: set[object] = set()
    shares = []
    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal, dice=DiceSource(seed=4))
        s.start("carcassonne", {"players": 3})
        renderer.render(s.frame)
        overlay = bool(s.frame.overlay)
        for step in range(500):
            old = s.frame.state
            table.act(s)
            frame = s.frame
            before = renderer.full_redraws
            check_frame(renderer, s.frame, checked, f"carcassonne: frame {step}")
            new = frame.state
            if (old is not None and new is not None and old.board == new.board and bool(frame.overlay) == overlay
                    and new is not old and new.turn == old.turn):  # a new turn repaints the players' panel
                assert renderer.full_redraws == before, f"step {step} repainted the whole screen, no tile laid"
                shares.append(sum(r.w * r.h for r in renderer.dirty) / (SIZE[0] * SIZE[1]))
            overlay = bool(frame.overlay)
            if s.current is not None and s.current.prompt().done:
                break
    kinds = {k[0] for k in checked if isinstance(k, tuple)}
    assert {"tile", "follower", "tornado path", "tornado ring", "funnel", "meteor ring", "meteor aims", "player disc",
            "text", "carcassonne key", "cursor", "status"} <= kinds, kinds
    assert renderer.partial_updates > 100
    assert len(shares) > 90
    assert max(shares) < 0.35 and sorted(shares)[len(shares) // 2] < 0.05, sorted(shares)


def test_the_carcassonne_flood_and_quake_drawn_piece_by_piece_are_the_frames_drawn_afresh(tmp_path):
    """The river, the flood laid and spreading, the earthquake's zone and its hits at the end (a random
    table seldom gets the river going): every frame as drawn afresh, every piece inside its rectangle."""
    def lay(x: int, y: int, kind: str, quarters: int = 0) -> Decide:
        return Decide(Choice("lay", {"x": x, "y": y, "kind": kind, "quarters": quarters}))

    skip = Decide(Choice("pass", {}))
    moves = [lay(0, 1, "spring"), skip, lay(0, 2, "river_cities"), skip, lay(-1, 1, "earthquake"), skip,  # R B Y
             lay(1, 0, "road", 1), skip, Decide(Choice("flood", {})), Press("DOWN"), Press("OK"),  # Blue floods 2 south
             lay(2, 0, "road", 1), skip, lay(3, 0, "road", 1), skip,                                  # Yellow, Red
             Press("OK"), Decide(Choice("end", {})), Press("OK")]  # the flood spreads; the quake strikes
    renderer = ProjectorRenderer(SIZE)
    checked: set[object] = set()
    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal, dice=DiceSource(seed=4))
        s.start("carcassonne", {"players": 3, "river": "yes"})
        check_frame(renderer, s.frame, checked, "carcassonne: the first frame")
        spread = False
        for n, move in enumerate(moves):
            s.handle(move)
            assert s.panel.message == "", (n, s.panel.message)
            check_frame(renderer, s.frame, checked, f"carcassonne: frame {n}")
            flood = s.frame.state.flood
            spread |= flood is not None and flood.spread
    floods = [k for k in checked if isinstance(k, tuple) and k[0] == "flood"]
    assert {spread for _, _, spread, _ in floods} == {False, True}, "the flood was not shown laid and spread"
    assert any(isinstance(k, tuple) and k[0] == "quake" and k[2] for k in checked), "no city hit by the quake"
