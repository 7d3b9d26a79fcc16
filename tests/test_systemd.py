"""The unit file: systemd-analyze verify finds nothing to say, the exposure stays at 1.1 or lower, udev's device
events can reach the service (netlink allowed, no private network namespace: shown on this kernel), the console
is the service's, and the service imports nothing from its working directory."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parent.parent / "systemd" / "companion.service"
ANALYZE = "/usr/bin/systemd-analyze"


def verify(text: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Verify ``text`` as companion.service with ExecStart pointing at a binary this machine has."""
    python = Path(sys.executable).resolve()
    text = re.sub(r"^ExecStart=\S+", f"ExecStart={python}", text, flags=re.M)
    unit = tmp_path / "companion.service"
    unit.write_text(text)
    return subprocess.run([ANALYZE, "verify", str(unit)], capture_output=True, text=True, timeout=60)


def test_unit_verifies_clean(tmp_path):
    result = verify(UNIT.read_text(), tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "" and result.stdout.strip() == ""


@pytest.mark.parametrize(("old", "new"), [("ProtectHome=", "ProtectHme="), ("Type=notify", "Type=notfy")])
def test_broken_unit_is_caught(tmp_path, old, new):
    result = verify(UNIT.read_text().replace(old, new, 1), tmp_path)
    assert result.returncode != 0 or result.stderr.strip()


def test_exposure_at_most_1_1():
    result = subprocess.run([ANALYZE, "security", "--offline=true", str(UNIT)],
                            capture_output=True, text=True, timeout=60)
    match = re.search(r"Overall exposure level for companion\.service: (\d+\.\d+)", result.stdout + result.stderr)
    assert match, result.stdout + result.stderr
    assert float(match.group(1)) <= 1.1


def test_unit_essentials():
    text = UNIT.read_text()
    for line in ("Type=notify", "Restart=on-failure", "RestartPreventExitStatus=2", "User=companion",
                 "DevicePolicy=closed",
                 "ProtectSystem=strict", "StateDirectory=companion", "NoNewPrivileges=yes"):
        assert re.search(rf"^{re.escape(line)}$", text, flags=re.M), line
    assert re.search(r"^WatchdogSec=\d+", text, flags=re.M)
    assert re.search(r"^ExecStart=/opt/companion/venv/bin/companion run$", text, flags=re.M)
    assert "PrivateDevices" not in text and "ProcSubset" not in text and "PrivateUsers" not in text


def directive(name: str) -> list[str]:
    return re.findall(rf"^{name}=(.*)$", UNIT.read_text(), flags=re.M)


def test_udev_events_reach_the_service():
    """pyudev's monitor is a netlink socket: AF_NETLINK allowed, and no private network namespace (its netlink
    is its own: udev's events from the host never arrive there; see the next test)."""
    assert directive("RestrictAddressFamilies") == ["AF_UNIX AF_NETLINK"]
    assert directive("PrivateNetwork") == [] and directive("IPAddressDeny") == ["any"]


NETLINK_KOBJECT_UEVENT = 15
UDEV_GROUP = 2
"""libudev's multicast group: the events systemd-udevd sends once it has handled a device (pyudev's default)."""
LISTENER = f"""
import socket, sys
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, {NETLINK_KOBJECT_UEVENT})
s.bind((0, 1 << ({UDEV_GROUP} - 1)))
print("bound", flush=True)
sys.stdin.readline()  # the event has been sent: netlink delivers a multicast before sendto returns
s.setblocking(False)
try:
    print(s.recv(4096).decode(), flush=True)
except BlockingIOError:
    print("nothing", flush=True)
"""


def listen(prefix: list[str]) -> subprocess.Popen[str]:
    child = subprocess.Popen([*prefix, sys.executable, "-c", LISTENER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    assert child.stdout is not None and child.stdout.readline() == "bound\n"
    return child


def test_a_private_network_namespace_never_hears_udev():
    """The reason the unit has no PrivateNetwork=: a udev-style event multicast in the host's namespace reaches a
    listener there and not one in a namespace of its own, as PrivateNetwork=yes would give the service."""
    import socket

    host, private = listen([]), listen(["unshare", "--net"])
    try:
        with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_KOBJECT_UEVENT) as sender:
            sender.bind((0, 0))
            sender.sendto(b"add@/devices/test\0ACTION=add", (0, 1 << (UDEV_GROUP - 1)))
        said = {}
        for name, child in (("host", host), ("private", private)):
            said[name] = child.communicate("sent\n", timeout=30)[0].strip()
        assert said["host"].startswith("add@/devices/test") and said["private"] == "nothing"
    finally:
        for child in (host, private):
            if child.poll() is None:
                child.kill()
                child.wait()


def test_the_service_starts_after_bluetooth_without_needing_it():
    after = " ".join(directive("After")).split()
    assert "bluetooth.target" in after and "bluetooth.target" in directive("Wants")
    assert not any("bluetooth" in line for line in directive("Requires") + directive("BindsTo"))


def test_the_service_owns_the_console_it_shows_and_gives_it_back():
    """tty1 as the service's controlling terminal (what lets KDSETMODE work without a capability), its getty
    stopped while the box runs, text mode back whenever the service ends (TTYReset=), logs still to the journal."""
    assert directive("TTYPath") == ["/dev/tty1"] and directive("StandardInput") == ["tty-force"]
    assert directive("TTYReset") == ["yes"] and directive("Conflicts") == ["getty@tty1.service"]
    assert "getty@tty1.service" in " ".join(directive("After")).split()
    assert directive("StandardOutput") == ["journal"] and directive("StandardError") == ["journal"]
    groups = directive("SupplementaryGroups")[0].split()
    assert {"video", "render", "input", "gpio", "i2c", "dialout"} <= set(groups)


def test_a_module_planted_in_the_working_directory_is_not_imported(tmp_path):
    """ExecStart as the unit has it (its venv mapped to this one), run in a WorkingDirectory holding a json.py:
    the planted module never runs. The same folder does hijack `python -m companion`, the unit's old line."""
    [command] = re.findall(r"^ExecStart=(.+)$", UNIT.read_text(), flags=re.M)
    argv = command.replace("/opt/companion/venv", sys.prefix).split()
    assert argv[-1] == "run"
    planted = tmp_path / "json.py"
    marker = tmp_path / "planted-module-ran"
    planted.write_text(f"open({str(marker)!r}, 'w').close()\nraise SystemExit('planted json.py ran')\n")

    def start(args: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*args[:-1], "--version"], cwd=tmp_path, capture_output=True, text=True, timeout=60)

    safe = start(argv)
    assert safe.returncode == 0 and safe.stdout.startswith("companion ") and not marker.exists(), safe.stderr
    hijacked = start([sys.executable, "-m", "companion", "run"])
    assert marker.exists() and "planted json.py ran" in hijacked.stderr


def test_install_dry_run_lists_every_step():
    script = UNIT.parent / "install.sh"
    result = subprocess.run(["bash", str(script), "--dry-run"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for step in ("useradd --system --user-group", "venv --system-site-packages /opt/companion/venv",
                 "/etc/systemd/system/companion.service", "/etc/udev/rules.d/99-dice-tower.rules",
                 "systemctl enable companion.service", "cp -r ", "/opt/companion/docs/",
                 "install -d -m 0750 -o companion -g companion /var/lib/companion"):
        assert step in out, step
    for group in directive("SupplementaryGroups")[0].split():  # every group the unit names
        assert f"usermod -aG {group} companion" in out, group
    # a journal kept from an earlier install is handed to the (possibly new) user id, after the folder exists
    assert out.index("install -d -m 0750 -o companion") < out.index("chown -R companion:companion /var/lib/companion")
    assert "rm " not in out


def test_uninstall_keeps_the_journal():
    script = UNIT.parent / "uninstall.sh"
    result = subprocess.run(["bash", str(script), "--dry-run"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "rm -rf /opt/companion" in result.stdout and "/var/lib/companion" not in result.stdout.split("removed;")[0]


# The kernel's names for the character devices the parts open, as /proc/devices lists them (the names
# DeviceAllow=char-NAME matches): cdc-acm, usb-serial, i2c-dev, spidev ("spi", not "spidev"), gpiolib, drm, fbmem
# ("fb": /dev/fb0, the projector's fbdev output), evdev.
DEVICE_GROUPS = {"ttyACM": "rw", "ttyUSB": "rw", "i2c": "rw", "spi": "rw", "gpiochip": "rw", "drm": "rw", "fb": "rw",
                 "input": "r"}


def test_device_allow_names_the_kernel_driver_groups():
    allowed = dict(re.findall(r"^DeviceAllow=char-(\S+) (\w+)$", UNIT.read_text(), flags=re.M))
    assert allowed == DEVICE_GROUPS
    # the console by its path alone: char-tty would be every VT and every serial port
    assert re.findall(r"^DeviceAllow=(/\S+) (\w+)$", UNIT.read_text(), flags=re.M) == [("/dev/tty1", "rw")]


def test_documentation_points_where_install_puts_the_docs():
    [doc] = re.findall(r"^Documentation=file://(\S+)$", UNIT.read_text(), flags=re.M)
    assert doc == "/opt/companion/docs/systemd.md"
    assert (UNIT.parent.parent / "docs" / "systemd.md").is_file()


def test_udev_rule_matches_tower_usb_id():
    from firmware_bridge.link import DEFAULT_USB_ID

    vid, pid = DEFAULT_USB_ID.lower().split(":")
    rule = (UNIT.parent / "99-dice-tower.rules").read_text()
    assert f'ATTRS{{idVendor}}=="{vid}"' in rule and f'ATTRS{{idProduct}}=="{pid}"' in rule
    assert 'SYMLINK+="dice-tower"' in rule


def test_example_config_is_the_defaults():
    from companion.config import Config, load_config

    assert load_config(UNIT.parent / "config.example.toml") == Config()


def test_the_box_runs_real_time_at_the_lowest_priority_and_cannot_raise_itself():
    """A roll's turn takes a core as soon as it is ready (docs/systemd.md): SCHED_RR at priority 1 for every thread
    of the box (no reset on fork: the kernel would reset each new thread's policy too, as the appliance test saw),
    and no further raise from inside; the service and roll_parts benchmarks read the same policy from the unit
    when they time the box under it."""
    import os

    from benchmarks.bench_service import unit_scheduling

    assert directive("CPUSchedulingPolicy") == ["rr"] and directive("CPUSchedulingPriority") == ["1"]
    assert directive("CPUSchedulingResetOnFork") == [] and directive("RestrictRealtime") == ["yes"]
    assert unit_scheduling(UNIT) == (os.SCHED_RR, 1)
