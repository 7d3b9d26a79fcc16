"""``companion run``: the box's service. ``--sim`` for a laptop with no hardware, ``--headless`` for a server.

On start the last unfinished game resumes by replaying its journal; ``--game`` starts a new one;
otherwise the OLED menu asks. The service says READY to systemd once the first frame is shown, and
the loop pings the watchdog; SIGTERM ends it cleanly. One box per journal: a second ``run`` on the
same file stops at start (exit 75) naming the first one's PID. At stop, entries the journal still
refuses get a bounded wait and then go to the recovery file the next start imports
(:meth:`companion.journal.Journal.close`, called as the ``with`` block ends).

Without ``--sim`` on a machine that has none of the box's parts (no GPIO chip, no OLED bus, no tower),
the start stops with one line naming what is missing and how to get the simulated table: there is
nothing a player could use, and the box would wait for a tower forever.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import queue
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.commands import STARTS_QUIETLY
from companion.commands.games import add_journal_option, journal_path
from companion.config import Config, SourceEntry, load_config
from companion.errors import CompanionError
from companion.games import game_keys
from companion.inputs import Quit
from companion.journal import Journal
from companion.journal.replays import replay_check
from companion.logging_setup import setup_logging
from companion.sdnotify import Notifier
from companion.sim import build_table, screen_config, sim_config

log = logging.getLogger("companion")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help="run the box (or the simulated table with --sim)")
    parser.add_argument("--sim", action="store_true",
                        help="no hardware: virtual tower on a pty, keys for buttons, OLED beside the map")
    parser.add_argument("--headless", action="store_true", help="no window: write frames to --out (or nowhere)")
    parser.add_argument("--out", type=Path, default=None, metavar="DIR", help="folder for PNG frames when headless")
    parser.add_argument("--config", type=Path, default=None, metavar="FILE", help="configuration file (TOML)")
    parser.add_argument("--game", choices=game_keys(), default=None, help="start a new game of this kind")
    parser.add_argument("--players", type=int, default=None, help="player count for a new game")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="an option of the new game (repeatable): board=cells, river=yes, map=Minnesota")
    parser.add_argument("--menu", action="store_true", help="open the menu instead of resuming the last game")
    parser.add_argument("--stdin", action="store_true",
                        help="also take typed lines on stdin: 'd8 5', 'd6 3 4', 'roll', 'ok', 'hold back', 'quit'")
    add_journal_option(parser)
    parser.set_defaults(func=main, **{STARTS_QUIETLY: True})  # from READY the table's quiet turns collect (_started)


IN_USE_TICK = 0.03
"""How often the loop polls SDL's queue (the laptop window's keys, a gamepad on the box) while the
table is in use: a key reaches the game within 30 ms plus the frame. Tower and buttons wake the loop
at once whatever the tick; after a quiet second it backs off to the loop's idle tick (0.1 s).
Headless there is no SDL input to poll, so the tick only paces the watchdog."""


DEVICES = Path("/dev")
"""Where the box's parts appear (tests point it at a folder of their own)."""


def missing_parts(config: Any) -> list[str]:
    """The box's enabled parts this machine has no device for: the buttons' GPIO chip, the OLED's I2C or
    SPI bus, the tower (its configured port, /dev/dice-tower, or a serial port with its USB id)."""
    return [missing for missing in _looks(config) if missing]


def _looks(config: Any) -> Iterator[str]:
    """Per part of a device's type, cheapest look first: "" when its device is here, else what is missing. Lazy,
    so a start that finds one part stops there (the tower's scan of the serial ports is the dear one). A stand-in
    type (mock pins, a dummy OLED, a virtual tower) needs no device."""
    if config.buttons.type == "gpio":
        yield "" if any(DEVICES.glob("gpiochip*")) else f"buttons (no {DEVICES / 'gpiochip0'})"
    if config.oled.type == "luma":
        bus = DEVICES / (f"i2c-{config.oled.port}" if config.oled.interface == "i2c" else
                         f"spidev{config.oled.port}.0")
        yield "" if bus.exists() else f"OLED (no {bus})"
    if config.tower.type == "serial":
        port = config.tower.port or str(DEVICES / "dice-tower")
        if not Path(port).exists() and (config.tower.port or _find_tower(config.tower.usb_id) is None):
            yield (f"tower (no {port}" + ("" if config.tower.port else f", no USB {config.tower.usb_id}") + ")")
        else:
            yield ""


def _find_tower(usb_id: str) -> str | None:
    try:
        from firmware_bridge.link import find_port
    except ImportError:
        return None
    return find_port(usb_id)


def check_hardware(config: Any) -> None:
    """Stop with one line when no enabled part of the box is here (a laptop without --sim). The first part
    found ends the look: the link looks for the tower itself once it runs."""
    missing = []
    for look in _looks(config):
        if not look:
            return
        missing.append(look)
    if missing:
        raise CompanionError(f"no box hardware here: {', '.join(missing)}; "
                             "`companion run --sim` plays on the simulated table")


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``--option KEY=VALUE`` pairs as a new game's options (whole numbers become ints): the options a game's
    page gives (Carcassonne's ``board`` and ``river``, Age of Industry's ``map`` and ``display``)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CompanionError(f"--option: expected KEY=VALUE like river=yes, got {pair!r}")
        value = value.strip()
        options[key.strip()] = int(value) if value.lstrip("-").isdigit() else value
    return options


