"""The repaint draws a changed rectangle's pieces through a clip (pieces.Piece.clips, on unless a piece says
otherwise), which is right only for drawing that gives the same pixels through a clip as without one. These
tests hold pygame itself to that for every kind of call the painters make, show the two kinds that do not (an
outlined rectangle, an arc), and check that the box's drawing code makes neither where a piece may be clipped.
The whole games of tests/test_projector_pieces.py check every piece they show through clips as well."""

from __future__ import annotations

import ast
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from companion.views.projector.marks import clipped, outline_rect

ROOT = Path(__file__).resolve().parents[1] / "companion"
W, H = 160, 120


def differs_through_a_clip(draw: Callable[[Any], object], rng: random.Random | None = None) -> pygame.Rect | None:
    """A clip (everything right of, left of, below or above a line, at every second pixel, and 40 rectangles drawn
    from ``rng``) through which ``draw`` gives other pixels than without one; None when there is none."""
    whole = pygame.Surface((W, H))
    whole.fill((30, 60, 90))
    draw(whole)
    rng = rng or random.Random(3)
    boxes = [pygame.Rect(rng.randrange(W), rng.randrange(H), rng.randint(1, W), rng.randint(1, H)).clip(0, 0, W, H)
             for _ in range(40)]
    for at in range(0, W, 2):
        y = at * H // W
        for clip in (pygame.Rect(at, 0, W - at, H), pygame.Rect(0, 0, at + 1, H),
                     pygame.Rect(0, y, W, H - y), pygame.Rect(0, 0, W, y + 1), *(boxes if at == 0 else ())):
            through = pygame.Surface((W, H))
            through.fill((30, 60, 90))
            through.set_clip(clip)
            draw(through)
            through.set_clip(None)
            if pygame.image.tobytes(through.subsurface(clip), "RGB") != pygame.image.tobytes(whole.subsurface(clip),
                                                                                                "RGB"):
                return clip
    return None


