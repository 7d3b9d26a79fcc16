"""The OLED screens: pure functions ``Panel -> PIL image`` (128x64, mode "1").

Every screen is drawn whole from the shared :class:`~companion.views.panel.Panel`, so a test (or
``companion screens``) can pin down exactly what the table sees. In play the body always answers "what
now?": the current request (``Panel.request``: which dice, decision, shuffle or card pick, and for whom)
in 16 px type, with the last result on the lines under it until the next event; arriving dice are drawn
big; a decision is the menu under its title; at the end the final result stays. The type is Spleen, a
pixel font made for small screens (:mod:`companion.views.oled_fonts`).

A screen is first laid out as a list of :class:`Text` items and boxes (:func:`layout`); :func:`render`
draws them and :func:`oled_lines` returns their words, so tests read what the OLED says without
reading pixels.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from companion.views.oled_fonts import (
    BIG,
    BODY,
    ELLIPSIS,
    SHORT_ELLIPSIS,
    SMALL,
    advance,
    compact,
    fit_label,
    fit_title,
    fit_words,
    fits,
    font,
    side_by_side,
    text_width,
    wrap,
)
from companion.views.panel import Menu, Panel

__all__ = [
    "FOOTER_H",
    "HEADER_H",
    "Screen",
    "Text",
    "die_boxes",
    "fit",
    "layout",
    "oled_lines",
    "render",
    "screen_kind",
    "split_request",
    "text_width",
]

WIDTH, HEIGHT = 128, 64
HEADER_H = 12
"""Top strip: status, the request or the menu's title (left) and the dice sources' tags (right)."""
FOOTER_H = 12
"""Bottom strip for the message line (a refusal or fault), drawn inverted."""
TOP = HEADER_H + 1
"""First body row."""

TOWER_WORDS = {
    "off": "",
    "waiting": "wait",
    "connected": "tower",
    "rolling": "roll",
    "away": "away",
    "mismatch": "vers?",
}
"""Short inline words for the tower state; 'off' shows nothing (no tower configured)."""
WARN_STATES = ("away", "mismatch", "waiting")


class Text(NamedTuple):
    """One run of text on the screen; ``inverted`` draws it dark on a lit bar (``bar`` = x0, y0, x1, y1).

    A named tuple rather than a frozen dataclass: every run of every screen is looked up in the drawn runs'
    store (:func:`_text_effect`), and a tuple hashes and compares in C."""

    text: str
    x: int
    y: int
    size: int
    inverted: bool = False
    bar: tuple[int, int, int, int] | None = None
    outlined: bool = False


@dataclass
class Screen:
    """A laid-out screen: its kind, the texts and the plain shapes (die frames, re-roll marks, dots)."""

    kind: str
    texts: list[Text] = field(default_factory=list)
    boxes: list[tuple[int, int, int, int]] = field(default_factory=list)
    triangles: list[list[tuple[int, int]]] = field(default_factory=list)
    dots: list[tuple[int, int, int, int]] = field(default_factory=list)


def fit(text: str, size: int, width: int) -> str:
    """``text`` shortened at whole words (with an ellipsis) so it fits ``width`` px at ``size``."""
    return fit_words(text, size, width)


def sources_word(sources: tuple[tuple[str, str], ...]) -> tuple[str, bool]:
    """One short tag for the dice sources beside the tower ("dice 2"; "dice?" when one is away or
    refused) and whether it is a warning. Empty when none has spoken."""
    live = [state for _name, state in sources if state != "off"]
    if not live:
        return "", False
    if any(state in WARN_STATES for state in live):
        return "dice?", True
    return f"dice {len(live)}", False


def _header(screen: Screen, left: str, tower: str, sources: tuple[tuple[str, str], ...] = ()) -> None:
    texts, dots = _header_parts(left, tower, sources)
    screen.texts += texts
    screen.dots += dots


@lru_cache(maxsize=128)
def _header_parts(left: str, tower: str, sources: tuple[tuple[str, str], ...]
                  ) -> tuple[tuple[Text, ...], tuple[tuple[int, int, int, int], ...]]:
    """The header's runs and the rolling dot. Kept: the header is the same for most rolls in a row (whose
    turn or which tornado, and the tower), and laying it out measures and fits every word; 128 headers hold
    a game's turns and phases."""
    texts: list[Text] = []
    dots: list[tuple[int, int, int, int]] = []
    right_w = 0
    tags: list[tuple[str, bool]] = []
    extra, warn = sources_word(sources)
    if extra:
        tags.append((extra, warn))
    word = TOWER_WORDS.get(tower, tower)
    if word:
        tags.append((word, tower in WARN_STATES))
    for tag, outlined in tags:  # right to left: the sources' tag in the corner, the tower's left of it
        w = text_width(tag, SMALL) + 4
        x1 = WIDTH - 1 - right_w
        x0 = x1 - w + 1
        texts.append(Text(tag, x0 + 2, 0, SMALL, inverted=not outlined, bar=(x0, 0, x1, HEADER_H - 1),
                          outlined=outlined))
        right_w += w + 1
    if tower == "rolling":
        x0 = WIDTH - right_w
        dots.append((x0 - 7, 3, x0 - 2, 8))
        right_w += 8
    if left:
        room = WIDTH - right_w - 1
        texts.append(Text(fit_title(left, SMALL, room), 0, 0, SMALL))
    return tuple(texts), tuple(dots)


