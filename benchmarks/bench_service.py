"""The running box: a roll to its pictures, start-up, memory and idle CPU, measured the way the box runs.

- Latency (in-process, the box's parts): a Kansas game in play, every roll the one the game asks for
  and accepted, journaled with fsync (SQLite WAL, synchronous=FULL, on a disk, never tmpfs), drawn at
  1920x1080 by the real renderer through ``open_projector`` (SDL's offscreen driver with its software
  framebuffer, as the box's KMSDRM screen has no desktop), the OLED through luma's real ssd1306
  driver on luma's own ``noop`` serial interface (so the packing of the pixels is timed, the I2C wire
  is not) on the Display's writer thread. Rolls come alternately from the virtual tower on a pty
  through the real link (clock from the frame's last byte) and from the ROLL button on gpiozero's
  MockFactory pin (clock from the release edge: ROLL has a hold, so a press is known on release).
  Each sample ends at the later of the projector's frame flipped and the OLED image through its
  driver. With the risk overlay off and on; and once more (tower rolls, no target) through the framebuffer as
  the box draws on a Pi's console: RGB565, a regular file here (``framebuffer_rows``). These rows run with the
  machine's idle cores kept from halting (``cores_awake``: a CPU wake-latency request, as a Pi's cores wake at once
  from WFI), where the benchmark may hold it (root; a row says whether it did); then, when it did, the tower's rows
  once more without it, no targets (``asleep_rows``: what this virtual machine's halted cores add). Between samples,
  untimed, the loop gets the quiet turn a table gives it between rolls (a turn with no input): the work a
  frame leaves for later, a due snapshot
  of the state and the garbage collection, runs there on the box (companion.session.collector).
- Start-up, memory, idle CPU: real ``companion run`` processes of the project installed as the Pi installs
  it (``install_box``): systemd/install.sh runs a plain, non-editable ``pip install`` into a venv, so the box
  imports its modules from site-packages with the bytecode pip compiled. The dev venv's ``pip install -e .``
  instead puts setuptools' editable finder in ``site`` (its .pth imports the finder, pathlib and urllib with
  it: 20 ms of a bare interpreter's start here; the box imports most of those anyway, so for the box it is
  under 0.5 % of the instructions to READY, but the Pi pays none of it), so the processes run from a wheel of this
  checkout installed, once per benchmark run, into a throwaway venv whose dependencies are the dev venv's
  site-packages named by a plain path line in a .pth (no editable finder, no network). The box: its own projector path
  on a console (``open_projector``, driver fbdev: a 1920x1080 XRGB8888 framebuffer that is a regular file
  here, with its sysfs folder; no SDL display, no GL), and once more through SDL's offscreen driver with
  its default EGL presentation, for a memory row beside it (KMSDRM's GL stack; no target), the OLED on
  its I2C bus (absent here), buttons on MockFactory pins, the tower connected (a virtual tower on a pty named in the
  configuration) or unplugged (the default search: /dev/dice-tower or the USB id). The simulated
  table: ``companion run --sim --headless``. Start-up is the median of ``STARTS`` processes of each kind
  (and the slowest beside it). Ready is sd_notify READY=1 on a socket of our own;
  memory is VmRSS; idle CPU is the run time the kernel accounts to all the process's threads
  (schedstat) over 4 s: from one second after READY (the loop on its idle tick), and once the loop
  sleeps (SLEEP_AFTER quiet seconds: a table left alone), where the target applies.
"""

from __future__ import annotations

import os
import selectors
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks._table import Row, summary
from companion.commands.run import IN_USE_TICK
from companion.dice import FACES
from companion.session.loop import SLEEP_AFTER

AREA = "service"
UNIT = Path(__file__).resolve().parent.parent / "systemd" / "companion.service"
BUSY_PER_CORE = 2
"""Other programs wanting a core all the time, per core, for the busy machine's rows."""
SIZE = (1920, 1080)
ROLLS = int(os.environ.get("BENCH_ROLLS", "300"))
"""Samples per stimulus (tower, button) and overlay setting: the p99 of 300 is the fourth slowest, not (of 150) the
second, which one stall of this shared machine decides alone."""
WAKE_LATENCY = Path("/dev/cpu_dma_latency")
"""The kernel's CPU wake-latency request (PM QoS): while a process holds it open with 0 written, idle cores poll
instead of entering an idle state that takes time to leave (:func:`cores_awake`)."""
IDLE_SECONDS = 4.0
STARTS = int(os.environ.get("BENCH_STARTS", "7"))
"""Processes started per kind for the start-up row: one start on a shared machine is one draw of its load."""
STALL = 10.0
ONLY_PROCESSES = os.environ.get("BENCH_SERVICE") == "processes"
"""Only the process rows (start-up, memory, idle CPU), not the in-process latency: for timing start-up changes."""

