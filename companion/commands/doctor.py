"""``companion doctor``: the first-boot self-test, one line per part, exit 0 only when every part passes.

Why: a box assembled from a bill of materials fails in a few known ways (the OLED on another address, a button
wired to the wrong pin, the tower flashed with old firmware, no Bluetooth adapter, a desktop in front of the
console, a device node in a group the service is not in). Each check here uses the part's own library the way the
box does, reads only (the tower's rolls are never acknowledged, the console's mode is not touched), and says
what it found in one line: "ok" or "FAIL" and the reason, with what to do where there is one thing to do.

Stop the service first (``sudo systemctl stop companion``): the tower's port and the GPIO pins are the box's while
it runs. Buttons are pressed by a person, each once when asked (``--no-buttons`` skips them, for a remote check).
"""

from __future__ import annotations

import argparse
import grp
import os
import queue
import re
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

UNIT_PATHS = (Path("/etc/systemd/system/companion.service"),
              Path(__file__).resolve().parent.parent.parent / "systemd" / "companion.service")
"""The installed unit, else the one in a source checkout: where the service's groups are read."""
BOX_VT = "tty1"
"""The console the unit gives the service (TTYPath=)."""


@dataclass(frozen=True)
class Result:
    """One part's line."""

    part: str
    ok: bool
    text: str

    def line(self) -> str:
        return f"{self.part + ':':<10} {'ok  ' if self.ok else 'FAIL'} {self.text}"


