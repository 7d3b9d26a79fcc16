"""``companion snapshot GAME [--state FILE] --out PNG``: one projector frame, drawn headless.

The state comes from a file, in either format the box already writes: a journal export
(``companion export``: a header line naming the game, then events, undos and re-rolls) or a
replay (``companion hurricane --record``: one event per line). Without a file a seeded game is
played some way (``--events``), decisions picked at random among the legal ones, so the
pictures in docs/ are reproducible and show a game in progress.
"""

from __future__ import annotations

import argparse
import json
import os
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.dice import DiceSource, Event
from companion.errors import CompanionError, DataError, RuleError
from companion.games import game_keys, load_game
from companion.games.base import Game, HasBoard, HasMapJson
from companion.hexgrid import Hex
from companion.journal import BAD_DATA, parse_export, reason
from companion.journal.entries import fold_entries
from companion.places import Board, Cell, GraphBoard, Link, Location, Place, SquareBoard

DECISIONS_IN_A_ROW = 3
"""After this many decisions in a row the seeded player takes the first option (which ends a phase
in the games that have phases), so a seeded game always moves on. Until a game first asks for dice
(Carcassonne and Allegheny never do) every decision is picked at random: there the first option is no
phase's end (an auction's first option is the lowest raise), and random picks move such a game on."""


EVENTS = 8
"""Events of the seeded game played by default."""