os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
"""The offscreen driver's software framebuffer: its default streams the picture through Mesa's software
OpenGL here (about 35 ms a 1080p update on this machine), which is neither the Pi's GPU nor its KMSDRM
presentation; that presentation is not measured here (docs/performance.md)."""


def _Counting(driver: Any) -> Any:
    """luma's driver class, counting the bytes it hands its serial interface (the I2C wire is not timed
    here: its time is computed from these counts)."""

    class Counting(driver):
        counted = 0

        def command(self, *cmd: int) -> None:
            super().command(*cmd)
            type(self).counted += len(cmd)

        def data(self, data: Any) -> None:
            super().data(data)
            type(self).counted += len(data)

        def take(self) -> int:
            got, type(self).counted = type(self).counted, 0
            return got

    return Counting


def wire_ms(count: int, khz: int) -> float:
    """I2C time for ``count`` bytes: 9 clocks a byte (8 bits and the ACK), plus a start, the address
    byte and a stop per 32-byte block luma writes."""
    blocks = -(-count // 32)
    return (9 * (count + blocks) + 2 * blocks) / (khz * 1000) * 1000


def _filesystem(path: str) -> str:
    """The type of the filesystem holding ``path`` (the longest mount point that contains it)."""
    best, kind = "", "?"
    for line in Path("/proc/mounts").read_text().splitlines():
        parts = line.split()
        if len(parts) > 2 and (path == parts[1] or path.startswith(parts[1].rstrip("/") + "/")) \
                and len(parts[1]) >= len(best):
            best, kind = parts[1], parts[2]
    return kind


def game_latency(rolls: int, overlay: bool, journal_dir: str | None = None,
                 scheduling: tuple[int, int] | None = None, output: str = "offscreen"
                 ) -> tuple[list[float], list[float], dict[str, Any]]:
    """A Kansas game in play on the box's parts: every roll is the one the game asks for (accepted,
    journaled with fsync), alternately thrown into the virtual tower and rolled with the ROLL button;
    decisions between rolls are taken untimed. Each sample runs from the stimulus to the later of the
    projector's frame flipped (the loop's on_shown, after every view) and the OLED image through the
    ssd1306 driver (the Display's writer thread). ``scheduling`` (a policy and priority, :func:`unit_scheduling`)
    is set on this thread before the box's threads start, so they all run under it, as under the unit. ``output``:
    the projector's way out, SDL's "offscreen" driver (the renderer draws on SDL's screen, as on KMSDRM or a
    desktop) or "fbdev" (the box's own path on a Pi's console: the changed rectangles converted to the Pi's
    default RGB565 and copied into a framebuffer that is a regular file here)."""
    if scheduling is None:
        return _game_latency(rolls, overlay, journal_dir, output)
    before = os.sched_getscheduler(0), os.sched_getparam(0).sched_priority
    os.sched_setscheduler(0, scheduling[0], os.sched_param(scheduling[1]))
    try:
        return _game_latency(rolls, overlay, journal_dir, output)
    finally:
        os.sched_setscheduler(0, before[0], os.sched_param(before[1]))


def unit_scheduling(unit: Path = UNIT) -> tuple[int, int] | None:
    """The CPU scheduling policy and priority systemd/companion.service gives the box (None: the default)."""
    said = dict(line.split("=", 1) for line in unit.read_text().splitlines()
                if line.startswith(("CPUSchedulingPolicy=", "CPUSchedulingPriority=")))
    policy = {"rr": os.SCHED_RR, "fifo": os.SCHED_FIFO}.get(said.get("CPUSchedulingPolicy", "other"))
    return None if policy is None else (policy, int(said.get("CPUSchedulingPriority", "1")))


@contextmanager
def cores_awake() -> Iterator[bool]:
    """Idle cores kept from any idle state deeper than polling, for the run inside, as rt-tests' cyclictest does by
    default for its latency figures; yields whether the request is held (it needs root and the device).

    A Pi's idle cores wait in WFI (the Pi 4's device tree names no deeper idle state) and run again microseconds after
    an interrupt. This machine's idle virtual cores halt into the hypervisor (its kernel's command line turns the
    guest's halt polling off), which can take milliseconds to run one again: a tower roll waits for the link's reader
    thread, then the loop, each on a core that may be halted (docs/performance.md, "The roll's tail on this machine").
    The request removes that part of this machine, not of the box: the box's code and threads are the same, and the
    figures are still this machine's cores, not a Pi's."""
    try:
        fd: int | None = os.open(WAKE_LATENCY, os.O_WRONLY)
    except OSError:
        fd = None
    if fd is None:
        yield False
        return
    try:
        os.write(fd, (0).to_bytes(4, sys.byteorder))  # the kernel takes a binary 32-bit value (text is read as hex)
        yield True
    finally:
        os.close(fd)


@contextmanager
def busy(processes: int) -> Iterator[None]:
    """``processes`` other programs wanting a core all the time (a plain loop each), for the run inside."""
    spin = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(processes)]
    try:
        yield
    finally:
        for proc in spin:
            proc.kill()
            proc.wait()


