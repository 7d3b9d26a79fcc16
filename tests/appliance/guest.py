"""The guest machine: QEMU started with Debian's kernel, and the two sockets the host drives it through.

QMP (QEMU's own monitor protocol) gives the screen dump and plugs the tower in and out, as a person at the
machine would; the QEMU guest agent (Debian's qemu-guest-agent, inside the guest, on a virtio serial port)
runs commands in the guest and returns their exit code and output, since the guest has no network.
Both speak JSON, one object a line; QMP also sends events between replies, which are set aside here.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import os
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


class GuestError(RuntimeError):
    """The machine did not do what was asked in time (the message says what)."""


@dataclass
class Done:
    """A command run in the guest: its exit code and what it printed."""

    code: int
    out: str
    err: str


class JsonSocket:
    """A Unix socket speaking one JSON object a line, connected with retries while QEMU creates it."""

    def __init__(self, path: Path, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(str(path))
                break
            except (FileNotFoundError, ConnectionRefusedError):
                self.sock.close()
                if time.monotonic() > deadline:
                    raise GuestError(f"{path}: QEMU never opened it") from None
                time.sleep(0.1)
        self._buffer = b""

    def send(self, message: dict) -> None:
        self.sock.sendall(json.dumps(message).encode() + b"\n")

    def receive(self, timeout: float) -> dict | None:
        """The next object, or None when nothing whole came within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                return None
            if not chunk:
                raise GuestError("QEMU closed the socket (the machine stopped)")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        line = line.replace(b"\xff", b"").strip()  # the agent's sync marker, when one is asked for
        if not line:
            return self.receive(max(0.0, deadline - time.monotonic()))
        return json.loads(line)

    def close(self) -> None:
        self.sock.close()


class Monitor:
    """QMP: QEMU's monitor. ``execute`` returns the reply's ``return`` (events are kept in ``events``)."""

    def __init__(self, path: Path) -> None:
        self.link = JsonSocket(path)
        self.events: list[dict] = []
        greeting = self.link.receive(30.0)
        if not greeting or "QMP" not in greeting:
            raise GuestError(f"QMP greeting expected, got {greeting!r}")
        self.execute("qmp_capabilities")

    def execute(self, command: str, timeout: float = 60.0, **arguments: object) -> object:
        self.link.send({"execute": command, "arguments": arguments} if arguments else {"execute": command})
        deadline = time.monotonic() + timeout
        while (reply := self.link.receive(max(0.0, deadline - time.monotonic()))) is not None:
            if "event" in reply:
                self.events.append(reply)
            elif "error" in reply:
                raise GuestError(f"QMP {command}: {reply['error'].get('desc', reply['error'])}")
            else:
                return reply.get("return")
        raise GuestError(f"QMP {command}: no answer in {timeout:.0f} s")


