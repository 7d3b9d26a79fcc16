"""The waiting box and the long game: what a table meets with a game in play, measured as the box runs.

- A box waiting at Carcassonne's "lay a tile": a real ``companion run`` process of the project installed as the Pi
  installs it (:func:`benchmarks.bench_service.install_box`), its projector on the framebuffer at 1080p, its OLED
  through luma's real ssd1306 driver on luma's ``noop`` interface (the driver and Pillow loaded, the I2C wire
  absent), buttons on gpiozero's MockFactory, resuming a 3-player Carcassonne game played by the presses area's
  table to ``CARC_TILES`` tiles and left at its next "lay a tile". Idle CPU (all threads, from schedstat) in the
  first quiet seconds and once the loop sleeps (a table left alone), and resident memory (VmRSS) with that game
  on the table in the first quiet seconds and after a minute alone (the loop's ``REST_AFTER``: the memory kept for
  the next frame's speed given back, :meth:`companion.session.loop.Loop._rest`), beside the same process on its
  menu (no game). The same box once
  more with a probe thread (:data:`PROBE_MAIN`, tracemalloc on) says what it keeps, part by part
  (:func:`kept_apart`), and what the rest costs the next press is timed in this process (:func:`after_rest_rows`).
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
from companion.session.loop import REST_AFTER, SLEEP_AFTER

AREA = "long_game"
EVENTS = 10_000
LONG = 91_000
REPEAT = int(os.environ.get("BENCH_LONG_REPEAT", "7"))
CARC_TILES = 40
"""Tiles on the board of the waiting Carcassonne game."""
REST_MARGIN = 3.0
"""Seconds past the loop's ``REST_AFTER`` (from the box's READY) before the memory of a table left alone is read:
the box's last frame may come a little after READY."""

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


PROBE_MAIN = r"""
import threading as _threading
from pathlib import Path
from typing import Any
MB = 1024 * 1024
FUNCTIONS
def _probe_serve():
    import json, sys
    for line in sys.stdin:
        try:
            said = kept_apart(line.strip() == "whole")
        except Exception as exc:  # said to the benchmark, which raises it
            said = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(said) + "\n")
        sys.stdout.flush()
_threading.Thread(target=_probe_serve, name="probe", daemon=True).start()
"""
"""Put before :data:`OLED_MAIN` for the box measured apart: a thread that answers each line on stdin with what the
process keeps (:func:`kept_apart`, JSON on stdout), the loop going on meanwhile. FUNCTIONS is replaced by the
source of the functions it runs (:func:`_probe_main`): the installed box has no ``benchmarks`` to import."""


def _probe_main() -> str:
    import inspect

    return PROBE_MAIN.replace("FUNCTIONS", "\n".join(inspect.getsource(f) for f in (_resident, _deep, _reach,
                                                                                   kept_apart)))

MB = 1024 * 1024


def _ask(child: subprocess.Popen[bytes], whole: bool) -> dict[str, Any]:
    """What the probed box keeps now (:data:`PROBE_MAIN`, :func:`kept_apart`)."""
    import json
    import selectors

    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(b"whole\n" if whole else b"surfaces\n")
    child.stdin.flush()
    with selectors.DefaultSelector() as sel:
        sel.register(child.stdout, selectors.EVENT_READ)
        if not sel.select(timeout=120):
            raise RuntimeError("the probed box did not say what it keeps within 120 s")
    said: dict[str, Any] = json.loads(child.stdout.readline())
    if "error" in said:
        raise RuntimeError(f"the probed box could not measure itself: {said['error']}")
    return said


def _resident(address: int, length: int) -> int:
    """Bytes of [address, address + length) resident now (``mincore``: the whole pages inside it)."""
    import ctypes
    import mmap

    page = mmap.PAGESIZE
    start, end = -(-address // page) * page, (address + length) // page * page
    if end <= start:
        return 0
    pages = (end - start) // page
    vec = (ctypes.c_ubyte * pages)()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mincore.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p)
    if libc.mincore(start, end - start, vec) != 0:
        return length
    return sum(1 for v in vec if v & 1) * page


def _deep(roots: list[Any], stop: set[int]) -> int:
    """Bytes of the objects reachable from ``roots`` (sys.getsizeof each, a pygame surface with its pixels),
    not through ``stop`` (ids: what another part holds) nor modules, classes, functions and code."""
    import gc
    import sys
    import types

    import pygame

    skip = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, types.CodeType,
            types.MethodType)
    seen: set[int] = set(stop)
    todo = list(roots)
    total = 0
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, pygame.Surface) and obj.get_parent() is None:
            total += obj.get_pitch() * obj.get_height()
        todo.extend(gc.get_referents(obj))
    return total


