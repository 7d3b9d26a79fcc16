"""install.sh on a Raspberry Pi's config.txt and on other systems: the I2C speed set where the firmware applies it to
every board and to the base device tree, a copy of the original kept, one line saying what changed; a 32-bit
system refused in one line; no config.txt (plain Debian) fine.

The samples are config.txt files as Raspberry Pi OS ships them and as people edit them; each is edited by the very
script install.sh runs (systemd/bootconfig.py), in a subprocess, on a file in tmp_path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parent.parent / "systemd"
SCRIPT = SYSTEMD / "bootconfig.py"

BOOKWORM = """\
# For more options and information see
# http://rptl.io/configtxt

# Uncomment some or all of these to enable the optional hardware interfaces
dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

# Enable DRM VC4 V3D driver
dtoverlay=vc4-kms-v3d
max_framebuffers=2

arm_64bit=1

[cm4]
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
"""


def edit(tmp_path: Path, text: str, *extra: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    path = tmp_path / "config.txt"
    path.write_text(text)
    result = subprocess.run([sys.executable, str(SCRIPT), *extra, str(path), "i2c_arm_baudrate=400000"],
                            capture_output=True, text=True, timeout=60)
    return result, path


def test_the_shipped_file_gets_the_speed_beside_the_line_that_turns_i2c_on(tmp_path):
    """Appending would land after [all] with vc4-kms-v3d the open overlay: a parameter of the display overlay."""
    result, path = edit(tmp_path, BOOKWORM)
    assert result.returncode == 0, result.stderr
    lines = path.read_text().splitlines()
    assert lines[4:6] == ["dtparam=i2c_arm=on", "dtparam=i2c_arm_baudrate=400000"]
    assert path.read_text().replace("dtparam=i2c_arm_baudrate=400000\n", "") == BOOKWORM  # nothing else moved
    assert (tmp_path / "config.txt.before-companion").read_text() == BOOKWORM
    out = result.stdout.strip()
    assert "\n" not in out and "line 6: added dtparam=i2c_arm_baudrate=400000 after dtparam=i2c_arm=on" in out
    assert "config.txt.before-companion" in out and not (tmp_path / "config.txt.companion-new").exists()


def test_a_file_ending_inside_a_board_section_is_not_appended_to(tmp_path):
    text = "arm_64bit=1\n[pi4]\narm_boost=1\n"
    result, path = edit(tmp_path, text)
    assert result.returncode == 0, result.stderr
    assert path.read_text() == "arm_64bit=1\ndtparam=i2c_arm_baudrate=400000\n[pi4]\narm_boost=1\n"
    assert "before [pi4]" in result.stdout


@pytest.mark.parametrize("chosen", ["dtparam=i2c_arm=on,i2c_arm_baudrate=100000,spi=on",
                                    "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=1000000",
                                    # the firmware's alias (boot/overlays/README: "i2c_baudrate  An alias for
                                    # i2c_arm_baudrate"), alone and combined
                                    "dtparam=i2c=on,i2c_baudrate=100000",
                                    "dtparam=i2c_arm=on\ndtparam=i2c_baudrate=1000000"])
def test_a_speed_already_chosen_is_not_overridden(tmp_path, chosen):
    """Appending would put a second setting after the owner's, and the firmware takes the last one read."""
    text = f"{chosen}\ndtoverlay=vc4-kms-v3d\n"
    result, path = edit(tmp_path, text)
    assert path.read_text() == text and "already set for every board; unchanged" in result.stdout
    assert not (tmp_path / "config.txt.before-companion").exists()


def test_lines_in_a_board_section_or_after_an_overlay_are_not_the_base_setting(tmp_path):
    text = ("dtoverlay=vc4-kms-v3d\ndtparam=i2c_arm_baudrate=400000\n"  # the overlay's, not the base tree's
            "[pi4]\ndtparam=i2c_arm=on\n[all]\n")
    result, path = edit(tmp_path, text)
    assert path.read_text().splitlines()[0] == "dtparam=i2c_arm_baudrate=400000"
    assert path.read_text().splitlines()[1:] == text.splitlines()
    assert "before dtoverlay=vc4-kms-v3d" in result.stdout


def test_a_bare_dtoverlay_closes_the_overlay(tmp_path):
    text = "dtoverlay=vc4-kms-v3d\ndtoverlay=\ndtparam=i2c_arm=on\n"
    _, path = edit(tmp_path, text)
    assert path.read_text() == text + "dtparam=i2c_arm_baudrate=400000\n"