class Agent:
    """The QEMU guest agent: runs programs in the guest. ``wait`` until it answers (the guest booted)."""

    def __init__(self, path: Path) -> None:
        self.link = JsonSocket(path)
        self._ids = itertools.count(int(time.time()) % 100000 * 1000)

    def wait(self, timeout: float) -> float:
        """Seconds until the agent answered a sync; it starts late in the guest's boot."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            token = next(self._ids)
            self.link.send({"execute": "guest-sync-delimited", "arguments": {"id": token}})
            until = time.monotonic() + 2.0
            while (reply := self.link.receive(max(0.0, until - time.monotonic()))) is not None:
                if reply.get("return") == token:
                    return time.monotonic() - start
        raise GuestError(f"the guest agent did not answer in {timeout:.0f} s (the guest did not boot)")

    def _call(self, command: str, timeout: float = 30.0, **arguments: object) -> object:
        self.link.send({"execute": command, "arguments": arguments})
        reply = self.link.receive(timeout)
        if reply is None:
            raise GuestError(f"guest agent {command}: no answer in {timeout:.0f} s")
        if "error" in reply:
            raise GuestError(f"guest agent {command}: {reply['error'].get('desc', reply['error'])}")
        return reply.get("return")

    def run(self, command: str, timeout: float = 120.0, stdin: bytes | None = None) -> Done:
        """``sh -c command`` in the guest, as root; waits for it to end (GuestError after ``timeout`` s)."""
        arguments: dict[str, object] = {"path": "/bin/sh", "arg": ["-c", command], "capture-output": True}
        if stdin is not None:
            arguments["input-data"] = base64.b64encode(stdin).decode()
        started = self._call("guest-exec", **arguments)
        assert isinstance(started, dict)
        pid = started["pid"]
        deadline = time.monotonic() + timeout
        pause = 0.05
        while time.monotonic() < deadline:
            status = self._call("guest-exec-status", pid=pid)
            assert isinstance(status, dict)
            if status.get("exited"):
                out = base64.b64decode(status.get("out-data", "")).decode(errors="replace")
                err = base64.b64decode(status.get("err-data", "")).decode(errors="replace")
                return Done(int(status.get("exitcode", -1 if "signal" not in status else 128 + status["signal"])),
                            out, err)
            time.sleep(pause)  # the agent has no "tell me when it ends": its status is asked
            pause = min(pause * 2, 1.0)
        raise GuestError(f"in the guest, `{command}` did not end in {timeout:.0f} s")

    def write(self, path: str, data: bytes) -> None:
        """A file in the guest (through ``cat``; the agent's own file calls would do as well)."""
        done = self.run(f"cat > '{path}'", stdin=data)
        if done.code != 0:
            raise GuestError(f"writing {path} in the guest: {done.err.strip()}")


@dataclass
class Disks:
    base: Path
    """The cached root image (raw ext4), never written: each run writes a copy-on-write overlay."""
    payload: Path
    """The ext4 image with this run's source tree and wheels, mounted at /mnt/payload."""


class Machine:
    """QEMU with the guest's root, the payload, a virtio-gpu display, the agent's port, a USB bus for the tower.

    ``accel`` is ``tcg`` (software) here: this host's KVM does not start a stock Debian kernel.
    """

    def __init__(self, workdir: Path, kernel: Path, initrd: Path, disks: Disks, *, size: tuple[int, int],
                 memory: int = 1536, cpus: int = 2, accel: str = "tcg") -> None:
        self.workdir = workdir
        overlay = workdir / "root.qcow2"
        subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-F", "raw", "-b", str(disks.base), str(overlay)],
                       check=True)
        self.qmp_path = workdir / "qmp.sock"
        self.agent_path = workdir / "agent.sock"
        self.tower_path = workdir / "tower.sock"
        self.serial_log = workdir / "serial.log"
        # console=tty1 last, as Raspberry Pi OS has it: the kernel's and systemd's messages and the login
        # prompt all go to the screen the map is on, so the map must own it. The framebuffer is 32 bits a
        # pixel: virtio-gpu has no 16-bit format (asked for one, with video=Virtual-1:WxH-16, the kernel
        # makes no /dev/fb0 at all).
        append = "root=/dev/vda rw console=ttyS0,115200 console=tty1"
        accel_option = "tcg,thread=multi" if accel == "tcg" else accel
        self.command = [
            "qemu-system-x86_64", "-accel", accel_option, "-m", str(memory), "-smp", str(cpus),
            "-nodefaults", "-no-user-config", "-nic", "none", "-display", "none", "-vga", "none",
            "-kernel", str(kernel), "-initrd", str(initrd), "-append", append,
            "-drive", f"file={overlay},if=virtio,format=qcow2,cache=unsafe",
            "-drive", f"file={disks.payload},if=virtio,format=raw,cache=unsafe",
            "-device", f"virtio-gpu-pci,xres={size[0]},yres={size[1]}",
            "-serial", f"file:{self.serial_log}",
            "-qmp", f"unix:{self.qmp_path},server=on,wait=off",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=agent,path={self.agent_path},server=on,wait=off",
            "-device", "virtserialport,chardev=agent,name=org.qemu.guest_agent.0",
            "-device", "qemu-xhci,id=usb",
            "-chardev", f"socket,id=tower,path={self.tower_path},server=on,wait=off",
            # QEMU attaches the adapter to the bus only while the socket behind it is held: the cable.
            "-device", "usb-serial,chardev=tower,id=tower,bus=usb.0",
        ]
        self.log = open(workdir / "qemu.log", "wb")  # noqa: SIM115 - open as long as the machine runs
        self.process = subprocess.Popen(self.command, stdout=self.log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL)
        try:
            self.monitor = Monitor(self.qmp_path)
            self.agent = Agent(self.agent_path)
        except Exception:
            self.stop()
            raise

    def screendump(self, path: Path) -> Path:
        """QEMU's own picture of the display (PPM), what a projector on the HDMI port would show."""
        self.monitor.execute("screendump", filename=str(path))
        return path

    def stop(self) -> None:
        """Power off at once (nothing in the guest needs keeping) and wait for QEMU to end."""
        if self.process.poll() is None:
            with contextlib.suppress(Exception):
                self.monitor.execute("quit", timeout=10)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        for path in (self.qmp_path, self.agent_path, self.tower_path):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
