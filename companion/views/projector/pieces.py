"""The map layer as a list of pieces, so a new state repaints only the pieces that changed.

A roll changes a few marks and a few lines of the side panel; repainting the whole 1080p map for it
costs the frame budget several times over (docs/performance.md). So a painter may describe what it
draws as :class:`Piece` values, in drawing order: each a *key* saying what it shows (two pieces with
equal keys draw the same pixels), the rectangle its pixels stay inside, and the function that draws
it. Between two states the renderer compares the keys (:func:`damage`): the rectangles of pieces that
came or went are the damage; each damaged rectangle is restored from the cached board and every piece
touching it is drawn again in order (see :func:`repaint`). Only those rectangles reach the screen.

The one promise a piece makes is its rectangle: a piece that draws outside it would leave stale
pixels behind. Tests draw every piece of whole games alone and check its pixels stay inside, and
check that a game drawn piece by piece ends pixel for pixel as the same frame drawn from scratch.

A painter without pieces is drawn as one piece covering the screen, keyed by the state: a full
repaint on every new state, as before.

Comparing every key of a frame with the last frame's costs more than the few pieces a roll changes, so
the renderer takes a frame as *groups* (:data:`Group`): tuples of pieces a painter keeps together
because they show one part of the state (a tornado's track, the marker stacks, a block of panel
lines). A painter that keeps a group while its part of the state is unchanged gives the very same
tuple again (:class:`PaintsGroups`), and the renderer compares only the groups that are new objects
(:func:`compare`): an unchanged group costs one lookup, not a key per piece.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter
from typing import Any, Protocol, runtime_checkable

import pygame

from companion.views.projector.marks import clipped

MERGE_SHARE = 0.7
"""Damage covering more than this share of the screen is repainted as one rectangle (fewer passes
over the pieces cost less than many small ones)."""
UNION_SLACK = 1.25
"""Two overlapping rectangles are repainted as their union when it is at most this much larger than
both together."""


@dataclass(frozen=True)
class Piece:
    """One mark, label or panel block: what it shows (``key``), where its pixels stay, how to draw it."""

    key: Hashable
    rect: pygame.Rect
    draw: Callable[..., object] = field(compare=False, hash=False)
    """(surface) -> None; draws the piece at its place on the screen-sized surface."""
    clips: bool = field(default=True, compare=False, hash=False)
    """True when the piece draws the same pixels inside any clip rectangle as without one and nothing outside it, so it
    may be repainted through a clip (see :func:`repaint`). Most of pygame's drawing does: blits, fills, filled and
    outlined polygons, circles and ellipses, lines of any width. Three calls do not, and a piece that makes one says
    ``clips=False``: an outlined rectangle (``pygame.draw.rect`` with a width and no rounded corners: its border is
    drawn at the clip's edge; ``marks.outline_rect`` draws the same without that), an arc and an antialiased line
    (``aaline``). A piece that clips its own drawing narrows the clip it is given (``marks.clipped``), never replaces
    it. The tests draw every piece of whole games of the five games through clips and compare."""

    @cached_property
    def identity(self) -> Identity:
        """The key and the rectangle, made and hashed once: most pieces are kept from frame to frame, and
        every frame's pieces are compared with the last frame's as a set of these."""
        return Identity(self.key, tuple(self.rect))


class Identity:
    """What tells two pieces apart (key and rectangle), hashed once: a key holds the game's own objects
    (a tornado and its moves), and hashing them again for every frame adds up."""

    __slots__ = ("_hash", "key", "rect")

    def __init__(self, key: Hashable, rect: tuple[int, ...]) -> None:
        self.key = key
        self.rect = rect
        self._hash = hash((key, rect))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Identity) and self._hash == other._hash and self.rect == other.rect
                and self.key == other.key)


class KeptPieces:
    """A painter's pieces (and lists of them) by what they show, made once per screen size: most of a frame's
    pieces did not change since the last. The store starts again when it passes ``limit``, so a long game
    never grows it without end."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._size: tuple[int, int] | None = None
        self._store: dict[Any, Any] = {}

    def at(self, layout: Any) -> dict[Any, Any]:
        """The store for ``layout``'s screen size (a new, empty one for another size or past the limit)."""
        size = (layout.width, layout.height)
        if size != self._size or len(self._store) > self.limit:
            self._size, self._store = size, {}
        return self._store


def keep(kept: dict[Any, Any], key: Any, make: Callable[..., Any], *args: Any) -> Any:
    """``kept[key]``, made by ``make(*args)`` the first time it is asked for."""
    if key not in kept:
        kept[key] = make(*args)
    return kept[key]


def rect_of(box: Any, pad: float = 0) -> pygame.Rect:
    """A pygame.Rect of a layout Rect (x, y, w, h) grown by ``pad`` pixels on every side."""
    x, y, w, h = box.as_tuple() if hasattr(box, "as_tuple") else tuple(box)
    p = math.ceil(pad)
    return pygame.Rect(int(x) - p, int(y) - p, int(w) + 2 * p, int(h) + 2 * p)


def around(points: Iterable[tuple[float, float]], pad: float) -> pygame.Rect:
    """The rectangle holding ``points`` with ``pad`` pixels to spare on every side."""
    pts = list(points)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    left, top = int(min(xs) - pad) - 1, int(min(ys) - pad) - 1
    return pygame.Rect(left, top, int(max(xs) + pad) + 2 - left, int(max(ys) + pad) + 2 - top)


def identities(pieces: Sequence[Piece]) -> frozenset[Identity]:
    """What tells pieces apart for :func:`damage`: each piece's key and rectangle."""
    return frozenset(map(_IDENTITY, pieces))


_IDENTITY = attrgetter("identity")


def damage(old: Sequence[Piece] | frozenset[Any], new: Sequence[Piece] | frozenset[Any],
           screen: pygame.Rect) -> list[pygame.Rect]:
    """The rectangles to repaint when ``old`` pieces become ``new`` (lists, or their :func:`identities`):
    those of pieces in one and not the other (by key and rectangle), clipped to ``screen``, overlapping
    ones merged; one rectangle, the screen, when they cover much of it."""
    before = old if isinstance(old, frozenset) else identities(old)
    after = new if isinstance(new, frozenset) else identities(new)
    return rects_of(before ^ after, screen)


def rects_of(changed: Iterable[Identity], screen: pygame.Rect) -> list[pygame.Rect]:
    """The rectangles of ``changed`` pieces clipped to ``screen``, merged (see :func:`merge`). A rectangle comes
    once however many pieces name it: a place's heat in its old colour went and in its new one came, both in the
    same rectangle, and under the overlay a roll changes the colour of most places."""
    clipped = [screen.clip(r) for r in {i.rect for i in changed}]
    return merge([r for r in clipped if r.w > 0 and r.h > 0], screen)


Group = tuple[Piece, ...]
"""Pieces kept together because they show one part of the state, in drawing order. A tuple, never changed
once made: the renderer takes the same object again for the same pixels (see :func:`compare`)."""

Shown = dict[int, tuple[Group, frozenset[Identity]]]
"""A frame's groups by ``id``, each with the identities of its pieces. It holds the groups themselves, so no
other object can take one's ``id`` while it is kept."""


@runtime_checkable
class PaintsGroups(Protocol):
    """A painter that gives its pieces in groups (:data:`Group`), each the same object as long as the part of
    the state it shows is unchanged: the renderer then compares only the groups that changed. Its
    ``state_pieces`` and ``side_pieces`` (:class:`~companion.views.projector.painters.PaintsPieces`) give the
    same pieces, in the same order, flat."""

    def state_groups(self, layout: Any, state: Any, overlay: bool = False) -> list[Group]: ...

    def side_groups(self, layout: Any, rect: Any, state: Any) -> list[Group]: ...


def shown(groups: Sequence[Group]) -> Shown:
    """Every group of a frame with its identities (a frame painted whole: nothing to compare with)."""
    return {id(g): (g, identities(g)) for g in groups}


def compare(last: Shown, groups: Sequence[Group]) -> tuple[Shown, set[Identity]]:
    """The new frame's groups with their identities, and the pieces that came or went since ``last``.

    A group that is the same object as one of the last frame's is unchanged: its identities are taken from
    ``last`` and it adds nothing. Only the other groups, new and gone, are compared piece by piece. That may
    name a piece that also sits unchanged in a kept group (repainted for nothing: still correct), never
    miss one: a piece shown before and not now was in a gone group and is in no new one."""
    now: Shown = {}
    came: set[Identity] = set()
    for g in groups:
        k = id(g)
        if k in now:
            continue
        kept = last.get(k)
        if kept is not None and kept[0] is g:
            now[k] = kept
        else:
            ids = identities(g)
            now[k] = (g, ids)
            came |= ids
    went: set[Identity] = set()
    for k, (_, ids) in last.items():
        if k not in now:
            went |= ids
    return now, came ^ went


class Memo:
    """Values made from what they show, the ``limit`` last asked for: a painter's groups kept while the part of
    the state they show is the same, so an unchanged group is the same tuple frame after frame. Bounded:
    past ``limit`` the one asked for longest ago goes (a finished tornado's track is asked for on every roll
    of its turn and stays; a panel line of three rolls ago goes)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._store: dict[Any, Any] = {}

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The value kept for ``key``, else ``make()`` kept for it."""
        store = self._store
        if key in store:
            value = store[key] = store.pop(key)  # the most recent now: the last to go
            return value
        value = store[key] = make()
        if len(store) > self.limit:
            del store[next(iter(store))]
        return value

    def same(self, thing: object, key: Hashable, make: Callable[..., Any], *args: Any) -> Any:
        """The value kept for ``thing`` itself (the very object, not an equal one) and ``key``, else
        ``make(*args)``.
        For the engine's immutable values, which a new state carries over as the same objects when they did not
        change (a finished tornado): asking by identity skips hashing them, which for a dataclass walks all its
        fields. The value is kept with ``thing``, so no other object can take its ``id`` meanwhile."""
        kept: tuple[object, Any] = self.get((id(thing), key), lambda: (thing, make(*args)))
        return kept[1]

    def __len__(self) -> int:
        return len(self._store)


_TOP_LEFT = attrgetter("y", "x")


def merge(rects: list[pygame.Rect], screen: pygame.Rect) -> list[pygame.Rect]:
    """Overlapping rectangles joined where their union is little more than the two (a union of two
    rectangles on a diagonal would repaint much that did not change; an overlap repainted twice costs
    less); the whole ``screen`` when the area passes :data:`MERGE_SHARE` of it."""
    out: list[pygame.Rect] = []
    for r in sorted(rects, key=_TOP_LEFT):
        joined = True
        while joined:
            joined = False
            for i in r.collidelistall(out):
                o = out[i]
                u = r.union(o)
                if u.w * u.h <= UNION_SLACK * (r.w * r.h + o.w * o.h):
                    r = u
                    out.pop(i)
                    joined = True
                    break
        out.append(r)
    if sum(r.w * r.h for r in out) > MERGE_SHARE * screen.w * screen.h:
        return [screen.copy()]
    return out


def repaint(surface: Any, base: Any, pieces: Sequence[Piece], rects: Sequence[pygame.Rect],
            scratch: Callable[[], Any]) -> None:
    """Each of ``rects`` brought to what a fresh paint would show: on ``surface`` itself, clipped to the
    rectangle, the base under it and every piece touching it drawn in order. A piece's pixels depend only on
    what lies under them, so inside the rectangle they are what a fresh paint gives.

    That holds for a piece that draws the same through a clip (:attr:`Piece.clips`, nearly all) or lies
    inside the rectangle. A rectangle touched by any other piece (pygame draws an outlined rectangle's border
    at the clip's edge, and an arc otherwise too) is painted whole-piece on a surface of the same size that
    ``scratch()`` gives (made when first asked: most frames never ask) instead, and the rectangle alone copied to
    ``surface``: what the whole pieces leave there outside it is never copied. That copy is a second pass over the
    rectangle's pixels, and the scratch a second screen's worth of memory, which is why the painters draw what a
    clip keeps the same."""
    boxes = [p.rect for p in pieces]
    for rect in rects:
        touching = rect.collidelistall(boxes)
        if all(rect.contains(boxes[i]) or pieces[i].clips for i in touching):
            # a piece that fails (the loop then drops the view) leaves the surface's clip as it found it
            with clipped(surface, rect):
                if base is not None:  # none: the first piece covers the screen (no game: the idle picture)
                    surface.blit(base, rect, rect)
                for i in touching:
                    pieces[i].draw(surface)
            continue
        apart = scratch()
        if base is not None:
            apart.blit(base, rect, rect)
        for i in touching:
            pieces[i].draw(apart)
        surface.blit(apart, rect, rect)


def paint_all(surface: Any, base: Any, pieces: Sequence[Piece]) -> None:
    """The whole layer from scratch: the base (None: the first piece covers the screen), then every
    piece in order."""
    if base is not None:
        surface.blit(base, (0, 0))
    for piece in pieces:
        piece.draw(surface)
