"""The OLED's words, from five played games: every option and title of every decision the games asked is
rendered (each option as the selected one, its neighbours round it), and no label loses its verb or the place
it names, and every character drawn is one the font has (a missing one is drawn as a box)."""

from __future__ import annotations

import dataclasses
import random
import re
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from companion.dice import DiceRolled, DiceSource, Die
from companion.journal import Journal
from companion.session import Press, Roll, Session
from companion.views.oled import layout, shown_items
from companion.views.oled_fonts import BODY, FILLERS, SMALL, has_glyph
from companion.views.panel import Menu, Panel

GAMES = {
    "kansas": {"players": 4},
    "stormfury": {"players": 4},
    "carcassonne": {"players": 3},
    "industry": {"players": 3, "map": "Japan"},
    "allegheny": {"players": 4},
}


def _names(value: Any, depth: int = 0, out: set[str] | None = None) -> set[str]:
    """Every ``name`` the engine's data gives a place, a city, a road, a location (a walk of its dataclasses)."""
    out = set() if out is None else out
    if depth > 4:
        return out
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if f.name == "name" and isinstance(item, str) and item[:1].isupper():
                out.add(item)
            else:
                _names(item, depth + 1, out)
    elif isinstance(value, dict):
        for item in value.values():
            _names(item, depth + 1, out)
    elif isinstance(value, list | tuple):
        for item in value[:400]:
            _names(item, depth + 1, out)
    return out


@cache
def played(game: str) -> tuple[tuple[Panel, ...], frozenset[str]]:
    """The panels of one game played with the buttons (up to 600 inputs), and its place names."""
    rng = random.Random(3)
    panels = []
    with tempfile.TemporaryDirectory() as tmp, Journal(Path(tmp) / "w.sqlite") as journal:
        s = Session(journal, dice=DiceSource(seed=3))
        s.start(game, GAMES[game])
        assert s.current is not None, s.message
        engine = s.current.game
        names = _names(getattr(engine, "board", None)) | _names(getattr(engine, "boards", None)) | \
            _names(getattr(engine, "data", None))
        for _ in range(600):
            if s.current is None or s.current.prompt().done:
                break
            panels.append(s.panel)
            if s.menu_open:
                s.handle(Press("OK"))
            elif kinds := s.wanted():
                s.handle(Roll.of(DiceRolled(tuple(Die(k, rng.randint(1, 8 if k == "d8" else 6)) for k in kinds),
                                            "tower")))
            elif s.current.prompt().shuffle:
                s.handle(Press("ROLL"))
            else:
                for _ in range(rng.randrange(max(1, min(len(s.options()), 8)))):
                    s.handle(Press("DOWN"))
                s.handle(Press("OK"))
    return tuple(panels), frozenset(n for n in names if len(n) > 2)


def verb(label: str) -> str | None:
    """The label's verb: its first lowercase word that is not a filler ("go", "dam", "bid", "delivers")."""
    return next((w for w in label.split() if re.fullmatch(r"[a-z][a-z-]+", w) and w not in FILLERS
                 and w not in ("your", "to", "at", "in", "from", "on")), None)


def places(label: str, names: frozenset[str]) -> list[str]:
    """The place names the label says, longest first, none inside another found."""
    found: list[str] = []
    for name in sorted(names, key=len, reverse=True):
        if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", label) and not any(name in f for f in found):
            found.append(name)
    return found


def said(texts: list[str]) -> str:
    return " ".join(texts)


@pytest.mark.parametrize("game", list(GAMES))
def test_no_option_or_title_loses_its_verb_or_place_and_every_glyph_is_in_the_font(game):
    panels, names = played(game)
    for panel in panels:  # every screen of the game: requests, results, footers
        for t in layout(panel).texts:
            assert all(has_glyph(ch, t.size) for ch in t.text), (game, t.text)
    menus = {(p.menu.title, p.menu.items): p for p in panels if p.menu is not None}
    assert menus, "the game asked nothing"
    lost: list[str] = []
    for (title, items), panel in menus.items():
        for index in range(len(items)):
            shown = dataclasses.replace(panel, menu=Menu(title, items, index), message="")
            screen = layout(shown)
            for t in screen.texts:
                missing = [ch for ch in t.text if not has_glyph(ch, t.size)]
                assert not missing, (game, t.text, missing)
            body = [t.text for t in screen.texts if t.size == BODY]
            header = [t.text for t in screen.texts if t.size == SMALL and t.y == 0 and t.x == 0]
            label = shown_items(shown.menu)[index]
            text = said(body)
            for word in filter(None, [verb(label)]):
                if word not in text:
                    lost.append(f"{label!r} -> {text!r} (verb {word})")
            for place in places(label, names):
                if place not in text:
                    lost.append(f"{label!r} -> {text!r} (place {place})")
            title_verb = verb(title.partition(": ")[2] or title)
            if title_verb and header and title_verb not in header[0] and not title.endswith("your turn"):
                lost.append(f"title {title!r} -> {header[0]!r} (verb {title_verb})")
    assert not lost, "\n".join(sorted(set(lost))[:40])
