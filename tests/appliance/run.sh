#!/usr/bin/env bash
# The appliance test: boots Debian under QEMU with systemd, udev and a virtio-gpu display, runs
# systemd/install.sh in it and checks the service, the screen, the watchdog, the lock and the tower
# (docs/appliance.md). Needs root (apt-get, mmdebstrap). Usage: tests/appliance/run.sh [--rebuild]
# Builds are kept in tests/appliance/cache (git-ignored): the guest image (keyed by build_image.sh),
# the wheels and the host's Python (keyed by pyproject.toml). A run's files go to tests/appliance/cache/run.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SRC="$(cd "$HERE/../.." && pwd)"
CACHE="$HERE/cache"
START=$(date +%s)

if [[ "${1:-}" == "--rebuild" ]]; then rm -rf "$CACHE"; shift; fi
if [[ $EUID -ne 0 ]]; then
    echo "run.sh: run as root (it installs QEMU with apt-get and builds the guest with mmdebstrap)" >&2
    exit 2
fi
if [[ "$(uname -m)" != x86_64 ]]; then
    echo "run.sh: the guest is x86_64 (this host is $(uname -m))" >&2
    exit 2
fi
if ! python3 -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
    echo "run.sh: the host's python3 must be 3.11, the guest's (Debian bookworm): it builds the guest's wheels" >&2
    exit 2
fi

need=()
command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
command -v qemu-img >/dev/null || need+=(qemu-utils)
command -v mmdebstrap >/dev/null || need+=(mmdebstrap)
command -v mkfs.ext4 >/dev/null || need+=(e2fsprogs)
command -v git >/dev/null || need+=(git)
if (( ${#need[@]} )); then
    echo "installing ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
mkdir -p "$CACHE"

IMAGE="$CACHE/image-$(sha256sum "$HERE/build_image.sh" | cut -c1-12)"
if [[ ! -e "$IMAGE/disk.img" ]]; then
    echo "building the guest image (mmdebstrap)"
    rm -rf "$CACHE"/image-*
    "$HERE/build_image.sh" "$IMAGE" >/dev/null
fi
echo "guest image ready: $(( $(date +%s) - START )) s"

KEY=$(cat "$SRC/pyproject.toml" "$HERE/run.sh" | sha256sum | cut -c1-12)
WHEELS="$CACHE/wheels-$KEY"
HOSTPY="$CACHE/host-$KEY"
if [[ ! -e "$WHEELS/.done" ]]; then
    echo "building the wheels (pip wheel)"
    rm -rf "$CACHE"/wheels-*
    # The guest has no network: everything pip needs there, the build backend included, comes from here.
    python3 -m pip wheel --quiet --wheel-dir "$WHEELS" "$SRC[ble]" "setuptools>=77" 2> >(grep -v 'is ignored' >&2)
    touch "$WHEELS/.done"
fi
if [[ ! -e "$HOSTPY/.done" ]]; then
    echo "making the host's Python (snapshot of the expected map, the tower's protocol, the screen's pixels)"
    rm -rf "$CACHE"/host-*
    python3 -m venv "$HOSTPY"
    "$HOSTPY/bin/pip" install --quiet --no-index --find-links "$WHEELS" "$SRC" 2> >(grep -v 'is ignored' >&2)
    touch "$HOSTPY/.done"
fi
echo "wheels and host Python ready: $(( $(date +%s) - START )) s"

# The source tree comes first on the path: the checks use this tree's code, not the copy pip installed.
set +e
PYTHONPATH="$HERE:$SRC" "$HOSTPY/bin/python" "$HERE/appliance.py" --src "$SRC" --image "$IMAGE" \
    --wheels "$WHEELS" --work "$CACHE/run" "$@"
code=$?
set -e
echo "appliance test: $(( $(date +%s) - START )) s wall, load $(cut -d' ' -f1-3 /proc/loadavg)"
exit $code