def _reach(roots: list[Any]) -> set[int]:
    """Ids of every object reachable from ``roots`` (modules' contents included): what they hold."""
    import gc

    seen: set[int] = set()
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) not in seen:
            seen.add(id(obj))
            todo.extend(gc.get_referents(obj))
    return seen


def kept_apart(whole: bool = True) -> dict[str, Any]:
    """What the box process this runs in keeps, part by part (run on the probe's thread of a box started with
    :data:`PROBE_MAIN`, tracemalloc on from its start): resident memory by kind (smaps_rollup), the
    framebuffer's mapping, every screen-sized pygame surface by owner (its size, and how much of it is resident),
    the Python heap by area (tracemalloc: where each block was allocated), and the deep size of the game's parts
    (each not counting what the engine holds, nor what the state on the table holds for the parts beside it).
    Not ``whole``: the resident memory and the surfaces only (the walks of a whole measure leave garbage of their
    own behind, so a second whole measure would count it)."""
    import gc
    import tracemalloc

    import pygame

    said: dict[str, Any] = {}
    heap = tracemalloc.take_snapshot() if whole else None  # before this measure's own walks allocate
    rollup = {}
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines()[1:]:
        name, value, *_ = line.split()
        rollup[name.rstrip(":")] = int(value) * 1024
    said["resident"] = rollup["Rss"] / MB
    said["anonymous"] = rollup["Anonymous"] / MB
    said["files"] = (rollup["Rss"] - rollup["Anonymous"]) / MB
    fb = 0
    mapping = ""
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()
        if head and "-" in head[0] and not head[0].endswith(":"):
            mapping = head[5] if len(head) > 5 else ""
        elif head and head[0] == "Rss:" and mapping.endswith("/fb0"):
            fb += int(head[1]) * 1024
    said["framebuffer mapping"] = fb / MB

    gc.collect()
    gc.unfreeze()  # the start's objects were frozen (companion.commands.run._started): walk them too
    objects = gc.get_objects()
    loop = next(o for o in objects if type(o).__name__ == "Loop" and type(o).__module__ == "companion.session.loop")
    session = loop.session
    surfaces: dict[int, tuple[list[str], float, float]] = {}
    for owner in objects:
        for name, value in list(getattr(owner, "__dict__", {}).items()):
            if isinstance(value, pygame.Surface) and value.get_parent() is None and \
                    value.get_width() * value.get_height() >= 1920 * 1080 // 4:
                size = value.get_pitch() * value.get_height()
                where = f"{type(owner).__module__.removeprefix('companion.')}.{type(owner).__qualname__}.{name}"
                owners = surfaces.setdefault(id(value), ([], size / MB,
                                                         _resident(value._pixels_address, size) / MB))[0]
                if where not in owners:
                    owners.append(where)
    said["surfaces"] = sorted(((" = ".join(sorted(w)), size, resident) for w, size, resident in surfaces.values()),
                              key=lambda s: -s[1])
    if not whole:
        gc.freeze()
        return said

    run = session.run
    engine = _reach([run.game])
    listed = session._listed
    cursor = listed[3] if listed is not None else None
    kept_states = [state for state in run._states.values() if state is not run.state]
    oled = [view for view in loop.views if type(view).__name__ == "OledView"]
    boards = [getattr(getattr(view, "renderer", None), "_board", None) for view in loop.views]
    painter = next((board.painter for board in boards if board is not None), None)
    on_table = _reach([run.state])
    said["parts"] = [
        ("the engine (rules, tile catalogue, map data)", _deep([run.game], set()) / MB),
        ("the state on the table", _deep([run.state], set()) / MB),
        (f"the states kept for undo ({len(kept_states)} beside it, what they do not share with it)",
         _deep(kept_states, engine | on_table) / MB),
        ("the live events", _deep([run.live], engine) / MB),
        ("the options offered (Session.options)", _deep([listed[2]] if listed else [], engine | on_table) / MB),
        ("the board cursor's positions", _deep([cursor], engine | on_table | _reach([listed[2]] if listed else []))
         / MB),
        ("the painter and its data (its surfaces apart)", _deep([painter], engine | on_table) / MB),
        ("the OLED's view, its display and images", _deep(oled, engine | on_table) / MB),
    ]
    caches = [o for o in objects if type(o).__name__ == "_lru_cache_wrapper"]
    said["caches"] = (sum(c.cache_info().currsize for c in caches), _deep(caches, engine) / MB)

    areas: dict[str, int] = {}
    assert heap is not None
    for stat in heap.statistics("filename"):
        file = stat.traceback[0].filename
        if "importlib" in file or file.startswith("<frozen"):
            area = "module code and constants (imports)"
        elif "/companion/games/carcassonne/" in file:
            area = "companion: Carcassonne (engine, painter)"
        elif "/companion/" in file:
            area = "companion: " + file.split("/companion/")[1].split("/")[0].removesuffix(".py")
        elif "site-packages/" in file:
            area = "libraries: " + file.split("site-packages/")[1].split("/")[0]
        else:
            area = "the standard library and the rest"
        areas[area] = areas.get(area, 0) + stat.size
    said["python heap"] = sorted(((a, b / MB) for a, b in areas.items()), key=lambda a: -a[1])
    said["python heap total"] = sum(areas.values()) / MB
    gc.freeze()
    return said


