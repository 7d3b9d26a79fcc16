"""``companion screens --out DIR``: a PNG of every OLED screen, so docs/screens stays true to the code."""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image

from companion.dice import Die, Prompt
from companion.errors import CompanionError
from companion.views.oled import render
from companion.views.panel import TOWER_STATES, Menu, Panel

SCALE = 4
"""Nearest-neighbour scale so the 128x64 pixels read in docs."""

_TORNADO = Prompt(text="Tornado 2 of 3: roll a D8 for the north-south track",
                  short="Tornado 2/3: roll D8 north-south", dice=("d8",))


def sample_panels() -> dict[str, Panel]:
    """One panel per screen (name -> panel), in the order docs/oled.md lists them."""
    game, status = "Kansas Tornadoes", "Turn 3 - tornado phase"
    samples: dict[str, Panel] = {
        "prompt": Panel(game=game, status=status, prompt=_TORNADO, tower="connected"),
        "dice-one": Panel(game=game, prompt=_TORNADO, dice=(Die("d8", 3),), tower="connected"),
        "dice-two": Panel(game=game, prompt=Prompt("Roll D8 and D6", "Roll D8 + D6", dice=("d8", "d6")),
                          dice=(Die("d8", 8), Die("d6", 5)), tower="connected"),
        "dice-rerolled": Panel(game=game, prompt=_TORNADO, dice=(Die("d8", 7), Die("d6", 2)),
                               rerolled=(False, True), tower="connected"),
        "result": Panel(game=game, status="Tornado 2/3", tower="connected",
                        result=("Start: Dodge City", "Path: NE N NE S", "Damage: 2 farms, 1 town")),
        "message": Panel(game=game, prompt=_TORNADO, tower="connected", message="need D8, got D6=3"),
        "menu-game": Panel(tower="waiting", menu=Menu("Choose game", ("Kansas Tornadoes", "Gulf Hurricanes",
                                                                      "Resume last"), 0)),
        "menu-players": Panel(game=game, tower="connected", menu=Menu("Players", ("2", "3", "4", "5"), 1)),
        "menu-resume": Panel(tower="off", menu=Menu("Resume?", ("Resume game 12", "New game"), 0)),
        "menu-undo": Panel(game=game, tower="connected", menu=Menu("Undo last roll?", ("No", "Yes, undo"), 0)),
    }
    for state in TOWER_STATES:
        samples[f"tower-{state}"] = Panel(game=game, prompt=_TORNADO, tower=state)
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
    parser.add_argument("--scale", type=int, default=SCALE, help=f"pixel scale (default {SCALE})")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    if args.scale < 1:
        raise CompanionError(f"--scale must be 1 or more, not {args.scale}")
    for path in write_screens(args.out, args.scale):
        print(path)
    return 0
