"""Engines kept on disk between starts, beside the journal, so a resume does not parse its map files again.

Loading an engine reads its TOML map files with tomllib (pure Python) and cross-checks them: a large part of
the time a resume of a long game may take, more so on a Pi. The engine built from them is a small immutable object
(Kansas: about 6 KB pickled, read back far faster than the files are parsed), so the box keeps it in a folder
next to its journal and reads it at the next start.
It is kept in the journal's data codec (:mod:`companion.journal.codec`), never pickled: the folder travels with
the journal, and reading an entry builds only classes of the game's own code, running nothing the file names.

It is never trusted over the files it was built from: each entry names the :func:`package_version` it was built
under, a SHA-256 over the game's rules code (:mod:`companion.journal.version`: what can change the engine) and
every byte of the game's map files in force (the same tag that guards the journal's snapshots), and a checksum of
its payload. Another tag (a map
file corrected by the group, new code), a damaged or unreadable file, a payload that does not read or is
not an engine for that key: the engine is loaded from its files, as without a cache, and the entry rewritten.
Writing is best effort (a cache): a folder that refuses writes costs the next start a load from the files,
nothing more. (Entries an older box pickled, ``<key>.pickle``, are never read.)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.atomicfile import write_atomic
from companion.journal import codec
from companion.journal.version import package_version
from companion.sha256 import sha256

log = logging.getLogger(__name__)

MAGIC = b"storm-companion engine 2\n"
SUFFIX = ".engine.json"


def cache_folder(journal_path: Path) -> Path:
    """Where the engines of the box using ``journal_path`` are kept: ``<journal>.engines/`` beside it."""
    return journal_path.with_name(journal_path.name + ".engines")


def load_engine(key: str, maps: Path | None, folder: Path, loader: Callable[[str, Path | None], Any]) -> Any:
    """The engine ``loader(key, maps)`` gives, read from ``folder`` when an entry there was built from the same
    code and map files (see the module's docstring), else loaded and stored there for the next start."""
    tag = _tag(key, maps)
    if tag is None:
        return loader(key, maps)
    types = codec.package_types(key)
    if types is None:
        return loader(key, maps)
    path = folder / f"{key}{SUFFIX}"
    engine = _read(path, tag, key, types)
    if engine is not None:
        return engine
    engine = loader(key, maps)
    _write(folder, path, tag, engine, types)
    return engine


def _tag(key: str, maps: Path | None) -> str | None:
    """The engine's version, and which folder it reads (a loader given ``maps`` reads only that one)."""
    version = package_version(key, maps)
    if version is None:
        return None
    where = str(maps.resolve()) if maps is not None else "(in force)"
    return sha256(f"{version}\n{where}".encode()).hexdigest()


def _read(path: Path, tag: str, key: str, types: codec.Types) -> Any:
    try:
        data = path.read_bytes()
    except OSError:
        return None  # not stored yet (or unreadable): loaded from the files
    head, _, rest = data.partition(b"\n\n")
    lines = head.split(b"\n")
    if len(lines) != 3 or lines[0] + b"\n" != MAGIC or lines[1] != tag.encode():
        return None  # another version of the code or of the maps
    payload = rest
    if sha256(payload).hexdigest().encode() != lines[2]:
        log.info("engine cache %s: damaged, loading %s from its map files", path, key)
        return None
    try:
        engine = codec.loads(payload, types)  # plain data: reading it runs no code it names
    except Exception as exc:  # whatever reading it raises, the answer is a load from the files
        log.info("engine cache %s: does not read (%s), loading %s from its map files", path, type(exc).__name__, key)
        return None
    return engine if getattr(engine, "key", None) == key else None


def _write(folder: Path, path: Path, tag: str, engine: Any, types: codec.Types) -> None:
    """Store ``engine`` (atomically: :func:`write_atomic`); any failure is only logged."""
    try:
        payload = codec.dumps(engine, types)
    except Exception as exc:  # an engine holding something the codec does not write: simply not cached
        log.info("engine cache: %s not kept (%s)", getattr(engine, "key", "?"), type(exc).__name__)
        return
    data = MAGIC + tag.encode() + b"\n" + sha256(payload).hexdigest().encode() + b"\n\n" + payload
    try:
        folder.mkdir(mode=0o750, exist_ok=True)
        write_atomic(path, data, mode=0o640)
    except OSError as exc:
        log.info("engine cache %s: not written (%s)", path, exc.strerror or exc)
