"""Engine states and engines as plain data: JSON whose reading builds only the classes a game's code defines.

A journal is data a group copies, exports and imports, and the engine cache sits in a folder beside it: nothing
read from either may run code. Pickle names a callable in its data and calls it, so a payload could run any
command; this codec writes values as JSON and reads them back by a closed set of rules:

- ``None``, booleans, whole numbers, floats and text are themselves;
- every other value is a JSON list whose first item says what it is: ``["T", ...]`` a tuple, ``["L", ...]`` a
  list, ``["F", ...]`` a frozenset, ``["S", ...]`` a set, ``["D", k, v, ...]`` a dict (keys of any of these
  kinds), ``["B", hex]`` bytes, ``["N", cls, ...]`` a named tuple, ``["E", cls, value]`` an enum member and
  ``["A", cls, name, value, ...]`` an object (a frozen dataclass, or any class with attributes), and
  ``["R", n]`` the n-th of these values written so far, counted as each one ends (a value met again is written
  once: an engine's board names the same place from many hexes, and reading it back builds it once, as pickle
  did);
- ``cls`` is ``"module:QualName"`` and must be a class *defined in* one of the modules :class:`Types` allows (the
  game's own package and the shared core): nothing is imported but a module of those packages, and an object is
  made with ``object.__new__`` and its attributes set one by one (no ``__init__``, ``__setstate__`` or
  ``__reduce__`` is called; only the game's own ``__hash__`` and ``__eq__``, when a set or a dict is built).

A value of any other kind (a function, an open file, a class from elsewhere) is refused when it is *written*
(:class:`Unencodable`), so what is stored always reads back.
"""

from __future__ import annotations

import enum
import importlib
import json
import sys
from collections.abc import Callable, Iterable
from typing import Any

from companion.games.registry import specs

CORE = ("companion.hexgrid", "companion.places", "companion.dice")
"""Modules every game's values may use (hexes, cells, links, dice)."""

_ATOMS = (str, int, float, bool, type(None))


class Unencodable(TypeError):
    """A value the codec does not write (so it is never stored)."""


class Types:
    """The classes a payload may name: those defined in the modules of ``packages`` and of :data:`CORE`."""

    def __init__(self, packages: Iterable[str]) -> None:
        self.packages = tuple(sorted({p for p in packages if p}))
        self._classes: dict[str, type] = {}

    def allows(self, module: str) -> bool:
        return module in CORE or any(module == p or module.startswith(p + ".") for p in self.packages)

    def tag(self, cls: type) -> str:
        """``module:QualName`` of a class this codec may write."""
        module = cls.__module__
        if not self.allows(module) or "<locals>" in cls.__qualname__:
            raise Unencodable(f"{module}.{cls.__qualname__} is not a class of the game's code")
        return f"{module}:{cls.__qualname__}"

    def cls(self, tag: Any) -> type:
        """The class a payload names, if it is one of the allowed modules' own; ValueError otherwise."""
        known = self._classes.get(tag) if isinstance(tag, str) else None
        if known is not None:
            return known
        if not isinstance(tag, str):
            raise ValueError("a class name must be text")
        module_name, _, qualname = tag.partition(":")
        if not self.allows(module_name) or not all(part.isidentifier() for part in module_name.split(".")):
            raise ValueError(f"{tag[:80]!r} is not a class of the game's code")
        module = sys.modules.get(module_name)
        if module is None:  # a module of the game's own package (its data, before the engine is loaded)
            module = importlib.import_module(module_name)
        found: Any = module
        for part in qualname.split("."):
            if not part.isidentifier() or part.startswith("__"):
                raise ValueError(f"{tag[:80]!r} is not a class name")
            found = vars(found).get(part) if hasattr(found, "__dict__") else None
        if not isinstance(found, type) or found.__module__ != module_name or found.__qualname__ != qualname:
            raise ValueError(f"{tag[:80]!r} is not a class of the game's code")
        self._classes[tag] = found
        return found


