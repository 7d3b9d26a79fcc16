"""`companion run --sim --headless` as a real process: ready, honest about a damaged journal, stops on SIGTERM."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

from companion.dice import DiceRolled
from companion.journal import Entry, Journal

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy", "GPIOZERO_PIN_FACTORY": "mock",
       "PYGAME_HIDE_SUPPORT_PROMPT": "1"}


def _start(journal: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "companion", "run", "--sim", "--headless", "--journal",
                             str(journal)], cwd=REPO, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _lines_until_ready(child: subprocess.Popen[bytes], seconds: float = 20) -> list[str]:
    """stderr lines up to the "ready:" line, read raw from the fd (a buffered reader would hide lines from select)."""
    assert child.stderr is not None
    fd = child.stderr.fileno()
    buffer = b""
    deadline = time.monotonic() + seconds
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while time.monotonic() < deadline:
            if not sel.select(timeout=0.5):
                continue
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            buffer += chunk
            lines = buffer.decode().splitlines()
            if any("ready:" in x for x in lines):
                return lines
    raise AssertionError(f"no ready line; stderr so far: {buffer.decode()!r}")


def _stop(child: subprocess.Popen[bytes]) -> int:
    child.send_signal(signal.SIGTERM)
    try:
        return child.wait(timeout=10)
    finally:
        child.stderr.close()


def test_starts_ready_and_stops_cleanly(tmp_path):
    child = _start(tmp_path / "j.sqlite")
    lines = _lines_until_ready(child)
    assert all("Traceback" not in x for x in lines)
    assert _stop(child) == 0
    assert (tmp_path / "j.sqlite").exists()


def test_damaged_journal_is_kept_aside_and_the_box_still_starts(tmp_path):
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"\x00garbage" * 500)
    child = _start(path)
    lines = _lines_until_ready(child)
    assert any("kept as j.sqlite." in x and "new journal started" in x for x in lines)
    assert _stop(child) == 0
    assert next(p for p in tmp_path.iterdir() if p.name.endswith(".aside")).read_bytes().startswith(b"\x00garbage")


def test_an_unplayable_saved_game_does_not_stop_the_box(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        gid = j.new_game("no-such-game", {})
        j.append(gid, Entry("event", DiceRolled.of(("d8", 2))))
    child = _start(path)
    lines = _lines_until_ready(child)
    assert any("unknown game 'no-such-game'" in x for x in lines)
    assert _stop(child) == 0


def test_typed_quit_on_stdin_ends_the_service(tmp_path):
    child = subprocess.Popen([sys.executable, "-m", "companion", "run", "--sim", "--headless", "--stdin",
                              "--journal", str(tmp_path / "j.sqlite")], cwd=REPO, env=ENV,
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _lines_until_ready(child)
    child.stdin.write(b"jump\ndown\nquit\n")
    child.stdin.close()
    assert child.wait(timeout=10) == 0
    rest = child.stderr.read().decode()
    child.stderr.close()
    assert "'jump': expected a die" in rest


def test_tells_systemd_ready_pings_the_watchdog_and_says_stopping(tmp_path):
    """The Type=notify contract over a real AF_UNIX datagram socket, as systemd's NOTIFY_SOCKET is."""
    import socket

    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(address)
        sock.settimeout(20)
        env = {**ENV, "NOTIFY_SOCKET": address, "WATCHDOG_USEC": "2000000"}
        child = subprocess.Popen([sys.executable, "-m", "companion", "run", "--sim", "--headless", "--journal",
                                  str(tmp_path / "j.sqlite")], cwd=REPO, env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE)
        try:
            got = [sock.recv(64).decode()]
            while "READY=1" not in got:
                got.append(sock.recv(64).decode())
            while got.count("WATCHDOG=1") < 2:  # the loop goes on pinging after READY
                got.append(sock.recv(64).decode())
            child.send_signal(signal.SIGTERM)
            while got[-1] != "STOPPING=1":
                got.append(sock.recv(64).decode())
            assert child.wait(timeout=10) == 0
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            child.stderr.close()
    assert set(got) <= {"READY=1", "WATCHDOG=1", "STOPPING=1"} and got.count("READY=1") == 1
    assert got.index("READY=1") < max(i for i, message in enumerate(got) if message == "WATCHDOG=1")
