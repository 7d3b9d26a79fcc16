# The shared wire module under MicroPython (WebAssembly port): encodes the frames of wire_cases.py and parses
# its lines; tests/test_firmware_micropython.py compares every byte with CPython's result.
import json

from wire import Frame, FrameParser, crc16, encode
from wire_cases import FRAMES as CASES
from wire_cases import LINES

FRAMES = [Frame(name, **fields) for name, fields in CASES]
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
