"""Which smart dice a group paired with the box: a small TOML file in the service's state folder.

``companion dice pair`` (or the box's menu, as the service's own user) writes it; the adapter reads
it. It lives where the service may write (/var/lib/companion, the unit's ``StateDirectory=``, owned
by the service's user), is written whole or not at all (companion.atomicfile), readable by all
(0644), and owned by the folder's owner even when ``sudo companion dice pair`` wrote it. Each die has its family, its
Bluetooth address, the name it advertises, the kind the group declared (a GoDice does not know its
shell) and a colour, which names it at the table ("Blue D8") and in the journal ("godice:Blue D8").
A wrong file is one line naming file and field, like every other data file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from companion.atomicfile import write_atomic
from companion.datafile import Fields, load_toml
from companion.errors import CompanionError

FAMILIES = ("godice", "pixels")
KINDS = ("d6", "d8")
COLOURS = ("red", "blue", "green", "yellow", "orange", "purple", "white", "black")
"""Colours a die can be given: the words players see, so two dice of one kind stay apart."""
FIRMWARE = ("current", "legacy")
"""Pixels roll-state numbering (hardware.smartdice.pixels.ROLL_STATES); a GoDice ignores it."""


@dataclass(frozen=True)
class PairedDie:
    """One die the group paired: how to reach it and what it is at the table."""

    family: str
    address: str
    name: str
    kind: str
    colour: str
    firmware: str = "current"

    @property
    def label(self) -> str:
        """What players see: "Blue D8"."""
        return f"{self.colour.capitalize()} {self.kind.upper()}"

    @property
    def source(self) -> str:
        """The roll's source in the journal: "godice:Blue D8"."""
        return f"{self.family}:{self.label}"


def _die(f: Fields) -> PairedDie:
    family = f.choice("family", FAMILIES)
    address = f.get("address", str)
    if not address:
        raise f.error("expected a Bluetooth address, got ''", "address")
    die = PairedDie(family=family, address=address.upper(), name=f.get("name", str, ""),
                    kind=f.choice("kind", KINDS), colour=f.choice("colour", COLOURS),
                    firmware=f.choice("firmware", FIRMWARE, "current"))
    f.reject_unknown()
    return die


def check(dice: list[PairedDie] | tuple[PairedDie, ...], where: Fields | None = None) -> None:
    """Refuse a die paired twice, or two dice players could not tell apart (same colour and kind)."""
    seen: dict[str, int] = {}
    labels: dict[str, int] = {}
    for i, die in enumerate(dice):
        for key, table, what in ((die.address, seen, "address"), (die.label, labels, "colour and kind")):
            if key in table:
                message = f"die[{i}]: same {what} as die[{table[key]}] ({key})"
                raise where.error(message) if where is not None else CompanionError(message)
            table[key] = i


def load_pairing(path: str | Path) -> tuple[PairedDie, ...]:
    """The paired dice in ``path``; none when the file does not exist yet."""
    path = Path(path)
    if not path.exists():
        return ()
    root = load_toml(path)
    dice = [_die(t) for t in root.tables("die", default=[])]
    root.reject_unknown()
    check(dice, root)
    return tuple(dice)


def _value(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_toml(dice: tuple[PairedDie, ...] | list[PairedDie]) -> str:
    """The file's text for ``dice`` (read back by :func:`load_pairing` to the same dice)."""
    lines = ["# Smart dice paired with this box; written by `companion dice pair`.", ""]
    for die in dice:
        lines += ["[[die]]", f"family = {_value(die.family)}", f"address = {_value(die.address)}",
                  f"name = {_value(die.name)}", f"kind = {_value(die.kind)}", f"colour = {_value(die.colour)}"]
        if die.family == "pixels":
            lines.append(f"firmware = {_value(die.firmware)}")
        lines.append("")
    return "\n".join(lines)


def save_pairing(path: str | Path, dice: tuple[PairedDie, ...] | list[PairedDie]) -> None:
    """Write ``dice`` to ``path`` whole or not at all, readable by the service whoever writes it."""
    check(dice)
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, to_toml(dice), mode=0o644)
        _owned_like_folder(path)
    except OSError as exc:
        raise CompanionError(f"{path}: cannot save the paired dice: {exc.strerror or exc}") from None


def _owned_like_folder(path: Path) -> None:
    """Root (``sudo companion dice pair``) hands the new file to the folder's owner, the service's user,
    so the box can replace it from its menu later as it could before."""
    if os.geteuid() != 0:
        return
    folder = path.parent.stat()
    if folder.st_uid != 0 or folder.st_gid != 0:
        os.chown(path, folder.st_uid, folder.st_gid)
