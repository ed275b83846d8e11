#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Print the file name of the module kernel/Kbuild builds: npu_dma.ko, or
# the name of the composite object it lists (npu-dma.o gives npu-dma.ko;
# the module is still called npu_dma, as kbuild reads '-' as '_').
# Used by tools/npu-vm, scripts/build-debug-kernel.sh and packaging/.
#
#   ko-name.sh [KERNEL_DIR]    (default: kernel/ of this tree)
set -eu

dir=${1:-$(dirname "$0")/../kernel}
name=$(sed -n 's/^obj-[^ 	]*[ 	]*[+:]=[ 	]*\(npu[A-Za-z0-9_-]*\)\.o[ 	]*$/\1/p' \
	"$dir/Kbuild" 2>/dev/null | head -n 1)
echo "${name:-npu_dma}.ko"