def _game_latency(rolls: int, overlay: bool, journal_dir: str | None, output: str
                  ) -> tuple[list[float], list[float], dict[str, Any]]:
    import random

    from luma.core.interface.serial import noop
    from luma.oled.device import ssd1306

    from companion.config import ProjectorConfig
    from companion.journal import Journal
    from companion.session.views import OledView
    from companion.sim import build_table, sim_config
    from companion.views.oled import render
    from companion.views.projector import open_projector
    from hardware.oled import Display

    rng = random.Random(5)
    tower_ms: list[float] = []
    button_ms: list[float] = []
    facts: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-service-", dir=journal_dir) as tmp, \
            Journal(Path(tmp) / "journal.sqlite") as journal:
        device = _Counting(ssd1306)(noop())
        display = Display(device=device, background=True)
        said: list[str] = []
        if output == "fbdev":
            device_file, sysfs = _framebuffer(tmp, bits=16)
            config = ProjectorConfig(driver="fbdev", width=SIZE[0], height=SIZE[1], framebuffer=str(device_file),
                                     framebuffer_sysfs=str(sysfs))
        else:
            config = ProjectorConfig(driver=output, width=SIZE[0], height=SIZE[1], fullscreen=True)
        projector = open_projector(config, said.append)
        if projector is None:
            raise RuntimeError(f"no projector: {said}")
        oled = OledView(display, render)
        synchronous = journal._db.execute("PRAGMA synchronous").fetchone()[0]
        facts["fs"] = _filesystem(os.path.realpath(tmp))
        if synchronous != 2 or facts["fs"] in ("tmpfs", "ramfs"):
            raise RuntimeError(f"the journal would not fsync each roll (synchronous={synchronous}, {facts['fs']})")
        with build_table(journal, sim_config(headless=True), views=[oled, projector], tick=IN_USE_TICK) as table:
            table.closers += [display.close, projector.close]
            session, loop = table.session, table.loop
            tower, keys = table.parts["tower-device"], table.parts["keys"]
            shown: list[float] = []
            written: list[float] = []
            loop.on_shown = lambda frame: shown.append(time.perf_counter())
            display.on_written = lambda: written.append(time.perf_counter())
            session.start("kansas", {"players": 4}, resume=False)
            session.overlay = overlay
            session.refresh()
            loop.show()

            def settle(condition) -> None:
                deadline = time.monotonic() + STALL
                while not condition():
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"the table did not answer: {session.panel.message!r}")
                    loop.step(timeout=0.05)

            settle(lambda: session.panel.tower == "connected")
            n = 0
            while len(tower_ms) < rolls or len(button_ms) < rolls:
                run = session.current
                assert run is not None
                wanted = session.wanted()
                if (prompt := session.prompt()) is not None and prompt.done:  # game over: another
                    session.new_game("kansas", {"players": 4})
                    session.refresh()
                    loop.show()
                    continue
                if not wanted:
                    _decide(session, table, settle, rng)
                    continue
                before = len(run.live)
                panel = session.panel
                s0, w0 = len(shown), len(written)
                device.take()  # the bytes of frames before this roll are not its
                n += 1
                if n % 2:
                    tower.roll([(k, rng.randint(1, FACES[k])) for k in wanted])
                    start = time.perf_counter()  # the roll frame's last byte is on the pty
                    into = tower_ms
                else:
                    keys.press("ROLL")
                    start = time.perf_counter()
                    keys.release("ROLL")  # the press is a Press on release (ROLL has a hold)
                    into = button_ms
                settle(lambda s0=s0, run=run, before=before: len(shown) > s0 and len(run.live) > before)
                if session.panel == panel:  # the OLED's words did not change: only the map is waited for
                    written.append(0.0)
                if len(written) <= w0:  # the OLED's writer thread: wait for this image to reach the driver
                    deadline = time.monotonic() + STALL
                    while len(written) <= w0:
                        if time.monotonic() > deadline:
                            raise RuntimeError("the OLED image never reached its driver")
                        display.wait_written(w0 + 1, 0.05)
                if len(run.live) != before + 1 or session.current is not run:
                    raise RuntimeError(f"the roll was not accepted: {session.panel.message!r}")
                into.append((max(shown[s0], written[w0]) - start) * 1000)
                facts.setdefault("oled_bytes", []).append(device.take())
                quiet = loop.quiet_turns  # a table pauses between rolls: the loop's quiet turn, untimed
                while loop.quiet_turns == quiet:
                    loop.step(timeout=0.01)
            facts["events"] = len(session.current.live) if session.current is not None else 0
            facts["games"] = len(journal.games())
    return tower_ms, button_ms, facts


