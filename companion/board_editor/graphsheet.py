"""Graph boards (locations joined by links) as the editor edits them, generic over the file's layout.

A :class:`GraphFormat` says where a file keeps its locations (a list of tables with key, name, kind, x, y)
and its links (pairs of keys), which kinds a location may have, what a new location of a kind carries
besides (Allegheny: development levels and values, or a connection bonus) and which loader judges the file.
Age of Rail's Allegheny is one; an Age of Industry map in the same form is another line in ``FORMATS``.
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


def _allegheny_extras(kind: str) -> dict[str, Any]:
    return {"bonus": 0} if kind == "external" else {"levels": 1, "values": [1, 2]}


ALLEGHENY = GraphFormat("allegheny", "allegheny.toml", ("metro", "settlement", "external"), ("board", "links"),
                        _allegheny_extras, "companion.games.allegheny.data:load_board")

FORMATS: dict[str, GraphFormat] = {ALLEGHENY.game: ALLEGHENY}


class GraphSheet:
    """Locations placed, named, moved and removed; links drawn between two of them (drawn again: removed)."""

    shape = "graph"
    tools: tuple[str, ...] = ("location", "link")

    def __init__(self, fmt: GraphFormat) -> None:
        self.fmt = fmt
        self.game = fmt.game
        self.file = fmt.file
        self.brushes: tuple[str, ...] = fmt.kinds

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
        marks: list[tuple[Any, str, str]] = [(s["key"], s["kind"], s["name"]) for s in sites]
        if ed.selected is not None:
            marks.append((ed.selected, "selected", ""))
        paths: list[tuple[list[Any], str]] = [(list(pair), "link") for pair in self.links(doc)]
        side = [f"{len(sites)} locations, {len(paths)} links"]
        if ed.tool == "link" and ed.pending:
            side.append(f"link from {self.name_of(doc, ed.pending[0])}: click the other end")
        return Picture("graph", cells={s["key"]: s["kind"] for s in sites},
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
        sites.append({"key": key, "name": name, "kind": kind, "x": round(x, 1), "y": round(y, 1),
                      **self.fmt.extras(kind)})
        return doc, key

    def move(self, doc: Doc, key: str, x: float, y: float) -> Doc:
        site = self._site(doc, key)
        site["x"], site["y"] = round(x, 1), round(y, 1)
        return doc

    def remove(self, doc: Doc, key: str) -> Doc:
        doc[self.fmt.sites] = [s for s in doc.get(self.fmt.sites, []) if s["key"] != key]
        self._set_links(doc, [pair for pair in self.links(doc) if key not in pair])
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

        resolve(self.fmt.loader)(path)
