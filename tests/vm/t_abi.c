// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: the ABI refuses what it must. Invalid descriptors (bad fields,
 * foreign, freed, out-of-range and read-only addresses, overflowing
 * extents, unknown queues) and invalid ioctl arguments, each one its own
 * check with the errno it must produce. A rejected descriptor completes
 * with its error and the queue goes on with the next one. MEM_ALLOC
 * honours a requested alignment. Where the DRM core answers for the
 * driver (unknown command numbers, structure sizes, GEM_CLOSE, mmap
 * offsets) the test asserts what the core answers. The queue and event
 * mappings survive MADV_DONTNEED.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_vm.h"

#define BUF		(64 * 1024)
#define NO_ADDR		0xdead0000000ULL
#define KERNEL_ADDR	0xffff888000000000ULL

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

static struct env {
	int fd, fd2;
	struct npu_dma_info info;
	uint64_t dev, freed, foreign;
	uint32_t dev_h, freed_h, foreign_h;	/* their GEM handles */
	uint8_t *host, *host_ro, *host_other, *unreg, *rdonly;
	struct npu_raw_queue q;
} e;

/* BUF bytes followed by an unmapped page, so overruns hit a hole. */
static void *map(int prot)
{
	uint8_t *p = mmap(NULL, BUF + 4096, prot,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_int_eq(munmap(p + BUF, 4096), 0);
	return p;
}

/* The sim NPU when there is one: validation does not depend on the engine. */
static int pick_npu(void)
{
	struct npu_dma_info info;
	int i, fd, last = 0;

	for (i = 0; (fd = npu_raw_open(i)) >= 0; i++) {
		ck_assert_int_eq(npu_raw_info(fd, &info), 0);
		close(fd);
		last = i;
		if (info.backend == NPU_DMA_BACKEND_SIM)
			return i;
	}
	return last;
}

static void setup(void)
{
	int npu = pick_npu();

	e.fd = npu_raw_open(npu);
	e.fd2 = npu_raw_open(npu);
	ck_assert_int_ge(e.fd, 0);
	ck_assert_int_ge(e.fd2, 0);
	ck_assert_int_eq(npu_raw_info(e.fd, &e.info), 0);
	ck_assert_int_eq(npu_raw_alloc(e.fd, BUF, NPU_DMA_MEM_NORMAL_ONLY, &e.dev,
				       &e.dev_h), 0);
	ck_assert_int_eq(npu_raw_alloc(e.fd, BUF, NPU_DMA_MEM_NORMAL_ONLY, &e.freed,
				       &e.freed_h), 0);
	ck_assert_int_eq(npu_raw_free(e.fd, e.freed_h), 0);
	ck_assert_int_eq(npu_raw_alloc(e.fd2, BUF, NPU_DMA_MEM_NORMAL_ONLY, &e.foreign,
				       &e.foreign_h), 0);
	e.host = map(PROT_READ | PROT_WRITE);
	e.host_ro = map(PROT_READ | PROT_WRITE);
	e.host_other = map(PROT_READ | PROT_WRITE);
	e.unreg = map(PROT_READ | PROT_WRITE);
	e.rdonly = map(PROT_READ);
	ck_assert_int_eq(npu_raw_register(e.fd, e.host, BUF, 0), 0);
	ck_assert_int_eq(npu_raw_register(e.fd, e.host_ro, BUF, NPU_DMA_HOST_F_READONLY), 0);
	ck_assert_int_eq(npu_raw_register(e.fd2, e.host_other, BUF, 0), 0);
	ck_assert_int_eq(npu_raw_queue_create(e.fd, 16, &e.q), 0);
}

static void teardown(void)
{
	npu_raw_queue_destroy(&e.q);
	close(e.fd);
	close(e.fd2);
}

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

/* ioctl arguments. Each helper returns the ioctl's result. */

static int alloc_req(struct npu_dma_mem_alloc *a)
{
	return npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_MEM_ALLOC, a);
}

