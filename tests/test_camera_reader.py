"""The camera's reader on real photographs of dice (../shared/data/dice-photos/dev, beside the checkout: never
committed), per kind: how many dice are read right without asking, read wrong above the threshold (none
allowed), or asked about. D8s read by taught numerals: the set is taught from some photographs and reads others.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import DataError
from hardware.camera import taught as store
from hardware.camera.confidence import THRESHOLD
from hardware.camera.reader import DieRead, read_dice
from hardware.camera.taught import TaughtSet
from hardware.camera.teach import TeachError, teach

ROOT = Path(__file__).resolve().parent.parent


def photos() -> Path:
    """The labelled photographs: ../shared beside the checkout (as CI has it), or beside its parent folder."""
    for base in (ROOT.parent, ROOT.parent.parent):
        folder = base / "shared" / "data" / "dice-photos" / "dev"
        if (folder / "labels.json").exists():
            return folder
    raise AssertionError(f"the dice photographs are missing: expected ../shared/data/dice-photos/dev beside {ROOT}")


def labels() -> dict[str, list[tuple[str, int]]]:
    data = json.loads((photos() / "labels.json").read_text())
    return {name: [(d["kind"], d["face"]) for d in entry["dice"]] for name, entry in data.items()}


def image(name: str) -> np.ndarray:
    found = cv2.imread(str(photos() / name))
    assert found is not None, name
    return found


def tally(reads: list[DieRead], truth: list[tuple[str, int]], counts: dict[str, int]) -> None:
    """Sure reads matched to the labels, surest first: right or wrong; every label not read right was asked."""
    left = list(truth)
    for r in sorted(reads, key=lambda r: -r.confidence):
        if r.sure:
            if (r.kind, r.face) in left:
                left.remove((r.kind, r.face))
                counts["right"] += 1
            else:
                counts["wrong"] += 1
    counts["asked"] += len(left)
    counts["dice"] += len(truth)


def test_d6_photographs_never_wrong_above_the_threshold_and_most_read_without_asking():
    """Per source (docs/camera.md): byler's white sheet, byler's grey tray, skovy's wood floor; none wrong."""
    tray = {"byler_04.jpg", "byler_05.jpg", "byler_08.jpg", "byler_09.jpg"}
    sources: dict[str, dict[str, int]] = {}
    for name, truth in sorted(labels().items()):
        if truth[0][0] == "d6":
            source = "skovy" if name.startswith("skovy") else "byler tray" if name in tray else "byler sheet"
            counts = sources.setdefault(source, {"right": 0, "wrong": 0, "asked": 0, "dice": 0})
            tally(read_dice(image(name), kinds=frozenset({"d6"})), truth, counts)
    assert {s: c["dice"] for s, c in sources.items()} == {"byler sheet": 32, "byler tray": 14, "skovy": 16}
    assert all(c["wrong"] == 0 for c in sources.values()), sources
    # Measured: 31, 13 and 15 read right without asking, 59 of 62 (95 %); two of the three left cannot be read by
    # any safe rule (a motion-blurred die and one cut by the frame), the third is a white die on a pale tray.
    least = {"byler sheet": 31, "byler tray": 13, "skovy": 15}
    assert all(sources[s]["right"] >= n for s, n in least.items()), sources
    assert sum(c["right"] for c in sources.values()) >= 59, sources


HARD_DICE = [
    ("byler_04.jpg", (404, 284), 6, "a blue swirl with red pips: its body's median is no one colour"),
    ("byler_04.jpg", (303, 470), 4, "smoke with red pips and a glint ring"),
    ("byler_05.jpg", (401, 312), 6, "smoke whose big red pips run together at any threshold"),
    ("byler_14.jpg", (339, 361), 3, "translucent blue: the opposite face's pip shows through at one corner"),
    ("byler_09.jpg", (271, 187), 3, "translucent red: its red light on the sheet is of its body's colour"),
    ("skovy_07.jpg", (1350, 303), 1, "seen at a slant: its pip off the die's middle, central on the lit top face"),
]


@pytest.mark.parametrize(("name", "centre", "face", "why"), HARD_DICE, ids=[f"{n} {f}" for n, _, f, _ in HARD_DICE])
def test_translucent_and_swirled_dice_are_read_surely(name, centre, face, why):
    """Dice the body-colour thresholds alone asked about (docs/camera.md): read right and sure by the matched
    filter (pips stand out one way from the ring round them), by missing pips counted in mirrored pairs (one
    fainter mark at one corner shows through), by an outline that is tightened, never widened, and by a lone
    spot judged central on the die's lit top face."""
    [die] = [r for r in read_dice(image(name), kinds=frozenset({"d6"}))
             if r.box[0] <= centre[0] <= r.box[0] + r.box[2] and r.box[1] <= centre[1] <= r.box[1] + r.box[3]]
    assert (die.face, die.sure) == (face, True), (why, die)


