"""The editor's window: the board drawn over an optional photo of the printed one, mouse and keys in.

A thin layer over :class:`~companion.board_editor.model.Editor`: each pygame event becomes one model call
(a click on a hex, a typed name, undo), and each step draws the model's :class:`Picture` afresh. Tests post
synthetic events (``pygame.event.post``) and call :meth:`EditorWindow.step`, under SDL's offscreen driver.

Mouse: left click places or picks with the tool, drag paints terrain or moves a location, right click removes.
Keys (when no name is being typed): 1-9 pick a tool, Tab the next terrain or kind, arrows walk a list tool
(the path key), P the photo (drag moves it, the wheel scales it), Ctrl+Z undo, Ctrl+Y redo, Ctrl+S save,
Esc drops what is under way, or leaves (twice with unsaved changes). Typing a name: letters, Backspace,
Enter keeps it, Esc drops it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pygame

from companion.board_editor.files import save
from companion.board_editor.model import BRUSH_TOOLS, Editor, Picture
from companion.errors import CompanionError
from companion.hexgrid import Hex
from companion.views.projector import palette, text
from companion.views.projector.shapes.base import Rect
from companion.views.projector.shapes.hexes import HexShape

SIDE = 0.26
"""Share of the window's width kept for the side panel."""
MOVE_SLOP = 4
"""Pixels the mouse must travel with a button held before a click becomes a drag."""
EMPTY: palette.Colour = (70, 76, 90)
MARK_COLOURS: dict[str, palette.Colour] = {"city": palette.CITY, "town": (220, 210, 180), "space": (230, 159, 0),
                                            "start": (86, 180, 233), "line": (170, 175, 185),
                                            "metro": palette.CITY, "settlement": (220, 210, 180),
                                            "external": (0, 158, 115), "clear": (220, 210, 180),
                                            "port": (86, 180, 233), "ironworks": (213, 94, 0),
                                            "mine": (120, 120, 120), "any": (204, 121, 167)}


