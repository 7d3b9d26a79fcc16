"""Storms on the table itself: the map layer warped onto the printed board by a projector above the table.

``companion calibrate`` pairs four points of the map as the box draws it (frame pixels: named places of the
board) with where the group moved four marks on the real board (projector pixels). Four pairs fix a
perspective transform exactly: a 3x3 homography H with H[2, 2] = 1 has eight unknowns and each pair gives
two equations (:func:`fit_homography`). From then on each frame is drawn as usual and then warped:

- every projector pixel looks up the frame pixel it shows through H's inverse, once per calibration and
  resolution (:class:`Warp`: an index map), so a frame costs one numpy gather, not a loop over pixels;
- a frame that changed in a few rectangles (a roll's markers, the cursor) is warped again only in the
  projector boxes those rectangles can reach (the index map sliced), and the screen updates just those;
- only the map area is taken (the status strip and side panel stay off the table), and within it only what
  the printed board does not already show: a pixel equal to the bare board (terrain and names, drawn once
  per game) is black, so tracks, markers, risk and the cursor light up the table and nothing else does.

The calibration is kept in the configuration: ``[projector] calibration`` holds four pairs (for every game)
or names a file ``companion calibrate`` writes, one table per game (:func:`load_calibration`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.atomicfile import sweep_leftovers, write_atomic
from companion.datafile import Fields, load_toml, staged
from companion.errors import DataError
from companion.views.projector.settings import ProjectorSettings

if TYPE_CHECKING:  # pygame itself is imported where a surface is first touched: the configuration reads pairs here
    import pygame

log = logging.getLogger(__name__)

Pair = tuple[float, float, float, float]
"""frame x, frame y (where the box draws a point of the board), projector x, projector y (where it lies)."""


def fit_homography(src: Sequence[Sequence[float]], dst: Sequence[Sequence[float]]) -> np.ndarray:
    """The 3x3 perspective transform taking each of four ``src`` points exactly onto its ``dst`` point.

    Raises ValueError when three of the points lie on one line (no perspective transform fits them).
    """
    a = np.zeros((8, 8))
    b = np.zeros(8)
    for i, ((x, y), (u, v)) in enumerate(zip(src, dst, strict=True)):
        a[2 * i] = (x, y, 1, 0, 0, 0, -u * x, -u * y)
        a[2 * i + 1] = (0, 0, 0, x, y, 1, -v * x, -v * y)
        b[2 * i], b[2 * i + 1] = u, v
    for points in (src, dst):
        p = np.asarray(points, dtype=float)
        for i in range(4):
            q = np.delete(p, i, axis=0)
            (ax, ay), (bx, by) = q[1] - q[0], q[2] - q[0]
            if abs(ax * by - ay * bx) < 1e-6 * max(1.0, float(np.ptp(p)) ** 2):
                raise ValueError("three of the four points lie on one line")
    h = np.linalg.solve(a, b)
    return np.append(h, 1.0).reshape(3, 3)


def project(h: np.ndarray, points: Sequence[Sequence[float]]) -> np.ndarray:
    """Where ``h`` takes each (x, y) of ``points``: an (n, 2) array."""
    p = np.column_stack([np.asarray(points, dtype=float), np.ones(len(points))]) @ h.T
    return p[:, :2] / p[:, 2:3]


def _flat(surface: pygame.Surface) -> tuple[np.ndarray, int]:
    """A 32-bit surface's pixels as one flat uint32 view over its memory, and its row length in pixels."""
    import pygame

    pitch = surface.get_pitch() // 4
    view = pygame.surfarray.pixels2d(surface)  # (w, h), strides (4, pitch): the surface's own memory
    w, h = surface.get_size()
    return np.lib.stride_tricks.as_strided(view, shape=((h - 1) * pitch + w,), strides=(4,)), pitch


def _rows(surface: pygame.Surface) -> np.ndarray:
    """A 32-bit surface's pixels as a (height, width) uint32 view over its memory (rows may be padded)."""
    import pygame

    return pygame.surfarray.pixels2d(surface).T


Box = tuple[int, int, int, int]
"""x0, y0, x1, y1: a half-open box of projector pixels."""


