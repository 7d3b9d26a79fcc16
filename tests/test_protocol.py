"""The wire protocol: frames round-trip, every bad line is named, and no byte sequence raises."""

from __future__ import annotations

import binascii

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.wire import (
    FACES,
    HOST_FRAMES,
    MAX_DICE,
    MAX_LINE,
    MAX_SEQ,
    REASONS,
    SUPPORTED_VERSIONS,
    TOWER_FRAMES,
    Frame,
    FrameParser,
    Rejection,
    body_of,
    crc16,
    encode,
    encode_body,
    parse_line,
)

DIE = st.one_of(st.tuples(st.just("d6"), st.integers(1, 6)), st.tuples(st.just("d8"), st.integers(1, 8)))
BOOT = st.text("0123456789abcdef", min_size=1, max_size=8)
ROLL = st.builds(lambda seq, dice, boot: Frame("ROLL", seq=seq, dice=dice, boot=boot),
                 st.integers(1, 10**6), st.lists(DIE, min_size=1, max_size=8), BOOT)
FRAMES = st.one_of(
    ROLL,
    st.just(Frame("HB")), st.just(Frame("ROLLING")),
    st.builds(lambda v, b, s: Frame("HELLO", version=v, firmware=f"{v}.0.0", kinds=("d6", "d8"), boot=b, seq=s),
              st.sampled_from(SUPPORTED_VERSIONS), BOOT, st.integers(1, 1000)),
    st.builds(lambda c: Frame("ERR", code=c, text="die leaning"), st.sampled_from(["crooked", "jam"])),
)
"""Frames as a version 2 tower sends them (its HELLO may say either version)."""
ROLL_V1 = st.builds(lambda seq, dice: Frame("ROLL", seq=seq, dice=dice),
                    st.integers(1, 10**6), st.lists(DIE, min_size=1, max_size=8))
FRAMES_V1 = st.one_of(ROLL_V1, st.just(Frame("HB")), st.just(Frame("ROLLING")),
                      st.builds(lambda b, s: Frame("HELLO", version=1, firmware="1.0.0", kinds=("d6", "d8"), boot=b,
                                                   seq=s), BOOT, st.integers(1, 1000)))
"""Frames as a version 1 tower sends them: no boot in a ROLL."""


def test_known_line_from_the_spec() -> None:
    assert encode(Frame("ROLL", seq=1, dice=[("d6", 3), ("d8", 5)]), 1) == b"$ROLL,1,d6:3,d8:5*08\r\n"
    assert parse_line(b"$roll,1,d6:3*00") == Rejection("bad_checksum", b"$roll,1,d6:3*00")
    assert encode(Frame("ROLL", seq=1, dice=[("d6", 3), ("d8", 5)], boot="3fa9c2d1")) == \
        b"$ROLL,3fa9c2d1,1,d6:3,d8:5*6DF1\r\n"
    assert encode(Frame("ACK", seq=1, boot="3fa9c2d1")) == b"$ACK,3fa9c2d1,1*2D0C\r\n"


@given(st.binary(max_size=130))
def test_the_crc_is_crc16_ccitt_false(data: bytes) -> None:
    assert crc16(b"123456789") == 0x29B1  # the catalogue's check value for CRC-16/CCITT-FALSE
    assert crc16(data) == binascii.crc_hqx(data, 0xFFFF)  # the standard library's CCITT CRC, started at 0xFFFF


def test_changes_that_cancel_out_pass_version_1_and_fail_version_2() -> None:
    """XOR misses two changes that cancel (3 -> 2 flips bit 0, 4 -> 5 flips it back): a CRC does not."""
    sent = encode(Frame("ROLL", seq=7, dice=[("d6", 3), ("d6", 4)]), 1).strip()
    altered = sent.replace(b"d6:3,d6:4", b"d6:2,d6:5")
    assert parse_line(altered) == Frame("ROLL", seq=7, dice=[("d6", 2), ("d6", 5)])  # why version 2 exists
    sent = encode(Frame("ROLL", seq=7, dice=[("d6", 3), ("d6", 4)], boot="3fa9c2d1")).strip()
    altered = sent.replace(b"d6:3,d6:4", b"d6:2,d6:5")
    assert parse_line(altered) == Rejection("bad_checksum", altered)


