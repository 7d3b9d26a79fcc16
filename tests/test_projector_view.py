"""The projector in the box: no screen means the OLED alone, said once; headless frames; the screen
gets the changed rectangles; ``companion snapshot`` from files and the docs pictures it makes."""

from __future__ import annotations

import json
import logging

import pygame
import pytest

from companion.cli import main
from companion.commands.snapshot import DOCS_SCREENS, frame_for, seeded_state
from companion.config import Config, ProjectorConfig
from companion.dice import Choice, event_to_dict
from companion.games.stormfury import load
from companion.journal import Journal
from companion.session import Press
from companion.sim import attach, build_table, sim_config
from companion.views.projector import ProjectorRenderer, ProjectorView, open_projector
from companion.views.projector.outputs import choose_driver
from tests.conftest import REPO


def same(a, b) -> bool:
    return a.get_size() == b.get_size() and pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


def test_no_display_leaves_the_oled_alone_and_says_so_once(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    config = Config(projector=ProjectorConfig(driver="kmsdrm"))  # no DRM device on a test machine
    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal, sim_config(headless=True)) as table:
        before = list(table.loop.views)
        assert attach(table, "projector", config.projector) is None
        assert attach(table, "projector", config.projector) is None  # replug try
        assert table.loop.views == before and table.parts["projector"] == "none"
        table.session.start("stormfury")
        table.inbox.put(Press("ROLL"))
        assert table.loop.step(timeout=2)  # the game goes on
        notices = [n for n in table.session.frame.panel.notices if n.startswith("projector")]
        assert len(notices) == 1 and "no display" in notices[0]
    lines = [r for r in caplog.records if r.getMessage().startswith("projector: no display")]
    assert len(lines) == 1


def test_sdl_falling_back_to_offscreen_counts_as_no_display(monkeypatch):
    said = []
    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")
    # asking for the desktop's driver (auto under a DISPLAY) where SDL only has offscreen
    monkeypatch.setenv("DISPLAY", ":99")
    assert open_projector(ProjectorConfig(driver="auto", width=320, height=180), said.append) is None
    assert len(said) == 1 and said[0].startswith("projector: no display") and "offscreen" in said[0]
    assert choose_driver("auto", {}) == "kmsdrm" and choose_driver("auto", {"DISPLAY": ":0"}) is None
    assert open_projector(ProjectorConfig(type="disabled"), said.append) is None and len(said) == 1


def test_the_screen_gets_exactly_the_rendered_frame(maps_dir):
    """The renderer draws on SDL's screen itself (a frame is not copied there after it is drawn), and what the
    screen holds after each frame, the whole frame and a change repainted in place, is the frame drawn afresh."""
    from companion.views.projector import render_frame

    game = load(maps_dir)
    view = open_projector(ProjectorConfig(driver="offscreen", width=480, height=270, fullscreen=False), print)
    assert isinstance(view, ProjectorView)
    try:
        assert view.renderer.surface is pygame.display.get_surface()
        state = seeded_state(game, 7, 8)
        first = frame_for(game, state)
        view.show(first)
        assert same(pygame.display.get_surface(), render_frame(first, (480, 270)))
        moved = frame_for(game, state, cursor=game.board.cities[4].population_centre)
        view.show(moved)
        assert view.renderer.full_redraws == 1 and view.renderer.dirty
        assert same(pygame.display.get_surface(), render_frame(moved, (480, 270)))
    finally:
        view.close()