def footer_lines(message: str) -> list[str]:
    """The message in one line, or two when it needs them (a refusal is read whole: "need D6 + D6, got D8=3")."""
    return wrap(message, SMALL, WIDTH - 4, max_lines=2) if message else []


def _footer(screen: Screen, message: str) -> None:
    screen.texts += _footer_texts(message)


@lru_cache(maxsize=64)
def _footer_texts(message: str) -> tuple[Text, ...]:
    """The message's runs on their lit strip. Kept: a refusal or a fault stays on screen over several
    frames; 64 messages are more than a game says between two of the same."""
    lines = footer_lines(message)
    top = HEIGHT - FOOTER_H * len(lines)
    return tuple(Text(line, 2, top + n * FOOTER_H, SMALL, inverted=True,
                      bar=(0, top, WIDTH - 1, HEIGHT - 1) if n == 0 else None) for n, line in enumerate(lines))


def _body_bottom(panel: Panel) -> int:
    """Last body row + 1: the footer takes the bottom strip (one or two lines) when there is a message."""
    return HEIGHT - FOOTER_H * len(footer_lines(panel.message))


def _lines(screen: Screen, lines: list[str], size: int, y: int, step: int | None = None) -> int:
    for line in lines:
        screen.texts.append(Text(line, 0, y, size))
        y += step or size
    return y


def _small_lines(screen: Screen, lines: tuple[str, ...] | list[str], y: int, bottom: int) -> int:
    """As many whole result lines as fit between ``y`` and ``bottom``, each wrapped at words if it is long
    and there is room, else shortened at words."""
    texts, y = _small_texts(tuple(lines), y, bottom)
    screen.texts += texts
    return y


@lru_cache(maxsize=256)
def _small_texts(lines: tuple[str, ...], y: int, bottom: int) -> tuple[tuple[Text, ...], int]:
    """:func:`_small_lines`' runs and the row under them. Kept: the last result stays under the requests
    that follow it, and each of its lines is wrapped word by word; 256 results hold a few games' recent
    ones."""
    texts: list[Text] = []
    for line in lines:
        room = (bottom - y) // SMALL
        if room <= 0:
            break
        for part in wrap(line, SMALL, WIDTH, max_lines=min(room, 2)):
            texts.append(Text(part, 0, y, SMALL))
            y += SMALL
    return tuple(texts), y


# -- the screens of play ----------------------------------------------------------------------------

def split_request(request: str) -> tuple[str, str]:
    """(for whom, what) of a request "Tornado 2 of 3: north-south D8": the header names whom it is for
    when that fits there, and the body says what, big; otherwise ("", the whole request)."""
    who, sep, what = request.partition(": ")
    if sep and what and fits(who, SMALL, WIDTH - 40):
        return who, what
    return "", request