def seconds(text: str) -> float:
    """A wait in seconds from the command line: a number above 0 (argparse says the one line otherwise)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, got {text!r}")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("doctor", help="first-boot self-test: OLED, buttons, tower, Bluetooth, display, "
                                                  "the service's groups; one line each, exit 0 when all pass")
    parser.add_argument("--config", type=Path, default=None, metavar="FILE", help="configuration file (TOML)")
    parser.add_argument("--no-buttons", action="store_true", help="do not ask for the buttons to be pressed")
    parser.add_argument("--button-timeout", type=seconds, default=20.0, metavar="S",
                        help="seconds to wait for each button (default 20)")
    parser.add_argument("--tower-timeout", type=seconds, default=5.0, metavar="S",
                        help="seconds to wait for the tower's HELLO (default 5)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.config import load_config

    config = load_config(args.config)
    checks: list[Callable[[], Result]] = [
        lambda: check_oled(config.oled),
        lambda: check_buttons(config.buttons, timeout=args.button_timeout, skip=args.no_buttons),
        lambda: check_tower(config.tower, timeout=args.tower_timeout),
        lambda: check_bluetooth(config.dice),
        lambda: check_display(config.projector),
        lambda: check_groups(),
        lambda: check_remote(config.remote),
    ]
    return report(checks)


def report(checks: Iterable[Callable[[], Result]], out: Any = None) -> int:
    """Run each check, print its line as it ends; 0 when all passed, 1 otherwise."""
    out = out or sys.stdout
    failed = 0
    for check in checks:
        result = check()
        failed += not result.ok
        print(result.line(), file=out, flush=True)
    print(f"{'all parts pass' if not failed else f'{failed} part(s) failed'}", file=out, flush=True)
    return 0 if not failed else 1


# -- OLED ----------------------------------------------------------------------------------------------

def check_oled(section: Any, opener: Callable[[Any], Any] | None = None) -> Result:
    """The panel answers at its address: luma opens the bus and sends the controller's init sequence (an I2C
    write the panel must acknowledge, or luma raises DeviceNotFoundError naming the address)."""
    if not section.enabled:
        return Result("OLED", True, "off in the configuration ([oled] enabled = false)")
    from companion.config_hardware import oled_settings
    from hardware.oled import _absent_errors, open_device

    settings = oled_settings(section)
    where = f"0x{section.address:02X} on /dev/i2c-{section.port}" if section.interface == "i2c" else \
        f"SPI {section.port}"
    try:
        device = (opener or open_device)(settings)
    except _absent_errors() as exc:
        return Result("OLED", False, f"{section.driver} not found at {where} ({exc}); check the wiring, "
                                     "i2cdetect -y 1")
    try:
        cleanup = getattr(device, "cleanup", None)
        if cleanup is not None:
            device.persist = True  # leave the panel as it is
            cleanup()
    except Exception:  # a check never fails for want of tidying up
        pass
    return Result("OLED", True, f"{section.driver} {settings.width}x{settings.height} answers at {where}")


# -- buttons -------------------------------------------------------------------------------------------

def check_buttons(section: Any, *, timeout: float, skip: bool, pin_factory: Any = None,
                  ask: Callable[[str, int], None] | None = None) -> Result:
    """Each button pressed once when asked (``ask(name, bcm)`` says which: a line on the terminal), within
    ``timeout`` seconds; the first that does not come is named with its pin."""
    if not section.enabled:
        return Result("buttons", True, "off in the configuration ([buttons] enabled = false)")
    if skip:
        return Result("buttons", True, "not tried (--no-buttons)")
    from companion.config_hardware import button_options, button_pins
    from companion.inputs import Hold, Press
    from hardware.buttons import Buttons

    events: queue.Queue[Any] = queue.Queue()
    pins = button_pins(section)
    try:
        options = button_options(section)
        buttons = Buttons(pins, events, bounce_ms=options["bounce_ms"], hold_time=options["hold_time"],
                          pin_factory=pin_factory)
    except Exception as exc:  # gpiozero: no pin factory, a pin in use, no permission
        return Result("buttons", False, f"the GPIO pins cannot be read ({type(exc).__name__}: {exc})")
    say = ask or (lambda name, bcm: print(f"  press {name} (BCM {bcm}) ...", flush=True))
    try:
        for name, bcm in pins.items():
            say(name, bcm)
            deadline = time.monotonic() + timeout
            while True:
                left = deadline - time.monotonic()
                try:
                    event = events.get(timeout=max(0.0, left))
                except queue.Empty:
                    return Result("buttons", False, f"no press from {name} (BCM {bcm}) within {timeout:g} s; "
                                                    "check its wire to GND")
                if isinstance(event, Press | Hold) and event.button == name:
                    break
    finally:
        buttons.close()
    return Result("buttons", True, f"all {len(pins.items())} pressed ({', '.join(n for n, _ in pins.items())})")


# -- tower ---------------------------------------------------------------------------------------------

def check_tower(section: Any, *, timeout: float) -> Result:
    """The tower's HELLO through the box's own link (read only: no roll is acknowledged, none is journaled)."""
    if not section.enabled:
        return Result("tower", True, "off in the configuration ([tower] enabled = false)")
    from firmware_bridge.events import SourceStatus
    from firmware_bridge.link import TowerLink

    events: queue.Queue[Any] = queue.Queue()
    link = TowerLink(events, section.port or None, usb_id=section.usb_id, baudrate=section.baud,
                     read_timeout=0.05)
    deadline = time.monotonic() + timeout
    last = ""
    link.start()
    try:
        while (left := deadline - time.monotonic()) > 0:
            try:
                event = events.get(timeout=left)
            except queue.Empty:
                break
            if not isinstance(event, SourceStatus):
                continue
            last = event.detail or event.state
            if event.state == "mismatch":
                return Result("tower", False, f"{event.detail}: flash the firmware that came with this box")
            if event.state == "connected" and link.hello is not None:
                hello = link.hello
                return Result("tower", True, f"HELLO on {link.path}: firmware {hello.firmware}, protocol "
                                             f"{hello.version}, dice {'+'.join(hello.kinds)}")
    finally:
        link.stop()
    where = section.port or f"/dev/dice-tower or USB {section.usb_id}"
    return Result("tower", False, f"no HELLO from {where} within {timeout:g} s ({last or 'not found'})")


# -- Bluetooth -----------------------------------------------------------------------------------------

BLUETOOTH = Path("/sys/class/bluetooth")
RFKILL = Path("/sys/class/rfkill")


def check_bluetooth(section: Any, sysfs: Path = BLUETOOTH, rfkill: Path = RFKILL) -> Result:
    """An adapter the kernel has (hciN), its driver (btusb: a USB dongle), and not switched off by rfkill."""
    adapters = sorted(p.name for p in sysfs.glob("hci*")) if sysfs.is_dir() else []
    if not adapters:
        if not section.enabled:
            return Result("Bluetooth", True, "no adapter (smart dice are off in the configuration)")
        return Result("Bluetooth", False, "no adapter: smart dice need one (a USB dongle for many dice)")
    blocked = [p for p in (rfkill.glob("rfkill*") if rfkill.is_dir() else [])
               if _read(p / "type") == "bluetooth" and (_read(p / "soft") == "1" or _read(p / "hard") == "1")]
    names = []
    for name in adapters:
        driver = ""
        uevent = _read(sysfs / name / "device" / "uevent")
        if match := re.search(r"^DRIVER=(\S+)", uevent, flags=re.M):
            driver = match.group(1)
        names.append(f"{name} ({driver})" if driver else name)
    if blocked:
        return Result("Bluetooth", False, f"{', '.join(names)} switched off: sudo rfkill unblock bluetooth")
    return Result("Bluetooth", True, ", ".join(names))


def _read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


# -- display -------------------------------------------------------------------------------------------

DRM = Path("/sys/class/drm")


def check_display(section: Any, drm: Path = DRM, environ: dict[str, str] | None = None) -> Result:
    """The framebuffer's mode and depth, the connectors the DRM driver sees, and who owns the screen."""
    if not section.enabled:
        return Result("display", True, "off in the configuration ([projector] enabled = false)")
    from companion.views.projector import console
    from companion.views.projector.fbdev import FramebufferError, read_geometry, sysfs_for

    device = section.framebuffer or "/dev/fb0"
    sysfs = Path(section.framebuffer_sysfs) if section.framebuffer_sysfs else sysfs_for(device)
    connectors = []
    for status in sorted(drm.glob("card*-*/status")) if drm.is_dir() else []:
        name = status.parent.name.split("-", 1)[1]
        state = _read(status)
        mode = _read(status.parent / "modes").split("\n", 1)[0]
        connectors.append(f"{name} {state}{f' {mode}' if state == 'connected' and mode else ''}")
    shown = f"; {', '.join(connectors)}" if connectors else ""
    # the box is stopped while the doctor runs: whose console is in front, not a mode nobody set
    owner = console.screen_owner(BOX_VT, console.active_vt(), console.active_session(), environ, held=False)
    try:
        g = read_geometry(sysfs)
    except FramebufferError as exc:
        return Result("display", False, f"no framebuffer ({exc}){shown}; is a display plugged in?")
    text = f"{device} {g.width}x{g.height} {g.format} ({g.bits_per_pixel} bits){shown}; screen: {owner}"
    ok = not owner.startswith(console.NOT_THE_BOX)
    return Result("display", ok, text)


