#!/usr/bin/env bash
# Build the appliance's guest: a Debian bookworm root made by mmdebstrap from Debian's own packages (the
# host's Debian apt sources), with systemd, udev, Python 3.11, Debian's kernel and the QEMU guest agent
# (the host's way in: it runs commands in the guest over a virtio serial port, as no network is given).
# Out: OUT/disk.img (raw ext4, read-only base of every run), OUT/vmlinuz, OUT/initrd.img.
# Usage: build_image.sh OUT
set -euo pipefail
OUT=$1
ARCH=$(dpkg --print-architecture)
case $ARCH in
    amd64) KERNEL=linux-image-amd64 ;;
    arm64) KERNEL=linux-image-arm64 ;;
    *) echo "build_image.sh: no guest kernel chosen for $ARCH" >&2; exit 2 ;;
esac
# What the box needs of the system beyond Python's wheels: the display stack SDL's KMSDRM path loads
# (libdrm, gbm, EGL), kmod for the drivers (virtio-gpu, ftdi_sio), and what install.sh calls.
PACKAGES=systemd-sysv,udev,dbus,kmod,procps,$KERNEL,initramfs-tools,python3,python3-venv,qemu-guest-agent
PACKAGES=$PACKAGES,libdrm2,libgbm1,libegl1,libgles2,libegl-mesa0,libgl1-mesa-dri,passwd,login

# The Debian sources the host itself installs from (the file that names Debian's archive keyring).
SOURCES=""
for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list; do
    if [[ -f $f ]] && grep -q 'debian-archive-keyring' "$f"; then SOURCES=$f; break; fi
done
if [[ -z $SOURCES ]]; then
    echo "build_image.sh: no Debian apt source on this host (a file naming debian-archive-keyring)" >&2
    exit 2
fi

WORK="$OUT.new"
rm -rf "$WORK"
mkdir -p "$WORK"
mmdebstrap --variant=minbase --quiet \
    --aptopt='Acquire::Check-Valid-Until "false"' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --include="$PACKAGES" \
    --customize-hook='echo appliance > "$1/etc/hostname"' \
    --customize-hook='printf "/dev/vda / ext4 defaults 0 1\nLABEL=payload /mnt/payload ext4 defaults,nofail 0 2\n" > "$1/etc/fstab"' \
    --customize-hook='mkdir -p "$1/mnt/payload"' \
    --customize-hook='chroot "$1" passwd --delete root >/dev/null' \
    --customize-hook='printf "[global]\nno-index = true\nfind-links = /mnt/payload/wheels\n" > "$1/etc/pip.conf"' \
    bookworm "$WORK/root" "$SOURCES"
cp "$WORK"/root/boot/vmlinuz-* "$WORK/vmlinuz"
cp "$WORK"/root/boot/initrd.img-* "$WORK/initrd.img"
mkfs.ext4 -q -F -L root -d "$WORK/root" "$WORK/disk.img" 4G
rm -rf "$WORK/root"
rm -rf "$OUT"
mv "$WORK" "$OUT"