def _decide(session, table, settle, rng) -> None:
    """An untimed decision: the first option (end a phase, skip) mostly, through the buttons."""
    handled = table.loop.player_inputs
    prompt = session.prompt()
    if prompt is not None and prompt.shuffle:
        table.driver.press("ROLL")
    elif session.options():
        table.driver.press("OK")
    elif session.panel.menu is not None:
        table.driver.press("OK" if session.panel.menu.title.endswith("?") else "BACK")
    else:
        raise RuntimeError(f"nothing to do at {prompt!r}")
    settle(lambda: table.loop.player_inputs > handled)




def _proc_cpu(pid: int) -> tuple[float, int]:
    """CPU seconds run and context switches, summed over the process's threads.

    schedstat counts nanoseconds; /proc/PID/stat's utime+stime is sampled at the clock tick
    (10 ms), far too coarse for a process that runs a few milliseconds a second."""
    seconds, switches = 0.0, 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            run_ns, _wait_ns, slices = (task / "schedstat").read_text().split()
        except (OSError, ValueError):
            continue  # a thread that ended meanwhile
        seconds += int(run_ns) / 1e9
        switches += int(slices)
    return seconds, switches


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


BOX_CONFIG = """\
[projector]
{projector}
width = 1920
height = 1080
fullscreen = true

[tower]
port = "{port}"
"""

FBDEV_PROJECTOR = 'driver = "fbdev"\nframebuffer = "{device}"\nframebuffer_sysfs = "{sysfs}"'
"""The box's own projector path on a console: the framebuffer (a regular file the size of a 1080p
XRGB8888 screen, and its sysfs folder), no SDL display and so no GL."""

EGL_PROJECTOR = 'driver = "offscreen"'
"""For comparison only: SDL's offscreen driver with its default EGL presentation, the GL stack that
SDL's KMSDRM driver always loads (it has no software path)."""


