#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The ABI header must compile on its own in user space: as C90 (as the
# kernel's usr/include/Makefile checks exported headers), as C11 and as
# C++11, with warnings as errors. C11 and C++11 also check the frozen
# layout (tests/unit/uapi/npu_dma_abi_layout.h: every size, offset and
# ioctl number), so both languages are held to one list.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
hdr=$root/include/uapi/linux/npu_dma.h

# compile COMPILER STD LANG: check stdin, syntax only
compile() {
	"$1" -std="$2" -Wall -Wextra -Werror -pedantic -I"$root/include/uapi" \
		-I"$root/tests/unit/uapi" -x "$3" -fsyntax-only -
}

src='#include <linux/npu_dma.h>\nint npu_dma_uapi_check;\n'
layout='#include <linux/npu_dma.h>\n#include "npu_dma_abi_layout.h"\n'

printf "$src" | compile gcc c90 c
printf "$layout$src" | compile gcc c11 c
printf "$layout$src" | compile g++ c++11 c++
echo "uapi: $hdr compiles alone as C90, C11 and C++11; its layout is frozen in C11 and C++11"
