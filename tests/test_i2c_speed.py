"""install.sh sets the OLED's I2C bus to 400 kHz in the Pi's config.txt, once."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "systemd" / "install.sh"


def _dry_run(config: Path) -> str:
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True, timeout=60,
                            env={**os.environ, "BOOT_CONFIG": str(config)})
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_install_adds_the_400_khz_line_to_config_txt(tmp_path):
    config = tmp_path / "config.txt"
    config.write_text("dtparam=i2c_arm=on\n")
    out = _dry_run(config)
    assert f"{config}: would change line 2: added dtparam=i2c_arm_baudrate=400000 after dtparam=i2c_arm=on" in out
    assert out.index("i2c_arm_baudrate") < out.index("systemctl restart companion.service")


def test_install_leaves_a_speed_already_set_alone(tmp_path):
    config = tmp_path / "config.txt"
    config.write_text("dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=1000000\n")
    out = _dry_run(config)
    assert "i2c_arm_baudrate already set for every board; unchanged" in out and "would change" not in out