START_TEST(test_get_info_args)
{
	struct npu_dma_info info = { .size = 4 };
	union {
		struct npu_dma_info info;
		uint8_t b[256];
	} big;
	uint8_t small[32];
	uint32_t usize;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	/* @size is out only: "in: zero", as the header says. */
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_GET_INFO, &info), -EINVAL);
	info.size = sizeof(info);
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_GET_INFO, &info), -EINVAL);
	info.size = 0;
	info.flags = 1;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_GET_INFO, &info), -EINVAL);
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_GET_INFO, NULL), -EFAULT);
	ck_assert_int_eq(npu_raw_info(e.fd, &info), 0);
	ck_assert_uint_eq(info.size, sizeof(info));
	ck_assert_uint_eq(info.abi_version, NPU_DMA_ABI_VERSION);
	ck_assert_uint_eq(info.reserved, 0);
	/* The module's default queue_pinned_mb. */
	ck_assert_uint_eq(info.max_pin_len, 1024ULL << 20);
	ck_assert_uint_eq(info.pad, 0);
	ck_assert_uint_eq(info.pad2, 0);
	/* The event table: every slot, whole pages, a GEM fake offset. */
	ck_assert_uint_ge(info.events_size,
			  info.max_event_slots * sizeof(struct npu_dma_event_slot));
	ck_assert_uint_eq(info.events_size % page, 0);
	ck_assert_uint_eq(info.events_offset % page, 0);
	ck_assert_uint_ge(info.events_offset, 1ULL << 32);
	/*
	 * An older, shorter structure (the size is in the ioctl number): the
	 * DRM core zero-extends it in and copies only its size back out.
	 */
	memset(small, 0xee, sizeof(small));
	memset(small, 0, 16);
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOWR(DRM_COMMAND_BASE + DRM_NPU_DMA_GET_INFO,
						      uint8_t[16]), small), 0);
	memcpy(&usize, small, sizeof(usize));
	ck_assert_uint_eq(usize, sizeof(info));
	ck_assert_uint_eq(small[8], NPU_DMA_ABI_VERSION);
	ck_assert_uint_eq(small[16], 0xee);
	ck_assert_uint_eq(small[31], 0xee);
	/* A newer, longer one: what the driver does not know comes back as it went. */
	memset(&big, 0, sizeof(big));
	memset(big.b + sizeof(info), 0x5c, sizeof(big) - sizeof(info));
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOWR(DRM_COMMAND_BASE + DRM_NPU_DMA_GET_INFO,
						      uint8_t[256]), &big), 0);
	ck_assert_uint_eq(big.info.size, sizeof(info));
	ck_assert_uint_eq(big.info.mem_size, e.info.mem_size);
	ck_assert_uint_eq(t_bytes_check(big.b + sizeof(info), sizeof(big) - sizeof(info), 0x5c),
			  sizeof(big) - sizeof(info));
}
END_TEST

START_TEST(test_mem_alloc_args)
{
	struct npu_dma_mem_alloc a;

#define TRY_ALLOC(field, val, err) do {				\
		memset(&a, 0, sizeof(a));				\
		a.size = 4096;						\
		a.field = val;						\
		ck_assert_msg(alloc_req(&a) == (err), "alloc " #field "=" #val); \
	} while (0)
	TRY_ALLOC(size, 0, -EINVAL);
	TRY_ALLOC(policy, NPU_DMA_MEM_POLICY_MAX + 1, -EINVAL);
	TRY_ALLOC(policy, ~0U, -EINVAL);
	TRY_ALLOC(flags, 2, -EINVAL);
	TRY_ALLOC(flags, 0x80000000, -EINVAL);
	TRY_ALLOC(reserved[0], 1, -EINVAL);
	TRY_ALLOC(reserved[1], 1, -EINVAL);
	TRY_ALLOC(dev_addr, 1, -EINVAL);
	TRY_ALLOC(alloc_size, 1, -EINVAL);
	TRY_ALLOC(handle, 1, -EINVAL);
	TRY_ALLOC(handle, e.dev_h, -EINVAL);
	TRY_ALLOC(pad, 1, -EINVAL);
	TRY_ALLOC(align, 3, -EINVAL);
	TRY_ALLOC(align, 2ULL << 30, -EINVAL);
	TRY_ALLOC(size, e.info.mem_size + 1, -ENOMEM);
	TRY_ALLOC(size, ~0ULL, -ENOMEM);
	TRY_ALLOC(size, ~0ULL - 4096, -ENOMEM);
#undef TRY_ALLOC
	memset(&a, 0, sizeof(a));
	a.size = e.info.mem_free + 1;
	a.policy = NPU_DMA_MEM_HUGE_ONLY;
	ck_assert_int_eq(alloc_req(&a), -ENOMEM);
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_MEM_ALLOC, NULL), -EFAULT);
	/* None of the refusals took a handle: the next one is the lowest free. */
	memset(&a, 0, sizeof(a));
	a.size = 4096;
	ck_assert_int_eq(alloc_req(&a), 0);
	ck_assert_uint_eq(a.handle, e.freed_h);
	ck_assert_uint_eq(a.alloc_size, 4096);
	ck_assert_int_eq(npu_raw_free(e.fd, a.handle), 0);
}
END_TEST

