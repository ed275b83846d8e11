// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: the ABI refuses invalid descriptors (bad fields, foreign,
 * freed, out-of-range and read-only addresses, overflowing extents,
 * unknown queues), each one its own check with the errno it must
 * produce. A rejected descriptor completes with its error and the queue
 * goes on with the next one. Invalid ioctl arguments: t_abi_ioctl.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "t_abi.h"
#include "t_vm.h"
/* What a case's address fields name; resolved per run (see addr()). */
enum sym {
	LIT,		/* the offset itself */
	DEV,		/* device allocation of this context, BUF bytes */
	FREED,		/* device allocation freed (GEM_CLOSE) before it */
	FOREIGN,	/* device allocation of another open file */
	HOST,		/* writable registration, BUF bytes */
	HOST_RO,	/* read-only registration, BUF bytes */
	HOST_OTHER,	/* registration of another open file */
	UNREG,		/* mapped host memory, not registered */
	RDONLY_MAP,	/* host memory mapped PROT_READ */
};

static uint64_t addr(enum sym s, int64_t off)
{
	switch (s) {
	case DEV:
		return e.dev + off;
	case FREED:
		return e.freed + off;
	case FOREIGN:
		return e.foreign + off;
	case HOST:
		return (uintptr_t)e.host + off;
	case HOST_RO:
		return (uintptr_t)e.host_ro + off;
	case HOST_OTHER:
		return (uintptr_t)e.host_other + off;
	case UNREG:
		return (uintptr_t)e.unreg + off;
	case RDONLY_MAP:
		return (uintptr_t)e.rdonly + off;
	default:
		return off;
	}
}

#define SH	NPU_DMA_DESC_F_SRC_HOST
#define DH	NPU_DMA_DESC_F_DST_HOST
#define SP	(NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE)
#define DP	(NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE)
#define G4	(4ULL << 30)
#define RS32	NPU_DMA_REDUCE_VALUE(NPU_DMA_REDUCE_OP_SUM, NPU_DMA_REDUCE_T_S32)

