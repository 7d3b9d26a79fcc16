# The shared wire module under MicroPython (WebAssembly port): encodes a fixed set of frames and parses
# a fixed set of lines; tests/test_firmware_micropython.py compares every byte with CPython's result.
import json

from wire import Frame, FrameParser, crc16, encode

FRAMES = [
    Frame("HELLO", version=2, firmware="2.1.0", kinds=("d6", "d8"), boot="c0ffee01", seq=1),
    Frame("HELLO", version=1, firmware="1.0.0", kinds=("d6",), boot="b0a7", seq=7),
    Frame("ROLL", seq=12, dice=[("d8", 3), ("d6", 6)], boot="c0ffee01"),
    Frame("ACK", seq=999999999, boot="c0ffee01"),
    Frame("ERR", code="crooked", text="face 7 on a d6, $*"),
    Frame("HB"), Frame("ROLLING"), Frame("SYNC"),
]
LINES = [
    b"$ROLL,c0ffee01,3,d6:3,d6:4*XXXX\r\n",
    b"$ROLL,1,d6:3,d6:4*07\r\n",
    b"\x03\x03\r\n",
    b"$ROLL,c0ffee01,3,d6:9*0000\r\n",
    b"$" + b"A" * 130 + b"\r\n",
]
out = {"crc": crc16(b"123456789"), "encoded": [], "parsed": []}
for version in (1, 2):
    for frame in FRAMES:
        out["encoded"].append(encode(frame, version).decode())
parser = FrameParser()
for line in LINES:
    for item in parser.feed(line):
        out["parsed"].append(repr(item) if isinstance(item, Frame) else item.reason)
for line in out["encoded"]:
    for item in parser.feed(line.encode()):
        out["parsed"].append(repr(item) if isinstance(item, Frame) else item.reason)
out["counts"] = parser.counts
print(json.dumps(out))
