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
IDLE_SECONDS = 3.0


def _proc_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def process_rows() -> list[Row]:
    """Start-up to READY, resident memory and idle CPU of `companion run --sim --headless`."""
    with tempfile.TemporaryDirectory(prefix="bench-service-") as tmp:
        sock_path = os.path.join(tmp, "notify")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(sock_path)
        sock.settimeout(10)
        env = {**os.environ, "NOTIFY_SOCKET": sock_path, "SDL_VIDEODRIVER": "offscreen",
               "SDL_AUDIODRIVER": "dummy", "GPIOZERO_PIN_FACTORY": "mock", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "companion", "run", "--sim", "--headless",
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
    return [
        Row(AREA, "start-up to READY", ready_ms, "ms", "< 2000"),
        Row(AREA, "resident memory", rss, "MB", "< 100"),
        Row(AREA, "idle CPU (headless)", 100 * (cpu1 - cpu0) / (t1 - t0), "% core", "< 1"),
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


def button_latency(samples: int = 200) -> list[float]:
    """A gpiozero Button on MockFactory: pin edge -> queue -> session -> frame handed to the views (ms)."""
    import queue

    from gpiozero import Button, Device
    from gpiozero.pins.mock import MockFactory

    from companion.journal import Journal
    from companion.session import Press, Session
    from companion.session.loop import Loop

    previous = Device.pin_factory
    Device.pin_factory = factory = MockFactory()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-service-") as tmp, Journal(Path(tmp) / "j.sqlite") as journal:
            inbox: queue.Queue[object] = queue.Queue()
            session = Session(journal)
            session.start(resume=False)  # the menu: DOWN moves its selection, a visible change each time
            shown: list[float] = []
            loop = Loop(session, inbox, [], on_shown=lambda frame: shown.append(time.perf_counter()))
            button = Button(17, bounce_time=None)
            button.when_pressed = lambda: inbox.put(Press("DOWN"))
            pin = factory.pin(17)
            out = []
            for _ in range(samples):
                start = time.perf_counter()
                pin.drive_low()
                loop.step(timeout=1)
                out.append((shown[-1] - start) * 1000)
                pin.drive_high()
            button.close()
            return out
    finally:
        factory.reset()
        Device.pin_factory = previous


def run() -> list[Row]:
    rows = summary(AREA, "button edge -> frame to views", button_latency(), "p99 < 20")
    rows += process_rows()
    return rows