static const struct bad_desc {
	const char *what;
	int err;
	uint8_t op, fill;
	uint16_t flags;
	uint32_t height;
	enum sym ssym;
	int64_t soff;
	enum sym dsym;
	int64_t doff;
	uint64_t len, spitch, dpitch, value;
	uint32_t wq, rsvd;
} bad[] = {
	/* Fields an opcode does not use, unknown opcodes and flags. */
	{ "opcode past the last", -EINVAL, .op = NPU_DMA_OP_MAX + 1 },
	{ "opcode 255", -EINVAL, .op = 255 },
	{ "unknown flag bit 4", -EINVAL, NPU_DMA_OP_NOP, .flags = 1 << 4 },
	{ "unknown flag bit 15", -EINVAL, NPU_DMA_OP_NOP, .flags = 1 << 15 },
	{ "reserved word", -EINVAL, NPU_DMA_OP_NOP, .rsvd = 1 },
	{ "copy with reserved word", -EINVAL, NPU_DMA_OP_COPY, .ssym = DEV, .dsym = DEV,
	  .doff = 8, .len = 8, .rsvd = 0x80000000 },
	{ "nop with src", -EINVAL, NPU_DMA_OP_NOP, .ssym = DEV },
	{ "nop with dst", -EINVAL, NPU_DMA_OP_NOP, .dsym = DEV },
	{ "nop with len", -EINVAL, NPU_DMA_OP_NOP, .len = 1 },
	{ "nop with value", -EINVAL, NPU_DMA_OP_NOP, .value = 1 },
	{ "nop with height", -EINVAL, NPU_DMA_OP_NOP, .height = 1 },
	{ "nop with src pitch", -EINVAL, NPU_DMA_OP_NOP, .spitch = 1 },
	{ "nop with dst pitch", -EINVAL, NPU_DMA_OP_NOP, .dpitch = 1 },
	{ "nop with wait queue", -EINVAL, NPU_DMA_OP_NOP, .wq = 1 },
	{ "nop with fill size", -EINVAL, NPU_DMA_OP_NOP, .fill = 1 },
	{ "nop with src-host flag", -EINVAL, NPU_DMA_OP_NOP, .flags = SH },
	{ "nop with dst-host flag", -EINVAL, NPU_DMA_OP_NOP, .flags = DH },

	/* 1-D copies: fields. */
	{ "copy with fill size", -EINVAL, NPU_DMA_OP_COPY, .fill = 1, .ssym = DEV, .dsym = DEV,
	  .doff = 8, .len = 8 },
	{ "copy with height", -EINVAL, NPU_DMA_OP_COPY, .height = 1, .ssym = DEV,
	  .dsym = DEV, .doff = 8, .len = 8 },
	{ "copy with src pitch", -EINVAL, NPU_DMA_OP_COPY, .ssym = DEV, .dsym = DEV,
	  .doff = 8, .len = 8, .spitch = 8 },
	{ "copy with dst pitch", -EINVAL, NPU_DMA_OP_COPY, .ssym = DEV, .dsym = DEV,
	  .doff = 8, .len = 8, .dpitch = 8 },
	{ "copy with value", -EINVAL, NPU_DMA_OP_COPY, .ssym = DEV, .dsym = DEV,
	  .doff = 8, .len = 8, .value = 1 },
	{ "copy with wait queue", -EINVAL, NPU_DMA_OP_COPY, .ssym = DEV, .dsym = DEV,
	  .doff = 8, .len = 8, .wq = 1 },
	{ "copy of 0 bytes", -EINVAL, NPU_DMA_OP_COPY, .ssym = DEV, .dsym = DEV },
	{ "copy over max_copy_len", -EINVAL, NPU_DMA_OP_COPY, .ssym = DEV, .dsym = DEV,
	  .len = G4 + 1 },
	{ "copy of 2^64-1 bytes", -EINVAL, NPU_DMA_OP_COPY, .ssym = DEV, .dsym = DEV,
	  .len = ~0ULL },
	{ "src pageable without src host", -EINVAL, NPU_DMA_OP_COPY,
	  .flags = NPU_DMA_DESC_F_SRC_PAGEABLE, .ssym = UNREG, .dsym = DEV, .len = 8 },
	{ "dst pageable without dst host", -EINVAL, NPU_DMA_OP_COPY,
	  .flags = NPU_DMA_DESC_F_DST_PAGEABLE, .ssym = DEV, .dsym = UNREG, .len = 8 },
	{ "host to host registered", -EINVAL, NPU_DMA_OP_COPY, .flags = SH | DH,
	  .ssym = HOST, .dsym = HOST, .doff = 8, .len = 8 },
	{ "host to host pageable", -EINVAL, NPU_DMA_OP_COPY, .flags = SP | DP,
	  .ssym = UNREG, .dsym = UNREG, .doff = 8, .len = 8 },

	/* 1-D copies: device addresses. */
	{ "src runs past its allocation", -EFAULT, NPU_DMA_OP_COPY, .ssym = DEV,
	  .soff = BUF - 10, .dsym = DEV, .len = 20 },
	{ "dst one past its allocation", -EFAULT, NPU_DMA_OP_COPY, .ssym = DEV,
	  .dsym = DEV, .doff = BUF, .len = 1 },
	{ "src one before its allocation", -EFAULT, NPU_DMA_OP_COPY, .ssym = DEV,
	  .soff = -1, .dsym = DEV, .doff = 8, .len = 1 },
	{ "src device address 0", -EFAULT, NPU_DMA_OP_COPY, .dsym = DEV, .len = 8 },
	{ "dst device address 0", -EFAULT, NPU_DMA_OP_COPY, .ssym = DEV, .len = 8 },
	{ "src in another file's allocation", -EFAULT, NPU_DMA_OP_COPY, .ssym = FOREIGN,
	  .dsym = DEV, .len = 8 },
	{ "dst in another file's allocation", -EFAULT, NPU_DMA_OP_COPY, .ssym = DEV,
	  .dsym = FOREIGN, .len = 8 },
	{ "src in a freed allocation", -EFAULT, NPU_DMA_OP_COPY, .ssym = FREED,
	  .dsym = DEV, .len = 8 },
	{ "dst in a freed allocation", -EFAULT, NPU_DMA_OP_COPY, .ssym = DEV,
	  .dsym = FREED, .len = 8 },
	{ "host pointer used as device src", -EFAULT, NPU_DMA_OP_COPY, .ssym = HOST,
	  .dsym = DEV, .len = 8 },
	{ "host pointer used as device dst", -EFAULT, NPU_DMA_OP_COPY, .ssym = DEV,
	  .dsym = HOST, .len = 8 },
	{ "device src wrapping 2^64", -EFAULT, NPU_DMA_OP_COPY, .soff = -8,
	  .dsym = DEV, .len = 16 },
	{ "device src past the device memory", -EFAULT, NPU_DMA_OP_COPY,
	  .soff = (1LL << 40) + (64LL << 30), .dsym = DEV, .len = 8 },

	/* 1-D copies: host addresses. */
	{ "h2d from unregistered memory", -EFAULT, NPU_DMA_OP_COPY, .flags = SH,
	  .ssym = UNREG, .dsym = DEV, .len = 8 },
	{ "d2h into unregistered memory", -EFAULT, NPU_DMA_OP_COPY, .flags = DH,
	  .ssym = DEV, .dsym = UNREG, .len = 8 },
	{ "d2h into a read-only registration", -EFAULT, NPU_DMA_OP_COPY, .flags = DH,
	  .ssym = DEV, .dsym = HOST_RO, .len = 8 },
	{ "h2d past the registration", -EFAULT, NPU_DMA_OP_COPY, .flags = SH,
	  .ssym = HOST, .soff = BUF - 1, .dsym = DEV, .len = 2 },
	{ "d2h before the registration", -EFAULT, NPU_DMA_OP_COPY, .flags = DH,
	  .ssym = DEV, .dsym = HOST, .doff = -1, .len = 2 },
	{ "h2d from another file's registration", -EFAULT, NPU_DMA_OP_COPY,
	  .flags = SH, .ssym = HOST_OTHER, .dsym = DEV, .len = 8 },
	{ "d2h into another file's registration", -EFAULT, NPU_DMA_OP_COPY,
	  .flags = DH, .ssym = DEV, .dsym = HOST_OTHER, .len = 8 },
	{ "h2d registered, device dst freed", -EFAULT, NPU_DMA_OP_COPY, .flags = SH,
	  .ssym = HOST, .dsym = FREED, .len = 8 },
	{ "host src wrapping 2^64", -EFAULT, NPU_DMA_OP_COPY, .flags = SH,
	  .soff = -4, .dsym = DEV, .len = 8 },
	{ "pageable src unmapped", -EFAULT, NPU_DMA_OP_COPY, .flags = SP,
	  .soff = NO_ADDR, .dsym = DEV, .len = 8 },
	{ "pageable dst unmapped", -EFAULT, NPU_DMA_OP_COPY, .flags = DP,
	  .ssym = DEV, .doff = NO_ADDR, .len = 8 },
	{ "pageable src in kernel space", -EFAULT, NPU_DMA_OP_COPY, .flags = SP,
	  .soff = KERNEL_ADDR, .dsym = DEV, .len = 8 },
	{ "pageable dst in kernel space", -EFAULT, NPU_DMA_OP_COPY, .flags = DP,
	  .ssym = DEV, .doff = KERNEL_ADDR, .len = 8 },
	{ "pageable dst mapped read-only", -EFAULT, NPU_DMA_OP_COPY, .flags = DP,
	  .ssym = DEV, .dsym = RDONLY_MAP, .len = 8 },
	{ "pageable src running into unmapped", -EFAULT, NPU_DMA_OP_COPY, .flags = SP,
	  .ssym = UNREG, .soff = BUF - 8, .dsym = DEV, .len = 8192 },
	{ "pageable src wrapping 2^64", -EFAULT, NPU_DMA_OP_COPY, .flags = SP,
	  .soff = -4, .dsym = DEV, .len = 8 },
	{ "pageable d2h, device src foreign", -EFAULT, NPU_DMA_OP_COPY, .flags = DP,
	  .ssym = FOREIGN, .dsym = UNREG, .len = 8 },

	/* 2-D copies. */
	{ "2d height 0", -EINVAL, NPU_DMA_OP_COPY_2D, .ssym = DEV, .dsym = DEV,
	  .doff = 4096, .len = 8, .spitch = 8, .dpitch = 8 },
	{ "2d height over the limit", -EINVAL, NPU_DMA_OP_COPY_2D, .height = (1 << 20) + 1,
	  .ssym = DEV, .dsym = DEV, .len = 1, .spitch = 1, .dpitch = 1 },
	{ "2d height 2^32-1", -EINVAL, NPU_DMA_OP_COPY_2D, .height = ~0U,
	  .ssym = DEV, .dsym = DEV, .len = 1, .spitch = 1, .dpitch = 1 },
	{ "2d src pitch below width", -EINVAL, NPU_DMA_OP_COPY_2D, .height = 2,
	  .ssym = DEV, .dsym = DEV, .doff = 4096, .len = 8, .spitch = 7, .dpitch = 8 },
	{ "2d dst pitch below width", -EINVAL, NPU_DMA_OP_COPY_2D, .height = 2,
	  .ssym = DEV, .dsym = DEV, .doff = 4096, .len = 8, .spitch = 8, .dpitch = 7 },
	{ "2d src pitch over the limit", -EINVAL, NPU_DMA_OP_COPY_2D, .height = 2,
	  .ssym = DEV, .dsym = DEV, .len = 8, .spitch = G4 + 1, .dpitch = 8 },
	{ "2d dst pitch over the limit", -EINVAL, NPU_DMA_OP_COPY_2D, .height = 2,
	  .ssym = DEV, .dsym = DEV, .len = 8, .spitch = 8, .dpitch = G4 + 1 },
	{ "2d width 0", -EINVAL, NPU_DMA_OP_COPY_2D, .height = 2, .ssym = DEV,
	  .dsym = DEV, .spitch = 8, .dpitch = 8 },
	{ "2d width over max_copy_len", -EINVAL, NPU_DMA_OP_COPY_2D, .height = 1,
	  .ssym = DEV, .dsym = DEV, .len = G4 + 1, .spitch = G4 + 1, .dpitch = G4 + 1 },
	{ "2d with fill size", -EINVAL, NPU_DMA_OP_COPY_2D, .fill = 1, .height = 2, .ssym = DEV,
	  .dsym = DEV, .doff = 4096, .len = 8, .spitch = 8, .dpitch = 8 },
	{ "2d with value", -EINVAL, NPU_DMA_OP_COPY_2D, .height = 2, .ssym = DEV,
	  .dsym = DEV, .doff = 4096, .len = 8, .spitch = 8, .dpitch = 8, .value = 1 },
	{ "2d with wait queue", -EINVAL, NPU_DMA_OP_COPY_2D, .height = 2, .ssym = DEV,
	  .dsym = DEV, .doff = 4096, .len = 8, .spitch = 8, .dpitch = 8, .wq = 1 },
	{ "2d last src row past the allocation", -EFAULT, NPU_DMA_OP_COPY_2D,
	  .height = 2, .ssym = DEV, .dsym = DEV, .len = 8, .spitch = BUF, .dpitch = 8 },
	{ "2d last dst row past the allocation", -EFAULT, NPU_DMA_OP_COPY_2D,
	  .height = 2, .ssym = DEV, .dsym = DEV, .len = 8, .spitch = 8, .dpitch = BUF },
	{ "2d largest extent", -EFAULT, NPU_DMA_OP_COPY_2D, .height = 1 << 20,
	  .ssym = DEV, .dsym = DEV, .len = G4, .spitch = G4, .dpitch = G4 },
	{ "2d d2h past the registration", -EFAULT, NPU_DMA_OP_COPY_2D, .flags = DH,
	  .height = 3, .ssym = DEV, .dsym = HOST, .len = 16, .spitch = 16,
	  .dpitch = BUF / 2 },
	{ "2d d2h into a read-only registration", -EFAULT, NPU_DMA_OP_COPY_2D,
	  .flags = DH, .height = 2, .ssym = DEV, .dsym = HOST_RO, .len = 8,
	  .spitch = 8, .dpitch = 8 },
	{ "2d h2d from unregistered memory", -EFAULT, NPU_DMA_OP_COPY_2D, .flags = SH,
	  .height = 2, .ssym = UNREG, .dsym = DEV, .len = 8, .spitch = 8, .dpitch = 8 },
	{ "2d pageable rows running off the mapping", -EFAULT, NPU_DMA_OP_COPY_2D,
	  .flags = SP, .height = 3, .ssym = UNREG, .dsym = DEV, .len = 8,
	  .spitch = BUF / 2, .dpitch = 8 },
	{ "2d in a freed allocation", -EFAULT, NPU_DMA_OP_COPY_2D, .height = 2,
	  .ssym = DEV, .dsym = FREED, .len = 8, .spitch = 8, .dpitch = 8 },

	/* Indirect copies: the words they read (what these hold is run-time). */
#define IND	NPU_DMA_OP_COPY_INDIRECT
	{ "indirect with a host flag", -EINVAL, IND, .flags = SH, .ssym = DEV,
	  .dsym = DEV, .doff = 8, .len = 8 },
	{ "indirect with a pageable flag", -EINVAL, IND, .flags = DP, .ssym = DEV,
	  .dsym = DEV, .doff = 8, .len = 8 },
	{ "indirect with len and value", -EINVAL, IND, .ssym = DEV, .dsym = DEV,
	  .doff = 8, .len = 8, .value = 16 },
	{ "indirect without len or value", -EINVAL, IND, .ssym = DEV, .dsym = DEV,
	  .doff = 8 },
	{ "indirect over max_copy_len", -EINVAL, IND, .ssym = DEV, .dsym = DEV,
	  .doff = 8, .len = G4 + 1 },
	{ "indirect src word misaligned", -EINVAL, IND, .ssym = DEV, .soff = 4,
	  .dsym = DEV, .doff = 8, .len = 8 },
	{ "indirect dst word misaligned", -EINVAL, IND, .ssym = DEV, .dsym = DEV,
	  .doff = 12, .len = 8 },
	{ "indirect length word misaligned", -EINVAL, IND, .ssym = DEV, .dsym = DEV,
	  .doff = 8, .value = 1ULL << 40 | 4 },
	{ "indirect with height", -EINVAL, IND, .height = 1, .ssym = DEV, .dsym = DEV,
	  .doff = 8, .len = 8 },
	{ "indirect with fill size", -EINVAL, IND, .fill = 1, .ssym = DEV, .dsym = DEV,
	  .doff = 8, .len = 8 },
	{ "indirect with wait queue", -EINVAL, IND, .ssym = DEV, .dsym = DEV,
	  .doff = 8, .len = 8, .wq = 1 },
	{ "indirect src word in a freed allocation", -EFAULT, IND, .ssym = FREED,
	  .dsym = DEV, .len = 8 },
	{ "indirect dst word in another file's allocation", -EFAULT, IND,
	  .ssym = DEV, .dsym = FOREIGN, .len = 8 },
	{ "indirect src word in host memory", -EFAULT, IND, .ssym = HOST,
	  .dsym = DEV, .len = 8 },
	{ "indirect dst word one past its allocation", -EFAULT, IND, .ssym = DEV,
	  .dsym = DEV, .doff = BUF, .len = 8 },
	{ "indirect length word not beside the src word", -EFAULT, IND,
	  .ssym = DEV, .dsym = DEV, .doff = 8, .value = 8 },
	{ "indirect words holding 0 (run time)", -EFAULT, IND, .ssym = DEV,
	  .soff = 4096, .dsym = DEV, .doff = 4104, .len = 8 },

	/* Fills. */
	{ "fill size 0", -EINVAL, NPU_DMA_OP_FILL, .fill = 0, .dsym = DEV, .len = 8 },
	{ "fill size 3", -EINVAL, NPU_DMA_OP_FILL, .fill = 3, .dsym = DEV, .len = 9 },
	{ "fill size 8", -EINVAL, NPU_DMA_OP_FILL, .fill = 8, .dsym = DEV, .len = 8 },
	{ "fill length not a multiple of 4", -EINVAL, NPU_DMA_OP_FILL, .fill = 4, .dsym = DEV,
	  .len = 6 },
	{ "fill length not a multiple of 2", -EINVAL, NPU_DMA_OP_FILL, .fill = 2, .dsym = DEV,
	  .len = 7 },
	{ "fill value wider than 1 byte", -EINVAL, NPU_DMA_OP_FILL, .fill = 1, .dsym = DEV,
	  .len = 8, .value = 0x100 },
	{ "fill value wider than 2 bytes", -EINVAL, NPU_DMA_OP_FILL, .fill = 2, .dsym = DEV,
	  .len = 8, .value = 0x10000 },
	{ "fill value wider than 4 bytes", -EINVAL, NPU_DMA_OP_FILL, .fill = 4, .dsym = DEV,
	  .len = 8, .value = 1ULL << 32 },
	{ "fill with src", -EINVAL, NPU_DMA_OP_FILL, .fill = 1, .ssym = DEV, .dsym = DEV,
	  .len = 8 },
	{ "fill with src-host flag", -EINVAL, NPU_DMA_OP_FILL, .fill = 1, .flags = SH,
	  .dsym = DEV, .len = 8 },
	{ "fill with height", -EINVAL, NPU_DMA_OP_FILL, .fill = 1, .height = 1, .dsym = DEV,
	  .len = 8 },
	{ "fill with pitch", -EINVAL, NPU_DMA_OP_FILL, .fill = 1, .dsym = DEV, .len = 8,
	  .dpitch = 8 },
	{ "fill with wait queue", -EINVAL, NPU_DMA_OP_FILL, .fill = 1, .dsym = DEV, .len = 8,
	  .wq = 1 },
	{ "fill of 0 bytes", -EINVAL, NPU_DMA_OP_FILL, .fill = 1, .dsym = DEV },
	{ "fill over max_copy_len", -EINVAL, NPU_DMA_OP_FILL, .fill = 1, .dsym = DEV,
	  .len = G4 + 1 },
	{ "fill another file's allocation", -EFAULT, NPU_DMA_OP_FILL, .fill = 1,
	  .dsym = FOREIGN, .len = 8 },
	{ "fill a freed allocation", -EFAULT, NPU_DMA_OP_FILL, .fill = 1, .dsym = FREED,
	  .len = 8 },
	{ "fill past the allocation", -EFAULT, NPU_DMA_OP_FILL, .fill = 4, .dsym = DEV,
	  .doff = BUF - 4, .len = 8 },
	{ "fill a read-only registration", -EFAULT, NPU_DMA_OP_FILL, .fill = 1, .flags = DH,
	  .dsym = HOST_RO, .len = 8 },
	{ "fill unregistered host memory", -EFAULT, NPU_DMA_OP_FILL, .fill = 1, .flags = DH,
	  .dsym = UNREG, .len = 8 },
	{ "fill pageable unmapped", -EFAULT, NPU_DMA_OP_FILL, .fill = 1, .flags = DP,
	  .doff = NO_ADDR, .len = 8 },
	{ "fill pageable read-only mapping", -EFAULT, NPU_DMA_OP_FILL, .fill = 1, .flags = DP,
	  .dsym = RDONLY_MAP, .len = 8 },

	/* Event records. */
	{ "event slot = max_event_slots", -EINVAL, NPU_DMA_OP_EVENT_RECORD,
	  .doff = 4096 },
	{ "event slot 2^64-1", -EINVAL, NPU_DMA_OP_EVENT_RECORD, .doff = -1 },
	{ "event with src", -EINVAL, NPU_DMA_OP_EVENT_RECORD, .ssym = DEV },
	{ "event with len", -EINVAL, NPU_DMA_OP_EVENT_RECORD, .len = 8 },
	{ "event with value", -EINVAL, NPU_DMA_OP_EVENT_RECORD, .value = 1 },
	{ "event with dst-host flag", -EINVAL, NPU_DMA_OP_EVENT_RECORD, .flags = DH },
	{ "event with fill size", -EINVAL, NPU_DMA_OP_EVENT_RECORD, .fill = 4 },

	/* Waits. */
	{ "wait on an unknown queue", -ENOENT, NPU_DMA_OP_WAIT, .wq = 0x7fffffff,
	  .value = 1 },
	{ "wait on queue id 2^32-1", -ENOENT, NPU_DMA_OP_WAIT, .wq = ~0U, .value = 1 },
	{ "wait with src", -EINVAL, NPU_DMA_OP_WAIT, .ssym = DEV, .wq = 1 },
	{ "wait with dst", -EINVAL, NPU_DMA_OP_WAIT, .dsym = DEV, .wq = 1 },
	{ "wait with len", -EINVAL, NPU_DMA_OP_WAIT, .len = 1, .wq = 1 },
	{ "wait with flags", -EINVAL, NPU_DMA_OP_WAIT, .flags = SH, .wq = 1 },
	{ "wait with height", -EINVAL, NPU_DMA_OP_WAIT, .height = 1, .wq = 1 },

	/* Host barriers and batch markers. */
	{ "barrier with dst", -EINVAL, NPU_DMA_OP_HOST_BARRIER, .dsym = DEV },
	{ "barrier with value", -EINVAL, NPU_DMA_OP_HOST_BARRIER, .value = 1 },
	{ "barrier with len", -EINVAL, NPU_DMA_OP_HOST_BARRIER, .len = 1 },
	{ "barrier with wait queue", -EINVAL, NPU_DMA_OP_HOST_BARRIER, .wq = 1 },
	{ "batch end without begin", -EINVAL, NPU_DMA_OP_BATCH_END, .flags = 0 },
	{ "batch begin without end", -EINVAL, NPU_DMA_OP_BATCH_BEGIN, .flags = 0 },
	{ "batch begin with len", -EINVAL, NPU_DMA_OP_BATCH_BEGIN, .len = 1 },
	{ "batch end with value", -EINVAL, NPU_DMA_OP_BATCH_END, .value = 1 },

	/* Reductions (an NPU without NPU_DMA_CAP_REDUCE skips these). */
	{ "reduce with src-host flag", -EINVAL, NPU_DMA_OP_REDUCE, .flags = SH,
	  .ssym = HOST, .dsym = DEV, .len = 8, .value = RS32 },
	{ "reduce with fill size", -EINVAL, NPU_DMA_OP_REDUCE, .fill = 4,
	  .ssym = DEV, .dsym = DEV, .len = 8, .value = RS32 },
	{ "reduce with height", -EINVAL, NPU_DMA_OP_REDUCE, .height = 1,
	  .ssym = DEV, .dsym = DEV, .len = 8, .value = RS32 },
	{ "reduce with pitch", -EINVAL, NPU_DMA_OP_REDUCE, .ssym = DEV,
	  .dsym = DEV, .len = 8, .spitch = 8, .value = RS32 },
	{ "reduce with wait queue", -EINVAL, NPU_DMA_OP_REDUCE, .ssym = DEV,
	  .dsym = DEV, .len = 8, .wq = 1, .value = RS32 },
	{ "reduce op 3", -EINVAL, NPU_DMA_OP_REDUCE, .ssym = DEV, .dsym = DEV,
	  .len = 8, .value = NPU_DMA_REDUCE_VALUE(3, NPU_DMA_REDUCE_T_S32) },
	{ "reduce type 9", -EINVAL, NPU_DMA_OP_REDUCE, .ssym = DEV, .dsym = DEV,
	  .len = 8, .value = NPU_DMA_REDUCE_VALUE(0, 9) },
	{ "reduce value bit 16", -EINVAL, NPU_DMA_OP_REDUCE, .ssym = DEV,
	  .dsym = DEV, .len = 8, .value = RS32 | 1 << 16 },
	{ "reduce of 0 bytes", -EINVAL, NPU_DMA_OP_REDUCE, .ssym = DEV,
	  .dsym = DEV, .value = RS32 },
	{ "reduce over max_copy_len", -EINVAL, NPU_DMA_OP_REDUCE, .ssym = DEV,
	  .dsym = DEV, .len = G4 + 4, .value = RS32 },
	{ "reduce of half an element", -EINVAL, NPU_DMA_OP_REDUCE, .ssym = DEV,
	  .dsym = DEV, .len = 6, .value = RS32 },
	{ "reduce from an unaligned src", -EINVAL, NPU_DMA_OP_REDUCE,
	  .ssym = DEV, .soff = 2, .dsym = DEV, .len = 8, .value = RS32 },
	{ "reduce into an unaligned dst", -EINVAL, NPU_DMA_OP_REDUCE,
	  .ssym = DEV, .dsym = DEV, .doff = 2, .len = 8, .value = RS32 },
	{ "reduce from host memory", -EFAULT, NPU_DMA_OP_REDUCE, .ssym = HOST,
	  .dsym = DEV, .len = 8, .value = RS32 },
	{ "reduce from another file's allocation", -EFAULT, NPU_DMA_OP_REDUCE,
	  .ssym = FOREIGN, .dsym = DEV, .len = 8, .value = RS32 },
	{ "reduce into a freed allocation", -EFAULT, NPU_DMA_OP_REDUCE,
	  .ssym = DEV, .dsym = FREED, .len = 8, .value = RS32 },
	{ "reduce past the allocation", -EFAULT, NPU_DMA_OP_REDUCE, .ssym = DEV,
	  .dsym = DEV, .doff = BUF - 4, .len = 8, .value = RS32 },
};

