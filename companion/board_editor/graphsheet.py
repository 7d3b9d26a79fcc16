"""Graph boards (locations joined by links) as the editor edits them, generic over the file's layout.

A :class:`GraphFormat` says where a file keeps its locations (a list of tables with key, name, x, y and a
kind) and its links (pairs of keys), which kinds a location may have, what a new location of a kind carries
besides (Allegheny: development levels and values, or a connection bonus) and which loader judges the file.
Age of Rail's Allegheny is one (``FORMATS``). A game with several maps has one format per map
(``MAP_FORMATS``): Age of Industry's Japan and Minnesota, whose locations have no kind field but a list of
industry spaces; there the brushes are the space kinds of maps/industry.toml, a new location gets one space
of the brush's kind, and the "spaces" tool adds a space to a location (right click: takes its last away).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.board_editor.hexsheets import slug
from companion.board_editor.model import Doc, Editor, Picture, Refused

HIT = 0.6
"""A click within this share of the closest locations' distance picks a location (else it is empty board)."""


@dataclass(frozen=True)
class GraphFormat:
    game: str
    file: str
    kinds: tuple[str, ...]
    links: tuple[str, ...]
    """The path of the link list in the document (("board", "links"))."""
    extras: Callable[[str], dict[str, Any]]
    """The fields a new location of a kind needs besides key, name, kind, x and y."""
    loader: str
    """"module:function" reading a path: the game's own loader."""
    sites: str = "sites"
    board: str = ""
    """The map's name when the game has several (the setup question's value: "Japan"), else empty."""
    loader_args: tuple[str, ...] = ()
    """Passed to the loader after the path (the map's name)."""
    spaces: str = ""
    """The field listing a location's spaces when the file has one and no kind field (Age of Industry)."""

    @property
    def title(self) -> str:
        """How players and the command line name the board: ``industry --map Japan``, ``allegheny``."""
        return f"{self.game} --map {self.board}" if self.board else self.game

    def kind_of(self, site: dict[str, Any]) -> str:
        """A location's kind as the window colours it: its kind field, or its most telling space."""
        if not self.spaces:
            return str(site["kind"])
        held = list(site.get(self.spaces, []))
        return next((k for k in self.kinds if k in held and k != self.kinds[0]), self.kinds[0] if held else "")


def _allegheny_extras(kind: str) -> dict[str, Any]:
    return {"bonus": 0} if kind == "external" else {"levels": 1, "values": [1, 2]}


ALLEGHENY = GraphFormat("allegheny", "allegheny.toml", ("metro", "settlement", "external"), ("board", "links"),
                        _allegheny_extras, "companion.games.allegheny.data:load_board")

FORMATS: dict[str, GraphFormat] = {ALLEGHENY.game: ALLEGHENY}
"""Games with one graph board."""


def _industry(label: str) -> GraphFormat:
    """An Age of Industry map: brushes are the space kinds the shared readings (maps/industry.toml in force)
    define, "clear" first (a location's kind is its first space that is not clear)."""
    from companion.datafile import load_toml
    from companion.errors import DataError
    from companion.games.industry.data import MAPS
    from companion.paths import map_file

    try:
        spaces = load_toml(map_file("industry.toml")).data.get("spaces", {})
    except DataError:
        spaces = {}  # the loader names what is wrong with the file when the board is opened or saved
    kinds = tuple(sorted(spaces, key=lambda k: (k != "clear", k))) if isinstance(spaces, dict) else ()
    return GraphFormat("industry", MAPS[label], kinds or ("clear",), ("links",),
                       lambda kind: {"spaces": [kind]}, "companion.games.industry.data:load_map",
                       sites="locations", board=label, loader_args=(label,), spaces="spaces")


MAP_FORMATS: dict[str, tuple[str, ...]] = {"industry": ("Japan", "Minnesota")}
"""Games with several graph boards, and the names of their maps (the setup question's values)."""


