"""The OLED's type tells look-alike characters apart at every size the screens use, ships with the package,
and shortens text at whole words, keeping the words that tell sibling labels apart."""

from __future__ import annotations

from importlib.resources import files

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw

from companion.views.oled_fonts import (
    BIG,
    BODY,
    SIZES,
    SMALL,
    advance,
    fit_label,
    fit_words,
    fits,
    font,
    side_by_side,
    text_width,
    wrap,
)

PAIRS = [("6", "8"), ("0", "8"), ("1", "7"), ("3", "8"), ("D", "0")]


def glyph(char: str, size: int) -> Image.Image:
    image = Image.new("1", (size, size + 4), 0)
    ImageDraw.Draw(image).text((0, 0), char, font=font(size), fill=1)
    return image


@pytest.mark.parametrize("size", [SMALL, BODY, BIG])
@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_look_alike_pairs_differ_clearly(a, b, size):
    one, other = glyph(a, size), glyph(b, size)
    differ = ImageChops.logical_xor(one, other)
    pixels = sum(1 for y in range(differ.height) for x in range(differ.width) if differ.getpixel((x, y)))
    lit = min(sum(1 for y in range(g.height) for x in range(g.width) if g.getpixel((x, y))) for g in (one, other))
    assert pixels >= max(3, size // 4), f"{a} and {b} at {size} px differ in only {pixels} pixels"
    assert pixels >= lit * 0.1  # not a one-pixel nick: a whole stroke of the glyph


def test_the_fonts_ship_with_their_licence():
    folder = files("companion.fonts")
    for name in SIZES.values():
        assert (folder / name).is_file()
    licence = (folder / "LICENSE-spleen.txt").read_text()
    assert "BSD-2-clause" in licence and "Frederic Cambus" in licence
    assert font(SMALL).getlength("M") == 6 and font(BODY).getlength("M") == 8 and font(BIG).getlength("M") == 16


def test_text_is_shortened_at_whole_words():
    assert fit_words("Tornado 1 of 3", BODY, 128) == "Tornado 1 of 3"
    cut = fit_words("Aquatic: dam Corpus Christi - Houston", BODY, 128)
    assert cut.endswith("…") and fits(cut, BODY, 128)
    assert all(word in ["Aquatic:", "dam", "Corpus", "Christi", "-", "Houston"] for word in cut[:-1].split())
    assert wrap("Marker on 1 NE of Dodge City", SMALL, 128, 2) == ["Marker on 1 NE of", "Dodge City"]


def test_sibling_labels_keep_what_tells_them_apart():
    labels = ["Aquatic: dam Corpus Christi - Houston at Houston",
              "Aquatic: dam Corpus Christi - Houston at Corpus Christi"]
    cut = [fit_label(label, labels, SMALL, 124) for label in labels]
    assert cut[0] != cut[1] and all(fits(c, SMALL, 124) for c in cut)
    assert cut[0].endswith("Houston") and cut[1].endswith("Christi")
    assert fit_label("End turn", labels, SMALL, 124) == "End turn"


TEXT = st.characters(min_codepoint=32, max_codepoint=0x24F, exclude_categories=("Cc", "Cs")) | st.sampled_from(
    ["…", "→", "·", "×", "—", "°", "fi", "\u0301", "\u05d0", "\u0627", "\u200b", "\u4e2d", "\u00a0"])


@settings(max_examples=300, deadline=None)
@given(text=st.lists(TEXT, max_size=30).map("".join), size=st.sampled_from([SMALL, BODY, BIG]))
def test_a_counted_width_is_the_width_freetype_measures(text, size):
    """A run of Spleen's monospaced characters is counted (length x advance), anything else measured: either
    way the width FreeType's layout gives, which every wrap and fit of the screens rests on."""
    assert text_width(text, size) == round(font(size).getlength(text))
    if side_by_side(text, size):
        assert text_width(text, size) == len(text) * advance(size)
