"""The box's parts found by name: the configuration says ``type = "camera"``, this registry finds the part.

As kvmd finds a plugin by its name (``get_plugin_class(sub, name)``) and pyserial a port handler by its URL
scheme, every part is a :class:`SourceType` registered under its ``role`` and ``type``: the role is where the
configuration names it (``[tower]``, ``[buttons]``, ``[oled]``, ``[projector]``, one of the ``[sources.NAME]``
inputs or of the ``[outputs.NAME]`` outputs), the type which part fills it. Each type has the frozen dataclass
of its options (each with its default, declared once) and a ``start(options, context)`` that opens the part and
returns what to ``close()`` when the box stops. The box's own types are handed over by companion.config
(:func:`provide`), which declares them beside the sections whose options they take; packages installed elsewhere
declare theirs in the ``companion.sources`` entry point group, as games do in ``companion.games``;
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


ROLES = ("source", "output", "tower", "buttons", "oled", "projector")
"""Where a part is named: ``[sources.NAME]`` (an input), ``[outputs.NAME]`` (an output), or the box's own sections."""

DISABLED = "disabled"
"""The type every role has: the part left out, said as such (kvmd's word)."""


def _nothing(*_args: Any) -> None:
    return None


@dataclass(frozen=True)
class SourceContext:
    """What a starting part may use of the box: the queue every input goes on, the dice the session wants
    now (a camera reads only then), a way to add an entry to the main menu ("Teach dice"); and, for the parts
    that show or pump (an output, the laptop window), a way to add a view and a pump to the loop, to say a lasting
    condition once (``say``: the OLED and the log; ``notice``: the OLED only, the part logging its own details)
    or a passing one (``tell``), the rolls already journaled (the tower link is primed
    with them), and ``parts``: what the parts started before it left for the ones after (the mock pins' keys for
    the laptop window, the OLED's view for a frames folder)."""

    inbox: queue.Queue[Any]
    wanted: Callable[[], tuple[str, ...]] = tuple
    add_action: Callable[[str, Callable[[], None]], None] = lambda label, action: None
    add_view: Callable[[Any], None] = _nothing
    add_pump: Callable[[Callable[[], object], bool | Callable[[], bool]], None] = _nothing
    say: Callable[[str], None] = _nothing
    notice: Callable[[str], object] = _nothing
    tell: Callable[[str], None] = _nothing
    rolls: Callable[[], list[Any]] = list
    parts: dict[str, Any] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True, repr=False)  # compared, never printed
class SourceType:
    """One kind of part: its ``type`` name, its options' dataclass, how it starts, and its ``role`` (an input
    source unless said otherwise).

    ``describe(options, part)`` is the word for the ready line ("folder", "on (2 dice)"); by default the type's
    name. ``read`` replaces the generic reading of the options (:func:`read_options`) for a type whose checks go
    beyond its fields' kinds and its ``__post_init__`` (the box's own sections, read by companion.config)."""

    name: str
    options: type[Any]
    start: Callable[[Any, SourceContext], Closeable]
    describe: Callable[[Any, Any], str] | None = None
    read: Callable[[Fields], Any] | None = None
    role: str = "source"

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"part role {self.role!r}: one of {', '.join(ROLES)}")


PartType = SourceType
"""The same class under the name its outputs read better with."""


class Opened:
    """What a box part's start gives back: the object it opened (a view, a link; None when it found nothing to
    open and said so itself), its word for the ready line ("mock pins (keys)", "absent"), and the calls that
    close it, made in the reverse order (as gpiozero's CompositeDevice closes what it claimed)."""

    def __init__(self, part: Any = None, word: str = "", closers: tuple[Callable[[], object], ...] = ()) -> None:
        self.part = part
        self.word = word
        self._closers = list(closers)

    def close(self) -> None:
        while self._closers:
            self._closers.pop()()


def word_of(options: Any, opened: Opened) -> str:
    """The ``describe`` of a box part that says its own word (an :class:`Opened`)."""
    return opened.word
"""The same class under the name its outputs read better with."""

BUILT_IN: dict[str, SourceType] = {}
"""The box's own input sources by name, handed over by companion.config (:func:`provide`), which declares them
beside the sections whose options they take; the registry imports none of them."""

_built_in_parts: dict[tuple[str, str], SourceType] = {}
_registered: dict[tuple[str, str], SourceType] = {}
_installed: dict[str, Callable[[], Any]] | None = None


def provide(*built_in: SourceType) -> None:
    """The box's own types (companion.config gives them as it is imported)."""
    for part_type in built_in:
        _built_in_parts[part_type.role, part_type.name] = part_type
        if part_type.role == "source":
            BUILT_IN[part_type.name] = part_type


def register(source_type: SourceType) -> Callable[[], None]:
    """Add a type at run time (a test's own source or output); returns the call that removes it again."""
    key = (source_type.role, source_type.name)
    _registered[key] = source_type

    def unregister() -> None:
        _registered.pop(key, None)

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


def names(role: str = "source") -> tuple[str, ...]:
    """Every known type's name for ``role``, sorted (installed ones are counted as inputs until loaded)."""
    global _installed
    if _installed is None:
        _installed = _installed_types()
    own = {name for (r, name) in (*_built_in_parts, *_registered) if r == role}
    return tuple(sorted(own | (set(_installed) if role == "source" else set())))


def get(name: str, role: str = "source") -> SourceType:
    """The type called ``name`` for ``role``: registered at run time first, then built in, then installed; an
    unknown name is a one-line error listing the known ones (kvmd's ``get_plugin_class``)."""
    key = (role, name)
    if key in _registered:
        return _registered[key]
    if key in _built_in_parts:
        return _built_in_parts[key]
    known = names(role)  # looks the entry points up once
    if _installed is not None and name in _installed:
        found = _checked(name, _installed[name]())
        if found.role == role:
            return found
    word = "source" if role == "source" else role
    raise CompanionError(f"unknown {word} type {name!r} (known: {', '.join(known) or 'none'})")


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

