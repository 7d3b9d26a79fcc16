"""The game registry: which games this box knows, found the way the command line finds its commands.

Each game package under ``companion/games/`` declares a module-level ``SPEC`` (a :class:`GameSpec`);
packages installed elsewhere declare theirs through the ``companion.games`` entry point group (as
gpiozero finds pin factories), and a test registers its own with :func:`register`. Everything beyond
the key and the title is named lazily as ``"module:name"``, so listing the games imports no engine,
no painter and no risk code: a command pays only for what it uses.

Adding a game therefore touches its package, its maps/ file and its tests, nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.metadata import distributions
from pathlib import Path
from typing import Any

from companion.errors import CompanionError

ENTRY_POINT_GROUP = "companion.games"


@dataclass(frozen=True, repr=False)  # compared, never printed (each generated method costs the start)
class GameSpec:
    """What a game package declares about itself.

    ``engine`` names a loader ``load(maps: Path | None) -> Game``; ``painter`` a class taking the
    engine (``companion.views.projector.painters.GamePainter``), or "" for the shared painter of the
    board's shape; ``risk_cli`` a module with ``add_risk_arguments(parser)`` and ``cli_risk(args)``
    for ``companion risk KEY``, or "" when the game has no risk to compute.
    """

    key: str
    title: str
    engine: str
    painter: str = ""
    risk_cli: str = ""
    risk_help: str = ""
    order: int = 100
    """Where the game stands in menus and listings (lower first)."""


_registered: dict[str, GameSpec] = {}
_found: dict[str, GameSpec] | None = None


def resolve(reference: str) -> Any:
    """The object a ``"package.module:name"`` reference names (imported now, not before)."""
    module_name, _, attr = reference.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attr) if attr else module


def _discover() -> dict[str, GameSpec]:
    """The specs of the packages under companion/games and of the installed entry points."""
    found: dict[str, GameSpec] = {}
    package = importlib.import_module("companion.games")
    for info in pkgutil.iter_modules(package.__path__):
        if not info.ispkg:
            continue
        spec = getattr(importlib.import_module(f"companion.games.{info.name}"), "SPEC", None)
        if isinstance(spec, GameSpec):
            found[spec.key] = spec
    for spec in _installed_specs():
        found.setdefault(spec.key, spec)
    return found


def _installed_specs() -> Iterator[GameSpec]:
    """The specs installed distributions declare in the ``companion.games`` entry point group, in path order.

    Only a distribution whose entry_points.txt has the group's section is parsed: ``entry_points(group=...)``
    parses the file of every installed distribution (3-4 ms of each start of the box here, some thirty
    distributions of which none declares a game), where reading them is under a millisecond."""
    for dist in distributions():
        text = dist.read_text("entry_points.txt")
        if not text or f"[{ENTRY_POINT_GROUP}]" not in text:
            continue
        for point in dist.entry_points.select(group=ENTRY_POINT_GROUP):
            spec = point.load()
            if isinstance(spec, GameSpec):
                yield spec


def specs() -> dict[str, GameSpec]:
    """Every known game by key, in menu order."""
    global _found
    if _found is None:
        _found = _discover()
    merged = {**_found, **_registered}
    return dict(sorted(merged.items(), key=lambda item: (item[1].order, item[0])))


def keys() -> tuple[str, ...]:
    return tuple(specs())


def spec(key: str) -> GameSpec:
    """The spec for ``key``; an unknown key is a one-line error listing the known ones."""
    known = specs()
    if key not in known:
        raise CompanionError(f"unknown game {key!r} (known: {', '.join(known)})")
    return known[key]


def register(game: GameSpec) -> Callable[[], None]:
    """Add a game at run time (a test's own package); returns the call that removes it again."""
    _registered[game.key] = game

    def unregister() -> None:
        _registered.pop(game.key, None)

    return unregister


def load_game(key: str, maps: Path | None = None) -> Any:
    """The engine for ``key`` over the data in ``maps`` (default: the installed maps/)."""
    loader = resolve(spec(key).engine)
    return loader(maps)


def lazy_exports(package: str, exports: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``name`` from its submodule on first use (PEP 562).

    Game packages keep their public names (``from companion.games.kansas import KansasGame``)
    while discovering their ``SPEC`` imports nothing but the package's ``__init__``.
    """

    def __getattr__(name: str) -> Any:
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{exports[name]}"), name)

    return __getattr__
