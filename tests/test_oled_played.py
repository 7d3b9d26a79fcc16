"""Whole played games through the OLED's kept drawing and its packed writes.

Every panel of a Kansas and a Stormfury game played to the end (rolls, partial rolls, refusals, undos,
menus, the final result), under every tower state, is drawn by ``render`` (masks kept between screens, the
screen as one integer) and by Pillow's ``draw.text`` run by run with nothing kept: the same bytes. The
images then go to luma's real ssd1306 driver on an I2C bus that records what it is sent, through the
Display and through the writer as it was before (Pillow's transpose, a column-by-column scan): the same
commands and data, block for block.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw
from test_oled_display import I2CBus, real_ssd1306

from companion.dice import DiceRolled, DiceSource, Die
from companion.inputs import Hold, Press, Roll
from companion.journal import Journal
from companion.session.core import Session
from companion.views import oled, oled_fonts
from companion.views.oled import layout, render
from companion.views.oled_fonts import font
from companion.views.panel import Panel
from hardware.oled import Display, controller_pages, panel_memory

TOWERS = ("connected", "rolling", "away", "waiting", "mismatch", "off")
SOURCES = ((), (("godice", "connected"),), (("godice", "connected"), ("pixels", "away")))


def _throw(rng: random.Random, kinds: tuple[str, ...]) -> tuple[Die, ...]:
    return tuple(Die(k, rng.randint(1, 8 if k == "d8" else 6)) for k in kinds)


def _play(session: Session, rng: random.Random) -> list[Panel]:
    """One game to its end the way a table plays it; every panel the OLED would have shown."""
    panels = [session.panel]

    def handle(event: object) -> None:
        session.handle(event)  # type: ignore[arg-type]
        panels.append(session.panel)

    for _ in range(4000):
        run = session.current
        assert run is not None
        prompt = run.prompt()
        if prompt.done:
            return panels
        r = rng.random()
        menu = session.panel.menu
        if menu is not None and menu.title.endswith("?"):
            handle(Press("OK"))
        elif kinds := session.wanted():
            if r < 0.03 and run.live:  # undo, asked and confirmed: the footer's "undone"
                handle(Hold("BACK"))
                handle(Press("OK"))
            elif r < 0.08:  # the wrong dice: a refusal on the footer
                handle(Roll.of(DiceRolled((Die("d6" if "d8" in kinds else "d8", 2),), "tower")))
            elif len(kinds) > 1 and r < 0.3:  # one die now, the rest later: the dice screen
                dice = _throw(rng, kinds)
                handle(Roll.of(DiceRolled(dice[:1], "tower")))
                if rest := session.wanted():
                    handle(Roll.of(DiceRolled(_throw(rng, rest), "tower")))
            else:
                handle(Roll.of(DiceRolled(_throw(rng, kinds), "tower")))
        elif prompt.shuffle:
            handle(Press("ROLL"))
        else:
            options = session.options()
            assert options, f"nothing to do at {prompt!r}"
            for _ in range(rng.randrange(3)):  # the cursor looked around first
                handle(Press(rng.choice(("UP", "DOWN", "LEFT", "RIGHT"))))
            for button in session.presses_to(rng.randrange(len(options))):  # on the board or down the list
                handle(Press(button))
    raise AssertionError("the game did not end")


@cache
def played(game: str, seed: int) -> tuple[Panel, ...]:
    """The panels of one whole game (kept for this module's tests: a game takes a second or two)."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp, Journal(Path(tmp) / "played.sqlite") as journal:
        session = Session(journal, dice=DiceSource(seed=seed))
        session.start(game, {"players": 4})
        return tuple(_play(session, random.Random(seed)))


def with_headers(panels: tuple[Panel, ...]) -> list[Panel]:
    """Each panel as played, and every few panels again under another tower state and dice sources."""
    out = list(panels)
    for n, panel in enumerate(panels[::7]):
        out.append(dataclasses.replace(panel, tower=TOWERS[n % len(TOWERS)], sources=SOURCES[n % len(SOURCES)]))
    return out


def drawn_fresh(panel: Panel) -> Image.Image:
    """The screen drawn by Pillow with nothing kept between screens: each run by ``draw.text``."""
    image = Image.new("1", (128, 64), 0)
    draw = ImageDraw.Draw(image)
    screen = layout(panel)
    for box in screen.boxes:
        draw.rectangle(box, outline=1)
    for tri in screen.triangles:
        draw.polygon(tri, fill=1)
    for dot in screen.dots:
        draw.ellipse(dot, fill=1)
    for t in screen.texts:
        if t.bar is not None:
            if t.outlined:
                draw.rectangle(t.bar, outline=1, fill=0)
            else:
                draw.rectangle(t.bar, fill=1)
        draw.text((t.x, t.y), t.text, font=font(t.size), fill=0 if t.inverted else 1)
    return image


def _clear_kept() -> None:
    for kept in (oled.text_tile, oled._text_effect, oled._glyph, oled._bar_effect, oled._shape_mask,
                 oled._header_parts, oled._footer_texts, oled._small_texts, oled_fonts.text_width,
                 oled_fonts._wrapped, oled_fonts.fit_words, oled_fonts._fit_label):
        kept.cache_clear()


@pytest.mark.parametrize(("game", "seed"), [("kansas", 5), ("stormfury", 6)])
def test_every_screen_of_a_played_game_is_the_same_bytes_as_drawn_afresh_by_pillow(game, seed):
    panels = with_headers(played(game, seed))
    kinds = {layout(p).kind for p in panels}
    assert len(panels) > 150 and {"request", "menu", "over"} <= kinds
    assert any(p.message for p in panels) and any(layout(p).dots for p in panels)
    _clear_kept()  # the first screens make their masks, later ones reuse them
    for n, panel in enumerate(panels):
        assert render(panel).tobytes() == drawn_fresh(panel).tobytes(), (n, layout(panel))
    for panel in panels[::5]:  # and drawn again from the kept masks
        assert render(panel).tobytes() == drawn_fresh(panel).tobytes()


def test_the_dice_screens_with_their_frames_and_reroll_marks_are_the_same_bytes():
    panels = [p for p in with_headers(played("kansas", 5)) if layout(p).kind == "dice"]
    assert panels
    rerolled = [dataclasses.replace(p, rerolled=(True,) * len(p.dice)) for p in panels]
    for panel in panels + rerolled:
        assert render(panel).tobytes() == drawn_fresh(panel).tobytes()
    assert any(layout(p).triangles for p in rerolled)


def test_every_kept_store_is_bounded():
    """No store of drawn runs, masks or layouts grows with the length of a game."""
    for kept in (oled.text_tile, oled._text_effect, oled._glyph, oled._bar_effect, oled._shape_mask,
                 oled._header_parts, oled._footer_texts, oled._small_texts, oled_fonts.text_width,
                 oled_fonts._wrapped, oled_fonts.fit_words, oled_fonts._fit_label, oled_fonts.monospaced):
        size = kept.cache_info().maxsize
        assert size is not None and size <= 4096, kept


def test_a_wrap_handed_out_is_the_callers_own():
    first = oled_fonts.wrap("Tornado 2 of 3: north-south D8 and more words", 12, 128, 3)
    first.append("changed")
    assert oled_fonts.wrap("Tornado 2 of 3: north-south D8 and more words", 12, 128, 3) == first[:-1]


# -- the rendered image is an image ------------------------------------------------------------------------

def screen_of(value: int) -> Image.Image:
    from companion.dice import Prompt

    return render(Panel(prompt=Prompt("roll", dice=("d8",)), dice=(Die("d8", value),)))


def test_a_rendered_screen_reads_as_any_image(tmp_path):
    image = screen_of(3)
    assert isinstance(image, Image.Image) and image.mode == "1" and image.size == (128, 64)
    assert image.getpixel((0, 0)) in (0, 255)
    assert image.tobytes() == screen_of(3).copy().tobytes()
    image.save(tmp_path / "screen.png")
    with Image.open(tmp_path / "screen.png") as saved:
        assert saved.convert("1").tobytes() == image.tobytes()
    assert pickle.loads(pickle.dumps(screen_of(3))).tobytes() == image.tobytes()
    assert screen_of(3).tobytes() != screen_of(8).tobytes()


def test_a_screen_drawn_on_after_rendering_is_packed_from_what_was_drawn():
    image = screen_of(3)
    ImageDraw.Draw(image).rectangle((0, 0, 127, 5), fill=1)
    assert panel_memory(image) == b"".join(controller_pages(image))
    bus = I2CBus()
    assert Display(device=real_ssd1306(bus)).show(image) is True
    reference = I2CBus()
    real_ssd1306(reference).display(image)
    assert bus.panel_memory() == reference.panel_memory()


# -- the writer's bytes ------------------------------------------------------------------------------------

def old_write(device, image: Image.Image, sent: list[bytes] | None) -> list[bytes]:
    """The Display's write as it was: Pillow's transposed pages, each changed page's columns found one by
    one from both ends."""
    pages = controller_pages(device.preprocess(image))
    const = device._const
    width = image.size[0]
    if sent is None:
        device.command(const.COLUMNADDR, 0, width - 1, const.PAGEADDR, 0, len(pages) - 1)
        device.data(list(b"".join(pages)))
        return pages
    for page, (now, before) in enumerate(zip(pages, sent, strict=True)):
        if now == before:
            continue
        first = next(x for x in range(width) if now[x] != before[x])
        last = next(x for x in range(width - 1, first - 1, -1) if now[x] != before[x])
        device.command(const.COLUMNADDR, first, last, const.PAGEADDR, page, page)
        device.data(list(now[first:last + 1]))
    return pages


@pytest.mark.parametrize("rotation", [0, 2])
@pytest.mark.parametrize(("game", "seed"), [("kansas", 5), ("stormfury", 6)])
def test_a_played_games_screens_reach_the_bus_as_the_writer_sent_them_before(game, seed, rotation):
    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306

    def device(bus: I2CBus):
        made = ssd1306(i2c(bus=bus, address=0x3C), rotate=rotation)
        made.persist = True
        return made

    images = [render(p) for p in with_headers(played(game, seed))]
    images[10::9] = [image.copy() for image in images[10::9]]  # some plain Pillow images among them
    bus, before = I2CBus(), I2CBus()
    display, old = Display(device=device(bus)), device(before)
    bus.writes.clear()
    before.writes.clear()
    sent = None
    for image in images:
        assert display.show(image) is True
        sent = old_write(old, image, sent)
    assert bus.writes == before.writes
    assert len(bus.writes) > 2 * len(images)  # a changed page is its own window
    reference = I2CBus()
    real_ssd1306(reference).display(images[-1].rotate(180) if rotation else images[-1])
    assert bus.panel_memory() == reference.panel_memory()


@settings(max_examples=60, deadline=None)
@given(size=st.sampled_from([(128, 64), (128, 32), (64, 32), (96, 16), (64, 48), (8, 8)]),
       shapes=st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.booleans()),
                       max_size=6))
def test_the_panel_memory_is_pillows_transposed_pages_for_any_image_and_size(size, shapes):
    width, height = size
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    for a, b, c, d, lit in shapes:
        x0, x1 = sorted((int(a * (width - 1)), int(c * (width - 1))))
        y0, y1 = sorted((int(b * (height - 1)), int(d * (height - 1))))
        draw.rectangle((x0, y0, x1, y1), fill=int(lit), outline=1)
    assert panel_memory(image) == b"".join(controller_pages(image))
