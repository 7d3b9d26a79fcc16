"""The OLED's type: Spleen, a pixel font drawn for small screens, shipped in the package (companion/fonts).

Each size is a bitmap drawn at its own pixel height, so Pillow renders it in mode "1" without scaling
artefacts: 6 and 8, 0 and 8, 1 and 7, 3 and 8, D and 0 stay distinct at every size the screens use
(tests/test_oled_glyphs.py renders each pair). Text that does not fit is shortened at whole words, never
cut mid-word, and among sibling labels the words that tell them apart are kept.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from importlib.resources import as_file, files

from PIL import ImageFont

SMALL = 12
"""Header, result lines, footer, neighbouring menu items: Spleen 6x12 (21 characters across)."""
BODY = 16
"""The request and the selected menu item: Spleen 8x16 (16 characters across)."""
BIG = 32
"""Dice values: Spleen 16x32."""
SIZES: dict[int, str] = {SMALL: "spleen-6x12.otf", BODY: "spleen-8x16.otf", BIG: "spleen-16x32.otf"}
ELLIPSIS = "…"
"""The cut mark where the font has it (Spleen 8x16 and 16x32); Spleen 6x12 has no ellipsis glyph, and a
character the font lacks is drawn as a box, so there the cut is two full stops (:func:`ellipsis`)."""
SHORT_ELLIPSIS = ".."
FILLERS = frozenset({"the", "a", "an"})
"""Words a label can lose before it loses any that carry meaning ("move the tornado 2" -> "move tornado 2")."""


@lru_cache(maxsize=8)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Spleen at one of its native sizes (SMALL, BODY, BIG); another size is a programming error."""
    if size not in SIZES:
        raise ValueError(f"no Spleen font of {size} px (sizes: {', '.join(map(str, SIZES))})")
    with as_file(files("companion.fonts") / SIZES[size]) as path:
        return ImageFont.truetype(str(path), size)


@lru_cache(maxsize=8)
def advance(size: int) -> float:
    """The one advance of Spleen's characters at ``size`` (a monospaced font)."""
    return font(size).getlength("0")


@lru_cache(maxsize=2048)
def monospaced(ch: str, size: int) -> bool:
    """Whether Spleen sets ``ch`` one fixed advance wide and on its own: printable, combining with nothing,
    read left to right (a combining mark, a control, a right-to-left letter is left to FreeType)."""
    return (ch.isprintable() and not unicodedata.combining(ch)
            and unicodedata.bidirectional(ch) not in ("R", "AL", "AN")
            and font(size).getlength(ch) == advance(size))


def side_by_side(text: str, size: int) -> bool:
    """Whether ``text`` is its characters set one fixed advance apart, left to right, so that its width is
    its length times the advance and its pixels its characters' own side by side (Spleen is a monospaced
    bitmap font with nothing shaped across characters; tests/test_oled_glyphs.py checks both against
    FreeType). Asked only when a run's width, tile or effect is first made (each is kept)."""
    return all(monospaced(ch, size) for ch in text)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> int:
    """Width in pixels. Kept once measured: laying out a panel asks for a few dozen widths (every word
    wrap tries a line), nearly all asked before. A run of monospaced characters is counted, not measured:
    a FreeType layout costs tens of microseconds, and each roll's new result line tries a few."""
    if side_by_side(text, size):
        return round(len(text) * advance(size))
    return round(font(size).getlength(text))


def fits(text: str, size: int, width: int) -> bool:
    return text_width(text, size) <= width


@lru_cache(maxsize=512)
def has_glyph(ch: str, size: int) -> bool:
    """Whether Spleen at ``size`` draws ``ch`` itself, not the box it draws for a character it lacks (its
    .notdef glyph, the same pixels as a private-use character's). A space has a glyph with no ink."""
    if ch.isspace():
        return True
    f = font(size)
    missing = f.getmask("\ue000")
    mask = f.getmask(ch)
    return not (mask.size == missing.size and bytes(mask) == bytes(missing))


def ellipsis(size: int) -> str:
    """The cut mark at ``size``: the ellipsis where the font has one, else two full stops."""
    return ELLIPSIS if has_glyph(ELLIPSIS, size) else SHORT_ELLIPSIS


def _chars(text: str, size: int, width: int) -> str:
    """Last resort for one word wider than the screen: cut it with an ellipsis."""
    mark = ellipsis(size)
    while text and not fits(text + mark, size, width):
        text = text[:-1]
    return text + mark


@lru_cache(maxsize=1024)
def fit_words(text: str, size: int, width: int) -> str:
    """``text`` if it fits, else its first whole words and an ellipsis. Kept once fitted, as :func:`wrap`."""
    if fits(text, size, width):
        return text
    words = text.split()
    for k in range(len(words) - 1, 0, -1):
        trial = " ".join(words[:k]).rstrip(",:;- ") + ellipsis(size)
        if fits(trial, size, width):
            return trial
    return _chars(words[0] if words else text, size, width)


