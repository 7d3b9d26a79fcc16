"""The console under the map: put in graphics mode on this machine's real virtual terminals (tty1, tty2), the way
the service gets it (its controlling terminal, no capability), given back on every stop a process can see. Who owns
the screen, said in one line.

These run as root (as CI and the service's installer do): a child opens tty1 as its controlling terminal and then
drops to an unprivileged user, which is what systemd's TTYPath= with StandardInput=tty-force gives the service."""

from __future__ import annotations

import fcntl
import os
import pty
import signal
import subprocess
import sys
from collections.abc import Iterator

import pygame
import pytest

from companion.views.projector import console
from companion.views.projector.console import KD_GRAPHICS, KD_TEXT, ConsoleError, Session, screen_owner

TTY = "/dev/tty1"


def mode_of(path: str = TTY) -> int | None:
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    try:
        return console.vt_mode(fd)
    finally:
        os.close(fd)


def set_mode(mode: int, path: str = TTY) -> None:
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    try:
        fcntl.ioctl(fd, console.KDSETMODE, mode)
    finally:
        os.close(fd)


def reset_console() -> None:
    """tty1 in text mode, its keys making signals and echoing (as a getty leaves it)."""
    import termios

    set_mode(KD_TEXT)
    fd = os.open(TTY, os.O_RDWR | os.O_NOCTTY)
    try:
        attrs = termios.tcgetattr(fd)
        attrs[3] |= termios.ISIG | termios.ICANON | termios.ECHO
        termios.tcsetattr(fd, termios.TCSANOW, attrs)
    finally:
        os.close(fd)


@pytest.fixture
def text_console() -> Iterator[None]:
    """tty1 as a getty leaves it, before and after (whatever a test's child left: a SIGKILL leaves it held)."""
    reset_console()
    yield
    reset_console()


AS_THE_SERVICE = """
import os, signal, sys, time
os.setsid()
fd = os.open("/dev/tty1", os.O_RDWR)  # the controlling terminal, as systemd opens TTYPath= for the service
os.dup2(fd, 0)
from companion.views.projector.console import take_console, vt_mode
os.setgid(65534)
os.setuid(65534)  # no capability left: only the controlling terminal allows KDSETMODE
import termios
held = take_console()
print(held.name, vt_mode(0), flush=True)
how = sys.argv[1]
if how == "release":
    keys = termios.tcgetattr(0)[3] & termios.ISIG
    held.release()
    print(vt_mode(0), keys, termios.tcgetattr(0)[3] & termios.ISIG, flush=True)
elif how == "exception":
    raise RuntimeError("a bug out of the loop")
elif how in ("term", "kill"):
    sys.stdin = None
    os.kill(os.getpid(), signal.SIGTERM if how == "term" else signal.SIGKILL)
    time.sleep(30)
"""


def as_the_service(how: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", AS_THE_SERVICE, how], capture_output=True, text=True, timeout=60)


def test_the_service_switches_its_own_console_without_a_capability(text_console):
    done = as_the_service("release")
    assert done.returncode == 0, done.stderr
    import termios

    # and while held, Ctrl+C on a keyboard at the Pi makes no SIGINT (ISIG off), given back on release
    assert done.stdout.split() == ["tty1", str(KD_GRAPHICS), str(KD_TEXT), "0", str(termios.ISIG)]
    assert mode_of() == KD_TEXT


@pytest.mark.parametrize(("how", "code"), [("exception", 1), ("term", -signal.SIGTERM)])
def test_the_console_comes_back_when_the_program_ends_badly(text_console, how, code):
    done = as_the_service(how)
    assert done.stdout.split() == ["tty1", str(KD_GRAPHICS)] and done.returncode == code, done.stderr
    assert mode_of() == KD_TEXT


def test_a_killed_program_leaves_graphics_mode_which_is_why_the_unit_resets_the_tty(text_console):
    done = as_the_service("kill")
    assert done.returncode == -signal.SIGKILL and mode_of() == KD_GRAPHICS  # TTYReset=yes covers this one


def test_a_console_that_is_not_the_programs_own_is_refused_in_one_line(text_console):
    code = ("import os\n"
            "fd = os.open('/dev/tty1', os.O_RDWR | os.O_NOCTTY)\n"
            "from companion.views.projector.console import take_console, ConsoleError\n"
            "os.setuid(65534)\n"
            "try:\n    take_console((fd,))\nexcept ConsoleError as exc:\n    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "tty1: cannot switch to graphics (not this program's console)", done.stderr
    assert mode_of() == KD_TEXT


def test_a_pseudo_terminal_is_no_console():
    leader, follower = pty.openpty()
    try:
        assert console.vt_mode(follower) is None
        with pytest.raises(ConsoleError, match="no virtual terminal"):
            console.take_console((follower,))
    finally:
        os.close(leader)
        os.close(follower)


def test_who_owns_the_screen_is_one_line():
    desktop = Session("3", "wayland", 7)
    assert screen_owner("tty1", "tty7", desktop, {}).startswith("a desktop (wayland) owns the screen: boot to the "
                                                                "console")
    assert screen_owner("", "", None, {"WAYLAND_DISPLAY": "wayland-0"}) == \
        "a desktop owns the screen: the map opens as a full-screen window of it"
    assert screen_owner("tty1", "tty2", Session("5", "tty", 2), {}) == \
        "the screen shows tty2, not the box's tty1: switch with Ctrl+Alt+F1"
    assert screen_owner("tty1", "tty1", None, {}) == "tty1, the box's (graphics mode)"
    assert screen_owner("", "tty1", None, {}) == "tty1, the text console (may draw over the map)"
    for line in (screen_owner("tty1", "tty7", desktop, {}), screen_owner("", "", None, {})):
        assert "\n" not in line


def test_logind_is_asked_through_its_library_and_its_absence_is_no_error():
    session = console.active_session()
    assert session is None or (session.name and session.kind)


def test_the_box_at_a_console_owns_it_while_the_fbdev_view_is_open(tmp_path, text_console):
    """own_console, as FbdevOutput.open calls it for a /dev framebuffer: graphics mode held, text mode on close."""
    from companion.views.projector.fbdev import own_console

    said: list[str] = []
    held = own_console("/dev/fb0", said.append)  # root: the foreground VT through /dev/tty0
    assert held is not None and held.name == console.active_vt() and console.vt_mode(held.fd) == KD_GRAPHICS
    assert said == []  # the box's own VT is in front: nothing to say
    held.release()
    assert mode_of() == KD_TEXT
    assert own_console(str(tmp_path / "fb0"), said.append) is None  # a regular file is no console's
    pygame.display.quit()
