"""The tower protocol on the wire: framing, checksums, and a parser that never raises.

Plain Python on purpose (no dataclasses, no typing at run time): the same file runs under CPython
on the host and under MicroPython on the tower, so both ends agree byte for byte. See
docs/protocol.md for the specification.

A frame is one ASCII line of comma-separated fields and a check. Version 2 (this one) sends
``$BODY*HHHH\\r\\n`` with a CRC-16/CCITT-FALSE of BODY in four hex digits, and puts the tower's
boot token in every ROLL and ACK. Version 1 sent ``$BODY*HH\\r\\n`` with the NMEA XOR of BODY, which
misses any two changes that cancel out (``d6:3,d6:4`` read as ``d6:2,d6:5``); the box still speaks
it to a tower whose HELLO says version 1. The length of the check tells the framings apart.
"""

PROTOCOL_VERSION = 2
SUPPORTED_VERSIONS = (1, 2)
"""Versions the box speaks; it answers each tower in the version of the tower's HELLO."""
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
                 code="", text="", wire=0):
        self.kind = kind
        self.seq = seq
        self.dice = tuple(dice)
        self.version = version
        self.firmware = firmware
        self.kinds = tuple(kinds)
        self.boot = boot
        self.code = code
        self.text = text
        self.wire = wire
        """The protocol version of the framing it arrived in (0: not parsed); not part of equality."""

    def _key(self):
        return (self.kind, self.seq, self.dice, self.version, self.firmware, self.kinds,
                self.boot, self.code, self.text)

    def __eq__(self, other):
        return isinstance(other, Frame) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return "Frame(" + encode(self, self.wire or PROTOCOL_VERSION).decode().strip() + ")"


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
    """Version 1's check: XOR of the body's bytes, as an int 0..255."""
    total = 0
    for b in body:
        total ^= b
    return total


_CRC_TABLE = []  # type: list[int]


def crc16(data):
    """Version 2's check: CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR).

    ``crc16(b"123456789") == 0x29B1``. A 256-entry table built on first use keeps it to one
    lookup a byte, which MicroPython on an RP2040 does for a whole line well under a millisecond.
    """
    if not _CRC_TABLE:
        for n in range(256):
            crc = n << 8
            for _ in range(8):
                crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            _CRC_TABLE.append(crc & 0xFFFF)
    crc = 0xFFFF
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC_TABLE[((crc >> 8) ^ b) & 0xFF]
    return crc


def check_of(body, version=PROTOCOL_VERSION):
    """The check digits of ``body`` (bytes) in ``version``'s framing, as upper-case hex text."""
    if version == 1:
        return f"{checksum(body):02X}"
    return f"{crc16(body):04X}"


def _token(text):
    # Free text travels inside a comma-separated line: keep it printable and free of separators.
    out = ""
    for ch in str(text):
        out += ch if (" " <= ch <= "~" and ch not in ",*$") else "_"
    return out[:40]


def body_of(frame, version=PROTOCOL_VERSION):
    """The BODY text of a frame (without ``$`` and check) in ``version``'s layout."""
    k = frame.kind
    if k == "HELLO":
        fields = [k, str(frame.version), _token(frame.firmware), "+".join(frame.kinds),
                  _token(frame.boot), str(frame.seq)]
    elif k in ("ROLL", "ACK"):
        fields = [k]
        if version >= 2:
            fields.append(_token(frame.boot))
        fields.append(str(frame.seq))
        for kind, value in frame.dice:
            fields.append(kind + ":" + str(value))
    elif k == "ERR":
        fields = [k, _token(frame.code), _token(frame.text)]
    else:
        fields = [k]
    return ",".join(fields)


def encode_body(body, version=PROTOCOL_VERSION):
    """``$BODY*HHHH\\r\\n`` (version 1: ``$BODY*HH\\r\\n``) as bytes for an ASCII body."""
    raw = body.encode()
    return b"$" + raw + b"*" + check_of(raw, version).encode() + b"\r\n"


def encode(frame, version=PROTOCOL_VERSION):
    """The bytes of one frame in ``version``, ready for the wire. A HELLO is always framed in the
    version it announces (when that is one this code speaks), so a reader can trust its version field."""
    if frame.kind == "HELLO" and frame.version in SUPPORTED_VERSIONS:
        version = frame.version
    return encode_body(body_of(frame, version), version)


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


