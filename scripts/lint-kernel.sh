#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the module at W=1 with sparse (C=2: every file) in a scratch
# copy, so the regular build is not disturbed; any warning fails.
# Usage: lint-kernel.sh [KDIR]   (default: scripts/kdir.sh)
set -eu

kdir=${1:-$("$(dirname "$0")/kdir.sh")}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/kernel" "$tmp/include"
cp "$root"/kernel/*.[ch] "$root/kernel/Kbuild" "$tmp/kernel/"
[ ! -d "$root/include/uapi" ] || cp -r "$root/include/uapi" "$tmp/include/"
make -s -C "$kdir" M="$tmp/kernel" W=1 C=2 modules > "$tmp/log" 2>&1 || {
	cat "$tmp/log"
	echo "lint: the module does not build" >&2
	exit 1
}
if grep -E 'warning:|error:' "$tmp/log"; then
	echo "lint: the module is not clean at W=1 / sparse" >&2
	exit 1
fi
echo "lint: kernel/ clean at W=1 and sparse"
