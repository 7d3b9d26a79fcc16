"""The wire protocol: frames round-trip, every bad line is named, and no byte sequence raises."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.wire import MAX_LINE, REASONS, Frame, FrameParser, Rejection, encode, encode_body, parse_line

DIE = st.one_of(st.tuples(st.just("d6"), st.integers(1, 6)), st.tuples(st.just("d8"), st.integers(1, 8)))
ROLL = st.builds(lambda seq, dice: Frame("ROLL", seq=seq, dice=dice),
                 st.integers(1, 10**6), st.lists(DIE, min_size=1, max_size=8))
FRAMES = st.one_of(
    ROLL,
    st.just(Frame("HB")), st.just(Frame("ROLLING")),
    st.builds(lambda b, s: Frame("HELLO", version=1, firmware="1.0.0", kinds=("d6", "d8"), boot=b, seq=s),
              st.text("0123456789abcdef", min_size=1, max_size=8), st.integers(1, 1000)),
    st.builds(lambda c: Frame("ERR", code=c, text="die leaning"), st.sampled_from(["crooked", "jam"])),
)


def test_known_line_from_the_spec() -> None:
    assert encode(Frame("ROLL", seq=1, dice=[("d6", 3), ("d8", 5)])) == b"$ROLL,1,d6:3,d8:5*08\r\n"
    assert parse_line(b"$roll,1,d6:3*00") == Rejection("bad_checksum", b"$roll,1,d6:3*00")


@given(FRAMES)
def test_frames_round_trip(frame: Frame) -> None:
    assert FrameParser().feed(encode(frame)) == [frame]


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


def test_every_rejection_reason_is_named() -> None:
    lines = {
        "bad_checksum": b"$ROLL,1,d6:3*7F\r\n",
        "unknown_frame": encode_body("FOO,1"),
        "value_out_of_range": encode_body("ROLL,1,d6:7"),
        "overlong_line": b"$" + b"A" * (MAX_LINE + 10) + b"\r\n",
        "version_mismatch": encode_body("HELLO,2,2.0.0,d6+d8,ab12,1"),
        "malformed": encode_body("ROLL,x,d6:3"),
    }
    for reason, line in lines.items():
        parser = FrameParser()
        out = parser.feed(line)
        assert [type(x) for x in out] == [Rejection], reason
        assert out[0].reason == reason
        assert parser.counts[reason] == 1


def test_d4_and_zero_faces_are_out_of_range() -> None:
    assert parse_line(encode_body("ROLL,1,d4:2").strip()).reason == "value_out_of_range"
    assert parse_line(encode_body("ROLL,1,d8:0").strip()).reason == "value_out_of_range"
    assert parse_line(encode_body("ROLL,0,d8:1").strip()).reason == "value_out_of_range"


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
