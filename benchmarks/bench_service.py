"""The running box: input-to-picture latency, start-up, memory and idle CPU.

- Latency: from the last byte of a tower frame written on the pty, from a button edge on
  gpiozero's MockFactory pin, and from a key event reaching the laptop window, to the OLED image
  and the projector frame being ready (p50, p99). Measured in-process on the simulated table with
  its window (SDL's offscreen driver): real link, real buttons, the OLED on luma's dummy device,
  the projector map rendered and drawn beside it. Keys are timed in both of the loop's paces: in
  use (its short tick) and after a quiet second (its idle tick), each key arriving at a random
  moment as a person's would.
- Start-up, memory, idle CPU: a real ``companion run --sim`` process, headless and with the
  window (map + OLED, offscreen driver); ready is its sd_notify READY=1 on our own NOTIFY_SOCKET
  (or its "ready" log line), memory is VmRSS from /proc, idle CPU is the run time the kernel
  accounts to all its threads (schedstat, in nanoseconds) over a few quiet seconds.
"""

from __future__ import annotations

import os
import random
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks._table import Row, summary
from companion.commands.run import IN_USE_TICK

AREA = "service"
IDLE_SECONDS = 4.0
KEY_SAMPLES = 30


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


def process_rows(headless: bool = True) -> list[Row]:
    """Start-up to READY, resident memory and idle CPU of `companion run --sim [--headless]`
    (the window on SDL's offscreen driver: the same pumping and drawing, no screen needed)."""
    with tempfile.TemporaryDirectory(prefix="bench-service-") as tmp:
        sock_path = os.path.join(tmp, "notify")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(sock_path)
        sock.settimeout(10)
        env = {**os.environ, "NOTIFY_SOCKET": sock_path, "SDL_VIDEODRIVER": "offscreen",
               "SDL_AUDIODRIVER": "dummy", "GPIOZERO_PIN_FACTORY": "mock", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
        start = time.perf_counter()
        mode = ["--headless"] if headless else []
        child = subprocess.Popen([sys.executable, "-m", "companion", "run", "--sim", *mode,
                                  "--journal", os.path.join(tmp, "j.sqlite")],
                                 env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            ready_ms, said = _wait_ready(sock, child, start)
            parts = _ready_line(child, said)
            if not headless and not (b"projector window" in parts and b"window pygame" in parts):
                raise RuntimeError(f"the window case runs without the map beside the OLED: {parts!r}")
            rss = _rss_mb(child.pid)
            _quiet(1.0)  # past start-up's own work and the loop's first quiet second
            (cpu0, sw0), t0 = _proc_cpu(child.pid), time.perf_counter()
            _quiet(IDLE_SECONDS)
            (cpu1, sw1), t1 = _proc_cpu(child.pid), time.perf_counter()
            rss = max(rss, _rss_mb(child.pid))
        finally:
            child.terminate()
            child.wait(timeout=10)
            child.stderr.close()
            sock.close()
    how = "headless" if headless else "window"
    return [
        Row(AREA, f"start-up to READY ({how})", ready_ms, "ms", "< 2000"),
        Row(AREA, f"resident memory ({how})", rss, "MB", "< 100"),
        Row(AREA, f"idle CPU ({how})", 100 * (cpu1 - cpu0) / (t1 - t0), "% core", "< 1"),
        Row(AREA, f"idle wake-ups, all threads ({how})", (sw1 - sw0) / (t1 - t0), "/s"),
    ]


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


def table_latency(samples: int = 150) -> tuple[list[float], list[float], list[float], list[float]]:
    """On the simulated table with its window (real link, real Buttons, OLED on luma's dummy device,
    projector map drawn beside it), in ms: a tower frame's last byte on the pty, a button edge on a
    MockFactory pin, and a key event in the window (loop in use, loop idle), to the OLED image
    displayed and the frame handed to every view."""
    from companion.journal import Journal
    from companion.sim import build_table

    with tempfile.TemporaryDirectory(prefix="bench-service-") as tmp, Journal(Path(tmp) / "j.sqlite") as journal, \
            build_table(journal, sim=True, headless=False, tick=IN_USE_TICK) as table:
        if table.parts.get("projector") != "window" or "window" not in table.parts:
            raise RuntimeError(f"the simulated table has no projector window: {table.describe()}")
        session, loop = table.session, table.loop
        session.start(resume=False)  # the menu: each input below changes what is shown
        shown: list[float] = []
        loop.on_shown = lambda frame: shown.append(time.perf_counter())
        loop.show()
        tower = table.parts["tower-device"]
        keys = table.parts["keys"]
        _settle(loop, lambda: session.panel.tower == "connected")
        tower_ms, button_ms = [], []
        for i in range(samples):
            before = len(shown)
            tower.roll([("d8", i % 8 + 1)])
            start = time.perf_counter()  # the roll frame's last byte is on the pty
            _settle(loop, lambda before=before: len(shown) > before)
            tower_ms.append((shown[-1] - start) * 1000)
            before = len(shown)
            start = time.perf_counter()
            keys.press("DOWN")
            _settle(loop, lambda before=before: len(shown) > before)
            button_ms.append((shown[-1] - start) * 1000)
            keys.release("DOWN")
        loop.quiet_after = float("inf")
        in_use = _key_latency(loop, shown, KEY_SAMPLES)
        loop.quiet_after = 0.0
        idle = _key_latency(loop, shown, KEY_SAMPLES)
        return tower_ms, button_ms, in_use, idle


def _key_latency(loop, shown: list[float], samples: int) -> list[float]:  # type: ignore[no-untyped-def]
    """A key (DOWN, down and up) put on SDL's event queue from another thread at a random moment
    of the loop's wait, as a person's key press comes; timed to the first frame shown after the
    session took the press (other frames, a tower status say, are not the key's). The loop runs
    its own pace here (no timeout given), so its tick is part of what is measured."""
    import pygame

    session = loop.session
    took: list[int] = []  # for each DOWN press the session took: the index its frame will have in ``shown``
    handle = session.handle

    def handle_and_mark(event):  # type: ignore[no-untyped-def]
        changed = handle(event)
        if getattr(event, "button", None) == "DOWN":
            took.append(len(shown))
        return changed

    session.handle = handle_and_mark
    ms: list[float] = []
    rng = random.Random(7)
    try:
        for _ in range(samples):
            posted: list[float] = []
            before = len(took)

            def press(delay: float = rng.uniform(0, 2 * loop.wait()), posted: list[float] = posted) -> None:
                time.sleep(delay)  # the moment the person presses: part of the stimulus, not a synchronisation
                posted.append(time.perf_counter())
                for kind in (pygame.KEYDOWN, pygame.KEYUP):
                    pygame.event.post(pygame.event.Event(kind, key=pygame.K_DOWN, mod=0, unicode="", scancode=0))

            person = threading.Thread(target=press)
            person.start()
            deadline = time.monotonic() + 5
            while len(took) <= before or len(shown) <= took[before]:
                if time.monotonic() > deadline:
                    raise RuntimeError("the window's key did not reach the table within 5 s")
                loop.step()
            person.join()
            ms.append((shown[took[before]] - posted[0]) * 1000)
    finally:
        session.handle = handle
    return ms


def _settle(loop, condition, seconds: float = 5.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError("the simulated table did not answer within 5 s")
        loop.step(timeout=0.05)


def run() -> list[Row]:
    tower_ms, button_ms, key_in_use_ms, key_idle_ms = table_latency()
    rows = summary(AREA, "tower last byte -> OLED image + frame", tower_ms, "p99 < 20")
    rows += summary(AREA, "button edge -> OLED image + frame", button_ms, "p99 < 20")
    rows += summary(AREA, "window key -> frame, in use", key_in_use_ms, "< 50")
    rows += summary(AREA, "window key -> frame, after a quiet second", key_idle_ms)
    rows += process_rows(headless=True)
    rows += process_rows(headless=False)
    return rows