BOX_MAIN = """\
import sys
from pathlib import Path
import companion.commands.run as run
run.DEVICES = Path({devices!r})
from companion.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _framebuffer(tmp: str, bits: int = 32) -> tuple[Path, Path]:
    """A 1920x1080 framebuffer of ``bits`` a pixel as a regular file, with the sysfs entries the box reads."""
    width, height = SIZE
    sysfs = Path(tmp) / "sys-fb0"
    sysfs.mkdir()
    (sysfs / "virtual_size").write_text(f"{width},{height}\n")
    (sysfs / "bits_per_pixel").write_text(f"{bits}\n")
    (sysfs / "stride").write_text(f"{width * bits // 8}\n")
    device = Path(tmp) / "fb0"
    with device.open("wb") as f:
        f.truncate(width * height * bits // 8)
    return device, sysfs


def process_rows(case: str, python: Path) -> list[Row]:
    """Start-up to READY, resident memory and idle CPU of one ``companion run`` process of the box installed
    for ``python`` (:func:`install_box`).

    ``case``: "box, tower connected", "box, tower unplugged" or "simulated table". The box draws on the
    framebuffer output (its path on a console); "box, tower unplugged" also starts the box once on the
    EGL path for an untargeted memory row beside it."""
    rows = []
    ready_ms, rss, idle = _process(case, FBDEV_PROJECTOR, python)
    if case != "box, tower connected":  # start-up once per kind of process
        limit = 300.0 if case.startswith("box") else 400.0
        starts = sorted([ready_ms] + [_process(case, FBDEV_PROJECTOR, python, idle=False)[0]
                                      for _ in range(STARTS - 1)])
        name = f"start-up to READY ({'box, 1080p' if case.startswith('box') else case})"
        rows.append(Row(AREA, f"{name}, median of {STARTS}", starts[len(starts) // 2], "ms", most=limit))
        rows.append(Row(AREA, f"{name}, slowest of {STARTS}", starts[-1], "ms"))
    if case == "box, tower unplugged":
        rows.append(Row(AREA, "resident memory (box, projector at 1080p, fbdev)", rss, "MB", most=80.0))
        _, egl_rss, _ = _process(case, EGL_PROJECTOR, python, idle=False)
        rows.append(Row(AREA, "resident memory (box, projector at 1080p, through EGL as KMSDRM)", egl_rss, "MB",
                        "comparison, no target"))
    if idle:
        (cpu, _), (sleep_cpu, sleep_wakeups) = idle
        rows.append(Row(AREA, f"idle CPU, first quiet seconds ({case})", cpu, "% core"))
        rows.append(Row(AREA, f"idle CPU, table left alone ({case}, projector on)", sleep_cpu, "% core", most=0.3))
        rows.append(Row(AREA, f"idle wake-ups, all threads, left alone ({case})", sleep_wakeups, "/s"))
    return rows


def _process(case: str, projector: str, python: Path, idle: bool = True
             ) -> tuple[float, float, list[tuple[float, float]]]:
    """One ``companion run`` process of ``python``'s install, started in its own temporary folder (so neither
    ``-c`` nor ``-m`` puts this checkout on its path): milliseconds to READY, peak VmRSS in MB, and (a box,
    ``idle``) the idle CPU on the loop's idle tick and asleep."""
    from firmware_bridge.virtual import VirtualTower

    with tempfile.TemporaryDirectory(prefix="bench-service-") as tmp:
        tower = VirtualTower() if case == "box, tower connected" else None
        sock_path = os.path.join(tmp, "notify")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(sock_path)
        env = {**_child_env(), "NOTIFY_SOCKET": sock_path}
        journal = ["--journal", os.path.join(tmp, "j.sqlite")]
        driver = "fbdev" if projector == FBDEV_PROJECTOR else "offscreen"
        if case == "simulated table":
            command = ["-m", "companion", "run", "--sim", "--headless", *journal]
        else:
            device, sysfs = _framebuffer(tmp)
            config = Path(tmp) / "config.toml"
            config.write_text(BOX_CONFIG.format(projector=projector.format(device=device, sysfs=sysfs),
                                                port=tower.path if tower is not None else ""))
            # `companion run` refuses a machine with none of the box's parts; the buttons here are gpiozero's
            # MockFactory pins, so a GPIO chip is shown to its check through the module's own seam (DEVICES).
            devices = Path(tmp) / "dev"
            devices.mkdir()
            (devices / "gpiochip0").touch()
            command = ["-c", BOX_MAIN.format(devices=str(devices)), "run", "--config", str(config), *journal]
        start = time.perf_counter()
        child = subprocess.Popen([python, *command], cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE)
        idled: list[tuple[float, float]] = []
        try:
            ready_ms, said = _wait_ready(sock, child, start)
            parts = _ready_line(child, said)
            if case != "simulated table" and f"projector {driver} fullscreen".encode() not in parts:
                raise RuntimeError(f"the box runs without its projector: {parts!r}")
            if tower is not None:
                _until_connected(tower, child)
            rss = _rss_mb(child.pid)
            if case != "simulated table" and idle:
                idled.extend(idle_then_asleep(child.pid))
            rss = max(rss, _rss_mb(child.pid))
            if case != "simulated table" and driver == "fbdev" and not any((Path(tmp) / "fb0").read_bytes()):
                raise RuntimeError("the box drew nothing on the framebuffer")
        finally:
            child.terminate()
            child.wait(timeout=10)
            assert child.stderr is not None
            child.stderr.close()
            sock.close()
            if tower is not None:
                tower.close()
    return ready_ms, rss, idled