class Warp:
    """The index map of one calibration at one pair of sizes: which frame pixel each projector pixel shows.

    ``region`` (x, y, w, h) is the part of the frame that goes onto the table (the map area); a projector
    pixel whose source falls outside it, or outside the frame, is black. Applying it is one ``np.take`` of
    the projector pixels into a preallocated array, then a mask in a pass or three (no loop over pixels,
    no scatter: both are several times slower at 1080p). Everything is kept as (row, column) arrays so
    that a changed part of the frame is warped by slicing them (:meth:`boxes_of`, :meth:`apply` with boxes):
    a roll that moves a marker costs the few thousand projector pixels around it, not two million.
    """

    def __init__(self, h: np.ndarray, frame_size: tuple[int, int], out_size: tuple[int, int],
                 region: tuple[int, int, int, int] | None = None) -> None:
        self.h = h
        self.frame_size, self.out_size = frame_size, out_size
        rx, ry, rw, rh = region if region is not None else (0, 0, *frame_size)
        rx, ry = max(rx, 0), max(ry, 0)
        rw, rh = min(rw, frame_size[0] - rx), min(rh, frame_size[1] - ry)
        self.region = (rx, ry, rw, rh)
        ow, oh = out_size
        ys, xs = np.mgrid[0:oh, 0:ow]
        centres = np.stack([xs.ravel() + 0.5, ys.ravel() + 0.5, np.ones(ow * oh)])
        src = np.linalg.inv(h) @ centres
        with np.errstate(divide="ignore", invalid="ignore"):
            sx = np.floor(src[0] / src[2])
            sy = np.floor(src[1] / src[2])
        inside = ((src[2] > 0) & (sx >= rx) & (sx < rx + rw) & (sy >= ry) & (sy < ry + rh)).reshape(oh, ow)
        self.onboard = inside
        """Projector pixels (rows, columns) that show the board; the others are black."""
        rows, cols = np.flatnonzero(inside.any(axis=1)), np.flatnonzero(inside.any(axis=0))
        self.lit_box: Box = ((int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1) if rows.size
                             else (0, 0, 0, 0))
        """The bounding box of the board's pixels: outside it the projector is always black."""
        self.keep_word = np.where(inside, np.uint32(0xFFFFFFFF), np.uint32(0)).astype(np.uint32)
        self.src_x = np.where(inside, sx.reshape(oh, ow), 0).astype(np.intp)
        self.src_y = np.where(inside, sy.reshape(oh, ow), 0).astype(np.intp)
        self._index: np.ndarray | None = None
        self._pitch = -1
        self._reference: tuple[Any, np.ndarray] | None = None
        self._buffer = np.empty(0, np.uint32)
        self._lit = np.empty(0, bool)

    def index(self, src_pitch: int) -> np.ndarray:
        """The source pixel of every projector pixel (rows, columns) for a frame with rows of ``src_pitch``
        pixels."""
        if self._index is None or self._pitch != src_pitch:
            self._index = self.src_y * src_pitch + self.src_x
            self._pitch = src_pitch
        return self._index

    def boxes_of(self, rects: Sequence[Sequence[int]]) -> list[Box]:
        """The projector boxes a change of the frame's ``rects`` (x, y, w, h each) can reach.

        A projector pixel shows the frame pixel under the inverse image of its centre, so the pixels that
        can show a frame pixel of a rectangle have their centres inside H's image of it: a convex
        quadrilateral (a perspective transform keeps lines straight) inside the bounding box of its four
        corners' images. That box, grown by a pixel for rounding and cut to the board's lit box, is what
        is gathered again. A rectangle off the map (status strip, side panel) reaches nothing; one that
        reaches the projector's horizon (a corner mapped to infinity) has no bounded image: the lit box.
        All rectangles in one matrix product: a roll brings a few dozen."""
        rx, ry, rw, rh = self.region
        r = np.asarray(rects, dtype=np.int64).reshape(-1, 4)
        x0, y0 = np.maximum(r[:, 0], rx), np.maximum(r[:, 1], ry)
        x1, y1 = np.minimum(r[:, 0] + r[:, 2], rx + rw), np.minimum(r[:, 1] + r[:, 3], ry + rh)
        keep = (x0 < x1) & (y0 < y1)
        x0, y0, x1, y1 = x0[keep], y0[keep], x1[keep], y1[keep]
        if not x0.size:
            return []
        xs = np.stack([x0, x1, x1, x0], axis=1).astype(float)
        ys = np.stack([y0, y0, y1, y1], axis=1).astype(float)
        hh = self.h
        w = hh[2, 0] * xs + hh[2, 1] * ys + hh[2, 2]
        finite = (w > 1e-12).all(axis=1)
        w = np.where(w > 1e-12, w, 1.0)
        u = (hh[0, 0] * xs + hh[0, 1] * ys + hh[0, 2]) / w
        v = (hh[1, 0] * xs + hh[1, 1] * ys + hh[1, 2]) / w
        lx0, ly0, lx1, ly1 = self.lit_box
        bx0 = np.where(finite, np.maximum(lx0, np.floor(u.min(axis=1) - 0.5).astype(np.int64) - 1), lx0)
        by0 = np.where(finite, np.maximum(ly0, np.floor(v.min(axis=1) - 0.5).astype(np.int64) - 1), ly0)
        bx1 = np.where(finite, np.minimum(lx1, np.ceil(u.max(axis=1) - 0.5).astype(np.int64) + 2), lx1)
        by1 = np.where(finite, np.minimum(ly1, np.ceil(v.max(axis=1) - 0.5).astype(np.int64) + 2), ly1)
        return [(int(a), int(b), int(c), int(d)) for a, b, c, d in zip(bx0, by0, bx1, by1, strict=True)
                if a < c and b < d]

    def apply(self, frame: Any, out: Any, reference: Any = None, boxes: Sequence[Box] | None = None) -> Any:
        """Warp ``frame`` into ``out`` (both 32-bit pygame surfaces of one pixel format, ``out`` of
        ``out_size``). With ``reference`` (the bare board, the frame's size), a pixel equal to it is black.
        With ``boxes`` only those projector pixels are warped again (the rest of ``out`` is kept as it
        was); without, the whole picture: the lit box gathered, everything around it black."""
        src_flat, src_pitch = _flat(frame)
        index = self.index(src_pitch)
        dst = _rows(out)
        if boxes is None:  # whole rows: gathered straight into the surface, no index slice copied
            _, ly0, _, ly1 = self.lit_box
            dst[:ly0] = 0
            dst[ly1:] = 0
            boxes = [(0, ly0, self.out_size[0], ly1)] if ly0 < ly1 else []
        ref = self._reference_values(reference, index) if reference is not None else None
        for x0, y0, x1, y1 in boxes:
            self._gather(src_flat, index, dst, ref, x0, y0, x1, y1)
        del src_flat, dst  # the surfaces unlock once their views are gone
        return out

    def _gather(self, src_flat: np.ndarray, index: np.ndarray, dst: np.ndarray, ref: np.ndarray | None,
                x0: int, y0: int, x1: int, y1: int) -> None:
        """One box: gathered into a preallocated array (straight into ``dst`` when its rows are whole
        and unpadded), masked, and written to ``dst``."""
        n = (y1 - y0) * (x1 - x0)
        target = dst[y0:y1, x0:x1]
        direct = target.flags.c_contiguous
        if direct:
            values = target.reshape(n)
        else:
            if self._buffer.size < n:
                self._buffer = np.empty(n, np.uint32)
            values = self._buffer[:n]
        np.take(src_flat, index[y0:y1, x0:x1].reshape(n) if x1 - x0 < index.shape[1]
                else index[y0:y1].reshape(n), out=values, mode="clip")
        if ref is None:
            np.bitwise_and(values, self.keep_word[y0:y1, x0:x1].reshape(n), out=values)
        else:  # lit: on the board and not what the bare board shows there
            if self._lit.size < n:
                self._lit = np.empty(n, bool)
            lit = self._lit[:n]
            np.not_equal(values, ref[y0:y1, x0:x1].reshape(n), out=lit)
            np.logical_and(lit, self.onboard[y0:y1, x0:x1].reshape(n), out=lit)
            np.multiply(values, lit, out=values, casting="unsafe")
        if not direct:
            target[:] = values.reshape(y1 - y0, x1 - x0)

    def _reference_values(self, reference: Any, index: np.ndarray) -> np.ndarray:
        """The bare board's pixels at every projector pixel, kept while the reference surface is the same."""
        if self._reference is None or self._reference[0] is not reference:
            ref_flat, _ = _flat(reference)
            self._reference = (reference, np.take(ref_flat, index, mode="clip"))
            del ref_flat
        return self._reference[1]