/*
 * Allocate: the address; *@size becomes alloc_size and *@handle the GEM
 * handle when asked for.
 */
static uint64_t alloc_ok(uint64_t size, uint32_t policy, uint64_t align,
			 uint64_t *alloc_size, uint32_t *handle)
{
	struct npu_dma_mem_alloc a = {
		.size = size, .align = align, .policy = policy,
	};

	ck_assert_int_eq(alloc_req(&a), 0);
	ck_assert_uint_ne(a.handle, 0);
	if (alloc_size)
		*alloc_size = a.alloc_size;
	if (handle)
		*handle = a.handle;
	return a.dev_addr;
}

/*
 * Leave the first free page of the NPU misaligned for @align: pad with
 * pages until a plain allocation, made and freed again, lands on one
 * that is not a multiple of it. That is where the pool's first fit
 * would put the next allocation if it ignored the alignment.
 */
static void misalign_first_fit(uint64_t align)
{
	uint64_t probe;
	uint32_t h;
	int tries;

	for (tries = 0; tries < 64; tries++) {
		alloc_ok(4096, NPU_DMA_MEM_NORMAL_ONLY, 0, NULL, NULL);
		probe = alloc_ok(4096, NPU_DMA_MEM_NORMAL_ONLY, 0, NULL, &h);
		ck_assert_int_eq(npu_raw_free(e.fd, h), 0);
		if (probe % align)
			return;
	}
	ck_abort_msg("no misaligned free page for align %llu",
		     (unsigned long long)align);
}

/* A requested alignment holds for every policy, whatever precedes it. */
START_TEST(test_mem_alloc_align)
{
	static const uint64_t aligns[] = {
		8ULL << 10, 64ULL << 10, 2ULL << 20, 1ULL << 30,
	};
	const uint64_t huge = 2ULL << 20;
	uint64_t al, addr, size;
	unsigned int i;

	for (i = 0; i < sizeof(aligns) / sizeof(aligns[0]); i++) {
		al = aligns[i];
		/* Three aligned allocations, up to 4 MiB, after the padding. */
		if (4 * (al > huge ? al : huge) > e.info.mem_free) {
			printf("t_abi: align %llu: NPU memory too small, skipped\n",
			       (unsigned long long)al);
			continue;
		}
		misalign_first_fit(al);
		addr = alloc_ok(4096, NPU_DMA_MEM_NORMAL_ONLY, al, &size, NULL);
		ck_assert_msg(addr % al == 0, "normal-only 0x%llx, align %llu",
			      (unsigned long long)addr, (unsigned long long)al);
		ck_assert_uint_eq(size, 4096);

		misalign_first_fit(al);
		addr = alloc_ok(huge, NPU_DMA_MEM_HUGE_ONLY, al, &size, NULL);
		ck_assert_msg(addr % al == 0 && addr % huge == 0,
			      "huge-only 0x%llx, align %llu",
			      (unsigned long long)addr, (unsigned long long)al);
		ck_assert_uint_eq(size, huge);

		/* Above 1 MiB huge-first takes 2 MiB pages: 3 MiB is 4 MiB. */
		misalign_first_fit(al);
		addr = alloc_ok(3ULL << 20, NPU_DMA_MEM_HUGE_FIRST, al, &size, NULL);
		ck_assert_msg(addr % al == 0 && addr % huge == 0,
			      "huge-first 0x%llx, align %llu",
			      (unsigned long long)addr, (unsigned long long)al);
		ck_assert_uint_eq(size, 2 * huge);
	}
}
END_TEST

/* One H2D copy of 8 bytes into @dev: its error. */
static int touch(uint64_t dev)
{
	return npu_raw_run(&e.q, &(struct npu_dma_desc){
		.opcode = NPU_DMA_OP_COPY, .flags = SH,
		.src = (uintptr_t)e.host, .dst = dev, .len = 8 });
}

