"""The tower's firmware files under a real MicroPython: the WebAssembly port from npm, run by Node.

tests/firmware/package.json pins @micropython/micropython-webassembly-pyscript (``npm ci`` in that
folder; .ci/run does it). The port has no ``machine`` module and its ``time`` is the real clock, so the
board is faked by MicroPython modules in tests/firmware/shim/ (pins, watchdog, a tick counter the test
moves, the USB link); wire.py, tower.py, board.py, readers.py and main.py run unchanged, flat, as on a Pico.
The port's floats are double precision (the RP2040's are single): the clock test therefore checks that
every time value is an int and that ``ticks_diff``/``ticks_add`` (which refuse floats) carry every span.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from firmware_bridge.wire import FACES, Frame, FrameParser, crc16, encode
from tests.firmware.wire_cases import FRAMES, LINES

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "tests" / "firmware"
BOARD_FILES = [ROOT / "firmware_bridge" / name for name in
               ("wire.py", "tower.py", "firmware/board.py", "firmware/readers.py", "firmware/main.py")]
SHIM = sorted((HERE / "shim").glob("*.py"))


def micropython(script: str, files: list[Path]) -> dict:
    node = shutil.which("node")
    if node is None or not (HERE / "node_modules" / "@micropython").is_dir():
        pytest.fail("MicroPython's WebAssembly port is not installed: run `npm ci --prefix tests/firmware` "
                    "(Node 18 or later)")
    done = subprocess.run([node, str(HERE / "run.mjs"), str(HERE / script), *map(str, files)],
                          capture_output=True, text=True, timeout=300, cwd=HERE)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    return json.loads(lines[-1])


def test_it_is_micropython_that_runs_them() -> None:
    got = micropython("probe.py", [])
    assert got["implementation"] == "micropython" and got["machine_module"] is False


@pytest.fixture(scope="module")
def hundred_hours() -> dict:
    """One 100-hour run (about 10 s of Node), shared by the tests that read its findings."""
    return micropython("clock_100h.py", [*SHIM, *BOARD_FILES])


def test_a_pressed_face_after_100_hours_gives_a_roll_and_heartbeats_go_on(hundred_hours: dict) -> None:
    got = hundred_hours
    assert got["turns"] == 180_000 and got["idle_heartbeats"] == 180_000  # one each 2 s turn, for 100 h
    assert got["wraps"] == 1  # the 2**30 ms tick counter wrapped one hour in
    assert got["types"] == {"now": "int", "last_sent": "int", "outbox": ["int"], "down_since": "int"}
    assert got["rolling"] == 1
    assert got["rolls"] == [[1, [["d8", 3]], got["boot"]]]
    assert got["outbox_after_ack"] == 0 and got["heartbeats_after"] >= 2
    assert got["rejected"] == 0


def test_the_watchdog_is_fed_by_the_loop_and_ctrl_c_is_only_data(hundred_hours: dict) -> None:
    got = hundred_hours
    [(timeout, feeds, starved)] = got["watchdog"]
    assert timeout <= 8388 and starved == 0 and feeds >= got["turns"]
    assert got["kbd_intr"] == [-1]
    assert got["tower_rejected"]["malformed"] == 1  # the terminal's Ctrl-C and Enter: one dropped line


def test_the_bench_switch_invents_rolls_and_the_keypad_is_the_default() -> None:
    from firmware_bridge.firmware import board

    assert board.READER == "keypad"
    got = micropython("bench_reader.py", [*SHIM, *BOARD_FILES])
    assert got["reader"] == "RandomReader" and got["wraps"] == 1
    seqs = [seq for seq, _ in got["rolls"]]
    assert seqs == [1, 2, 3] and got["rolling"] == 3  # every 5 s over 16 s
    assert all(1 <= face <= FACES[kind] for _, dice in got["rolls"] for kind, face in dice)


def test_the_wire_module_is_byte_for_byte_the_same_under_micropython() -> None:
    got = micropython("wire_vectors.py", [ROOT / "firmware_bridge" / "wire.py", HERE / "wire_cases.py"])
    assert got["crc"] == crc16(b"123456789") == 0x29B1
    frames = [Frame(name, **fields) for name, fields in FRAMES]
    expected = [encode(frame, version).decode() for version in (1, 2) for frame in frames]
    assert got["encoded"] == expected
    parser = FrameParser()
    lines = [*LINES, *(e.encode() for e in expected)]
    parsed = [repr(item) if isinstance(item, Frame) else item.reason for line in lines for item in parser.feed(line)]
    assert got["parsed"] == parsed and got["counts"] == parser.counts
