"""The virtual tower and the ``companion tower`` commands, end to end through real processes."""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

import pytest

from firmware_bridge.virtual import VirtualTower, parse_dice


def lines_of(stream: IO[str]) -> queue.Queue[str]:
    """A queue fed with the stream's lines by a thread, so tests can wait with a timeout."""
    q: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        for line in stream:
            q.put(line.rstrip("\n"))

    threading.Thread(target=pump, daemon=True).start()
    return q


def companion(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "companion", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)



STOP_WAIT = 10.0
"""Seconds a command gets to stop on SIGTERM before it is killed."""


def stop(proc: subprocess.Popen | None) -> tuple[int | None, str]:
    """SIGTERM (the commands stop on it as on Ctrl-C, printing what they print), then SIGKILL after STOP_WAIT:
    SIGINT would do nothing when the suite runs with it ignored (`trap '' INT`), which the children inherit.
    Returns the exit code and what is left of stderr (empty if a reader thread took it)."""
    if proc is None:
        return None, ""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=STOP_WAIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=STOP_WAIT)
    err = ""
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None and not stream.closed:
            if stream is proc.stderr:
                try:
                    err = stream.read()
                except ValueError:  # read by a reader thread at the same time
                    err = ""
            stream.close()
    return proc.returncode, err


def interrupt(*procs: subprocess.Popen | None) -> None:
    """Stop every command still running (a test never leaves one behind)."""
    for proc in procs:
        stop(proc)


def virtual_with(script: Path) -> tuple[int, str]:
    """``companion tower virtual --script FILE`` run to its end: (exit code, stderr)."""
    proc = companion("tower", "virtual", "--script", str(script))
    _, err = proc.communicate(timeout=20)
    return proc.returncode, err

def test_parse_dice_accepts_typed_forms_and_names_bad_ones() -> None:
    assert parse_dice("d6 3 D8 5") == [("d6", 3), ("d8", 5)]
    assert parse_dice("d6:3, d8:8") == [("d6", 3), ("d8", 8)]
    for bad in ("d6", "d6 7", "d20 3", ""):
        with pytest.raises(ValueError):
            parse_dice(bad)


def test_replug_points_the_same_path_at_a_new_pty(tmp_path: Path) -> None:
    with VirtualTower(str(tmp_path)) as tower:
        first = tower.device
        assert Path(tower.path).resolve() == Path(first)
        tower.unplug()
        assert not Path(tower.path).exists() and tower.device is None
        tower.replug()
        assert Path(tower.path).resolve() == Path(tower.device)


def test_virtual_and_listen_commands_carry_scripted_and_typed_rolls(tmp_path: Path) -> None:
    script = tmp_path / "rolls.txt"
    script.write_text("# opening rolls\nd8 7\nd6 2 d8 1\n")
    virtual = companion("tower", "virtual", "--script", str(script))
    listen = None
    try:
        out = lines_of(virtual.stdout)  # type: ignore[arg-type]
        path = out.get(timeout=20)
        listen = companion("tower", "listen", "--port", path, "--json")
        got = lines_of(listen.stdout)  # type: ignore[arg-type]
        rolls = [json.loads(got.get(timeout=20)) for _ in range(2)]
        virtual.stdin.write("d6 6\n")  # type: ignore[union-attr]
        virtual.stdin.flush()  # type: ignore[union-attr]
        rolls.append(json.loads(got.get(timeout=20)))
        assert rolls == [
            {"seq": 1, "dice": [{"die": "d8", "value": 7}]},
            {"seq": 2, "dice": [{"die": "d6", "value": 2}, {"die": "d8", "value": 1}]},
            {"seq": 3, "dice": [{"die": "d6", "value": 6}]},
        ]
        code, err = stop(listen)
        assert code == 0
        assert "accepted=3" in err
    finally:
        interrupt(listen, virtual)