@given(FRAMES)
def test_frames_round_trip(frame: Frame) -> None:
    assert FrameParser().feed(encode(frame)) == [frame]


@given(FRAMES_V1)
def test_version_1_frames_round_trip(frame: Frame) -> None:
    (got,) = FrameParser().feed(encode(frame, 1))
    assert got == frame and got.wire == 1


def test_a_parser_told_the_version_refuses_the_other_framing_but_reads_any_hello() -> None:
    parser = FrameParser(versions=(2,))
    assert parser.feed(encode(Frame("HB"), 1))[0].reason == "version_mismatch"
    assert parser.feed(encode(Frame("HB"), 2)) == [Frame("HB")]
    hello_v1 = Frame("HELLO", version=1, firmware="1.0.0", kinds=("d6",), boot="ab12", seq=1)
    assert parser.feed(encode(hello_v1)) == [hello_v1]
    assert parser.counts["version_mismatch"] == 1
    # A HELLO framed in another version than it announces is not trusted.
    assert parse_line(encode_body(body_of(hello_v1), 2).strip()).reason == "malformed"


def _line_of(length: int) -> bytes:
    """A valid version 2 ERR line of exactly ``length`` bytes before its terminator."""
    body = "ERR,crooked," + "a" * (length - len("$ERR,crooked,*HHHH"))
    line = encode_body(body).rstrip(b"\r\n")
    assert len(line) == length
    return line


@pytest.mark.parametrize("end", [b"\n", b"\r\n"])
def test_a_line_of_120_bytes_passes_and_121_is_refused_however_it_ends(end: bytes) -> None:
    parser = FrameParser()
    assert parser.feed(_line_of(MAX_LINE) + end)[0].kind == "ERR"
    out = parser.feed(_line_of(MAX_LINE + 1) + end) + parser.feed(encode(Frame("HB")))
    assert [type(x) for x in out] == [Rejection, Frame] and out[0].reason == "overlong_line"
    assert parse_line(_line_of(MAX_LINE + 1)).reason == "overlong_line"


@given(st.lists(FRAMES, min_size=1, max_size=6), st.data())
def test_valid_frames_survive_any_split(frames: list[Frame], data: st.DataObject) -> None:
    stream = b"".join(encode(f) for f in frames)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=12)))
    parser = FrameParser()
    out = []
    for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        out += parser.feed(stream[a:b])
    assert out == frames


@settings(max_examples=300)
@given(st.binary(max_size=600))
def test_any_bytes_never_raise_and_only_checked_frames_pass(data: bytes) -> None:
    parser = FrameParser()
    out = parser.feed(data) + parser.feed(b"\n")
    for item in out:
        assert isinstance(item, Frame | Rejection)
        if isinstance(item, Frame):
            # A frame accepted from noise must be exactly what its encoding says.
            assert encode(item).strip() in data.replace(b"\r", b"") + b"\r\n" or encode(item) in data
    assert len(parser.buffer) <= MAX_LINE + 1
    assert set(parser.counts) == set(REASONS)


REJECTED_LINES = {
    "bad_checksum": b"$ROLL,ab12cd34,1,d6:3*7F7F\r\n",
    "unknown_frame": encode_body("FOO,1"),
    "value_out_of_range": encode_body("ROLL,ab12cd34,1,d6:7"),
    "overlong_line": b"$" + b"A" * (MAX_LINE + 10) + b"\r\n",
    "malformed": encode_body("ROLL,ab12cd34,x,d6:3"),
    "version_mismatch": encode_body("HELLO,3,3.0.0,d6+d8,ab12,1"),  # last: a link then waits for a hello
}
"""One line for each rejection reason, by its name (also sent through a pty by the listen test)."""