/*
 * Device memory is freed by the DRM core's GEM_CLOSE of its handle.
 * Handles are per file: another file's handle numbers name nothing here
 * (or its own objects), an address is not a handle, a closed handle is
 * gone. A refused close leaves the allocation usable.
 */
START_TEST(test_gem_close_args)
{
	struct drm_gem_close c = { 0 };
	uint64_t mine;
	uint32_t h;

	ck_assert_int_eq(npu_raw_free(e.fd, 0), -EINVAL);
	ck_assert_int_eq(npu_raw_free(e.fd, e.freed_h), -EINVAL);
	ck_assert_int_eq(npu_raw_free(e.fd, e.dev_h + 1000), -EINVAL);
	ck_assert_int_eq(npu_raw_free(e.fd, ~0U), -EINVAL);
	ck_assert_int_eq(npu_raw_free(e.fd, (uint32_t)e.dev), -EINVAL);
	ck_assert_int_eq(npu_raw_free(e.fd, (uint32_t)e.foreign), -EINVAL);
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_GEM_CLOSE, NULL), -EFAULT);
	/* A handle of this file the other file does not have. */
	mine = alloc_ok(4096, NPU_DMA_MEM_NORMAL_ONLY, 0, NULL, &h);
	ck_assert_uint_ne(h, e.foreign_h);
	ck_assert_int_eq(npu_raw_free(e.fd2, h), -EINVAL);
	ck_assert_int_eq(touch(mine), 0);
	c.handle = h;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_GEM_CLOSE, &c), 0);
	ck_assert_int_eq(touch(mine), -EFAULT);
	/* Still allocated after all that, then freed once. */
	ck_assert_int_eq(touch(e.dev), 0);
	ck_assert_int_eq(npu_raw_free(e.fd, e.dev_h), 0);
	ck_assert_int_eq(npu_raw_free(e.fd, e.dev_h), -EINVAL);
	ck_assert_int_eq(touch(e.dev), -EFAULT);
	/* The other file's allocation was never touched by any of it. */
	ck_assert_int_eq(npu_raw_free(e.fd2, e.foreign_h), 0);
}
END_TEST

START_TEST(test_host_register_args)
{
	struct npu_dma_host_register r = { .addr = (uintptr_t)e.unreg, .size = 8 };

#define TRY_REG(field, val, err) do {					\
		typeof(r) s = r;					\
		s.field = val;						\
		ck_assert_msg(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_HOST_REGISTER, &s) \
			      == (err), "register " #field "=" #val);	\
	} while (0)
	TRY_REG(size, 0, -EINVAL);
	TRY_REG(flags, 2, -EINVAL);
	TRY_REG(pad, 1, -EINVAL);
	TRY_REG(reserved[0], 1, -EINVAL);
	TRY_REG(size, ~0ULL, -EINVAL);
	TRY_REG(addr, ~0ULL - 3, -EINVAL);
	TRY_REG(addr, NO_ADDR, -EFAULT);
	TRY_REG(addr, KERNEL_ADDR, -EFAULT);
	TRY_REG(addr, 0, -EFAULT);
	TRY_REG(addr, (uintptr_t)e.host + 100, -EEXIST);
	TRY_REG(addr, (uintptr_t)e.host, -EEXIST);
	TRY_REG(addr, (uintptr_t)e.rdonly, -EFAULT);
	TRY_REG(size, BUF + 4096, -EFAULT);
#undef TRY_REG
	/* Read-only memory registers when the device only reads it. */
	ck_assert_int_eq(npu_raw_register(e.fd, e.rdonly, BUF, NPU_DMA_HOST_F_READONLY), 0);
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_HOST_REGISTER, NULL), -EFAULT);
}
END_TEST

