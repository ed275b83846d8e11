#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The ABI header must compile on its own in user space: as C90 (as the
# kernel's usr/include/Makefile checks exported headers), as C11 and as
# C++11, with warnings as errors. C11 and C++11 also check the frozen
# layout (tests/unit/uapi/npu_dma_abi_layout.h: every size, offset and
# ioctl number), so both languages are held to one list. Like upstream's
# DRM headers it includes "drm.h", in user space libdrm's: that is taken
# as a system header, so the check judges our header, not libdrm's (its
# drm.h is not C90-pedantic clean).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
hdr=$root/include/uapi/drm/npu_dma_accel.h
drm_cflags=$(pkg-config --cflags-only-I libdrm | sed 's/-I/-isystem /g')

# compile COMPILER STD LANG: check stdin, syntax only
compile() {
	# shellcheck disable=SC2086
	"$1" -std="$2" -Wall -Wextra -Werror -pedantic -I"$root/include/uapi" \
		$drm_cflags -I"$root/tests/unit/uapi" -x "$3" -fsyntax-only -
}

src='#include <drm/npu_dma_accel.h>\nint npu_dma_uapi_check;\n'
layout='#include <drm/npu_dma_accel.h>\n#include "npu_dma_abi_layout.h"\n'

printf "$src" | compile gcc c90 c
printf "$layout$src" | compile gcc c11 c
printf "$layout$src" | compile g++ c++11 c++
echo "uapi: $hdr compiles alone as C90, C11 and C++11; its layout is frozen in C11 and C++11"
