"""The running box: input-to-picture latency, start-up, memory and idle CPU.

- Latency: from the last byte of a tower frame written on the pty, and from a button edge on
  gpiozero's MockFactory pin, to the OLED image and the projector frame being ready (p50, p99).
  Measured in-process on the simulated table: real link, real buttons, real views.
- Start-up, memory, idle CPU: a real ``companion run --sim --headless`` process; ready is its
  sd_notify READY=1 on our own NOTIFY_SOCKET (or its "ready" log line), memory is VmRSS from
  /proc, idle CPU is its user+system time over a few quiet seconds.
"""

from __future__ import annotations

import os
import selectors
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._table import Row, summary

AREA = "service"
IDLE_SECONDS = 5.0


def _proc_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def process_rows(headless: bool = True) -> list[Row]:
    """Start-up to READY, resident memory and idle CPU of `companion run --sim [--headless]`
    (the window on SDL's dummy driver: the same pumping and drawing, no screen needed)."""
    with tempfile.TemporaryDirectory(prefix="bench-service-") as tmp:
        sock_path = os.path.join(tmp, "notify")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(sock_path)
        sock.settimeout(10)
        # The window on SDL's dummy driver: a software surface like a desktop window's. (SDL's offscreen
        # driver loads EGL/Mesa, about 90 MB of libraries no laptop window or the Pi's KMSDRM path needs.)
        env = {**os.environ, "NOTIFY_SOCKET": sock_path, "SDL_VIDEODRIVER": "dummy",
               "SDL_AUDIODRIVER": "dummy", "GPIOZERO_PIN_FACTORY": "mock", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
        start = time.perf_counter()
        mode = ["--headless"] if headless else []
        child = subprocess.Popen([sys.executable, "-m", "companion", "run", "--sim", *mode,
                                  "--journal", os.path.join(tmp, "j.sqlite")],
                                 env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            ready_ms = _wait_ready(sock, child, start)
            rss = _rss_mb(child.pid)
            cpu0, t0 = _proc_cpu_seconds(child.pid), time.perf_counter()
            _quiet(IDLE_SECONDS)
            cpu1, t1 = _proc_cpu_seconds(child.pid), time.perf_counter()
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
    ]


def _wait_ready(sock: socket.socket, child: subprocess.Popen[bytes], start: float) -> float:
    """READY=1 on the notify socket, or the service's "ready:" log line, whichever comes first."""
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
                        return (time.perf_counter() - start) * 1000
                else:
                    chunk = os.read(child.stderr.fileno(), 4096)
                    seen += chunk
                    if b"ready:" in seen:
                        return (time.perf_counter() - start) * 1000
                    if not chunk and child.poll() is not None:
                        raise RuntimeError(f"companion run exited with {child.returncode}: {seen[-300:]!r}")
    raise RuntimeError("companion run did not get ready within 20 s")


def _quiet(seconds: float) -> None:
    """Let the process idle: we measure it, so this wait is the measurement window, not a synchronisation."""
    deadline = time.perf_counter() + seconds
    while (left := deadline - time.perf_counter()) > 0:
        time.sleep(min(left, 0.5))


def table_latency(samples: int = 150) -> tuple[list[float], list[float]]:
    """On the simulated table (real link, real Buttons, OLED on luma's dummy device), in ms:
    a tower frame's last byte on the pty, and a button edge on a MockFactory pin, to the OLED
    image displayed and the frame handed to every view."""
    from companion.journal import Journal
    from companion.sim import build_table

    with tempfile.TemporaryDirectory(prefix="bench-service-") as tmp, Journal(Path(tmp) / "j.sqlite") as journal, \
            build_table(journal, sim=True, headless=True, tick=0.05) as table:
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
        return tower_ms, button_ms


def _settle(loop, condition, seconds: float = 5.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError("the simulated table did not answer within 5 s")
        loop.step(timeout=0.05)


def run() -> list[Row]:
    tower_ms, button_ms = table_latency()
    rows = summary(AREA, "tower last byte -> OLED image + frame", tower_ms, "p99 < 20")
    rows += summary(AREA, "button edge -> OLED image + frame", button_ms, "p99 < 20")
    rows += process_rows(headless=True)
    rows += process_rows(headless=False)
    return rows
