"""The tower protocol on the wire: framing, checksums, and a parser that never raises.

Plain Python on purpose (no dataclasses, no typing at run time): the same file runs under CPython
on the host and under MicroPython on the tower, so both ends agree byte for byte. See
docs/protocol.md for the specification.

A frame is one ASCII line ``$BODY*HH\\r\\n``: BODY is comma-separated fields, HH is the XOR of
BODY's bytes in two hex digits (as NMEA 0183 does), so it can be typed and checked by hand.
"""

PROTOCOL_VERSION = 1
BAUDRATE = 115200
MAX_LINE = 120
"""Longest line accepted, terminator excluded; longer ones are dropped up to the next newline."""
MAX_DICE = 8
"""Most dice in one roll frame (a tower tray holds a handful)."""
MAX_SEQ = 999999999

FACES = {"d6": 6, "d8": 8}
"""Die kinds the protocol carries and their faces (matches companion.dice.FACES)."""

TOWER_FRAMES = ("HELLO", "HB", "ROLLING", "ROLL", "ERR")
HOST_FRAMES = ("ACK", "SYNC")

REASONS = ("bad_checksum", "unknown_frame", "value_out_of_range", "overlong_line",
           "version_mismatch", "malformed")
"""Every reason a line can be rejected for; parsers count each one."""


class Frame:
    """One checked frame. Only the attributes its kind uses are set (others keep defaults)."""

    def __init__(self, kind, seq=0, dice=(), version=0, firmware="", kinds=(), boot="",
                 code="", text=""):
        self.kind = kind
        self.seq = seq
        self.dice = tuple(dice)
        self.version = version
        self.firmware = firmware
        self.kinds = tuple(kinds)
        self.boot = boot
        self.code = code
        self.text = text

    def _key(self):
        return (self.kind, self.seq, self.dice, self.version, self.firmware, self.kinds,
                self.boot, self.code, self.text)

    def __eq__(self, other):
        return isinstance(other, Frame) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return "Frame(" + encode(self).decode().strip() + ")"


class Rejection:
    """A line that was dropped, with the reason (one of REASONS) and the offending bytes."""

    def __init__(self, reason, line=b"", detail=""):
        self.reason = reason
        self.line = line
        self.detail = detail

    def __eq__(self, other):
        return isinstance(other, Rejection) and (self.reason, self.line) == (other.reason, other.line)

    def __repr__(self):
        return f"Rejection({self.reason}, {self.line!r})"


def checksum(body):
    """XOR of the body's bytes, as an int 0..255."""
    total = 0
    for b in body:
        total ^= b
    return total


def _token(text):
    # Free text travels inside a comma-separated line: keep it printable and free of separators.
    out = ""
    for ch in str(text):
        out += ch if (" " <= ch <= "~" and ch not in ",*$") else "_"
    return out[:40]


def body_of(frame):
    """The BODY text of a frame (without ``$`` and checksum)."""
    k = frame.kind
    if k == "HELLO":
        fields = [k, str(frame.version), _token(frame.firmware), "+".join(frame.kinds),
                  _token(frame.boot), str(frame.seq)]
    elif k == "ROLL":
        fields = [k, str(frame.seq)] + [kind + ":" + str(value) for kind, value in frame.dice]
    elif k == "ACK":
        fields = [k, str(frame.seq)]
    elif k == "ERR":
        fields = [k, _token(frame.code), _token(frame.text)]
    else:
        fields = [k]
    return ",".join(fields)


def encode_body(body):
    """``$BODY*HH\\r\\n`` as bytes for an ASCII body."""
    raw = body.encode()
    return b"$" + raw + b"*" + (f"{checksum(raw):02X}").encode() + b"\r\n"


def encode(frame):
    """The bytes of one frame, ready for the wire."""
    return encode_body(body_of(frame))


def _int(text, low, high):
    # Strict decimal: no sign, no spaces, no leading '+' that int() would take.
    if not text or len(text) > 10 or not all("0" <= c <= "9" for c in text):
        raise ValueError("malformed")
    value = int(text)
    if value < low or value > high:
        raise OverflowError("value_out_of_range")
    return value


def _die(text):
    kind, sep, face = text.partition(":")
    if not sep:
        raise ValueError("malformed")
    faces = FACES.get(kind)
    if faces is None:
        raise OverflowError("value_out_of_range")
    return (kind, _int(face, 1, faces))


