#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The ABI header must compile on its own in user space: as C90 (as the
# kernel's usr/include/Makefile checks exported headers), as C11 and as
# C++, with warnings as errors.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
hdr=$root/include/uapi/linux/npu_dma.h

for std in c90 c11; do
	printf '#include <linux/npu_dma.h>\nint npu_dma_uapi_check;\n' |
		gcc -std=$std -Wall -Wextra -Werror -pedantic -I"$root/include/uapi" \
			-x c -fsyntax-only -
done
printf '#include <linux/npu_dma.h>\nstatic_assert(sizeof(npu_dma_desc) == 64, "desc");\n' |
	g++ -std=c++11 -Wall -Wextra -Werror -pedantic -I"$root/include/uapi" \
		-x c++ -fsyntax-only -
echo "uapi: $hdr compiles alone as C90, C11 and C++11"
