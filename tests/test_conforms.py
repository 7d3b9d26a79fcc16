"""companion.conforms answers as isinstance does, for every runtime-checkable protocol of the project."""

from __future__ import annotations

import importlib
import pkgutil
from types import SimpleNamespace
from typing import Any

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


def test_the_project_has_the_protocols_the_box_asks_about_on_every_frame() -> None:
    names = {p.__name__ for p in PROTOCOLS}
    assert {"DrawsAhead", "Rests", "HasChoices", "HasBoard", "HasRiskMap", "PaintsGroups", "UsesDrawn"} <= names
    assert all(members(p) for p in PROTOCOLS), [p.__name__ for p in PROTOCOLS if not members(p)]


def _candidates(protocol: type) -> list[Any]:
    """Objects around ``protocol``: with all its members, with each one missing, with a method set to None, and the
    engines, painters and views of the box."""
    names = [name for name, _ in members(protocol)]
    everything = {name: (lambda *a, **k: None) for name in names}
    objects: list[Any] = [SimpleNamespace(**everything), SimpleNamespace(), object(), None, 3]
    for name in names:
        objects.append(SimpleNamespace(**{k: v for k, v in everything.items() if k != name}))
        objects.append(SimpleNamespace(**{**everything, name: None}))
    return objects


def _box_objects() -> list[Any]:
    """The five games' engines and painters, and the projector's view (it draws ahead and rests)."""
    from companion.games import registry
    from companion.paths import maps_dir
    from companion.session.drawn import painter_of
    from companion.views.projector.view import ProjectorView

    games = [registry.load_game(key, maps_dir()) for key in registry.specs()]
    return [*games, *(painter_of(g) for g in games), ProjectorView()]


BOX = _box_objects()


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=lambda p: p.__name__)
def test_conforms_answers_as_isinstance(protocol: type) -> None:
    objects = [*_candidates(protocol), *BOX]
    answers = [(conforms(o, protocol), isinstance(o, protocol)) for o in objects]
    assert all(mine == typing for mine, typing in answers), \
        [(type(o).__name__, a) for o, a in zip(objects, answers, strict=True) if a[0] != a[1]]
    assert any(mine for mine, _ in answers) and not all(mine for mine, _ in answers)
