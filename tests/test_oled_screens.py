"""The OLED screens: pure Panel -> image, checked pixel by pixel where it matters."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import ImageChops

from companion.commands.screens import sample_panels, write_screens
from companion.dice import Die, Prompt
from companion.views.oled import HEADER_H, die_boxes, render, screen_kind
from companion.views.panel import TOWER_STATES, Menu, Panel

PROMPT = Prompt("Tornado 2 of 3: roll a D8", "Tornado 2/3: roll D8 north-south", dice=("d8",))


def region(image, box):
    return image.crop(box).tobytes()


def lit(image, box) -> int:
    hist = image.crop(box).convert("L").histogram()
    return sum(hist) - hist[0]


def test_screen_is_128x64_mode_1_and_pure():
    panel = Panel(game="Kansas", prompt=PROMPT, tower="connected")
    a, b = render(panel), render(panel)
    assert a.size == (128, 64) and a.mode == "1"
    assert ImageChops.difference(a, b).getbbox() is None


def test_prompt_uses_short_then_text():
    short = render(Panel(prompt=PROMPT))
    long_only = render(Panel(prompt=Prompt("Tornado 2 of 3: roll a D8", dice=("d8",))))
    assert region(short, (0, HEADER_H, 128, 64)) != region(long_only, (0, HEADER_H, 128, 64))
    assert lit(short, (0, HEADER_H + 1, 128, 64)) > 100


def test_big_digit_differs_between_3_and_8():
    boxes = die_boxes(1, 63)
    three = render(Panel(prompt=PROMPT, dice=(Die("d8", 3),)))
    eight = render(Panel(prompt=PROMPT, dice=(Die("d8", 8),)))
    assert screen_kind(Panel(dice=(Die("d8", 3),))) == "dice"
    assert region(three, boxes[0]) != region(eight, boxes[0])
    # big type: the digit lights many pixels, far more than a small label would
    assert lit(eight, boxes[0]) > 150


def test_reroll_mark_appears_only_on_the_rerolled_die():
    dice = (Die("d8", 7), Die("d6", 2))
    plain = render(Panel(prompt=PROMPT, dice=dice))
    marked = render(Panel(prompt=PROMPT, dice=dice, rerolled=(False, True)))
    left, right = die_boxes(2, 63)
    assert region(plain, left) == region(marked, left)
    assert region(plain, right) != region(marked, right)
    x1, y0 = right[2], right[1]
    assert marked.getpixel((x1 - 3, y0 + 1)) and not plain.getpixel((x1 - 3, y0 + 1))


def test_tower_status_corner_changes_with_state():
    corner = (80, 0, 128, HEADER_H)
    seen = {state: region(render(Panel(prompt=PROMPT, tower=state)), corner) for state in TOWER_STATES}
    assert len(set(seen.values())) == len(TOWER_STATES)
    assert lit(render(Panel(prompt=PROMPT, tower="off")), corner) < lit(
        render(Panel(prompt=PROMPT, tower="connected")), corner)


def test_message_line_is_drawn_inverted_at_the_bottom():
    quiet = render(Panel(prompt=PROMPT))
    loud = render(Panel(prompt=PROMPT, message="need D8, got D6=3"))
    assert lit(loud, (0, 52, 128, 64)) > lit(quiet, (0, 52, 128, 64)) + 300


def test_menu_highlights_the_selected_item():
    first = render(Panel(menu=Menu("Players", ("2", "3", "4"), 0)))
    second = render(Panel(menu=Menu("Players", ("2", "3", "4"), 1)))
    assert lit(first, (0, HEADER_H + 2, 128, HEADER_H + 14)) > 600
    assert lit(second, (0, HEADER_H + 18, 128, HEADER_H + 30)) > 600
    assert screen_kind(Panel(menu=Menu("x", ("a",)), prompt=PROMPT)) == "menu"


def test_result_lines_are_drawn():
    blank = render(Panel(tower="off"))
    result = render(Panel(result=("Start: Dodge City", "Path: NE N NE S", "Damage: 2")))
    assert screen_kind(Panel(result=("x",), dice=(Die("d8", 1),))) == "result"
    assert lit(result, (0, HEADER_H, 128, 64)) > lit(blank, (0, HEADER_H, 128, 64)) + 100


def test_long_text_never_raises():
    panel = Panel(game="G" * 80, prompt=Prompt("w " * 200, dice=("d8",)), message="m" * 300,
                  result=tuple("r" * 90 for _ in range(9)),
                  menu=None)
    assert render(panel).size == (128, 64)
    assert render(Panel(menu=Menu("t", tuple(f"item {i}" for i in range(30)), 29))).size == (128, 64)


def test_screens_command_writes_every_sample(tmp_path):
    written = write_screens(tmp_path, scale=2)
    assert {p.stem for p in written} == set(sample_panels())
    assert all(f"oled-tower-{s}" in sample_panels() for s in TOWER_STATES)
    from PIL import Image

    with Image.open(written[0]) as img:
        assert img.size == (256, 128)


def test_screens_cli_bad_scale_is_one_line_error(tmp_path, capsys):
    from companion.cli import main

    assert main(["screens", "--out", str(tmp_path), "--scale", "0"]) == 2
    assert "--scale" in capsys.readouterr().err


def test_committed_screens_match_the_code(tmp_path):
    from pathlib import Path

    from PIL import Image

    docs = Path(__file__).resolve().parent.parent / "docs" / "screens"
    for path in write_screens(tmp_path):
        with Image.open(path) as fresh, Image.open(docs / path.name) as committed:
            assert fresh.convert("1").tobytes() == committed.convert("1").tobytes(), (
                f"docs/screens/{path.name} is stale: run companion screens --out docs/screens")
    doc = (docs.parent / "oled.md").read_text()
    assert all(f"screens/{path.name}" in doc for path in write_screens(tmp_path))


# -- text drawn once and stamped: the same pixels as Pillow's draw.text -----------------------------------

def _drawn_with_draw_text(panel):
    """The screen as render drew it before text tiles: every run through ``ImageDraw.text``."""
    from test_oled_played import drawn_fresh

    return drawn_fresh(panel)


def test_every_sample_screen_is_the_same_pixels_as_text_drawn_by_draw_text():
    panels = sample_panels()
    assert len(panels) >= 20
    for name, panel in panels.items():
        for _ in range(2):  # the first draw makes the tiles, the second stamps them from the cache
            assert render(panel).tobytes() == _drawn_with_draw_text(panel).tobytes(), name


PRINTABLE = st.characters(min_codepoint=32, max_codepoint=0x24F, exclude_categories=("Cc", "Cs")) | st.sampled_from(
    ["…", "→", "·", "×", "–", "—", "°", "½", "fi", "ff", "\u0301", "\u0308", "\u05d0", "\u05d1", "\u0627", "\u2014",
     "\u200b", "\u4e2d", "\u00a0"])
"""Latin text as the screens have it, and what a run must not be composed from glyph by glyph for: combining
marks, right-to-left letters, a zero-width space, a character Spleen lacks, pairs a font could ligate."""


@settings(max_examples=300, deadline=None)
@given(text=st.lists(PRINTABLE, max_size=24).map("".join),
       size=st.sampled_from([12, 16, 32]), x=st.integers(-40, 140), y=st.integers(-40, 70), ink=st.sampled_from([0, 1]))
def test_a_stamped_tile_sets_exactly_the_pixels_draw_text_sets(text, size, x, y, ink):
    """Any run, anywhere (partly off the screen too), in either ink, over a half-lit background."""
    from PIL import Image, ImageDraw

    from companion.views.oled import text_tile
    from companion.views.oled_fonts import font

    background = Image.new("1", (128, 64), 0)
    ImageDraw.Draw(background).rectangle((0, 0, 63, 63), fill=1)
    expected, stamped = background.copy(), background.copy()
    ImageDraw.Draw(expected).text((x, y), text, font=font(size), fill=ink)
    left, top, tile = text_tile(text, size)
    if tile is not None:
        ImageDraw.Draw(stamped).bitmap((x + left, y + top), tile, fill=ink)
    assert stamped.tobytes() == expected.tobytes()
