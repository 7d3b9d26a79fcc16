"""``companion screens --out DIR``: a PNG of every OLED screen, so docs/screens stays true to the code."""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image

from companion.dice import DiceRolled, Die
from companion.errors import CompanionError
from companion.views.oled import render
from companion.views.panel import TOWER_STATES, Menu, Panel

SCALE = 4
"""Nearest-neighbour scale so the 128x64 pixels read in docs."""
MAX_SCALE = 16
"""2048x1024 pixels a screen: larger says nothing more and only fills memory (a scale of a million would)."""

def sample_panels() -> dict[str, Panel]:
    """One panel per screen (name -> panel), in the order docs/oled.md lists them.

    The words come from the Kansas engine itself (the rule text's path example, then the next tornado),
    and the menus carry the session's own labels, so the pictures show what the box really says.
    """
    from companion.games import load_game

    game = load_game("kansas")
    state = game.new_game({"players": 4, "turn": 2})
    for dice in ((("d8", 7),), (("d8", 3),), (("d6", 4), ("d6", 3)), (("d6", 1), ("d6", 2)), (("d6", 1), ("d6", 5)),
                 (("d6", 5), ("d6", 6))):
        state = game.apply(state, DiceRolled.of(*dice))
    title, status, ask_ns = game.title, game.status(state), game.prompt(state)
    result = game.recap(state)
    ask_we = game.prompt(game.apply(state, DiceRolled.of(("d8", 3))))
    moving = game.apply(game.apply(state, DiceRolled.of(("d8", 3))), DiceRolled.of(("d8", 5)))
    ask_path = game.prompt(moving)
    samples: dict[str, Panel] = {
        "prompt": Panel(game=title, status=status, prompt=ask_ns, tower="connected"),
        "dice-one": Panel(game=title, prompt=ask_we, dice=(Die("d8", 3),), tower="connected"),
        "dice-two": Panel(game=title, prompt=ask_path, dice=(Die("d6", 4), Die("d6", 3)), tower="connected"),
        "dice-rerolled": Panel(game=title, prompt=ask_path, dice=(Die("d6", 6), Die("d6", 2)),
                               rerolled=(False, True), tower="connected"),
        "result": Panel(game=title, status=status, tower="connected", result=result),
        "message": Panel(game=title, prompt=ask_ns, tower="connected", message="need D8, got D6=3"),
        "menu-game": Panel(tower="waiting", menu=Menu("Menu", ("New: Kansas", "New: Stormfury"), 0)),
        "menu-players": Panel(tower="connected", menu=Menu("Kansas: players", ("4", "5", "6"), 1)),
        "menu-resume": Panel(tower="off", menu=Menu("Menu", ("Continue", "New: Kansas", "New: Stormfury",
                                                             "Resume #12 kansas", "Undo last"), 3)),
        "menu-undo": Panel(game=title, tower="connected", menu=Menu("Undo last?", ("OK: yes", "BACK: no"), 0)),
    }
    for tower in TOWER_STATES:
        samples[f"tower-{tower}"] = Panel(game=title, prompt=ask_ns, tower=tower)
    return samples


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
    parser = subparsers.add_parser("screens", help="write a PNG of every OLED screen")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="directory for the PNGs")
    parser.add_argument("--scale", type=int, default=SCALE, help=f"pixel scale, 1..{MAX_SCALE} (default {SCALE})")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    if not 1 <= args.scale <= MAX_SCALE:
        raise CompanionError(f"--scale must be 1..{MAX_SCALE}, not {args.scale}")
    for path in write_screens(args.out, args.scale):
        print(path)
    return 0