#define NR_BAD	(sizeof(bad) / sizeof(bad[0]))

static struct npu_dma_desc build(const struct bad_desc *b)
{
	struct npu_dma_desc d = {
		.opcode = b->op, .fill_size = b->fill, .flags = b->flags,
		.height = b->height, .len = b->len, .src_pitch = b->spitch,
		.dst_pitch = b->dpitch, .value = b->value,
		.wait_queue = b->wq, .reserved = b->rsvd,
	};

	d.src = addr(b->ssym, b->soff);
	d.dst = addr(b->dsym, b->doff);
	/* The WAIT cases with a valid shape name this context's own queue. */
	if (b->op == NPU_DMA_OP_WAIT && b->wq == 1)
		d.wait_queue = e.q.id;
	return d;
}

/* Push the bad descriptor and a NOP behind it; both must complete. */
START_TEST(test_bad_descriptor)
{
	const struct bad_desc *b = &bad[_i];
	struct npu_dma_desc nop = { .opcode = NPU_DMA_OP_NOP };
	struct npu_dma_desc d = build(b);
	uint64_t seq, last;

	if (b->op == NPU_DMA_OP_REDUCE && !(e.info.caps & NPU_DMA_CAP_REDUCE)) {
		t_skip("%s: the NPU cannot reduce", b->what);
		return;
	}
	seq = npu_raw_push(&e.q, &d);
	last = npu_raw_push(&e.q, &nop);
	ck_assert_int_eq(npu_raw_submit(&e.q), 2);
	ck_assert_int_eq(npu_raw_wait(&e.q, last, 20000), 0);
	ck_assert_msg(e.q.ctrl->error_seq == seq && e.q.ctrl->error == b->err,
		      "%s: error %d at seq %llu, expected %d at %llu", b->what,
		      e.q.ctrl->error, (unsigned long long)e.q.ctrl->error_seq,
		      b->err, (unsigned long long)seq);
	ck_assert_uint_eq(e.q.ctrl->error_count, 1);
	ck_assert_uint_eq(e.q.ctrl->last_error_seq, seq);
	ck_assert_uint_eq(e.q.ctrl->completed_seq, last);
}
END_TEST

