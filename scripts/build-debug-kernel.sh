#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build a sanitizer guest kernel for the developer VM from the
# distribution's kernel source (linux-source-6.1), and the npu_dma module
# against it. The kernel has KASAN, lockdep (PROVE_LOCKING),
# DEBUG_ATOMIC_SLEEP, kmemleak, DEBUG_OBJECTS, DMA-API debugging and UBSAN
# bounds checks, and everything the guest of tools/npu-vm needs built in
# (PCI/MSI, virtio, 9p, devtmpfs, debugfs, tracing, and the DRM core the
# module depends on): no initramfs modules and no /lib/modules tree are
# needed.
#
# It starts from x86_64_defconfig (not the distribution config, which
# builds thousands of modules) minus the big subsystems the guest never
# uses; see Documentation/security.rst for the build time measured.
#
#   build-debug-kernel.sh [kernel]   install the source if needed, build
#                                    (incremental; skipped when up to date)
#   build-debug-kernel.sh module     build the module against it, into
#                                    build/debug-kernel/ (npu-dma.ko, as
#                                    scripts/ko-name.sh names it)
#   build-debug-kernel.sh path       print the build directory
#   build-debug-kernel.sh cached     exit 0 if the kernel is built for the
#                                    current configuration and source
#   build-debug-kernel.sh guest-check [TEST...]
#                                    in the guest (make check-debug):
#                                    tests/vm/runtests.sh, then a kmemleak
#                                    scan; fails on any report
#
# The build lives outside the clone so it survives it:
# $NPU_DEBUG_KERNEL_DIR, default ${XDG_CACHE_HOME:-$HOME/.cache}/npu-dma.
set -euo pipefail

ROOT=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
CACHE=${NPU_DEBUG_KERNEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/npu-dma}
SRCPKG=linux-source-6.1
SRC=$CACHE/$SRCPKG
OBJ=$CACHE/debug-kernel
JOBS=${JOBS:-$(nproc)}
# Host packages the kernel build needs besides the project's own.
BUILD_PKGS="$SRCPKG bc bison flex libelf-dev libssl-dev xz-utils"

log() {
	echo "build-debug-kernel: $*" >&2
}

install_deps() {
	local p missing="" status
	for p in $BUILD_PKGS; do
		status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
		[ "$status" = installed ] || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	"$ROOT/scripts/deps.sh" --debug-kernel
}

unpack_source() {
	local tarball
	tarball=$(ls /usr/src/$SRCPKG.tar.xz 2>/dev/null) ||
		{ log "/usr/src/$SRCPKG.tar.xz missing"; exit 1; }
	if [ -f "$SRC/Makefile" ] && [ "$SRC/Makefile" -nt "$tarball" ]; then
		return 0
	fi
	log "unpacking $tarball"
	mkdir -p "$CACHE"
	rm -rf "$SRC"
	tar -C "$CACHE" -xJf "$tarball"
	touch "$SRC/Makefile"
}