def test_a_calibrated_screen_shows_the_warped_map_and_the_renderer_draws_apart(maps_dir):
    """Calibrated onto a board, the screen shows the warp of the map, so the renderer keeps a surface of its own
    (drawing on the screen, it would leave the unwarped map wherever the warp did not write)."""
    from companion.views.projector.warp import TableProjection

    corners = ((0.0, 0.0, 60.0, 40.0), (480.0, 0.0, 420.0, 30.0), (480.0, 270.0, 440.0, 250.0),
               (0.0, 270.0, 40.0, 240.0))
    config = ProjectorConfig(driver="offscreen", width=480, height=270, fullscreen=False, calibration=corners)
    said: list[str] = []
    view = open_projector(config, said.append)
    assert isinstance(view, ProjectorView) and isinstance(view.table, TableProjection), said
    try:
        assert view.renderer.surface is not pygame.display.get_surface()
        on_screen = ProjectorView(ProjectorRenderer((480, 270), view.screen), view.screen)  # a view made by hand
        assert on_screen.renderer.surface is view.screen
        on_screen.table = view.table  # calibrated afterwards: its renderer draws apart from then on
        assert on_screen.renderer.surface is not view.screen and on_screen.renderer.size == (480, 270)
        game = load(maps_dir)
        view.show(frame_for(game, seeded_state(game, 7, 8)))
        screen = pygame.display.get_surface()
        assert screen.get_at((5, 5))[:3] == (0, 0, 0)  # outside the board's corners: black, not the map
        assert not same(screen, view.renderer.surface)
    finally:
        view.close()


def test_headless_frames_include_the_projector(tmp_path):
    out = tmp_path / "frames"
    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal, sim_config(headless=True, out=out)) as table:
        table.session.start("stormfury")
        table.loop.show()
        table.inbox.put(Press("ROLL"))
        assert table.loop.step(timeout=2)
    maps = sorted(out.glob("projector-*.png"))
    assert len(maps) == 2 and len(sorted(out.glob("oled-*.png"))) == 2
    first, second = (pygame.image.load(str(p)) for p in maps)
    assert first.get_size() == (960, 540) and not same(first, second)  # the forecast appeared


def test_snapshot_from_an_export_and_from_a_replay(tmp_path, maps_dir):
    game = load(maps_dir)
    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal, sim_config(headless=True)) as table:
        table.session.start("stormfury")
        for _ in range(2):
            table.inbox.put(Press("ROLL"))
            table.loop.step(timeout=2)
        game_id = table.session.current.game_id
        state = table.session.current.state
    export = tmp_path / "game.jsonl"
    assert main(["export", str(game_id), "--journal", str(tmp_path / "j.sqlite"), "--out", str(export)]) == 0
    assert main(["snapshot", "stormfury", "--state", str(export), "--out", str(tmp_path / "a.png"),
                 "--size", "640x360"]) == 0
    events = [json.loads(line) for line in export.read_text().splitlines()[1:]]
    replay = tmp_path / "replay.jsonl"
    replay.write_text("".join(json.dumps(e) + "\n" for e in events))
    assert main(["snapshot", "stormfury", "--state", str(replay), "--out", str(tmp_path / "b.png"),
                 "--size", "640x360"]) == 0
    a, b = pygame.image.load(str(tmp_path / "a.png")), pygame.image.load(str(tmp_path / "b.png"))
    assert same(a, b) and a.get_size() == (640, 360)
    from companion.views.projector import render_frame

    assert same(a, render_frame(frame_for(game, state), (640, 360)))