DOCS_SCREENS: dict[str, list[str]] = {
    "projector-stormfury": ["stormfury", "--events", "8", "--cursor", "9,0"],
    "projector-stormfury-risk": ["stormfury", "--events", "8", "--overlay"],
    "projector-stormfury-over": ["stormfury", "--events", "0"],
    "projector-stormfury-720p": ["stormfury", "--events", "14", "--size", "1280x720"],
    "projector-kansas": ["kansas", "--events", "11"],
    "projector-kansas-forecast": ["kansas", "--events", "20", "--option", "forecaster=2"],
    "projector-kansas-risk": ["kansas", "--events", "11", "--overlay"],
    "projector-kansas-over": ["kansas", "--events", "0", "--size", "1280x720"],
    "projector-kansas-named": ["kansas", "--seed", "11", "--events", "0", "--seats", "Ann,Blue,Cleo,Red",
                               "--size", "1280x720"],
    "projector-carcassonne-tornado": ["carcassonne", "--seed", "1", "--events", "106", "--option", "players=3",
                                      "--option", "river=yes"],
    "projector-carcassonne-earthquake": ["carcassonne", "--seed", "1", "--events", "262", "--option", "players=3",
                                         "--option", "river=yes", "--size", "1280x720"],
    "projector-carcassonne-flood": ["carcassonne", "--seed", "3", "--events", "100", "--option", "players=3",
                                    "--option", "river=yes"],
    "projector-carcassonne-meteor": ["carcassonne", "--seed", "2", "--events", "59", "--option", "players=3",
                                     "--option", "river=yes", "--size", "1280x720"],
    "projector-allegheny-auction": ["allegheny", "--seed", "1", "--events", "20", "--option", "players=4",
                                    "--size", "1280x720"],
    "projector-industry-japan": ["industry", "--seed", "7", "--events", "170"],
    "projector-industry-japan-720p": ["industry", "--seed", "7", "--events", "170", "--size", "1280x720"],
    "projector-allegheny-ple": ["allegheny", "--seed", "12", "--events", "136", "--option", "players=4",
                                "--cursor", "Pittsburgh - Youngstown"],
}
"""The pictures in docs/screens, by file name (without .png): ``companion snapshot ARGS --out FILE``.
A test renders each one and compares it with the file, so the docs stay true to the code."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("snapshot", help="draw one projector frame to a PNG, headless")
    parser.add_argument("game", choices=game_keys(), help="the game to draw")
    parser.add_argument("--state", type=Path, default=None, metavar="FILE",
                        help="a journal export (companion export) or a replay file (companion hurricane --record)")
    parser.add_argument("--out", type=Path, required=True, metavar="PNG", help="the picture to write")
    parser.add_argument("--seed", type=int, default=7, help="seed of the game played without --state (7)")
    parser.add_argument("--events", type=int, default=EVENTS,
                        help=f"events of the seeded game to play without --state ({EVENTS}; 0 = to the end)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="an option of the seeded game, as its journal header holds them (players=5, "
                             "forecaster=2); repeatable")
    parser.add_argument("--overlay", action="store_true", help="show the risk overlay")
    parser.add_argument("--seats", default=None, metavar="NAME,NAME,...",
                        help="the seats' names, as the table gives them from the box (a game that numbers its seats)")
    parser.add_argument("--cursor", default=None, metavar="PLACE",
                        help="put the cursor on this place: a hex Q,R, a square cell X,Y, a location by its name "
                             "(\"Pittsburgh\") or a link \"Erie - Cleveland\"")
    parser.add_argument("--size", default="1920x1080", metavar="WxH", help="resolution (1920x1080)")
    parser.set_defaults(func=main)


def seeded_state(game: Game[Any], seed: int, events: int, options: Mapping[str, Any] | None = None) -> Any:
    """The state after ``events`` events (0: to the end) of a game answered from ``seed``."""
    from companion.session.choices import ends, options_for

    dice = DiceSource(seed)
    rng = random.Random(seed)
    state = game.new_game(dict(options or {}))
    played = in_a_row = 0
    rolled = False
    while not game.prompt(state).done and (events <= 0 or played < events) and played < 10_000:
        prompt = game.prompt(state)
        event = dice.answer(prompt)
        if event is not None:
            state, in_a_row, rolled = game.apply(state, event), 0, True
        else:
            if not rolled:
                in_a_row = 0
            offered = options_for(game, state, prompt)
            if not offered:
                raise CompanionError(f"{game.key}: no decision to take at {game.status(state)!r}")
            # What ends the turn or phase is the last option (the cursor never starts there): the one taken
            # after a few decisions; a long list of amounts (an auction's bids) is tried at its ends only.
            lead = next((o for o in reversed(offered) if ends(o) and o.event.action not in ("end", "end_game")),
                        offered[0])
            pool = [o for o in offered if o.event.action not in ("end", "end_game")] or offered  # no game's end
            pool = [pool[0], pool[-1]] if len(pool) > 30 else pool
            picks = [lead] if in_a_row >= DECISIONS_IN_A_ROW else rng.sample(pool, len(pool))
            for option in [*picks, lead, *offered]:
                try:
                    state = game.apply(state, option.event)
                    break
                except RuleError:
                    continue
            else:
                raise CompanionError(f"{game.key}: every option was refused at {game.status(state)!r}")
            in_a_row += 1
        played += 1
    return state


def state_from_file(game: Game[Any], path: Path) -> Any:
    """Fold a journal export or a replay file over a new game; errors name the file and line."""
    from companion.commands.hurricane import read_replay
    from companion.datafile import TEXT_LIMIT, read_text

    lines = read_text(path, TEXT_LIMIT).splitlines()
    first = next((line for line in lines if line.strip()), "")
    try:
        head = json.loads(first) if first else None
    except ValueError:
        head = None
    if isinstance(head, dict) and "game" in head:
        header, entries = parse_export(lines, str(path))
        if header["game"] != game.key:
            raise DataError(f"{path}: line 1: game: this export is {header['game']!r}, not {game.key!r}")
        return fold_entries(_new(game, header["options"], path), entries, game.apply, catch=(CompanionError, *BAD_DATA),
                            refused=lambda n, exc: DataError(f"{path}: entry {n + 1}: {reason(exc)}"))
    state = _new(game, {}, path)
    for n, event in enumerate(read_replay(path), start=1):
        state = _apply(game, state, event, f"{path}: event {n}")
    return state


def _new(game: Game[Any], options: Mapping[str, Any], path: Path) -> Any:
    try:
        return game.new_game(options)
    except (CompanionError, *BAD_DATA) as exc:
        raise DataError(f"{path}: options: {reason(exc)}") from None


def _apply(game: Game[Any], state: Any, event: Event, where: str) -> Any:
    try:
        return game.apply(state, event)
    except (CompanionError, *BAD_DATA) as exc:
        raise DataError(f"{where}: {reason(exc)}") from None


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise CompanionError(f"--size: expected WIDTHxHEIGHT like 1920x1080, got {text!r}") from None
    if not (160 <= w <= 7680 and 120 <= h <= 4320):
        raise CompanionError(f"--size: {w}x{h} is outside 160x120..7680x4320")
    return w, h


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``--option KEY=VALUE`` pairs as new-game options (whole numbers become ints)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CompanionError(f"--option: expected KEY=VALUE like players=5, got {pair!r}")
        value = value.strip()
        options[key.strip()] = int(value) if value.lstrip("-").isdigit() else value
    return options


def parse_hex(text: str) -> Hex:
    try:
        q, r = (int(v) for v in text.split(","))
    except ValueError:
        raise CompanionError(f"--cursor: expected Q,R like 3,-1, got {text!r}") from None
    return Hex(q, r)


_PROBE = "\x00not-a-value"
"""A value no option takes: an engine that refuses it for a key knows the key; one that accepts it ignores it."""


def check_options(game: Game[Any], options: Mapping[str, Any]) -> None:
    """Refuse an --option the game does not read (a typo must not draw a picture of something else). Asked
    of the engine itself: a key whose nonsense value it refuses is one of its options."""
    for key in options:
        try:
            game.new_game({key: _PROBE})
        except CompanionError:
            continue
        raise CompanionError(f"--option {key}: {game.title} has no option {key!r}")


def check_cursor(game: Game[Any], cursor: Hex) -> None:
    """Refuse a --cursor off the board (it would be drawn nowhere, silently)."""
    hexes = {(h["q"], h["r"]) for h in game.map_json().get("hexes", [])} if isinstance(game, HasMapJson) else set()
    if hexes and (cursor.q, cursor.r) not in hexes:
        raise CompanionError(f"--cursor {cursor.q},{cursor.r}: not a hex of the {game.title} board")



def parse_place(text: str, board: Board | None) -> Place:
    """``--cursor`` on the game's board: a hex "Q,R", a cell "X,Y" (x east, y south of the start), or on a
    graph a location by its name or key, or a link as "Name - Name"."""
    if isinstance(board, GraphBoard):
        def location(words: str) -> str:
            wanted = words.strip().lower()
            for key, site in board.sites.items():
                if wanted in (key.lower(), site.name.lower()):
                    return key
            raise CompanionError(f"--cursor: no location {words.strip()!r} on this map")

        ends = text.split(" - ")
        if len(ends) == 2:
            link = Link(location(ends[0]), location(ends[1]))
            if link not in board.links:
                raise CompanionError(f"--cursor: no link {text!r} on this map")
            return link
        return Location(location(text))
    if isinstance(board, SquareBoard):
        try:
            x, y = (int(v) for v in text.split(","))
        except ValueError:
            raise CompanionError(f"--cursor: expected X,Y like 2,-1 (east, south of the start), got {text!r}") from None
        return Cell(x, y)
    return parse_hex(text)


def frame_for(game: Game[Any], state: Any, *, overlay: bool = False, cursor: Place | None = None,
              tower: str = "connected", seats: tuple[str, ...] = ()) -> Any:
    """The Frame the session would show for ``state`` (panel from the engine's own words, the seats said by
    ``seats``' names)."""
    from companion.session.screens import Frame
    from companion.session.seats import named
    from companion.views.panel import Panel

    panel = Panel(game=game.title, status=game.status(state), prompt=game.prompt(state),
                  result=tuple(game.recap(state)), tower=tower)
    return Frame(named(panel, seats), game, state, cursor, overlay, seats)


def parse_seats(text: str, game: Game[Any], players: int) -> tuple[str, ...]:
    """``--seats``: one name a seat, as many as the game has players, for a game that numbers its seats."""
    from companion.session.seats import names_seats

    if not names_seats(game):
        raise CompanionError(f"--seats: {game.title} does not number its seats (its players are named already)")
    names = tuple(name.strip() for name in text.split(","))
    if len(names) != players or not all(names) or len(set(names)) != len(names):
        raise CompanionError(f"--seats: expected {players} different names separated by commas, got {text!r}")
    return names


def main(args: argparse.Namespace) -> int:
    size = parse_size(args.size)
    if args.events < 0:
        raise CompanionError(f"--events: expected 0 (to the end) or more, got {args.events}")
    if args.state is not None and (args.option or args.events != EVENTS):
        raise CompanionError("--option and --events are for the seeded game; --state FILE draws the file's game")
    if args.out.is_dir():
        raise CompanionError(f"--out {args.out}: is a folder; name a .png file")
    game = load_game(args.game, getattr(args, "maps", None))
    options = parse_options(args.option)
    check_options(game, options)
    state = state_from_file(game, args.state) if args.state else seeded_state(game, args.seed, args.events, options)
    board = game.board_for(state) if isinstance(game, HasBoard) else None
    cursor = parse_place(args.cursor, board) if args.cursor else None
    if isinstance(cursor, Hex):
        check_cursor(game, cursor)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # no window: drawing happens on a plain surface
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from companion.views.projector import SurfaceImage, render_frame

    pygame.font.init()
    players = getattr(state, "players", 0)
    count = players if isinstance(players, int) else len(players)
    seats = parse_seats(args.seats, game, count) if getattr(args, "seats", None) else ()
    surface = render_frame(frame_for(game, state, overlay=args.overlay, cursor=cursor, seats=seats), size)
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        SurfaceImage(surface).save(args.out)
    except (OSError, ValueError) as exc:
        raise CompanionError(f"{args.out}: cannot write ({exc})") from None
    print(f"{args.out}: {game.title}, {game.status(state)}{', risk overlay' if args.overlay else ''}")
    return 0
