"""The simulated table end to end: virtual tower on a pty -> real link -> session -> journal -> OLED on luma's
dummy device and PNG frames, with buttons pressed on gpiozero's MockFactory pins."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from companion.dice import DiceRolled
from companion.journal import Journal
from companion.session.autoplay import ScriptedGame

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_session import loader


def test_a_night_through_every_real_part(tmp_path):
    from companion.commands.demo import play_night

    night = [ScriptedGame("race", {"players": 2}), ScriptedGame("race", {"players": 3})]
    with Journal(tmp_path / "j.sqlite") as journal:
        assert play_night(journal, night, seed=5, undo_every=4, reroll_every=3, out=tmp_path / "frames",
                          loader=loader) == 0
        games = journal.games()
        assert [g.finished for g in games] == [True, True]
        sources = {x.event.source for g in games for x in journal.events(g.id) if hasattr(x.event, "source")}
        assert {"tower", "os"} <= sources  # dice over the pty, and ROLL presses on the mock pins
        kinds = {e.kind for g in games for e in journal.entries(g.id)}
        assert kinds == {"event", "undo", "reroll"}  # both asked on the buttons, confirmed, journaled
    frames = sorted((tmp_path / "frames").glob("oled-*.png"))
    assert len(frames) > 20
    from PIL import Image

    last = Image.open(frames[-1]).convert("1")
    assert last.size == (128, 64) and last.getbbox() is not None  # something is drawn


def test_table_parts_are_the_real_ones(tmp_path):
    from companion.sim import build_table, sim_config

    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal, sim_config(headless=True),
                                                                loader=loader, game_keys=("race",)) as table:
        assert table.parts["oled"] == "dummy" and table.parts["buttons"] == "mock pins (keys)"
        assert table.parts["tower"].endswith("dice-tower")
        table.session.start("race", {})
        table.loop.show()
        oled = next(v for v in table.loop.views if type(v).__name__ == "OledView")
        device_image = oled.display.device.image
        assert device_image is not None and device_image.getbbox() is not None
        table.driver.throw(DiceRolled.of(("d8", 6)))
        deadline = time.monotonic() + 10
        while table.session.current.state.pos != 6:
            assert time.monotonic() < deadline, table.session.panel
            table.loop.step(timeout=0.2)
        assert table.session.panel.tower == "connected"
        assert journal.events(table.session.current.game_id)[0].event.source == "tower"


def _step_until(table, condition, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, table.session.panel
        table.loop.step(timeout=0.05)


def test_laptop_window_keys_and_tower_key(tmp_path):
    """pygame (offscreen driver) key events: T throws into the virtual tower, Space presses ROLL on a mock pin."""
    import pygame

    from companion.sim import build_table, sim_config

    def key(kind, code):
        pygame.event.post(pygame.event.Event(kind, key=code, mod=0, unicode="", scancode=0))

    with Journal(tmp_path / "j.sqlite") as journal, build_table(journal, sim_config(), loader=loader,
                                                                game_keys=("race",), tick=0.02) as table:
        assert table.parts["window"] == "pygame"
        table.session.start("race", {})
        table.loop.show()
        key(pygame.KEYDOWN, pygame.K_t)
        _step_until(table, lambda: table.session.current.state.step == "move")
        key(pygame.KEYDOWN, pygame.K_SPACE)
        key(pygame.KEYUP, pygame.K_SPACE)
        _step_until(table, lambda: table.session.current.state.step == "lane")
        assert [x.event.source for x in journal.events(table.session.current.game_id)] == ["tower", "os"]
        window = table.loop.views[-1]
        shot = tmp_path / "window.png"
        pygame.image.save(window.surface, shot)
        assert pygame.transform.average_color(pygame.image.load(shot))[:3] != (0, 0, 0)  # the OLED is drawn


def test_stormfury_to_the_end_then_export_and_import(tmp_path, capsys):
    from companion.cli import main
    from companion.commands.demo import play_night
    from companion.session import Session
    from companion.session.autoplay import ScriptedGame

    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        assert play_night(journal, [ScriptedGame("stormfury")], seed=2) == 0
        [game] = journal.games()
        assert game.finished
        original = Session(journal)
        original.resume(game)
        assert original.panel.prompt is None or original.current.game.prompt(original.current.state).done
    export = tmp_path / "night.jsonl"
    assert main(["export", str(game.id), "--journal", str(path), "--out", str(export)]) == 0
    other = tmp_path / "other.sqlite"
    assert main(["import", str(export), "--journal", str(other)]) == 0
    assert "imported" in capsys.readouterr().out
    with Journal(other) as journal:
        [copy] = journal.games()
        again = Session(journal)
        again.resume(copy)
        assert again.current.state == original.current.state


def test_demo_command_plays_the_night_and_exits_0(tmp_path, capsys):
    from companion.cli import main

    # No frames folder: writing a PNG per frame is the headless frames' own test (test_a_night_through_every_real_part).
    assert main(["demo", "--headless", "--journal", str(tmp_path / "j.sqlite")]) == 0
    out = capsys.readouterr().out
    shown = int(out.split(" games, ")[1].split(" frames shown")[0])
    assert out.startswith("demo: 2 games, ") and shown > 60  # every one of Kansas's events is drawn
    assert "kansas #1: " in out and "stormfury #2: " in out and "left open" not in out  # a night that ends
    with Journal(tmp_path / "j.sqlite") as journal:
        kansas, stormfury = sorted(journal.games(), key=lambda g: g.id)
        assert (kansas.game, kansas.finished, stormfury.game, stormfury.finished) == ("kansas", True,
                                                                                      "stormfury", True)
