"""The waiting box and the long game: what a table meets with a game in play, measured as the box runs.

- A box waiting at Carcassonne's "lay a tile": a real ``companion run`` process of the project installed as the Pi
  installs it (:func:`benchmarks.bench_service.install_box`), its projector on the framebuffer at 1080p, its OLED
  through luma's real ssd1306 driver on luma's ``noop`` interface (the driver and Pillow loaded, the I2C wire
  absent), buttons on gpiozero's MockFactory, resuming a 3-player Carcassonne game played by the presses area's
  table to ``CARC_TILES`` tiles and left at its next "lay a tile". Idle CPU (all threads, from schedstat) on the
  loop's idle tick and once the loop sleeps (a table left alone), and resident memory (VmRSS) with that game on
  the table, beside the same process on its menu (no game: the service area's row).
- The first start after an update, at ``EVENTS`` events of the journal area's long Kansas game (stored states
  every 25 events): an update that leaves the game's rules alone (a new painter: its tag is unchanged, so the
  start resumes from the newest stored state), one that changes them (its engine: every event replayed, the
  figure every update cost while stored states were tied to the box's whole source). The update is simulated
  as the tag sees it (one module's digest changed, :mod:`companion.journal.version`), the start is the real
  ``Session.start`` on a journal on disk.
- The tower's rolls at every start: the link is primed with the roll references of the latest entries; read from
  the newest rows only (:mod:`companion.journal.recent_rolls`) against every entry of the game parsed
  (``recent_rolls.rolls_from_every_entry``), at 10,000 events and at ``LONG`` (the 10,000 rows copied on: the rows'
  contents are what the reading costs).
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks._table import Row, summary, time_calls

AREA = "long_game"
EVENTS = 10_000
LONG = 91_000
REPEAT = int(os.environ.get("BENCH_LONG_REPEAT", "7"))
CARC_TILES = 40
"""Tiles on the board of the waiting Carcassonne game."""

OLED_MAIN = """\
import sys
from pathlib import Path
import companion.commands.run as run
import hardware.oled as oled
run.DEVICES = Path({devices!r})
oled.DEVICES = Path({devices!r})
_made = oled.Display.__init__
def _with_driver(self, settings=None, *, device=None, **rest):
    if device is None:  # the panel's real driver, on luma's own stand-in for the I2C bus
        from luma.core.interface.serial import noop
        from luma.oled.device import ssd1306
        device = ssd1306(noop())
    _made(self, settings, device=device, **rest)