def test_a_lone_spot_is_read_again_only_on_a_face_shaped_lit_part():
    """A lone spot off the die's middle is read again on the die's lit top face; a lit sliver is no face. Beside
    skovy_05's dice stands a box whose lit edge, with a glint at its corner, made a sure 1 when a lit part up to
    twice as long as wide counted as a face (the photograph shrunk to three quarters, and blurred more)."""
    for frame in (cv2.resize(image("skovy_05.jpg"), None, fx=0.75, fy=0.75, interpolation=cv2.INTER_AREA),
                  cv2.GaussianBlur(image("skovy_05.jpg"), (7, 7), 0)):
        counts = {"right": 0, "wrong": 0, "asked": 0, "dice": 0}
        tally(read_dice(frame, kinds=frozenset({"d6"})), labels()["skovy_05.jpg"], counts)
        assert counts["wrong"] == 0 and counts["right"] == 2, counts


def _turned(picture: np.ndarray, degrees: float) -> np.ndarray:
    h, w = picture.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    return cv2.warpAffine(picture, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)


CHANGES = {
    "turned 30 degrees": lambda p: _turned(p, 30),
    "turned -50 degrees": lambda p: _turned(p, -50),
    "a third darker": lambda p: cv2.convertScaleAbs(p, alpha=0.7),
    "brighter": lambda p: cv2.convertScaleAbs(p, alpha=1.15, beta=10),
    "blurred": lambda p: cv2.GaussianBlur(p, (5, 5), 0),
    "JPEG quality 40": lambda p: cv2.imdecode(cv2.imencode(".jpg", p, [cv2.IMWRITE_JPEG_QUALITY, 40])[1], 1),
}


def test_d6_reads_hold_when_the_photograph_is_turned_lit_blurred_or_compressed():
    """Synthetic changes of real photographs (they widen the photographs, never replace them): the angle in the
    frame, the light, focus and compression do not make a sure read wrong, and few sure reads are lost. byler_04
    (a glint and a dark corner that once read as a 2) and byler_11 (a pale die whose shaded side alone differs
    from the sheet) are among them."""
    kept = lost = 0
    for name in ("skovy_01.jpg", "skovy_02.jpg", "skovy_05.jpg", "byler_04.jpg", "byler_06.jpg", "byler_10.jpg",
                 "byler_11.jpg", "byler_13.jpg"):
        truth = labels()[name]
        straight = [r for r in read_dice(image(name), kinds=frozenset({"d6"})) if r.sure]
        for change, make in CHANGES.items():
            counts = {"right": 0, "wrong": 0, "asked": 0, "dice": 0}
            tally(read_dice(make(image(name)), kinds=frozenset({"d6"})), truth, counts)
            assert counts["wrong"] == 0, (name, change)
            kept += counts["right"]
            lost += max(0, len(straight) - counts["right"])
    # Measured: 6 of 126 sure reads lost, 4 of them byler_11 a third darker (white dice on a white sheet: found by
    # their edges only where the middle is pale, and darkened they are not: docs/camera.md).
    assert lost <= 0.05 * (kept + lost), (kept, lost)


def test_a_die_cut_by_the_pictures_edge_is_asked_about_never_taken():
    """skovy_01 cut through its 3 (the picture ends a few pixels into the die's right-hand pips): the cut die is
    shown to the table at most at the edge's confidence, the whole 4 beside it is taken."""
    for width in (1110, 1120):
        reads = read_dice(np.ascontiguousarray(image("skovy_01.jpg")[:, :width]), kinds=frozenset({"d6"}))
        cut = [r for r in reads if r.box[0] + r.box[2] >= width - 1]
        whole = [r for r in reads if r.box[0] + r.box[2] < width - 1]
        assert cut and not [r for r in cut if r.sure], reads
        assert [(r.face, r.sure) for r in whole] == [(4, True)], reads


def taught_from(*names: str) -> TaughtSet:
    taught = TaughtSet("test")
    truth = labels()
    for name in names:
        [(kind, face)] = truth[name]
        teach(image(name), kind, face, taught)
    return taught


def test_d8_faces_never_taught_are_asked_about_never_read_wrong():
    """Taught from burks_d8_01 (5) and burks_d8_04 (1); burks_d8_05 (7) and burks_d8_06 (3) show faces the set
    does not know: nothing sure comes of them, whatever kinds are asked for. Each is still found by its outline,
    one d8 asked about, its face guessed against printed digits (7 right, 3 guessed 8), not named as a taught
    face it is not."""
    taught = taught_from("burks_d8_01.jpg", "burks_d8_04.jpg")
    for name in ("burks_d8_05.jpg", "burks_d8_06.jpg"):
        for kinds in (frozenset({"d8"}), frozenset({"d6", "d8"})):
            reads = read_dice(image(name), taught, kinds)
            assert [(r.kind, r.sure) for r in reads] == [("d8", False)], (name, kinds, reads)
            assert reads[0].face not in (1, 5)