REJECTED_LINES_V1 = {
    "bad_checksum": b"$ROLL,1,d6:3*7F\r\n",
    "unknown_frame": encode_body("FOO,1", 1),
    "value_out_of_range": encode_body("ROLL,1,d6:7", 1),
    "overlong_line": b"$" + b"A" * (MAX_LINE + 10) + b"\r\n",
    "malformed": encode_body("ROLL,x,d6:3", 1),
    "version_mismatch": encode_body("HELLO,3,3.0.0,d6+d8,ab12,1", 1),
}
"""The same in version 1's framing, as an old tower would send them."""


@pytest.mark.parametrize("table", [REJECTED_LINES, REJECTED_LINES_V1], ids=["v2", "v1"])
def test_every_rejection_reason_is_named(table: dict[str, bytes]) -> None:
    for reason, line in table.items():
        parser = FrameParser()
        out = parser.feed(line)
        assert [type(x) for x in out] == [Rejection], reason
        assert out[0].reason == reason
        assert parser.counts[reason] == 1


@pytest.mark.parametrize(("version", "boot"), [(1, ""), (2, "ab12cd34,")])
def test_d4_and_zero_faces_are_out_of_range(version: int, boot: str) -> None:
    assert parse_line(encode_body(f"ROLL,{boot}1,d4:2", version).strip()).reason == "value_out_of_range"
    assert parse_line(encode_body(f"ROLL,{boot}1,d8:0", version).strip()).reason == "value_out_of_range"
    assert parse_line(encode_body(f"ROLL,{boot}0,d8:1", version).strip()).reason == "value_out_of_range"


def test_overlong_line_is_dropped_until_next_newline_then_parsing_resumes() -> None:
    parser = FrameParser()
    good = encode(Frame("HB"))
    out = parser.feed(b"x" * 500) + parser.feed(b"y" * 500 + b"\n" + good)
    assert out[-1] == Frame("HB")
    assert [r.reason for r in out[:-1]] == ["overlong_line"]


def test_host_side_parser_refuses_host_frames_as_unknown() -> None:
    parser = FrameParser(accept=("ROLL",))
    assert parser.feed(encode(Frame("ACK", seq=3)))[0].reason == "unknown_frame"


def test_lowercase_checksum_is_accepted_for_typing_by_hand() -> None:
    line = encode(Frame("HB")).decode().strip().lower().replace("$hb", "$HB").encode()
    assert parse_line(line) == Frame("HB")


def is_valid(frame: Frame, version: int) -> bool:
    """What a frame must be to be accepted in ``version``'s framing, written out apart from the parser's checks."""
    k = frame.kind
    boot_ok = (1 <= len(frame.boot) <= 16) if version >= 2 else frame.boot == ""
    if k == "ROLL":
        return (1 <= frame.seq <= MAX_SEQ and 1 <= len(frame.dice) <= MAX_DICE and boot_ok
                and all(kind in FACES and 1 <= value <= FACES[kind] for kind, value in frame.dice))
    if k == "ACK":
        return 1 <= frame.seq <= MAX_SEQ and not frame.dice and boot_ok
    if k == "HELLO":
        return frame.version == version and 1 <= len(frame.boot) <= 16 and 1 <= frame.seq <= MAX_SEQ
    if k == "ERR":
        return bool(frame.code)
    return k in ("HB", "ROLLING", "SYNC") and frame.seq == 0 and not frame.dice


# Bodies with a right checksum made of the protocol's own vocabulary, so the field checks (not the
# checksum) are what stands between them and acceptance.
FIELD = st.one_of(
    st.integers(-2, 10**10).map(str),
    st.builds(lambda kind, face: f"{kind}:{face}", st.sampled_from(["d6", "d8", "d4", "D6", ""]), st.integers(-1, 12)),
    st.text(alphabet=":+0123456789d68x -", max_size=8),
)