def merge_boxes(boxes: Sequence[Box]) -> list[Box]:
    """``boxes`` with every two that overlap joined into their bounding box while that box covers no more
    than the two did (neighbouring changes of one roll warp once, and the screen updates one rectangle).
    Passes over the list until one joins nothing: a handful for a roll's few dozen boxes."""
    out = list(boxes)
    joined = True
    while joined:
        joined = False
        kept: list[Box] = []
        for b in out:
            for i, a in enumerate(kept):
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    u = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    if _area(u) <= _area(a) + _area(b):
                        kept[i] = u
                        joined = True
                        break
            else:
                kept.append(b)
        out = kept
    return out


def _area(box: Box) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])


@dataclass(frozen=True)
class Calibration:
    """Four point pairs per game (``"*"``: every game), measured at ``size`` (the projector's resolution)."""

    pairs: Mapping[str, tuple[Pair, ...]]
    size: tuple[int, int]

    def for_game(self, key: str | None, size: tuple[int, int]) -> np.ndarray | None:
        """The homography for ``key`` at ``size`` (pairs scaled from the size they were measured at)."""
        pairs = self.pairs.get(key or "", self.pairs.get("*"))
        if pairs is None:
            return None
        sx, sy = size[0] / self.size[0], size[1] / self.size[1]
        return fit_homography([(p[0] * sx, p[1] * sy) for p in pairs], [(p[2] * sx, p[3] * sy) for p in pairs])


