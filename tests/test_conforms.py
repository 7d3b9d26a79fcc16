"""companion.conforms answers as isinstance does: for every runtime-checkable protocol of the project, for the box's
engines, painters and views, and for the cases where typing asks the object's class rather than the object."""

from __future__ import annotations

import importlib
import pkgutil
from types import SimpleNamespace
from typing import Any, Protocol, runtime_checkable

import pytest

import companion
from companion.conforms import conforms, members


def _protocols() -> list[type]:
    """Every runtime-checkable protocol defined in a module of companion (imported here)."""
    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(companion.__path__, "companion."):
        if ".board_editor" in info.name or info.name.endswith("__main__"):
            continue  # the editor opens a window on import; __main__ runs the command line
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, type) and getattr(value, "_is_runtime_protocol", False) \
                    and value.__module__ == module.__name__:
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[name] for name in sorted(found)]


PROTOCOLS = _protocols()


@runtime_checkable
class Local(Protocol):
    """Methods only, one of them inherited from another protocol (below)."""

    def first(self) -> None: ...


@runtime_checkable
class LocalMore(Local, Protocol):
    def second(self, x: int) -> int: ...


@runtime_checkable
class LocalData(Protocol):
    """A data member beside a method: typing refuses issubclass for it."""

    size: int

    def first(self) -> None: ...


@runtime_checkable
class LocalSpecial(Protocol):
    """A special method and a private one are members too."""

    def __call__(self) -> None: ...

    def _hidden(self) -> None: ...


LOCAL = [Local, LocalMore, LocalData, LocalSpecial]


def test_the_project_has_the_protocols_the_box_asks_about_on_every_frame() -> None:
    names = {p.__name__ for p in PROTOCOLS}
    assert {"DrawsAhead", "Rests", "HasChoices", "HasBoard", "HasRiskMap", "PaintsGroups", "UsesDrawn"} <= names
    assert all(members(p) for p in PROTOCOLS), [p.__name__ for p in PROTOCOLS if not members(p)]


def test_members_are_typings_own_inherited_data_and_special_ones_included() -> None:
    assert members(LocalMore) == (("first", True), ("second", True))
    assert members(LocalData) == (("first", True), ("size", False))
    assert members(LocalSpecial) == (("__call__", True), ("_hidden", True))


def test_a_class_that_is_not_a_runtime_checkable_protocol_is_refused() -> None:
    class Plain:
        def first(self) -> None: ...

    class Unchecked(Protocol):
        def first(self) -> None: ...

    for cls in (Plain, Unchecked):
        with pytest.raises(TypeError, match="not a runtime-checkable protocol"):
            conforms(SimpleNamespace(first=lambda: None), cls)


def _method(*_args: Any, **_kwargs: Any) -> None:
    return None


def _candidates(protocol: type) -> list[Any]:
    """Objects around ``protocol``: with all its members, with each one missing, with a method set to None, on the
    object and on its class; a class with every member whose instance shadows a method with None or leaves a slot
    unset; a subclass of the protocol itself."""
    listed = members(protocol)
    names = [name for name, _ in listed]
    everything = {name: (_method if method else 3) for name, method in listed}
    objects: list[Any] = [SimpleNamespace(**everything), SimpleNamespace(), object(), None, 3]
    for name in names:
        objects.append(SimpleNamespace(**{k: v for k, v in everything.items() if k != name}))
        objects.append(SimpleNamespace(**{**everything, name: None}))
        without = type("Without", (), {k: v for k, v in everything.items() if k != name})
        objects.append(without())
        nulled = type("Nulled", (), {**everything, name: None})
        objects.append(nulled())
        shadowed = type("Shadowed", (), dict(everything))()
        shadowed.__dict__[name] = None  # an instance's own None over its class's method
        objects.append(shadowed)
    with_all = type("WithAll", (), dict(everything))
    objects.append(with_all())
    slotted = type("Slotted", (), {"__slots__": tuple(names)})
    objects.append(slotted())  # every member a slot, none set
    objects.append(type("Sub", (protocol,), {})())  # a subclass of the protocol itself, adding nothing
    return objects


def _box_objects() -> list[Any]:
    """The five games' engines and painters, and the projector's view (it draws ahead and rests), also as the phones'
    join code dresses it (a wrapper answering for the view's members through ``__getattr__``)."""
    from companion.games import registry
    from companion.paths import maps_dir
    from companion.remote.join import Dressed
    from companion.session.drawn import painter_of
    from companion.views.projector.view import ProjectorView

    games = [registry.load_game(key, maps_dir()) for key in registry.specs()]
    return [*games, *(painter_of(g) for g in games), ProjectorView(), Dressed.of(ProjectorView(), None)]


BOX = _box_objects()


@pytest.mark.parametrize("protocol", PROTOCOLS + LOCAL, ids=lambda p: p.__name__)
def test_conforms_answers_as_isinstance(protocol: type) -> None:
    objects = [*_candidates(protocol), *BOX]
    answers = [(conforms(o, protocol), isinstance(o, protocol)) for o in objects]
    assert all(mine == typing for mine, typing in answers), \
        [(type(o).__name__, a) for o, a in zip(objects, answers, strict=True) if a[0] != a[1]]
    assert any(mine for mine, _ in answers) and not all(mine for mine, _ in answers)


def test_a_class_registered_with_a_protocol_conforms_as_isinstance_says() -> None:
    @runtime_checkable
    class Registered(Protocol):
        def first(self) -> None: ...

    @runtime_checkable
    class RegisteredData(Protocol):
        size: int

    class Bare:
        pass

    for protocol in (Registered, RegisteredData):
        assert not conforms(Bare(), protocol) and not isinstance(Bare(), protocol)
        protocol.register(Bare)  # type: ignore[attr-defined]
        assert conforms(Bare(), protocol) and isinstance(Bare(), protocol)