# Options on top of x86_64_defconfig. y = on, n = off, other = value.
CONFIG_OPTS=(
	# What the npu-vm guest needs, built in.
	PCI=y PCI_MSI=y PCIEPORTBUS=y
	VIRTIO=y VIRTIO_PCI=y VIRTIO_MENU=y
	NET=y NET_9P=y NET_9P_VIRTIO=y 9P_FS=y 9P_FS_POSIX_ACL=y NETFS_SUPPORT=y
	DEVTMPFS=y DEVTMPFS_MOUNT=y TMPFS=y BLK_DEV_INITRD=y
	SERIAL_8250=y SERIAL_8250_CONSOLE=y SERIAL_8250_NR_UARTS=4
	SERIAL_8250_RUNTIME_UARTS=4 UNIX98_PTYS=y
	MODULES=y MODULE_UNLOAD=y MODULE_FORCE_UNLOAD=n MODVERSIONS=n MODULE_SIG=n
	EVENTFD=y
	# The memory cgroup: t_memcg checks what the driver charges to it;
	# userfaultfd: t_pin_budget blocks a doorbell's pin on it.
	CGROUPS=y MEMCG=y USERFAULTFD=y
	# The pin cache's mmu interval notifiers: MMU_NOTIFIER has no prompt,
	# KVM selects it (no vendor module: nothing else is built for it).
	VIRTUALIZATION=y KVM=y KVM_INTEL=n KVM_AMD=n
	DEBUG_FS=y DYNAMIC_DEBUG=y
	FTRACE=y ENABLE_DEFAULT_TRACERS=y EVENT_TRACING=y
	# The DRM core, built in: npu_dma is a DRM driver. No DRM driver of
	# x86_64_defconfig (i915, and the AGP it would pull in) is built.
	DRM=y DRM_I915=n
	# Other drivers' dma-bufs for t_prime: vgem (a module in Debian's
	# kernel) and udmabuf (memfd pages; not in Debian's kernel at all).
	DRM_VGEM=y UDMABUF=y
	# The sanitizers.
	KASAN=y KASAN_GENERIC=y KASAN_INLINE=y KASAN_VMALLOC=y
	PROVE_LOCKING=y DEBUG_LOCKDEP=n LOCKDEP=y DEBUG_SPINLOCK=y DEBUG_MUTEXES=y
	DEBUG_ATOMIC_SLEEP=y
	DEBUG_KMEMLEAK=y DEBUG_KMEMLEAK_AUTO_SCAN=n DEBUG_KMEMLEAK_MEM_POOL_SIZE=16000
	DEBUG_OBJECTS=y DEBUG_OBJECTS_FREE=y DEBUG_OBJECTS_TIMERS=y
	DEBUG_OBJECTS_WORK=y DEBUG_OBJECTS_RCU_HEAD=y
	DEBUG_LIST=y DEBUG_SG=y DMA_API_DEBUG=y DEBUG_VM=y
	UBSAN=y UBSAN_BOUNDS=y UBSAN_SHIFT=n UBSAN_ALIGNMENT=n
	DETECT_HUNG_TASK=y SOFTLOCKUP_DETECTOR=y
	# Build time: no debug info, no subsystems the guest never touches.
	DEBUG_INFO=n DEBUG_INFO_NONE=y DEBUG_INFO_BTF=n
	SOUND=n USB_SUPPORT=n WLAN=n WIRELESS=n CFG80211=n
	HID=n INPUT_MOUSE=n INPUT_JOYSTICK=n INPUT_TABLET=n INPUT_TOUCHSCREEN=n
	AGP=n FB=n ATA=n SCSI=n BLK_DEV_SD=n MD=n ETHERNET=n NETDEVICES=n
	# 9P_FS depends on INET: IPv4 stays.
	WIRELESS=n RFKILL=n NETFILTER=n IPV6=n HIBERNATION=n SUSPEND=n
	EXT4_FS=n FAT_FS=n VFAT_FS=n MSDOS_FS=n ISO9660_FS=n NFS_FS=n QUOTA=n
	AUTOFS_FS=n CPU_FREQ=n PCCARD=n MACINTOSH_DRIVERS=n PROFILING=n LOGO=n
	MICROCODE=n
	ACPI_VIDEO=n KVM_GUEST=y PARAVIRT=y HYPERVISOR_GUEST=y
	SECURITY_SELINUX=n AUDIT=n
	LOCALVERSION='"-npu-debug"' LOCALVERSION_AUTO=n
)

configure() {
	local o name val args=()
	for o in "${CONFIG_OPTS[@]}"; do
		name=${o%%=*}
		val=${o#*=}
		case $val in
		y) args+=(--enable "$name") ;;
		n) args+=(--disable "$name") ;;
		*) args+=(--set-val "$name" "$val") ;;
		esac
	done
	make -s -C "$SRC" O="$OBJ" x86_64_defconfig
	"$SRC/scripts/config" --file "$OBJ/.config" "${args[@]}"
	make -s -C "$SRC" O="$OBJ" olddefconfig
	# Check that what matters survived olddefconfig's dependency pass.
	for o in KASAN PROVE_LOCKING DEBUG_ATOMIC_SLEEP DEBUG_KMEMLEAK \
		DEBUG_OBJECTS DMA_API_DEBUG PCI_MSI VIRTIO_PCI NET_9P_VIRTIO \
		9P_FS DEVTMPFS DEBUG_FS EVENT_TRACING DYNAMIC_DEBUG MODULE_UNLOAD \
		DRM MEMCG USERFAULTFD DRM_VGEM UDMABUF MMU_NOTIFIER; do
		grep -q "^CONFIG_$o=y" "$OBJ/.config" ||
			{ log "CONFIG_$o did not stay enabled"; exit 1; }
	done
}