def map_format(game: str, board: str) -> GraphFormat:
    """The format of ``game``'s map ``board`` (a name from ``MAP_FORMATS``)."""
    if game == "industry":
        return _industry(board)
    raise KeyError(game)


class GraphSheet:
    """Locations placed, named, moved and removed; links drawn between two of them (drawn again: removed)."""

    shape = "graph"

    def __init__(self, fmt: GraphFormat) -> None:
        self.fmt = fmt
        self.game = fmt.game
        self.title = fmt.title
        self.file = fmt.file
        self.brushes: tuple[str, ...] = fmt.kinds
        self.tools: tuple[str, ...] = ("location", "link", "spaces") if fmt.spaces else ("location", "link")

    def sites(self, doc: Doc) -> list[dict[str, Any]]:
        return list(doc.get(self.fmt.sites, []))

    def links(self, doc: Doc) -> list[list[str]]:
        table: Any = doc
        for part in self.fmt.links:
            table = table.get(part, {}) if isinstance(table, dict) else {}
        return list(table) if isinstance(table, list) else []

    def _set_links(self, doc: Doc, links: list[list[str]]) -> None:
        table = doc
        for part in self.fmt.links[:-1]:
            table = table.setdefault(part, {})
        table[self.fmt.links[-1]] = links

    def _site(self, doc: Doc, key: str) -> dict[str, Any]:
        for s in doc.get(self.fmt.sites, []):
            if s["key"] == key:
                return s
        raise Refused("that location is gone")

    def name_of(self, doc: Doc, selected: Any) -> str:
        try:
            return str(self._site(doc, selected)["name"])
        except Refused:
            return "the location"

    def hit(self, doc: Doc, x: float, y: float) -> str | None:
        """The location under board point (x, y), if any."""
        sites = self.sites(doc)
        if not sites:
            return None
        spacing = min((math.dist((a["x"], a["y"]), (b["x"], b["y"])) for i, a in enumerate(sites)
                       for b in sites[i + 1:]), default=20.0) or 20.0
        best = min(sites, key=lambda s: math.dist((s["x"], s["y"]), (x, y)))
        return best["key"] if math.dist((best["x"], best["y"]), (x, y)) <= HIT * spacing else None

    def picture(self, ed: Editor) -> Picture:
        doc = ed.doc
        sites = self.sites(doc)
        kind = self.fmt.kind_of
        marks: list[tuple[Any, str, str]] = [(s["key"], kind(s), s["name"]) for s in sites]
        if ed.selected is not None:
            marks.append((ed.selected, "selected", ""))
        paths: list[tuple[list[Any], str]] = [(list(pair), "link") for pair in self.links(doc)]
        side = [f"{len(sites)} locations, {len(paths)} links"]
        if ed.tool == "link" and ed.pending:
            side.append(f"link from {self.name_of(doc, ed.pending[0])}: click the other end")
        if self.fmt.spaces and ed.selected is not None:
            held: list[str] = next((s.get(self.fmt.spaces, []) for s in sites if s["key"] == ed.selected), [])
            side.append(f"{self.name_of(doc, ed.selected)}: {', '.join(held) or 'no spaces'}")
        return Picture("graph", cells={s["key"]: kind(s) for s in sites},
                       points={s["key"]: (float(s["x"]), float(s["y"])) for s in sites},
                       marks=marks, paths=paths, side=side)

    # -- edits ---------------------------------------------------------------------------------

    def add(self, doc: Doc, x: float, y: float, kind: str) -> tuple[Doc, str]:
        sites = doc.setdefault(self.fmt.sites, [])
        names = {s["name"] for s in sites}
        n = 1
        while f"Location {n}" in names:
            n += 1
        name = f"Location {n}"
        key = slug(name, {s["key"] for s in sites})
        kind_field = {} if self.fmt.spaces else {"kind": kind}
        sites.append({"key": key, "name": name, **kind_field, "x": round(x, 1), "y": round(y, 1),
                      **self.fmt.extras(kind)})
        return doc, key

    def move(self, doc: Doc, key: str, x: float, y: float) -> Doc:
        site = self._site(doc, key)
        site["x"], site["y"] = round(x, 1), round(y, 1)
        return doc

    def remove(self, doc: Doc, key: str) -> Doc:
        """The location and its links gone; refused while another part of the file names it (a ship
        space's ends, a railroad's home), which the group changes first, so a click never breaks the file."""
        name = self.name_of(doc, key)
        doc[self.fmt.sites] = [s for s in doc.get(self.fmt.sites, []) if s["key"] != key]
        self._set_links(doc, [pair for pair in self.links(doc) if key not in pair])
        if json.dumps(key) in json.dumps(doc):
            raise Refused(f"{name} is named elsewhere in {self.file}: change that there first")
        return doc

    def add_space(self, doc: Doc, key: str, kind: str) -> Doc:
        site = self._site(doc, key)
        site[self.fmt.spaces] = [*site.get(self.fmt.spaces, []), kind]
        return doc

    def drop_space(self, doc: Doc, key: str) -> Doc:
        site = self._site(doc, key)
        held = list(site.get(self.fmt.spaces, []))
        if not held:
            raise Refused(f"{site['name']} has no spaces")
        site[self.fmt.spaces] = held[:-1]
        return doc

    def rename(self, doc: Doc, selected: Any, name: str) -> tuple[Doc, Any]:
        if any(s["name"] == name and s["key"] != selected for s in self.sites(doc)):
            raise Refused(f"{name} is already on the map")
        site = self._site(doc, selected)
        site["name"] = name
        if json.dumps(doc).count(json.dumps(selected)) == 1:  # nothing names its key yet: the key follows the name
            site["key"] = slug(name, {s["key"] for s in self.sites(doc) if s is not site})
        return doc, site["key"]

    def toggle_link(self, doc: Doc, a: str, b: str) -> Doc:
        links = self.links(doc)
        kept = [pair for pair in links if set(pair) != {a, b}]
        self._set_links(doc, kept if len(kept) < len(links) else [*links, [a, b]])
        return doc

    # -- input -------------------------------------------------------------------------------------

    def press(self, ed: Editor, target: Any, button: int) -> None:
        if not (isinstance(target, tuple) and len(target) == 2):
            return
        key = self.hit(ed.doc, *target)
        if ed.tool == "location":
            if button == 3:
                if key is None:
                    raise Refused("no location there")
                ed.commit(self.remove(ed.edit(), key))
                ed.selected = None
            elif key is None:
                doc, key = self.add(ed.edit(), *target, ed.brush)
                ed.commit(doc)
                ed.start_name(key)
            else:
                ed.start_name(key)
                ed.pending = [key, target]  # a drag from here moves it
            return
        if ed.tool == "spaces":
            if key is None:
                raise Refused("spaces belong to a location: click one")
            ed.commit(self.drop_space(ed.edit(), key) if button == 3 else self.add_space(ed.edit(), key, ed.brush))
            ed.selected = key
            return
        if key is None:
            raise Refused("a link joins two locations: click one")
        if not ed.pending or ed.pending[0] == key:
            ed.pending = [key]
            ed.selected = key
            return
        ed.commit(self.toggle_link(ed.edit(), ed.pending[0], key))
        ed.pending, ed.selected = [], None

    def drag(self, ed: Editor, target: Any) -> None:
        if ed.tool == "location" and len(ed.pending) == 2 and isinstance(target, tuple):
            ed.typing = None
            ed.commit(self.move(ed.edit(), ed.pending[0], *target))

    def arrow(self, ed: Editor, dx: int, dy: int) -> None:
        return

    def validate(self, path: Path) -> None:
        from companion.games.registry import resolve

        resolve(self.fmt.loader)(path, *self.fmt.loader_args)
