#!/usr/bin/env bash
# Install the storm companion as a service: sudo systemd/install.sh [--dry-run]
# Creates the user, the venv at /opt/companion/venv (and the docs beside it), /etc/companion/config.toml
# (only if absent), /var/lib/companion (a journal already there is kept and handed to the user), the unit
# and the udev rule; then enables and starts the service. Idempotent.
set -euo pipefail

DRY_RUN=0
[[ "${1:-}" == "--dry-run" ]] && DRY_RUN=1
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX=/opt/companion
VENV="$PREFIX/venv"

run() {
    echo "+ $*"
    if [[ $DRY_RUN -eq 0 ]]; then "$@"; fi
}

if [[ $DRY_RUN -eq 0 && $EUID -ne 0 ]]; then
    echo "install.sh: run as root (sudo systemd/install.sh)" >&2
    exit 1
fi

# A 32-bit system cannot run the box: PyPI has no armv7 (armhf) wheels for numpy, pygame-ce or Pillow, and
# building them on a Pi takes hours and a compiler. The userland decides, not the kernel: 32-bit Raspberry Pi
# OS runs a 64-bit kernel (uname -m says aarch64) under armhf programs.
ARCH="$(dpkg --print-architecture 2>/dev/null || uname -m)"
case "$ARCH" in
    armhf|armel|armv6l|armv7l|i386|i686)
        echo "install.sh: this is a 32-bit system ($ARCH): install 64-bit Raspberry Pi OS Lite (arm64)" >&2
        exit 1 ;;
esac

# Debian's packages the box loads: python3-venv for its environment; SDL's KMSDRM display (used by
# companion calibrate and driver = "kmsdrm") opens libdrm, GBM and EGL/GLES at run time, and Mesa's
# EGL and DRI drivers are what they load on the Pi's vc4/v3d (and on virtio-gpu).
APT_PACKAGES=(python3 python3-venv libdrm2 libgbm1 libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri)
if command -v apt-get >/dev/null; then
    missing=()
    for package in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    if [[ ${#missing[@]} -gt 0 ]]; then
        # A fresh image may have no package lists yet: fetch them once when the first try finds nothing.
        run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" || {
            run apt-get update
            run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
        }
    fi
fi

if ! id companion >/dev/null 2>&1; then
    run useradd --system --user-group --home-dir /var/lib/companion --no-create-home --shell /usr/sbin/nologin \
        companion
fi
# The unit names every group in SupplementaryGroups=; a group missing on this image would stop it from starting.
# video opens /dev/fb0 (the projector's framebuffer output) and /dev/dri/card*, render /dev/dri/renderD*.
for group in gpio i2c spi dialout video render input bluetooth; do
    if ! getent group "$group" >/dev/null; then
        run groupadd --system "$group"
    fi
    run usermod -aG "$group" companion
done

run install -d -m 0755 "$PREFIX"
if [[ ! -x "$VENV/bin/python" ]]; then
    # --system-site-packages: gpiozero finds the distro's python3-lgpio on a Pi.
    run python3 -m venv --system-site-packages "$VENV"
fi
# The [ble] extra: smart dice over Bluetooth (bleak); a box without them simply never pairs any.
run "$VENV/bin/pip" install --quiet --upgrade "$SRC[ble]"
run install -d -m 0755 "$PREFIX/docs"
run cp -r "$SRC/docs/." "$PREFIX/docs/"

run install -d -m 0755 /etc/companion
if [[ ! -e /etc/companion/config.toml ]]; then
    run install -m 0644 "$SRC/systemd/config.example.toml" /etc/companion/config.toml
fi
run install -d -m 0750 -o companion -g companion /var/lib/companion
# A journal kept by an uninstall belongs to the old user id; the new user must be able to write it.
run chown -R companion:companion /var/lib/companion

run install -m 0644 "$SRC/systemd/companion.service" /etc/systemd/system/companion.service
run install -m 0644 "$SRC/systemd/99-dice-tower.rules" /etc/udev/rules.d/99-dice-tower.rules
run udevadm control --reload-rules
run udevadm trigger --subsystem-match=tty
# The OLED's I2C bus at 400 kHz: at the Pi's default 100 kHz a whole 1 KB frame takes about 90 ms on the
# wire (23 ms at 400 kHz; the SSD1306 is rated for 400 kHz). Read at boot: it takes effect after a reboot.
# bootconfig.py puts it where the firmware applies it to every board and to the base device tree (not inside a
# [pi4] section, not after a dtoverlay= line), keeps the original beside it and says what it changed.
# BOOT_CONFIG names another config.txt (an image mounted elsewhere); none at all (plain Debian) is fine.
if [[ -z "${BOOT_CONFIG:-}" ]]; then
    BOOT_CONFIG=/boot/firmware/config.txt
    [[ -e $BOOT_CONFIG ]] || BOOT_CONFIG=/boot/config.txt
fi
if [[ -e "$BOOT_CONFIG" ]]; then
    if [[ $DRY_RUN -eq 1 ]]; then
        python3 "$SRC/systemd/bootconfig.py" --dry-run "$BOOT_CONFIG" i2c_arm_baudrate=400000
    else
        python3 "$SRC/systemd/bootconfig.py" "$BOOT_CONFIG" i2c_arm_baudrate=400000
    fi
else
    echo "no config.txt (not a Raspberry Pi image): the I2C speed is left to this system"
fi
run systemctl daemon-reload
run systemctl enable companion.service
run systemctl restart companion.service
echo "installed: systemctl status companion; journalctl -u companion -f"