def test_virtual_with_a_bad_script_line_is_one_line_error(tmp_path: Path) -> None:
    script = tmp_path / "rolls.txt"
    script.write_text("d6 3\nd6 9\n")
    code, err = virtual_with(script)
    assert code == 2
    assert f"{script}:2:" in err and "Traceback" not in err


def test_listen_names_every_rejected_frame_on_stderr_and_counts_them(tmp_path: Path) -> None:
    from tests.test_protocol import REJECTED_LINES as bad

    with VirtualTower(str(tmp_path)) as tower:
        listen = companion("tower", "listen", "--port", tower.path, "--json")
        try:
            err = lines_of(listen.stderr)  # type: ignore[arg-type]
            while "tower connected" not in err.get(timeout=20):
                pass
            tower.roll([("d6", 4)])
            assert json.loads(lines_of(listen.stdout).get(timeout=20)) == {  # type: ignore[arg-type]
                "seq": 1, "dice": [{"die": "d6", "value": 4}]}
            for line in bad.values():
                tower.send_raw(line)
            named = []
            while len(named) < len(bad):
                text = err.get(timeout=20)
                if text.startswith("rejected "):
                    named.append(text.split()[1].rstrip(":"))
            assert named == list(bad)
            listen.send_signal(signal.SIGTERM)
            counts = err.get(timeout=20)
            while not counts.startswith("counts: "):
                counts = err.get(timeout=20)
            assert listen.wait(timeout=20) == 0
        finally:
            stop(listen)
    assert "accepted=1" in counts
    assert all(f"{reason}=1" in counts for reason in bad)


def test_listen_on_a_url_pyserial_cannot_read_is_one_line_error() -> None:
    proc = companion("tower", "listen", "--port", "bogus://tower")
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 2
    assert err.strip() == "companion: --port bogus://tower: invalid URL, protocol 'bogus' not known"


def test_typed_faults_reach_the_listener_and_a_roll_thrown_while_unplugged_arrives_once(tmp_path: Path) -> None:
    script = tmp_path / "rolls.txt"
    script.write_text("d8 7\n")
    virtual = companion("tower", "virtual", "--script", str(script))
    listen = None
    try:
        path = lines_of(virtual.stdout).get(timeout=20)  # type: ignore[arg-type]
        said = lines_of(virtual.stderr)  # type: ignore[arg-type]
        listen = companion("tower", "listen", "--port", path, "--json")
        got = lines_of(listen.stdout)  # type: ignore[arg-type]
        err = lines_of(listen.stderr)  # type: ignore[arg-type]
        assert json.loads(got.get(timeout=20))["seq"] == 1
        virtual.stdin.write("!garbage\n!badsum  # counted, not delivered\n")  # type: ignore[union-attr]
        virtual.stdin.flush()  # type: ignore[union-attr]
        while "rejected bad_checksum" not in err.get(timeout=20):
            pass
        for line in ("!unplug", "d6 2", "!replug", "!nosuch"):
            virtual.stdin.write(line + "\n")  # type: ignore[union-attr]
        virtual.stdin.flush()  # type: ignore[union-attr]
        assert json.loads(got.get(timeout=20)) == {"seq": 2, "dice": [{"die": "d6", "value": 2}]}
        while "unknown fault !nosuch" not in (line := said.get(timeout=20)):
            assert "Traceback" not in line
        listen.send_signal(signal.SIGTERM)
        counts = err.get(timeout=20)
        while not counts.startswith("counts: "):
            counts = err.get(timeout=20)
        assert "accepted=2" in counts and "bad_checksum=1" in counts and "disconnects=1" in counts
        assert got.empty()
    finally:
        interrupt(listen, virtual)


def test_a_bad_fault_in_a_script_is_one_line_error(tmp_path: Path) -> None:
    script = tmp_path / "rolls.txt"
    script.write_text("d6 3\n!explode\n")
    code, err = virtual_with(script)
    assert code == 2 and "Traceback" not in err
    assert err.splitlines()[-1].startswith(f"companion: {script}:2: unknown fault !explode (known: !rolling")