def read_pairs(f: Fields, key: str) -> tuple[Pair, ...]:
    """Four [frame x, frame y, projector x, projector y] rows, none three in a line; errors name file and key."""
    rows = f.get(key, list)
    if len(rows) != 4 or not all(isinstance(r, list) and len(r) == 4 and all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in r) for r in rows):
        raise f.error(f"expected four [frame x, frame y, projector x, projector y] rows, got {rows!r}", key)
    pairs = tuple((float(r[0]), float(r[1]), float(r[2]), float(r[3])) for r in rows)
    try:
        fit_homography([p[:2] for p in pairs], [p[2:] for p in pairs])
    except (ValueError, np.linalg.LinAlgError):
        raise f.error("three of the four points lie on one line: calibrate again", key) from None
    return pairs


def load_calibration(value: str | Sequence[Pair], size: tuple[int, int]) -> Calibration | None:
    """The ``[projector] calibration`` value: "" none, four pairs for every game (measured at ``size``), or
    the path of a file ``companion calibrate`` writes (``size = [w, h]`` and a table per game)."""
    if isinstance(value, str):
        if not value:
            return None
        top = load_toml(value)
        measured = top.get("size", list)
        if len(measured) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                                         for v in measured):
            raise top.error(f"expected [width, height], got {measured!r}", "size")
        pairs = {}
        for key in list(top.data):
            if key != "size":
                table = top.table(key)
                pairs[key] = read_pairs(table, "points")
                table.get("places", list, [])
                table.reject_unknown()
        top.reject_unknown()
        return Calibration(pairs, (measured[0], measured[1]))
    return Calibration({"*": tuple(tuple(float(v) for v in p) for p in value)}, size)  # type: ignore[misc]


def write_calibration(path: Path, game: str, pairs: Sequence[Pair], size: tuple[int, int],
                      places: Sequence[str]) -> None:
    """Keep ``game``'s four pairs in the calibration file (other games' kept as they were)."""
    from companion.board_editor.tomlout import dumps

    doc: dict[str, Any] = {"size": list(size)}
    if path.is_file():
        try:
            old = load_calibration(str(path), size)
        except DataError:
            old = None  # a damaged file is replaced by a sound one
        if old is not None and old.size == size:
            for key, kept in old.pairs.items():
                doc[key] = {"points": [list(p) for p in kept]}
    doc[game] = {"points": [[round(v, 1) for v in p] for p in pairs], "places": list(places)}
    text = dumps(doc, "Where the projector's frame lands on the printed board, per game:\n"
                      "[frame x, frame y, projector x, projector y]. Written by `companion calibrate GAME`.")
    with staged(path, text):
        load_calibration(str(path), size)  # what is written reads back (a DataError here is a bug, not a file)
    path.parent.mkdir(parents=True, exist_ok=True)
    sweep_leftovers(path)
    write_atomic(path, text)  # a kill or power cut mid-save leaves the old file whole, never half a new one


