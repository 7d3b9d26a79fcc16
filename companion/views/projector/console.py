"""The screen's text console put in graphics mode while the box draws the map on the framebuffer, and given back.

Why: under KMS the framebuffer the box writes (/dev/fb0) is also the text console's. In text mode the console
draws over the map: the login prompt, the blinking cursor, kernel messages (the tower's own USB plug messages),
and a scroll that shifts the whole picture while the box repaints only the rectangles that changed. ``KDSETMODE
KD_GRAPHICS`` on the virtual terminal (VT) tells the kernel's console to draw nothing there, and the kernel then
ignores VT switches (Ctrl+Alt+Fn) while that VT is in front; ``KD_TEXT`` gives the screen back (the console
repaints its text).

Which VT, and the right to switch it: the kernel lets a process change a VT's mode when the VT is its controlling
terminal, or with CAP_SYS_TTY_CONFIG. The service is given tty1 that way (``TTYPath=/dev/tty1`` with
``StandardInput=tty-force``: systemd opens it as the service's controlling terminal), so the box, with no
capability at all, finds it on its standard input. Run by hand from the console's own login, standard input is that
VT too. Over SSH standard input is a pseudo-terminal; then root may still name the foreground VT (/dev/tty0).

Keys: a keyboard on the Pi types into that VT, the box's controlling terminal, so Ctrl+C there would stop the box;
while it is held the VT makes no signals from keys and echoes nothing (termios), and gets its settings back.

Giving it back: :meth:`ConsoleMode.release` (the view's close, on every clean stop), ``atexit`` (an exception out of
the program), and SIGTERM/SIGHUP/SIGINT when nothing else handles them. What no process can cover (SIGKILL, a
watchdog's SIGABRT on a hung loop, a crash in C) systemd covers: ``TTYReset=yes`` switches the VT back to text
whenever the service ends.

Who owns the screen: the VT shown is the active one (/sys/class/tty/tty0/active). When it is not the box's, a desktop
or another console is in front; systemd-logind knows which (sd-login, libsystemd's C API, read through ctypes: the
state files it reads are logind's own and private) and :func:`screen_owner` says so in one line.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import ctypes.util
import errno
import fcntl
import logging
import os
import signal
import termios
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

log = logging.getLogger(__name__)

KDSETMODE = 0x4B3A
KDGETMODE = 0x4B3B
KD_TEXT = 0
KD_GRAPHICS = 1
"""From <linux/kd.h>."""

ACTIVE_VT = Path("/sys/class/tty/tty0/active")
"""The VT the screen shows now ("tty1")."""

FOREGROUND_VT = "/dev/tty0"
"""The foreground VT, whichever it is: only root (CAP_SYS_TTY_CONFIG) may switch its mode from outside it."""

RELEASE_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


def vt_mode(fd: int) -> int | None:
    """KD_TEXT or KD_GRAPHICS for a VT; None when ``fd`` is no VT (a pseudo-terminal, a pipe, a file)."""
    mode = bytearray(4)
    try:
        fcntl.ioctl(fd, KDGETMODE, mode)
    except OSError:
        return None
    return int.from_bytes(mode, "little")


VT_GETSTATE = 0x5603
"""From <linux/vt.h>: struct vt_stat, whose first field is the foreground VT's number."""


def vt_name(fd: int) -> str:
    """"tty1" for a VT's descriptor; for /dev/tty0 (whichever VT is in front) the VT in front now."""
    try:
        name = Path(os.ttyname(fd)).name
    except OSError:
        name = ""
    if name in ("", "tty0"):
        state = bytearray(6)
        try:
            fcntl.ioctl(fd, VT_GETSTATE, state)
        except OSError:
            return name or "the console"
        return f"tty{int.from_bytes(state[:2], 'little')}"
    return name


class ConsoleError(Exception):
    """The console could not be put in graphics mode; the message is the one line the box says."""


class ConsoleMode:
    """One VT held in graphics mode until :meth:`release` (or the program ends, see the module's docstring)."""

    def __init__(self, fd: int, *, owned_fd: bool) -> None:
        self.fd = fd
        self.owned_fd = owned_fd
        """The descriptor was opened here (closed on release), not the standard input."""
        self.name = vt_name(fd)
        self.before = vt_mode(fd)
        self.held = False
        try:
            fcntl.ioctl(fd, KDSETMODE, KD_GRAPHICS)
        except OSError as exc:
            self._close_fd()
            why = "not this program's console" if exc.errno in (errno.EPERM, errno.EACCES) else exc.strerror
            raise ConsoleError(f"{self.name}: cannot switch to graphics ({why})") from None
        self.held = True
        self._termios = self._quiet_keys()
        atexit.register(self.release)
        self._chained: dict[int, Any] = {}
        for signum in RELEASE_SIGNALS:
            self._chain(signum)

    def _quiet_keys(self) -> list[Any] | None:
        """A keyboard on the Pi types into this VT, the process's controlling terminal: Ctrl+C there would stop the
        box (SIGINT to its process group) and Ctrl+Z suspend it. While the map is shown the VT makes no signals
        from keys and echoes nothing; the settings before are kept for :meth:`release`."""
        try:
            before = termios.tcgetattr(self.fd)
            quiet = [*before[:3], before[3] & ~(termios.ISIG | termios.ICANON | termios.ECHO), *before[4:]]
            termios.tcsetattr(self.fd, termios.TCSANOW, quiet)
        except termios.error:
            return None
        return before

    def _chain(self, signum: int) -> None:
        """Give the console back on ``signum`` when the signal would otherwise end the program unhandled."""
        try:
            previous = signal.getsignal(signum)
            if previous not in (signal.SIG_DFL, signal.default_int_handler):
                return  # the program handles it (companion run: a clean stop, which releases)
            signal.signal(signum, self._on_signal)
        except ValueError:  # not the main thread: the program's own stop path releases
            return
        self._chained[signum] = previous

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.release()
        previous = self._chained.get(signum, signal.SIG_DFL)
        signal.signal(signum, previous)
        if callable(previous):
            previous(signum, frame)
        else:
            os.kill(os.getpid(), signum)

    @property
    def mode(self) -> int | None:
        return vt_mode(self.fd) if self.fd >= 0 else None

    def release(self) -> None:
        """Text mode back (once; later calls do nothing), the signal handlers put back."""
        if not self.held:
            return
        self.held = False
        try:
            fcntl.ioctl(self.fd, KDSETMODE, KD_TEXT)
        except OSError as exc:
            log.info("projector: %s not given back to text (%s)", self.name, exc.strerror)
        if self._termios is not None:
            with contextlib.suppress(termios.error):
                termios.tcsetattr(self.fd, termios.TCSANOW, self._termios)
        for signum, previous in self._chained.items():
            try:
                if signal.getsignal(signum) == self._on_signal:
                    signal.signal(signum, previous)
            except ValueError:
                pass
        self._chained.clear()
        atexit.unregister(self.release)
        self._close_fd()

    def _close_fd(self) -> None:
        if self.owned_fd and self.fd >= 0:
            os.close(self.fd)
        self.fd = -1