def main(args: argparse.Namespace) -> int:
    collecting = gc.isenabled()  # off already when started by companion.cli (STARTS_QUIETLY)
    gc.disable()  # off while the box starts, then collected in the table's quiet turns (_started)
    try:
        return _run(args)
    finally:
        (gc.enable if collecting else gc.disable)()


def _run(args: argparse.Namespace) -> int:
    setup_logging()
    config = load_config(args.config)
    if not args.sim:
        check_hardware(config)
    if args.out is not None:
        _check_frames_folder(args.out)
    new_options = parse_options(args.option)
    with Journal(journal_path(args.journal, config, args.config), replays=replay_check()) as journal:
        if journal.notice:
            log.warning("%s", journal.notice)
        notify = Notifier()
        with build_table(journal, _table_config(config, args),
                         game_keys=_menu_order(config.game.default),
                         watchdog=lambda: _ping(notify), tick=0.5 if args.headless else IN_USE_TICK) as table:
            options: dict[str, Any] = dict(new_options)
            if args.players is not None:
                options["players"] = args.players
            table.session.start(args.game, options, resume=not args.menu)
            if table.session.message:
                log.warning("%s", table.session.message)
            unhook = quit_on_signals(table.inbox)
            try:
                def ready() -> None:
                    notify.ready()
                    log.info("ready: %s", table.describe())
                    _started()

                code = table.loop.run(ready)
                notify.stopping()  # systemd: a stop we chose, not a hang, while the parts close
                return code
            finally:
                unhook()


def _table_config(config: Config, args: argparse.Namespace) -> Config:
    """The configuration the table is built from: the simulated table's (``--sim``), the map where ``--headless``
    and ``--out`` put it, typed lines on stdin as one more source (``--stdin``)."""
    if args.sim:
        config = sim_config(config, headless=args.headless, out=args.out)
    else:
        config = screen_config(config, headless=args.headless, out=args.out)
    if args.stdin:
        from companion.source_types.typed import TypedOptions

        config = replace(config, sources=(*config.sources, SourceEntry("typed", "typed", True, TypedOptions())))
    return config


def _started() -> None:
    """The start is over: what it built (modules, the parts, the session, the first frame) moves to the
    collector's permanent generation. The collector, held off since ``companion`` began (or since ``main``),
    now runs in the loop's quiet turns (companion.session.collector, set up by the table), never between a
    roll and its frame; ``main`` gives it back to the interpreter when the box stops.

    The start builds some forty thousand objects that live as long as the box and about six hundred of
    cyclic garbage; collecting as it went walked them some sixty times (a visible share of the start),
    and every full collection later would walk them again. Frozen, they are never walked: reference
    counting still frees what is dropped, and the few hundred garbage objects of the start are kept (a
    few tens of kB), as ``journal.snapshots.unpack`` does with a loaded game's state."""
    gc.freeze()


def quit_on_signals(inbox: queue.Queue[Any], signals: tuple[int, ...] = (signal.SIGTERM,)) -> Callable[[], None]:
    """``signals`` (systemd's SIGTERM) become a :class:`Quit` on the loop's queue; returns the call that undoes it.

    The Quit is put there by a thread of its own, never by the handler: Python runs a handler in the main
    thread between two bytecodes, and the loop spends its time inside the queue's ``get``, holding the lock
    that ``put`` takes, so a handler that put the Quit itself waited on its own thread for ever (a stopped box
    hung until systemd killed it, its journal never closed). Python's C-level handler writes the signal's
    number to the wakeup pipe (``signal.set_wakeup_fd``) whatever the main thread holds; the thread waiting on
    the pipe's other end (asleep, no polling) puts the Quit.
    """
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    previous_fd = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    previous = {sig: signal.signal(sig, lambda _signum, _frame: None) for sig in signals}
    wanted = {int(sig) for sig in signals}

    def wait() -> None:
        while data := os.read(read_end, 64):  # b"" once the write end is closed: undone
            if wanted & set(data):
                inbox.put(Quit())
        os.close(read_end)

    waiter = threading.Thread(target=wait, name="signals", daemon=True)
    waiter.start()

    def undo() -> None:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        signal.set_wakeup_fd(previous_fd)
        os.close(write_end)
        waiter.join(timeout=5)

    return undo


def _ping(notify: Notifier) -> None:
    notify.watchdog()


def _check_frames_folder(out: Path) -> None:
    """--out must be a folder or creatable as one: one line now, not a failure at the first frame."""
    for parent in [out, *out.parents]:
        if parent.exists():
            if not parent.is_dir():
                raise CompanionError(f"--out {out}: {parent} is a file, not a folder")
            break


def _menu_order(default: str) -> tuple[str, ...]:
    """The games in the menu, the configured default first so OK on a fresh box starts it."""
    return (default, *(key for key in game_keys() if key != default))