def _boot(text):
    # A boot token: 1 to 16 characters (the firmware sends 8 hex digits).
    if not text or len(text) > 16:
        raise ValueError("malformed")
    return text


def _fields(kind, fields, version):
    """A Frame from the fields after the kind; ValueError means malformed, OverflowError out of range."""
    boot = ""
    if kind in ("ROLL", "ACK") and version >= 2:
        if not fields:
            raise ValueError("malformed")
        boot = _boot(fields[0])
        fields = fields[1:]
    n = len(fields)
    if kind in ("HB", "ROLLING", "SYNC"):
        if n:
            raise ValueError("malformed")
        return Frame(kind)
    if kind == "ACK":
        if n != 1:
            raise ValueError("malformed")
        return Frame(kind, seq=_int(fields[0], 1, MAX_SEQ), boot=boot)
    if kind == "ROLL":
        if n < 2 or n > MAX_DICE + 1:
            raise ValueError("malformed")
        return Frame(kind, seq=_int(fields[0], 1, MAX_SEQ), dice=[_die(f) for f in fields[1:]], boot=boot)
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
        return Frame(kind, version=version, firmware=fields[1], kinds=kinds, boot=_boot(fields[3]),
                     seq=_int(fields[4], 1, MAX_SEQ))
    raise KeyError(kind)


HEX = "0123456789abcdefABCDEF"


def parse_line(line, accept=None, versions=None):
    """A Frame or a Rejection for one line (terminator already removed). Never raises.

    The framing is told by the length of the check: two hex digits are version 1 (XOR), four are
    version 2 (CRC-16). ``versions`` limits the framings taken for every frame but HELLO (a link
    that knows which version its tower speaks refuses the other as ``version_mismatch``); a HELLO
    is read in either, and must be framed in the version it announces.
    """
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        return Rejection("overlong_line", line[:32])
    try:
        text = line.decode("ascii")
    except (UnicodeError, ValueError):
        return Rejection("malformed", line, "not ASCII")
    star = text.rfind("*")
    digits = len(text) - star - 1
    if len(text) < 4 or text[0] != "$" or star < 1 or digits not in (2, 4):
        return Rejection("malformed", line, "not $BODY*HHHH or $BODY*HH")
    wire = 1 if digits == 2 else 2
    check = text[star + 1:]
    if not all(c in HEX for c in check):
        return Rejection("malformed", line, "check is not hex")
    body = text[1:star]
    if check_of(body.encode(), wire) != check.upper():
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
        if version and len(version) <= 10 and all("0" <= c <= "9" for c in version):
            if int(version) not in SUPPORTED_VERSIONS:
                return Rejection("version_mismatch", line, str(int(version)))
            if int(version) != wire:
                return Rejection("malformed", line, "a version " + version + " hello in another framing")
    elif versions is not None and wire not in versions:
        return Rejection("version_mismatch", line, "a version " + str(wire) + " frame")
    try:
        frame = _fields(kind, parts[1:], wire)
    except KeyError:
        return Rejection("unknown_frame", line, kind)
    except OverflowError:
        return Rejection("value_out_of_range", line)
    except ValueError:
        return Rejection("malformed", line)
    frame.wire = wire
    return frame


class FrameParser:
    """Incremental parser: feed it whatever the port returned, get whole frames and rejections.

    Bytes may arrive split anywhere; the buffer never holds more than MAX_LINE + 1 bytes (a line
    and its ``\\r``), so a stream of garbage with no newline (a wrong baud rate) costs constant
    memory, and a line longer than MAX_LINE is refused however it ends. ``counts`` tallies each
    rejection reason. ``versions`` is passed to :func:`parse_line` and may be changed between feeds.
    """

    def __init__(self, accept=None, max_line=MAX_LINE, versions=None):
        self.accept = accept
        self.versions = versions
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
                if len(line) - (1 if line.endswith(b"\r") else 0) > self.max_line:  # 121 bytes and a bare \n too
                    self._reject(Rejection("overlong_line", line[:32]), out)
                elif line.strip(b"\r\x00 "):
                    result = parse_line(line, self.accept, self.versions)
                    if isinstance(result, Frame):
                        self.frames += 1
                        out.append(result)
                    else:
                        self._reject(result, out)
            if end < 0:
                break
            start = end + 1
        return out