# -- the service's groups ------------------------------------------------------------------------------

DEVICE_GLOBS = ("/dev/fb*", "/dev/dri/card*", "/dev/dri/renderD*", "/dev/i2c-*", "/dev/spidev*", "/dev/gpiochip*",
                "/dev/ttyACM*", "/dev/dice-tower", "/dev/input/event*")
"""The device nodes the box opens: each must belong to a group the service is in."""


def unit_groups(paths: Iterable[Path] = UNIT_PATHS) -> tuple[Path | None, list[str]]:
    """The unit read and its SupplementaryGroups= (the first unit file found)."""
    for path in paths:
        try:
            text = path.read_text()
        except OSError:
            continue
        groups = [g for line in re.findall(r"^SupplementaryGroups=(.*)$", text, flags=re.M) for g in line.split()]
        return path, groups
    return None, []


def check_groups(units: Iterable[Path] = UNIT_PATHS, devices: Iterable[str] = DEVICE_GLOBS) -> Result:
    """Every group the unit names exists (systemd refuses to start a service whose group is missing), and every
    device node the box opens here belongs to one of them."""
    import glob

    unit, groups = unit_groups(units)
    if unit is None:
        return Result("groups", False, "no companion.service found: run sudo systemd/install.sh")
    missing = []
    for name in groups:
        try:
            grp.getgrnam(name)
        except KeyError:
            missing.append(name)
    if missing:
        return Result("groups", False, f"{unit}: no group {', '.join(missing)} on this system (install.sh makes them)")
    outside = []
    for pattern in devices:
        for node in sorted(glob.glob(pattern)):
            try:
                gid = os.stat(node).st_gid
                group = grp.getgrgid(gid).gr_name
            except (OSError, KeyError):
                continue
            if group not in groups:
                outside.append(f"{node} ({group})")
    if outside:
        return Result("groups", False, f"the service cannot open {', '.join(outside)}: add the group to "
                                       f"SupplementaryGroups= in {unit}")
    return Result("groups", True, f"{' '.join(groups)} ({unit})")


# -- the phones' page ------------------------------------------------------------------------------------------

REMOTE_DROP_IN = Path("/etc/systemd/system/companion.service.d/remote.conf")
"""The unit's drop-in that lets the service listen on the network (docs/remote.md)."""


def check_remote(section: Any, drop_in: Path = REMOTE_DROP_IN) -> Result:
    """[remote]: off, or on with its address, its port free (the box is stopped while the doctor runs) and the
    unit's drop-in in place (without it the unit allows no Internet socket and the page never opens)."""
    if not section.enabled:
        return Result("remote", True, "off ([remote] enabled = false)")
    import socket

    from companion.remote.join import box_address

    family = socket.AF_INET6 if ":" in section.bind else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((section.bind, section.port))
    except OSError as exc:
        return Result("remote", False, f"port {section.port} on {section.bind} cannot be opened "
                                       f"({exc.strerror or exc}); stop what uses it or change [remote] port")
    if not drop_in.exists():
        return Result("remote", False, f"the unit has no network for the page: install {drop_in} (docs/remote.md)")
    return Result("remote", True, f"on, http://{box_address(section.bind)}:{section.port}/")