class TableProjection:
    """The running box's warp: per game, its calibration's index map at the screen's size, applied after
    the renderer drew a frame (the bare board as reference, so the printed board stays unlit).

    Incremental like the renderer: of a frame that changed in a few rectangles (the renderer's ``dirty``)
    only the projector boxes those rectangles can reach are warped again, and ``dirty`` lists them for the
    screen. The whole picture is warped when there is nothing to build on: the first frame, another game
    or board, a frame drawn flat in between, or changes spread over most of the picture."""

    FULL_SHARE = 0.5
    """Boxes covering more than this share of the picture: one whole warp is cheaper than many parts."""
    MAX_BOXES = 64
    """More boxes than this (changes scattered over the board): one whole warp, not a long loop of parts."""

    def __init__(self, calibration: Calibration, size: tuple[int, int]) -> None:
        self.calibration = calibration
        self.size = size
        self._homographies: dict[str, np.ndarray | None] = {}
        self._warps: dict[tuple[str, Any], Warp] = {}
        self._bare: tuple[Any, Any] | None = None
        self._synced: tuple[Warp, Any] | None = None
        self.out: Any = None
        self.dirty: list[Any] = []
        """The projector rectangles the last ``project`` changed (pygame Rects)."""
        self.full_warps = 0
        self.partial_warps = 0

    def warp_for(self, key: str, region: Any) -> Warp | None:
        if key not in self._homographies:  # fitting checks the points too: once per game, not per frame
            self._homographies[key] = self.calibration.for_game(key, self.size)
        h = self._homographies[key]
        if h is None:
            return None
        cache = (key, region)
        if cache not in self._warps:
            self._warps = {cache: Warp(h, self.size, self.size, region)}
        return self._warps[cache]

    def project(self, renderer: Any, frame: Any, dirty: Sequence[Any] | None = None) -> Any:
        """The renderer's surface warped onto the board, or None for a frame of an uncalibrated game.

        ``dirty``: the rectangles of the renderer's surface changed since the last call (default: the
        renderer's own ``dirty``)."""
        import pygame

        from companion.views.projector.board import paint_labels

        game = frame.game
        warp = None
        if game is not None and frame.state is not None:
            board = renderer.board_for(game, frame.state)
            warp = self.warp_for(getattr(game, "key", ""), renderer.layout.map.as_tuple())
        if warp is None:
            self._synced = None  # the screen shows the flat frame: the next warp starts afresh
            self.dirty = []
            return None
        if self._bare is None or self._bare[0] is not board:
            bare = board.surface.copy()
            paint_labels(bare, board.layout, board.data)  # names are printed on the board already
            self._bare = (board, bare)
        if self.out is None or self.out.get_size() != renderer.surface.get_size():
            self.out = pygame.Surface(renderer.surface.get_size(), 0, renderer.surface)
            self._synced = None
        boxes = None
        if self._synced is not None and self._synced[0] is warp and self._synced[1] is self._bare[1]:
            rects = renderer.dirty if dirty is None else dirty
            boxes = warp.boxes_of([tuple(r) for r in rects])
            if len(boxes) > self.MAX_BOXES or sum(map(_area, boxes)) > self.FULL_SHARE * self.size[0] * self.size[1]:
                boxes = None
            else:
                boxes = merge_boxes(boxes)
        warp.apply(renderer.surface, self.out, self._bare[1], boxes)
        self._synced = (warp, self._bare[1])
        if boxes is None:
            self.dirty = [self.out.get_rect()]
            self.full_warps += 1
        else:
            self.dirty = [pygame.Rect(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in boxes]
            self.partial_warps += 1
        return self.out


def table_for(config: ProjectorSettings, size: tuple[int, int], say: Callable[[str], None] | None = None
              ) -> TableProjection | None:
    """The projection the ``[projector]`` section asks for at ``size``, or None (no calibration). A calibration
    file that does not read (empty, half written, damaged) does not keep the box from starting: with ``say``
    the map is drawn flat, the reason logged and said once; without it the DataError is raised."""
    try:
        calibration = load_calibration(config.calibration, (config.width, config.height))
    except DataError as exc:
        if say is None:
            raise
        log.warning("%s; the map is drawn without calibration (companion calibrate GAME writes it again)", exc)
        say("projector: calibration unreadable, map drawn flat")
        return None
    return TableProjection(calibration, size) if calibration is not None else None
