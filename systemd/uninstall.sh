#!/usr/bin/env bash
# Remove the storm companion service: sudo systemd/uninstall.sh [--dry-run]
# Removes the unit, the udev rule, the venv and the user; KEEPS /var/lib/companion (the journal)
# and /etc/companion (the configuration). Idempotent.
set -euo pipefail

DRY_RUN=0
[[ "${1:-}" == "--dry-run" ]] && DRY_RUN=1

run() {
    echo "+ $*"
    if [[ $DRY_RUN -eq 0 ]]; then "$@"; fi
}

if [[ $DRY_RUN -eq 0 && $EUID -ne 0 ]]; then
    echo "uninstall.sh: run as root (sudo systemd/uninstall.sh)" >&2
    exit 1
fi

if [[ -e /etc/systemd/system/companion.service ]]; then
    run systemctl disable --now companion.service
    run rm -f /etc/systemd/system/companion.service
    run systemctl daemon-reload
fi
if [[ -e /etc/udev/rules.d/99-dice-tower.rules || -e /etc/udev/rules.d/98-dice-tower-serial.rules ]]; then
    run rm -f /etc/udev/rules.d/99-dice-tower.rules /etc/udev/rules.d/98-dice-tower-serial.rules
    run udevadm control --reload-rules
fi
run rm -rf /opt/companion
if id companion >/dev/null 2>&1; then
    run userdel companion
fi
echo "removed; the journal in /var/lib/companion and /etc/companion/config.toml are kept"
