#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make demo, run inside the developer VM (tools/npu-vm): the NPUs, the
# seed's data flow through libacl recorded by npu-trace, then npu-smi
# and a short bandwidth table on a simulated NPU.
#
# Usage: demo.sh OUTDIR   (a host directory shared into the guest, where
#                          the trace, timeline and plot are written)
set -e

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: demo.sh OUTDIR}
tools=$root/tools
mkdir -p "$out"

# The first simulated NPU (fast, with several DMA channels) as libacl
# numbers it: its position in index order. Each NPU is a DRM node whose
# bus device has the driver's attributes (npu_index, backend).
dev=$(for f in /sys/class/drm/renderD*/device/npu_index \
		/sys/class/accel/accel*/device/npu_index; do
	[ -r "$f" ] && echo "$(cat "$f") $(cat "${f%/npu_index}/backend")"
done | sort -n | awk '$2 == "sim" { print NR - 1; exit }')
dev=${dev:-0}

echo "==== npu-demo under npu-trace"
"$tools/npu-trace" -o "$out/demo-trace.json" --svg "$out/demo-trace.svg" -- \
	"$tools/npu-demo"

echo
echo "==== npu-smi"
"$tools/npu-smi"

echo
echo "==== acl-bandwidth -d $dev --max-size 16M -i 3"
"$tools/acl-bandwidth" -d "$dev" --max-size 16M -i 3 --plot "$out/bandwidth.svg"

echo
echo "Written (host paths):"
echo "  $out/demo-trace.json  Chrome/Perfetto trace: open in ui.perfetto.dev"
echo "  $out/demo-trace.svg   timeline of the demo's copies"
echo "  $out/bandwidth.svg    bandwidth against size"
