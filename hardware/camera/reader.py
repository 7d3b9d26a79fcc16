"""The camera's reader: a picture in, the dice on it out (pure: no camera, no files, no clock).

Each die-shaped blob (:mod:`hardware.camera.find`) is read as a D6 by its pips and, when the set is taught D8
numerals, as a D8 by its numeral; the kind whose reading is surer wins. A blob with a D8's outline
(:mod:`hardware.camera.silhouette`) whose face was not taught (or no D8 at all) is still reported as a D8, its
face guessed and its confidence below the threshold: the table is asked for its face rather than told there are
no dice. A blob neither reads as is dropped (a magnet, a crumb, a shoe). Each :class:`DieRead` keeps its
confidence and whether the die stands crooked; what to do with an unsure or crooked read is the caller's
(:mod:`hardware.camera.confidence`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from hardware.camera import confidence as conf
from hardware.camera import numerals, pips, silhouette
from hardware.camera.find import Candidate, find_candidates, refine
from hardware.camera.taught import TaughtSet

LEAST = 0.2
"""Below this a blob is not reported at all: it is not a die, or nothing on it could be read."""


@dataclass(frozen=True)
class DieRead:
    """One die as read: kind ("d6", "d8"), face, confidence 0-1, upright box (x, y, w, h) in the picture's
    pixels, and ``crooked`` when it leans (its face cannot be trusted: thrown again)."""

    kind: str
    face: int
    confidence: float
    box: tuple[int, int, int, int]
    crooked: bool = False

    @property
    def sure(self) -> bool:
        return conf.sure(self.confidence, self.crooked)

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "face": self.face, "confidence": round(self.confidence, 2),
                "box": list(self.box)}


def _read_one(image: np.ndarray, candidate: Candidate, taught: TaughtSet | None,
              kinds: frozenset[str]) -> DieRead | None:
    options: list[tuple[float, str, int]] = []
    rect = refine(image, candidate) if "d6" in kinds else candidate.rect
    (_, _), (w, h), _ = rect
    # A D8's outline (a hexagon) is no flat D6's, and a D8 whose face was not taught is still found. The outline is
    # one piece of evidence, the face another: a D6 in perspective can show a hexagon too, and a layout of two
    # pips or more outweighs it; one spot does not (a D8's numeral 1 is read as a lone pip), so a lone spot on a
    # D8's outline is never taken without asking.
    octahedron = not candidate.faint and silhouette.is_d8(candidate.mask)
    if "d6" in kinds:
        pip_read = pips.read_die(image, rect)
        # A pale blob seen by its edges only is a die when it shows a layout; one spot on it is as often a mark.
        if pip_read.face > (1 if candidate.faint else 0):
            lone = octahedron and pip_read.face == 1
            sureness = min(pip_read.confidence, conf.UNTAUGHT) if lone else pip_read.confidence
            options.append((sureness, "d6", pip_read.face))
    d8 = taught.templates("d8") if taught and "d8" in kinds and not candidate.faint else {}
    taught_face, likeness = 0, 0.0
    if d8:
        taught_face, likeness = numerals.read_numeral(pips.upright(image, candidate.rect, numerals.CROP), d8)
        if taught_face:
            options.append((likeness, "d8", taught_face))
    if "d8" in kinds and octahedron:
        # The outline is a D8's, whether or not its face was taught: found, and the table asked. The face is the
        # taught numeral it is like, or where none is (a face not taught yet) a guess against printed digits.
        face = taught_face if likeness > 0 else numerals.guess(pips.upright(image, candidate.rect, numerals.CROP))
        options.append((conf.UNTAUGHT, "d8", face))
    if not options:
        return None
    sureness, kind, face = max(options)
    if sureness < LEAST:
        return None
    if conf.cut(candidate.box, image.shape[1], image.shape[0]):
        sureness = min(sureness, conf.CUT)
    return DieRead(kind, face, sureness, candidate.box, conf.crooked(w, h) if kind == "d6" else False)


ALL_KINDS = frozenset({"d6", "d8"})


def read_dice(image: np.ndarray, taught: TaughtSet | None = None,
              kinds: frozenset[str] = ALL_KINDS) -> list[DieRead]:
    """The dice on ``image`` (BGR uint8), left to right then top to bottom.

    ``kinds`` are the kinds the game asks for: a D8's numeral never reads as a D6's single pip when only D8s
    were asked for."""
    if image is None or image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 16:
        raise ValueError("not a colour picture")
    reads = [r for c in find_candidates(image) if (r := _read_one(image, c, taught, kinds)) is not None]
    return sorted(reads, key=lambda r: (r.box[0], r.box[1]))


def annotate(image: np.ndarray, reads: list[DieRead]) -> np.ndarray:
    """A copy of ``image`` with each die boxed and labelled: green when taken, amber when the table is asked."""
    out = image.copy()
    thick = max(1, round(max(image.shape[:2]) / 500))
    for r in reads:
        x, y, w, h = r.box
        colour = (60, 200, 60) if r.sure else (0, 170, 255)
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, thick)
        label = f"{r.kind.upper()} {r.face} {r.confidence:.2f}" + (" crooked" if r.crooked else "")
        cv2.putText(out, label, (x, max(12, y - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.4 * thick, colour, thick)
    return out