def test_snapshot_refuses_a_bad_state_file_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(event_to_dict(Choice("end_player_phase"))) + "\n")
    assert main(["snapshot", "stormfury", "--state", str(bad), "--out", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "bad.jsonl: event 1" in err
    assert not (tmp_path / "x.png").exists()
    other = tmp_path / "kansas.jsonl"
    other.write_text(json.dumps({"game": "kansas", "options": {}}) + "\n")
    assert main(["snapshot", "stormfury", "--state", str(other), "--out", str(tmp_path / "x.png")]) == 2
    assert "not 'stormfury'" in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(DOCS_SCREENS))
def test_the_docs_pictures_are_what_the_snapshot_command_draws(name, tmp_path):
    out = tmp_path / f"{name}.png"
    assert main(["snapshot", *DOCS_SCREENS[name], "--out", str(out)]) == 0
    docs = REPO / "docs" / "screens" / f"{name}.png"
    assert docs.exists(), f"regenerate: companion snapshot {' '.join(DOCS_SCREENS[name])} --out {docs}"
    assert same(pygame.image.load(str(out)), pygame.image.load(str(docs)))


def test_a_projector_that_goes_away_mid_game_leaves_the_oled_and_is_said_once(tmp_path):
    config = Config(projector=ProjectorConfig(driver="offscreen", width=320, height=180, fullscreen=False))
    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal, sim_config(headless=True)) as table:
        view = attach(table, "projector", config.projector)
        assert isinstance(view, ProjectorView) and view in table.loop.views
        oled = next(v for v in table.loop.views if type(v).__name__ == "OledView")
        table.session.start("kansas")
        table.inbox.put(Press("ROLL"))
        assert table.loop.step(timeout=2) and view.shown >= 1
        pygame.display.quit()  # the projector's display is gone (cable out, SDL closed it)
        shown = oled.shown
        table.inbox.put(Press("ROLL"))
        assert table.loop.step(timeout=2)  # no exception out of the loop: the evening goes on
        assert view not in table.loop.views and oled.shown == shown + 2  # the roll, then the word why
        assert oled.display.device.image is not None
        assert table.session.panel.message.startswith("ProjectorView: off")  # the OLED's footer says it
        for _ in range(2):
            table.inbox.put(Press("ROLL"))
            assert table.loop.step(timeout=2)
        assert oled.shown == shown + 4 and table.session.panel.message == ""  # said once
        said = [n for n in table.session.frame.panel.notices if n.startswith("ProjectorView")]
        assert len(said) == 1 and "display" in said[0]
        first = table.session.frame.state.tornadoes[0]
        assert first.ns is not None and first.we is not None and len(first.moves) == 2  # all 4 rolls counted


def test_a_window_with_no_display_behind_it_is_said(monkeypatch, caplog):
    """SDL falls back to offscreen where there is no display: the laptop window would show nothing."""
    from companion.source_types.projector import warn_if_invisible as _warn_if_invisible

    caplog.set_level(logging.WARNING)
    pygame.display.init()
    try:
        assert pygame.display.get_driver() in ("offscreen", "dummy")
        _warn_if_invisible()  # offscreen asked for (tests, CI): nothing to say
        assert not [r for r in caplog.records if r.getMessage().startswith("window:")]
        monkeypatch.delenv("SDL_VIDEODRIVER")  # not asked for: SDL chose it for want of a display
        _warn_if_invisible()
        said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("window:")]
        assert len(said) == 1 and "--headless --out DIR" in said[0]
    finally:
        pygame.display.quit()


def test_a_kmsdrm_that_would_crash_the_box_is_found_in_a_child_first(monkeypatch, tmp_path):
    """SDL's KMSDRM can abort the process inside set_mode (pygame's parachute) on a DRM card it cannot drive:
    under systemd a restart loop with no map. The open is tried in a child first: its crash is one line, and
    "auto" goes on to wait for a framebuffer."""
    import companion.views.projector.outputs as outputs

    # the child does what SDL's crash does to a process: a fatal error, SIGABRT
    monkeypatch.setattr(outputs, "KMSDRM_PROBE", "import os\nos.abort()\n")
    said: list[str] = []
    assert outputs.ScreenOutput("kmsdrm").open(ProjectorConfig(width=320, height=180), said.append) is None
    assert said == ["projector: no display (KMSDRM crashed (signal 6))"]
    assert pygame.display.get_init() is False or pygame.display.get_driver() != "kmsdrm"  # never tried in here
    monkeypatch.setattr(outputs, "KMSDRM_PROBE", "raise SystemExit('pygame.error: no connected display')\n")
    assert outputs.kmsdrm_trouble((320, 180)) == "no connected display"
    monkeypatch.setattr(outputs, "KMSDRM_PROBE", "pass\n")
    assert outputs.kmsdrm_trouble((320, 180)) == ""