/* @n bytes of @p into the device at @dev_addr, through the registration. */
static void put_dev(uint64_t dev_addr, const void *p, size_t n)
{
	memcpy(e.host, p, n);
	ck_assert_int_eq(npu_raw_run(&e.q, &(struct npu_dma_desc){
		.opcode = NPU_DMA_OP_COPY, .flags = SH,
		.src = (uintptr_t)e.host, .dst = dev_addr, .len = n }), 0);
}

static void get_dev(void *p, uint64_t dev_addr, size_t n)
{
	ck_assert_int_eq(npu_raw_run(&e.q, &(struct npu_dma_desc){
		.opcode = NPU_DMA_OP_COPY, .flags = DH,
		.src = dev_addr, .dst = (uintptr_t)e.host + BUF / 2,
		.len = n }), 0);
	memcpy(p, e.host + BUF / 2, n);
}

/*
 * COPY_INDIRECT at run time: words at the start of the allocation, data
 * from 4096 on. The addresses are read when the copy runs (a word
 * rewritten by the descriptor just before it counts), with the adders
 * and the length word applied; what they name is checked as a COPY's
 * addresses are, and this NPU's memory only.
 */
START_TEST(test_indirect_run_time)
{
	uint64_t w[4], last, big = (4ULL << 30) + 1;
	struct npu_dma_desc ind = {
		.opcode = NPU_DMA_OP_COPY_INDIRECT,
		.src = e.dev, .dst = e.dev + 8, .value = e.dev + 16,
	};
	struct npu_dma_desc upd;
	uint8_t in[256], out[256];
	int i;

	ck_assert(e.info.caps & NPU_DMA_CAP_COPY_INDIRECT);
	for (i = 0; i < 256; i++)
		in[i] = (uint8_t)(i * 7 + 1);
	put_dev(e.dev + 4096, in, sizeof(in));
	/* src, dst, len read from the words. */
	w[0] = e.dev + 4096;
	w[1] = e.dev + 8192;
	w[2] = sizeof(in);
	put_dev(e.dev, w, 3 * 8);
	ck_assert_int_eq(npu_raw_run(&e.q, &ind), 0);
	get_dev(out, e.dev + 8192, sizeof(out));
	ck_assert(!memcmp(in, out, sizeof(in)));
	/* Adders and a given length: 100 bytes from 4096 + 16 to 12288 + 3. */
	upd = ind;
	upd.value = 0;
	upd.len = 100;
	upd.src_pitch = 16;
	upd.dst_pitch = 4096 + 3;
	ck_assert_int_eq(npu_raw_run(&e.q, &upd), 0);
	get_dev(out, e.dev + 12288 + 3, 100);
	ck_assert(!memcmp(in + 16, out, 100));
	/* A word rewritten by the descriptor queued just before it. */
	w[3] = e.dev + 16384;
	memcpy(e.host, &w[3], 8);
	upd = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_COPY, .flags = SH,
		.src = (uintptr_t)e.host, .dst = e.dev + 8, .len = 8 };
	npu_raw_push(&e.q, &upd);
	last = npu_raw_push(&e.q, &ind);
	ck_assert_int_eq(npu_raw_submit(&e.q), 2);
	ck_assert_int_eq(npu_raw_wait(&e.q, last, 20000), 0);
	ck_assert_int_eq(e.q.ctrl->error_count, 0);
	get_dev(out, e.dev + 16384, sizeof(out));
	ck_assert(!memcmp(in, out, sizeof(in)));
	/* A length of 0 copies nothing and succeeds. */
	w[2] = 0;
	put_dev(e.dev + 16, &w[2], 8);
	ck_assert_int_eq(npu_raw_run(&e.q, &ind), 0);
	/* Too long, past the allocation, another file's, freed: failures. */
	put_dev(e.dev + 16, &big, 8);
	ck_assert_int_eq(npu_raw_run(&e.q, &ind), -EINVAL);
	w[2] = BUF;
	put_dev(e.dev + 16, &w[2], 8);
	ck_assert_int_eq(npu_raw_run(&e.q, &ind), -EFAULT);
	w[2] = 8;
	put_dev(e.dev + 16, &w[2], 8);
	put_dev(e.dev + 8, &e.foreign, 8);
	ck_assert_int_eq(npu_raw_run(&e.q, &ind), -EFAULT);
	put_dev(e.dev + 8, &e.freed, 8);
	ck_assert_int_eq(npu_raw_run(&e.q, &ind), -EFAULT);
	/* A host address in a word is not device memory. */
	w[1] = (uintptr_t)e.host;
	put_dev(e.dev + 8, &w[1], 8);
	ck_assert_int_eq(npu_raw_run(&e.q, &ind), -EFAULT);
	/* The adder wraps modulo 2^64 onto a good address. */
	w[1] = e.dev + 20480 + 1000;
	put_dev(e.dev + 8, &w[1], 8);
	upd = ind;
	upd.dst_pitch = -1000ULL;
	ck_assert_int_eq(npu_raw_run(&e.q, &upd), 0);
	get_dev(out, e.dev + 20480, 8);
	ck_assert(!memcmp(in, out, 8));
}
END_TEST

