"""``companion screens --out DIR``: a PNG of every OLED screen, taken from real sessions in play.

Each picture is the panel a :class:`~companion.session.core.Session` builds at a moment of a game played
through ``Session.handle`` (seeded dice, a journal in a temporary folder): the words are the engines' and
the session's own, never a hand-made panel, so docs/screens stays true to what the box shows.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from companion.dice import DiceRolled, DiceSource, Die
from companion.errors import CompanionError
from companion.inputs import Hold, InputEvent, Press, Roll, SourceStatus
from companion.journal import Journal
from companion.session.choices import ends
from companion.session.core import Session
from companion.views.oled import render
from companion.views.panel import TOWER_STATES, Panel

SCALE = 4
"""Nearest-neighbour scale so the 128x64 pixels read in docs."""
MAX_SCALE = 16
"""2048x1024 pixels a screen: larger says nothing more and only fills memory (a scale of a million would)."""
SEED = 11
"""The seed of the sessions' dice: the same pictures every time."""


def _throw(*pairs: tuple[str, int]) -> Roll:
    return Roll.of(DiceRolled(tuple(Die(k, v) for k, v in pairs), "tower"))


class _Table:
    """A session on a journal in a temporary folder, fed inputs; ``snap`` keeps the panel of the moment."""

    def __init__(self, folder: Path, name: str) -> None:
        self.journal = Journal(folder / f"{name}.sqlite")
        self.session = Session(self.journal, dice=DiceSource(seed=SEED), game_keys=("kansas", "stormfury"))
        self.session.handle(SourceStatus("tower", "connected"))

    def feed(self, *inputs: InputEvent) -> _Table:
        for item in inputs:
            self.session.handle(item)
        return self

    def until(self, done: Callable[[Session], bool], limit: int = 400) -> _Table:
        """Play on as a hurried table does (ROLL for dice and shuffles, the arrows to what ends the turn or phase
        and OK, OK to a confirmation) until ``done``."""
        for _ in range(limit):
            s = self.session
            if done(s):
                return self
            options = s.options()
            menu = s.panel.menu
            if s.menu_open or not options or menu is None:
                s.handle(Press("OK") if s.menu_open else Press("ROLL"))
            elif ends(options[menu.selected]) or not any(ends(o) for o in options):
                s.handle(Press("OK"))
            else:  # the way to it: on the board or down the list
                s.handle(Press(s.presses_to(next(i for i, o in enumerate(options) if ends(o)))[0]))
        raise CompanionError("a sample game did not reach the moment it pictures")

    @property
    def panel(self) -> Panel:
        return self.session.panel

    def close(self) -> None:
        self.journal.close()


def _kansas(folder: Path, shots: dict[str, Panel]) -> None:
    t = _Table(folder, "kansas")
    t.session.start("kansas", {"players": 4, "turn": 2})
    t.feed(_throw(("d8", 7)))
    shots["oled-request"] = t.panel  # the next die, the last result under it
    t.feed(_throw(("d8", 3)), _throw(("d6", 4), ("d6", 3)))
    shots["oled-request-move"] = t.panel
    t.feed(_throw(("d6", 5)))
    shots["oled-dice-arriving"] = t.panel  # one D6 in, one to come
    t.feed(_throw(("d6", 2)), Hold("ROLL"), Press("OK"), _throw(("d6", 6)))
    shots["oled-dice-rerolled"] = t.panel  # a re-roll under way: its dice framed
    t.feed(_throw(("d6", 1)), _throw(("d8", 3)))
    shots["oled-message"] = t.panel  # a die of the wrong kind, refused on the bottom line
    t.feed(Hold("BACK"))
    shots["oled-menu-undo"] = t.panel
    t.feed(Press("OK"))
    shots["oled-undone"] = t.panel  # what is asked again
    t.until(lambda s: bool(s.options()))
    t.feed(*(Press(b) for b in t.session.presses_to(1)[:-1]))  # the cursor on the second option
    shots["oled-menu-decision"] = t.panel  # the removal menu, the neighbourhood of the last tornado first
    t.close()
    t = _Table(folder, "kansas-end")
    t.session.start("kansas", {"players": 4, "turn": 8})
    t.feed(Press("OK"))
    shots["oled-over-kansas"] = t.panel
    t.close()


def _stormfury(folder: Path, shots: dict[str, Panel]) -> None:
    t = _Table(folder, "stormfury")
    t.session.start("stormfury", {"players": 2})
    shots["oled-menu-setup"] = t.panel
    for option in (1, 0):  # the first player on the second city listed, the next on the first
        t.feed(*(Press(b) for b in t.session.presses_to(option)))
    shots["oled-shuffle"] = t.panel
    t.feed(_throw(("d8", 2), ("d6", 5)))
    shots["oled-deal"] = t.panel  # the card picked is named, the next throw asked
    t.feed(Press("ROLL"))
    shots["oled-menu-turn"] = t.panel
    t.until(lambda s: bool((p := s.prompt()) and p.done), limit=2000)
    shots["oled-over-stormfury"] = t.panel
    t.close()


def _menus(folder: Path, shots: dict[str, Panel]) -> None:
    t = _Table(folder, "menus")
    t.session.start(resume=False)
    shots["oled-menu-game"] = t.panel
    t.feed(Press("OK"))
    shots["oled-menu-players"] = t.panel
    t.feed(Press("OK"))
    for state in TOWER_STATES:
        t.feed(SourceStatus("tower", state))
        shots[f"oled-tower-{state}"] = t.panel
    t.close()


def sample_panels() -> dict[str, Panel]:
    """One panel per screen (name -> panel), in the order docs/oled.md lists them, each from a session."""
    shots: dict[str, Panel] = {}
    with tempfile.TemporaryDirectory(prefix="companion-screens-") as tmp:
        folder = Path(tmp)
        _kansas(folder, shots)
        _stormfury(folder, shots)
        _menus(folder, shots)
    return shots


def write_screens(out: Path, scale: int = SCALE) -> list[Path]:
    """Render every sample panel to ``out/<name>.png``; returns the files written."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CompanionError(f"cannot create {out}: {exc.strerror or exc}") from None
    written = []
    for name, panel in sample_panels().items():
        image = render(panel).resize((128 * scale, 64 * scale), Image.Resampling.NEAREST)
        path = out / f"{name}.png"
        try:
            image.save(path)
        except OSError as exc:
            raise CompanionError(f"cannot write {path}: {exc.strerror or exc}") from None
        written.append(path)
    return written


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("screens", help="write a PNG of every OLED screen, from sessions in play")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="directory for the PNGs")
    parser.add_argument("--scale", type=int, default=SCALE, help=f"pixel scale, 1..{MAX_SCALE} (default {SCALE})")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    if not 1 <= args.scale <= MAX_SCALE:
        raise CompanionError(f"--scale must be 1..{MAX_SCALE}, not {args.scale}")
    for path in write_screens(args.out, args.scale):
        print(path)
    return 0