START_TEST(test_host_unregister_args)
{
	struct npu_dma_host_unregister u = { .addr = (uintptr_t)e.host, .flags = 1 };

	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_HOST_UNREGISTER, &u), -EINVAL);
	u.flags = 0;
	u.pad = 1;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_HOST_UNREGISTER, &u), -EINVAL);
	u.pad = 0;
	u.reserved[0] = 1;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_HOST_UNREGISTER, &u), -EINVAL);
	ck_assert_int_eq(npu_raw_unregister(e.fd, e.unreg), -EINVAL);
	ck_assert_int_eq(npu_raw_unregister(e.fd, e.host + 1), -EINVAL);
	ck_assert_int_eq(npu_raw_unregister(e.fd, e.host_other), -EINVAL);
	ck_assert_int_eq(npu_raw_unregister(e.fd, e.host), 0);
	ck_assert_int_eq(npu_raw_unregister(e.fd, e.host), -EINVAL);
}
END_TEST

START_TEST(test_queue_create_args)
{
	struct npu_dma_queue_create c = { .entries = 16, .eventfd = -1 };
	int efd = eventfd(0, EFD_CLOEXEC);

#define TRY_QC(field, val, err) do {					\
		typeof(c) s = c;					\
		s.field = val;						\
		ck_assert_msg(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, &s) \
			      == (err), "queue create " #field "=" #val); \
	} while (0)
	TRY_QC(entries, 0, -EINVAL);
	TRY_QC(entries, 3, -EINVAL);
	TRY_QC(entries, 8192, -EINVAL);
	TRY_QC(entries, 0x80000000, -EINVAL);
	TRY_QC(flags, 1, -EINVAL);
	TRY_QC(queue_id, 1, -EINVAL);
	TRY_QC(mmap_offset, 1, -EINVAL);
	TRY_QC(mmap_size, 1, -EINVAL);
	TRY_QC(reserved[3], 1, -EINVAL);
	TRY_QC(eventfd, -2, -EBADF);
	TRY_QC(eventfd, 9999, -EBADF);
	TRY_QC(eventfd, e.fd, -EINVAL);
#undef TRY_QC
	ck_assert_int_ge(efd, 0);
	c.eventfd = efd;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, &c), 0);
	close(efd);
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, NULL), -EFAULT);
}
END_TEST

START_TEST(test_queue_limit)
{
	struct npu_dma_queue_create c = { .entries = 1, .eventfd = -1 };
	int i, n = 1;	/* the fixture's queue */

	for (i = 0; i < 100; i++) {
		struct npu_dma_queue_create s = c;
		int ret = npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, &s);

		if (ret == -EBUSY)
			break;
		ck_assert_int_eq(ret, 0);
		n++;
	}
	ck_assert_int_eq(n, 64);
	/* Other files have their own budget. */
	ck_assert_int_eq(npu_raw_ioctl(e.fd2, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, &c), 0);
}
END_TEST

START_TEST(test_queue_id_args)
{
	struct npu_dma_queue_destroy qd = { .queue_id = e.q.id };
	struct npu_dma_queue_submit qs = { .queue_id = e.q.id };
	struct npu_dma_barrier_release br = { .queue_id = e.q.id, .seq = 1 };
	struct npu_raw_queue other;

	qd.flags = 1;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &qd), -EINVAL);
	qd.flags = 0;
	qd.reserved[1] = 1;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &qd), -EINVAL);
	/* F_INLINE is the one flag (t_submit_inline tests what it does). */
	qs.flags = NPU_DMA_SUBMIT_F_INLINE << 1;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &qs), -EINVAL);
	qs.flags = 0;
	qs.reserved[0] = 1;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &qs), -EINVAL);
	br.flags = 1;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_BARRIER_RELEASE, &br), -EINVAL);
	br.flags = 0;
	br.reserved[1] = 1;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_BARRIER_RELEASE, &br), -EINVAL);
	br.reserved[1] = 0;
	/* No barrier reached: nothing to release. */
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_BARRIER_RELEASE, &br), -EINVAL);
	br.seq = 0;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_BARRIER_RELEASE, &br), -EINVAL);

	/* Ids that are not a queue of this file. */
	ck_assert_int_eq(npu_raw_queue_create(e.fd2, 16, &other), 0);
	qd.reserved[1] = 0;
	qs.reserved[0] = 0;
	qd.queue_id = qs.queue_id = br.queue_id = other.id;
	br.seq = 1;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &qd), -ENOENT);
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &qs), -ENOENT);
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_BARRIER_RELEASE, &br), -ENOENT);
	qd.queue_id = qs.queue_id = 0x7fffffff;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &qd), -ENOENT);
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &qs), -ENOENT);
	npu_raw_queue_destroy(&other);
	qd.queue_id = other.id;
	ck_assert_int_eq(npu_raw_ioctl(e.fd2, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &qd), -ENOENT);
}
END_TEST

