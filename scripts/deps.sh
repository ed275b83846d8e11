#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install everything the build and the tests need on a Debian 12 machine.
# Idempotent: when every package is present it only runs dpkg-query once
# and exits, so make targets can call it unconditionally.
set -eu

# liburing-dev: io_uring for the benchmark programs (bench/).
# linux-source-6.1: scripts/checkpatch.sh takes checkpatch.pl from it.
PKGS="gcc g++ make pkg-config libc6-dev linux-image-amd64 linux-headers-amd64
qemu-system-x86 busybox-static cpio check libpci-dev sparse kmod liburing-dev
libdrm-dev drm-info linux-source-6.1"
# Optional, only for scripts/build-debug-kernel.sh (never make check).
if [ "${1:-}" = --debug-kernel ]; then
	PKGS="linux-source-6.1 bc bison flex libelf-dev libssl-dev xz-utils"
fi

# One dpkg-query for all: it lists the packages dpkg knows, with their
# state, and says nothing (but on stderr) of those it has never seen.
# shellcheck disable=SC2016,SC2086
installed=" $(dpkg-query -W -f='${db:Status-Status} ${Package}\n' $PKGS 2>/dev/null |
	sed -n 's/^installed //p' | tr '\n' ' ')"
missing=""
for p in $PKGS; do
	case $installed in
	*" $p "*) ;;
	*) missing="$missing $p" ;;
	esac
done

# The image and headers metapackages must resolve to the same ABI: the guest
# boots exactly the kernel the module is built against.
if [ -z "$missing" ]; then
	ver=$(cd /usr/src && ls -d linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)
	ver=${ver#linux-headers-}
	[ -n "$ver" ] && [ -f "/boot/vmlinuz-$ver" ] && exit 0
	missing="linux-image-amd64 linux-headers-amd64"
fi

if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "deps.sh: missing packages:$missing (run as root)" >&2
		exit 1
	fi
else
	SUDO=
fi

echo "deps.sh: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# An update is needed on a fresh machine whose lists are empty or stale.
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "deps.sh: done"
