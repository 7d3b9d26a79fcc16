#!/usr/bin/env python3
"""Set one base device-tree parameter in a Raspberry Pi config.txt, where the firmware applies it to every board.

    python3 systemd/bootconfig.py [--dry-run] CONFIG_TXT NAME=VALUE      (install.sh: i2c_arm_baudrate=400000)

Why not append a line: config.txt is read top to bottom with two kinds of scope. A section header (``[pi4]``,
``[cm5]``, ``[HDMI:0]``...) makes the lines after it apply to that board only, until ``[all]``; a line appended to a
file that ends inside ``[pi4]`` is lost on a Pi 5. And a ``dtparam=`` after a ``dtoverlay=NAME`` is a parameter of
that overlay, not of the base tree, until a bare ``dtoverlay=``; Raspberry Pi OS has ``dtoverlay=vc4-kms-v3d`` in its
unconditional part, so an appended I2C speed would go to the display overlay. So the parameter goes in the base
scope: after the base line that turns I2C on, else before the first overlay or section header; a base line that
already sets it (alone, or combined as ``dtparam=i2c_arm=on,i2c_arm_baudrate=100000``) is left as it is. The file
is rewritten whole (temporary file, fsync, rename) after a copy of the original is kept beside it, and one line
says what changed.

Standard library only: install.sh runs it with the system's python3 before the box's own environment exists.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

BACKUP_SUFFIX = ".before-companion"
"""The copy of config.txt kept before the first change (an existing copy, the oldest original, is never replaced)."""

I2C_ON = ("i2c_arm", "i2c")
"""The base parameters that turn the ARM I2C bus on (``i2c`` is the firmware's alias of ``i2c_arm``)."""
ALIASES = {"i2c_arm_baudrate": ("i2c_baudrate",)}
"""Other names the firmware takes for a base parameter (boot/overlays/README): the owner's speed set under either
name is theirs."""


@dataclass(frozen=True)
class Line:
    """One line of config.txt and the scope it is read in."""

    number: int
    text: str
    base: bool
    """Read for every board (no section filter in force) and for the base tree (no overlay open)."""


def scan(lines: list[str]) -> list[Line]:
    """Each line with its scope: a section header other than ``[all]`` starts a filtered part, ``[all]`` ends it;
    ``dtoverlay=NAME`` opens an overlay's parameters, a bare ``dtoverlay=`` closes them."""
    out = []
    filtered = overlay = False
    for number, text in enumerate(lines):
        stripped = text.strip()
        if stripped.startswith("["):
            filtered = stripped.lower() != "[all]"
        elif stripped.startswith("dtoverlay="):
            overlay = bool(stripped.partition("=")[2].split(",")[0].split(":")[0].strip())
        out.append(Line(number, text, base=not filtered and not overlay))
    return out


def params(text: str) -> list[tuple[str, str]]:
    """The ``name=value`` pairs of a ``dtparam=`` line (``dtparam=a=on,b=1`` gives a/on and b/1)."""
    body = text.strip().partition("=")[2]
    pairs = []
    for item in body.split(","):
        name, _, value = item.partition("=")
        pairs.append((name.strip(), value.strip()))
    return pairs


def is_dtparam(text: str) -> bool:
    return text.strip().startswith("dtparam=")


def set_base_dtparam(text: str, name: str, value: str) -> tuple[str, str]:
    """``text`` with base parameter ``name`` set to ``value``, and a sentence saying what changed. "" when the file
    already sets ``name`` for every board, to whatever value: a speed someone chose (on a line of its own or
    combined, ``dtparam=i2c_arm=on,i2c_arm_baudrate=100000``) is theirs."""
    ending = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines()
    scoped = scan(lines)
    wanted = f"{name}={value}"
    names = (name, *ALIASES.get(name, ()))
    for line in scoped:
        if line.base and is_dtparam(line.text) and any(n in names for n, _ in params(line.text)):
            return text, ""  # the owner's setting, in either form (alone or among others on one line), stays
    new = f"dtparam={wanted}"
    after = next((line for line in scoped if line.base and is_dtparam(line.text)
                  and any(n in I2C_ON for n, _ in params(line.text))), None)
    if after is not None:
        lines.insert(after.number + 1, new)
        return _joined(lines, ending, text), \
            f"line {after.number + 2}: added {new} after {after.text.strip()}"
    first = next((line for line in scoped if line.text.strip().startswith(("[", "dtoverlay="))), None)
    at = first.number if first is not None else len(lines)
    lines.insert(at, new)
    where = f"before {first.text.strip()}" if first is not None else "at the end"
    return _joined(lines, ending, text), f"line {at + 1}: added {new} {where}"


def _joined(lines: list[str], ending: str, original: str) -> str:
    return ending.join(lines) + (ending if original.endswith(("\n", "\r")) or not original else "")


def edit_file(path: Path, name: str, value: str, *, dry_run: bool = False) -> str:
    """Set the parameter in the file at ``path``; the one line to print (what changed, and where the original is).
    ``dry_run`` says what would change and writes nothing."""
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as source:  # line endings as they are
        text = source.read()
    new, change = set_base_dtparam(text, name, value)
    if not change:
        return f"{path}: {name} already set for every board; unchanged"
    if dry_run:
        return f"{path}: would change {change}"
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    if not backup.exists():
        shutil.copy2(path, backup)
    temporary = path.with_name(path.name + ".companion-new")
    with open(temporary, "w", encoding="utf-8", errors="surrogateescape", newline="") as out:
        out.write(new)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
    return f"{path}: {change} (the original is {backup.name}; takes effect after a reboot)"


def main(argv: list[str]) -> int:
    dry_run = "--dry-run" in argv
    argv = [a for a in argv if a != "--dry-run"]
    if len(argv) != 2 or "=" not in argv[1]:
        print("usage: bootconfig.py [--dry-run] CONFIG_TXT NAME=VALUE", file=sys.stderr)
        return 2
    name, _, value = argv[1].partition("=")
    path = Path(argv[0])
    try:
        print(edit_file(path, name, value, dry_run=dry_run))
    except OSError as exc:
        print(f"{path}: cannot edit ({exc.strerror or exc})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
