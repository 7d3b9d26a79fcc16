"""Text on the map: pygame's bundled font, cached by size, with a dark halo so names read over any fill.

Sizes are given as a share of the screen height, so a name is the same apparent size on a 720p
window and a 1080p projector. No text is drawn smaller than :data:`MIN_SHARE`: the usual legibility
rule of thumb asks a character height of about 1/200 of the viewing distance, so 20 mm at 4 m,
which on a 2 m wide image is 1 % of its width (1.8 % of the height at 16:9). :func:`px` never
returns less, whatever share a painter asks for.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from functools import lru_cache
from typing import Any

import pygame

from companion.views.projector.palette import BACKGROUND, Colour
from companion.views.projector.pieces import Group, Memo, Piece

MIN_SHARE = 0.019
"""The smallest text, as a share of the screen height (1 % of the width at 16:9, with rounding room)."""
CITY_NAME = 0.034
"""City names: share of the screen height."""
TOWN_NAME = 0.024
BODY = 0.03
"""Side panel text read from across the room."""
SMALL = 0.022
"""Secondary lines (still above the minimum)."""
TITLE = 0.04
MARK = MIN_SHARE
"""Numbers inside marks on the map (marker counts, card ids, grid numbers)."""


@lru_cache(maxsize=64)
def font(px: int, bold: bool = False) -> Any:
    """pygame's default font at ``px`` pixels (bundled with pygame, so no system fonts are needed)."""
    if not pygame.font.get_init():
        pygame.font.init()
    f = pygame.font.Font(None, max(8, px))
    f.set_bold(bold)
    return f


def minimum(height: int) -> int:
    """The smallest text size in pixels on a screen ``height`` pixels tall."""
    return max(10, math.ceil(MIN_SHARE * height))


def px(share: float, height: int) -> int:
    """``share`` of the screen height in pixels, never below the legible :func:`minimum`."""
    return max(minimum(height), round(share * height))


