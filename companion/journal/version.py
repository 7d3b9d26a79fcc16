"""The version tag of an engine and its data: new rules or corrected data never meet an old state or engine.

A stored snapshot and a kept engine (:mod:`.snapshots`, :mod:`.engine_cache`) are used only under the tag they
were made with: a SHA-256 over the game's rules code (see below), and the game's map files in force.

The rules code is what can change a replay: the modules of the game's package but its painter and its risk
command (``GameSpec.painter``, ``GameSpec.risk_cli``: they draw and print, they never fold an event), every module
of the box those import, at any depth, except the drawing toolkit (``companion/views``), and always the events'
own module, the fold and the codec the states are stored in. So an update of the box that leaves a game's rules
alone (a new screen, another game's rules, a projector fix, the journal's other parts) keeps its stored states
and its kept engine, and the first start after it resumes as fast as any; one that changes a module the game's
rules import gets a new tag, and the game replays from its first event, with the new rules.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from companion.games.registry import specs
from companion.paths import group_maps_dir, map_file, maps_dir
from companion.sha256 import sha256

ROOT = Path(__file__).parent.parent
"""The box's own package (``companion``): the modules a game's rules may import."""

_ALWAYS = ("dice.py", "games/base.py", "journal/codec.py")
"""Modules in every game's tag whether its engine imports them or not: what an event is and how a journal entry
reads back into one, the fold (``games.base.replay``), and the codec the stored states are written in."""

_NEVER = ("views",)
"""Folders of the box whose modules never change a replay: the drawing toolkit."""

_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(companion(?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]+)"
                     r"|import[ \t]+(companion(?:\.\w+)*))", re.MULTILINE)
"""An import of one of the box's modules, at any indentation (an import inside a function counts too)."""

_sources: dict[tuple[type | str, str], str] = {}
_files: dict[tuple[str, int, int], tuple[str, tuple[tuple[str, str], ...]]] = {}


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


def _code_digest(key: str, sources: list[Path], root: Path = ROOT) -> str:
    """SHA-256 over the rules code: ``sources`` (the game's own modules) and what they import (:func:`rules_code`)."""
    digest = sha256(f"{key}\n".encode())
    for path in rules_code(sources, root):
        digest.update(f"\n{_name(path, root)}\n{_file_digest(path)}".encode())
    return digest.hexdigest()


def rules_code(sources: list[Path], root: Path = ROOT) -> list[Path]:
    """``sources``, the modules of ``root`` they import at any depth (never one under ``_NEVER``) and ``_ALWAYS``,
    in a stable order. The imports are read from the text (a regular expression over each file once: no module is
    imported or parsed), and a name imported from a package counts as its module when there is one by that name."""
    never = [root / folder for folder in _NEVER]
    found: set[Path] = set()
    todo = [*sources, *(root / name for name in _ALWAYS)]
    while todo:
        path = todo.pop()
        if path in found:
            continue
        found.add(path)
        for module, names in _read(path)[1]:
            for target in _modules(module, names, root):
                if target not in found and not any(target.is_relative_to(n) for n in never):
                    todo.append(target)
    return sorted(found, key=lambda p: _name(p, root))


def _modules(module: str, names: str, root: Path) -> list[Path]:
    """The files of ``module`` (``companion.x.y``) and, when it is a package, of each name imported from it that is
    a module itself (a name imported from a plain module is no file: no need to look)."""
    base = root.joinpath(*module.split(".")[1:])
    plain = base.with_suffix(".py")
    if plain.name != ".py" and plain.is_file():
        return [plain]
    init = base / "__init__.py"
    if not init.is_file():
        return []
    out = [init]
    for name in re.findall(r"\w+", re.sub(r"#[^\n]*", "", names).replace(" as ", " ")):
        sub = base / f"{name}.py"
        if sub.is_file():
            out.append(sub)
        elif (base / name / "__init__.py").is_file():
            out.append(base / name / "__init__.py")
    return out


def _name(path: Path, root: Path) -> str:
    """A module's place in the digest: its path inside the box's package (the same wherever it is installed)."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name


def _with_maps(code: str, key: str, maps: Path | None) -> str:
    digest = sha256(code.encode())
    names: set[str] = set()
    for folder in [maps] if maps is not None else [maps_dir(), group_maps_dir()]:
        if folder.is_dir():
            names.update(p.name for p in folder.glob(f"{key}*.toml"))
    for name in sorted(names):
        digest.update(f"\n{name}\n{_file_digest(map_file(name, maps))}".encode())
    return digest.hexdigest()[:32]


def _engine_sources(game: Any, key: str) -> list[Path]:
    """The engine's own source files: the rules modules of the game's package when the registry names one (its
    engine loader lives in the package's ``__init__``), else the one module that defines the engine's class."""
    package = _package_sources(key)
    if package is not None:
        return package
    module = sys.modules.get(type(game).__module__)
    return [Path(module.__file__)] if module is not None and module.__file__ else []


def _package_sources(key: str) -> list[Path] | None:
    """Every module of the package the registry names for ``key`` (imported by then: listing the games does) but
    its painter's and its risk command's, or None when the game is not such a package."""
    spec = specs().get(key)
    package = sys.modules.get(spec.engine.partition(":")[0]) if spec is not None else None
    if spec is None or package is None or not package.__file__ or Path(package.__file__).name != "__init__.py":
        return None
    folder = Path(package.__file__).parent
    aside = {_module_file(folder, package.__name__, ref.partition(":")[0]) for ref in (spec.painter, spec.risk_cli)}
    return sorted(p for p in folder.rglob("*.py") if p not in aside)


def _module_file(folder: Path, package: str, module: str) -> Path | None:
    """The file of ``module`` when it is one of the package's (``package.painter`` -> ``folder/painter.py``)."""
    if not module.startswith(package + "."):
        return None
    return folder.joinpath(*module[len(package) + 1:].split(".")).with_suffix(".py")


def _file_digest(path: Path) -> str:
    return _read(path)[0]


def _read(path: Path) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A file's SHA-256 and, for a module, the box's modules it imports (module, names): read once, and again only
    when its size or modification time changed."""
    try:
        stat = path.stat()
        cache_key = (str(path), stat.st_mtime_ns, stat.st_size)
        if cache_key not in _files:
            data = path.read_bytes()
            imports: tuple[tuple[str, str], ...] = ()
            if path.suffix == ".py":
                text = data.decode("utf-8", errors="replace")
                imports = tuple((m[0] or m[2], m[1]) for m in _IMPORT.findall(text))
            _files[cache_key] = (sha256(data).hexdigest(), imports)
        return _files[cache_key]
    except OSError:
        return "(unreadable)", ()
