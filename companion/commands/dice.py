"""``companion dice scan | pair | list``: smart dice over Bluetooth LE (GoDice, Pixels).

``scan`` lists the dice in range by name and battery; ``pair`` scans and lets the group say what
each die is (D6 or D8) and its colour, then saves that to the pairing file named in ``[dice]``;
``list`` prints the pairing file. Without Bluetooth (no adapter, no BlueZ, no D-Bus) or without
bleak installed, each says so in one line and exits 2.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from companion.config import load_config
from companion.errors import CompanionError

INSTALL_HINT = "bleak is not installed (pip install 'storm-companion[ble]')"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("dice", help="smart dice over Bluetooth: scan, pair, list")
    sub = parser.add_subparsers(dest="dice_command", metavar="ACTION", required=True)
    scan = sub.add_parser("scan", help="list the GoDice and Pixels dice in range, by name and battery")
    scan.add_argument("--seconds", type=float, default=5.0, help="how long to listen (default 5)")
    scan.add_argument("--json", action="store_true", help="one JSON object per die")
    scan.set_defaults(func=scan_main)
    pair = sub.add_parser("pair", help="scan, then say which die is which (kind and colour) and save it")
    pair.add_argument("--seconds", type=float, default=5.0, help="how long to listen (default 5)")
    pair.add_argument("--config", type=Path, default=None, metavar="FILE",
                      help="configuration file whose [dice] pairing names the file to write")
    pair.set_defaults(func=pair_main)
    show = sub.add_parser("list", help="print the paired dice")
    show.add_argument("--config", type=Path, default=None, metavar="FILE", help="configuration file (TOML)")
    show.set_defaults(func=list_main)
    from hardware.camera.command import add_arguments as camera_arguments  # read, teach: plain dice, by camera

    camera_arguments(sub)


def found_dice(seconds: float, **backends: Any) -> list[Any]:
    """Scan, turning a missing bleak or a machine without Bluetooth into one line."""
    if seconds <= 0:
        raise CompanionError(f"--seconds must be more than 0, got {seconds:g}")
    try:
        from bleak.exc import BleakError

        from hardware.smartdice.pairing import scan
    except ImportError:
        raise CompanionError(INSTALL_HINT) from None
    try:
        return asyncio.run(scan(seconds, **backends))
    except (BleakError, OSError, EOFError) as exc:
        why = " ".join(str(a) for a in exc.args if a) or type(exc).__name__
        raise CompanionError(f"no Bluetooth on this machine ({why.splitlines()[0]})") from None


def print_found(found: list[Any], as_json: bool, out: IO[str]) -> None:
    from hardware.smartdice.reading import battery_detail

    for f in found:
        if as_json:
            out.write(json.dumps({"family": f.family, "name": f.name, "address": f.address, "battery": f.battery,
                                  "type": f.die_type or None}) + "\n")
        else:
            facts = [f.family, f.address]
            if f.die_type:
                facts.append(f.die_type.upper())
            facts.append(battery_detail(f.battery) or "battery unknown")
            out.write(f"{f.name}  ({', '.join(facts)})\n")
    if not found and not as_json:
        out.write("no dice found: wake them (a GoDice by a shake, a Pixels die by a roll) and scan again\n")


def scan_main(args: argparse.Namespace) -> int:
    print_found(found_dice(args.seconds), args.json, sys.stdout)
    return 0


def interactive(model: Any, ask: Callable[[str], str], say: Callable[[str], None]) -> bool:
    """Step a PairingModel with typed numbers ('b' goes back, an empty line or end of input leaves).
    True when the group chose to save."""
    while True:
        say("")
        say(model.title())
        for number, option in enumerate(model.options(), 1):
            say(f"  {number}. {option}")
        if model.message:
            say(model.message)
        try:
            answer = ask("> ").strip().lower()
        except EOFError:
            return False
        if answer in ("b", "back"):
            if not model.back():
                return False
            continue
        if not answer:
            return False
        if not answer.isdigit() or not 1 <= int(answer) <= len(model.options()):
            model.message = f"type a number 1-{len(model.options())}, or b to go back"
            continue
        done = model.pick(int(answer) - 1)
        if done != "stay":
            return done == "save"


def pair_main(args: argparse.Namespace, **backends: Any) -> int:
    from hardware.smartdice.pairing import PairingModel, finish_pairing
    from hardware.smartdice.store import load_pairing

    section = load_config(args.config).dice
    paired = load_pairing(section.pairing)
    model = PairingModel(found_dice(args.seconds, **backends), paired)
    if interactive(model, input, print):
        print(finish_pairing(section, model) + f", saved in {section.pairing}")
        if not section.enabled:
            print("[dice] enabled is false: set it to true in the configuration to play with them")
    else:
        print("nothing saved")
    return 0


def list_main(args: argparse.Namespace) -> int:
    from hardware.smartdice.store import load_pairing

    section = load_config(args.config).dice
    dice = load_pairing(section.pairing)
    for die in dice:
        print(f"{die.label}: {die.family} {die.name or '(no name)'} at {die.address}")
    if not dice:
        print(f"no die paired ({section.pairing}): companion dice pair")
    return 0