def draw(surface: Any, text: str, pos: tuple[float, float], size: int, colour: Colour, *, anchor: str = "topleft",
         halo: bool = False, bold: bool = False, max_width: int | None = None) -> Any:
    """Render ``text`` at ``pos`` (``anchor`` names the rect attribute: "center", "midtop"...); returns its rect.

    ``max_width`` trims the text with an ellipsis rather than letting it run off its region."""
    if max_width is not None:
        text = fitted(text, size, bold, max_width)
    image = rendered(text, size, bold, tuple(colour))
    rect = image.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    if halo:
        shadow = rendered(text, size, bold, BACKGROUND)
        step = max(1, size // 14)
        for dx, dy in ((-step, 0), (step, 0), (0, -step), (0, step), (-step, -step), (step, step), (-step, step),
                       (step, -step)):
            surface.blit(shadow, rect.move(dx, dy))
    surface.blit(image, rect)
    return rect


def box(words: str, pos: tuple[float, float], size: int, colour: Colour, *, anchor: str = "topleft",
        bold: bool = False) -> Any:
    """Where :func:`draw` puts ``words`` (its kept image's rectangle; nothing is drawn)."""
    return rendered(words, size, bold, tuple(colour)).get_rect(**{anchor: (round(pos[0]), round(pos[1]))})


def piece(kind: str, words: str, pos: tuple[float, float], size: int, colour: Colour, *, anchor: str = "topleft",
          bold: bool = False, max_width: int | None = None) -> Piece:
    """``words`` as a piece (:mod:`companion.views.projector.pieces`) keyed ``kind`` and what it shows, in the
    rectangle of its image: a panel row, a word of the status strip. Kept: a panel's rows come back frame
    after frame, and a kept piece is measured, keyed and hashed once."""
    return _piece(kind, words, (round(pos[0]), round(pos[1])), size, tuple(colour), anchor, bold, max_width)


@lru_cache(maxsize=512)
def _piece(kind: str, words: str, at: tuple[int, int], size: int, colour: Colour, anchor: str, bold: bool,
           max_width: int | None) -> Piece:
    if max_width is not None:
        words = fitted(words, size, bold, max_width)
    # drawn by :func:`draw` (the one way text reaches the screen, which the tests watch); a blit of an image,
    # so the same through a clip (Piece.clips)
    return Piece((kind, words, at, anchor, size, colour, bold), box(words, at, size, colour, anchor=anchor,
                                                                    bold=bold),
                 lambda s: draw(s, words, at, size, colour, anchor=anchor, bold=bold))


@lru_cache(maxsize=384)
def rendered(text: str, size: int, bold: bool, colour: Colour) -> Any:
    """The text's image, kept: the same names, numbers and panel lines come back frame after frame, and
    rasterising them is most of what drawing text costs (a blit of a kept image is a few microseconds).
    A frame shows about a hundred strings; 384 images are a few MB at 1080p (the box's memory budget)."""
    return font(size, bold).render(text, True, colour)


@lru_cache(maxsize=512)
def fitted(text: str, size: int, bold: bool, max_width: int) -> str:
    """``text`` trimmed with an ellipsis to ``max_width`` pixels (unchanged when it fits)."""
    f = font(size, bold)
    if f.size(text)[0] <= max_width:
        return text
    while text and f.size(text + "...")[0] > max_width:
        text = text[:-1]
    return text + "..."


def wrap(line: str, size: int, width: int, bold: bool = False) -> list[str]:
    """Words of ``line`` broken into rows that fit ``width`` pixels at ``size`` (a reminder is read whole)."""
    return list(_wrapped(line, size, width, bold))


@lru_cache(maxsize=512)
def _wrapped(line: str, size: int, width: int, bold: bool) -> tuple[str, ...]:
    """:func:`wrap`, kept: a panel's lines come back frame after frame, and measuring each word is slow.

    A line that fits whole is one row, measured once: a text's width (from its leftmost to its rightmost
    pixel) never shrinks as words are added at its end, so every shorter row would have fitted too and the
    word by word measuring below would end with the same single row. Most lines a roll brings are short."""
    f = font(size, bold)
    words = line.split()
    whole = " ".join(words)
    if words and f.size(whole)[0] <= width:
        return (whole,)
    rows: list[str] = []
    for word in words:
        if rows and f.size(f"{rows[-1]} {word}")[0] <= width:
            rows[-1] = f"{rows[-1]} {word}"
        else:
            rows.append(word)
    return tuple(rows)


@lru_cache(maxsize=512)
def _rows(words: str, share: float, colour: Colour, bold: bool, indent: int, wrap_lines: bool, x: int, y: int,
          width: int, bottom: int, height: int) -> tuple[tuple[Piece, ...], int, bool]:
    """:meth:`Column.line` from ``y`` down: the rows' pieces, the height below them, whether all fitted. Kept:
    a panel writes the same lines at the same heights state after state, and working a line out again
    (its size, its wrapping, each row's piece) costs ten times looking it up. 512 lines are a few states'."""
    size = px(share, height)
    room = width - indent
    rows = wrap(words, size, room, bold) if wrap_lines else [words]
    step = font(size, bold).get_linesize()
    pieces: list[Piece] = []
    for row in rows:
        if y + step > bottom:
            return tuple(pieces), y, False
        pieces.append(piece("text", row, (x + indent, y), size, colour, bold=bold, max_width=room))
        y += step
    return tuple(pieces), y, True


class Column:
    """Lines written down a panel rectangle, each below the last; a line that would pass the bottom is
    left out (and ``full`` set), so a long panel never runs into the key or the legend under it.

    With ``pieces`` (a list) nothing is drawn: each row and each :meth:`put` becomes a piece in that list
    instead (:mod:`companion.views.projector.pieces`), so a new state repaints only the rows it changed."""

    def __init__(self, surface: Any, rect: Any, height: int, pieces: list[Piece] | None = None,
                 kept: Memo | None = None) -> None:
        self.surface = surface
        self.rect = rect
        self.height = height
        """The screen height: sizes are shares of it."""
        self.y = rect.y
        self.full = False
        self.pieces = pieces
        self.kept = kept
        """Where :meth:`group` keeps the rows it wrote (none: written again every time)."""
        self.groups: list[Group] = []
        """With ``pieces``: the rows written so far in groups, in order (see :meth:`group`)."""
        self._loose = 0
        """How many of ``pieces`` are not in ``groups`` yet."""

    @property
    def bottom(self) -> int:
        return int(self.rect.y + self.rect.h)

    def room(self, pixels: float) -> bool:
        """Whether ``pixels`` more fit above the bottom."""
        return self.y + pixels <= self.bottom

    def put(self, key: Any, rect: Any, paint: Callable[..., object]) -> None:
        """Something drawn in the column besides its text rows (a die face): drawn now, or kept as a piece
        with ``key`` (what it shows) and ``rect`` (where its pixels stay)."""
        self.add(Piece(key, pygame.Rect(rect), paint))

    def add(self, made: Piece) -> None:
        """``made`` drawn now, or kept in the column's pieces."""
        if self.pieces is None:
            made.draw(self.surface)
        else:
            self.pieces.append(made)
            self._loose += 1

    def group(self, key: Hashable, write: Callable[[Column], object]) -> None:
        """The rows ``write`` puts down the column, kept by ``key`` and where they start.

        ``key`` must name everything ``write`` reads besides the column (the lines' words, the dice shown):
        the same key at the same height gives the same group of pieces, the same tuple as before, and the
        column's height below it, without writing a row again. A panel's blocks mostly stay as they were
        from one state to the next (the turn, the forecast, the score), and the renderer compares only
        the groups that are new objects. Drawing, or without ``kept``, ``write`` just writes."""
        if self.pieces is None or self.kept is None:
            write(self)
            return
        self._close()
        start = (key, self.y, self.rect.x, self.rect.y, self.rect.w, self.rect.h, self.height)
        made: tuple[Group, float, bool] = self.kept.get(start, lambda: self._written(write))
        rows, self.y, full = made
        self.full = self.full or full
        self.pieces.extend(rows)
        self.groups.append(rows)

    def _written(self, write: Callable[[Column], object]) -> tuple[Group, float, bool]:
        """What ``write`` puts down from here: its rows, the height below them, whether one did not fit."""
        assert self.pieces is not None
        before, full, self.full = len(self.pieces), self.full, False
        write(self)
        rows = tuple(self.pieces[before:])
        del self.pieces[before:]
        self._loose -= len(rows)
        wrote_full, self.full = self.full, full
        return rows, self.y, wrote_full

    def _close(self) -> None:
        """Rows written outside a :meth:`group` become a group of their own, so ``groups`` holds every row."""
        if self._loose and self.pieces is not None:
            self.groups.append(tuple(self.pieces[-self._loose:]))
            self._loose = 0

    def finish(self) -> list[Group]:
        """Every row written, in groups (rows written outside a :meth:`group` in groups of their own)."""
        self._close()
        return self.groups

    def text(self, words: str, pos: tuple[float, float], size: int, colour: Colour, *, anchor: str = "topleft",
             bold: bool = False, max_width: int | None = None) -> None:
        """One piece of text in the column (see :func:`draw`), drawn now or kept as a piece."""
        self.add(piece("text", words, pos, size, colour, anchor=anchor, bold=bold, max_width=max_width))

    def line(self, words: str, share: float = BODY, colour: Colour = (240, 240, 240), *, bold: bool = False,
             indent: int = 0, wrap_lines: bool = False) -> bool:
        """One line (or, with ``wrap_lines``, as many rows as it needs); False when it did not fit."""
        rect = self.rect
        pieces, self.y, fits = _rows(words, share, tuple(colour), bold, indent, wrap_lines, int(rect.x), self.y,
                                     int(rect.w), self.bottom, self.height)
        for made in pieces:
            self.add(made)
        if not fits:
            self.full = True
        return fits

    def gap(self, share: float = 0.01) -> None:
        self.y += round(share * self.height)
