"""The version tag of an engine and its data: new code or corrected data never meet an old state or engine.

A stored snapshot and a kept engine (:mod:`.snapshots`, :mod:`.engine_cache`) are used only under the tag they
were made with: a SHA-256 over the source of the engine's package, of the shared core it is built on, and of
the game's map files in force.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

from companion.games.registry import specs
from companion.paths import group_maps_dir, map_file, maps_dir

_SHARED_SOURCES = ("dice.py", "hexgrid.py", "places.py", "datafile.py", "errors.py", "paths.py",
                   "games/base.py", "games/registry.py", "journal_codec.py")
"""Modules of the core every engine is built on: a change to one may change what a state means."""

_sources: dict[tuple[type | str, str], str] = {}
_files: dict[tuple[str, int, int], str] = {}


def engine_version(game: Any, maps: Path | None = None) -> str:
    """A tag that changes when the engine's code or its map data changes: SHA-256 over the source files of the
    engine's package and of the shared core (read once per process: the code cannot change under it), and over
    the game's map files in force (``<key>*.toml``, the group's own copy where there is one; each read again only
    when its size or modification time changed, since the session loads the engine anew for each game)."""
    key = str(getattr(game, "key", ""))
    if (type(game), key) not in _sources:
        _sources[(type(game), key)] = _code_digest(key, _engine_sources(game, key))
    return _with_maps(_sources[(type(game), key)], key, maps)


def package_version(key: str, maps: Path | None = None) -> str | None:
    """The :func:`engine_version` of the engine a registered game package loads, known before loading it (the
    engine cache looks it up by this), or None for a game that is not a package (its engine's module is known
    only from the engine)."""
    if ("package", key) not in _sources:  # read once per process, as engine_version does
        sources = _package_sources(key)
        if sources is None:
            return None
        _sources[("package", key)] = _code_digest(key, sources)
    return _with_maps(_sources[("package", key)], key, maps)


def _code_digest(key: str, sources: list[Path]) -> str:
    digest = hashlib.sha256(f"{key}\n".encode())
    core = Path(__file__).parent.parent
    for path in [*sources, *(core / name for name in _SHARED_SOURCES)]:
        digest.update(f"\n{path.name}\n{_file_digest(path)}".encode())
    return digest.hexdigest()


def _with_maps(code: str, key: str, maps: Path | None) -> str:
    digest = hashlib.sha256(code.encode())
    names: set[str] = set()
    for folder in [maps] if maps is not None else [maps_dir(), group_maps_dir()]:
        if folder.is_dir():
            names.update(p.name for p in folder.glob(f"{key}*.toml"))
    for name in sorted(names):
        digest.update(f"\n{name}\n{_file_digest(map_file(name, maps))}".encode())
    return digest.hexdigest()[:32]


def _engine_sources(game: Any, key: str) -> list[Path]:
    """The engine's source files: every module of the game's package when the registry names one (its engine
    loader lives in the package's ``__init__``), else the one module that defines the engine's class."""
    package = _package_sources(key)
    if package is not None:
        return package
    module = sys.modules.get(type(game).__module__)
    return [Path(module.__file__)] if module is not None and module.__file__ else []


def _package_sources(key: str) -> list[Path] | None:
    """Every module of the package the registry names for ``key`` (imported by then: listing the games does),
    or None when the game is not such a package."""
    spec = specs().get(key)
    package = sys.modules.get(spec.engine.partition(":")[0]) if spec is not None else None
    if package is not None and package.__file__ and Path(package.__file__).name == "__init__.py":
        return sorted(Path(package.__file__).parent.rglob("*.py"))
    return None


def _file_digest(path: Path) -> str:
    try:
        stat = path.stat()
        cache_key = (str(path), stat.st_mtime_ns, stat.st_size)
        if cache_key not in _files:
            _files[cache_key] = hashlib.sha256(path.read_bytes()).hexdigest()
        return _files[cache_key]
    except OSError:
        return "(unreadable)"
