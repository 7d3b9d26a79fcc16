"""The editor's model: a board document, the edits made to it, and undo; no pygame, no files.

The document is the dict the game's TOML file reads as, so what is saved is exactly what the game's own
loader validates. Every edit is a pure function of the document (a *sheet* per game knows them, see
``hexsheets`` and ``graphsheet``); the editor keeps the documents before each edit, so undo and redo are
swapping documents. A drag (painting terrain, moving a location) is one stroke and one undo step.
The window (``window.py``) only turns mouse and keys into the calls below, so a test can drive either.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Protocol

Doc = dict[str, Any]
BRUSH_TOOLS = ("terrain", "location", "spaces")
"""The tools that place what the brush says (a terrain, a location's kind, a space's kind)."""


class Refused(Exception):
    """An edit that cannot be made here (a city off the map, a road that jumps): the message says why."""


@dataclass(frozen=True)
class Picture:
    """What the window draws of a document, whatever the game: hexes or locations, marks, paths, side text."""

    shape: str
    """"hex" or "graph"."""
    cells: dict[Any, str] = field(default_factory=dict)
    """Hex -> terrain kind ("" for an editable hex off the map); for a graph: location key -> kind."""
    points: dict[str, tuple[float, float]] = field(default_factory=dict)
    """A graph's locations in board units."""
    marks: list[tuple[Any, str, str]] = field(default_factory=list)
    """(place, style, label): style is city, town, space, start, line or selected."""
    paths: list[tuple[list[Any], str]] = field(default_factory=list)
    """(places in order, style): roads (hexes) and links (two location keys); style road, link or pending."""
    side: list[str] = field(default_factory=list)
    """Lines for the side panel: the tool's state in words."""


class Sheet(Protocol):
    """One game's board file as the editor sees it."""

    game: str
    title: str
    """The board as the command line names it: the game key, and ``--map NAME`` for a game with several."""
    file: str
    shape: str
    tools: tuple[str, ...]
    brushes: tuple[str, ...]

    def picture(self, ed: Editor) -> Picture: ...

    def press(self, ed: Editor, target: Any, button: int) -> None:
        """A click on ``target`` (a Hex, a location key, or an (x, y) in board units) with the current tool."""
        ...

    def drag(self, ed: Editor, target: Any) -> None: ...

    def arrow(self, ed: Editor, dx: int, dy: int) -> None:
        """Arrow keys, for tools that have a list (the path key)."""
        ...

    def rename(self, doc: Doc, selected: Any, name: str) -> tuple[Doc, Any]:
        """The document with the place renamed, and how the place is selected now (a key may follow its name)."""
        ...

    def name_of(self, doc: Doc, selected: Any) -> str: ...

    def validate(self, path: Any) -> None:
        """Load ``path`` with the game's own loader (DataError names file and field)."""
        ...


@dataclass
class Underlay:
    """A photo of the printed board under the editor's drawing: its top-left corner and scale, in window pixels."""

    x: float = 0.0
    y: float = 0.0
    scale: float = 1.0

    def zoom(self, factor: float, about: tuple[float, float]) -> None:
        """Scale by ``factor`` keeping the pixel under ``about`` (the mouse) in place."""
        factor = max(0.05 / self.scale, min(factor, 20.0 / self.scale))
        ax, ay = about
        self.x = ax - (ax - self.x) * factor
        self.y = ay - (ay - self.y) * factor
        self.scale *= factor


