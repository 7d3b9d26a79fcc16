"""The tower's port is claimed with TIOCEXCL: a terminal program opening it while the box reads is refused."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

import serial

from firmware_bridge.link import _claim_tty


def test_a_claimed_port_refuses_another_open_by_a_non_root_user():
    master, slave = pty.openpty()
    path = os.ttyname(slave)
    os.chmod(path, 0o666)
    port = serial.Serial(path, exclusive=True)
    try:
        probe = [sys.executable, "-c", f"import os\ntry:\n    os.close(os.open({path!r}, os.O_RDWR | os.O_NOCTTY))\n"
                 "    print('opened')\nexcept OSError as exc:\n    print(exc.errno)"]
        as_user = {"user": "nobody"} if os.geteuid() == 0 else {}
        before = subprocess.run(["/usr/bin/python3", *probe[1:]], capture_output=True, text=True, timeout=30, **as_user)
        _claim_tty(port)
        after = subprocess.run(["/usr/bin/python3", *probe[1:]], capture_output=True, text=True, timeout=30, **as_user)
    finally:
        port.close()
        os.close(slave)
        os.close(master)
    assert before.stdout.strip() == "opened", before.stderr
    assert after.stdout.strip() == "16", after.stderr  # EBUSY
