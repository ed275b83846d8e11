#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Print the distribution kernel version the module is built for and the
# guest boots: the newest version with headers, an image and modules
# installed (Debian's linux-headers-amd64 and linux-image-amd64).
set -eu

for h in $(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -rV); do
	v=${h#/usr/src/linux-headers-}
	if [ -f "/boot/vmlinuz-$v" ] && [ -d "/lib/modules/$v/kernel" ]; then
		echo "$v"
		exit 0
	fi
done
echo "kver.sh: no kernel with matching headers, image and modules (run scripts/deps.sh)" >&2
exit 1
