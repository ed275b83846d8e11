// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: the ABI refuses invalid ioctl arguments, each one its own
 * check with the errno it must produce. MEM_ALLOC honours a requested
 * alignment. Where the DRM core answers for the driver (unknown command
 * numbers, structure sizes, GEM_CLOSE, mmap offsets) the test asserts
 * what the core answers. The queue and event mappings survive
 * MADV_DONTNEED. Invalid descriptors: t_abi_desc.
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
	ck_assert_uint_ge(info.vmm_size, info.mem_size);
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
			t_skip("align %llu: NPU memory too small",
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
		.opcode = NPU_DMA_OP_COPY, .flags = NPU_DMA_DESC_F_SRC_HOST,
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

static int queue_ctl(uint32_t id, uint32_t op, uint32_t value)
{
	struct npu_dma_queue_ctl c = { .queue_id = id, .op = op, .value = value };

	return npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_QUEUE_CTL, &c);
}

/* QUEUE_CTL: each field checked (t_queue tests what the ops do). */
static void queue_ctl_args(void)
{
	struct npu_dma_queue_ctl c = { .queue_id = e.q.id,
				       .op = NPU_DMA_QUEUE_CTL_SET_PRIORITY };

	c.flags = 1;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_QUEUE_CTL, &c), -EINVAL);
	c.flags = 0;
	c.reserved[1] = 1;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_QUEUE_CTL, &c), -EINVAL);
	c.reserved[1] = 0;
	c.seq = 1;	/* out only */
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_QUEUE_CTL, &c), -EINVAL);
	ck_assert_int_eq(queue_ctl(e.q.id, 0, 0), -EINVAL);
	ck_assert_int_eq(queue_ctl(e.q.id, NPU_DMA_QUEUE_CTL_ABORT + 1, 0), -EINVAL);
	ck_assert_int_eq(queue_ctl(e.q.id, NPU_DMA_QUEUE_CTL_SET_PRIORITY,
				   NPU_DMA_QUEUE_PRIO_LOWEST + 1), -EINVAL);
	ck_assert_int_eq(queue_ctl(e.q.id, NPU_DMA_QUEUE_CTL_STOP, 1), -EINVAL);
	ck_assert_int_eq(queue_ctl(e.q.id, NPU_DMA_QUEUE_CTL_ABORT, 1), -EINVAL);
	ck_assert_int_eq(queue_ctl(e.q.id, NPU_DMA_QUEUE_CTL_SET_PRIORITY,
				   NPU_DMA_QUEUE_PRIO_LOWEST), 0);
	ck_assert_int_eq(queue_ctl(e.q.id, NPU_DMA_QUEUE_CTL_SET_PRIORITY,
				   NPU_DMA_QUEUE_PRIO_HIGHEST), 0);
	ck_assert_int_eq(queue_ctl(0x7fffffff, NPU_DMA_QUEUE_CTL_ABORT, 0), -ENOENT);
}

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
	/* F_INLINE and F_HELP are the flags (t_submit_inline tests what they do). */
	qs.flags = NPU_DMA_SUBMIT_F_HELP << 1;
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

	queue_ctl_args();

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
	ck_assert_int_eq(queue_ctl(other.id, NPU_DMA_QUEUE_CTL_SET_PRIORITY, 0),
			 -ENOENT);
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
						      DRM_NPU_DMA_QUEUE_CTL + 1,
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
	uint64_t rec_seq, bad_seq, last, t0, t1, ts;
	size_t ev_size;

	ev = map_events(&ev_size);
	rec_seq = npu_raw_push(&e.q, &rec);
	bad_seq = npu_raw_push(&e.q, &bad);
	last = npu_raw_push(&e.q, &copy);
	t0 = t_now_ns();
	ck_assert_int_eq(npu_raw_submit(&e.q), 3);
	ck_assert_int_eq(npu_raw_wait(&e.q, last, 20000), 0);
	t1 = t_now_ns();
	ck_assert_uint_eq(ev[7].seq, rec_seq);
	/* The record completed after the submit, before the wait ended. */
	ts = ev[7].timestamp_ns;
	ck_assert_uint_ge(ts, t0);
	ck_assert_uint_le(ts, t1);

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
	ck_assert_uint_eq(ev[7].timestamp_ns, ts);

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
	Suite *s = suite_create("t_abi_ioctl");
	TCase *ti = tcase_create("ioctls");

	tcase_set_timeout(ti, 120);
	tcase_add_checked_fixture(ti, t_abi_setup, t_abi_teardown);
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
	return t_run_suite(abi_suite());
}
