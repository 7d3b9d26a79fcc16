"""The unit file: systemd-analyze verify finds nothing to say, the exposure stays at 0.6 or lower, and the
service imports nothing from its working directory."""

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


def test_exposure_at_most_0_6():
    result = subprocess.run([ANALYZE, "security", "--offline=true", str(UNIT)],
                            capture_output=True, text=True, timeout=60)
    match = re.search(r"Overall exposure level for companion\.service: (\d+\.\d+)", result.stdout + result.stderr)
    assert match, result.stdout + result.stderr
    assert float(match.group(1)) <= 0.6


def test_unit_essentials():
    text = UNIT.read_text()
    for line in ("Type=notify", "Restart=on-failure", "RestartPreventExitStatus=2", "User=companion",
                 "DevicePolicy=closed",
                 "ProtectSystem=strict", "StateDirectory=companion", "NoNewPrivileges=yes"):
        assert re.search(rf"^{re.escape(line)}$", text, flags=re.M), line
    assert re.search(r"^WatchdogSec=\d+", text, flags=re.M)
    assert re.search(r"^ExecStart=/opt/companion/venv/bin/companion run$", text, flags=re.M)
    assert "PrivateDevices" not in text and "ProcSubset" not in text and "PrivateUsers" not in text


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
    for group in ("gpio", "i2c", "spi", "dialout", "video", "input"):  # every group the unit names
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