def take_console(candidates: tuple[int | str, ...] = (0, FOREGROUND_VT)) -> ConsoleMode:
    """The first of ``candidates`` (a descriptor, or a VT's path to open) that is a VT and may be switched, held
    in graphics mode; ConsoleError naming why none could (the first reason that is not "no VT")."""
    reasons: list[str] = []
    for candidate in candidates:
        if isinstance(candidate, int):
            fd, owned = candidate, False
        else:
            try:
                fd, owned = os.open(candidate, os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC), True
            except OSError as exc:
                reasons.append(f"{candidate}: {(exc.strerror or str(exc)).lower()}")
                continue
        if vt_mode(fd) is None:
            if owned:
                os.close(fd)
            continue
        try:
            return ConsoleMode(fd, owned_fd=owned)
        except ConsoleError as exc:
            reasons.append(str(exc))
    raise ConsoleError(reasons[0] if reasons else "no virtual terminal to draw on")


def active_vt(path: Path = ACTIVE_VT) -> str:
    """The VT shown now ("tty1"), "" where there are none."""
    try:
        return path.read_text().strip()
    except OSError:
        return ""


@dataclass(frozen=True)
class Session:
    """The login session in front on a seat, as systemd-logind knows it."""

    name: str
    kind: str
    """"tty", "x11", "wayland", "mir" or "unspecified"."""
    vt: int


def _libsystemd() -> Any:
    name = ctypes.util.find_library("systemd") or "libsystemd.so.0"
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


def active_session(seat: str = "seat0") -> Session | None:
    """The seat's active session from sd-login (sd_seat_get_active, sd_session_get_type, sd_session_get_vt);
    None without logind or with no session in front."""
    lib = _libsystemd()
    if lib is None:
        return None
    libc = ctypes.CDLL(None)
    name = ctypes.c_char_p()
    if lib.sd_seat_get_active(seat.encode(), ctypes.byref(name), None) < 0 or not name.value:
        return None
    try:
        session = name.value.decode()
        kind = ctypes.c_char_p()
        label = "unspecified"
        if lib.sd_session_get_type(session.encode(), ctypes.byref(kind)) >= 0 and kind.value:
            label = kind.value.decode()
            libc.free(kind)
        vt = ctypes.c_uint()
        number = vt.value if lib.sd_session_get_vt(session.encode(), ctypes.byref(vt)) >= 0 else 0
        return Session(session, label, number)
    finally:
        libc.free(name)


GRAPHICAL = ("x11", "wayland", "mir")
NOT_THE_BOX = ("a desktop", "the screen shows", "no console")
"""How :func:`screen_owner`'s lines begin when the screen does not show the box's console."""


def screen_owner(ours: str, active: str, session: Session | None, environ: dict[str, str] | None = None,
                 held: bool = True) -> str:
    """One line: who the screen shows, and what to do when it is not the box. ``ours`` is the box's VT ("tty1", ""
    when it has none), ``active`` the VT in front, ``session`` logind's session in front; ``held``: the box holds
    ``ours`` in graphics mode now (False for a check made while the box is stopped)."""
    env = os.environ if environ is None else environ
    if session is not None and session.kind in GRAPHICAL and (not active or active == f"tty{session.vt}"):
        return (f"a desktop ({session.kind}) owns the screen: boot to the console (raspi-config: System Options, "
                "Boot, Console) or start the box in the desktop")
    if env.get("WAYLAND_DISPLAY") or env.get("DISPLAY"):
        return "a desktop owns the screen: the map opens as a full-screen window of it"
    if not active:
        return "no console on this screen"
    if ours and active != ours:
        return f"the screen shows {active}, not the box's {ours}: switch with Ctrl+Alt+F{ours.removeprefix('tty')}"
    if ours:
        return f"{active}, the box's (graphics mode)" if held else f"{active}, the box's console"
    return f"{active}, the text console (may draw over the map)"
