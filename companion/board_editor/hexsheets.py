"""The hex boards' files as the editor edits them: Kansas (kansas.toml) and Stormfury (stormfury.toml).

Both files name hexes the way the printed board is read, by picture column and row (odd columns half a hex
lower); the editor works in axial hexes like the rest of the box and converts at the file's edge. Edits keep
the files' own forms (Kansas' terrain picture and grid lines, Stormfury's land rows, road chains, start), so
the game's loader is the one judge of a board: what it refuses is refused at save with its own message.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, ClassVar

from companion.board_editor.model import Doc, Editor, Picture, Refused
from companion.hexgrid import DIRECTION_NAMES, Hex


def picture_of(h: Hex) -> tuple[int, int]:
    """(column, row) of an axial hex on the printed picture."""
    return h.q, h.r + (h.q - h.q % 2) // 2


def axial(col: int, row: int) -> Hex:
    return Hex(col, row - (col - col % 2) // 2)


def slug(name: str, taken: set[str]) -> str:
    """A file key from a name ("Lake Charles" -> "lake_charles"), unique among ``taken``."""
    base = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "place"
    key, n = base, 2
    while key in taken:
        key, n = f"{base}_{n}", n + 1
    return key


def _unique_name(stem: str, taken: set[str]) -> str:
    n = 1
    while f"{stem} {n}" in taken:
        n += 1
    return f"{stem} {n}"


class KansasSheet:
    """kansas.toml: terrain picture, cities and towns, the start grid's lines and the path key."""

    game = "kansas"
    title = "kansas"
    file = "kansas.toml"
    shape = "hex"
    tools: tuple[str, ...] = ("terrain", "city", "town", "north-south lines", "west-east lines", "path key")
    brushes: tuple[str, ...] = ("plain", "hill", "river", "off the map")
    LETTERS: ClassVar[dict[str, str]] = {"plain": "p", "hill": "h", "river": "r", "off the map": "."}
    KINDS: ClassVar[dict[str, str]] = {"p": "plain", "h": "hill", "r": "river"}
    COLOURS = ("red", "blue", "yellow", "purple", "black")
    SUMS = tuple(range(2, 13))

    # -- reading the document ------------------------------------------------------------------

    @staticmethod
    def rows(doc: Doc) -> list[str]:
        return list(doc.get("board", {}).get("terrain", []))

    def terrain(self, doc: Doc) -> dict[Hex, str]:
        found = {}
        for row, line in enumerate(self.rows(doc)):
            for col, letter in enumerate(line):
                if letter in self.KINDS:
                    found[axial(col, row)] = self.KINDS[letter]
        return found

    def editable(self, doc: Doc) -> list[Hex]:
        """The picture's hexes plus one column east and one row south, where the picture may grow."""
        rows = self.rows(doc)
        width = max((len(r) for r in rows), default=0)
        return [axial(c, r) for c in range(width + 1) for r in range(len(rows) + 1)]

    def places(self, doc: Doc) -> dict[Hex, tuple[str, str]]:
        """Hex -> (kind, name) of every city and town."""
        return {axial(p["col"], p["row"]): (kind[:-1] if kind == "towns" else "city", p["name"])
                for kind in ("cities", "towns") for p in doc.get(kind, [])}

    def _find(self, doc: Doc, h: Hex) -> tuple[str, int] | None:
        col, row = picture_of(h)
        for kind in ("cities", "towns"):
            for i, p in enumerate(doc.get(kind, [])):
                if (p["col"], p["row"]) == (col, row):
                    return kind, i
        return None

    def name_of(self, doc: Doc, selected: Any) -> str:
        found = self._find(doc, selected)
        return doc[found[0]][found[1]]["name"] if found else "the place"

    def picture(self, ed: Editor) -> Picture:
        doc = ed.doc
        terrain = self.terrain(doc)
        cells = {h: terrain.get(h, "") for h in self.editable(doc)}
        marks: list[tuple[Any, str, str]] = [(h, kind, name) for h, (kind, name) in self.places(doc).items()]
        grid = doc.get("grid", {})
        if ed.tool in ("north-south lines", "west-east lines"):
            for n, row in enumerate(grid.get("ns_rows", []), start=1):
                marks += [(h, "line", str(n)) for h in cells if picture_of(h)[1] == row and picture_of(h)[0] == 0]
            for n, col in enumerate(grid.get("we_columns", []), start=1):
                marks += [(h, "line", str(n)) for h in cells if picture_of(h) == (col, 0)]
            rows, cols = set(grid.get("ns_rows", [])), set(grid.get("we_columns", []))
            marks += [(h, "start", "") for h in terrain if picture_of(h)[1] in rows and picture_of(h)[0] in cols]
        if ed.selected is not None and ed.typing is not None:
            marks.append((ed.selected, "selected", ""))
        key = doc.get("path_key", {})
        side = [f"north-south lines on rows {grid.get('ns_rows', [])}",
                f"west-east lines on columns {grid.get('we_columns', [])}", "path key (2D6):"]
        for i, total in enumerate(self.SUMS):
            pointer = ">" if ed.tool == "path key" and i == ed.cursor else " "
            side.append(f"{pointer} {total:>2} = {key.get(str(total), '?')}")
        return Picture("hex", cells=cells, marks=marks, side=side)

    # -- edits -----------------------------------------------------------------------------------

    def paint(self, doc: Doc, h: Hex, brush: str) -> Doc:
        col, row = picture_of(h)
        if col < 0 or row < 0:
            raise Refused("the picture starts at the top left: paint east or south of it")
        rows = self.rows(doc)
        width = max([len(r) for r in rows] + [col + 1])
        rows += [""] * (row + 1 - len(rows))
        rows = [r.ljust(width, ".") for r in rows]
        letter = self.LETTERS[brush]
        if letter == "." and self._find(doc, h):
            raise Refused(f"{self.name_of(doc, h)} stands there: remove it first")
        rows[row] = rows[row][:col] + letter + rows[row][col + 1:]
        doc.setdefault("board", {})["terrain"] = rows
        return doc

    def add_place(self, doc: Doc, h: Hex, kind: str) -> Doc:
        if h not in self.terrain(doc):
            raise Refused("that hex is not on the map: paint it first")
        taken = {p["name"] for k in ("cities", "towns") for p in doc.get(k, [])}
        col, row = picture_of(h)
        if kind == "cities":
            n = len(doc.get("cities", []))
            entry = {"name": _unique_name("City", taken), "col": col, "row": row,
                     "colour": self.COLOURS[n % len(self.COLOURS)], "goods": 2}
        else:
            entry = {"name": _unique_name("Town", taken), "col": col, "row": row}
        doc.setdefault(kind, []).append(entry)
        return doc

    def remove_place(self, doc: Doc, h: Hex) -> Doc:
        found = self._find(doc, h)
        if found is None:
            raise Refused("no city or town there")
        del doc[found[0]][found[1]]
        return doc

    def rename(self, doc: Doc, selected: Any, name: str) -> tuple[Doc, Any]:
        found = self._find(doc, selected)
        if found is None:
            raise Refused("that place is gone")
        if any(p["name"] == name for k in ("cities", "towns") for p in doc.get(k, [])):
            raise Refused(f"{name} is already on the map")
        doc[found[0]][found[1]]["name"] = name
        return doc, selected

    def toggle_line(self, doc: Doc, key: str, number: int) -> Doc:
        grid = doc.setdefault("grid", {})
        lines = set(grid.get(key, []))
        lines ^= {number}
        grid[key] = sorted(lines)
        return doc

    def cycle_key(self, doc: Doc, total: int, step: int) -> Doc:
        key = doc.setdefault("path_key", {})
        now = key.get(str(total), DIRECTION_NAMES[0])
        key[str(total)] = DIRECTION_NAMES[(DIRECTION_NAMES.index(now) + step) % len(DIRECTION_NAMES)]
        return doc

    # -- input -------------------------------------------------------------------------------------

    def press(self, ed: Editor, target: Any, button: int) -> None:
        if ed.tool == "path key":
            if isinstance(target, int) and target in self.SUMS:  # a row of the side list
                ed.cursor = self.SUMS.index(target)
                ed.commit(self.cycle_key(ed.edit(), target, 1 if button == 1 else -1))
            return
        if not isinstance(target, Hex):
            return
        if ed.tool == "terrain":
            ed.commit(self.paint(ed.edit(), target, ed.brush))
        elif ed.tool in ("city", "town"):
            if button == 3:
                ed.commit(self.remove_place(ed.edit(), target))
            elif self._find(ed.doc, target) is None:
                ed.commit(self.add_place(ed.edit(), target, "cities" if ed.tool == "city" else "towns"))
                ed.start_name(target)
            else:
                ed.start_name(target)
        elif ed.tool in ("north-south lines", "west-east lines"):
            col, row = picture_of(target)
            key = "ns_rows" if ed.tool == "north-south lines" else "we_columns"
            ed.commit(self.toggle_line(ed.edit(), key, row if key == "ns_rows" else col))

    def drag(self, ed: Editor, target: Any) -> None:
        if ed.tool == "terrain" and isinstance(target, Hex):
            ed.commit(self.paint(ed.edit(), target, ed.brush))

    def arrow(self, ed: Editor, dx: int, dy: int) -> None:
        if ed.tool != "path key":
            return
        ed.cursor = (ed.cursor + dy) % len(self.SUMS)
        if dx:
            ed.commit(self.cycle_key(ed.edit(), self.SUMS[ed.cursor], dx))

    def validate(self, path: Path) -> None:
        from companion.games.kansas.data import load_board

        load_board(path)


