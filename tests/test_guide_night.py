"""A scripted night through the real session, Kansas then Stormfury, each to its end: at every step the
OLED's words name the request the engine makes, and nothing a player reads (OLED lines, the projector's
strip and side panel, option labels, messages) shows a coordinate or a code name."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from companion.dice import DiceRolled, DiceSource, Die
from companion.inputs import Hold, Press, Roll
from companion.journal import Journal
from companion.session.core import Session
from companion.views import projector
from companion.views.oled import oled_lines, render, screen_kind, split_request
from companion.views.projector import ProjectorRenderer

COORDINATE = re.compile(r"\b-?\d+,-?\d+\b")
CODE_NAME = re.compile(r"\b[a-z]+_[a-z_]+\b")


def bad_words(text: str) -> list[str]:
    return COORDINATE.findall(text) + CODE_NAME.findall(text)


@pytest.fixture
def drawn(monkeypatch) -> Iterator[list[str]]:
    """Every string the projector draws (its own text module, called through)."""
    seen: list[str] = []
    real = projector.text.draw

    def spy(surface, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(text)
        return real(surface, text, *args, **kwargs)

    monkeypatch.setattr(projector.text, "draw", spy)
    yield seen


def squash(lines: list[str]) -> str:
    return " ".join(" ".join(lines).split())


class Night:
    """Plays one game through ``Session.handle`` the way a table would, checking every screen."""

    def __init__(self, session: Session, drawn: list[str], seed: int) -> None:
        self.s = session
        self.drawn = drawn
        self.rng = random.Random(seed)
        self.renderer = ProjectorRenderer((960, 540))
        self.steps = 0
        self.kinds: set[str] = set()

    def check(self) -> None:
        s, panel = self.s, self.s.panel
        self.steps += 1
        render(panel)  # draws without error
        lines = oled_lines(panel)
        self.kinds.add(screen_kind(panel))
        self.drawn.clear()
        self.renderer.render(s.frame)
        shown = [*lines, panel.message, panel.status, *panel.last, *self.drawn,
                 *(o.label for o in s.options()), *(o.text for o in s.options())]
        for text in shown:
            assert not bad_words(text), f"{text!r} shows a coordinate or code name (step {self.steps})"
        run = s.current
        assert run is not None
        prompt = run.prompt()
        if panel.menu is not None and panel.menu.title.endswith("?"):
            return  # a confirmation the table asked for
        if prompt.done:
            assert screen_kind(panel) == "over" and lines[0] == prompt.short
            assert set(panel.last) <= set(lines) or squash(lines).startswith(prompt.short)
            return
        if prompt.actions:  # a decision: its words head the menu, its options are the menu
            assert panel.menu is not None and lines[0] == panel.menu.title == (prompt.short or prompt.text)
            assert panel.request == prompt.short
            return
        assert panel.request, f"no request on the panel at step {self.steps}"
        text = squash(lines)
        who, what = split_request(panel.request)
        if who:  # "Tornado 2 of 3: north-south D8": for whom on top, what in the body
            assert lines[0] == who, f"the OLED's top line is {lines[0]!r}, not {who!r}"
        if screen_kind(panel) != "dice":
            assert what in text, f"the OLED says {lines!r}, not the request {panel.request!r}"
        wanted = s.wanted()
        if wanted and not s.rerolling() and not prompt.shuffle:
            who = (prompt.short or prompt.text).split(":")[0]
            assert who in text  # for whom: "Tornado 2 of 3", the expert, ...

    def act(self) -> None:
        s = self.s
        run = s.current
        assert run is not None
        prompt = run.prompt()
        r = self.rng.random()
        if s.panel.menu is not None and s.panel.menu.title.endswith("?"):
            s.handle(Press("OK"))
        elif s.wanted() or prompt.shuffle:
            if r < 0.04 and run.live:
                s.handle(Hold("BACK"))  # undo, asked and confirmed
                self.check()
                s.handle(Press("OK"))
                self.check()
                assert s.panel.message == "undone" and (s.panel.request or s.panel.menu is not None)
                return
            if r < 0.08 and run.last_roll() is not None and not s.rerolling():
                s.handle(Hold("ROLL"))
                self.check()
                s.handle(Press("OK"))
                self.check()
                assert s.panel.request.startswith("Re-roll")
                return
            kinds = s.wanted()
            if kinds and r < 0.5:
                dice = DiceRolled(tuple(Die(k, self.rng.randint(1, 8 if k == "d8" else 6)) for k in kinds), "tower")
                if len(dice.dice) > 1 and r < 0.25:  # one die now, the rest later: the dice screen
                    s.handle(Roll.of(DiceRolled(dice.dice[:1], "tower")))
                    self.check()
                    if s.wanted():
                        assert screen_kind(s.panel) == "dice"
                    s.handle(Roll.of(DiceRolled(dice.dice[1:], "tower")))
                else:
                    s.handle(Roll.of(dice))
            elif prompt.shuffle and not s.wanted() and r < 0.7:  # deal the cards with the tower's dice
                deck = prompt.shuffle
                throws = 0
                while run.prompt().shuffle == deck and s.wanted() and throws < 200:
                    kinds = s.wanted()
                    s.handle(Roll.of(DiceRolled(tuple(Die(k, self.rng.randint(1, 8 if k == "d8" else 6))
                                                      for k in kinds), "tower")))
                    throws += 1
                    self.check()
                    if s.request.dealing is not None and s.request.dealing.placed:
                        assert s.panel.last[0].startswith(f"Card {s.request.dealing.placed}")
                        assert not s.panel.last[0].endswith("picked"), "the card picked is named"
            else:
                s.handle(Press("ROLL"))
        else:
            options = s.options()
            assert options, f"nothing to do at {prompt!r}"
            target = 0 if r < 0.45 else self.rng.randrange(len(options))
            for _ in range(target):
                s.handle(Press("DOWN"))
                self.check()
            s.handle(Press("OK"))
        self.check()

    def play(self, limit: int) -> None:
        self.check()
        while not self.s.current.prompt().done:  # type: ignore[union-attr]
            self.act()
            assert self.steps < limit, "the game did not end"


def test_a_night_kansas_then_stormfury_each_to_its_end(tmp_path, drawn):
    with Journal(tmp_path / "night.sqlite") as journal:
        session = Session(journal, dice=DiceSource(seed=3))
        session.start("kansas", {"players": 4})
        kansas = Night(session, drawn, seed=5)
        kansas.play(limit=3000)
        final = oled_lines(session.panel)
        assert final[0] == "Game over" and final[1:] == [f"P{p}: {k} kept, {2 * k} points" for p, k in
                                                 ((p, session.current.state.kept_by(p)) for p in range(1, 5))]
        assert kansas.steps > 150 and "Final score" in drawn  # the projector says it too

        session.start("stormfury", {"players": 4})
        storm = Night(session, drawn, seed=6)
        storm.play(limit=3000)
        final = oled_lines(session.panel)
        assert final[0] == "Game over" and any(line.startswith("Total damage") for line in final)
        assert storm.steps > 50 and any(t.startswith("Damage: ") for t in drawn)  # the projector's final chart
        assert any(t.startswith("Worst: ") or t == "No city was damaged" for t in drawn)
        assert {"request", "menu", "over", "dice"} <= kansas.kinds | storm.kinds
        assert [g.finished for g in journal.games()] == [True, True]