def wrap(text: str, size: int, width: int, max_lines: int) -> list[str]:
    """Greedy word wrap into at most ``max_lines`` lines; what does not fit ends the last line with an
    ellipsis at a word boundary."""
    return list(_wrapped(text, size, width, max_lines))


@lru_cache(maxsize=1024)
def _wrapped(text: str, size: int, width: int, max_lines: int) -> tuple[str, ...]:
    """:func:`wrap`, kept: a panel wraps the same request, result lines and message on roll after roll (each
    wrap tries every word's line), and a fresh list is handed out so no caller can change the kept one.
    1024 wrappings are far more than the few dozen texts of the screens a game shows in a row."""
    words = text.split()
    lines: list[str] = []
    current = ""
    for i, word in enumerate(words):
        trial = f"{current} {word}".strip()
        if fits(trial, size, width) or not current:
            current = trial
            continue
        lines.append(current)
        current = word
        if len(lines) == max_lines - 1:
            current = " ".join(words[i:])
            break
    if current:
        lines.append(current)
    lines = lines[:max_lines]
    return tuple(fit_words(line, size, width) for line in lines)


def _cut(words: Sequence[str], head: int, tail: int, mark: str = ELLIPSIS) -> str:
    if head + tail >= len(words):
        return " ".join(words)
    left = " ".join(words[:head]).rstrip(",:;- ")
    right = " ".join(words[len(words) - tail:]) if tail else ""
    return f"{left}{mark}{right}" if right else f"{left}{mark}"


def compact(text: str) -> str:
    """``text`` with its filler words dropped (never the first word) and "Player 2" said "P2": what a label
    loses first, before any word that carries meaning."""
    words = text.split()
    kept = words[:1] + [w for w in words[1:] if w.lower() not in FILLERS]
    out = " ".join(kept)
    return _PLAYER.sub(r"P\1", out)


_PLAYER = re.compile(r"\bPlayer (\d+)\b")
_BRACKETS = re.compile(r"\s*\([^)]*\)")


def name_start(words: Sequence[str]) -> int:
    """Index of the first word of the label's name: the last run of capitalised words after its first word
    ("go Lake Charles" -> 1, "$1: 1 NW of Great Bend (1)" -> 5); len(words) when it names nothing."""
    last = next((i for i in range(len(words) - 1, 0, -1) if words[i][:1].isupper()), None)
    if last is None:
        return len(words)
    start = last
    while start > 1 and words[start - 1][:1].isupper() and not words[start - 1].endswith(":"):
        start -= 1
    return start


def fit_label(label: str, siblings: Sequence[str], size: int, width: int) -> str:
    """``label`` shortened to fit ``width``: first its filler words, then whole words from its middle, keeping
    its first words (the verb) and its name at the end, and the words that tell it apart from its
    ``siblings`` (two dams of the same road at different cities keep the city: "dam Mobile - Biloxi…Mobile")."""
    if fits(label, size, width):
        return label
    return _fit_label(label, tuple(siblings), size, width)


@lru_cache(maxsize=256)
def _fit_label(label: str, siblings: tuple[str, ...], size: int, width: int) -> str:
    """:func:`fit_label` of a label too wide, kept: a menu lays out the same items at each move of its cursor
    and each label tries every cut of its words against every sibling. 256 covers the labels of a few menus."""
    if fits(label, size, width):
        return label
    short = compact(label)
    if fits(short, size, width):
        return short
    words = short.split()
    others = [compact(s).split() for s in siblings if s != label]
    name = name_start(words)
    mark = ellipsis(size)
    best: tuple[bool, bool, bool, int, str] | None = None
    for head in range(len(words) - 1, 0, -1):
        for tail in range(0, len(words) - head):
            text = _cut(words, head, tail, mark)
            if not fits(text, size, width):
                continue
            same = any(o[:head] == words[:head] and (tail == 0 or o[-tail:] == words[-tail:]) for o in others)
            named = name >= len(words) or len(words) - tail <= name
            key = (named, not same, tail == 0, len(text), text)
            if best is None or key[:4] > best[:4]:
                best = key
    return best[4] if best is not None else _chars(words[0] if words else label, size, width)


def fit_title(title: str, size: int, width: int) -> str:
    """A title ("who: what") fitted to ``width``: whole, then without its fillers, then what is asked alone
    when it starts with a verb ("Blue: move the tornado 2" -> "move tornado 2"), else who it is for, else cut
    at words. The verb is what tells the table what to do; whose turn it is the options say again."""
    if fits(title, size, width):
        return title
    short = compact(title)
    if fits(short, size, width):
        return short
    who, sep, what = short.partition(": ")
    if sep and what and what.split()[0][:1].islower() and what.split()[0] not in ("your",):
        for asked in (what, _BRACKETS.sub("", what).strip()):  # the count in brackets goes before the verb
            if fits(asked, size, width):
                return asked
    if sep and fits(who, size, width):
        return who
    return fit_label(short, (), size, width)
