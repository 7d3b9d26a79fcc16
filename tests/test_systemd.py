"""The unit file: systemd-analyze verify finds nothing to say, and the exposure stays at 2.5 or lower."""

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


def test_exposure_at_most_2_5():
    result = subprocess.run([ANALYZE, "security", "--offline=true", str(UNIT)],
                            capture_output=True, text=True, timeout=60)
    match = re.search(r"Overall exposure level for companion\.service: (\d+\.\d+)", result.stdout + result.stderr)
    assert match, result.stdout + result.stderr
    assert float(match.group(1)) <= 2.5


def test_unit_essentials():
    text = UNIT.read_text()
    for line in ("Type=notify", "Restart=on-failure", "User=companion", "DevicePolicy=closed",
                 "ProtectSystem=strict", "StateDirectory=companion", "NoNewPrivileges=yes"):
        assert re.search(rf"^{re.escape(line)}$", text, flags=re.M), line
    assert re.search(r"^WatchdogSec=\d+", text, flags=re.M)
    assert re.search(r"^ExecStart=/opt/companion/venv/bin/python -m companion run$", text, flags=re.M)
    assert "PrivateDevices" not in text and "ProcSubset" not in text and "PrivateUsers" not in text