def shapes(rng: random.Random) -> dict[str, Callable[[Any], object]]:
    """One drawing of each kind the painters make, its sizes and places drawn from ``rng``."""
    def point() -> tuple[float, float]:
        return rng.uniform(-10, W + 10), rng.uniform(-10, H + 10)

    def far() -> tuple[float, float]:
        return rng.uniform(-5 * W, 6 * W), rng.uniform(-5 * H, 6 * H)

    def box() -> tuple[int, int, int, int]:
        return rng.randint(0, W - 40), rng.randint(0, H - 40), rng.randint(4, 60), rng.randint(4, 60)

    if not pygame.font.get_init():
        pygame.font.init()
    c = (200, 120, 40)
    centre, radius, width = (rng.randint(10, W - 10), rng.randint(10, H - 10)), rng.randint(2, 40), rng.randint(1, 6)
    a, b, poly, rect, lines = point(), point(), [point() for _ in range(5)], box(), [point() for _ in range(4)]
    far_a, far_b = far(), far()
    font = pygame.font.Font(None, rng.randint(10, 40))
    words = font.render("Tulsa 7", True, c)
    return {
        "filled circle": lambda s: pygame.draw.circle(s, c, centre, radius),
        "circle outline": lambda s: pygame.draw.circle(s, c, centre, radius + width, width),
        "line": lambda s: pygame.draw.line(s, c, a, b, 1),
        "thick line": lambda s: pygame.draw.line(s, c, a, b, width + 1),
        "polyline": lambda s: pygame.draw.lines(s, c, False, lines, width),
        "closed polyline": lambda s: pygame.draw.lines(s, c, True, lines, width),
        "line from far off": lambda s: pygame.draw.line(s, c, far_a, far_b, width),
        "filled polygon": lambda s: pygame.draw.polygon(s, c, poly),
        "polygon outline": lambda s: pygame.draw.polygon(s, c, poly, width),
        "ellipse": lambda s: pygame.draw.ellipse(s, c, rect),
        "ellipse outline": lambda s: pygame.draw.ellipse(s, c, rect, width),
        "filled rounded rectangle": lambda s: pygame.draw.rect(s, c, rect, border_radius=radius // 4 + 1),
        "filled rectangle": lambda s: pygame.draw.rect(s, c, rect),
        "rounded rectangle outline": lambda s: pygame.draw.rect(s, c, rect, width, border_radius=radius // 4 + 1),
        "outline_rect": lambda s: outline_rect(s, c, rect, width),
        "text": lambda s: s.blit(words, a),
    }


def test_what_the_painters_draw_is_the_same_through_a_clip():
    """pygame itself, held to what the repaint relies on: pygame-ce is not pinned, so an upgrade that changed how a
    call draws through a clip would fail here."""
    rng = random.Random(7)
    for _ in range(12):
        for name, draw in shapes(rng).items():
            assert differs_through_a_clip(draw, rng) is None, name


def test_an_outlined_rectangle_and_an_arc_are_not_the_same_through_a_clip():
    """Why outline_rect exists and why the key's piece says clips=False (its hills swatch draws arcs)."""
    assert differs_through_a_clip(lambda s: pygame.draw.rect(s, (200, 120, 40), (20, 20, 60, 50), 3)) is not None
    assert differs_through_a_clip(lambda s: pygame.draw.arc(s, (200, 120, 40), (20, 20, 60, 50), 0, 3.1, 3)) \
        is not None


def test_clipped_narrows_the_clip_it_is_given_and_puts_it_back():
    surface = pygame.Surface((W, H))
    surface.set_clip(pygame.Rect(10, 10, 50, 50))
    with clipped(surface, (40, 40, 100, 100)):
        assert surface.get_clip() == pygame.Rect(40, 40, 20, 20)
        surface.fill((255, 255, 255))
    assert surface.get_clip() == pygame.Rect(10, 10, 50, 50)
    assert surface.get_at((65, 65))[:3] == (0, 0, 0) and surface.get_at((45, 45))[:3] == (255, 255, 255)


def test_outline_rect_draws_pygames_outlined_rectangle():
    for w in range(1, 22):
        for h in range(1, 22):
            for width in range(0, 13):
                theirs, ours = pygame.Surface((30, 30)), pygame.Surface((30, 30))
                pygame.draw.rect(theirs, (200, 0, 0), (3, 4, w, h), width)
                outline_rect(ours, (200, 0, 0), (3, 4, w, h), width)
                assert pygame.image.tobytes(ours, "RGB") == pygame.image.tobytes(theirs, "RGB"), (w, h, width)


ARCS_ALLOWED = {"views/projector/textures.py"}
"""Where an arc may be drawn: the terrain's hills, on the board's base (never repainted through a clip) and in the
keys' swatches (every piece that draws a key with swatches says clips=False: the generic key's, Age of Industry's,
and a painter's whole side panel)."""
CLIPS_SET = {"views/projector/marks.py"}
"""Where a surface's clip may be set: ``marks.clipped``, which narrows the clip a piece is drawn through (the repaint
sets its own through it too). A piece that set its own clip would draw past the repaint's."""


def test_no_drawing_code_makes_a_call_a_clip_changes():
    """Outlined rectangles go through outline_rect, antialiased lines are not drawn, arcs only in the terrain's
    patterns, a clip set only through marks.clipped. The board editor draws a window of its own, not pieces, and is
    left out."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        if where.startswith("board_editor/"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "draw"):
                continue
            call, words = node.func.attr, {k.arg for k in node.keywords}
            if call == "rect" and (len(node.args) > 3 or "width" in words) and "border_radius" not in words:
                found.append(f"{where}:{node.lineno} an outlined rectangle")
            elif call in ("aaline", "aalines"):
                found.append(f"{where}:{node.lineno} an antialiased line")
            elif call == "arc" and where not in ARCS_ALLOWED:
                found.append(f"{where}:{node.lineno} an arc")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "set_clip" \
                    and where not in CLIPS_SET:
                found.append(f"{where}:{node.lineno} a clip set (use marks.clipped)")
    assert not found, found
