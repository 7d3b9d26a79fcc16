"""The OLED's type: Spleen, a pixel font drawn for small screens, shipped in the package (companion/fonts).

Each size is a bitmap drawn at its own pixel height, so Pillow renders it in mode "1" without scaling
artefacts: 6 and 8, 0 and 8, 1 and 7, 3 and 8, D and 0 stay distinct at every size the screens use
(tests/test_oled_glyphs.py renders each pair). Text that does not fit is shortened at whole words, never
cut mid-word, and among sibling labels the words that tell them apart are kept.
"""

from __future__ import annotations

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


@lru_cache(maxsize=8)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Spleen at one of its native sizes (SMALL, BODY, BIG); another size is a programming error."""
    if size not in SIZES:
        raise ValueError(f"no Spleen font of {size} px (sizes: {', '.join(map(str, SIZES))})")
    with as_file(files("companion.fonts") / SIZES[size]) as path:
        return ImageFont.truetype(str(path), size)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> int:
    """Width in pixels. Kept once measured: laying out a panel asks for a few dozen widths (every word
    wrap tries a line), nearly all asked before, and each FreeType measure costs tens of microseconds."""
    return round(font(size).getlength(text))


def fits(text: str, size: int, width: int) -> bool:
    return text_width(text, size) <= width


def _chars(text: str, size: int, width: int) -> str:
    """Last resort for one word wider than the screen: cut it with an ellipsis."""
    while text and not fits(text + ELLIPSIS, size, width):
        text = text[:-1]
    return text + ELLIPSIS


def fit_words(text: str, size: int, width: int) -> str:
    """``text`` if it fits, else its first whole words and an ellipsis."""
    if fits(text, size, width):
        return text
    words = text.split()
    for k in range(len(words) - 1, 0, -1):
        trial = " ".join(words[:k]).rstrip(",:;- ") + ELLIPSIS
        if fits(trial, size, width):
            return trial
    return _chars(words[0] if words else text, size, width)


def wrap(text: str, size: int, width: int, max_lines: int) -> list[str]:
    """Greedy word wrap into at most ``max_lines`` lines; what does not fit ends the last line with an
    ellipsis at a word boundary."""
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
    return [fit_words(line, size, width) for line in lines]


def _cut(words: Sequence[str], head: int, tail: int) -> str:
    if head + tail >= len(words):
        return " ".join(words)
    left = " ".join(words[:head]).rstrip(",:;- ")
    right = " ".join(words[len(words) - tail:]) if tail else ""
    return f"{left}{ELLIPSIS}{right}" if right else f"{left}{ELLIPSIS}"


def fit_label(label: str, siblings: Sequence[str], size: int, width: int) -> str:
    """``label`` shortened at whole words to fit ``width``, keeping the words that tell it apart from its
    ``siblings`` (two dams of the same road at different cities keep the city: "Aquatic: dam…at Mobile")."""
    if fits(label, size, width):
        return label
    words = label.split()
    others = [s.split() for s in siblings if s != label]
    best: tuple[bool, bool, int, str] | None = None
    for head in range(len(words) - 1, 0, -1):
        for tail in range(0, len(words) - head):
            text = _cut(words, head, tail)
            if not fits(text, size, width):
                continue
            same = any(o[:head] == words[:head] and (tail == 0 or o[-tail:] == words[-tail:]) for o in others)
            key = (not same, tail == 0, len(text), text)
            if best is None or key[:3] > best[:3]:
                best = key
    return best[3] if best is not None else _chars(words[0] if words else label, size, width)