/* Batch shapes that need several descriptors. */
START_TEST(test_bad_batches)
{
	struct npu_dma_desc begin = { .opcode = NPU_DMA_OP_BATCH_BEGIN };
	struct npu_dma_desc end = { .opcode = NPU_DMA_OP_BATCH_END };
	struct npu_dma_desc ev = { .opcode = NPU_DMA_OP_EVENT_RECORD };
	struct npu_dma_desc copy = npu_raw_copy(e.dev + 64, e.dev, 64, 0);
	uint64_t b1, b2, member, last;

	/* Nested BEGIN: the outer one fails, the inner batch runs. */
	b1 = npu_raw_push(&e.q, &begin);
	b2 = npu_raw_push(&e.q, &begin);
	npu_raw_push(&e.q, &copy);
	last = npu_raw_push(&e.q, &end);
	ck_assert_int_eq(npu_raw_submit(&e.q), 4);
	ck_assert_int_eq(npu_raw_wait(&e.q, last, 20000), 0);
	ck_assert_uint_eq(e.q.ctrl->error_seq, b1);
	ck_assert_int_eq(e.q.ctrl->error, -EINVAL);
	ck_assert_uint_eq(e.q.ctrl->error_count, 1);
	ck_assert_uint_ne(b1, b2);

	/* An event record may not be a batch member. */
	npu_raw_push(&e.q, &begin);
	member = npu_raw_push(&e.q, &ev);
	last = npu_raw_push(&e.q, &end);
	ck_assert_int_eq(npu_raw_submit(&e.q), 3);
	ck_assert_int_eq(npu_raw_wait(&e.q, last, 20000), 0);
	ck_assert_uint_eq(e.q.ctrl->last_error_seq, member);
	ck_assert_int_eq(e.q.ctrl->last_error, -EINVAL);

	/* BEGIN and END in different doorbells: BEGIN fails, END too. */
	b1 = npu_raw_push(&e.q, &begin);
	ck_assert_int_eq(npu_raw_submit(&e.q), 1);
	last = npu_raw_push(&e.q, &end);
	ck_assert_int_eq(npu_raw_submit(&e.q), 1);
	ck_assert_int_eq(npu_raw_wait(&e.q, last, 20000), 0);
	ck_assert_uint_eq(e.q.ctrl->error_count, 4);
	ck_assert_uint_eq(e.q.ctrl->last_error_seq, last);
}
END_TEST

