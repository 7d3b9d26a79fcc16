"""The waiting box: a table left alone gives back the memory kept only for the next frame's speed, and the next
frame is the same as if it had not; a quiet box with nothing to poll turns once a rest tick from its first quiet
second."""

from __future__ import annotations

import queue
import sys
from pathlib import Path

import pygame
import pytest

from companion.commands.snapshot import frame_for
from companion.dice import Choice
from companion.games.carcassonne import load
from companion.journal import Journal
from companion.places import Cell
from companion.session.loop import QUIET_AFTER, REST_AFTER, REST_TICK, SLEEP_AFTER, Loop
from companion.views.projector import ProjectorRenderer
from companion.views.release import give_back_pixels

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_session import Recorder, make, roll

SIZE = (1920, 1080)


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


class Resting(Recorder):
    """A view that keeps memory for its next frame (as the projector's renderer does): counts its rests."""

    def __init__(self) -> None:
        super().__init__()
        self.rests = 0

    def rest(self) -> int:
        self.rests += 1
        return 0


def test_a_table_left_alone_rests_its_views_once_a_quiet_spell_and_an_input_starts_a_new_spell(journal):
    s = make(journal)
    s.start("race", {})
    now = [0.0]
    inbox: queue.Queue = queue.Queue()
    view = Resting()
    loop = Loop(s, inbox, [view], tick=0.03, clock=lambda: now[0])
    assert REST_AFTER > SLEEP_AFTER
    for quiet in (SLEEP_AFTER, REST_AFTER - 0.01):
        now[0] = quiet
        loop.step(timeout=0)
        assert view.rests == 0  # asleep, but a pause between two presses may last this long
    now[0] = REST_AFTER
    loop.step(timeout=0)
    now[0] = REST_AFTER + 5
    loop.step(timeout=0)
    assert view.rests == 1 == loop.rested  # once, however long it stays alone
    inbox.put(roll(("d8", 3)))
    assert loop.step(timeout=0) and len(view.frames) == 1
    now[0] += REST_AFTER
    loop.step(timeout=0)
    assert view.rests == 2 and len(view.frames) == 1  # the next spell rests again, and shows nothing new


def test_a_quiet_box_with_nothing_to_poll_waits_a_rest_tick_from_its_first_quiet_second(journal):
    """Only the queue brings input to the box with no gamepad: after a quiet second the loop turns once a rest
    tick, not ten times a second; a pump that needs polling keeps the idle tick."""
    s = make(journal)
    s.start("race", {})
    now = [0.0]
    loop = Loop(s, queue.Queue(), [Recorder()], tick=0.03, rest_tick=REST_TICK, clock=lambda: now[0])
    loop.add_pump(lambda: False, polled=False)
    assert loop.wait() == 0.03  # in use: the short tick, so the quiet turn after a frame comes at once
    now[0] = QUIET_AFTER
    assert loop.wait() == REST_TICK
    loop.add_pump(lambda: False)
    assert loop.wait() < REST_TICK


@pytest.fixture(scope="module")
def carcassonne():
    """Every step asked, as the painter tests play it."""
    from companion.games.carcassonne.engine import CarcassonneGame

    game = CarcassonneGame(load().data, fold=False)
    state = game.new_game({"players": 2})
    tile = game.catalog.by_key["earthquake"]
    quarters = next(q for q in range(4) if not game.fits(state, Cell(0, -1), tile, q))
    state = game.apply(state, Choice("lay", {"x": 0, "y": -1, "kind": "earthquake", "quarters": quarters}))
    return game, state


def _rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_a_renderer_whose_pieces_all_clip_keeps_no_scratch(carcassonne):
    """Carcassonne's pieces all draw the same through a clip, so a partial repaint (the cursor moved) paints in
    place and the renderer never makes the second 1080p surface: at rest there is nothing to give back."""
    game, state = carcassonne
    renderer = ProjectorRenderer(SIZE)
    renderer.render(frame_for(game, state, cursor=Cell(0, 0)))
    renderer.render(frame_for(game, state, cursor=Cell(0, -1)))
    assert renderer.partial_updates == 1 and renderer.rest() == 0


def test_the_renderer_at_rest_gives_its_scratch_back_and_draws_the_next_frame_the_same(carcassonne, monkeypatch):
    """The repaint scratch's pages go back to the system (the process's resident memory falls by most of a 1080p
    surface) and the cursor moved after the rest is drawn pixel for pixel as by a renderer that never rested. Every
    piece is repainted here as one that does not clip, so the cursor's repaint goes through the scratch."""
    import dataclasses

    import companion.views.projector.renderer as renderer_module

    repaint = renderer_module.repaint
    monkeypatch.setattr(renderer_module, "repaint", lambda surface, base, pieces, rects, scratch: repaint(
        surface, base, [dataclasses.replace(p, clips=False) for p in pieces], rects, scratch))
    game, state = carcassonne
    rested, kept = ProjectorRenderer(SIZE), ProjectorRenderer(SIZE)
    for renderer in (rested, kept):
        renderer.render(frame_for(game, state, cursor=Cell(0, 0)))
        renderer.render(frame_for(game, state, cursor=Cell(0, -1)))  # a partial repaint through the scratch
    assert rested._scratch is not None
    scratch_bytes = rested._scratch.get_pitch() * rested._scratch.get_height()
    before = _rss_kb()
    given = rested.rest()
    assert given >= scratch_bytes - 2 * 4096
    assert before - _rss_kb() >= scratch_bytes // 1024 // 2
    for renderer in (rested, kept):
        renderer.render(frame_for(game, state, cursor=Cell(1, -1)))
        assert renderer.partial_updates == 2
    assert pygame.image.tobytes(rested.surface, "RGB") == pygame.image.tobytes(kept.surface, "RGB")


def test_a_subsurface_is_never_given_back_its_pixels_are_another_surfaces():
    whole = pygame.Surface(SIZE)
    whole.fill((10, 20, 30))
    assert give_back_pixels(whole.subsurface(pygame.Rect(0, 0, 800, 600))) == 0
    assert whole.get_at((5, 5))[:3] == (10, 20, 30)


def test_a_renderer_that_never_repainted_has_nothing_to_give_back():
    assert ProjectorRenderer((320, 180)).rest() == 0


def test_the_box_on_its_menu_repaints_in_place_and_keeps_no_scratch():
    """No game chosen yet (the box's first screen): a new prompt in the status strip is repainted in place over the
    idle picture, which covers the screen, so the renderer makes no second 1080p surface for it either."""
    from companion.session.core import Frame
    from companion.views.panel import Panel
    from companion.views.projector import render_frame

    renderer = ProjectorRenderer(SIZE)
    renderer.render(Frame(Panel(game="", status="choose a game")))
    changed = Frame(Panel(game="", status="choose a game: Kansas Tornadoes?"))
    renderer.render(changed)
    assert renderer.partial_updates == 1 and renderer.dirty
    assert renderer.rest() == 0
    assert pygame.image.tobytes(renderer.surface, "RGB") == pygame.image.tobytes(render_frame(changed, SIZE), "RGB")