oled.Display.__init__ = _with_driver
from companion.cli import main
sys.exit(main(sys.argv[1:]))
"""
"""The box as ``companion run`` starts it, with its OLED's device made by luma's ssd1306 driver on a ``noop``
interface (this machine has no I2C bus): everything the box loads for its panel is loaded."""


# -- the waiting box ----------------------------------------------------------------------------------------------

def carcassonne_waiting(path: Path) -> int:
    """A journal at ``path`` whose last game is a 3-player Carcassonne at its next "lay a tile" with
    ``CARC_TILES`` tiles on the board; its live events."""
    from benchmarks.bench_presses import SCRIPTS
    from benchmarks.presses_play import play
    from companion.journal import Journal
    from companion.session import Session

    script = SCRIPTS["carcassonne"]
    with Journal(path) as journal:
        session = Session(journal)
        play(session, "carcassonne", script.options, seed=1, turn_of=script.turn_of, choose=script.table(),
             stop=lambda s: len(s.board) >= CARC_TILES and s.phase == "cell")
        run = session.current
        assert run is not None and run.prompt().short.endswith("lay a tile"), run.prompt()
        journal.join()
        return len(run.live)


def waiting_box(python: Path, game: bool) -> tuple[float, list[tuple[float, float]], str]:
    """One box process (see the module's docstring): resident MB once idle, [(idle % core, wake-ups/s) on the
    loop's tick, and asleep], and what its panel's prompt said (the game it resumed)."""
    from benchmarks import bench_service as svc

    with tempfile.TemporaryDirectory(prefix="bench-long-game-") as tmp:
        journal = Path(tmp) / "j.sqlite"
        if game:
            carcassonne_waiting(journal)
        sock_path = os.path.join(tmp, "notify")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(sock_path)
        env = {**svc._child_env(), "NOTIFY_SOCKET": sock_path}
        device, sysfs = svc._framebuffer(tmp)
        config = Path(tmp) / "config.toml"
        config.write_text(svc.BOX_CONFIG.format(projector=svc.FBDEV_PROJECTOR.format(device=device, sysfs=sysfs),
                                                port=""))
        devices = Path(tmp) / "dev"
        devices.mkdir()
        (devices / "gpiochip0").touch()
        (devices / "i2c-1").touch()
        command = ["-c", OLED_MAIN.format(devices=str(devices)), "run", "--config", str(config),
                   "--journal", str(journal)]
        start = time.perf_counter()
        child = subprocess.Popen([python, *command], cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE)
        try:
            _, said = svc._wait_ready(sock, child, start)
            parts = svc._ready_line(child, said).decode(errors="replace")
            if "oled ssd1306" not in parts and "ssd1306" not in parts:
                raise RuntimeError(f"the box runs without its OLED driver: {parts!r}")
            idled = svc.idle_then_asleep(child.pid)
            rss = svc._rss_mb(child.pid)
        finally:
            child.terminate()
            child.wait(timeout=10)
            assert child.stderr is not None
            child.stderr.close()
            sock.close()
    return rss, idled, parts


def waiting_rows() -> list[Row]:
    from benchmarks.bench_service import install_box

    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="bench-install-") as tmp:
        python = install_box(Path(tmp))
        rss, ((tick, _), (asleep, wakeups)), _ = waiting_box(python, game=True)
        menu_rss, _, _ = waiting_box(python, game=False)
    where = f"Carcassonne waiting at 'lay a tile', {CARC_TILES} tiles"
    rows.append(Row(AREA, f"idle CPU, first quiet seconds ({where})", tick, "% core", most=0.3))
    rows.append(Row(AREA, f"idle CPU, table left alone ({where})", asleep, "% core", most=0.3))
    rows.append(Row(AREA, f"idle wake-ups, all threads, left alone ({where})", wakeups, "/s"))
    rows.append(Row(AREA, "resident memory (box, 1080p fbdev, OLED driver, Carcassonne in play)", rss, "MB",
                    most=80.0))
    rows.append(Row(AREA, "resident memory (the same box on its menu, no game)", menu_rss, "MB"))
    return rows


# -- the first start after an update --------------------------------------------------------------------------------

def long_journal(folder: Path) -> tuple[Path, Path, int]:
    """The journal area's long Kansas game cut at ``EVENTS`` events, on disk: (journal, its maps, game id)."""
    from benchmarks.bench_journal import long_kansas_maps, scripted_events
    from companion.games.registry import load_game
    from companion.journal import Journal
    from companion.session.game_run import GameRun

    maps = long_kansas_maps(folder)
    game = load_game("kansas", maps)
    events = scripted_events(game, {"players": 4}, EVENTS, seed=1)
    path = folder / "journal.sqlite"
    with Journal(path) as journal:
        run = GameRun.new(journal, game, {"players": 4}, maps)
        for event in events:
            run.accept(event)
        journal.join()
        return path, maps, run.game_id


def updated(module: str) -> Any:
    """A context in which the box's module ``module`` (a path inside the package) reads as changed by an update,
    as the stored states' tag sees it (each start computes the tag anew)."""
    from contextlib import contextmanager

    from companion.journal import version

    @contextmanager
    def patch() -> Any:
        real = version._read
        target = version.ROOT / module

        def read(path: Path) -> Any:
            digest, imports = real(path)
            return (digest + "-updated" if path == target else digest), imports

        version._read = read  # type: ignore[assignment]
        version._sources.clear()
        try:
            yield
        finally:
            version._read = real  # type: ignore[assignment]
            version._sources.clear()

    return patch()


def start_rows(folder: Path) -> list[Row]:
    from companion.journal import Journal
    from companion.session.core import Session

    path, maps, _ = long_journal(folder)

    def starts(count: int) -> list[float]:
        """Milliseconds of ``Session.start`` on a journal opened before it (the box opens its journal first, a
        whole-file check the journal area times apart), as the journal area's resume rows time it."""
        out = []
        for _ in range(count):
            with Journal(path) as journal:
                session = Session(journal, maps=maps)
                start = time.perf_counter()
                session.start()
                out.append((time.perf_counter() - start) * 1000)
                assert session.current is not None and len(session.current.live) == EVENTS
        return out

    starts(1)  # the engine kept beside the journal, as after any first start
    rows: list[Row] = summary(AREA, f"a start, no update, {EVENTS:,} events", starts(REPEAT), p99=20.0)
    with updated("games/kansas/painter.py"):
        rows += summary(AREA, f"first start after an update leaving the rules alone, {EVENTS:,} events",
                        starts(REPEAT), "a new painter: the stored states still serve", p99=20.0)
    with updated("games/kansas/engine.py"):
        logging.disable(logging.WARNING)  # each start says once that the stored states are of other rules
        try:
            replayed = starts(max(3, REPEAT // 2))
        finally:
            logging.disable(logging.NOTSET)
        rows += summary(AREA, f"first start after an update of the rules, {EVENTS:,} events (every event replayed)",
                        replayed, "the replay the new rules need")
    return rows


# -- the tower's rolls at a start -----------------------------------------------------------------------------------

def rolls_rows(folder: Path) -> list[Row]:
    from companion.journal import Journal
    from companion.journal.recent_rolls import journaled_rolls
    from companion.journal.recent_rolls import rolls_from_every_entry as every_entry

    path = folder / "journal.sqlite"
    rows: list[Row] = []
    for count in (EVENTS, LONG):
        if count > EVENTS:
            with sqlite3.connect(path) as db:
                (game_id, last) = db.execute("SELECT game_id, MAX(idx) FROM entries GROUP BY game_id "
                                             "ORDER BY game_id DESC").fetchone()
                while last + 1 < count:
                    db.execute("INSERT INTO entries SELECT game_id, idx + ?, kind, event, accepted_at FROM entries "
                               "WHERE game_id=? AND idx < ?", (last + 1, game_id, min(EVENTS, count - last - 1)))
                    last = db.execute("SELECT MAX(idx) FROM entries WHERE game_id=?", (game_id,)).fetchone()[0]
        with Journal(path, readonly=True) as journal:
            assert journal.games()[0].entries >= count
            assert journaled_rolls(journal) == every_entry(journal)
            rows += summary(AREA, f"tower's rolls at a start, newest rows only, {count:,} events",
                            time_calls(lambda j=journal: journaled_rolls(j), max(REPEAT, 21)))
            rows.append(Row(AREA, f"tower's rolls at a start, every entry parsed (before), {count:,} events p50",
                            sorted(time_calls(lambda j=journal: every_entry(j), 3))[1], "ms"))
    return rows


def run() -> list[Row]:
    folder = Path(tempfile.mkdtemp(prefix="bench-long-game-", dir=os.environ.get("BENCH_JOURNAL_DIR")))
    try:
        rows = start_rows(folder)
        rows += rolls_rows(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return [*rows, *waiting_rows()]
