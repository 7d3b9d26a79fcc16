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

if ! id companion >/dev/null 2>&1; then
    run useradd --system --user-group --home-dir /var/lib/companion --no-create-home --shell /usr/sbin/nologin \
        companion
fi
# The unit names every group in SupplementaryGroups=; a group missing on this image would stop it from starting.
# video opens /dev/fb0 (the projector's framebuffer output) and the DRM devices.
for group in gpio i2c spi dialout video input bluetooth; do
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
# BOOT_CONFIG names another config.txt (an image mounted elsewhere).
if [[ -z "${BOOT_CONFIG:-}" ]]; then
    BOOT_CONFIG=/boot/firmware/config.txt
    [[ -e $BOOT_CONFIG ]] || BOOT_CONFIG=/boot/config.txt
fi
if [[ -e "$BOOT_CONFIG" ]] && ! grep -q '^dtparam=i2c_arm_baudrate=' "$BOOT_CONFIG"; then
    run sh -c "echo 'dtparam=i2c_arm_baudrate=400000' >> '$BOOT_CONFIG'"
fi
run systemctl daemon-reload
run systemctl enable companion.service
run systemctl restart companion.service
echo "installed: systemctl status companion; journalctl -u companion -f"