def idle_then_asleep(pid: int) -> list[tuple[float, float]]:
    """A waiting box's idle CPU twice: on the loop's idle tick (past start-up's own work and the loop's first quiet
    second), then once the loop sleeps (a second past SLEEP_AFTER, whatever came last: a table left alone)."""
    _quiet(1.0)
    tick = _idle(pid)
    _quiet(max(0.0, SLEEP_AFTER - IDLE_SECONDS))
    return [tick, _idle(pid)]


def _child_env() -> dict[str, str]:
    """A timed process's environment: SDL's offscreen driver and no audio, the buttons on gpiozero's MockFactory."""
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy", "GPIOZERO_PIN_FACTORY": "mock",
           "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    env.pop("SDL_FRAMEBUFFER_ACCELERATION", None)  # the process sets what the box sets, nothing more
    env.pop("PYTHONPATH", None)  # the install's own path, nothing of this checkout
    return env


def _idle(pid: int) -> tuple[float, float]:
    """Per cent of a core and wake-ups a second over IDLE_SECONDS."""
    (cpu0, sw0), t0 = _proc_cpu(pid), time.perf_counter()
    _quiet(IDLE_SECONDS)
    (cpu1, sw1), t1 = _proc_cpu(pid), time.perf_counter()
    return 100 * (cpu1 - cpu0) / (t1 - t0), (sw1 - sw0) / (t1 - t0)


def _until_connected(tower: Any, child: subprocess.Popen[bytes]) -> None:
    """The box talks to the virtual tower: a roll thrown is settled by the box (refused on the menu, or
    taken) and ACKed, so the tower's outbox empties."""
    tower.roll([("d8", 1)])
    deadline = time.monotonic() + STALL
    while tower.protocol.outbox:
        if time.monotonic() > deadline or child.poll() is not None:
            raise RuntimeError("the box never talked to the virtual tower")
        _quiet(0.05)


def _wait_ready(sock: socket.socket, child: subprocess.Popen[bytes], start: float) -> tuple[float, bytes]:
    """READY=1 on the notify socket, or the service's "ready:" log line, whichever comes first
    (milliseconds since the start, and what the service logged so far)."""
    assert child.stderr is not None
    with selectors.DefaultSelector() as sel:
        sel.register(sock, selectors.EVENT_READ)
        sel.register(child.stderr.fileno(), selectors.EVENT_READ)
        seen = b""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            for key, _ in sel.select(timeout=1):
                if key.fileobj is sock:
                    if b"READY=1" in sock.recv(4096).split(b"\n"):
                        return (time.perf_counter() - start) * 1000, seen
                else:
                    chunk = os.read(child.stderr.fileno(), 4096)
                    seen += chunk
                    if b"ready:" in seen:
                        return (time.perf_counter() - start) * 1000, seen
                    if not chunk and child.poll() is not None:
                        raise RuntimeError(f"companion run exited with {child.returncode}: {seen[-300:]!r}")
    raise RuntimeError("companion run did not get ready within 20 s")


def _ready_line(child: subprocess.Popen[bytes], seen: bytes) -> bytes:
    """The service's "ready: <parts>" log line (it follows READY=1), naming the parts in use."""
    assert child.stderr is not None
    with selectors.DefaultSelector() as sel:
        sel.register(child.stderr.fileno(), selectors.EVENT_READ)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            at = seen.find(b"ready:")
            if at >= 0 and b"\n" in seen[at:]:
                return seen[at:seen.index(b"\n", at)]
            if sel.select(timeout=1):
                chunk = os.read(child.stderr.fileno(), 4096)
                seen += chunk
                if not chunk:
                    break
    raise RuntimeError(f"companion run said no ready line: {seen[-300:]!r}")