def test_d8_taught_faces_read_from_other_frames():
    """Taught from all four dev photographs as they are; read from the same photographs turned a quarter, a
    half and three quarters, and shrunk to 640 pixels (the die lies at another angle and size): every read
    right and sure. Only four faces of one die exist as real photographs here: this is what they can show."""
    names = D8_PHOTOS
    taught = taught_from(*names)
    counts = {"right": 0, "wrong": 0, "asked": 0, "dice": 0}
    for name in names:
        for turns in (1, 2, 3):
            frame = np.ascontiguousarray(np.rot90(image(name), turns))
            frame = cv2.resize(frame, (640, 653), interpolation=cv2.INTER_AREA)
            tally(read_dice(frame, taught, frozenset({"d8"})), labels()[name], counts)
    assert counts == {"right": 12, "wrong": 0, "asked": 0, "dice": 12}


D8_PHOTOS = ("burks_d8_01.jpg", "burks_d8_04.jpg", "burks_d8_05.jpg", "burks_d8_06.jpg")


def test_a_d8_nobody_taught_is_found_by_its_outline_and_asked_about():
    """No set taught: each D8 photograph, as it is, turned, lit, blurred, compressed, shrunk to 640 pixels and
    turned a quarter, shows one die, a d8 below the threshold (the table sets its face), whatever kinds are asked
    for with it; never a sure read, never a D6 (a D8's 1 once read as a sure lone pip). Its face is a guess
    against printed digits: 2 of the 4 as they are (5 and 7; the 1 and the 3 are guessed 7 and 8)."""
    changes = dict(CHANGES)
    changes["as it is"] = lambda p: p
    changes["shrunk"] = lambda p: cv2.resize(p, (640, 653), interpolation=cv2.INTER_AREA)
    changes["a quarter turn"] = lambda p: np.ascontiguousarray(np.rot90(p))
    guessed = 0
    for name in D8_PHOTOS:
        [(_, face)] = labels()[name]
        for change, make in changes.items():
            for kinds in (frozenset({"d8"}), frozenset({"d6", "d8"})):
                reads = read_dice(make(image(name)), kinds=kinds)
                assert [(r.kind, r.sure) for r in reads] == [("d8", False)], (name, change, reads)
                assert 0.2 <= reads[0].confidence < THRESHOLD
        guessed += read_dice(image(name))[0].face == face
    assert guessed == 2


def test_d6_photographs_show_no_d8_when_every_kind_is_asked():
    """With no set taught and every kind asked for (as `dice read` does), no die on the D6 photographs, as they
    are or brightened, is taken for a D8, and the D6 reads are what they are when only D6 are asked for."""
    for name, truth in sorted(labels().items()):
        if truth[0][0] == "d6":
            for picture in (image(name), CHANGES["brighter"](image(name))):
                every = read_dice(picture)
                assert not [r for r in every if r.kind == "d8"], (name, every)
                assert every == read_dice(picture, kinds=frozenset({"d6"})), name


def test_a_taught_set_is_kept_as_data_and_read_back(tmp_path):
    taught = taught_from("burks_d8_01.jpg")
    taught.name = "blue set"
    meta = store.save(taught, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blue_set.json", "blue_set.npz"]
    assert json.loads(meta.read_text())["glyphs"] == [{"kind": "d8", "face": 5, "array": "d8_5_0"}]
    again = store.load("blue set", tmp_path)
    assert np.array_equal(again.templates("d8")[5][0], taught.templates("d8")[5][0])
    assert again.missing("d8") == [1, 2, 3, 4, 6, 7, 8]
    assert store.load("never taught", tmp_path).glyphs == {}


def test_a_damaged_taught_set_is_named_in_one_line(tmp_path):
    store.save(taught_from("burks_d8_01.jpg"), tmp_path)
    (tmp_path / "test.npz").write_bytes(b"not a zip")
    with pytest.raises(DataError, match=r"test\.json: not a taught dice set"):
        store.load("test", tmp_path)
    with pytest.raises(DataError, match="dice set name"):
        store.load("../etc", tmp_path)


def test_teaching_refuses_a_picture_without_a_die():
    with pytest.raises(TeachError, match="no die"):
        teach(np.full((240, 320, 3), 128, np.uint8), "d8", 3, TaughtSet())


def test_the_threshold_is_what_the_docs_say():
    assert f"{THRESHOLD:.2f}" in (ROOT / "docs" / "camera.md").read_text()