def test_a_second_run_changes_nothing_and_keeps_the_first_backup(tmp_path):
    _, path = edit(tmp_path, BOOKWORM)
    edited = path.read_text()
    result = subprocess.run([sys.executable, str(SCRIPT), str(path), "i2c_arm_baudrate=400000"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "unchanged" in result.stdout
    assert path.read_text() == edited and (tmp_path / "config.txt.before-companion").read_text() == BOOKWORM


def test_crlf_and_a_missing_last_newline_are_kept(tmp_path):
    _, path = edit(tmp_path, "dtparam=i2c_arm=on\r\narm_64bit=1")
    assert path.read_bytes() == b"dtparam=i2c_arm=on\r\ndtparam=i2c_arm_baudrate=400000\r\narm_64bit=1"


def test_dry_run_says_and_writes_nothing(tmp_path):
    result, path = edit(tmp_path, BOOKWORM, "--dry-run")
    assert result.returncode == 0 and "would change line 6" in result.stdout
    assert path.read_text() == BOOKWORM and not (tmp_path / "config.txt.before-companion").exists()


def run_install(tmp_path: Path, arch: str, **env: str) -> subprocess.CompletedProcess[str]:
    """install.sh --dry-run with a dpkg on PATH that reports ``arch`` (the userland's architecture)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    dpkg = bin_dir / "dpkg"
    dpkg.write_text(f"#!/bin/sh\n[ \"$1\" = --print-architecture ] && echo {arch} && exit 0\n"
                    "exec /usr/bin/dpkg \"$@\"\n")
    dpkg.chmod(0o755)
    environ = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", **env}
    return subprocess.run(["bash", str(SYSTEMD / "install.sh"), "--dry-run"], capture_output=True, text=True,
                          timeout=60, env=environ)


@pytest.mark.parametrize("arch", ["armhf", "armel", "i386"])
def test_a_32_bit_system_is_refused_in_one_line(tmp_path, arch):
    result = run_install(tmp_path, arch)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.strip() == f"install.sh: this is a 32-bit system ({arch}): install 64-bit Raspberry Pi " \
                                    "OS Lite (arm64)"


def test_a_64_bit_system_without_config_txt_installs(tmp_path):
    result = run_install(tmp_path, "arm64", BOOT_CONFIG=str(tmp_path / "absent.txt"))
    assert result.returncode == 0, result.stderr
    assert "no config.txt" in result.stdout and "systemctl enable companion.service" in result.stdout


def test_install_edits_the_named_config_txt_in_its_dry_run(tmp_path):
    config = tmp_path / "config.txt"
    config.write_text(BOOKWORM)
    result = run_install(tmp_path, "arm64", BOOT_CONFIG=str(config))
    assert result.returncode == 0, result.stderr
    assert "would change line 6: added dtparam=i2c_arm_baudrate=400000" in result.stdout
    assert config.read_text() == BOOKWORM


KMSDRM_SONAMES = {"libdrm.so.2": "libdrm2", "libgbm.so.1": "libgbm1", "libEGL.so.1": "libegl1",
                  "libGLESv2.so.2": "libgles2"}
"""What SDL2's KMSDRM video opens with dlopen (libdrm and GBM, then EGL and OpenGL ES 2 for its renderer), and the
Debian bookworm package that ships each (``dpkg -S``)."""


def bundled_sdl() -> Path:
    """The SDL2 library inside the installed pygame-ce wheel (the one the box loads)."""
    import pygame

    site = Path(pygame.__file__).resolve().parent.parent
    found = sorted(site.glob("pygame*.libs/libSDL2-2*.so*"))
    assert found, f"no SDL2 bundled with pygame-ce under {site}"
    return found[0]


def test_install_brings_the_libraries_the_kmsdrm_display_loads():
    text = (SYSTEMD / "install.sh").read_text()
    line = next(x for x in text.splitlines() if x.startswith("APT_PACKAGES=("))
    packages = line.partition("(")[2].rstrip(")").split()
    sdl = bundled_sdl().read_bytes()
    for soname, package in KMSDRM_SONAMES.items():
        assert b"\0" + soname.encode() + b"\0" in sdl, f"SDL no longer opens {soname}"  # the real SDL names it
        assert package in packages, package
    for package in ("libegl-mesa0", "libgl1-mesa-dri", "python3-venv"):  # Mesa's EGL and DRI drivers: what EGL loads
        assert package in packages, package