class EditorWindow:
    """One editor on one pygame surface; ``step()`` handles the queued events and redraws."""

    def __init__(self, editor: Editor, surface: Any, *, folder: Path | None = None,
                 photo: Any = None, source: str = "the shipped board") -> None:
        self.editor = editor
        self.surface = surface
        self.folder = folder
        self.source = source
        self.photo = photo
        self.photo_mode = False
        self.saved: Path | None = None
        self.done = False
        self._leaving = False
        w, h = surface.get_size()
        self.map = Rect(0, 0, round(w * (1 - SIDE)), h - 36)
        self.side = Rect(self.map.w, 0, w - self.map.w, h)
        self._hot: list[tuple[pygame.Rect, Callable[[], None]]] = []
        self._down: tuple[int, int] | None = None
        self._dragging = False
        self._fit()
        if photo is not None:  # the photo fills the map area at first, keeping its proportions
            pw, ph = photo.get_size()
            editor.underlay.scale = min(self.map.w / pw, self.map.h / ph)
        pygame.key.start_text_input()

    # -- geometry ----------------------------------------------------------------------------------

    def _fit(self) -> None:
        """Fix the board's geometry for the session, so nothing moves under the mouse while editing."""
        pic = self.editor.picture()
        self._cells = frozenset(pic.cells)
        if pic.shape == "hex":
            self.hexes = HexShape.fit(list(pic.cells), Rect(self.map.x + 20, self.map.y + 20, self.map.w - 40,
                                                            self.map.h - 40))
            return
        xs = [p[0] for p in pic.points.values()] or [0.0, 100.0]
        ys = [p[1] for p in pic.points.values()] or [0.0, 100.0]
        span = max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
        self.scale = min((self.map.w - 120) / max(max(xs) - min(xs), span / 4),
                         (self.map.h - 120) / max(max(ys) - min(ys), span / 4))
        self.offset = (self.map.x + self.map.w / 2 - (min(xs) + max(xs)) / 2 * self.scale,
                       self.map.y + self.map.h / 2 - (min(ys) + max(ys)) / 2 * self.scale)

    def centre(self, place: Any) -> tuple[float, float]:
        """Pixel centre of a hex, a location key or a board point (what a test clicks)."""
        if isinstance(place, Hex):
            return self.hexes.centre(place)
        pic = self.editor.picture()
        x, y = pic.points[place] if isinstance(place, str) else place
        return self.offset[0] + x * self.scale, self.offset[1] + y * self.scale

    def target(self, pos: tuple[int, int]) -> Any:
        """What the mouse is over: a hex of the editable board, or a point in board units."""
        if self.editor.sheet.shape == "hex":
            h = self.hexes.at(*pos)
            return h if h in self._cells else None
        return ((pos[0] - self.offset[0]) / self.scale, (pos[1] - self.offset[1]) / self.scale)

    # -- events --------------------------------------------------------------------------------------

    def step(self) -> bool:
        """Handle every queued event, draw, show; False once the window is done."""
        for event in pygame.event.get():
            self.handle(event)
        self.draw()
        pygame.display.flip()
        return not self.done

    def run(self, fps: int = 30) -> None:
        clock = pygame.time.Clock()
        while self.step():
            clock.tick(fps)

    def handle(self, event: Any) -> None:
        ed = self.editor
        if event.type == pygame.QUIT:
            self.done = True
        elif event.type == pygame.TEXTINPUT:
            if ed.typing is not None:
                ed.type_text(event.text)
            else:
                self._shortcut(event.text)
        elif event.type == pygame.KEYDOWN:
            self._key(event)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            self._press(event.pos, event.button)
        elif event.type == pygame.MOUSEMOTION and self._down is not None:
            self._motion(event.pos, event.rel)
        elif event.type == pygame.MOUSEBUTTONUP and event.button in (1, 3):
            self._down = None
            self._dragging = False
            ed.release()
        elif event.type == pygame.MOUSEWHEEL and self.photo_mode:
            ed.underlay.zoom(1.1 ** event.y, pygame.mouse.get_pos())

    def _press(self, pos: tuple[int, int], button: int) -> None:
        for rect, action in self._hot:
            if rect.collidepoint(pos):
                action()
                return
        if not self.map.x <= pos[0] < self.map.x + self.map.w or not self.map.y <= pos[1] < self.map.y + self.map.h:
            return
        self._down, self._dragging = pos, False
        if self.photo_mode:
            return
        target = self.target(pos)
        if target is not None:
            self.editor.press(target, button)
            self._leaving = False

    def _motion(self, pos: tuple[int, int], rel: tuple[int, int]) -> None:
        if self.photo_mode:
            self.editor.underlay.x += rel[0]
            self.editor.underlay.y += rel[1]
            return
        if self._down is not None and not self._dragging:
            self._dragging = math.dist(pos, self._down) >= MOVE_SLOP
        target = self.target(pos)
        if self._dragging and target is not None:
            self.editor.drag(target)

    def _key(self, event: Any) -> None:
        ed = self.editor
        ctrl = bool(event.mod & pygame.KMOD_CTRL)
        if ed.typing is not None and not ctrl:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                ed.finish_name()
            elif event.key == pygame.K_BACKSPACE:
                ed.backspace()
            elif event.key == pygame.K_ESCAPE:
                ed.escape()
            return
        if ctrl and event.key == pygame.K_s:
            self.save()
        elif ctrl and event.key == pygame.K_z:
            ed.redo() if event.mod & pygame.KMOD_SHIFT else ed.undo()
        elif ctrl and event.key == pygame.K_y:
            ed.redo()
        elif event.key == pygame.K_ESCAPE:
            if ed.escape():
                return
            if ed.changed and not self._leaving:
                self._leaving = True
                ed.message = "not saved: Ctrl+S saves, Esc again leaves without saving"
            else:
                self.done = True
        elif event.key == pygame.K_TAB:
            ed.next_brush(-1 if event.mod & pygame.KMOD_SHIFT else 1)
        elif event.key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            dx = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1}.get(event.key, 0)
            dy = {pygame.K_UP: -1, pygame.K_DOWN: 1}.get(event.key, 0)
            if self.photo_mode:
                ed.underlay.x += 4 * dx
                ed.underlay.y += 4 * dy
            else:
                ed.arrow(dx, dy)

    def _shortcut(self, char: str) -> None:
        tools = self.editor.sheet.tools
        if char.isdigit() and 1 <= int(char) <= len(tools):
            self.photo_mode = False
            self.editor.set_tool(tools[int(char) - 1])
        elif char.lower() == "p" and self.photo is not None:
            self.photo_mode = not self.photo_mode

    def save(self) -> Path | None:
        """Ctrl+S: the board written and accepted by the game's loader, or the loader's reason on screen."""
        try:
            self.saved = save(self.editor, self.folder, self.source)
        except CompanionError as exc:
            self.editor.message = f"not saved: {exc}"
            return None
        self.editor.message = f"saved {self.saved}"
        self._leaving = False
        return self.saved

    # -- drawing ---------------------------------------------------------------------------------------

    def draw(self) -> None:
        s = self.surface
        s.fill(palette.BACKGROUND)
        ed = self.editor
        if self.photo is not None:
            u = ed.underlay
            size = (max(1, round(self.photo.get_width() * u.scale)), max(1, round(self.photo.get_height() * u.scale)))
            s.blit(pygame.transform.smoothscale(self.photo, size), (round(u.x), round(u.y)))
        pic = ed.picture()
        if pic.shape == "hex":
            self._draw_hexes(pic)
        self._draw_paths(pic)
        self._draw_marks(pic)
        self._draw_side(pic)

    def _draw_hexes(self, pic: Picture) -> None:
        layer = pygame.Surface(self.surface.get_size(), pygame.SRCALPHA)
        alpha = 110 if self.photo is not None else 255
        for h, kind in pic.cells.items():
            corners = self.hexes.outline(h)
            if kind:
                pygame.draw.polygon(layer, (*palette.terrain(kind), alpha), corners)
            pygame.draw.polygon(layer, (*(palette.GRID if kind else EMPTY), 255), corners, 1)
        self.surface.blit(layer, (0, 0))

    def _draw_paths(self, pic: Picture) -> None:
        width = max(2, round(self._unit() * 0.25))
        for places, style in pic.paths:
            points = [self.centre(p) for p in places if self._known(p, pic)]
            colour = {"road": palette.ROAD, "link": palette.TEXT_DIM}.get(style, palette.FORT)
            if len(points) >= 2:
                pygame.draw.lines(self.surface, colour, False, points, width)
            for p in points if style != "link" else []:
                pygame.draw.circle(self.surface, colour, (round(p[0]), round(p[1])), width)

    def _known(self, place: Any, pic: Picture) -> bool:
        return isinstance(place, Hex) or place in pic.points

    def _unit(self) -> float:
        return self.hexes.unit if self.editor.sheet.shape == "hex" else 22.0

    def _draw_marks(self, pic: Picture) -> None:
        unit = self._unit()
        size = max(12, round(unit * 0.7))
        for place, style, label in pic.marks:
            if not self._known(place, pic):
                continue
            x, y = self.centre(place)
            r = round(unit * 0.4)
            if style == "selected":
                pygame.draw.circle(self.surface, palette.FORT, (round(x), round(y)), round(unit * 0.8), 3)
                continue
            colour = MARK_COLOURS.get(style, palette.CITY)
            if style in ("start", "line"):
                pygame.draw.circle(self.surface, colour, (round(x), round(y)), r, 3)
            elif style in ("town", "space", "settlement", "clear", "mine"):
                pygame.draw.rect(self.surface, colour, (round(x) - r // 2, round(y) - r // 2, r, r))
            else:
                pygame.draw.circle(self.surface, colour, (round(x), round(y)), r)
                pygame.draw.circle(self.surface, palette.CITY_EDGE, (round(x), round(y)), r, 2)
            if label:
                text.draw(self.surface, label, (x, y - r - 2), size, palette.TEXT, anchor="midbottom", halo=True)

    def _draw_side(self, pic: Picture) -> None:
        s, ed, side = self.surface, self.editor, self.side
        pygame.draw.rect(s, palette.PANEL, side.as_tuple())
        self._hot = []
        line = max(16, round(s.get_height() * 0.028))
        x, y = side.x + 12, 12
        text.draw(s, f"Board: {ed.sheet.title.replace(' --map ', ' ')}", (x, y), line, palette.TEXT, bold=True)
        y += line + 8
        for i, tool in enumerate(ed.sheet.tools, start=1):
            on = tool == ed.tool and not self.photo_mode
            rect = text.draw(s, f"{i} {tool}", (x, y), line, palette.FORT if on else palette.TEXT)
            self._hot.append((pygame.Rect(side.x, y, side.w, rect.h), partial(self._pick_tool, tool)))
            y += line + 2
        if self.photo is not None:
            text.draw(s, "P photo (drag, wheel)", (x, y), line, palette.FORT if self.photo_mode else palette.TEXT)
            y += line + 2
        if ed.tool in BRUSH_TOOLS:
            y += 6
            for brush in ed.sheet.brushes:
                rect = text.draw(s, f"  {brush}", (x, y), line, palette.FORT if brush == ed.brush else palette.TEXT_DIM)
                self._hot.append((pygame.Rect(side.x, y, side.w, rect.h), partial(self._pick_brush, brush)))
                y += line + 2
        y += 8
        for row in pic.side:
            rect = text.draw(s, row, (x, y), max(12, line - 4), palette.TEXT_DIM, max_width=side.w - 20)
            total = row.strip(" >").split(" =")[0]
            if ed.tool == "path key" and " = " in row and total.isdigit():
                self._hot.append((pygame.Rect(side.x, y, side.w, rect.h),
                                  partial(ed.press, int(total), 1)))
            y += line - 2
        colour = palette.DAMAGE if ed.message.startswith("not saved") else palette.TEXT
        text.draw(s, ed.status(), (8, s.get_height() - 8), max(12, line - 4), colour, anchor="bottomleft",
                  max_width=s.get_width() - 16)

    def _pick_tool(self, tool: str) -> None:
        self.photo_mode = False
        self.editor.set_tool(tool)

    def _pick_brush(self, brush: str) -> None:
        self.editor.brush = brush
