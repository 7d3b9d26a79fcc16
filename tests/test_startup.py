"""`companion run` gets to READY paying only for what the box shows and listens to (issue 16's start-up budget).

The box process is the benchmark's: the framebuffer output drawn into a regular file, buttons on gpiozero's
MockFactory pins, the tower unplugged, the OLED's I2C bus absent. What it imports before READY is read from
``python -X importtime`` (written to stderr as each module loads, before the "ready:" log line).
"""

from __future__ import annotations

import gc
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from luma.core.device import dummy
from luma.core.error import DeviceNotFoundError

from companion.dice import Die, Prompt
from companion.views.oled import render
from companion.views.panel import Panel
from hardware import oled
from hardware.oled import Display, OledSettings, open_device

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy", "GPIOZERO_PIN_FACTORY": "mock",
       "PYGAME_HIDE_SUPPORT_PROMPT": "1"}

BOX = """\
import sys
from pathlib import Path
import companion.commands.run as run
import hardware.oled
run.DEVICES = hardware.oled.DEVICES = Path({devices!r})
from companion.cli import main
sys.exit(main(sys.argv[1:]))
"""

NOT_BEFORE_READY = ("numpy", "PIL", "luma.oled", "luma.core.interface", "luma.core.device", "smbus2",
                    "companion.views.oled", "companion.games.kansas.engine", "companion.games.kansas.risk",
                    "companion.games.stormfury.engine", "companion.journal.salvage", "companion.views.projector.board",
                    "companion.views.projector.painters", "companion.views.projector.overlay")
"""What a box starting on its menu does not use before READY: the OLED's drivers and images (its bus is absent),
the engines and their risk, a damaged journal's salvage, and a game's board, painter and overlay."""


