"""``companion dice read`` and ``companion dice teach``: output, the annotated picture, and bad input as one line
with exit 2 (a missing file, a file that is not a picture, a picture without dice)."""

from __future__ import annotations

import json

import cv2
import numpy as np

from companion.cli import main
from tests.test_camera_reader import photos


def test_read_prints_kind_face_confidence_and_position(capsys, tmp_path):
    assert main(["dice", "read", str(photos() / "skovy_02.jpg"), "--sets", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert all(line.startswith("D6 ") and "confidence" in line and " at " in line for line in lines)


def test_read_json_is_exactly_the_dice_and_out_writes_the_annotated_picture(capsys, tmp_path):
    out = tmp_path / "annotated.png"
    assert main(["dice", "read", str(photos() / "skovy_02.jpg"), "--json", "--out", str(out),
                 "--sets", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["dice"]
    assert sorted(d["face"] for d in data["dice"]) == [4, 6]
    for die in data["dice"]:
        assert list(die) == ["kind", "face", "confidence", "box"]
        assert die["kind"] == "d6" and 0 <= die["confidence"] <= 1 and len(die["box"]) == 4
    picture = cv2.imread(str(out))
    assert picture is not None and picture.shape == cv2.imread(str(photos() / "skovy_02.jpg")).shape


def test_teach_then_read_a_d8(capsys, tmp_path):
    assert main(["dice", "teach", f"5={photos() / 'burks_d8_01.jpg'}", "--set", "blue", "--sets", str(tmp_path)]) == 0
    assert "still to show: 1, 2, 3, 4, 6, 7, 8" in capsys.readouterr().out
    turned = tmp_path / "turned.png"
    cv2.imwrite(str(turned), np.ascontiguousarray(np.rot90(cv2.imread(str(photos() / "burks_d8_01.jpg")))))
    assert main(["dice", "read", str(turned), "--json", "--set", "blue", "--sets", str(tmp_path)]) == 0
    [die] = json.loads(capsys.readouterr().out)["dice"]
    assert (die["kind"], die["face"]) == ("d8", 5) and die["confidence"] >= 0.9


def refused(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path):
    text = tmp_path / "notes.jpg"
    text.write_text("d6 3\n")
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 90, np.uint8))
    sets = ["--sets", str(tmp_path / "sets")]
    assert "cannot read" in refused(capsys, ["dice", "read", str(tmp_path / "missing.jpg"), *sets])
    assert "not a picture" in refused(capsys, ["dice", "read", str(text), *sets])
    assert "not a picture" in refused(capsys, ["dice", "read", str(empty), *sets])
    assert "cannot read" in refused(capsys, ["dice", "read", str(tmp_path), *sets])
    assert "no dice found" in refused(capsys, ["dice", "read", str(blank), *sets])
    assert "FACE=IMAGE" in refused(capsys, ["dice", "teach", "9=x.jpg", *sets])
    assert "no die found" in refused(capsys, ["dice", "teach", f"3={blank}", *sets])
    assert not (tmp_path / "sets").exists()  # nothing taught, nothing written


def test_read_writes_nothing_but_its_out_file(capsys, tmp_path):
    before = sorted(tmp_path.iterdir())
    assert main(["dice", "read", str(photos() / "byler_13.jpg"), "--sets", str(tmp_path)]) == 0
    assert sorted(tmp_path.iterdir()) == before


def test_read_finds_a_d8_nobody_taught_and_would_ask_its_face(capsys, tmp_path):
    """No set taught: the blue D8 is not 'no dice' but one d8 below the threshold (the table sets its face)."""
    assert main(["dice", "read", str(photos() / "burks_d8_05.jpg"), "--json", "--sets", str(tmp_path)]) == 0
    [die] = json.loads(capsys.readouterr().out)["dice"]
    assert die["kind"] == "d8" and 1 <= die["face"] <= 8 and 0.2 <= die["confidence"] < 0.6
    assert main(["dice", "read", str(photos() / "burks_d8_05.jpg"), "--sets", str(tmp_path)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("(would ask)")