START_TEST(test_submit_tail_too_far)
{
	struct npu_dma_desc nop = { .opcode = NPU_DMA_OP_NOP };
	uint64_t seq;

	/* A tail more than a ring ahead is refused and nothing is consumed. */
	__atomic_store_n(&e.q.ctrl->sq_tail, e.q.entries + 1, __ATOMIC_RELEASE);
	ck_assert_int_eq(npu_raw_submit(&e.q), -EINVAL);
	ck_assert_uint_eq(e.q.ctrl->sq_head, 0);
	__atomic_store_n(&e.q.ctrl->sq_tail, ~0U, __ATOMIC_RELEASE);
	ck_assert_int_eq(npu_raw_submit(&e.q), -EINVAL);
	/* The queue still works once the tail is sane again. */
	__atomic_store_n(&e.q.ctrl->sq_tail, 0, __ATOMIC_RELEASE);
	ck_assert_int_eq(npu_raw_submit(&e.q), 0);
	seq = npu_raw_push(&e.q, &nop);
	ck_assert_int_eq(npu_raw_submit(&e.q), 1);
	ck_assert_int_eq(npu_raw_wait(&e.q, seq, 20000), 0);
	ck_assert_uint_eq(e.q.ctrl->error_count, 0);
}
END_TEST

/* The node is a render node (6.1) rather than an accel node. */
static int render_node(void)
{
	struct npu_node n;

	ck_assert(t_npu_find(e.info.index, &n));
	return !strncmp(n.minor, "renderD", 7);
}

/*
 * Numbers the driver does not have are the DRM core's to refuse: past
 * the driver's table and past the core's it says -EINVAL (not -ENOTTY);
 * core ioctls of the primary node (flink names, master) are refused on a
 * render node with -EACCES. The event table is read-only; mmap offsets
 * are GEM fake offsets, each mappable whole, by its own file only.
 */
START_TEST(test_unknown_ioctls_and_mmaps)
{
	uint64_t arg[16] = { 0 };
	struct drm_gem_flink flink = { .handle = e.dev_h };
	struct drm_gem_open gopen = { .name = 1 };
	size_t ev_size = e.info.events_size;
	void *p;

	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOWR(DRM_COMMAND_BASE +
						      DRM_NPU_DMA_GRAPH_DESTROY + 1,
						      uint64_t[16]), arg), -EINVAL);
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOWR(DRM_COMMAND_END - 1, uint64_t[16]), arg),
			 -EINVAL);
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOWR(0xff, uint64_t[16]), arg), -EINVAL);
	if (render_node()) {
		ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_GEM_FLINK, &flink), -EACCES);
		ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_GEM_OPEN, &gopen), -EACCES);
		ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_SET_MASTER, NULL), -EACCES);
	} else {
		ck_assert_int_lt(npu_raw_ioctl(e.fd, DRM_IOCTL_GEM_FLINK, &flink), 0);
		ck_assert_int_lt(npu_raw_ioctl(e.fd, DRM_IOCTL_GEM_OPEN, &gopen), 0);
	}
	/* After all of it the allocation is still this file's, and works. */
	ck_assert_int_eq(touch(e.dev), 0);

	/* The event table is read-only, and stays so. */
	p = mmap(NULL, ev_size, PROT_READ | PROT_WRITE, MAP_SHARED, e.fd,
		 (off_t)e.info.events_offset);
	ck_assert(p == MAP_FAILED && errno == EPERM);
	p = mmap(NULL, ev_size, PROT_READ, MAP_SHARED, e.fd, (off_t)e.info.events_offset);
	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert(mprotect(p, ev_size, PROT_READ | PROT_WRITE) && errno == EACCES);
	ck_assert_int_eq(munmap(p, ev_size), 0);
	/* Not a fake offset; part of an object; more than an object. */
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, e.fd, 0);
	ck_assert(p == MAP_FAILED && errno == EINVAL);
	p = mmap(NULL, ev_size / 2, PROT_READ, MAP_SHARED, e.fd, (off_t)e.info.events_offset);
	ck_assert(p == MAP_FAILED && errno == EINVAL);
	p = mmap(NULL, e.q.map_size - 4096, PROT_READ, MAP_SHARED, e.fd,
		 (off_t)(e.q.map_offset + 4096));
	ck_assert(p == MAP_FAILED && errno == EINVAL);
	p = mmap(NULL, e.q.map_size * 64, PROT_READ, MAP_SHARED, e.fd, (off_t)e.q.map_offset);
	ck_assert(p == MAP_FAILED && errno == EINVAL);
	p = mmap(NULL, e.q.map_size, PROT_READ, MAP_SHARED, e.fd, (off_t)(1ULL << 46));
	ck_assert(p == MAP_FAILED && errno == EINVAL);
	/* Another file's queue area and event table. */
	p = mmap(NULL, e.q.map_size, PROT_READ | PROT_WRITE, MAP_SHARED, e.fd2,
		 (off_t)e.q.map_offset);
	ck_assert(p == MAP_FAILED && errno == EACCES);
	p = mmap(NULL, ev_size, PROT_READ, MAP_SHARED, e.fd2, (off_t)e.info.events_offset);
	ck_assert(p == MAP_FAILED && errno == EACCES);
}
END_TEST

