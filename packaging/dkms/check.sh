#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make dkms-check: build the module the way DKMS does, from the sources
# make dkms-source lays out and packaging/dkms/dkms.conf.in, in scratch
# trees under build/dkms (nothing is registered with this machine's
# DKMS), then boot the VM with that module and copy through the
# installed libacl (build/install, build/t_install_app: make userspace).
# Exit status 0 on success, 77 without dkms, else 1.
set -eu
cd "$(dirname "$0")/../.."

if ! command -v dkms >/dev/null; then
	echo "dkms-check: dkms is not installed (apt-get install dkms): skipped"
	exit 77
fi
kver=$(scripts/kver.sh)
ver=$(cat VERSION)
scratch=$PWD/build/dkms
rm -rf "$scratch"
mkdir -p "$scratch/tree"
make -s -C packaging dkms-source DESTDIR="$scratch" >/dev/null

set -- -m npu_dma -v "$ver" -k "$kver" \
	--sourcetree "$scratch/usr/src" --dkmstree "$scratch/tree"
dkms add "$@" >/dev/null
if ! dkms build "$@" >"$scratch/build.log" 2>&1; then
	cat "$scratch/build.log"
	echo "dkms-check: dkms build failed"
	exit 1
fi
ko_name=$(scripts/ko-name.sh kernel)
ko=$(find "$scratch/tree/npu_dma/$ver/$kver" -name "$ko_name*" | head -n 1)
[ -n "$ko" ] || { echo "dkms-check: dkms built no $ko_name"; exit 1; }
magic=$(modinfo -F vermagic "$ko")
case $magic in
"$kver "*) ;;
*)
	echo "dkms-check: $ko is for '$magic', not $kver"
	exit 1
	;;
esac
echo "dkms-check: built ${ko#"$PWD"/} for $kver"

# insmod resolves no dependencies: the DRM core first (npu-vm loads it
# in the guest even with --no-load; modprobe finds it loaded then).
tools/npu-vm run --no-build --no-load -- sh -c "
	modprobe drm && insmod $ko nr_sim=1 &&
	grep -q '^npu_dma ' /proc/modules && build/t_install_app 0 65536"
echo "dkms-check: passed"
