"""``companion tower``: run a virtual dice tower, listen to a tower and print its rolls, or pair the
plugged-in tower (its USB serial number into the udev rule, so only it becomes /dev/dice-tower)."""

from __future__ import annotations

import argparse
import json
import queue
import signal
import sys
import threading
from pathlib import Path
from typing import IO, Any

from companion.errors import CompanionError

FAULTS = {
    "rolling": "dice tumbling (a ROLLING notice)",
    "crooked": "a die landed crooked (ERR,crooked)",
    "garbage": "64 random bytes and a newline",
    "badsum": "a ROLL with a wrong checksum",
    "truncated": "half a ROLL line",
    "duplicate": "the last roll sent again",
    "silent": "stop sending (rolls are kept); again to resume",
    "unplug": "the device vanishes (rolls are kept)",
    "replug": "the device comes back on the same path",
    "restart": "a power cycle: new boot, numbering from 1",
}
"""Faults typed as ``!name`` into ``companion tower virtual``, to see what the box does with them."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("tower", help="the dice tower: a virtual one, or listen to one (Ctrl-C or "
                                                 "SIGTERM stops either)")
    sub = parser.add_subparsers(dest="tower_command", required=True)
    virtual = sub.add_parser("virtual", help="start a virtual tower on a pty and print its device path; "
                                             "type rolls like 'd6 3 d8 5', or a fault: "
                                             + ", ".join(f"!{name}" for name in FAULTS),
                             formatter_class=argparse.RawDescriptionHelpFormatter,
                             description="A virtual dice tower on a pty, running the firmware's protocol code. "
                                         "Prints its device path,\nthen takes lines on stdin: a roll like "
                                         "'d6 3 d8 5', or a fault:\n"
                                         + "\n".join(f"  !{name:10} {what}" for name, what in FAULTS.items()))
    virtual.add_argument("--script", type=Path, default=None, metavar="FILE",
                         help="play each line of FILE first ('d6 3 d8 5', or a fault like !unplug; '#' comments)")
    virtual.set_defaults(func=run_virtual)
    listen = sub.add_parser("listen", help="print each roll the tower reports; Ctrl-C prints the counts")
    listen.add_argument("--port", default=None, metavar="PATH",
                        help="device path or pyserial URL (default /dev/dice-tower, then a USB scan)")
    listen.add_argument("--json", action="store_true", help='one JSON object per roll: {"seq", "dice"}')
    listen.set_defaults(func=run_listen)
    pair = sub.add_parser("pair", help="find the plugged-in tower, check that it answers, and write the udev rule "
                                       "that makes it, by its USB serial number, /dev/dice-tower (run with sudo)")
    pair.add_argument("--rules", default=None, metavar="FILE",
                      help="the rule file to write (default /etc/udev/rules.d/98-dice-tower-serial.rules)")
    pair.add_argument("--wait", type=float, default=3.0, metavar="SECONDS",
                      help="how long to wait for the tower's HELLO (default 3)")
    pair.set_defaults(func=run_pair)


def inject(tower: Any, name: str) -> str:
    """Apply fault ``name`` to a VirtualTower; what happened, for stderr. CompanionError if unknown."""
    if name == "rolling":
        tower.rolling()
    elif name == "crooked":
        tower.error("crooked", "a die leaning on the wall")
    elif name == "garbage":
        tower.garbage(64)
        tower.send_raw(b"\r\n")
    elif name == "badsum":
        tower.bad_checksum([("d6", 3)], seq=tower.protocol.next_seq)
    elif name == "truncated":
        tower.truncated([("d6", 3)], seq=tower.protocol.next_seq)
    elif name == "duplicate":
        tower.duplicate()
    elif name == "silent":
        tower.silent = not tower.silent
        return "silent" if tower.silent else "talking again"
    elif name == "unplug":
        tower.unplug()
    elif name == "replug":
        tower.replug()
    elif name == "restart":
        tower.restart()
    else:
        raise CompanionError(f"unknown fault !{name} (known: {', '.join('!' + f for f in FAULTS)})")
    return FAULTS[name]


def stop_on_sigterm() -> None:
    """SIGTERM ends the command as Ctrl-C does (the counts printed, the pty and its folder removed). A shell
    that starts a job in the background ignores SIGINT for it, and a test harness may too; SIGTERM is the
    stop that always arrives."""
    def interrupted(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, interrupted)


def run_virtual(args: argparse.Namespace) -> int:
    from firmware_bridge.virtual import VirtualTower, parse_dice

    stop_on_sigterm()

    script: list[str] = []
    if args.script is not None:
        from companion.datafile import TEXT_LIMIT, read_text

        script = read_text(args.script, TEXT_LIMIT).splitlines()
    with VirtualTower() as tower:
        print(tower.path, flush=True)
        print(f"# pty {tower.device}; type rolls like 'd6 3 d8 5' or faults like !unplug, !replug "
              "(companion tower virtual -h lists them); Ctrl-C to stop",
              file=sys.stderr, flush=True)
        for number, line in enumerate(script, 1):
            text = line.split("#", 1)[0].strip()
            try:
                if text.startswith("!"):
                    inject(tower, text[1:].strip().lower())
                else:
                    tower.play([line])
            except (ValueError, CompanionError) as exc:
                raise CompanionError(f"{args.script}:{number}: {exc}") from None
        try:
            for line in sys.stdin:
                text = line.split("#", 1)[0].strip()
                if not text:
                    continue
                try:
                    if text.startswith("!"):
                        print(f"fault: {inject(tower, text[1:].strip().lower())}", file=sys.stderr, flush=True)
                    else:
                        print(f"rolled #{tower.roll(parse_dice(text))}", file=sys.stderr, flush=True)
                except (ValueError, CompanionError) as exc:
                    print(f"companion: {exc}", file=sys.stderr, flush=True)
            # stdin closed (e.g. run in the background): keep serving until interrupted
            import threading

            threading.Event().wait()
        except KeyboardInterrupt:
            pass
    return 0


def run_listen(args: argparse.Namespace) -> int:
    from firmware_bridge.events import SourceFault, SourceStatus, TowerRoll
    from firmware_bridge.link import TowerLink

    if args.port is not None and "://" in args.port:
        # A device path may appear later (the tower plugged in); a URL pyserial cannot read never will.
        import serial

        try:
            serial.serial_for_url(args.port, do_not_open=True)
        except (ValueError, serial.SerialException) as exc:
            raise CompanionError(f"--port {args.port}: {exc}") from None
    # SIGTERM (and Ctrl-C) only set a flag that the loop reads between lines: an exception raised inside
    # say() would leave its lock held and the final counts line waiting on it for ever.
    stopping = threading.Event()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda _signum, _frame: stopping.set())
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # an ignored SIGINT stays ignored
            signal.signal(signal.SIGINT, lambda _signum, _frame: stopping.set())
    events: queue.Queue[Any] = queue.Queue()
    said = threading.Lock()

    def say(text: str, stream: IO[str]) -> None:
        """One whole line at a time: rejections come from the link's reader thread, the rest from this
        one, and print() writes a line and its newline separately, so two lines could merge."""
        with said:
            stream.write(text + "\n")
            stream.flush()

    def rejected(rejection: Any) -> None:
        say(f"rejected {rejection.reason}: {rejection.line!r}", sys.stderr)

    link = TowerLink(events, args.port, on_reject=rejected).start()
    try:
        while not stopping.is_set():
            try:
                event = events.get(timeout=0.2)
            except queue.Empty:
                continue
            if isinstance(event, TowerRoll):
                dice = [{"die": d.kind, "value": d.value} for d in event.dice]
                if args.json:
                    say(json.dumps({"seq": event.seq, "dice": dice}), sys.stdout)
                else:
                    say(f"#{event.seq} " + " ".join(str(d) for d in event.dice), sys.stdout)
                if event.settle is not None:
                    event.settle()  # printed: now the tower may forget it
            elif isinstance(event, SourceStatus):
                say(f"tower {event.state}" + (f": {event.detail}" if event.detail else ""), sys.stderr)
            elif isinstance(event, SourceFault):
                say(f"tower fault {event.code}: {event.text}", sys.stderr)
    except KeyboardInterrupt:
        pass
    finally:
        link.stop()
        counts = link.status()["counts"]
        say("counts: " + (", ".join(f"{k}={v}" for k, v in sorted(counts.items())) or "none"), sys.stderr)
    return 0


def ask_hello(device: str, wait: float) -> Any:
    """The HELLO of the tower on ``device`` (asked with SYNC, in both framings), or None after ``wait`` s.
    The port is opened exclusively: a box already reading it makes this a CompanionError, not a tug of war."""
    import time

    import serial

    from firmware_bridge.wire import BAUDRATE, TOWER_FRAMES, Frame, FrameParser, encode

    try:
        port = serial.Serial(device, BAUDRATE, timeout=0.1, write_timeout=1.0, exclusive=True)
    except (serial.SerialException, OSError) as exc:
        raise CompanionError(f"{device}: cannot open it ({exc}); if the box is running, stop it first: "
                             "sudo systemctl stop companion") from None
    parser = FrameParser(accept=TOWER_FRAMES)
    try:
        port.write(encode(Frame("SYNC"), 2) + encode(Frame("SYNC"), 1))
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            for item in parser.feed(port.read(256)):
                if isinstance(item, Frame) and item.kind == "HELLO":
                    return item
    except (serial.SerialException, OSError) as exc:
        raise CompanionError(f"{device}: {exc}") from None
    finally:
        port.close()
    return None


def run_pair(args: argparse.Namespace) -> int:
    import os
    import shutil
    import subprocess

    from serial.tools import list_ports

    from companion.atomicfile import write_atomic
    from firmware_bridge.udev import PRODUCT, SERIAL_RULES_PATH, VENDOR, serial_rule, valid_serial

    if args.wait <= 0:
        raise CompanionError(f"--wait must be more than 0, got {args.wait:g}")
    rules = Path(args.rules or SERIAL_RULES_PATH)
    boards = [p for p in list_ports.comports() if (p.vid, p.pid) == (int(VENDOR, 16), int(PRODUCT, 16))]
    if not boards:
        raise CompanionError(f"no tower plugged in (no USB serial device {VENDOR}:{PRODUCT}): plug it in and "
                             "run this again")
    if len(boards) > 1:
        raise CompanionError(f"{len(boards)} boards with USB id {VENDOR}:{PRODUCT} are plugged in "
                             f"({', '.join(sorted(p.device for p in boards))}): leave only the tower plugged in")
    board = boards[0]
    number = board.serial_number or ""
    if not valid_serial(number):
        raise CompanionError(f"{board.device}: the board gives no usable USB serial number ({number or 'none'})")
    hello = ask_hello(board.device, args.wait)
    if hello is None:
        raise CompanionError(f"{board.device}: the board does not answer as a dice tower (no HELLO in "
                             f"{args.wait:g} s): is the tower's firmware on it?")
    try:
        write_atomic(rules, serial_rule(number), mode=0o644)
    except OSError as exc:
        raise CompanionError(f"{rules}: cannot write the rule ({exc.strerror or exc}): run it with sudo") from None
    print(f"tower paired: USB serial {number}, firmware {hello.firmware}; rule written to {rules}")
    if rules == Path(SERIAL_RULES_PATH) and os.geteuid() == 0 and shutil.which("udevadm"):
        subprocess.run(["udevadm", "control", "--reload"], check=False)
        subprocess.run(["udevadm", "trigger", "--subsystem-match=tty", "--action=add"], check=False)
        print("udev reloaded: the tower is /dev/dice-tower (unplug and plug it in if it is not)")
    else:
        print("then: sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=tty --action=add")
    return 0