/* The event table, mapped read-only as libacl maps it. */
static struct npu_dma_event_slot *map_events(size_t *size)
{
	struct npu_dma_event_slot *p = npu_raw_map_events(e.fd, size);

	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_uint_eq(*size, e.info.events_size);
	return p;
}

/*
 * MADV_DONTNEED zaps the page tables of the queue and event mappings;
 * the next access must find the kernel's memory again (not SIGBUS, not
 * a fresh zero page), and the queue must go on working through it.
 */
START_TEST(test_dontneed_keeps_shared_memory)
{
	struct npu_dma_desc rec = { .opcode = NPU_DMA_OP_EVENT_RECORD, .dst = 7 };
	struct npu_dma_desc copy = npu_raw_copy(e.dev + 4096, e.dev, 4096, 0);
	struct npu_dma_desc bad = npu_raw_copy(e.dev, e.freed, 8, 0);
	struct npu_dma_event_slot *ev;
	uint64_t rec_seq, bad_seq, last;
	size_t ev_size;

	ev = map_events(&ev_size);
	rec_seq = npu_raw_push(&e.q, &rec);
	bad_seq = npu_raw_push(&e.q, &bad);
	last = npu_raw_push(&e.q, &copy);
	ck_assert_int_eq(npu_raw_submit(&e.q), 3);
	ck_assert_int_eq(npu_raw_wait(&e.q, last, 20000), 0);
	ck_assert_uint_eq(ev[7].seq, rec_seq);

	ck_assert_int_eq(madvise(e.q.map, e.q.map_size, MADV_DONTNEED), 0);
	ck_assert_int_eq(madvise(ev, ev_size, MADV_DONTNEED), 0);
	ck_assert_uint_eq(e.q.ctrl->completed_seq, last);
	ck_assert_uint_eq(e.q.ctrl->submitted_seq, last);
	ck_assert_uint_eq(e.q.ctrl->sq_head, 3);
	ck_assert_uint_eq(e.q.ctrl->sq_tail, 3);
	ck_assert_uint_eq(e.q.ctrl->error_seq, bad_seq);
	ck_assert_int_eq(e.q.ctrl->error, -EFAULT);
	ck_assert_uint_eq(e.q.ctrl->error_count, 1);
	ck_assert_uint_eq(e.q.ring[0].opcode, NPU_DMA_OP_EVENT_RECORD);
	ck_assert_uint_eq(e.q.ring[2].src, e.dev);
	ck_assert_uint_eq(ev[7].seq, rec_seq);
	ck_assert_uint_eq(ev[7].queue_id, e.q.id);
	ck_assert_uint_ne(ev[7].timestamp_ns, 0);

	/* New completions land where the process looks. */
	rec.dst = 8;
	rec_seq = npu_raw_push(&e.q, &rec);
	ck_assert_int_eq(npu_raw_submit(&e.q), 1);
	ck_assert_int_eq(npu_raw_wait(&e.q, rec_seq, 20000), 0);
	ck_assert_uint_eq(ev[8].seq, rec_seq);
	ck_assert_uint_eq(ev[8].queue_id, e.q.id);

	/* A descriptor written before a zap is what the doorbell consumes. */
	last = npu_raw_push(&e.q, &copy);
	ck_assert_int_eq(madvise(e.q.map, e.q.map_size, MADV_DONTNEED), 0);
	ck_assert_int_eq(npu_raw_submit(&e.q), 1);
	ck_assert_int_eq(npu_raw_wait(&e.q, last, 20000), 0);
	ck_assert_uint_eq(e.q.ctrl->completed_seq, last);
	ck_assert_uint_eq(e.q.ctrl->error_count, 1);
	ck_assert_int_eq(munmap(ev, ev_size), 0);
}
END_TEST

