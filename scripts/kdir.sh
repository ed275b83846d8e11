#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Print the kernel build directory the module is built against: the one
# place that finds it (the top Makefile, kernel/Makefile, lint-kernel.sh,
# modules_install). $KDIR wins when set; else the build tree of kernel
# version KVER (argument), by default the distribution kernel the
# developer VM boots (scripts/kver.sh). Fails, saying which package to
# install, when that tree is absent.
#
# Usage: kdir.sh [KVER]
set -eu

if [ -n "${KDIR:-}" ]; then
	echo "$KDIR"
	exit 0
fi
kver=${1:-$("$(dirname "$0")/kver.sh")}
for d in "/usr/src/linux-headers-$kver" "/lib/modules/$kver/build"; do
	if [ -f "$d/Makefile" ]; then
		echo "$d"
		exit 0
	fi
done
echo "kdir.sh: no build tree for kernel $kver (install linux-headers-$kver, or give KDIR=)" >&2
exit 1
