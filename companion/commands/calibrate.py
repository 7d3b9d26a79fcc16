"""``companion calibrate GAME``: teach the box where its projector's light falls on the printed board.

The projector shows four marks, each by a named place of the board (the places nearest the map's corners).
The group moves each mark until it sits on that place of the real board: arrows or the box's buttons
(ROLL toggles fine steps), or drag it with the mouse; OK takes the next, BACK the one before (on the first:
leave without saving). The four pairs (where the box draws the place, where it lies on the table) fix the
perspective transform (companion/views/projector/warp.py); they are written per game to the calibration file
(``[projector] calibration``, default ``<configuration directory>/calibration.toml``) and from then on the
box draws that game's marks onto the board itself.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import queue
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from companion.errors import CompanionError

STEP, FINE = 8, 1
"""Pixels a mark moves per press, and with fine steps on."""
PICK = 60
"""A mouse press within this many pixels of a mark takes it."""
MOVES = {"UP": (0, -1), "DOWN": (0, 1), "LEFT": (-1, 0), "RIGHT": (1, 0)}


def register(subparsers: argparse._SubParsersAction) -> None:
    from companion.games import game_keys

    parser = subparsers.add_parser("calibrate", help="fit the projector's picture onto the printed board")
    parser.add_argument("game", help=f"game key ({', '.join(game_keys())})")
    parser.add_argument("--config", type=Path, default=None, metavar="FILE", help="configuration file (TOML)")
    parser.set_defaults(func=main)


@dataclass
class Marks:
    """The four marks being moved: pure state the buttons, keys and mouse all change the same way."""

    names: tuple[str, ...]
    src: tuple[tuple[float, float], ...]
    """Where the box draws each place (frame pixels)."""
    size: tuple[int, int]
    dst: list[list[float]] = field(default_factory=list)
    """Where each mark is now (projector pixels); starts on ``src``."""
    active: int = 0
    fine: bool = False
    done: bool = False
    cancelled: bool = False
    message: str = ""

    def __post_init__(self) -> None:
        if not self.dst:
            self.dst = [list(p) for p in self.src]

    def press(self, button: str) -> None:
        """A button (or its key): arrows move the active mark, ROLL fine steps, OK next, BACK previous."""
        self.message = ""
        if button in MOVES:
            dx, dy = MOVES[button]
            step = FINE if self.fine else STEP
            self.move_to(self.active, (self.dst[self.active][0] + dx * step, self.dst[self.active][1] + dy * step))
        elif button == "ROLL":
            self.fine = not self.fine
        elif button == "OK":
            if self.active < len(self.names) - 1:
                self.active += 1
            else:
                self._finish()
        elif button == "BACK":
            if self.active == 0:
                self.cancelled = True
            else:
                self.active -= 1

    def _finish(self) -> None:
        from companion.views.projector.warp import fit_homography

        try:
            fit_homography(self.src, [tuple(p) for p in self.dst])
        except (ValueError, ArithmeticError):
            self.active = 0
            self.message = "three marks are in a line: move them onto their places again"
            return
        self.done = True

    def move_to(self, index: int, pos: Sequence[float]) -> None:
        w, h = self.size
        self.dst[index] = [min(max(float(pos[0]), 0.0), w - 1.0), min(max(float(pos[1]), 0.0), h - 1.0)]

    def pick(self, pos: Sequence[float]) -> bool:
        """A mouse press: the nearest mark within reach becomes the active one."""
        nearest = min(range(len(self.dst)), key=lambda i: math.dist(self.dst[i], pos))
        if math.dist(self.dst[nearest], pos) > PICK:
            return False
        self.active = nearest
        return True

    def pairs(self) -> list[tuple[float, float, float, float]]:
        return [(s[0], s[1], d[0], d[1]) for s, d in zip(self.src, self.dst, strict=True)]

    def prompt(self) -> str:
        return (self.message or f"Mark {self.active + 1} of {len(self.names)}: move it onto "
                f"{self.names[self.active]}. Arrows or drag; {'fine' if self.fine else 'big'} steps (ROLL); "
                "OK next, BACK before.")


def known_places(renderer: Any, game: Any, state: Any) -> tuple[tuple[str, ...], tuple[tuple[float, float], ...]]:
    """Four named places of the board, the ones nearest the map area's corners, and where the box draws them."""
    board = renderer.board_for(game, state)
    layout = board.layout
    spots = [(p.name, layout.centre(p.at)) for p in board.data.places if p.label and layout.holds(p.at)]
    if len(spots) < 4:
        raise CompanionError(f"calibrate: the {game.key} board has fewer than four named places to aim at")
    m = layout.map
    corners = [(m.x, m.y), (m.x + m.w, m.y), (m.x + m.w, m.y + m.h), (m.x, m.y + m.h)]
    names: list[str] = []
    points: list[tuple[float, float]] = []
    for corner in corners:
        name, at = min((s for s in spots if s[0] not in names), key=lambda s: math.dist(s[1], corner))
        names.append(name)
        points.append((float(at[0]), float(at[1])))
    return tuple(names), tuple(points)


