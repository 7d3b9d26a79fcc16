"""The OLED screens: pure functions ``Panel -> PIL image`` (128x64, mode "1").

Every screen is drawn whole from the shared :class:`~companion.views.panel.Panel`, so a test
(or ``companion screens``) can pin down exactly what the table sees. The type is large on
purpose: the box sits at arm's length, so the body uses 16-40 px type and only the corner
status line is small. Fonts are Pillow's own scalable default font (Pillow >= 10.1): nothing
to ship, nothing to find on disk.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from companion.views.panel import Menu, Panel

WIDTH, HEIGHT = 128, 64
HEADER_H = 12
"""Top strip: prompt or game (left) and tower status (right)."""
FOOTER_H = 12
"""Bottom strip for the message line (a refusal or fault), drawn inverted."""

TOWER_WORDS = {
    "off": "",
    "waiting": "wait",
    "connected": "tower",
    "rolling": "roll",
    "away": "away",
    "mismatch": "vers?",
}
"""Short inline words for the tower state; 'off' shows nothing (no tower configured)."""


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in scalable font at ``size`` px, cached (loading costs ~1 ms)."""
    return ImageFont.load_default(size=size)


def text_width(text: str, size: int) -> int:
    return int(font(size).getlength(text))


def fit(text: str, size: int, width: int) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` px at ``size``."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def wrap(text: str, size: int, width: int, max_lines: int) -> list[str]:
    """Greedy word wrap into at most ``max_lines`` lines, the last one cut if it overflows."""
    words = text.split()
    lines: list[str] = []
    current = ""
    for i, word in enumerate(words):
        trial = f"{current} {word}".strip()
        if text_width(trial, size) <= width or not current:
            current = trial
            continue
        lines.append(current)
        current = word
        if len(lines) == max_lines - 1:
            current = " ".join(words[i:])
            break
    if current:
        lines.append(current)
    return [fit(line, size, width) for line in lines[:max_lines]]


def sources_word(sources: tuple[tuple[str, str], ...]) -> tuple[str, bool]:
    """One short tag for the dice sources beside the tower ("dice 2"; "dice?" when one is away or
    refused) and whether it is a warning. Empty when none has spoken."""
    live = [state for _name, state in sources if state != "off"]
    if not live:
        return "", False
    if any(state in ("away", "mismatch", "waiting") for state in live):
        return "dice?", True
    return f"dice {len(live)}", False


def _header(draw: ImageDraw.ImageDraw, left: str, tower: str, sources: tuple[tuple[str, str], ...] = ()) -> None:
    word = TOWER_WORDS.get(tower, tower)
    right_w = 0
    extra, warn = sources_word(sources)
    if extra:  # the other dice sources, in a tag left of the tower's
        w = text_width(extra, 10) + 7
        x0 = WIDTH - w
        if warn:
            draw.rectangle((x0, 0, WIDTH - 1, HEADER_H - 2), outline=1, fill=0)
            draw.text((x0 + 3, 0), extra, font=font(10), fill=1)
        else:
            draw.rectangle((x0, 0, WIDTH - 1, HEADER_H - 2), fill=1)
            draw.text((x0 + 3, 0), extra, font=font(10), fill=0)
        right_w = w + 2
    if word:
        # Tower status: an inverted tag in the top-right corner, never a pop-up.
        shift = right_w
        right_w += text_width(word, 10) + 7
        x0 = WIDTH - right_w
        if tower in ("away", "mismatch", "waiting"):
            draw.rectangle((x0, 0, WIDTH - 1 - shift, HEADER_H - 2), outline=1, fill=0)
            draw.text((x0 + 3, 0), word, font=font(10), fill=1)
        else:
            draw.rectangle((x0, 0, WIDTH - 1 - shift, HEADER_H - 2), fill=1)
            draw.text((x0 + 3, 0), word, font=font(10), fill=0)
            if tower == "rolling":
                draw.ellipse((x0 - 9, 2, x0 - 3, 8), fill=1)
                right_w += 12
    if left:
        draw.text((0, 0), fit(left, 10, WIDTH - right_w - 2), font=font(10), fill=1)


def _footer(draw: ImageDraw.ImageDraw, message: str) -> None:
    draw.rectangle((0, HEIGHT - FOOTER_H, WIDTH - 1, HEIGHT - 1), fill=1)
    draw.text((2, HEIGHT - FOOTER_H), fit(message, 11, WIDTH - 4), font=font(11), fill=0)


def _prompt_text(panel: Panel) -> str:
    if panel.prompt is None:
        return panel.status or panel.game or "ready"
    return panel.prompt.short or panel.prompt.text


def _body_bottom(panel: Panel) -> int:
    return HEIGHT - FOOTER_H - 1 if panel.message else HEIGHT - 1


def _draw_prompt(draw: ImageDraw.ImageDraw, panel: Panel) -> None:
    top, bottom = HEADER_H + 1, _body_bottom(panel)
    lines = wrap(_prompt_text(panel), 16, WIDTH, max_lines=(bottom - top) // 17)
    y = top
    for line in lines:
        draw.text((0, y), line, font=font(16), fill=1)
        y += 17


def die_boxes(count: int, bottom: int) -> list[tuple[int, int, int, int]]:
    """Where each die's cell sits: equal columns across the width, under the header."""
    count = max(1, min(count, 4))
    cell = WIDTH // count
    return [(i * cell, HEADER_H + 1, (i + 1) * cell - 1, bottom) for i in range(count)]


def _draw_dice(draw: ImageDraw.ImageDraw, panel: Panel) -> None:
    bottom = _body_bottom(panel)
    dice = panel.dice[:4]
    size = 40 if len(dice) <= 2 and not panel.message else 30
    for i, (die, box) in enumerate(zip(dice, die_boxes(len(dice), bottom), strict=False)):
        x0, y0, x1, y1 = box
        rerolled = i < len(panel.rerolled) and panel.rerolled[i]
        digit = str(die.value)
        w = text_width(digit, size)
        cx = (x0 + x1) // 2
        draw.text((cx - w // 2, y0 - size // 5), digit, font=font(size), fill=1)
        draw.text((x0 + 2, y1 - 11), die.kind.upper(), font=font(11), fill=1)
        if rerolled:
            # Re-roll mark: a filled corner triangle and a frame round the cell.
            draw.rectangle((x0 + 1, y0, x1 - 1, y1), outline=1)
            draw.polygon([(x1 - 12, y0), (x1 - 1, y0), (x1 - 1, y0 + 11)], fill=1)


def _draw_result(draw: ImageDraw.ImageDraw, panel: Panel) -> None:
    top, bottom = HEADER_H + 1, _body_bottom(panel)
    rows = max(1, (bottom - top) // 13)
    y = top
    for line in panel.result[:rows]:
        draw.text((0, y), fit(line, 12, WIDTH), font=font(12), fill=1)
        y += 13


def _draw_menu(draw: ImageDraw.ImageDraw, menu: Menu, bottom: int) -> None:
    top = HEADER_H + 1
    rows = max(1, (bottom - top) // 16)
    first = min(max(0, menu.selected - rows // 2), max(0, len(menu.items) - rows))
    y = top
    for index in range(first, min(len(menu.items), first + rows)):
        label = fit(menu.items[index], 14, WIDTH - 10)
        if index == menu.selected:
            draw.rectangle((0, y, WIDTH - 1, y + 15), fill=1)
            draw.text((4, y), label, font=font(14), fill=0)
        else:
            draw.text((4, y), label, font=font(14), fill=1)
        y += 16


def screen_kind(panel: Panel) -> str:
    """Which screen a panel shows: menu, dice, result or prompt (the first that applies)."""
    if panel.menu is not None:
        return "menu"
    if panel.dice and not panel.result:
        return "dice"
    if panel.result:
        return "result"
    return "prompt"


def render(panel: Panel) -> Image.Image:
    """The whole OLED screen for ``panel``: a new 128x64 mode "1" image, no side effects."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    kind = screen_kind(panel)
    if kind == "menu":
        assert panel.menu is not None
        _header(draw, panel.menu.title, panel.tower, panel.sources)
        _draw_menu(draw, panel.menu, _body_bottom(panel))
    elif kind == "dice":
        _header(draw, _prompt_text(panel), panel.tower, panel.sources)
        _draw_dice(draw, panel)
    elif kind == "result":
        _header(draw, panel.status or panel.game, panel.tower, panel.sources)
        _draw_result(draw, panel)
    else:
        _header(draw, panel.game if panel.prompt else "", panel.tower, panel.sources)
        _draw_prompt(draw, panel)
    if panel.message:
        _footer(draw, panel.message)
    return image