class StormfurySheet:
    """stormfury.toml: land and gulf (land rows per column), cities and their spaces, roads, the start hex."""

    game = "stormfury"
    title = "stormfury"
    file = "stormfury.toml"
    shape = "hex"
    tools: tuple[str, ...] = ("terrain", "city", "space", "road", "start")
    brushes: tuple[str, ...] = ("land", "gulf")
    SPACE_NAMES = ("Port", "Power plant")

    @staticmethod
    def _hex(t: dict[str, int]) -> Hex:
        return Hex(t["q"], t["r"])

    def size(self, doc: Doc) -> tuple[int, int]:
        board = doc.get("board", {})
        return int(board.get("columns", 0)), int(board.get("rows", 0))

    def terrain(self, doc: Doc) -> dict[Hex, str]:
        columns, rows = self.size(doc)
        land = doc.get("board", {}).get("land_rows", [])
        return {axial(c, r): "land" if c < len(land) and r < land[c] else "ocean"
                for c in range(columns) for r in range(rows)}

    def spaces(self, doc: Doc) -> dict[Hex, tuple[int, int | None]]:
        """Hex -> (city index, infrastructure index or None for the population centre)."""
        found: dict[Hex, tuple[int, int | None]] = {}
        for i, city in enumerate(doc.get("cities", [])):
            found[self._hex(city["population_centre"])] = (i, None)
            for j, space in enumerate(city.get("infrastructure", [])):
                found[self._hex(space["hex"])] = (i, j)
        return found

    def name_of(self, doc: Doc, selected: Any) -> str:
        at = self.spaces(doc).get(selected)
        if at is None:
            return "the place"
        city = doc["cities"][at[0]]
        return city["name"] if at[1] is None else f"{city['name']} {city['infrastructure'][at[1]]['name']}"

    def picture(self, ed: Editor) -> Picture:
        doc = ed.doc
        marks: list[tuple[Any, str, str]] = []
        for h, (i, j) in self.spaces(doc).items():
            city = doc["cities"][i]
            marks.append((h, "city", city["name"]) if j is None else (h, "space", city["infrastructure"][j]["name"]))
        start = doc.get("board", {}).get("start")
        if start:
            marks.append((self._hex(start), "start", "start"))
        if ed.selected is not None:
            marks.append((ed.selected, "selected", ""))
        paths = [([self._hex(h) for h in road.get("hexes", [])], "road") for road in doc.get("roads", [])]
        if ed.pending:
            paths.append((list(ed.pending[1:]), "pending"))
        city = self._selected_city(ed)
        side = [f"{len(doc.get('cities', []))} cities, {len(doc.get('roads', []))} roads",
                f"city picked: {city['name'] if city else 'none'}"]
        if ed.pending:
            side.append(f"road from {doc['cities'][ed.pending[0]]['name']}: click hexes, then the other city")
        return Picture("hex", cells=self.terrain(doc), marks=marks, paths=paths, side=side)

    def _selected_city(self, ed: Editor) -> dict[str, Any] | None:
        at = self.spaces(ed.doc).get(ed.selected) if ed.selected is not None else None
        return ed.doc["cities"][at[0]] if at else None

    # -- edits -------------------------------------------------------------------------------------

    def paint(self, doc: Doc, h: Hex, brush: str) -> Doc:
        col, row = picture_of(h)
        columns, rows = self.size(doc)
        if not (0 <= col < columns and 0 <= row < rows):
            raise Refused("that hex is off the board")
        land = doc["board"]["land_rows"]
        # a column is land from the top down to its coast: land here moves the coast below it, gulf above it
        land[col] = max(land[col], row + 1) if brush == "land" else min(land[col], row)
        return doc

    def _free_land(self, doc: Doc, h: Hex) -> None:
        if self.terrain(doc).get(h) != "land":
            raise Refused("a city's spaces stand on land")
        if h in self.spaces(doc) or any(self._hex(x) == h for r in doc.get("roads", []) for x in r.get("hexes", [])):
            raise Refused("that hex is taken")

    def add_city(self, doc: Doc, h: Hex) -> Doc:
        self._free_land(doc, h)
        cities = doc.setdefault("cities", [])
        name = _unique_name("City", {c["name"] for c in cities})
        population = doc.get("rules", {}).get("start_population", 2)
        cities.append({"id": slug(name, {c["id"] for c in cities}), "name": name, "population": population,
                       "population_centre": h._asdict(), "infrastructure": []})
        return doc

    def add_space(self, doc: Doc, h: Hex, city_index: int) -> Doc:
        self._free_land(doc, h)
        spaces = doc["cities"][city_index].setdefault("infrastructure", [])
        names = {s["name"] for s in spaces}
        name = next((n for n in self.SPACE_NAMES if n not in names), None) or _unique_name("Space", names)
        spaces.append({"id": slug(name, {s["id"] for s in spaces} | {"population"}), "name": name,
                       "hex": h._asdict()})
        return doc

    def remove(self, doc: Doc, h: Hex) -> Doc:
        """A population centre takes its city and the city's roads with it; a space goes alone; a road hex
        takes its road."""
        at = self.spaces(doc).get(h)
        if at is not None:
            i, j = at
            if j is None:
                gone = doc["cities"].pop(i)["id"]
                doc["roads"] = [r for r in doc.get("roads", []) if gone not in r["ends"]]
            else:
                del doc["cities"][i]["infrastructure"][j]
            return doc
        roads = doc.get("roads", [])
        for k, road in enumerate(roads):
            if any(self._hex(x) == h for x in road.get("hexes", [])):
                del roads[k]
                return doc
        raise Refused("nothing to remove there")

    def rename(self, doc: Doc, selected: Any, name: str) -> tuple[Doc, Any]:
        at = self.spaces(doc).get(selected)
        if at is None:
            raise Refused("that place is gone")
        i, j = at
        if j is None:
            if any(c["name"] == name for c in doc["cities"]):
                raise Refused(f"{name} is already on the map")
            city = doc["cities"][i]
            city["name"] = name
            if not any(city["id"] in r["ends"] for r in doc.get("roads", [])):  # no road names it yet
                city["id"] = slug(name, {c["id"] for c in doc["cities"] if c is not city})
        else:
            doc["cities"][i]["infrastructure"][j]["name"] = name
        return doc, selected

    def add_road(self, doc: Doc, first: int, chain: list[Hex], second: int) -> Doc:
        a, b = doc["cities"][first]["id"], doc["cities"][second]["id"]
        roads = doc.setdefault("roads", [])
        roads.append({"id": slug(f"{a}-{b}".replace("_", "-"), {r["id"] for r in roads}).replace("_", "-"),
                      "ends": [a, b], "hexes": [h._asdict() for h in chain]})
        return doc

    def set_start(self, doc: Doc, h: Hex) -> Doc:
        if self.terrain(doc).get(h) != "ocean":
            raise Refused("the hurricane starts in the gulf")
        doc["board"]["start"] = h._asdict()
        return doc

    # -- input ---------------------------------------------------------------------------------------

    def press(self, ed: Editor, target: Any, button: int) -> None:
        if not isinstance(target, Hex):
            return
        if button == 3:
            if ed.tool in ("city", "space", "road"):
                ed.commit(self.remove(ed.edit(), target))
                ed.selected = None
            return
        at = self.spaces(ed.doc).get(target)
        if ed.tool == "terrain":
            ed.commit(self.paint(ed.edit(), target, ed.brush))
        elif ed.tool == "start":
            ed.commit(self.set_start(ed.edit(), target))
        elif ed.tool in ("city", "space") and at is not None:
            ed.start_name(target)
        elif ed.tool == "city":
            ed.commit(self.add_city(ed.edit(), target))
            ed.start_name(target)
        elif ed.tool == "space":
            city = self.spaces(ed.doc).get(ed.selected) if ed.selected is not None else None
            if city is None:
                raise Refused("pick the city first (click its population centre with the city tool)")
            ed.commit(self.add_space(ed.edit(), target, city[0]))
            ed.start_name(target)
        elif ed.tool == "road":
            self._road(ed, target, at)

    def _road(self, ed: Editor, h: Hex, at: tuple[int, int | None] | None) -> None:
        """A road: the first city, then its hexes one by one (each next to the last), then the second city."""
        if at is not None:
            if not ed.pending or at[0] == ed.pending[0]:
                ed.pending = [at[0]]
            else:
                chain = ed.pending[1:]
                if not chain:
                    raise Refused("a road has at least one hex between its cities")
                ed.commit(self.add_road(ed.edit(), ed.pending[0], chain, at[0]))
                ed.pending = []
            return
        if not ed.pending:
            raise Refused("a road starts at a city: click one of its spaces")
        if self.terrain(ed.doc).get(h) != "land":
            raise Refused("roads run over land")
        if len(ed.pending) > 1 and h.distance(ed.pending[-1]) != 1:
            raise Refused("a road is a chain: click a hex next to the last one")
        if h in ed.pending[1:]:
            raise Refused("the road already runs there")
        ed.pending.append(h)

    def drag(self, ed: Editor, target: Any) -> None:
        if ed.tool == "terrain" and isinstance(target, Hex):
            ed.commit(self.paint(ed.edit(), target, ed.brush))

    def arrow(self, ed: Editor, dx: int, dy: int) -> None:
        return

    def validate(self, path: Path) -> None:
        from companion.games.stormfury.data import load_board
        from companion.paths import map_file

        load_board(path, map_file("stormfury_cards.toml"))