def kept_rows(apart: dict[str, Any]) -> list[Row]:
    """The probed box's parts as rows (informational: no targets; its own figures are larger than the timed
    box's, tracemalloc keeps a record of every block)."""
    rows: list[Row] = []
    for when, said in apart.items():
        what = f"measured apart ({when})"
        if when == "in play":
            rows.append(Row(AREA, f"{what}: resident / anonymous / files", said["resident"], "MB",
                            f"{said['anonymous']:.1f} / {said['files']:.1f}, tracemalloc on"))
            rows.append(Row(AREA, f"{what}: the framebuffer's mapping (resident)", said["framebuffer mapping"],
                            "MB"))
        for where, size, resident in said["surfaces"]:
            rows.append(Row(AREA, f"{what}: surface {where}", size, "MB", f"resident {resident:.1f}"))
        if when == "in play":
            for name, size in said["parts"]:
                rows.append(Row(AREA, f"{what}: {name}", size, "MB"))
            entries, size = said["caches"]
            rows.append(Row(AREA, f"{what}: functools caches ({entries} entries)", size, "MB"))
            rows.append(Row(AREA, f"{what}: Python heap (tracemalloc)", said["python heap total"], "MB"))
            for area, size in said["python heap"][:8]:
                rows.append(Row(AREA, f"{what}: Python heap, {area}", size, "MB"))
    return rows

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


def waiting_box(python: Path, game: bool, probe: bool = False
                ) -> tuple[tuple[float, float], list[tuple[float, float]], str | dict[str, Any]]:
    """One box process (see the module's docstring): resident MB (in the first quiet seconds, and once the table
    has been left alone for the loop's ``REST_AFTER``: the loop has given its rest's memory back), [(idle % core,
    wake-ups/s) in the first quiet seconds, and asleep], and what its ready line said (the parts it runs); with
    ``probe``, the process runs under :data:`PROBE_MAIN` and the third is what it keeps, measured apart
    (:func:`kept_rows`). A box takes about a minute (``REST_AFTER``)."""
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
        main = OLED_MAIN.format(devices=str(devices))
        if probe:
            env["PYTHONTRACEMALLOC"] = "1"  # from the first allocation on: what the start builds is attributed
            main = _probe_main() + main
        command = ["-c", main, "run", "--config", str(config), "--journal", str(journal)]
        start = time.perf_counter()
        child = subprocess.Popen([python, *command], cwd=tmp, env=env, stdin=subprocess.PIPE if probe else None,
                                 stdout=subprocess.PIPE if probe else subprocess.DEVNULL, stderr=subprocess.PIPE)
        said_apart: dict[str, Any] = {}
        try:
            _, said = svc._wait_ready(sock, child, start)
            ready = time.monotonic()
            parts = svc._ready_line(child, said).decode(errors="replace")
            if "oled ssd1306" not in parts and "ssd1306" not in parts:
                raise RuntimeError(f"the box runs without its OLED driver: {parts!r}")
            # as svc.idle_then_asleep, with the resident memory read in the first quiet seconds too
            svc._quiet(1.0)
            idled = [svc._idle(child.pid)]
            in_play = svc._rss_mb(child.pid)
            if probe:
                said_apart["in play"] = _ask(child, whole=True)
            svc._quiet(max(0.0, SLEEP_AFTER - svc.IDLE_SECONDS))
            idled.append(svc._idle(child.pid))
            svc._quiet(max(0.0, ready + REST_AFTER + REST_MARGIN - time.monotonic()))
            rss = (in_play, svc._rss_mb(child.pid))
            if probe:
                said_apart["at rest"] = _ask(child, whole=False)
        finally:
            child.terminate()
            child.wait(timeout=10)
            assert child.stderr is not None
            child.stderr.close()
            for stream in (child.stdin, child.stdout):
                if stream is not None:
                    stream.close()
            sock.close()
    return rss, idled, said_apart if probe else parts