def _quiet(seconds: float) -> None:
    """Let the process idle: we measure it, so this wait is the measurement window, not a synchronisation."""
    deadline = time.perf_counter() + seconds
    while (left := deadline - time.perf_counter()) > 0:
        time.sleep(min(left, 0.5))


def run() -> list[Row]:
    rows: list[Row] = []
    if not ONLY_PROCESSES:
        with cores_awake() as awake:
            print(f"service: idle cores {AWAKE if awake else ASLEEP}", file=sys.stderr)
            rows.append(Row(AREA, "idle cores kept from halting while the rolls below are timed (1 yes, 0 no)",
                            float(awake), "", "" if awake else "no wake-latency request: run as root"))
            rows += latency_rows()
            rows += framebuffer_rows()
        if awake:
            rows += asleep_rows()
        rows += busy_rows()
    with tempfile.TemporaryDirectory(prefix="bench-install-") as tmp:
        box = install_box(Path(tmp))
        for case in ("box, tower unplugged", "box, tower connected", "simulated table"):
            rows += process_rows(case, box)
    return rows


AWAKE = "kept from halting (a CPU wake-latency request of 0 us held: cores_awake)"
ASLEEP = (f"free to halt ({WAKE_LATENCY} could not be opened: it needs root): the roll's rows measure this machine's "
          "wake-ups")


