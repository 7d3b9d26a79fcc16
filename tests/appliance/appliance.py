"""The appliance test: the box installed by systemd/install.sh on a real Debian with systemd and udev, under QEMU.

Started by tests/appliance/run.sh, which builds (or finds in its cache) the guest image, the wheels and the
host's Python for this script. Each check prints one line, PASS or FAIL, with what was seen; the last line
counts them. The guest's serial console, QEMU's log, install.sh's output, the guest's journal and every
screen dump are left in the work folder for a look afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from guest import Agent, Disks, Done, GuestError, Machine
from screen import Verdict, compare
from tower_port import SocketTower

BOX = "/opt/companion/venv/bin/companion"
AS_BOX = f"runuser -u companion -- {BOX}"
"""The box's own commands run as its user, as the service does (a root-owned file in its folder would lock
the service out)."""

ROLL = [("d8", 5)]
"""The roll the tower plays: a Kansas tornado's first track die (north-south line 5)."""
SECOND_ROLL = [("d8", 2)]
"""The one after the watchdog's restart: the same tornado's west-east line."""


def has_roll(export: str, dice: list[tuple[str, int]]) -> bool:
    """Whether a game's export (a header line, then its history) holds a dice event of exactly ``dice``."""
    events = [json.loads(line) for line in export.splitlines()[1:]]
    return any(e.get("type") == "dice" and [tuple(d) for d in e.get("dice", [])] == dice for e in events)