class Editor:
    """The board being edited: document, tool, selection, the name being typed, undo and redo."""

    def __init__(self, sheet: Sheet, doc: Doc) -> None:
        self.sheet = sheet
        self.doc: Doc = copy.deepcopy(doc)
        self.tool = sheet.tools[0]
        self.brush = sheet.brushes[0] if sheet.brushes else ""
        self.selected: Any = None
        self.typing: str | None = None
        """The name being typed for ``selected`` (None: not naming)."""
        self.pending: list[Any] = []
        """A road or link under way: the places clicked so far."""
        self.cursor = 0
        """The row picked in a list tool (the path key's dice sum)."""
        self.message = ""
        self.underlay = Underlay()
        self.saved_doc: Doc | None = None
        self._undo: list[Doc] = []
        self._redo: list[Doc] = []
        self._stroke = False
        self._stroke_started = False

    # -- edits -----------------------------------------------------------------------------------

    def commit(self, doc: Doc) -> None:
        """Make ``doc`` the document; the one before goes on the undo stack (once per stroke)."""
        if doc == self.doc:
            return
        if not (self._stroke and self._stroke_started):
            self._undo.append(self.doc)
            self._redo.clear()
            self._stroke_started = self._stroke
        self.doc = doc

    def edit(self) -> Doc:
        """A copy of the document to change and pass to :meth:`commit`."""
        return copy.deepcopy(self.doc)

    def undo(self) -> bool:
        if not self._undo:
            self.message = "nothing to undo"
            return False
        self._redo.append(self.doc)
        self.doc = self._undo.pop()
        self._after_history()
        return True

    def redo(self) -> bool:
        if not self._redo:
            self.message = "nothing to redo"
            return False
        self._undo.append(self.doc)
        self.doc = self._redo.pop()
        self._after_history()
        return True

    def _after_history(self) -> None:
        self.typing = None
        self.pending = []
        self.message = ""

    @property
    def changed(self) -> bool:
        return bool(self._undo) and self.doc != self.saved_doc

    # -- input -----------------------------------------------------------------------------------

    def set_tool(self, tool: str) -> None:
        if tool not in self.sheet.tools:
            raise ValueError(tool)
        self.tool = tool
        self.pending = []
        self.typing = None
        self.cursor = 0
        self.message = ""

    def next_tool(self, step: int = 1) -> None:
        tools = self.sheet.tools
        self.set_tool(tools[(tools.index(self.tool) + step) % len(tools)])

    def next_brush(self, step: int = 1) -> None:
        if self.sheet.brushes:
            b = self.sheet.brushes
            self.brush = b[(b.index(self.brush) + step) % len(b)]

    def press(self, target: Any, button: int = 1) -> None:
        """Mouse down on ``target`` (button 1 places or picks, 3 removes); starts a stroke."""
        self.finish_name()
        self.message = ""
        self._stroke, self._stroke_started = True, False
        self._act(lambda: self.sheet.press(self, target, button))

    def drag(self, target: Any) -> None:
        if self._stroke:
            self._act(lambda: self.sheet.drag(self, target))

    def release(self) -> None:
        self._stroke = self._stroke_started = False

    def arrow(self, dx: int, dy: int) -> None:
        self._act(lambda: self.sheet.arrow(self, dx, dy))

    def _act(self, action: Any) -> None:
        try:
            action()
        except Refused as exc:
            self.message = str(exc)

    def start_name(self, selected: Any) -> None:
        """Select ``selected`` and start typing its name (Enter keeps it, Esc drops what was typed)."""
        self.selected = selected
        self.typing = ""

    def type_text(self, text: str) -> None:
        if self.typing is not None:
            self.typing += text

    def backspace(self) -> None:
        if self.typing:
            self.typing = self.typing[:-1]

    def finish_name(self) -> None:
        """Enter: the typed name replaces the selected place's (empty: the name stays)."""
        if self.typing is None:
            return
        name, self.typing = self.typing.strip(), None
        if name and self.selected is not None:
            self._act(lambda: self._rename(name))

    def _rename(self, name: str) -> None:
        doc, self.selected = self.sheet.rename(self.edit(), self.selected, name)
        self.commit(doc)

    def escape(self) -> bool:
        """Esc drops the name being typed or the road under way; False when there was nothing to drop."""
        if self.typing is not None or self.pending:
            self.typing, self.pending = None, []
            return True
        return False

    def picture(self) -> Picture:
        return self.sheet.picture(self)

    def status(self) -> str:
        """One line for the window's foot: the tool, brush, what is being typed, the last refusal."""
        if self.typing is not None:
            return f"Name of {self.sheet.name_of(self.doc, self.selected)}: {self.typing}_  (Enter keeps, Esc drops)"
        brush = f" ({self.brush.replace('_', ' ')})" if self.tool in BRUSH_TOOLS else ""
        return self.message or f"{self.tool}{brush}"