def _imported_before_ready(command: list[str], cwd: Path) -> tuple[set[str], str]:
    """The modules ``command`` (a ``companion`` process, ``--stdin`` so a typed quit ends it once READY) imported
    before its "ready:" line, and that line."""
    done = subprocess.run([sys.executable, "-X", "importtime", *command, "--stdin"], cwd=cwd, env=ENV,
                          input="quit\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stderr.splitlines()
    ready = next(i for i, line in enumerate(lines) if "ready:" in line)
    modules = {line.split("|")[-1].strip() for line in lines[:ready] if line.startswith("import time:")}
    return modules, lines[ready]


def _top(modules: set[str]) -> set[str]:
    """``modules`` and each one's parent packages."""
    return {".".join(name.split(".")[:n]) for name in modules for n in range(1, name.count(".") + 2)}


def _framebuffer(tmp: Path) -> tuple[Path, Path]:
    """A 1920x1080 XRGB8888 framebuffer as a regular file, and its sysfs folder (as the benchmark's)."""
    sysfs = tmp / "sys-fb0"
    sysfs.mkdir()
    (sysfs / "virtual_size").write_text("1920,1080\n")
    (sysfs / "bits_per_pixel").write_text("32\n")
    (sysfs / "stride").write_text(f"{1920 * 4}\n")
    device = tmp / "fb0"
    with device.open("wb") as f:
        f.truncate(1920 * 1080 * 4)
    return device, sysfs


def test_the_box_without_its_oled_gets_ready_without_pillow_luma_numpy_or_an_engine(tmp_path):
    """The OLED's bus is absent: luma would refuse it after importing its drivers, smbus2 and Pillow; the box
    looks at the bus first, and draws no panel image no one can see. The first frame is on the framebuffer."""
    device, sysfs = _framebuffer(tmp_path)
    devices = tmp_path / "dev"
    devices.mkdir()
    (devices / "gpiochip0").touch()  # the buttons' chip, so the hardware check lets the box start
    config = tmp_path / "config.toml"
    config.write_text(f'[projector]\ndriver = "fbdev"\nframebuffer = "{device}"\nframebuffer_sysfs = "{sysfs}"\n'
                      'width = 1920\nheight = 1080\n\n[tower]\nport = ""\n')
    modules, ready = _imported_before_ready(
        ["-c", BOX.format(devices=str(devices)), "run", "--config", str(config), "--journal",
         str(tmp_path / "j.sqlite")], REPO)
    assert "oled absent" in ready and "projector fbdev fullscreen" in ready and "buttons gpio" in ready
    assert {"pygame", "gpiozero", "firmware_bridge.link"} <= modules  # the map drawn, buttons and tower listened to
    assert not _top(modules) & set(NOT_BEFORE_READY)
    assert any(device.read_bytes())  # the first frame is on the screen


def test_the_simulated_table_headless_gets_ready_without_numpy_or_an_engine(tmp_path):
    modules, ready = _imported_before_ready(
        ["-m", "companion", "run", "--sim", "--headless", "--journal", str(tmp_path / "j.sqlite")], REPO)
    assert "oled dummy" in ready and "buttons mock pins (keys)" in ready
    assert "companion.views.oled" in modules and "luma.core.device" in modules  # the OLED drawn, on luma's dummy
    assert not _top(modules) & {"numpy", "luma.oled", "companion.games.kansas.engine",
                                "companion.games.stormfury.engine"}  # luma's drivers: for a real panel only


def test_the_simulated_table_resumes_a_kansas_game_without_numpy(tmp_path):
    """The engine is loaded and its game replayed before READY; its exact risk (numpy) only when the overlay
    asks for it, not with the engine."""
    from companion.journal import Journal

    with Journal(tmp_path / "j.sqlite") as journal:
        journal.new_game("kansas", {"players": 4})
    modules, _ = _imported_before_ready(
        ["-m", "companion", "run", "--sim", "--headless", "--journal", str(tmp_path / "j.sqlite")], REPO)
    assert "companion.games.kansas.engine" in modules
    assert not _top(modules) & {"numpy", "companion.games.kansas.risk"}


def test_a_missing_i2c_bus_is_refused_with_luma_s_error_before_its_drivers_load(tmp_path, monkeypatch):
    monkeypatch.setattr(oled, "DEVICES", tmp_path)
    with pytest.raises(DeviceNotFoundError, match=f"I2C device not found: {tmp_path}/i2c-1"):
        open_device(OledSettings())
    out = subprocess.run([sys.executable, "-c",
                          "import sys\nfrom pathlib import Path\nimport hardware.oled as o\n"
                          f"o.DEVICES = Path({str(tmp_path)!r})\n"
                          "d = o.Display(o.OledSettings())\nassert not d.present and 'i2c-1' in d.absent_reason\n"
                          "print(' '.join(sys.modules))"], cwd=REPO, capture_output=True, text=True, check=True)
    assert not _top(set(out.stdout.split())) & {"PIL", "smbus2", "luma.oled", "luma.core.interface"}


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_panel_image_is_drawn_only_once_a_device_takes_it():
    """On the box the Display's writer thread draws the image it is handed: with no OLED there, nothing is
    drawn; plugged in later, the newest image is drawn once and shown."""
    clock = Clock()
    device = dummy(mode="1")
    plugged: list[bool] = []
    drawn: list[int] = []

    def opener(settings):
        if not plugged:
            raise DeviceNotFoundError("I2C device not found: /dev/i2c-1")
        return device

    def draw(value: int):
        def image():
            drawn.append(value)
            return render(Panel(prompt=Prompt("roll", dice=("d8",)), dice=(Die("d8", value),)))
        return image

    display = Display(opener=opener, clock=clock, reopen_s=10.0, background=False)
    assert display.show(draw(3)) is False and display.show(draw(4)) is False
    assert drawn == [] and not display.present
    plugged.append(True)
    clock.now += 10.0
    assert display.flush() is True
    assert drawn == [4]
    assert device.image.tobytes() == draw(4)().tobytes()


def test_the_collector_is_held_off_until_ready_then_runs_again(tmp_path, monkeypatch, restore_logging):
    """The start's objects are built with the cyclic collector off and frozen at READY; it runs again after,
    and after a start that failed too."""
    from companion.cli import main
    from companion.sdnotify import Notifier

    seen: list[tuple[bool, int]] = []
    monkeypatch.setattr(Notifier, "ready", lambda self: seen.append((gc.isenabled(), gc.get_freeze_count())))
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    frozen = gc.get_freeze_count()
    try:
        assert main(["run", "--sim", "--headless", "--stdin", "--journal", str(tmp_path / "j.sqlite")]) == 0
        assert seen == [(False, frozen)]  # READY: nothing collected during the start, nothing frozen yet
        assert gc.isenabled() and gc.get_freeze_count() > frozen
        (tmp_path / "bad.toml").write_text("[oled]\nno_such_key = 1\n")
        assert main(["run", "--sim", "--config", str(tmp_path / "bad.toml")]) == 2
        assert gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()



def test_every_other_command_runs_with_the_collector_on(tmp_path, monkeypatch):
    """Only `companion run` keeps the collector held off past its arguments (until READY)."""
    from companion.cli import main
    from companion.commands import games

    seen: list[bool] = []
    monkeypatch.setattr(games, "main", lambda args: seen.append(gc.isenabled()) or 0)
    assert gc.isenabled()
    assert main(["games", "--journal", str(tmp_path / "j.sqlite")]) == 0
    assert seen == [True] and gc.isenabled()


def _distribution(site: Path, name: str, entry_points: str) -> None:
    """An installed distribution in ``site``: its dist-info with METADATA and entry_points.txt, as pip leaves it."""
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(entry_points)


def test_a_game_installed_by_entry_point_is_listed_and_other_groups_are_never_loaded(tmp_path, monkeypatch):
    """The registry reads only the distributions that declare the ``companion.games`` group (the start parses
    no other's entry points): a game declared there is listed, the first on the path winning a key, and an
    entry point of any other group, even one naming a GameSpec, is never loaded."""
    from companion.games import registry

    first, later = tmp_path / "first", tmp_path / "later"
    first.mkdir()
    later.mkdir()
    (first / "plugin_games.py").write_text(
        "from companion.games.registry import GameSpec\n"
        "SPEC = GameSpec(key='plugin', title='Plugin storms', engine='plugin_games:load', order=900)\n"
        "LATER = GameSpec(key='plugin', title='Shadowed', engine='plugin_games:load', order=900)\n"
        "OTHER = GameSpec(key='other', title='Other group', engine='plugin_games:load')\n")
    (first / "not_a_game.py").write_text("raise RuntimeError('loaded an entry point of another group')\n")
    _distribution(first, "plugin_games", "[companion.games]\nplugin = plugin_games:SPEC\n\n"
                                         "[console_scripts]\nplugin = not_a_game:main\n")
    _distribution(first, "other_tools", "[companion.tools]\nother = plugin_games:OTHER\nbroken = not_a_game:x\n")
    _distribution(later, "shadowed_games", "[companion.games]\nplugin = plugin_games:LATER\n")
    monkeypatch.syspath_prepend(str(later))
    monkeypatch.syspath_prepend(str(first))
    monkeypatch.setattr(registry, "_found", None)
    try:
        known = registry.specs()
        assert known["plugin"].title == "Plugin storms"  # the first distribution on the path declaring the key
        assert "other" not in known and "not_a_game" not in sys.modules
        assert list(known)[-1] == "plugin" and {"kansas", "stormfury"} <= set(known)  # built-ins still found
        assert registry.spec("plugin") is known["plugin"]
    finally:
        sys.modules.pop("plugin_games", None)


def test_the_service_benchmark_starts_the_box_from_a_plain_install_as_the_pi_does(tmp_path):
    """The benchmark's timed processes run the project pip-installed (not editable) into a venv of their own,
    offline: its modules and compiled bytecode in that venv's site-packages, the maps in its share/, the console
    script systemd starts; no editable finder in the process (install_box checks the imports themselves)."""
    before = os.environ.get("SDL_FRAMEBUFFER_ACCELERATION")
    from benchmarks.bench_service import _child_env, install_box  # sets SDL's variable for its own renderer

    if before is None:
        os.environ.pop("SDL_FRAMEBUFFER_ACCELERATION", None)  # not for the tests after this one
    python = install_box(tmp_path)
    venv = python.parent.parent
    script = venv / "bin" / "companion"
    assert script.read_text().splitlines()[0] == f"#!{python}"
    purelib = next(venv.glob("lib/python3*/site-packages"))
    assert (purelib / "companion" / "__pycache__").is_dir() and (purelib / "companion" / "fonts").is_dir()
    assert (venv / "share" / "storm-companion" / "maps" / "kansas.toml").is_file()
    done = subprocess.run([str(script), "--version"], cwd=tmp_path, env=_child_env(), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("companion ")