class Run:
    """The checks, in the order a person setting up the box would meet them."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.work: Path = args.work
        self.results: list[tuple[str, bool, str]] = []
        self.timings: list[tuple[str, float]] = []
        self.t0 = time.monotonic()
        self.size = tuple(int(n) for n in args.size.split("x"))
        self.tower: SocketTower | None = None

    # -- reporting --------------------------------------------------------------------------
    def check(self, name: str, ok: bool, detail: str) -> bool:
        self.results.append((name, ok, detail))
        print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}", flush=True)
        return ok

    def mark(self, phase: str) -> None:
        elapsed = time.monotonic() - self.t0
        self.timings.append((phase, elapsed))
        print(f"  [{elapsed:6.1f} s] {phase}", flush=True)

    # -- the guest --------------------------------------------------------------------------
    @property
    def agent(self) -> Agent:
        return self.machine.agent

    def sh(self, command: str, timeout: float = 120.0) -> Done:
        return self.agent.run(command, timeout=timeout)

    def service(self) -> dict[str, str]:
        done = self.sh("systemctl show -p ActiveState -p SubState -p MainPID -p NRestarts -p Result companion")
        return dict(line.split("=", 1) for line in done.out.splitlines() if "=" in line)

    def wait_for(self, what: str, test: Callable[[], bool], timeout: float) -> bool:
        """Ask the guest until ``test`` holds (the guest has no way to tell the host by itself)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if test():
                return True
            time.sleep(1.0)
        print(f"  (gave up waiting for {what} after {timeout:.0f} s)", flush=True)
        return False

    def journal(self, since: str = "") -> str:
        return self.sh(f"journalctl -u companion -o cat --no-pager {since}").out

    # -- the host ---------------------------------------------------------------------------
    def host_companion(self, *arguments: str) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ, PYTHONPATH=str(self.args.src), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                   PYGAME_HIDE_SUPPORT_PROMPT="1")
        return subprocess.run([sys.executable, "-m", "companion", *arguments], env=env, capture_output=True,
                              text=True, timeout=300, check=False)

    def expected_screen(self, export: str, name: str) -> Path:
        state = self.work / f"{name}.jsonl"
        state.write_text(export)
        out = self.work / f"{name}-expected.png"
        done = self.host_companion("snapshot", "kansas", "--state", str(state), "--size", self.args.size,
                                   "--out", str(out))
        if done.returncode != 0:
            raise GuestError(f"companion snapshot on the host: {done.stderr.strip()}")
        return out

    def screen(self, name: str, export: str) -> Verdict:
        live = self.machine.screendump(self.work / f"{name}.ppm")
        verdict = compare(live, self.expected_screen(export, name))
        subprocess.run([sys.executable, "-c", "import sys; from PIL import Image; "
                        "Image.open(sys.argv[1]).save(sys.argv[2])", str(live), str(self.work / f"{name}.png")],
                       check=False)
        return verdict

    def new_game(self) -> str:
        """A new Kansas game as a journal export, made on the host by the box's own code."""
        folder = self.work / "host-journal"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        env_journal = str(folder / "journal.sqlite3")
        done = subprocess.run(
            [sys.executable, "-m", "companion", "run", "--sim", "--headless", "--game", "kansas", "--stdin",
             "--journal", env_journal],
            input="quit\n", capture_output=True, text=True, timeout=300, check=False,
            env=dict(os.environ, PYTHONPATH=str(self.args.src), SDL_VIDEODRIVER="dummy"))
        if done.returncode != 0:
            raise GuestError(f"a new game on the host: {done.stderr.strip()[-300:]}")
        export = self.host_companion("export", "1", "--journal", env_journal)
        if export.returncode != 0:
            raise GuestError(f"companion export on the host: {export.stderr.strip()}")
        return export.stdout

    def guest_export(self) -> tuple[int, str]:
        """The guest box's open game (its id and export), read beside the running service."""
        games = self.sh(f"{AS_BOX} games --json").out
        ids = [game["id"] for game in map(json.loads, games.splitlines()) if not game.get("finished")]
        if not ids:
            raise GuestError(f"the guest's journal has no open game: {games.strip()!r}")
        export = self.sh(f"{AS_BOX} export {ids[-1]}")
        if export.code != 0:
            raise GuestError(f"companion export in the guest: {export.err.strip()}")
        return ids[-1], export.out

    # -- the run ----------------------------------------------------------------------------
    def payload(self) -> Path:
        """This run's source tree and the wheels, as an ext4 image the guest mounts at /mnt/payload."""
        folder = self.work / "payload"
        shutil.rmtree(folder, ignore_errors=True)
        copy_tree(self.args.src, folder / "src")
        shutil.copytree(self.args.wheels, folder / "wheels",
                        ignore=shutil.ignore_patterns("storm_companion-*"))
        image = self.work / "payload.img"
        image.unlink(missing_ok=True)
        subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "payload", "-d", str(folder), str(image), "1G"], check=True,
                       stdout=subprocess.DEVNULL)
        shutil.rmtree(folder)
        return image

    def start(self) -> None:
        image = self.args.image
        disks = Disks(base=image / "disk.img", payload=self.payload())
        self.machine = Machine(self.work, image / "vmlinuz", image / "initrd.img", disks, size=self.size)
        self.mark("QEMU started")

    def run(self) -> int:
        self.start()
        try:
            self.steps()
        except GuestError as exc:
            self.check("the run", False, str(exc))
        finally:
            self.collect()
            if self.tower is not None:
                self.tower.close()
            self.machine.stop()
        failed = sum(1 for _, ok, _ in self.results if not ok)
        passed = len(self.results) - failed
        print("timings: " + ", ".join(f"{phase} {t:.0f} s" for phase, t in self.timings))
        print(f"{passed} passed, {failed} failed")
        return 0 if failed == 0 and passed else 1

    def collect(self) -> None:
        """The guest's side of the story, for a look after a failure."""
        try:
            (self.work / "guest-journal.txt").write_text(self.sh("journalctl -b --no-pager", timeout=60).out)
        except (GuestError, OSError) as exc:
            print(f"  (no guest journal: {exc})")

    def steps(self) -> None:
        booted = self.agent.wait(600)
        state = self.sh("systemctl is-system-running --wait", timeout=300).out.strip()
        self.mark("booted")
        self.check("boot", state in ("running", "degraded"), f"systemd {state} after {booted:.0f} s "
                   f"(failed units: {self.sh('systemctl --failed --no-legend --plain').out.strip() or 'none'})")

        # The tower's cable goes in: QEMU attaches its USB serial adapter once the socket behind it is held.
        self.tower = SocketTower(self.machine.tower_path)
        plugged = self.wait_for("the guest's /dev/ttyUSB0", lambda: self.sh("test -c /dev/ttyUSB0").code == 0, 60)
        self.check("tower plugged in", plugged, self.sh("dmesg | grep -i ftdi | tail -1").out.strip() or "no FTDI")

        if self.args.console_off:
            # The checks' own check: with the console put in graphics mode by hand (KDSETMODE KD_GRAPHICS on tty1,
            # what a box that owns its display does), the kernel draws no text and no cursor, and the screen
            # checks must pass.
            done = self.sh("python3 -c \"import fcntl, os; fcntl.ioctl(os.open('/dev/tty1', os.O_RDWR), 0x4B3A, 1)\"")
            self.check("console in graphics mode (by hand)", done.code == 0, done.err.strip() or "KD_GRAPHICS on tty1")

        # The tower is the guest's /dev/ttyUSB0 (QEMU's FTDI adapter), not /dev/dice-tower (the udev rule
        # knows the RP2040's own USB id): the configuration names the port, as docs/configuration.md allows.
        config = (self.args.src / "systemd" / "config.example.toml").read_text()
        config = config.replace('port = ""', 'port = "/dev/ttyUSB0"', 1)
        self.sh("install -d -m 0755 /etc/companion")
        self.agent.write("/etc/companion/config.toml", config.encode())
        install = self.sh("bash /mnt/payload/src/systemd/install.sh", timeout=1200)
        (self.work / "install.log").write_text(install.out + install.err)
        self.mark("install.sh done")
        self.check("install.sh", install.code == 0, f"exit {install.code}"
                   + ("" if install.code == 0 else f": {(install.err or install.out).strip().splitlines()[-1:]}"))
        if install.code != 0:
            return

        status = self.service()
        journal = self.journal()
        self.check("READY after install", status.get("SubState") == "running" and "ready:" in journal,
                   f"{status.get('ActiveState')}/{status.get('SubState')}, "
                   + next((line for line in journal.splitlines() if "ready:" in line), "no ready line"))

        fb = self.sh("cd /sys/class/graphics/fb0 && echo $(cat name) $(cat virtual_size) $(cat bits_per_pixel)").out
        # The box may draw on /dev/fb0 or take the DRM device itself (SDL's KMSDRM): either, said in its log.
        shown = next((line for line in journal.splitlines() if "projector" in line
                      and ("fbdev" in line or "kmsdrm" in line.lower())), "no line naming the projector's output")
        self.check("display", bool(fb.strip()) and "no line" not in shown, f"fb0 {fb.strip() or 'absent'}; {shown}")

        # A game brought to the box: stop it, import the game as its user, start it; it resumes the game.
        self.agent.write("/tmp/game.jsonl", self.new_game().encode())
        self.sh("systemctl stop companion")
        imported = self.sh(f"{AS_BOX} import /tmp/game.jsonl")
        start = self.sh("systemctl start companion", timeout=300)
        status = self.service()
        pid = status.get("MainPID", "0")
        self.mark("game imported, box restarted")
        self.check("READY with a game", imported.code == 0 and start.code == 0 and status.get("SubState") == "running",
                   f"import exit {imported.code} {imported.err.strip()}, start exit {start.code}, "
                   f"{status.get('ActiveState')}/{status.get('SubState')} PID {pid}")

        # systemd/companion.service: every thread of the box real-time at the lowest priority (a roll never waits
        # behind another program for a core), set by systemd before the box's own RestrictRealtime= applies.
        said = self.sh(f"for t in /proc/{pid}/task/*; do chrt -p ${{t##*/}}; done").out
        policies = [line.rsplit(":", 1)[1].strip() for line in said.splitlines() if "policy" in line]
        priorities = [line.rsplit(":", 1)[1].strip() for line in said.splitlines() if "priority" in line]
        realtime = bool(policies) and set(policies) == {"SCHED_RR"} and set(priorities) == {"1"}
        self.check("real-time scheduling", realtime,
                   f"{len(policies)} threads: {sorted(set(policies))} priority {sorted(set(priorities))}")

        self.tower_checks(pid)

    def tower_checks(self, pid: str) -> None:
        tower = self.tower
        assert tower is not None
        seen = self.wait_for("the tower's HELLO in the box's log", lambda: "tower connected" in self.journal(), 60)
        self.check("tower seen", seen, next((line for line in self.journal().splitlines() if "tower connected" in line),
                                            "no 'tower connected' in the box's log"))
        seq = tower.roll(ROLL)
        acked = tower.wait_acked(seq, 60)
        game, export = self.guest_export()
        landed = has_roll(export, ROLL)
        self.mark("roll played")
        self.check("roll in the journal", acked and landed,
                   f"ROLL {seq} {'ACKed' if acked else 'never ACKed'}; game {game} has "
                   f"{len(export.splitlines()) - 1} events, {'with' if landed else 'without'} the roll D8=5")

        verdict = self.screen("map", export)
        self.mark("screen compared")
        self.check("map on the screen", verdict.map_shown(), verdict.describe())
        self.check("no console text over the map", verdict.no_console_text(), verdict.describe())

        # The tower's cable out and in (a bus-powered board: in again, it boots anew): the kernel's USB
        # messages go to the console, the screen the map is on.
        tower.close()
        gone = self.wait_for("the box to see the tower go", lambda: "tower lost" in self.journal(), 60)
        self.tower = tower = SocketTower(self.machine.tower_path)
        back = self.wait_for("the box to see the tower back", lambda: "tower back" in self.journal(), 90)
        verdict = self.screen("map-after-replug", export)
        self.mark("tower replugged")
        self.check("tower replugged", gone and back, f"lost seen: {gone}, back seen: {back}")
        self.check("no console text after the USB messages", verdict.map_shown() and verdict.no_console_text(),
                   verdict.describe())

        second = self.sh(f"{AS_BOX} run", timeout=120)
        said = (second.err + second.out).strip()
        self.check("second start refused", second.code == 75 and pid in said, f"exit {second.code}: {said}")

        self.watchdog(pid, tower, export)

    def watchdog(self, pid: str, tower: SocketTower, export: str) -> None:
        before = self.service()
        self.sh(f"kill -STOP {pid}")
        stopped = time.monotonic()
        restarted = self.wait_for(
            "systemd to restart the hung box",
            lambda: (s := self.service()).get("MainPID") not in (pid, "0") and s.get("SubState") == "running",
            180)
        took = time.monotonic() - stopped
        after = self.service()
        log = self.journal()
        timeout_line = next((line for line in log.splitlines() if "atchdog" in line), "no watchdog line")
        self.mark("watchdog restart")
        self.check("watchdog restarts a hung box",
                   restarted and int(after.get("NRestarts", 0)) > int(before.get("NRestarts", 0))
                   and "atchdog timeout" in timeout_line,
                   f"PID {pid} stopped; {took:.0f} s later PID {after.get('MainPID')} "
                   f"{after.get('SubState')}, restarts {before.get('NRestarts')}->{after.get('NRestarts')}; "
                   f"{timeout_line}")
        if not restarted:
            return
        seq = tower.roll(SECOND_ROLL)
        acked = tower.wait_acked(seq, 90)
        _, export = self.guest_export()
        landed = has_roll(export, SECOND_ROLL)
        verdict = self.screen("map-after-restart", export)
        self.check("roll after the restart", acked and landed,
                   f"ROLL {seq} {'ACKed' if acked else 'not ACKed'}, {'in' if landed else 'not in'} the journal")
        self.check("map back after the restart", verdict.map_shown() and verdict.no_console_text(),
                   verdict.describe())


def copy_tree(src: Path, dest: Path) -> None:
    """The working tree as it is (tracked and new files, none that git ignores: no .venv, no cache)."""
    listed = subprocess.run(["git", "-C", str(src), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, check=False)
    if listed.returncode != 0:
        shutil.copytree(src, dest, ignore=shutil.ignore_patterns(".git", ".venv", "cache", "__pycache__"))
        return
    for name in filter(None, listed.stdout.decode().split("\0")):
        source = src / name
        if source.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, required=True, help="the project's source tree")
    parser.add_argument("--image", type=Path, required=True, help="folder with disk.img, vmlinuz, initrd.img")
    parser.add_argument("--wheels", type=Path, required=True, help="the wheels the guest installs from")
    parser.add_argument("--work", type=Path, required=True, help="folder for this run's files (emptied)")
    parser.add_argument("--size", default="1920x1080", help="the display's size, as a projector's (1920x1080)")
    parser.add_argument("--console-off", action="store_true",
                        help="put the guest's console in graphics mode by hand first: the screen checks must then pass")
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    args.work.mkdir(parents=True)
    return Run(args).run()


if __name__ == "__main__":
    sys.exit(main())
