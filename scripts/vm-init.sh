#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /init of the developer VM (packed into the initramfs by tools/npu-vm).
#
# Serial ports: ttyS0 carries the command's stdio, ttyS1 is the kernel
# console (read back by npu-vm to look for oopses and warnings), ttyS2 is
# the control channel: one "NPU_VM_<WORD> ..." line per milestone.
#
# The host's root file system is mounted read-only over 9p and the
# command runs chrooted into it, so host binaries run unchanged.

/bin/busybox --install -s /bin
# Busybox first in /bin; after the chroot the same list finds the host's.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

ctl() {
	echo "NPU_VM_$*" > /dev/ttyS2
}

die() {
	ctl "FAIL $*"
	poweroff -f
}

# Written by npu-vm: MODE CWD PROJECT KO LOAD MODULE_ARGS SHARES TIMEOUT
. /run.conf
ctl BOOTED

for m in $(cat /modules/order); do
	insmod "/modules/$m" || die "insmod $m"
done

H=/host
mkdir -p $H
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,ro hostroot $H ||
	die "mount of the host root over 9p"

mount -t proc proc $H/proc
mount -t sysfs sysfs $H/sys
mount -t devtmpfs devtmpfs $H/dev
mkdir -p $H/dev/pts $H/dev/shm
mount -t devpts devpts $H/dev/pts
mount -t tmpfs tmpfs $H/dev/shm
# A second view of the host root, not covered by the tmpfs mounts below:
# the project or the current directory may live under /tmp or /root.
mkdir -p /hostro
mount --bind $H /hostro
for d in /tmp /run /var/tmp /root; do
	mount -t tmpfs tmpfs "$H$d"
	for p in "$PROJECT" "$CWD"; do
		case "$p/" in
		"$d"/*)
			mkdir -p "$H$p"
			mount --bind "/hostro$p" "$H$p"
			;;
		esac
	done
done
mount -t debugfs debugfs $H/sys/kernel/debug
mount -t tracefs tracefs $H/sys/kernel/tracing 2>/dev/null

i=0
for dir in $SHARES; do
	# Under one of the tmpfs above the directory does not exist yet.
	mkdir -p "$H$dir" 2>/dev/null
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 "share$i" "$H$dir" ||
		die "mount of share $dir"
	i=$((i + 1))
done

# npu_dma is a DRM driver and insmod resolves no dependencies: load the
# DRM core first, also with --no-load (tests insmod the module
# themselves). modprobe runs in the host root, whose /lib/modules has the
# modules of the kernel the guest boots; the sanitizer kernel has DRM
# built in (/sys/module/drm exists) and no /lib/modules of its own.
if [ ! -d /sys/module/drm ]; then
	chroot $H /sbin/modprobe drm 2>/dev/ttyS2 ||
		die "modprobe drm: npu_dma needs the DRM core (drm.ko of $(uname -r))"
fi

if [ "$LOAD" = 1 ]; then
	# shellcheck disable=SC2086
	chroot $H /sbin/insmod "$KO" $MODULE_ARGS 2>/dev/ttyS2 ||
		die "insmod $KO $MODULE_ARGS"
fi
ctl READY

export HOME=/root LANG=C.UTF-8 NPU_VM=1 NPU_DMA_KO="$KO" NPU_DMA_PROJECT="$PROJECT"
export NPU_DMA_MODULE_ARGS="$MODULE_ARGS"
# Variables given with npu-vm -e, as export lines.
. /run.env

# A run about to hit its time limit leaves the guest's state in the
# kernel log: blocked tasks, what every CPU is running, then every task,
# so a hang can be told from a slow run (build/npu-vm-kernel.log).
# 30 s before the limit, or half the limit when that is under a minute.
if [ "$MODE" = run ] && [ "${TIMEOUT:-0}" -ge 20 ]; then
	lead=30
	[ "$TIMEOUT" -lt 60 ] && lead=$((TIMEOUT / 2))
	(
		sleep $((TIMEOUT - lead))
		echo "npu-vm: $lead s before the time limit: task dump" >/dev/kmsg
		echo 1 >/proc/sys/kernel/sysrq
		for k in w l t; do
			echo $k >/proc/sysrq-trigger
		done
	) &
	watchdog=$!
fi

stty -F /dev/ttyS0 -onlcr 2>/dev/null
if [ "$MODE" = shell ]; then
	stty -F /dev/ttyS0 onlcr 2>/dev/null
	chroot $H /usr/bin/setsid -c /bin/bash -c \
		'cd "$1" 2>/dev/null; exec bash -i' sh "$CWD" \
		</dev/ttyS0 >/dev/ttyS0 2>&1
	rc=$?
else
	. /run.cmd
	chroot $H /bin/sh -c \
		'cd "$1" || exit 126; shift; exec "$@"' sh "$CWD" "$@" \
		</dev/null >/dev/ttyS0 2>&1
	rc=$?
fi

[ -n "${watchdog:-}" ] && kill "$watchdog" 2>/dev/null
ctl "RC $rc"
sync
poweroff -f
