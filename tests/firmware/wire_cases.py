# The wire module's test cases as plain literals, read by both sides: wire_vectors.py under MicroPython (copied onto
# its /board) and tests/test_firmware_micropython.py under CPython, which compares every byte of their results.
FRAMES = [
    ("HELLO", {"version": 2, "firmware": "2.1.0", "kinds": ("d6", "d8"), "boot": "c0ffee01", "seq": 1}),
    ("HELLO", {"version": 1, "firmware": "1.0.0", "kinds": ("d6",), "boot": "b0a7", "seq": 7}),
    ("ROLL", {"seq": 12, "dice": [("d8", 3), ("d6", 6)], "boot": "c0ffee01"}),
    ("ACK", {"seq": 999999999, "boot": "c0ffee01"}),
    ("ERR", {"code": "crooked", "text": "face 7 on a d6, $*"}),
    ("HB", {}), ("ROLLING", {}), ("SYNC", {}),
]
LINES = [
    b"$ROLL,c0ffee01,3,d6:3,d6:4*XXXX\r\n",
    b"$ROLL,1,d6:3,d6:4*07\r\n",
    b"\x03\x03\r\n",
    b"$ROLL,c0ffee01,3,d6:9*0000\r\n",
    b"$" + b"A" * 130 + b"\r\n",
]
