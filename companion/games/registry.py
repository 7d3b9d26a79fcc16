"""The game registry: which games this box knows, found the way the command line finds its commands.

Each game package under ``companion/games/`` declares a module-level ``SPEC`` (a :class:`GameSpec`);
packages installed elsewhere declare theirs through the ``companion.games`` entry point group (as
gpiozero finds pin factories), and a test registers its own with :func:`register`. Everything beyond
the key and the title is named lazily as ``"module:name"``, so listing the games imports no engine,
no painter and no risk code: a command pays only for what it uses.

Adding a game therefore touches its package, its maps/ file and its tests, nothing else.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import pkgutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.metadata import distributions
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, DataError

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "companion.games"


@dataclass(frozen=True, repr=False)  # compared, never printed (each generated method costs the start)
class GameSpec:
    """What a game package declares about itself.

    ``engine`` names a loader ``load(maps: Path | None) -> Game``; ``painter`` a class taking the
    engine (``companion.views.projector.painters.GamePainter``), or "" for the shared painter of the
    board's shape; ``risk_cli`` a module with ``add_risk_arguments(parser)`` and ``cli_risk(args)``
    for ``companion risk KEY``, or "" when the game has no risk to compute; ``drawn`` a function
    ``(engine, state) -> {name: plain data}``: what the game's painter draws from the rules, worked out by the
    session once per state (``companion.views.drawn.Drawn``), or "" when the painter needs none.
    """

    key: str
    title: str
    engine: str
    painter: str = ""
    risk_cli: str = ""
    risk_help: str = ""
    order: int = 100
    """Where the game stands in menus and listings (lower first)."""
    drawn: str = ""


_registered: dict[str, GameSpec] = {}
_found: dict[str, GameSpec] | None = None


def resolve(reference: str) -> Any:
    """The object a ``"package.module:name"`` reference names (imported now, not before)."""
    module_name, _, attr = reference.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attr) if attr else module


@dataclass(frozen=True)
class PainterRef:
    """A game's own painter as its spec names it (``"module:name"``), imported only when a frame is first drawn.

    The frame carries this, and the projector calls :meth:`load`: the import of the game's painter is the
    registry's (a game's folder importing its own module), so the projector toolkit never imports, nor names, a
    game, and a box without a projector never loads a painter."""

    reference: str

    def load(self) -> Any:
        """The painter class (ImportError when its module, or what it needs, is not installed)."""
        return resolve(self.reference)


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
    parses the file of every installed distribution (some thirty, of which none declares a game) at each start
    of the box, where reading them is several times cheaper."""
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


BOARD_NOTE = "board_note"
"""The attribute of an engine loaded on the shipped board because the group's own did not load: the line
that says so (the session shows it on the OLED and the map; the log has the loader's reason)."""


def load_game(key: str, maps: Path | None = None) -> Any:
    """The engine for ``key`` over the data in ``maps`` (default: the files in force, the group's own boards
    before the shipped ones). A group's board the game's loader refuses (damaged, another game's, not UTF-8)
    does not keep the game from the table: the engine is loaded on the shipped board, the reason is logged,
    and the engine carries a one-line note saying so (:data:`BOARD_NOTE`). Only when the shipped board fails
    too is the group's board's reason raised."""
    game = spec(key)
    loader = resolve(game.engine)
    own = _own_files(key) if maps is None else []
    if not own:
        return loader(maps)
    try:
        return loader(maps)
    except DataError as exc:
        reason = str(exc)
    from companion.paths import maps_dir

    try:
        engine = loader(maps_dir())
    except DataError:
        raise DataError(reason) from None
    log.warning("%s; playing %s on the shipped board (`companion board reset %s` removes the group's)",
                reason, game.title, key)
    with contextlib.suppress(AttributeError, TypeError):
        setattr(engine, BOARD_NOTE, f"{game.title}: own board does not load, shipped board used")
    return engine


def _own_files(key: str) -> list[Path]:
    """The group's own data files of game ``key`` in force (``<key>*.toml`` in the configuration directory's
    maps/ folder, as the snapshots' version tag counts them); none when ``COMPANION_MAPS`` overrides both."""
    import os

    from companion.paths import group_maps_dir

    if os.environ.get("COMPANION_MAPS"):
        return []
    folder = group_maps_dir()
    try:
        return sorted(p for p in folder.glob(f"{key}*.toml") if p.is_file())
    except OSError:
        return []


def check_own_boards() -> list[Path]:
    """Load every game that has files of the group's own on them, without the fallback: a DataError naming
    the first file its loader refuses, else the files read (``companion config check``)."""
    read: list[Path] = []
    for key, game in specs().items():
        own = _own_files(key)
        if own:
            resolve(game.engine)(None)
            read += own
    return read


def board_note(engine: Any) -> str:
    """The engine's :data:`BOARD_NOTE`, or "" for an engine on the board in force."""
    note = getattr(engine, BOARD_NOTE, "")
    return note if isinstance(note, str) else ""


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
