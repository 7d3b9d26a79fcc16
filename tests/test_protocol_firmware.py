"""The firmware's readers and the tower protocol they drive, under CPython (as on the board)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from firmware_bridge.firmware.readers import KeypadReader, RandomReader
from firmware_bridge.tower import TowerProtocol
from firmware_bridge.wire import Frame, FrameParser, encode


class Pin:
    """A machine.Pin stand-in with the one method the reader uses (MicroPython is not on the host)."""

    def __init__(self, value: int = 1) -> None:
        self.level = value

    def value(self) -> int:
        return self.level


def test_random_reader_says_rolling_then_fair_faces_in_range() -> None:
    reader = RandomReader(kinds=("d8", "d6"), every=1.0)
    seen = []
    t = 0.0
    while len(seen) < 200:
        got = reader.poll(t)
        if isinstance(got, list):
            seen.append(got)
        t += 0.25
    assert all(1 <= d8 <= 8 and 1 <= d6 <= 6 for (_, d8), (_, d6) in seen)
    assert {v for (_, v), _ in seen} == set(range(1, 9))


def test_keypad_reader_settles_and_flags_two_faces_as_crooked() -> None:
    pins = [Pin() for _ in range(8)]
    kind = Pin(0)  # low: d6
    reader = KeypadReader(pins, kind, settle=0.05)
    pins[2].level = 0
    assert reader.poll(0.0) == "rolling"
    assert reader.poll(0.01) is None
    assert reader.poll(0.06) == [("d6", 3)]
    assert reader.poll(0.2) is None
    pins[4].level = 0
    assert reader.poll(0.3)[0] == "crooked"
    pins[2].level = pins[4].level = 1
    assert reader.poll(0.4) is None
    pins[6].level = 0
    reader.poll(0.5)
    assert reader.poll(0.6)[0] == "crooked"  # face 7 on a d6


def test_firmware_loop_frames_are_what_the_host_parses() -> None:
    wire = bytearray()
    tower = TowerProtocol(wire.extend, "c0ffee01")
    reader = RandomReader(every=1.0)
    t = 0.0
    tower.hello(t)
    while tower.next_seq < 4:
        got = reader.poll(t)
        if got == "rolling":
            tower.rolling(t)
        elif got:
            tower.roll(got, t)
        tower.tick(t)
        t += 0.1
    frames = FrameParser().feed(bytes(wire))
    assert all(isinstance(f, Frame) for f in frames)
    # Unacknowledged rolls are resent (no host here), so the numbers repeat but never skip.
    seqs = [f.seq for f in frames if f.kind == "ROLL"]
    assert sorted(set(seqs)) == [1, 2, 3] and seqs[:2] == [1, 2]
    assert {f.kind for f in frames} == {"HELLO", "ROLLING", "ROLL"}
    tower.receive(encode(Frame("ACK", seq=1, boot="0ther001")), t)  # another power-up's ACK: ignored
    assert len(tower.outbox) == 3 and tower.foreign_acks == 1
    for seq in (1, 2, 3):
        tower.receive(encode(Frame("ACK", seq=seq, boot="c0ffee01")), t)
    wire.clear()
    tower.tick(t + 5)
    assert FrameParser().feed(bytes(wire)) == [Frame("HB")]  # nothing left to resend: a heartbeat


def test_a_full_outbox_drops_the_oldest_says_so_and_hello_moves_past_it() -> None:
    from firmware_bridge.tower import OUTBOX_SIZE

    wire = bytearray()
    tower = TowerProtocol(wire.extend, "f0f0f0f0", retry=1e9)
    for n in range(OUTBOX_SIZE + 1):  # nobody ACKs: a self-powered tower left rolling off the cable
        tower.roll([("d6", 1 + n % 6)], now=0.0)
    assert [seq for seq, _, _ in tower.outbox] == list(range(2, OUTBOX_SIZE + 2))
    frames = FrameParser().feed(bytes(wire))
    assert Frame("ERR", code="outbox_full", text="roll 1 dropped") in frames
    wire.clear()
    tower.receive(encode(Frame("SYNC")), now=1.0)
    hello, *resent = FrameParser().feed(bytes(wire))
    assert hello.kind == "HELLO" and hello.seq == 2  # the box moves past the roll that is gone
    assert [f.seq for f in resent] == list(range(2, OUTBOX_SIZE + 2))


def test_a_version_1_tower_speaks_and_hears_version_1_frames() -> None:
    wire = bytearray()
    tower = TowerProtocol(wire.extend, "c0ffee01", version=1)
    tower.hello(0.0)
    tower.roll([("d6", 3), ("d6", 4)], 0.0)
    assert bytes(wire).endswith(b"$ROLL,1,d6:3,d6:4*07\r\n")  # XOR check, no boot
    assert [f.wire for f in FrameParser().feed(bytes(wire))] == [1, 1]
    tower.receive(encode(Frame("ACK", seq=1, boot="c0ffee01")), 1.0)  # version 2 framing: not its language
    assert len(tower.outbox) == 1 and tower.parser.counts["version_mismatch"] == 1
    tower.receive(encode(Frame("ACK", seq=1), 1), 1.0)
    assert tower.outbox == []


def test_the_firmware_files_run_flat_as_on_the_board(tmp_path: Path) -> None:
    """On the board wire.py, tower.py and readers.py sit side by side and import each other by their bare
    names (the fallback import), with no firmware_bridge package: run them that way."""
    root = Path(__file__).resolve().parents[1] / "firmware_bridge"
    for name in ("wire.py", "tower.py", "firmware/readers.py"):
        shutil.copy(root / name, tmp_path / Path(name).name)
    code = (
        "import sys; sys.modules['firmware_bridge'] = None; sys.path.insert(0, '.')\n"  # no package on a board
        "from tower import TowerProtocol\nfrom readers import RandomReader\n"
        "from wire import FrameParser, encode, Frame\n"
        "out = bytearray(); t = TowerProtocol(out.extend, 'b0a7d00d'); t.hello(0.0)\n"
        "assert RandomReader().poll(5.0) == 'rolling'; t.roll([('d6', 1)], 0.0)\n"
        "t.receive(encode(Frame('ACK', seq=1, boot='b0a7d00d')), 0.5)\n"
        "print(len(t.outbox), [f.kind for f in FrameParser().feed(bytes(out))])\n")
    done = subprocess.run([sys.executable, "-I", "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split(" ", 1) == ["0", "['HELLO', 'ROLL']\n"]