def types_for(engine: Any) -> Types:
    """The classes an engine's states (and the engine itself) may be made of: its game package's (the one the
    registry names for its key) and its class's own module."""
    packages = [type(engine).__module__]
    spec = specs().get(str(getattr(engine, "key", "")))
    if spec is not None:
        packages.append(spec.engine.partition(":")[0])
    return Types(packages)


def package_types(key: str) -> Types | None:
    """The :func:`types_for` of the engine a registered game package loads, known before loading it."""
    spec = specs().get(key)
    return Types([spec.engine.partition(":")[0]]) if spec is not None else None


def dumps(value: Any, types: Types) -> bytes:
    """``value`` as compact JSON (UTF-8); :class:`Unencodable` for a value of a kind the codec does not write."""
    return json.dumps(_Encoder(types).encode(value), separators=(",", ":"), ensure_ascii=False,
                      allow_nan=True).encode()


def loads(data: bytes, types: Types) -> Any:
    """The value :func:`dumps` wrote; ValueError (or TypeError, RecursionError) for anything else."""
    return decode(json.loads(data), types)


def decode(value: Any, types: Types) -> Any:
    """The value :func:`dumps` wrote, from its parsed JSON."""
    return _Decoder(types).decode(value)


class _Encoder:
    def __init__(self, types: Types) -> None:
        self.types = types
        self._tags: dict[type, str] = {}
        self._done: dict[int, int] = {}
        """id of each value written whole -> its number."""
        self._alive: list[Any] = []

    def _tag(self, cls: type) -> str:
        tag = self._tags.get(cls)
        if tag is None:
            tag = self._tags[cls] = self.types.tag(cls)
        return tag

    def encode(self, value: Any) -> Any:
        kind = type(value)
        if kind in _ATOMS:
            return value
        known = self._done.get(id(value))
        if known is not None:
            return ["R", known]
        out = self._encoded(value, kind)
        self._done[id(value)] = len(self._done)
        self._alive.append(value)  # its id stays its own while this write lasts
        return out

    def _encoded(self, value: Any, kind: type) -> Any:
        if kind is tuple:
            return ["T", *[self.encode(x) for x in value]]
        if kind is frozenset:
            return ["F", *[self.encode(x) for x in value]]
        if kind is list:
            return ["L", *[self.encode(x) for x in value]]
        if kind is dict:
            out: list[Any] = ["D"]
            for key, item in value.items():
                out.append(self.encode(key))
                out.append(self.encode(item))
            return out
        if kind is set:
            return ["S", *[self.encode(x) for x in value]]
        if kind is bytes:
            return ["B", value.hex()]
        if isinstance(value, enum.Enum):
            return ["E", self._tag(kind), self.encode(value.value)]
        if isinstance(value, tuple) and hasattr(kind, "_fields"):
            return ["N", self._tag(kind), *[self.encode(x) for x in value]]
        if kind.__new__ is not object.__new__:  # a subclass of a builtin container, or one that makes itself
            raise Unencodable(f"{kind.__module__}.{kind.__qualname__} is not plain data")
        return ["A", self._tag(kind), *self._attributes(value)]

    def _attributes(self, value: Any) -> list[Any]:
        kind = type(value)
        getstate = getattr(kind, "__getstate__", None)
        if getstate is not None and getstate is not object.__getstate__:
            state = value.__getstate__()  # the class says what it keeps (a board works its names out first)
            if not isinstance(state, dict):
                raise Unencodable(f"{kind.__qualname__}.__getstate__ is not a dict of attributes")
            attributes = dict(state)
        else:
            attributes = dict(getattr(value, "__dict__", {}))
            for klass in kind.__mro__:
                for name in getattr(klass, "__slots__", ()):
                    if name != "__dict__" and name != "__weakref__" and hasattr(value, name):
                        attributes[name] = getattr(value, name)
        out: list[Any] = []
        for name, item in attributes.items():
            out.append(name)
            out.append(self.encode(item))
        return out