def draw(surface: Any, marks: Marks) -> None:
    """Black but for the four marks (the active one bright, with its place's name) and the prompt."""
    import pygame

    from companion.views.projector import palette, text

    surface.fill((0, 0, 0))
    h = surface.get_height()
    r = max(12, h // 40)
    for i, (x, y) in enumerate(marks.dst):
        colour = palette.FORT if i == marks.active else palette.TEXT_DIM
        centre = (round(x), round(y))
        pygame.draw.circle(surface, colour, centre, r, 3)
        pygame.draw.line(surface, colour, (centre[0] - 2 * r, centre[1]), (centre[0] + 2 * r, centre[1]), 1)
        pygame.draw.line(surface, colour, (centre[0], centre[1] - 2 * r), (centre[0], centre[1] + 2 * r), 1)
        label = f"{i + 1} {marks.names[i]}" if i == marks.active else str(i + 1)
        text.draw(surface, label, (x + r + 4, y - r - 4), text.px(text.SMALL, h), colour, anchor="bottomleft")
    text.draw(surface, marks.prompt(), (surface.get_width() / 2, h / 2), text.px(text.SMALL, h), palette.TEXT,
              anchor="center", max_width=surface.get_width() - 40)


class CalibrationWindow:
    """The marks on a pygame surface; ``step()`` takes queued events (keys, mouse, the box's buttons)."""

    KEYS: ClassVar[dict[str, str]] = {
        "K_UP": "UP", "K_DOWN": "DOWN", "K_LEFT": "LEFT", "K_RIGHT": "RIGHT", "K_RETURN": "OK", "K_KP_ENTER": "OK",
        "K_ESCAPE": "BACK", "K_BACKSPACE": "BACK", "K_SPACE": "ROLL"}

    def __init__(self, marks: Marks, surface: Any, buttons: queue.Queue[Any] | None = None) -> None:
        import pygame

        self.marks = marks
        self.surface = surface
        self.buttons = buttons
        self._keys = {getattr(pygame, k): v for k, v in self.KEYS.items()}
        self._dragging = False

    def step(self) -> bool:
        """Handle what arrived, draw; False once the marks are done or the group left."""
        import pygame

        from companion.inputs import Press

        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.marks.cancelled = True
            elif event.type == pygame.KEYDOWN and event.key in self._keys:
                self.marks.press(self._keys[event.key])
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                self._dragging = self.marks.pick(event.pos)
            elif event.type == pygame.MOUSEMOTION and self._dragging:
                self.marks.move_to(self.marks.active, event.pos)
            elif event.type == pygame.MOUSEBUTTONUP:
                self._dragging = False
        while self.buttons is not None:
            try:
                item = self.buttons.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, Press):
                self.marks.press(item.button)
        draw(self.surface, self.marks)
        pygame.display.flip()
        return not (self.marks.done or self.marks.cancelled)


def _buttons(config: Any, inbox: queue.Queue[Any]) -> Any:
    """The box's buttons on the queue when configured and present (a laptop has none: keys and mouse)."""
    if not config.buttons.enabled:
        return None
    try:
        from gpiozero.exc import GPIOZeroError

        from companion.config_hardware import button_options, button_pins
        from hardware.buttons import Buttons

        options = button_options(config.buttons)
        return Buttons(button_pins(config.buttons), inbox, bounce_ms=options["bounce_ms"],
                       hold_time=options["hold_time"])
    except (ImportError, GPIOZeroError, OSError):
        return None


def calibration_path(config: Any) -> Path:
    """Where the pairs go: the configured file, else calibration.toml in the configuration directory."""
    from companion.paths import config_dir

    value = config.projector.calibration
    return Path(value) if isinstance(value, str) and value else config_dir() / "calibration.toml"


def main(args: argparse.Namespace) -> int:
    import warnings

    from companion.commands.snapshot import frame_for
    from companion.config import load_config
    from companion.games import load_game
    from companion.views.projector.outputs import open_projector
    from companion.views.projector.renderer import ProjectorRenderer
    from companion.views.projector.warp import write_calibration

    config = load_config(args.config)
    game = load_game(args.game)
    notes: list[str] = []
    view = open_projector(dataclasses.replace(config.projector, calibration="", type="screen"), notes.append,
                          framebuffer=False)  # the marks window reads SDL's events and flips
    if view is None or view.screen is None:
        raise CompanionError(f"calibrate: {notes[0] if notes else 'projector: no display'}")
    try:
        size = view.screen.get_size()
        import pygame

        pygame.font.init()
        state = game.new_game({})
        renderer = ProjectorRenderer(size)
        renderer.render(frame_for(game, state))
        names, points = known_places(renderer, game, state)
        marks = Marks(names, points, size)
        inbox: queue.Queue[Any] = queue.Queue()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gpiozero's notes on pin factories it could not load
            buttons = _buttons(config, inbox)
        window = CalibrationWindow(marks, view.screen, inbox)
        clock = pygame.time.Clock()
        try:
            while window.step():
                clock.tick(30)
        finally:
            if buttons is not None:
                buttons.close()
    finally:
        view.close()
    if marks.cancelled:
        print("calibration not changed")
        return 0
    path = calibration_path(config)
    try:
        write_calibration(path, game.key, marks.pairs(), size, names)
    except OSError as exc:
        raise CompanionError(f"{path}: cannot write: {exc.strerror}") from None
    print(f"saved {path} ({game.key}: {', '.join(names)})")
    if config.projector.calibration != str(path):
        print(f'to use it, put under [projector] in the configuration: calibration = "{path}"')
    return 0
