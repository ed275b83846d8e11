#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make demo, run inside the developer VM: list the NPUs the module found.
set -e

echo "npu-dma demo: NPUs in this VM"
printf '%-10s %-8s %-14s %12s %9s\n' DEVICE BACKEND PCI MEMORY CHANNELS
n=0
for d in /sys/class/npu_dma/npu_dma*; do
	[ -e "$d" ] || continue
	name=$(basename "$d")
	pci=-
	[ -e "$d/pci_address" ] && pci=$(cat "$d/pci_address")
	mem=$(( $(cat "$d/mem_size") >> 20 ))
	printf '%-10s %-8s %-14s %8s MiB %9s\n' "/dev/$name" "$(cat "$d/backend")" \
		"$pci" "$mem" "$(cat "$d/dma_channels")"
	n=$((n + 1))
done
echo "$n NPUs"
[ "$n" -gt 0 ]