def waiting_rows() -> list[Row]:
    from benchmarks.bench_service import install_box

    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="bench-install-") as tmp:
        python = install_box(Path(tmp))
        (in_play, rss), ((tick, tick_wakeups), (asleep, wakeups)), _ = waiting_box(python, game=True)
        (menu_in_play, menu_rss), _, _ = waiting_box(python, game=False)
        _, _, apart = waiting_box(python, game=True, probe=True)
    where = f"Carcassonne waiting at 'lay a tile', {CARC_TILES} tiles"
    rows.append(Row(AREA, f"idle CPU, first quiet seconds ({where})", tick, "% core", most=0.3))
    rows.append(Row(AREA, f"idle wake-ups, all threads, first quiet seconds ({where})", tick_wakeups, "/s"))
    rows.append(Row(AREA, f"idle CPU, table left alone ({where})", asleep, "% core", most=0.3))
    rows.append(Row(AREA, f"idle wake-ups, all threads, left alone ({where})", wakeups, "/s"))
    rows.append(Row(AREA, "resident memory (box, 1080p fbdev, OLED driver, Carcassonne in play), first quiet "
                    "seconds", in_play, "MB", "while the table plays", most=80.0))
    rows.append(Row(AREA, "resident memory (box, 1080p fbdev, OLED driver, Carcassonne in play), a minute alone",
                    rss, "MB", "the rest's memory given back", most=80.0))
    rows.append(Row(AREA, "resident memory (the same box on its menu, no game), first quiet seconds / a minute "
                    "alone", menu_in_play, "MB", f"a minute alone: {menu_rss:.1f}"))
    assert isinstance(apart, dict)
    return rows + kept_rows(apart)


RESTED_PRESSES = 200
"""Arrow presses timed at the waiting Carcassonne game, half of them the first after a rest."""


def after_rest_rows() -> list[Row]:
    """What the rest costs the table's next press: at the waiting Carcassonne game (played in this process to
    ``CARC_TILES`` tiles), arrow presses through ``Session.handle`` to the projector's 1080p frame from the real
    renderer, every other one right after the renderer's rest (:meth:`ProjectorRenderer.rest`, as a table left
    alone makes it: its repaint scratch given back, when it has made one; Carcassonne's pieces all clip, so it makes
    none now) and the others as within a turn."""
    import random

    import pygame

    from benchmarks._table import percentile
    from benchmarks.bench_presses import SCRIPTS
    from benchmarks.presses_play import play
    from companion.inputs import Press
    from companion.journal import Journal
    from companion.session import Session
    from companion.session.collector import collect_due, take_over
    from companion.views.projector import ProjectorRenderer

    pygame.font.init()
    script = SCRIPTS["carcassonne"]
    timed: dict[bool, list[float]] = {True: [], False: []}
    with tempfile.TemporaryDirectory(prefix="bench-long-game-") as tmp, Journal(Path(tmp) / "j.sqlite") as journal:
        session = Session(journal)
        play(session, "carcassonne", script.options, seed=1, turn_of=script.turn_of, choose=script.table(),
             stop=lambda s: len(s.board) >= CARC_TILES and s.phase == "cell")
        renderer = ProjectorRenderer((1920, 1080))
        rng = random.Random(1)
        give_back = take_over()
        try:
            for n in range(RESTED_PRESSES + 10):
                rested = n % 2 == 0
                if rested:  # the table left alone: whatever the renderer keeps for speed goes back (none, lately)
                    renderer.rest()
                start = time.perf_counter()
                session.handle(Press(rng.choice(("UP", "DOWN", "LEFT", "RIGHT"))))
                renderer.render(session.frame)
                if n >= 10:  # the first ones draw the board
                    timed[rested].append((time.perf_counter() - start) * 1000)
                collect_due()
        finally:
            give_back()
    what = f"Carcassonne at {CARC_TILES} tiles: arrow press -> 1080p frame"
    rows = []
    for rested, label in ((False, "within a turn"), (True, "the first after a minute alone")):
        rows.append(Row(AREA, f"{what}, {label}, p50", percentile(timed[rested], 50), "ms"))
        rows.append(Row(AREA, f"{what}, {label}, p99", percentile(timed[rested], 99), "ms"))
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
    return [*rows, *after_rest_rows(), *waiting_rows()]