config_want() {
	printf '%s\n' "${CONFIG_OPTS[@]}" | sha1sum | cut -c1-16
}

# Exit 0 if a kernel of the current configuration is built and its
# source is the installed one: make check-debug then needs no kernel
# build (.ci/run asks before running it).
kernel_cached() {
	local tarball=/usr/src/$SRCPKG.tar.xz
	[ -f "$OBJ/arch/x86/boot/bzImage" ] && [ -f "$tarball" ] &&
		[ "$SRC/Makefile" -nt "$tarball" ] &&
		[ "$(cat "$OBJ/.npu-config-stamp" 2>/dev/null)" = "$(config_want)" ]
}

build_kernel() {
	local stamp=$OBJ/.npu-config-stamp want start
	install_deps
	unpack_source
	mkdir -p "$OBJ"
	want=$(config_want)
	if [ ! -f "$OBJ/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
		configure
		echo "$want" > "$stamp"
	fi
	start=$(date +%s)
	log "building in $OBJ with $JOBS jobs"
	make -s -C "$SRC" O="$OBJ" -j"$JOBS" bzImage modules
	log "kernel $(cat "$OBJ/include/config/kernel.release") ready" \
		"($(( $(date +%s) - start )) s)"
}

# The module for the debug kernel, built in a copy of kernel/ so the
# module of the distribution kernel stays where it is.
build_module() {
	local mod=$OBJ/module ko
	[ -f "$OBJ/arch/x86/boot/bzImage" ] ||
		{ log "no kernel built yet: run $0 first"; exit 1; }
	grep -q '^CONFIG_DRM=y' "$OBJ/.config" ||
		{ log "the debug kernel has no DRM core: rebuild it ($0)"; exit 1; }
	ko=$("$ROOT/scripts/ko-name.sh" "$ROOT/kernel")
	# Sources kernel/ no longer has must not linger in the copy.
	rm -f "$mod"/kernel/*.[ch]
	mkdir -p "$mod/kernel" "$mod/include/uapi/drm"
	cp -p "$ROOT"/kernel/*.[ch] "$ROOT/kernel/Kbuild" "$mod/kernel/"
	cp -p "$ROOT/include/uapi/drm/npu_dma_accel.h" "$mod/include/uapi/drm/"
	cp -p "$ROOT/VERSION" "$mod/"
	make -s -C "$OBJ" M="$mod/kernel" modules
	# Where tools/npu-vm --debug-kernel loads it from: the guest sees the
	# project tree, not this cache.
	mkdir -p "$ROOT/build/debug-kernel"
	cp "$mod/kernel/$ko" "$ROOT/build/debug-kernel/$ko"
}

# In the guest: the VM suite, then leaks found by kmemleak since it began
# (what boot left behind is cleared first). Other reports (KASAN, lockdep,
# DEBUG_OBJECTS, DMA-API...) land in the kernel log, which runtests.sh
# scans per test and npu-vm scans as a whole.
guest_check() {
	local km=/sys/kernel/debug/kmemleak rc=0
	[ -e "$km" ] || { log "no $km: not the debug kernel?"; exit 1; }
	echo clear > "$km"
	"$ROOT/tests/vm/runtests.sh" "$@" || rc=1
	# An object is reported after two scans that find no reference to it.
	echo scan > "$km"
	sleep 6
	echo scan > "$km"
	if grep -q 'unreferenced object' "$km"; then
		cat "$km"
		log "kmemleak: leaks reported"
		rc=1
	else
		log "kmemleak: no leaks"
	fi
	exit $rc
}

case "${1:-kernel}" in
kernel) build_kernel ;;
module) build_module ;;
path) echo "$OBJ" ;;
cached) kernel_cached ;;
guest-check) shift; guest_check "$@" ;;
*) echo "usage: $0 [kernel|module|path|cached|guest-check [TEST...]]" >&2; exit 2 ;;
esac
