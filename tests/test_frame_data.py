"""What the projector needs from the rules comes in the frame, worked out by the session: the painter the
game's registry spec names, and the risk map of the state while the overlay is shown. The renderer draws a
frame without asking the rules anything."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from companion.commands.snapshot import frame_for, seeded_state
from companion.games import load_game
from companion.games.registry import spec
from companion.views.projector import render_frame

SIZE = (640, 360)


@pytest.mark.parametrize("key", ["kansas", "stormfury", "carcassonne", "industry", "allegheny"])
def test_the_frame_names_the_painter_of_the_games_spec(key):
    game = load_game(key)
    frame = frame_for(game, seeded_state(game, 1, 4))
    assert frame.painter is not None and frame.painter.reference == spec(key).painter
    assert frame.painter.reference.startswith(f"companion.games.{key}.")  # the painter lives in the game's folder
    assert frame.painter.load().__module__ == f"companion.games.{key}.painter"  # loaded by the games' side


def test_the_risk_map_comes_with_the_overlay_and_follows_the_state():
    game = load_game("kansas")
    first, second = seeded_state(game, 1, 8), seeded_state(game, 2, 8)
    assert frame_for(game, first).risk == {}
    shown = frame_for(game, first, overlay=True)
    assert shown.risk == game.risk_map(first) and shown.risk
    moved = replace(shown, state=second)
    assert moved.risk == game.risk_map(second)
    assert replace(shown, overlay=False).risk == {}


def test_the_renderer_asks_the_rules_nothing(monkeypatch):
    pygame.font.init()
    game = load_game("stormfury")
    state = seeded_state(game, 3, 8)
    frame = frame_for(game, state, overlay=True)
    expected = render_frame(frame, SIZE)

    def refuse(*args, **kwargs):
        raise AssertionError("the renderer asked the engine for its risk")

    monkeypatch.setattr(type(game), "risk_map", refuse)
    again = render_frame(frame, SIZE)
    assert pygame.image.tobytes(again, "RGB") == pygame.image.tobytes(expected, "RGB")