def latency_rows() -> list[Row]:
    """The rows with targets: the roll in play, overlay off and on, from the tower and from the ROLL button."""
    rows: list[Row] = []
    for overlay, limit in ((False, 4.0), (True, 6.0)):
        tower_ms, button_ms, facts = game_latency(ROLLS, overlay)
        how = "overlay on" if overlay else "overlay off"
        print(f"service, {how}: journal on {facts['fs']}, {facts['games']} game(s), {facts['events']} events",
              file=sys.stderr)
        rows += summary(AREA, f"tower last byte -> OLED + 1080p frame, {how}", tower_ms, p99=limit)
        rows += summary(AREA, f"button edge -> OLED + 1080p frame, {how}", button_ms, p99=4.0 if not overlay else None)
        if not overlay:
            sent = sorted(facts["oled_bytes"])
            p50, p99 = sent[len(sent) // 2], sent[min(len(sent) - 1, round(0.99 * (len(sent) - 1)))]
            rows.append(Row(AREA, "OLED bytes on the bus per roll p50", p50, "B"))
            rows.append(Row(AREA, "OLED bytes on the bus per roll p99", p99, "B"))
            rows.append(Row(AREA, "I2C wire per roll p99, 400 kHz (computed)", wire_ms(p99, 400), "ms"))
            rows.append(Row(AREA, "I2C wire, a whole frame, 100 / 400 kHz (computed)", wire_ms(1030, 100), "ms",
                            f"{wire_ms(1030, 400):.1f} at 400"))
    return rows


def asleep_rows() -> list[Row]:
    """The tower's rows again with this machine's idle cores free to halt (no wake-latency request): no targets,
    what the hypervisor's wake-ups add (docs/performance.md, "The roll's tail on this machine")."""
    return tower_rows("idle cores free to halt")


def framebuffer_rows() -> list[Row]:
    """The same roll through the box's own projector path on a Pi's console, the framebuffer at the Pi's default
    RGB565 (a regular file here, not the Pi's fbdev emulation): the renderer's picture converted and copied, where
    on SDL's screen it is drawn in place. No targets: the rows above carry them; this is what the console adds."""
    return tower_rows("through the framebuffer (RGB565)", output="fbdev")


def tower_rows(label: str, output: str = "offscreen") -> list[Row]:
    """The tower's roll, overlay off and on, as rows with no targets named ``label`` (the button's rolls of the same
    games are left out: the rows compare the same games as the rows with targets)."""
    rows: list[Row] = []
    for overlay in (False, True):
        tower_ms, _, _ = game_latency(ROLLS, overlay, output=output)
        how = "overlay on" if overlay else "overlay off"
        rows += summary(AREA, f"{label}: tower last byte -> OLED + 1080p frame, {how}", tower_ms)
    return rows


def busy_rows() -> list[Row]:
    """The roll on a busy machine (``BUSY_PER_CORE`` busy programs a core), overlay off: as a plain process, and
    under the unit's scheduling (real-time, lowest priority), which needs CAP_SYS_NICE here (root). Beside the
    rows above, which carry the targets: what the same box meets when other programs want every core."""
    load = BUSY_PER_CORE * len(os.sched_getaffinity(0))
    rows: list[Row] = []
    policy = unit_scheduling()
    with busy(load):
        tower_ms, button_ms, _ = game_latency(ROLLS, False)
        rows += summary(AREA, f"busy machine ({load} busy programs): tower last byte -> OLED + 1080p frame", tower_ms)
        rows += summary(AREA, f"busy machine ({load} busy programs): button edge -> OLED + 1080p frame", button_ms)
        if policy is None:
            return rows
        try:
            tower_ms, button_ms, _ = game_latency(ROLLS, False, scheduling=policy)
        except PermissionError:
            rows.append(Row(AREA, "busy machine, the unit's scheduling: not measured", float("nan"), "ms",
                            "setting it needs CAP_SYS_NICE: run as root"))
            return rows
        rows += summary(AREA, f"busy machine ({load} busy programs), the unit's scheduling (real-time 1): tower "
                              "last byte -> OLED + 1080p frame", tower_ms)
        rows += summary(AREA, f"busy machine ({load} busy programs), the unit's scheduling: button edge -> OLED + "
                              "1080p frame", button_ms)
    return rows


INSTALLED = ("companion", "firmware_bridge", "hardware", "maps", "pyproject.toml", "README.md")
"""What a wheel of the project is built from (the package folders, the maps its data files name, the metadata)."""


def install_box(into: Path) -> Path:
    """The project installed in ``into`` as systemd/install.sh installs it on the Pi, and that venv's python.

    A non-editable ``pip install`` of a copy of this checkout (a copy: setuptools builds in the source folder,
    and a build/ left there by an older checkout would ship its deleted modules) into a fresh venv: the
    modules in its site-packages with the bytecode pip compiled (pip compiles whatever PYTHONDONTWRITEBYTECODE
    says), the maps in its share/, the ``companion`` console script in its bin/. Offline: no index, no
    dependencies fetched, the build with the dev venv's own setuptools (the ``[test]`` extra); the dependencies
    are the dev venv's site-packages, named by a plain path line in a .pth, so their .pth files (the editable
    finder's among them) are not run. Raises RuntimeError when the box would not import from the install."""
    import shutil
    import site
    import venv
    from importlib.metadata import version

    setuptools = version("setuptools")
    if int(setuptools.split(".")[0]) < 77:
        raise RuntimeError(f"the benchmark builds the project offline with this venv's setuptools, {setuptools} "
                           "here; pyproject.toml needs >= 77 (`pip install -e '.[test]'` brings it)")
    root = Path(__file__).resolve().parent.parent
    source = into / "src"
    for name in INSTALLED:
        if (root / name).is_dir():
            shutil.copytree(root / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(root / name, source / name)
    venv.EnvBuilder(symlinks=True, with_pip=False).create(into / "venv")
    python = into / "venv" / "bin" / "python"
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], cwd=into,
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "dev-venv.pth").write_text("".join(f"{path}\n" for path in site.getsitepackages()))
    done = subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                           "--no-build-isolation", "--ignore-installed", str(source)],
                          cwd=into, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"pip install of the box failed: {done.stderr.strip()[-500:]}")
    where = subprocess.run([python, "-c", IMPORTED_FROM], cwd=into, env=_child_env(), capture_output=True,
                           text=True, check=True).stdout.split()
    if not all(path.startswith(purelib) for path in where[:-1]) or where[-1] != "False":
        raise RuntimeError(f"the installed box imports {where} (wanted {purelib}, no editable finder)")
    return python


IMPORTED_FROM = """\
import sys
import companion.cli, companion.commands.run, hardware.buttons, firmware_bridge.link
print(companion.cli.__file__, companion.commands.run.__file__, hardware.buttons.__file__,
      firmware_bridge.link.__file__, any("editable" in name for name in sys.modules))
"""
"""Where a process started as the timed ones are imports the box's modules from, and whether an editable finder
was loaded."""