def _one_field_changed(frame: Frame, where: int, field: str) -> str:
    fields = body_of(frame).split(",")
    if len(fields) > 1:
        fields[1 + where % (len(fields) - 1)] = field
    return ",".join(fields)


BODY = st.one_of(
    st.builds(lambda kind, fields: ",".join([kind, *fields]),
              st.sampled_from([*TOWER_FRAMES, *HOST_FRAMES, "FOO", "roll", ""]),
              st.lists(FIELD, max_size=MAX_DICE + 2)),
    st.builds(_one_field_changed, FRAMES, st.integers(0, 20), FIELD),
)


@settings(max_examples=400)
@given(BODY, st.sampled_from(SUPPORTED_VERSIONS))
def test_checked_bodies_are_accepted_only_when_every_field_is_valid(body: str, version: int) -> None:
    result = parse_line(encode_body(body, version).rstrip(b"\r\n"))
    if isinstance(result, Rejection):
        assert result.reason in REASONS
        return
    assert result.kind == body.split(",")[0]
    assert is_valid(result, version), result
    assert result.wire == version
    assert parse_line(encode(result, version).rstrip(b"\r\n")) == result  # and it says the same once re-encoded


def _one_byte_changed(frame: Frame, where: int, byte: int) -> bytes:
    line = bytearray(encode(frame))
    line[where % len(line)] = byte
    return bytes(line) + b"\n"


PIECE = st.one_of(
    FRAMES.map(lambda f: (f, True, encode(f))),  # sent intact: must come out
    st.builds(lambda f, w, b: (f, False, _one_byte_changed(f, w, b)), FRAMES, st.integers(0, 200),
              st.integers(0, 255)),  # one byte hit on the wire: out as itself, or not at all
    st.binary(max_size=300).map(lambda b: (None, False, b + b"\n")),  # noise, a wrong baud rate
)


def _in_order(out: list[Frame], expected: list[tuple[Frame | None, bool]]) -> bool:
    """``out`` is ``expected`` with some optional items left out (nothing added, nothing reordered)."""
    from functools import cache

    @cache
    def go(i: int, j: int) -> bool:
        if j == len(expected):
            return i == len(out)
        frame, required = expected[j]
        if i < len(out) and out[i] == frame and go(i + 1, j + 1):
            return True
        return not required and go(i, j + 1)

    return go(0, 0)


@settings(max_examples=300)
@given(st.lists(PIECE, max_size=10), st.data())
def test_a_damaged_stream_gives_exactly_the_intact_frames_whatever_the_reads(pieces: list, data: st.DataObject) -> None:
    stream = b"".join(raw for _, _, raw in pieces)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=16)))
    parser = FrameParser()
    out: list = []
    for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        out += parser.feed(stream[a:b])
    frames = [x for x in out if isinstance(x, Frame)]
    rejections = [x for x in out if isinstance(x, Rejection)]
    assert _in_order(frames, [(f, required) for f, required, _ in pieces]), (frames, pieces)
    assert all(r.reason in REASONS for r in rejections)
    assert sum(parser.counts.values()) == len(rejections) and parser.frames == len(frames)


@pytest.mark.parametrize("version", SUPPORTED_VERSIONS)
@pytest.mark.parametrize("body", ["HELLO,3", "HELLO,3,3.0.0,d6+d8+d10,ab12,1,extra", "HELLO,0,x,d6,ab12,1",
                                  "HELLO,17,,,,"])
def test_another_version_is_a_mismatch_whatever_its_layout(body: str, version: int) -> None:
    result = parse_line(encode_body(body, version).strip())
    assert isinstance(result, Rejection) and result.reason == "version_mismatch"
    ours = f"HELLO,{version},1.0.0,d6+d8"
    assert parse_line(encode_body(ours, version).strip()).reason == "malformed"  # ours, cut short