/*
 * What is left of a mapping after its first page is unmapped starts at
 * a later file offset: a refault must still pick the page at that offset.
 */
START_TEST(test_dontneed_after_partial_munmap)
{
	struct npu_dma_desc rec = { .opcode = NPU_DMA_OP_EVENT_RECORD };
	struct npu_dma_desc mark = npu_raw_copy(0x1234000, 0x5678000, 99, 0);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t slots = page / sizeof(struct npu_dma_event_slot);
	struct npu_dma_event_slot *ev;
	uint64_t seq;
	size_t ev_size;

	ck_assert_uint_eq(e.q.map_size, 2 * page);
	ev = map_events(&ev_size);
	rec.dst = slots + 3;
	seq = npu_raw_push(&e.q, &rec);
	ck_assert_int_eq(npu_raw_submit(&e.q), 1);
	ck_assert_int_eq(npu_raw_wait(&e.q, seq, 20000), 0);
	/* Written, never published. */
	e.q.ring[5] = mark;

	ck_assert_int_eq(munmap(e.q.map, page), 0);
	ck_assert_int_eq(munmap(ev, page), 0);
	ck_assert_int_eq(madvise(e.q.ring, page, MADV_DONTNEED), 0);
	ck_assert_int_eq(madvise(ev + slots, ev_size - page, MADV_DONTNEED), 0);
	ck_assert_uint_eq(e.q.ring[0].opcode, NPU_DMA_OP_EVENT_RECORD);
	ck_assert_uint_eq(e.q.ring[0].dst, slots + 3);
	ck_assert_uint_eq(e.q.ring[5].src, mark.src);
	ck_assert_uint_eq(e.q.ring[5].dst, mark.dst);
	ck_assert_uint_eq(e.q.ring[5].len, mark.len);
	ck_assert_uint_eq(ev[slots + 3].seq, seq);
	ck_assert_uint_eq(ev[slots + 3].queue_id, e.q.id);
	ck_assert_uint_eq(ev[slots].seq, 0);
	ck_assert_int_eq(munmap(ev + slots, ev_size - page), 0);
	/* teardown's munmap of the whole queue mapping still succeeds. */
}
END_TEST

static Suite *abi_suite(void)
{
	Suite *s = suite_create("t_abi");
	TCase *tc = tcase_create("descriptors");
	TCase *ti = tcase_create("ioctls");

	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_bad_descriptor, 0, NR_BAD);
	tcase_add_test(tc, test_bad_batches);
	tcase_add_test(tc, test_indirect_run_time);
	tcase_add_test(tc, test_wait_on_other_process_queue);
	suite_add_tcase(s, tc);

	tcase_set_timeout(ti, 120);
	tcase_add_checked_fixture(ti, setup, teardown);
	tcase_add_test(ti, test_get_info_args);
	tcase_add_test(ti, test_mem_alloc_args);
	tcase_add_test(ti, test_mem_alloc_align);
	tcase_add_test(ti, test_gem_close_args);
	tcase_add_test(ti, test_host_register_args);
	tcase_add_test(ti, test_host_unregister_args);
	tcase_add_test(ti, test_queue_create_args);
	tcase_add_test(ti, test_queue_limit);
	tcase_add_test(ti, test_queue_id_args);
	tcase_add_test(ti, test_submit_tail_too_far);
	tcase_add_test(ti, test_unknown_ioctls_and_mmaps);
	tcase_add_test(ti, test_dontneed_keeps_shared_memory);
	tcase_add_test(ti, test_dontneed_after_partial_munmap);
	suite_add_tcase(s, ti);
	return s;
}

int main(void)
{
	if (!npu_raw_present())
		return T_EXIT_SKIP;
	printf("t_abi: %zu invalid descriptors\n", NR_BAD);
	return t_run_suite(abi_suite());
}
