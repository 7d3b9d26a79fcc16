"""Reading a D6 by its pips: count the spots on the upward face, and say how sure the count is.

The die is turned upright and scaled to a square of ``SIDE`` pixels. A pip is a round spot that differs from
the die's body colour (the median of the square's middle: pips cover at most a sixth of a face), darker,
lighter or just another colour, so white-on-black, black-on-white and coloured pips read alike. No single
threshold suits a translucent die, a glint and a soft photograph at once, so the spots are looked for at a few
thresholds and the set whose layout is most die-like wins.

A D6's layouts are few and fixed: every layout is symmetric through its centre, its spots lie on one 3x3 grid,
and their distances from the centre follow a profile per count (a 4's four corners, a 5's corners and middle, a
6's corners and two middles at 1/√2). How well a set of spots fits the profile of its count, mirrors through its
centre, has spots of one size and one colour, spread over the face as a die's do and sits in the middle of the
die makes the confidence; a face where these disagree (a blurred die, a side face showing through, a pip under a
glint) is asked about, never guessed. A layout found off the die's middle (a side face beside the top, seen in
perspective) is read again centred on itself (:func:`read_die`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

SIDE = 72
"""The square, in pixels, a die is read at."""

THRESHOLDS = (0.0, 28.0, 42.0, 60.0, 85.0)
"""Lab distances from the body colour a spot is looked for at (0: Otsu's split of the face)."""

_R = 1 / np.sqrt(2)
PROFILES = {2: (1, 1), 3: (0, 1, 1), 4: (1, 1, 1, 1), 5: (0, 1, 1, 1, 1), 6: (_R, _R, 1, 1, 1, 1)}
"""Per count, the spots' distances from their centre, sorted, as shares of the farthest."""

Spot = tuple[float, float, float]


@dataclass(frozen=True)
class PipRead:
    """What the pips say: ``face`` 1-6 or 0 when none could be counted, ``confidence`` 0-1, ``spots`` the pip
    centres in the square (for the annotated picture)."""

    face: int
    confidence: float
    spots: tuple[tuple[float, float], ...] = ()


def upright(image: np.ndarray, rect: tuple[tuple[float, float], tuple[float, float], float],
            side: int = SIDE, grow: float = 1.0) -> np.ndarray:
    """The rotated rectangle ``rect`` of ``image`` cut out, turned upright and scaled to ``side`` square."""
    matrix = _placement(rect, side, grow)
    return cv2.warpAffine(image, matrix, (side, side), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def _placement(rect: tuple[tuple[float, float], tuple[float, float], float], side: int,
               grow: float = 1.0) -> np.ndarray:
    """The affine map from the picture to the upright square of ``rect`` (2x3 float64)."""
    (cx, cy), (w, h), angle = rect
    scale = side / max(max(w, h) * grow, 1.0)
    matrix = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    matrix[0, 2] += side / 2 - cx
    matrix[1, 2] += side / 2 - cy
    return np.asarray(matrix)


def _ramp(value: float, good: float, bad: float) -> float:
    """1 at ``good`` or better, 0 at ``bad`` or worse, straight between (either direction)."""
    if good == bad:
        return 1.0 if value <= good else 0.0
    return float(min(1.0, max(0.0, (value - bad) / (good - bad))))


def _lab(face: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The square in Lab (float32, lightness weighted 0.8), and the body colour: the median of its middle."""
    lab = cv2.cvtColor(cv2.GaussianBlur(face, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 0] *= 0.8
    inner = lab[SIDE // 6: -SIDE // 6, SIDE // 6: -SIDE // 6].reshape(-1, 3)
    return lab, np.median(inner, axis=0)


MARGIN_DIFFERS = 15.0
"""Lab distance between the face's middle and its margin above which the margin's colour is tried as the body's
too: where large pips crowd the middle (a 6 or a 5 in big pips on a translucent die) its median is a blend of
pip and body; the margin round the pips is body alone."""


def _margin(lab: np.ndarray) -> np.ndarray:
    """The median colour of the band between the square's rim and its pips (the die's margin)."""
    band = np.ones((SIDE, SIDE), bool)
    band[SIDE // 6: -SIDE // 6, SIDE // 6: -SIDE // 6] = False
    band[: SIDE // 16] = band[-SIDE // 16:] = False
    band[:, : SIDE // 16] = band[:, -SIDE // 16:] = False
    return np.asarray(np.median(lab[band], axis=0), np.float32)


def _distance(lab: np.ndarray, body: np.ndarray) -> np.ndarray:
    delta = lab - body
    return np.asarray(np.sqrt((delta * delta).sum(axis=2)), np.float32)


PIP_RADII = (0.07, 0.09)
"""A pip's radius, as shares of the die's side, the matched filter looks for (a D6's pips are 0.14-0.2 of its
side across)."""


def _kernel(inner: float, outer: float) -> np.ndarray:
    """A normalised ring (``inner`` 0: a disc) of radii in pixels, for a mean over it."""
    size = int(np.ceil(outer)) * 2 + 1
    yy, xx = np.mgrid[:size, :size] - size // 2
    reach = np.sqrt(xx * xx + yy * yy)
    ring = ((reach <= outer) & (reach >= inner)).astype(np.float32)
    return ring / ring.sum()


def _matched(lab: np.ndarray, share: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per signed colour axis (lighter, darker, redder, greener, yellower, bluer): how much each point's
    neighbourhood of a pip's size stands out from the ring round it that way (the filter's response), and how
    much each pixel does (Lab units). A face's pips are of one paint, so they stand out one way from the body
    right round them, whatever the face's colour elsewhere (a swirl, a translucent body whose pips crowd its
    middle), and the response keeps neighbouring pips apart where a threshold runs them together."""
    r = share * SIDE
    disc = cv2.filter2D(lab, -1, _kernel(0, r), borderType=cv2.BORDER_REPLICATE)
    ring = cv2.filter2D(lab, -1, _kernel(1.3 * r, 2.0 * r), borderType=cv2.BORDER_REPLICATE)
    delta, pixel = disc - ring, lab - ring
    return [(np.maximum(sign * delta[..., axis], 0), sign * pixel[..., axis]) for axis in range(3) for sign in (1, -1)]


def _peaks(response: np.ndarray, pixel: np.ndarray, level: float) -> list[Spot]:
    """The filter's peaks above ``level`` that are pips: each must be a round spot of its own in the pixels too
    (those standing out by half its peak), or the filter, round itself, makes a spot of a numeral's stroke, a
    swirl or a glint's edge. A spot's area is its pixels'."""
    spots = []
    for x, y, _ in _spots(response, level):
        xi, yi = round(x), round(y)
        mask = (pixel > 0.5 * float(response[yi, xi])).astype(np.uint8)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
        own = int(labels[yi, xi])
        if own and _round(labels, stats, own):
            spots.append((x, y, float(stats[own][4])))
    return spots


def _round(labels: np.ndarray, stats: np.ndarray, i: int) -> bool:
    """Whether component ``i`` is pip-shaped: a pip's size, about as wide as long, full and round."""
    x, y, w, h, area = stats[i]
    if not SIDE * SIDE * 0.005 <= area <= SIDE * SIDE * 0.12:
        return False
    if max(w, h) > 2.0 * min(w, h) or area < 0.45 * w * h:
        return False
    # Round, not a numeral's stroke or a swirl: 4πA/P² is 1 for a disc, about 0.8 for a pixel disc.
    outline, _ = cv2.findContours((labels[y: y + h, x: x + w] == i).astype(np.uint8), cv2.RETR_EXTERNAL,
                                  cv2.CHAIN_APPROX_NONE)
    perimeter = cv2.arcLength(outline[0], True) if outline else 0.0
    return not perimeter or 4 * np.pi * area / (perimeter * perimeter) >= 0.55


def _spots(distance: np.ndarray, threshold: float) -> list[Spot]:
    mask = (distance > threshold).astype(np.uint8)
    edge = SIDE // 12
    mask[:edge] = 0
    mask[-edge:] = 0
    mask[:, :edge] = 0
    mask[:, -edge:] = 0
    count, labels, stats, centres = cv2.connectedComponentsWithStats(mask)
    return [(float(centres[i][0]), float(centres[i][1]), float(stats[i][4]))
            for i in range(1, count) if _round(labels, stats, i)]


DIAGONAL = (25.0, 40.0)
"""Degrees a 2's or a 3's line of pips may stand off the face's diagonal: fully die-like within the first, not
at all beyond the second."""


def _score(spots: list[Spot]) -> float:
    """How die-like a set of spots is, 0-1."""
    n = len(spots)
    points = np.array([(x, y) for x, y, _ in spots], np.float32)
    areas = np.array([a for _, _, a in spots], np.float32)
    size = float(np.sqrt(areas.mean())) / SIDE
    centre = points.mean(axis=0)
    off_centre = float(np.hypot(*(centre - SIDE / 2))) / SIDE
    if n == 1:
        # One spot is the easiest to invent (a glint, a logo): it must be round, big enough and in the middle.
        return 0.95 * _ramp(off_centre, 0.1, 0.22) * _ramp(size, 0.12, 0.07) * _ramp(size, 0.4, 0.5)
    alike = _ramp(float(areas.min() / areas.max()), 0.5, 0.2)
    sized = _ramp(size, 0.1, 0.06) * _ramp(size, 0.26, 0.32)
    reach = np.sqrt(((points - centre) ** 2).sum(axis=1))
    far = float(reach.max())
    spread = _ramp(far / SIDE, 0.22, 0.15) * _ramp(far / SIDE, 0.42, 0.5)
    mirrored = 2 * centre - points
    gaps = np.sqrt(((mirrored[:, None, :] - points[None, :, :]) ** 2).sum(axis=2)).min(axis=1)
    symmetry = _ramp(float(gaps.mean()) / far, 0.12, 0.35)
    shares = np.sort(reach / far)
    expected = np.array(PROFILES[n])
    if n == 6:  # a 6's rows are often set closer than its columns: its middle pair nearer the centre
        expected[:2] = np.clip(shares[:2].mean(), 0.45, 0.8)
    profile = _ramp(float(np.abs(shares - expected).mean()), 0.08, 0.25)
    square = 1.0
    if n in (4, 5):  # the four corner spots stand at right angles round the centre
        corners = points[np.argsort(reach)[-4:]] - centre
        angles = np.sort(np.degrees(np.arctan2(corners[:, 1], corners[:, 0])))
        steps = np.diff(np.append(angles, angles[0] + 360))
        square = _ramp(float(np.abs(steps - 90).mean()), 10, 30)
    if n in (2, 3):  # a 2's and a 3's pips run corner to corner: along a diagonal of the face
        ends = points[np.argsort(reach)[-2:]]
        dx, dy = ends[1] - ends[0]
        slant = float(np.degrees(np.arctan2(abs(dy), abs(dx))))
        square *= _ramp(abs(slant - 45), DIAGONAL[0], DIAGONAL[1])
    centred = _ramp(off_centre, 0.12, 0.3)
    return alike * sized * spread * symmetry * profile * square * centred


def _probe(distance: np.ndarray, x: float, y: float) -> float:
    xi, yi = round(x), round(y)
    if not 2 <= xi < SIDE - 2 or not 2 <= yi < SIDE - 2:
        return 0.0
    return float(distance[yi - 2: yi + 3, xi - 2: xi + 3].mean())


SHOW_THROUGH = (0.8, 1.0)
"""A lone mark at a missing grid point, as a share of the found pips' contrast: fainter than the first is a pip
showing through from the opposite face; as strong as the second is a pip missed."""


def _nothing_missed(distance: np.ndarray, spots: list[Spot]) -> float:
    """0-1: no pip-like marks where the layout's missing grid points are. A 4 whose two faint pips were not
    found is a perfect-looking 2, unless the other diagonal is looked at: marks there as strong as the pips
    found mean the count is short, and the read is not sure.

    Every face is symmetric through its centre, so a count short of pips misses them in mirrored pairs (a 5's
    two corners, a 6's two middles) or its middle: a pair counts by the fainter of its two points. One mark at
    one corner is not a missed pair: on a translucent die it is the opposite face's pip showing through, seen
    through the body and so fainter than the pips on top; one mark as strong as they are still says the count
    is short."""
    n = len(spots)
    if n not in (2, 3, 4):
        return 1.0
    points = np.array([(x, y) for x, y, _ in spots], np.float32)
    centre = points.mean(axis=0)
    reach = np.sqrt(((points - centre) ** 2).sum(axis=1))
    corners = points[reach > 0.5 * reach.max()] - centre
    corners = corners[np.argsort(np.arctan2(corners[:, 1], corners[:, 0]))]
    turned = np.stack([-corners[:, 1], corners[:, 0]], axis=1)  # the other diagonal
    groups: list[list[np.ndarray]] = []
    if n in (2, 3):
        groups.append(list(centre + turned))
    if n in (2, 4):
        groups.append([centre])
    if n == 4:  # a 6's middle pair, along either side
        middles = centre + (corners + np.roll(corners, -1, axis=0)) / 2
        pairs = len(middles) == 4  # else three corners and a middle: no pairs to tell
        groups.extend([[middles[0], middles[2]], [middles[1], middles[3]]] if pairs else [[m] for m in middles])
    found = float(np.mean([_probe(distance, x, y) for x, y in points]))
    if found <= 0:
        return 1.0
    paired = max(min(_probe(distance, x, y) for x, y in group) for group in groups)
    single = max(_probe(distance, x, y) for group in groups for x, y in group)
    return _ramp(paired / found, 0.4, 0.7) * _ramp(single / found, SHOW_THROUGH[0], SHOW_THROUGH[1])


def _one_paint(lab: np.ndarray, body: np.ndarray, spots: list[Spot]) -> float:
    """0-1: the spots are of one colour, as a face's pips are all of one paint. A glint (light) and a shadowed
    corner (dark), or a pip and a side face's edge, can stand where a 2's pips would; their colours differ from
    each other as much as from the body."""
    if len(spots) < 2:
        return 1.0
    colours = np.array([lab[max(0, round(y) - 1): round(y) + 2, max(0, round(x) - 1): round(x) + 2]
                        .reshape(-1, 3).mean(axis=0) for x, y, _ in spots], np.float32)
    middle = np.median(colours, axis=0)
    contrast = float(np.median(np.sqrt(((colours - body) ** 2).sum(axis=1))))
    spread = float(np.sqrt(((colours - middle) ** 2).sum(axis=1)).max())
    return _ramp(spread / max(contrast, 1.0), 0.6, 1.0)


def _best(spots: list[Spot]) -> tuple[float, list[Spot]]:
    """The most die-like reading of ``spots``: all of them, or without one or two doubtful ones (smaller than
    the rest: a side face's pips, foreshortened), each drop costing confidence."""
    if not spots:
        return 0.0, []
    middle = float(np.median([a for _, _, a in spots]))
    doubtful = [s for s in spots if s[2] < 0.6 * middle]
    best: tuple[float, list[Spot]] = (0.0, [])
    for dropped in range(0, min(2, len(doubtful)) + 1):
        for gone in itertools.combinations(doubtful, dropped):
            kept = [s for s in spots if s not in gone]
            if 1 <= len(kept) <= 6:
                score = _score(kept) * 0.9 ** dropped
                if score > best[0]:
                    best = (score, kept)
    return best


Reading = tuple[float, int, list[Spot]]


def _by_body(lab: np.ndarray, middle: np.ndarray) -> list[Reading]:
    """Readings of spots that differ from the body colour (the face's middle, and its margin where that
    differs), at each of the thresholds."""
    readings: list[Reading] = []
    bodies = [middle]
    margin = _margin(lab)
    if float(np.sqrt(((margin - middle) ** 2).sum())) > MARGIN_DIFFERS:
        bodies.append(margin)
    for body in bodies:
        distance = _distance(lab, body)
        inner = np.clip(distance[SIDE // 6: -SIDE // 6, SIDE // 6: -SIDE // 6], 0, 255).astype(np.uint8)
        otsu, _ = cv2.threshold(inner, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        for threshold in THRESHOLDS:
            level = max(20.0, float(otsu)) if threshold == 0 else threshold
            score, spots = _best(_spots(distance, level))
            # Against the margin, a lone spot is as often the face's own lit middle as a 1: a 1 is read against
            # the middle's colour only.
            if len(spots) > (1 if body is margin else 0):
                readings.append((score * _nothing_missed(distance, spots) * _one_paint(lab, body, spots),
                                 len(spots), spots))
            strong = [n for sc, n, _ in readings if sc >= 0.9]
            if len(strong) >= 2 and len(set(strong)) == 1 and len({n for _, n, _ in readings}) == 1:
                break  # two thresholds agree surely and none said otherwise: the rest would only cost time
    return readings


FILTERED_LEVELS = (0.35, 0.5)
"""Shares of the strongest response on the face at which the matched filter's peaks are taken."""


def _by_filter(lab: np.ndarray, middle: np.ndarray) -> list[Reading]:
    """Readings of the matched filter's peaks, per pip size and colour axis: layouts of three pips or more
    only (two round peaks on a diagonal are too easily a swirl's or a glint's). Their grid points where nothing
    may be are looked at in the filter's response and against the body colour both: a pip the filter's axis
    hardly shows (a 5's middle under a glint) still says a 4 is short."""
    readings: list[Reading] = []
    plain = _distance(lab, middle)
    for share in PIP_RADII:
        for response, pixel in _matched(lab, share):
            top = float(response[SIDE // 6: -SIDE // 6, SIDE // 6: -SIDE // 6].max())
            for level in (top * f for f in FILTERED_LEVELS):
                if level < FILTER_LEAST:
                    continue
                score, spots = _best(_peaks(response, pixel, level))
                if len(spots) > 2:
                    missed = min(_nothing_missed(response, spots), _nothing_missed(plain, spots))
                    readings.append((score * missed * _one_paint(lab, middle, spots), len(spots), spots))
    return readings


FILTER_LEAST = 10.0
"""Lab units below which a filter's response is not looked at (nothing on the face stands out that way)."""

SURE_BY_BODY = 0.9
"""A reading against the body colour this sure is not looked at again with the matched filter (time)."""


def _verdict(readings: list[Reading]) -> PipRead:
    """The best reading, its confidence lowered when another die-like reading says another count."""
    if not readings:
        return PipRead(0, 0.0)
    score, count, spots = max(readings, key=lambda r: r[0])
    rival = max((s for s, n, _ in readings if n != count), default=0.0)
    confidence = score * (1.0 - 0.5 * _ramp(rival, 0.7, 0.2))
    return PipRead(count, round(confidence, 3), tuple((x, y) for x, y, _ in spots))


def read_pips(face: np.ndarray) -> PipRead:
    """The count of pips on an upright die square (BGR, ``SIDE`` x ``SIDE``).

    Readings at the thresholds that find a die-like layout vote: the best one is taken, its confidence lowered
    when another threshold's die-like reading says another count. A face the thresholds leave unsure is looked
    at with the matched filter too, whose readings join the vote."""
    lab, middle = _lab(face)
    readings = _by_body(lab, middle)
    first = _verdict(readings)
    if first.confidence >= SURE_BY_BODY:
        return first
    return _verdict(readings + _by_filter(lab, middle))


RECENTRE = 0.2
"""How far (share of the square) a layout may sit off the square's middle and still be looked at again, centred.
A die seen in perspective shows one or two side faces beside its top: the blob's middle is not the top face's,
and a true layout sits up to about a fifth of the die off it. Farther is a side face's or a neighbour's."""


def read_die(image: np.ndarray, rect: tuple[tuple[float, float], tuple[float, float], float]) -> PipRead:
    """The pips of the die in the rotated rectangle ``rect`` of ``image``.

    Read once in the rectangle; when the layout found sits off its middle (the rectangle holds a side face
    too), read again in a square of the same size centred on that layout (two spots or more: a layout mirrored
    through its own middle). The second reading stands only when it counts the same: it finds the same face in
    the place a top face must be, and its own checks (the layout's fit, spread, one paint and the grid points
    where nothing may be) are all made again there. A lone spot off the middle is never moved to itself; it is
    read again on the die's lit top face (:func:`lit_face`), where it must be big, round and central as ever."""
    first = read_pips(upright(image, rect))
    if first.face == 1 and first.confidence < 0.95:
        # A lone spot has no layout to say where its face's middle is: being in the middle is all that tells a 1
        # from a knot in the wood or a glint, so it is never moved to itself. The face's own outline can say where
        # the middle is: the top face, lit from above, is the die's lightest.
        face = lit_face(image, rect)
        if face is not None:
            again = read_pips(upright(image, face))
            if again.face == 1 and again.confidence > first.confidence:
                return again
        return first
    if first.face < 2 or first.confidence >= 0.95:
        return first
    centre = np.mean(np.array(first.spots, np.float64), axis=0)
    shift = centre - SIDE / 2
    if not 0.04 * SIDE <= float(np.hypot(*shift)) <= RECENTRE * SIDE:
        return first
    back = cv2.invertAffineTransform(_placement(rect, SIDE))
    nx, ny = back @ np.array([centre[0], centre[1], 1.0])
    again = read_pips(upright(image, ((float(nx), float(ny)), rect[1], rect[2])))
    return again if again.face == first.face and again.confidence > first.confidence else first


LIT_ASPECT = 1.5
"""The longest a lit face may be for its width: a die's top face seen at a slant is foreshortened, a lit sliver
(a box's edge, a die's rim) is longer."""

BODY_HUE = 20.0
"""Distance in Lab's colour plane (lightness left out: the faces differ in it) from the body's colour within
which a pixel is the die's."""

LIT_FACE = (0.3, 0.8)
"""The share of the die's square the lit top face must cover to be believed as one: less is a glint or a pip,
more is the whole die (seen from straight above: nothing to tighten)."""


def lit_face(image: np.ndarray, rect: tuple[tuple[float, float], tuple[float, float], float]
             ) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """The top face of a die seen in perspective, as a rotated rectangle of ``image``, or None.

    Light falls on a die from above: its top face is lighter than the side faces the camera sees beside it.
    The die's pixels (its body's colour, lightness aside) are split by lightness (Otsu), the lighter part closed
    over its pips (a pip's width) and its largest piece taken: a face's outline when it covers part of the die,
    is at most half as long again as wide (a lit sliver, a box's edge, is longer) and fills its rectangle."""
    lab = cv2.cvtColor(cv2.GaussianBlur(upright(image, rect), (3, 3), 0), cv2.COLOR_BGR2LAB)
    hue = lab[..., 1:].astype(np.float32)
    body = np.median(hue[SIDE // 3: -SIDE // 3, SIDE // 3: -SIDE // 3].reshape(-1, 2), axis=0)
    die = np.sqrt(((hue - body) ** 2).sum(axis=2)) < BODY_HUE  # the die's own colour, whatever its shading
    light = lab[..., 0]
    if die.sum() < LIT_FACE[0] * SIDE * SIDE:
        return None
    split, _ = cv2.threshold(light[die].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    lighter = (die & (light > split)).astype(np.uint8)
    k = (SIDE // 5) | 1
    lighter = cv2.morphologyEx(lighter, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    lighter = cv2.morphologyEx(lighter, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(lighter)
    if count < 2:
        return None
    own = 1 + int(np.argmax(stats[1:, 4]))
    area = float(stats[own][4])
    if not LIT_FACE[0] * SIDE * SIDE <= area <= LIT_FACE[1] * SIDE * SIDE:
        return None
    ys, xs = np.nonzero(labels == own)
    (cx, cy), (w, h), angle = cv2.minAreaRect(np.stack([xs, ys], axis=1).astype(np.float32))
    if min(w, h) <= 0 or max(w, h) / min(w, h) > LIT_ASPECT or area < 0.75 * w * h:
        return None
    back = cv2.invertAffineTransform(_placement(rect, SIDE))
    points = cv2.transform(cv2.boxPoints(((cx, cy), (w, h), angle)).reshape(-1, 1, 2), back)
    (px, py), (pw, ph), pangle = cv2.minAreaRect(points.astype(np.float32))
    return (float(px), float(py)), (float(pw), float(ph)), float(pangle)
