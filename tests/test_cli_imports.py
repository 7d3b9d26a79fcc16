"""A command imports what it uses: ``companion run`` gets to READY without numpy or an engine, ``--help`` sees all."""

from __future__ import annotations

import subprocess
import sys

import pytest

from companion.cli import build_parser, command_modules, module_for


def _modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after ``code`` (this process has imported everything already)."""
    out = subprocess.run([sys.executable, "-c", f"{code}\nimport sys\nprint('\\n'.join(sys.modules))"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_the_run_command_parses_without_numpy_pygame_or_an_engine():
    loaded = _modules_after("from companion.cli import build_parser, module_for\n"
                            "build_parser(module_for(['run', '--sim'])).parse_args(['run', '--sim'])")
    assert "companion.commands.run" in loaded
    assert not loaded & {"numpy", "pygame", "companion.games.kansas.engine", "companion.games.stormfury.engine",
                         "companion.commands.tornado", "companion.commands.demo"}


@pytest.mark.parametrize(("argv", "module"), [(["run", "--sim"], "run"), (["import", "f.jsonl"], "import_"),
                                              (["--version"], None), (["bogus"], None), ([], None)])
def test_the_command_word_names_its_module(argv, module):
    assert module_for(argv) == module


def test_every_module_registers_the_command_of_its_name():
    for name in command_modules():
        subparsers = build_parser(name)._subparsers._group_actions[0]  # type: ignore[union-attr]
        assert list(subparsers.choices) == [name.rstrip("_")]


def test_a_projector_not_calibrated_onto_a_board_opens_without_numpy_or_the_warp():
    loaded = _modules_after(
        "import os\nos.environ['SDL_VIDEODRIVER'] = 'offscreen'\n"
        "from companion.config import ProjectorConfig\n"
        "from companion.views.projector.outputs import open_projector\n"
        "view = open_projector(ProjectorConfig(driver='offscreen', width=320, height=180, fullscreen=False), print)\n"
        "assert view is not None and view.table is None\n"
        "view.close()")
    assert "pygame" in loaded and not loaded & {"numpy", "companion.views.projector.warp"}


def test_the_oled_on_its_real_driver_is_packed_without_numpy():
    """The box's panel (luma's ssd1306) is written whole, then in part, and numpy is never loaded for it."""
    loaded = _modules_after(
        "from luma.core.interface.serial import noop\n"
        "from luma.oled.device import ssd1306\n"
        "from companion.dice import Die, Prompt\n"
        "from companion.views.oled import render\n"
        "from companion.views.panel import Panel\n"
        "from hardware.oled import Display\n"
        "display = Display(device=ssd1306(noop()))\n"
        "for value in (3, 5):\n"
        "    assert display.show(render(Panel(prompt=Prompt('roll', dice=('d8',)), dice=(Die('d8', value),))))\n"
        "assert display._sent is not None")
    assert "luma.oled.device" in loaded and "numpy" not in loaded


def test_the_simulated_table_headless_without_frames_opens_without_pygame(tmp_path):
    """`companion run --sim --headless` with no --out: nothing would see the map, so neither pygame nor the
    projector's renderer is loaded (they were, for nothing, before it was READY)."""
    loaded = _modules_after(
        "from pathlib import Path\n"
        "from companion.journal import Journal\n"
        "from companion.sim import build_table, sim_config\n"
        f"with Journal(Path({str(tmp_path / 'j.sqlite')!r})) as journal:\n"
        "    with build_table(journal, sim_config(headless=True)) as table:\n"
        "        table.session.start(None, {}, resume=True)\n"
        "        table.loop.show()\n"
        "        assert table.parts['projector'] == 'headless' and table.parts['oled'] == 'dummy'\n"
        "        assert table.parts['buttons'] == 'mock pins (keys)' and table.session.frame is not None")
    assert "companion.sim" in loaded and not loaded & {"pygame", "companion.views.projector.renderer"}