/* A WAIT naming a queue of another process is refused like an unknown one. */
START_TEST(test_wait_on_other_process_queue)
{
	struct npu_dma_desc w = { .opcode = NPU_DMA_OP_WAIT, .value = 1 };
	int up[2], down[2], status;
	uint32_t id;
	pid_t pid;

	ck_assert_int_eq(pipe(up), 0);
	ck_assert_int_eq(pipe(down), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct npu_raw_queue q;
		int fd = npu_raw_open(0);

		close(down[1]);
		if (fd < 0 || npu_raw_queue_create(fd, 16, &q))
			_exit(1);
		if (write(up[1], &q.id, sizeof(q.id)) != sizeof(q.id))
			_exit(1);
		/* Stay alive, queue open, until the parent closes its end. */
		if (read(down[0], &id, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(up[1]);
	close(down[0]);
	ck_assert_int_eq(read(up[0], &id, sizeof(id)), sizeof(id));
	w.wait_queue = id;
	ck_assert_int_eq(npu_raw_run(&e.q, &w), -ENOENT);
	close(down[1]);
	close(up[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
END_TEST

/*
 * REDUCE is the engine's: a sim NPU says it has it and combines; an edu
 * NPU says it has not and refuses a well-formed one at validation.
 */
START_TEST(test_reduce_by_engine)
{
	struct npu_dma_desc d = {
		.opcode = NPU_DMA_OP_REDUCE, .len = 8, .value = RS32,
	};
	int32_t in[2] = { 5, -7 }, out[2];
	int i, fd, found = 0;
	struct npu_raw_queue q;
	uint64_t dev;
	struct npu_dma_info info;
	char backend[16];

	for (i = 0; i < 64; i++) {
		if (t_npu_attr(i, "backend", backend, sizeof(backend)))
			continue;
		fd = npu_raw_open(i);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(npu_raw_info(fd, &info), 0);
		ck_assert_int_eq(!!(info.caps & NPU_DMA_CAP_REDUCE),
				 !strcmp(backend, "sim"));
		ck_assert_int_eq(npu_raw_alloc(fd, 4096, 0, &dev, NULL), 0);
		ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
		d.src = dev;
		d.dst = dev;
		ck_assert_int_eq(npu_raw_run(&q, &d),
				 strcmp(backend, "sim") ? -EOPNOTSUPP : 0);
		npu_raw_queue_destroy(&q);
		close(fd);
		found++;
	}
	ck_assert_int_gt(found, 0);
	/* What it combined, on the fixture's NPU (a sim one if any). */
	if (!(e.info.caps & NPU_DMA_CAP_REDUCE))
		return;
	put_dev(e.dev, in, sizeof(in));
	d.src = e.dev;
	d.dst = e.dev + 4096;
	put_dev(d.dst, in, sizeof(in));
	ck_assert_int_eq(npu_raw_run(&e.q, &d), 0);
	get_dev(out, d.dst, sizeof(out));
	ck_assert_int_eq(out[0], 10);
	ck_assert_int_eq(out[1], -14);
}
END_TEST

static Suite *abi_suite(void)
{
	Suite *s = suite_create("t_abi_desc");
	TCase *tc = tcase_create("descriptors");

	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, t_abi_setup, t_abi_teardown);
	tcase_add_loop_test(tc, test_bad_descriptor, 0, NR_BAD);
	tcase_add_test(tc, test_bad_batches);
	tcase_add_test(tc, test_indirect_run_time);
	tcase_add_test(tc, test_wait_on_other_process_queue);
	tcase_add_test(tc, test_reduce_by_engine);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (!npu_raw_present())
		return T_EXIT_SKIP;
	printf("t_abi_desc: %zu invalid descriptors\n", NR_BAD);
	return t_run_suite(abi_suite());
}
