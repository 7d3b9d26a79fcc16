"""A taught dice set: per kind and face, the glyphs the box saw when the table showed it that face.

Kept in the box's state folder, one pair of files per set: ``NAME.npz`` holds the glyphs as plain arrays and
``NAME.json`` says which face each array is (numpy's npz read with ``allow_pickle=False`` and JSON: data, never
code, so a set copied from another box cannot run anything). Both are written with ``write_atomic``, the json
last: a set is whole once its json names only arrays the npz has.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.atomicfile import write_atomic
from companion.errors import DataError

DEFAULT_FOLDER = Path("/var/lib/companion/dice-sets")
KINDS = {"d6": 6, "d8": 8}
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _-]{0,39}$")


@dataclass
class TaughtSet:
    """The glyphs taught for one dice set: ``glyphs[kind][face]`` is a list of ``GLYPH`` square float32 arrays."""

    name: str = "default"
    glyphs: dict[str, dict[int, list[np.ndarray]]] = field(default_factory=dict)

    def templates(self, kind: str) -> dict[int, list[np.ndarray]]:
        return self.glyphs.get(kind, {})

    def add(self, kind: str, face: int, glyph: np.ndarray) -> None:
        if kind not in KINDS or not 1 <= face <= KINDS[kind]:
            raise ValueError(f"a {kind} has no face {face}")
        self.glyphs.setdefault(kind, {}).setdefault(face, []).append(np.asarray(glyph, np.float32))

    def missing(self, kind: str) -> list[int]:
        """Faces of ``kind`` not taught yet (what the teaching screen still asks for)."""
        return [f for f in range(1, KINDS[kind] + 1) if f not in self.templates(kind)]


def check_name(name: str) -> str:
    if not _NAME.match(name):
        raise DataError(f"dice set name {name!r}: letters, digits, space, _ or -, at most 40")
    return name


def _paths(folder: Path, name: str) -> tuple[Path, Path]:
    stem = check_name(name).replace(" ", "_")
    return folder / f"{stem}.npz", folder / f"{stem}.json"


def save(taught: TaughtSet, folder: Path = DEFAULT_FOLDER) -> Path:
    """Write the set (whole or not at all) and return its json's path."""
    folder.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, np.ndarray] = {}
    index: list[dict[str, object]] = []
    for kind, faces in sorted(taught.glyphs.items()):
        for face, glyphs in sorted(faces.items()):
            for n, g in enumerate(glyphs):
                key = f"{kind}_{face}_{n}"
                arrays[key] = g
                index.append({"kind": kind, "face": face, "array": key})
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    npz, meta = _paths(folder, taught.name)
    write_atomic(npz, buffer.getvalue())
    write_atomic(meta, json.dumps({"name": taught.name, "glyphs": index}, indent=1) + "\n")
    return meta


def load(name: str, folder: Path = DEFAULT_FOLDER) -> TaughtSet:
    """The set called ``name``; an empty set when none was taught; DataError naming the file when damaged."""
    npz, meta = _paths(folder, name)
    if not meta.exists():
        return TaughtSet(name)
    try:
        index = json.loads(meta.read_text(encoding="utf-8"))["glyphs"]
        taught = TaughtSet(name)
        with np.load(npz, allow_pickle=False) as arrays:
            for entry in index:
                taught.add(str(entry["kind"]), int(entry["face"]), arrays[str(entry["array"])])
    except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile) as exc:
        raise DataError(f"{meta}: not a taught dice set ({exc})") from None
    return taught