class _Decoder:
    """The walk back from parsed JSON. Atoms inside a container are taken as they are (no call per number: a
    board is thousands of them), and each class named is checked once per read."""

    def __init__(self, types: Types) -> None:
        self.types = types
        self._done: list[Any] = []
        self._checked: dict[tuple[str, Any], type] = {}
        self._by_tag: dict[str, Callable[[list[Any]], Any]] = {
            "T": lambda v: tuple(self._items(v, 1)),
            "F": lambda v: frozenset(self._items(v, 1)),
            "L": lambda v: self._items(v, 1),
            "S": lambda v: set(self._items(v, 1)),
            "D": self._dict,
            "B": lambda v: bytes.fromhex(_text(v[1])),
            "N": self._named,
            "E": self._enum,
            "A": self._object,
        }

    def decode(self, value: Any) -> Any:
        if type(value) is list:
            if not value:
                raise ValueError("an empty list is not a value")
            kind = value[0]
            if kind == "R":
                number = value[1] if len(value) == 2 else None
                if type(number) is not int or not 0 <= number < len(self._done):
                    raise ValueError("a reference to no value written before it")
                return self._done[number]
            make = self._by_tag.get(kind) if isinstance(kind, str) else None
            if make is None:
                raise ValueError(f"unknown value kind {str(kind)[:20]!r}")
            made = make(value)
            self._done.append(made)
            return made
        if type(value) in _ATOMS:
            return value
        raise ValueError("a JSON object is not a value")

    def _items(self, value: list[Any], start: int) -> list[Any]:
        decode = self.decode
        return [x if type(x) in _ATOMS else decode(x) for x in value[start:]]

    def _class(self, form: str, value: list[Any], check: Callable[[type], bool]) -> type:
        """The class ``value`` names, if it is one of the game's own and of the form asked for."""
        tag = value[1] if len(value) > 1 else None
        key = (form, tag)
        cls = self._checked.get(key) if isinstance(tag, str) else None
        if cls is None:
            cls = self.types.cls(tag)
            if not check(cls):
                raise ValueError(f"{cls.__qualname__} is not {form}")
            self._checked[key] = cls
        return cls

    def _dict(self, value: list[Any]) -> dict[Any, Any]:
        if len(value) % 2 != 1:
            raise ValueError("a dict needs a value for every key")
        items = self._items(value, 1)
        return dict(zip(items[::2], items[1::2], strict=True))

    def _named(self, value: list[Any]) -> Any:
        cls = self._class("a named tuple", value, lambda c: issubclass(c, tuple) and hasattr(c, "_fields"))
        if len(cls._fields) != len(value) - 2:  # type: ignore[attr-defined]
            raise ValueError(f"{cls.__qualname__} has {len(cls._fields)} fields")  # type: ignore[attr-defined]
        return tuple.__new__(cls, self._items(value, 2))

    def _enum(self, value: list[Any]) -> Any:
        cls = self._class("an enum", value, lambda c: issubclass(c, enum.Enum))
        if len(value) != 3:
            raise ValueError(f"{cls.__qualname__}: one value expected")
        return cls(self.decode(value[2]))

    def _object(self, value: list[Any]) -> Any:
        cls = self._class("plain data", value,
                          lambda c: c.__new__ is object.__new__ and not issubclass(c, BaseException))
        if len(value) % 2:
            raise ValueError(f"{cls.__qualname__}: an attribute without a value")
        obj: Any = object.__new__(cls)
        items = self._items(value, 2)
        for name, item in zip(items[::2], items[1::2], strict=True):
            if type(name) is not str or not name.isidentifier() or name.startswith("__"):
                raise ValueError(f"{cls.__qualname__}: {str(name)[:40]!r} is not an attribute name")
            object.__setattr__(obj, name, item)
        return obj


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("expected text")
    return value
