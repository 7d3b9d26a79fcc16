"""Input sources found by name: the configuration says ``type = "camera"``, this registry finds the part.

As kvmd finds a plugin by its name and pyserial a port handler by its URL scheme, every input source is a
:class:`SourceType` registered under its ``type``: the frozen dataclass of its options (each with its default,
declared once) and a ``start(options, context)`` that opens the part and returns what to ``close()`` when the
box stops. The box's own types are handed over by companion.config (:func:`provide`), which declares them beside
the sections whose options they take; packages installed
elsewhere declare theirs in the ``companion.sources`` entry point group, as games do in ``companion.games``;
a test registers its own with :func:`register`.

A part that fails to open does not stop the box: :func:`start_source` says why once and the part is
"disabled" (kvmd's word), while the other parts run.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import typing
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import distributions
from typing import Any, Protocol

from companion.datafile import Fields
from companion.errors import CompanionError

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "companion.sources"


class Closeable(Protocol):
    def close(self) -> None: ...


class OptionError(ValueError):
    """Raised by an options dataclass's ``__post_init__`` for a value its type allows but the part does not:
    the configuration names the key (``config.toml: sources.tray.fps: expected 1..60, got 0.5``)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


@dataclass(frozen=True)
class SourceContext:
    """What a starting source may use of the box: the queue every input goes on, the dice the session wants
    now (a camera reads only then), and a way to add an entry to the main menu ("Teach dice")."""

    inbox: queue.Queue[Any]
    wanted: Callable[[], tuple[str, ...]] = tuple
    add_action: Callable[[str, Callable[[], None]], None] = lambda label, action: None


@dataclass(frozen=True, repr=False)  # compared, never printed
class SourceType:
    """One kind of input source: its ``type`` name, its options' dataclass, and how it starts.

    ``describe(options, part)`` is the word for the ready line ("folder", "on (2 dice)"); by default the type's
    name. ``read`` replaces the generic reading of the options (:func:`read_options`) for a type whose checks go
    beyond its fields' kinds and its ``__post_init__`` (the box's own sections, read by companion.config)."""

    name: str
    options: type[Any]
    start: Callable[[Any, SourceContext], Closeable]
    describe: Callable[[Any, Any], str] | None = None
    read: Callable[[Fields], Any] | None = None


BUILT_IN: dict[str, SourceType] = {}
"""The box's own types by name, handed over by companion.config (:func:`provide`), which declares them beside the
sections whose options they take; the registry imports none of them."""

_registered: dict[str, SourceType] = {}
_installed: dict[str, Callable[[], Any]] | None = None


def provide(*built_in: SourceType) -> None:
    """The box's own types (companion.config gives them as it is imported)."""
    BUILT_IN.update((t.name, t) for t in built_in)


def register(source_type: SourceType) -> Callable[[], None]:
    """Add a type at run time (a test's own source); returns the call that removes it again."""
    _registered[source_type.name] = source_type

    def unregister() -> None:
        _registered.pop(source_type.name, None)

    return unregister


def _installed_types() -> dict[str, Callable[[], Any]]:
    """The loaders of the types installed distributions declare in the ``companion.sources`` group, by name.
    Only a distribution whose entry_points.txt has the group's section is parsed (as the game registry does)."""
    found: dict[str, Callable[[], Any]] = {}
    for dist in distributions():
        text = dist.read_text("entry_points.txt")
        if not text or f"[{ENTRY_POINT_GROUP}]" not in text:
            continue
        for point in dist.entry_points.select(group=ENTRY_POINT_GROUP):
            found.setdefault(point.name, point.load)
    return found


def forget_installed() -> None:
    """Look the entry points up again at the next lookup (a distribution was installed since)."""
    global _installed
    _installed = None


def names() -> tuple[str, ...]:
    """Every known type's name, sorted."""
    global _installed
    if _installed is None:
        _installed = _installed_types()
    return tuple(sorted({*BUILT_IN, *_installed, *_registered}))


def get(name: str) -> SourceType:
    """The type called ``name``: registered at run time first, then built in, then installed; an unknown
    name is a one-line error listing the known ones."""
    if name in _registered:
        return _registered[name]
    if name in BUILT_IN:
        return BUILT_IN[name]
    known = names()  # looks the entry points up once
    if _installed is not None and name in _installed:
        return _checked(name, _installed[name]())
    raise CompanionError(f"unknown source type {name!r} (known: {', '.join(known) or 'none'})")


def _checked(name: str, found: object) -> SourceType:
    if not isinstance(found, SourceType) or found.name != name:
        raise CompanionError(f"source type {name!r} does not name a source type")
    return found


def _kind(hint: Any) -> tuple[type, bool]:
    """The TOML type of an option's annotation (str, int, float, bool or a tuple of one of them), and whether
    it is a tuple."""
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        return _kind(args[0])[0], True
    if isinstance(hint, type) and hint in (str, int, float, bool):
        return hint, False
    raise TypeError(f"option type {hint!r}: one of str, int, float, bool or a tuple of them")


def read_options(source_type: SourceType, f: Fields) -> Any:
    """The type's options dataclass from the table ``f``: each field read as its annotation says, absent keys
    taking the dataclass's defaults, a key without a default required, unknown keys refused, and the
    dataclass's own checks (:class:`OptionError` from ``__post_init__``) named by key."""
    if source_type.read is not None:
        options = source_type.read(f)
        f.reject_unknown()
        return options
    hints = typing.get_type_hints(source_type.options)
    values: dict[str, Any] = {}
    for option in dataclasses.fields(source_type.options):
        if not option.init:
            continue
        kind, many = _kind(hints[option.name])
        if not f.has(option.name):
            if option.default is dataclasses.MISSING and option.default_factory is dataclasses.MISSING:
                raise f.error("missing", option.name)
            f.get(option.name, object, None)  # seen: absent keys are the defaults
            continue
        if many:
            items = f.get(option.name, list)
            values[option.name] = tuple(
                Fields(f.file, {f"{option.name}[{i}]": item}, f.where).get(f"{option.name}[{i}]", kind)
                for i, item in enumerate(items))
        else:
            values[option.name] = f.get(option.name, kind)
    f.reject_unknown()
    try:
        return source_type.options(**values)
    except OptionError as exc:
        raise f.error(exc.message, exc.key) from None


def describe(source_type: SourceType, options: Any, running: object) -> str:
    return source_type.describe(options, running) if source_type.describe is not None else source_type.name


@dataclass(frozen=True, repr=False)
class Started:
    """A source as the box holds it: the part to close, or None when it did not open (then ``why``)."""

    name: str
    part: Closeable | None
    word: str
    why: str = ""

    def close(self) -> None:
        if self.part is not None:
            self.part.close()


def start_source(name: str, source_type: SourceType, options: Any, context: SourceContext) -> Started:
    """Open one source. A part that fails to open (its device missing, its library not installed, its files
    damaged) is logged with the reason and returned "disabled": the rest of the box runs without it."""
    try:
        part = source_type.start(options, context)
    except ImportError as exc:
        return _disabled(name, f"not installed ({exc.name})")
    except Exception as exc:  # a part's own failure, whatever it is: said once, the box runs on
        log.warning("%s: did not open", name, exc_info=True)
        return _disabled(name, str(exc) or type(exc).__name__)
    return Started(name, part, describe(source_type, options, part))


def _disabled(name: str, why: str) -> Started:
    log.warning("%s: disabled: %s", name, why)
    return Started(name, None, "disabled", why)