def _fields(kind, fields):
    """A Frame from the fields after the kind; ValueError means malformed, OverflowError out of range."""
    n = len(fields)
    if kind in ("HB", "ROLLING", "SYNC"):
        if n:
            raise ValueError("malformed")
        return Frame(kind)
    if kind == "ACK":
        if n != 1:
            raise ValueError("malformed")
        return Frame(kind, seq=_int(fields[0], 1, MAX_SEQ))
    if kind == "ROLL":
        if n < 2 or n > MAX_DICE + 1:
            raise ValueError("malformed")
        return Frame(kind, seq=_int(fields[0], 1, MAX_SEQ), dice=[_die(f) for f in fields[1:]])
    if kind == "ERR":
        if n != 2 or not fields[0]:
            raise ValueError("malformed")
        return Frame(kind, code=fields[0], text=fields[1])
    if kind == "HELLO":
        if n != 5:
            raise ValueError("malformed")
        version = _int(fields[0], 0, MAX_SEQ)
        kinds = tuple(k for k in fields[2].split("+") if k)
        if not fields[3]:
            raise ValueError("malformed")
        return Frame(kind, version=version, firmware=fields[1], kinds=kinds, boot=fields[3],
                     seq=_int(fields[4], 1, MAX_SEQ))
    raise KeyError(kind)


def parse_line(line, accept=None):
    """A Frame or a Rejection for one line (terminator already removed). Never raises."""
    if line.endswith(b"\r"):
        line = line[:-1]
    try:
        text = line.decode("ascii")
    except (UnicodeError, ValueError):
        return Rejection("malformed", line, "not ASCII")
    if len(text) < 4 or text[0] != "$" or text[-3] != "*":
        return Rejection("malformed", line, "not $BODY*HH")
    body = text[1:-3]
    try:
        want = int(text[-2:], 16)
    except ValueError:
        return Rejection("malformed", line, "checksum is not hex")
    if not all(c in "0123456789abcdefABCDEF" for c in text[-2:]):
        return Rejection("malformed", line, "checksum is not hex")
    if checksum(body.encode()) != want:
        return Rejection("bad_checksum", line)
    if "$" in body or "*" in body or not all(" " <= c <= "~" for c in body):
        return Rejection("malformed", line, "stray character in body")
    parts = body.split(",")
    kind = parts[0]
    if accept is not None and kind not in accept:
        return Rejection("unknown_frame", line, kind)
    if kind == "HELLO" and len(parts) > 1:
        # The version is read before the rest: another version may lay HELLO out differently,
        # and must still be reported as a mismatch, not as a malformed line.
        version = parts[1]
        if version and len(version) <= 10 and all("0" <= c <= "9" for c in version) \
                and int(version) != PROTOCOL_VERSION:
            return Rejection("version_mismatch", line, str(int(version)))
    try:
        frame = _fields(kind, parts[1:])
    except KeyError:
        return Rejection("unknown_frame", line, kind)
    except OverflowError:
        return Rejection("value_out_of_range", line)
    except ValueError:
        return Rejection("malformed", line)
    return frame


class FrameParser:
    """Incremental parser: feed it whatever the port returned, get whole frames and rejections.

    Bytes may arrive split anywhere; the buffer never holds more than MAX_LINE bytes, so a stream
    of garbage with no newline (a wrong baud rate) costs constant memory. ``counts`` tallies each
    rejection reason.
    """

    def __init__(self, accept=None, max_line=MAX_LINE):
        self.accept = accept
        self.max_line = max_line
        self.buffer = bytearray()
        self.discarding = False
        self.counts = {}
        for reason in REASONS:
            self.counts[reason] = 0
        self.frames = 0

    def _reject(self, rejection, out):
        self.counts[rejection.reason] = self.counts.get(rejection.reason, 0) + 1
        out.append(rejection)

    def feed(self, data):
        """Frames and Rejections completed by ``data``, in order."""
        out = []
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\n", start)
            chunk = data[start:n if end < 0 else end]
            if self.discarding:
                if end >= 0:
                    self.discarding = False
            elif len(self.buffer) + len(chunk) > self.max_line + 1:  # +1: a trailing \r
                head = bytes(self.buffer) + bytes(chunk[:16])
                self.buffer = bytearray()
                self._reject(Rejection("overlong_line", head[:32]), out)
                self.discarding = end < 0
            elif end < 0:
                self.buffer.extend(chunk)
            else:
                self.buffer.extend(chunk)
                line = bytes(self.buffer)
                self.buffer = bytearray()
                if line.strip(b"\r\x00 "):
                    result = parse_line(line, self.accept)
                    if isinstance(result, Frame):
                        self.frames += 1
                        out.append(result)
                    else:
                        self._reject(result, out)
            if end < 0:
                break
            start = end + 1
        return out