def _request_screen(screen: Screen, panel: Panel) -> None:
    """For whom on top, what in 16 px type, then the last result in 12 px on the lines left."""
    who, what = split_request(panel.request)
    _header(screen, who or panel.status or panel.game, panel.tower, panel.sources)
    bottom = _body_bottom(panel)
    room = max(1, (bottom - TOP) // BODY)
    body = wrap(what, BODY, WIDTH, max_lines=room)
    y = _lines(screen, body, BODY, TOP)
    _small_lines(screen, panel.last, y + 1, bottom)


def die_boxes(count: int, bottom: int) -> list[tuple[int, int, int, int]]:
    """Where each die's cell sits: equal columns across the width, under the header."""
    count = max(1, min(count, 4))
    cell = WIDTH // count
    return [(i * cell, TOP, (i + 1) * cell - 1, bottom) for i in range(count)]


def _dice_screen(screen: Screen, panel: Panel, header: str) -> None:
    """Dice big, each in a die's square with its kind; in play the dice still wanted show as "?"."""
    _header(screen, header, panel.tower, panel.sources)
    bottom = _body_bottom(panel) - 1
    shown: list[tuple[str, str, bool]] = [
        (str(d.value), d.kind.upper(), i < len(panel.rerolled) and panel.rerolled[i])
        for i, d in enumerate(panel.dice[:4])]
    if panel.arriving and panel.prompt is not None:
        missing = list(panel.prompt.dice)
        for d in panel.dice:
            if d.kind in missing:
                missing.remove(d.kind)
        shown += [("?", kind.upper(), False) for kind in missing][: 4 - len(shown)]
    for (digit, kind, rerolled), box in zip(shown, die_boxes(len(shown), bottom), strict=False):
        x0, y0, x1, y1 = box
        side = min(38, y1 - y0 - 1, x1 - x0 - 12)
        cx = (x0 + x1) // 2 + 5
        sq = (cx - side // 2, y0 + 1, cx + side // 2, y0 + 1 + side)
        screen.boxes.append(sq)
        w = text_width(digit, BIG)
        screen.texts.append(Text(digit, cx - w // 2, sq[1] + (side - BIG) // 2 + 1, BIG))
        screen.texts.append(Text(kind, x0 + 1, y1 - SMALL + 1, SMALL))
        if rerolled:  # re-roll mark: a frame round the cell and a filled corner
            screen.boxes.append((x0 + 1, y0, x1 - 1, y1))
            screen.triangles.append([(x1 - 12, y0), (x1 - 1, y0), (x1 - 1, y0 + 11)])


def _menu_screen(screen: Screen, menu: Menu, panel: Panel) -> None:
    """The title (the decision asked) on top; the selected option in 16 px on a lit bar, its neighbours in
    12 px around it; labels shortened at words, keeping what tells siblings apart."""
    _header(screen, menu.title, panel.tower, panel.sources)
    bottom = _body_bottom(panel)
    if not menu.items:
        return
    items = shown_items(menu)
    sel = min(max(0, menu.selected), len(items) - 1)
    selected = wrap(items[sel], BODY, WIDTH - 4, max_lines=1)
    if len(items[sel]) and selected and selected[0] != items[sel]:
        rows = min(3, (bottom - TOP) // BODY)  # the selected option read whole (its neighbours give way)
        wrapped = [wrap(text, BODY, WIDTH - 4, max_lines=rows) for text in (items[sel], compact(items[sel]))]
        whole = next((lines for lines in wrapped if lines == lines_of(lines)), None)
        selected = whole if rows >= 2 and whole is not None else [fit_label(items[sel], items, BODY, WIDTH - 4)]
    sel_h = BODY * len(selected)
    if panel.happened and not panel.message and bottom - TOP - sel_h >= SMALL + 1:
        bottom -= SMALL + 1  # what just happened, on the bottom line until the cursor moves (the option first)
        screen.texts.append(Text(fit_label(panel.happened, (), SMALL, WIDTH), 0, bottom + 1, SMALL))
        screen.boxes.append((0, bottom, WIDTH - 1, bottom))
    room_small = max(0, (bottom - TOP - sel_h) // SMALL)
    before = min(sel, 1 if room_small else 0, room_small)
    after = min(len(items) - sel - 1, room_small - before)
    if after < room_small - before:  # near the end: more of the items before fill the screen
        before = min(sel, room_small - after)
    y = TOP
    for index in range(sel - before, sel):
        label = fit_label(items[index], items, SMALL, WIDTH - 4)
        screen.texts.append(Text(label, 4, y, SMALL))
        y += SMALL
    bar = (0, y, WIDTH - 1, y + sel_h - 1)
    for n, part in enumerate(selected):
        screen.texts.append(Text(part, 2, y + n * BODY, BODY, inverted=True, bar=bar if n == 0 else None))
    y += sel_h
    for index in range(sel + 1, sel + 1 + after):
        label = fit_label(items[index], items, SMALL, WIDTH - 4)
        screen.texts.append(Text(label, 4, y, SMALL))
        y += SMALL


def lines_of(lines: list[str]) -> list[str]:
    """The wrapped lines without a cut mark: equal to ``lines`` when nothing of the text was cut."""
    return [line for line in lines if not line.endswith((ELLIPSIS, SHORT_ELLIPSIS))]


@lru_cache(maxsize=128)
def _drop_prefix(title: str, items: tuple[str, ...]) -> tuple[str, ...]:
    """The items without the "who: " the title already says ("Aquatic: your turn" over "Aquatic: go Tampa"
    shows "go Tampa"): a prefix repeated on every line is the first thing a small screen drops."""
    who, sep, _what = title.partition(": ")
    prefix = f"{who}: " if sep else ""
    if not prefix or sum(item.startswith(prefix) for item in items) < 2:
        return items
    return tuple(item.removeprefix(prefix) if item != prefix.strip() else item for item in items)


def shown_items(menu: Menu) -> tuple[str, ...]:
    """The menu's labels as the screen says them (the title's repeated prefix dropped)."""
    return _drop_prefix(menu.title, tuple(menu.items))


def _over_screen(screen: Screen, panel: Panel) -> None:
    """The final result stays: the engine's closing words under "Game over"."""
    prompt = panel.prompt
    title = (prompt.short or prompt.text) if prompt is not None else "Game over"
    _header(screen, title, panel.tower, panel.sources)
    lines = panel.last or ((prompt.text,) if prompt is not None else ())
    _small_lines(screen, lines, TOP, _body_bottom(panel))


# -- screens of hand-built panels (no request: before a game, the docs' parts) ------------------------

def _prompt_text(panel: Panel) -> str:
    if panel.prompt is None:
        return panel.status or panel.game or "ready"
    return panel.prompt.short or panel.prompt.text


def _prompt_screen(screen: Screen, panel: Panel) -> None:
    _header(screen, panel.game if panel.prompt else "", panel.tower, panel.sources)
    bottom = _body_bottom(panel)
    _lines(screen, wrap(_prompt_text(panel), BODY, WIDTH, max_lines=max(1, (bottom - TOP) // BODY)), BODY, TOP)


def _result_screen(screen: Screen, panel: Panel) -> None:
    _header(screen, panel.status or panel.game, panel.tower, panel.sources)
    _small_lines(screen, panel.result, TOP, _body_bottom(panel))


def screen_kind(panel: Panel) -> str:
    """Which screen a panel shows: menu; at the end of a game "over"; dice still arriving for the request;
    the request. A panel without a request (hand-built, or before a game) shows dice, result or prompt."""
    if panel.menu is not None:
        return "menu"
    if panel.prompt is not None and panel.prompt.done:
        return "over"
    if panel.request:
        return "dice" if panel.arriving and panel.dice else "request"
    if panel.dice and not panel.result:
        return "dice"
    if panel.result:
        return "result"
    return "prompt"


def layout(panel: Panel) -> Screen:
    """The screen for ``panel`` as texts and shapes, before any pixel is drawn."""
    screen = Screen(screen_kind(panel))
    if screen.kind == "menu":
        assert panel.menu is not None
        _menu_screen(screen, panel.menu, panel)
    elif screen.kind == "over":
        _over_screen(screen, panel)
    elif screen.kind == "request":
        _request_screen(screen, panel)
    elif screen.kind == "dice":
        _dice_screen(screen, panel, split_request(panel.request)[0] or panel.request or _prompt_text(panel))
    elif screen.kind == "result":
        _result_screen(screen, panel)
    else:
        _prompt_screen(screen, panel)
    if panel.message:
        _footer(screen, panel.message)
    return screen


def oled_lines(panel: Panel) -> list[str]:
    """Every run of words the OLED draws for ``panel``, top to bottom: what a player reads on the box."""
    texts = sorted(layout(panel).texts, key=lambda t: (t.y, t.x))
    return [t.text for t in texts]


SCREEN_BYTES = WIDTH * HEIGHT // 8


def render(panel: Panel) -> Image.Image:
    """The whole OLED screen for ``panel``: a new 128x64 mode "1" image, no side effects.

    The screen is put together as one integer of 128 x 64 bits, row by row as Pillow packs a mode "1" image,
    and handed to Pillow once (``Image.frombytes``): each shape and each
    run of text is a kept pair of masks, the pixels it clears and the pixels it lights
    (:func:`_text_effect`), applied in the order they are drawn. A roll's panel is a handful of runs nearly
    all drawn on the panel before (the tower's tag, whose turn, the request), so a screen costs a few
    integer operations instead of an image, a drawing context and a bitmap stamp per run: the OLED's
    drawing shares the loop's thread (and the GIL) with the projector's frame. The masks are made from
    Pillow's own drawing (the glyph tiles, the bars and shapes), and tests/test_oled_played.py compares
    every screen of whole played games with Pillow's ``draw.text`` run by run, byte for byte.
    """
    screen = layout(panel)
    lit = 0
    for box in screen.boxes:
        lit |= _shape_mask("box", box)
    for tri in screen.triangles:
        lit |= _shape_mask("polygon", tuple(tri))
    for dot in screen.dots:
        lit |= _shape_mask("ellipse", dot)
    for t in screen.texts:
        cleared, lights, shift = _text_effect(t)
        if cleared:
            lit &= ~(cleared << shift)
        lit |= lights << shift
    if panel.join_url:  # the box's "Phones" menu: the page's QR code on the right
        from companion.views.qr import oled_mask

        area, qr = oled_mask(panel.join_url, WIDTH, HEIGHT)
        lit = (lit & ~area) | qr
    return Image.frombytes("1", (WIDTH, HEIGHT), lit.to_bytes(SCREEN_BYTES, "big"))


def _draw_text(drawing: ImageDraw.ImageDraw, t: Text, dy: int) -> None:
    """One run drawn by Pillow as the screen has it (its bar first), ``dy`` rows up from where it sits on
    the screen: for a run :func:`_run_mask` does not place."""
    if t.bar is not None:
        x0, y0, x1, y1 = t.bar
        if t.outlined:
            drawing.rectangle((x0, y0 - dy, x1, y1 - dy), outline=1, fill=0)
        else:
            drawing.rectangle((x0, y0 - dy, x1, y1 - dy), fill=1)
    left, top, tile = text_tile(t.text, t.size)
    if tile is not None:
        drawing.bitmap((t.x + left, t.y + top - dy), tile, fill=0 if t.inverted else 1)


@lru_cache(maxsize=512)
def _text_effect(t: Text) -> tuple[int, int, int]:
    """What drawing ``t`` does to a screen, as (pixels cleared, pixels lit, shift) over the band of rows it
    touches: the screen's bits become ``(bits & ~(cleared << shift)) | (lit << shift)``.

    Its bar (lit, or cleared and outlined) then its glyphs, which set their pixels in the run's ink: each
    step sets or clears the pixels it touches whatever was under them, so steps fold into one pair of
    masks. The glyphs are their characters' masks side by side (:func:`_run_mask`); a run that is not
    monospaced or reaches past the screen's edge is drawn by Pillow instead (:func:`_band_effect`).
    A screen's runs recur from one roll to the next; 512 runs, at most a few hundred bytes each, hold those
    of the last few dozen screens (a game's header, requests, menus and recent results) while a long game's
    stream of new result lines keeps the store bounded."""
    glyphs = _run_mask(t.text, t.size, t.x, t.y)
    if glyphs is None:
        _left, top, tile = text_tile(t.text, t.size)
        rows = [t.y + top, t.y + top + tile.size[1]] if tile is not None else []
        if t.bar is not None:
            rows += [t.bar[1], t.bar[3] + 1]
        y0, y1 = max(0, min(rows, default=0)), min(HEIGHT, max(rows, default=0))
        if y1 <= y0:
            return 0, 0, 0
        return _band_effect(lambda drawing: _draw_text(drawing, t, y0), y0, y1)
    cleared, lit = _bar_effect(t.bar, t.outlined) if t.bar is not None else (0, 0)
    if t.inverted:  # then the glyphs clear their pixels: cleared | glyphs, lit & ~glyphs
        cleared, lit = cleared | glyphs, lit & ~glyphs
    else:
        lit |= glyphs
    touched = cleared | lit
    shift = ((touched & -touched).bit_length() - 1) // WIDTH * WIDTH if touched else 0
    return cleared >> shift, lit >> shift, shift


def _run_mask(text: str, size: int, x: int, y: int) -> int | None:
    """The pixels a monospaced run at (x, y) lights, as the screen's bits: each character's glyph mask
    shifted to its place (its tile as ``text_tile`` makes it, so the same pixels as Pillow's ``draw.text``).
    None when the run is not set side by side or a glyph would reach past the screen (Pillow clips it)."""
    if not side_by_side(text, size):
        return None
    step = int(advance(size))
    mask = 0
    for i, ch in enumerate(text):
        glyph = _glyph(ch, size)
        if glyph is None:
            continue
        left, top, w, h, bits = glyph
        gx, gy = x + i * step + left, y + top
        if gx < 0 or gx + w > WIDTH or gy < 0 or gy + h > HEIGHT:
            return None
        shift = (HEIGHT - gy - h) * WIDTH - gx
        mask |= bits << shift if shift >= 0 else bits >> -shift
    return mask


@lru_cache(maxsize=1024)
def _glyph(ch: str, size: int) -> tuple[int, int, int, int, int] | None:
    """One character's tile (:func:`text_tile`) as (left, top, width, height, bits): its rows as rows of
    the screen's width with the glyph at the left edge. None for a character with no ink (a space).
    1024 covers Spleen's characters the screens use at all three sizes."""
    left, top, tile = text_tile(ch, size)
    if tile is None or tile.size[0] > WIDTH:  # (wider than the screen: never placed, see _run_mask)
        return None if tile is None else (left, top, *tile.size, 0)
    w, h = tile.size
    stride = (w + 7) // 8  # Pillow packs each row of the tile into whole bytes, leftmost pixel highest
    packed = tile.tobytes()
    bits = 0
    for row in range(h):
        line = int.from_bytes(packed[row * stride:(row + 1) * stride], "big") >> (stride * 8 - w)
        bits = (bits << WIDTH) | (line << (WIDTH - w))
    return left, top, w, h, bits


@lru_cache(maxsize=64)
def _bar_effect(bar: tuple[int, int, int, int], outlined: bool) -> tuple[int, int]:
    """(cleared, lit) of a text's bar as the screen's bits, drawn by Pillow: a lit bar, or an outlined one
    (cleared inside its frame). Kept: the screens have a few bars (the header's tags, the menu's selection,
    the footer) at a few places."""
    def paint(drawing: ImageDraw.ImageDraw) -> None:
        if outlined:
            drawing.rectangle(bar, outline=1, fill=0)
        else:
            drawing.rectangle(bar, fill=1)

    cleared, lit, shift = _band_effect(paint, 0, HEIGHT)
    return cleared << shift, lit << shift


@lru_cache(maxsize=64)
def _shape_mask(kind: str, shape: tuple[Any, ...]) -> int:
    """The pixels a die's frame, a re-roll corner or the rolling dot lights, as the screen's bits (drawn
    by Pillow on a dark screen). Kept: the few dozen shapes of the dice screens recur at every roll."""
    def paint(drawing: ImageDraw.ImageDraw) -> None:
        if kind == "box":
            drawing.rectangle(shape, outline=1)
        elif kind == "polygon":
            drawing.polygon(shape, fill=1)
        else:
            drawing.ellipse(shape, fill=1)

    _cleared, lights, shift = _band_effect(paint, 0, HEIGHT)
    return lights << shift


def _band_effect(paint: Callable[[ImageDraw.ImageDraw], None], y0: int, y1: int) -> tuple[int, int, int]:
    """(cleared, lit, shift) of ``paint`` over the screen's rows ``y0`` to ``y1`` (drawn ``y0`` rows up)."""
    size = (WIDTH, y1 - y0)
    dark, bright = Image.new("1", size, 0), Image.new("1", size, 1)
    paint(ImageDraw.Draw(dark))
    paint(ImageDraw.Draw(bright))
    band = (1 << WIDTH * size[1]) - 1
    lit = int.from_bytes(dark.tobytes(), "big")
    cleared = band & ~int.from_bytes(bright.tobytes(), "big")
    return cleared, lit, (HEIGHT - y1) * WIDTH


@lru_cache(maxsize=1024)
def text_tile(text: str, size: int) -> tuple[int, int, Image.Image | None]:
    """``text`` in Spleen at ``size`` as a mask tile and where it sits from the text's origin.

    FreeType lays out and rasterises a run of text each time it is drawn, about a quarter of a millisecond
    a run; so each tile is made once. :func:`render` takes single characters' tiles (:func:`_glyph`) and
    places them itself; a run it cannot place that way is stamped whole with ``ImageDraw.bitmap``: the same
    pixels, set where the glyphs are, in whichever ink. A run is made of its characters' own tiles side by
    side when Spleen sets them so (one fixed advance each, nothing shaped across them), else drawn whole by
    Pillow's ``ImageDraw.text``; either way tests/test_oled_screens.py compares the result with
    ``draw.text`` pixel for pixel. 1024 tiles of a few hundred bytes each: every character at every size,
    and the runs drawn whole, many times over.
    """
    if len(text) > 1 and side_by_side(text, size):
        return _composed(text, size)
    left, top, right, bottom = (int(edge) for edge in font(size).getbbox(text))  # whole pixels for a bitmap font
    if right <= left or bottom <= top:
        return left, top, None
    tile = Image.new("1", (right - left, bottom - top), 0)
    ImageDraw.Draw(tile).text((-left, -top), text, font=font(size), fill=1)
    return left, top, tile


def _composed(text: str, size: int) -> tuple[int, int, Image.Image | None]:
    """The run's tile from its characters' tiles, each at its advance."""
    step = int(advance(size))
    placed = [(i * step + left, top, tile) for i, ch in enumerate(text)
              for left, top, tile in (text_tile(ch, size),) if tile is not None]
    if not placed:
        return 0, 0, None
    x0 = min(x for x, _, _ in placed)
    y0 = min(y for _, y, _ in placed)
    x1 = max(x + tile.size[0] for x, _, tile in placed)
    y1 = max(y + tile.size[1] for _, y, tile in placed)
    run = Image.new("1", (x1 - x0, y1 - y0), 0)
    for x, y, tile in placed:
        run.paste(1, (x - x0, y - y0, x - x0 + tile.size[0], y - y0 + tile.size[1]), tile)
    return x0, y0, run
