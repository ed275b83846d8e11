// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: data movement through the raw ABI, on every NPU in the VM.
 * H2D then D2H round trips, byte-exact, registered and pageable host
 * memory at unaligned addresses; 2-D copies and fills against a host
 * reference; events; device memory accounting.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_state.h"
#include "t_vm.h"

#define MAX_NPUS 8

static int nr_npus;
static struct npu_dma_info infos[MAX_NPUS];

static void find_npus(void)
{
	nr_npus = t_find_npus(infos, MAX_NPUS);
}

static int is_edu(int i)
{
	return infos[i].backend == NPU_DMA_BACKEND_EDU;
}

static void *host_buf(size_t len)
{
	void *p = mmap(NULL, len + 8192, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

/* H2D then D2H of len bytes at host offset off; registered or pageable. */
static void roundtrip(int npu, size_t len, size_t off, int pageable)
{
	struct npu_raw_queue q;
	uint8_t *a = host_buf(len), *b = host_buf(len);
	uint16_t hflag = NPU_DMA_DESC_F_SRC_HOST;
	struct npu_dma_desc d;
	uint64_t dev;
	int fd = npu_raw_open(npu);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, len, NPU_DMA_MEM_HUGE_FIRST, &dev, NULL), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 64, &q), 0);
	t_pattern_fill(a + off, len, (uint32_t)(len * 31 + off));
	memset(b + off, 0xa5, len);
	if (!pageable) {
		ck_assert_int_eq(npu_raw_register(fd, a + off, len, NPU_DMA_HOST_F_READONLY), 0);
		ck_assert_int_eq(npu_raw_register(fd, b + off, len, 0), 0);
	} else {
		hflag |= NPU_DMA_DESC_F_SRC_PAGEABLE;
	}

	d = npu_raw_copy(dev, (uintptr_t)(a + off), len, hflag);
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	d = npu_raw_copy((uintptr_t)(b + off), dev, len,
			 NPU_DMA_DESC_F_DST_HOST |
			 (pageable ? NPU_DMA_DESC_F_DST_PAGEABLE : 0));
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	ck_assert_msg(t_pattern_check(b + off, len, (uint32_t)(len * 31 + off)) == len,
		      "npu%d: %zu bytes at +%zu differ at %zu", npu, len, off,
		      t_pattern_check(b + off, len, (uint32_t)(len * 31 + off)));

	npu_raw_queue_destroy(&q);
	close(fd);	/* unregisters, frees */
	munmap(a, len + 8192);
	munmap(b, len + 8192);
}

START_TEST(test_roundtrip_registered_sizes)
{
	static const size_t edu_sizes[] = { 1, 4095, 4097, 16384 };
	static const size_t sim_sizes[] = { 1, 4095, 4097, 65536, 1 << 20,
					    (8 << 20) + 3, 64 << 20 };
	int npu = _i;
	size_t i;

	if (npu >= nr_npus)
		return;
	if (is_edu(npu)) {
		for (i = 0; i < sizeof(edu_sizes) / sizeof(edu_sizes[0]); i++)
			roundtrip(npu, edu_sizes[i], 1 + i, 0);
	} else {
		for (i = 0; i < sizeof(sim_sizes) / sizeof(sim_sizes[0]); i++)
			roundtrip(npu, sim_sizes[i], 4095 - i, 0);
	}
}
END_TEST

START_TEST(test_roundtrip_pageable)
{
	int npu = _i;

	if (npu >= nr_npus)
		return;
	roundtrip(npu, 4097, 7, 1);
	if (!is_edu(npu))
		roundtrip(npu, 3 << 20, 5, 1);
}
END_TEST

/* Run a fill of @len bytes of 0x5a at @dev, then a 2-D copy @d: both fine. */
static void fill_then_2d(struct npu_raw_queue *q, uint64_t dev, uint64_t len,
			 const struct npu_dma_desc *d)
{
	struct npu_dma_desc f = { .opcode = NPU_DMA_OP_FILL, .fill_size = 1,
				  .dst = dev, .len = len, .value = 0x5a };

	ck_assert_int_eq(npu_raw_run(q, &f), 0);
	ck_assert_int_eq(npu_raw_run(q, d), 0);
}

START_TEST(test_fill_and_2d_against_reference)
{
	int npu = _i, fd;
	const uint32_t w = 37, h = 19, sp = 64, dp = 50;
	uint8_t *src, *out, ref[50 * 19];
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	uint64_t dev;
	uint32_t r;

	if (npu >= nr_npus)
		return;
	fd = npu_raw_open(npu);
	src = host_buf(sp * h);
	out = host_buf(dp * h);
	ck_assert_int_eq(npu_raw_alloc(fd, 1 << 16, NPU_DMA_MEM_NORMAL_ONLY, &dev, NULL), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_int_eq(npu_raw_register(fd, src, sp * h, 0), 0);
	ck_assert_int_eq(npu_raw_register(fd, out, dp * h, 0), 0);
	t_pattern_fill(src, sp * h, 9);

	/* Device: fill 0x5a, then a 2-D copy of w x h from src (pitch sp). */
	d = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_COPY_2D,
				   .flags = NPU_DMA_DESC_F_SRC_HOST, .height = h,
				   .src = (uintptr_t)src, .dst = dev, .len = w,
				   .src_pitch = sp, .dst_pitch = dp };
	fill_then_2d(&q, dev, dp * h, &d);
	d = npu_raw_copy((uintptr_t)out, dev, dp * h, NPU_DMA_DESC_F_DST_HOST);
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);

	memset(ref, 0x5a, sizeof(ref));
	for (r = 0; r < h; r++)
		memcpy(ref + r * dp, src + r * sp, w);
	ck_assert_int_eq(memcmp(out, ref, sizeof(ref)), 0);

	/* 32-bit fill: the pattern's byte order is the host's. */
	d = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_FILL, .fill_size = 4,
				   .dst = dev + 4, .len = 40, .value = 0x11223344 };
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	d = npu_raw_copy((uintptr_t)out, dev + 4, 40, NPU_DMA_DESC_F_DST_HOST);
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	for (r = 0; r < 10; r++)
		ck_assert_uint_eq(((uint32_t *)out)[r], 0x11223344);

	npu_raw_queue_destroy(&q);
	close(fd);
}
END_TEST

/*
 * Tall 2-D copies on a sim NPU, whose channels share the rows in chunks:
 * host to device (rows 4 KiB apart, each in a page of its own), device
 * to host, and a device range copied onto a later part of itself (kept
 * on one channel, in row order). A height that is not a whole number of
 * chunks; byte-exact against the CPU.
 */
START_TEST(test_tall_2d_against_reference)
{
	const uint32_t w = 24, h = 1500, sp = 4096, dp = 40;
	int npu = -1, fd, i;
	uint8_t *src, *out, *ref;
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	uint64_t dev;
	uint32_t r;

	for (i = 0; i < nr_npus && npu < 0; i++)
		if (!is_edu(i))
			npu = i;
	T_SKIP_UNLESS(npu >= 0, "no sim NPU");
	fd = npu_raw_open(npu);
	src = host_buf((size_t)sp * h);
	out = host_buf((size_t)dp * h * 2);
	ref = host_buf((size_t)dp * h * 2);
	ck_assert_int_eq(npu_raw_alloc(fd, 1 << 20, NPU_DMA_MEM_NORMAL_ONLY, &dev, NULL), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_int_eq(npu_raw_register(fd, src, (size_t)sp * h, 0), 0);
	ck_assert_int_eq(npu_raw_register(fd, out, (size_t)dp * h * 2, 0), 0);
	t_pattern_fill(src, (size_t)sp * h, 11);

	d = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_COPY_2D,
				   .flags = NPU_DMA_DESC_F_SRC_HOST, .height = h,
				   .src = (uintptr_t)src, .dst = dev, .len = w,
				   .src_pitch = sp, .dst_pitch = dp };
	fill_then_2d(&q, dev, dp * h * 2, &d);
	/* The rows onto the second half, 8 bytes further in each row. */
	d = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_COPY_2D, .height = h,
				   .src = dev, .dst = dev + dp * h + 8, .len = w,
				   .src_pitch = dp, .dst_pitch = dp };
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	/* Back to the host as 2-D too: the whole rows. */
	d = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_COPY_2D,
				   .flags = NPU_DMA_DESC_F_DST_HOST, .height = 2 * h,
				   .src = dev, .dst = (uintptr_t)out, .len = dp,
				   .src_pitch = dp, .dst_pitch = dp };
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);

	memset(ref, 0x5a, (size_t)dp * h * 2);
	for (r = 0; r < h; r++) {
		memcpy(ref + r * dp, src + (size_t)r * sp, w);
		memcpy(ref + dp * h + 8 + r * dp, src + (size_t)r * sp, w);
	}
	ck_assert_int_eq(memcmp(out, ref, (size_t)dp * h * 2), 0);
	npu_raw_queue_destroy(&q);
	close(fd);
}
END_TEST

START_TEST(test_event_timestamps_monotonic)
{
	struct npu_dma_event_slot *ev;
	struct npu_raw_queue q;
	struct npu_dma_desc d = { .opcode = NPU_DMA_OP_EVENT_RECORD };
	uint64_t last = 0, seq, t0, t1;
	int fd = npu_raw_open(nr_npus - 1), i;
	size_t ev_size;

	ck_assert_int_ge(fd, 0);
	ev = npu_raw_map_events(fd, &ev_size);
	ck_assert_ptr_ne(ev, MAP_FAILED);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	for (i = 0; i < 5; i++) {
		d.dst = i;
		seq = npu_raw_push(&q, &d);
		t0 = t_now_ns();
		ck_assert_int_eq(npu_raw_submit(&q), 1);
		ck_assert_int_eq(npu_raw_wait(&q, seq, 10000), 0);
		t1 = t_now_ns();
		ck_assert_uint_eq(ev[i].seq, seq);
		ck_assert_uint_eq(ev[i].queue_id, q.id);
		ck_assert_uint_ge(ev[i].timestamp_ns, last);
		/* CLOCK_MONOTONIC at completion: after the submit, before the wait ended. */
		ck_assert_uint_ge(ev[i].timestamp_ns, t0);
		ck_assert_uint_le(ev[i].timestamp_ns, t1);
		last = ev[i].timestamp_ns;
	}
	npu_raw_queue_destroy(&q);
	munmap(ev, ev_size);
	close(fd);
}
END_TEST

START_TEST(test_mem_free_accounting)
{
	struct npu_dma_info before, after;
	uint32_t ha, hb;
	uint64_t a, b;
	int fd = npu_raw_open(nr_npus - 1);

	ck_assert_int_eq(npu_raw_info(fd, &before), 0);
	ck_assert_int_eq(npu_raw_alloc(fd, 3 << 20, NPU_DMA_MEM_HUGE_ONLY, &a, &ha), 0);
	ck_assert_uint_eq(a % (2 << 20), 0);
	ck_assert_int_eq(npu_raw_alloc(fd, 1, NPU_DMA_MEM_NORMAL_ONLY, &b, &hb), 0);
	/* GEM handles: the lowest free, from 1. */
	ck_assert_uint_eq(ha, 1);
	ck_assert_uint_eq(hb, 2);
	ck_assert_int_eq(npu_raw_info(fd, &after), 0);
	ck_assert_uint_eq(before.mem_free - after.mem_free, (4 << 20) + 4096);
	ck_assert_int_eq(npu_raw_free(fd, ha), 0);
	ck_assert_int_eq(npu_raw_info(fd, &after), 0);
	ck_assert_uint_eq(before.mem_free - after.mem_free, 4096);
	ck_assert_int_eq(npu_raw_free(fd, ha), -EINVAL);
	ck_assert_int_eq(npu_raw_alloc(fd, before.mem_size + 1, 0, &b, NULL), -ENOMEM);
	close(fd);
	fd = npu_raw_open(nr_npus - 1);
	ck_assert_int_eq(npu_raw_info(fd, &after), 0);
	ck_assert_uint_eq(after.mem_free, before.mem_free);
	close(fd);
}
END_TEST

/*
 * GET_INFO: allocations lie in [mem_base, mem_base + mem_size); peers are
 * the other NPUs of the same backend, never the NPU itself.
 */
START_TEST(test_info_base_and_peers)
{
	uint64_t want, dev;
	int i, j, fd;

	for (i = 0; i < nr_npus; i++) {
		want = 0;
		for (j = 0; j < nr_npus; j++)
			if (j != i && infos[j].backend == infos[i].backend)
				want |= 1ULL << j;
		ck_assert_msg(infos[i].peers == want, "npu%d: peers 0x%llx, want 0x%llx",
			      i, (unsigned long long)infos[i].peers,
			      (unsigned long long)want);
		ck_assert_uint_eq(infos[i].index, i);
		fd = npu_raw_open(i);
		ck_assert_int_eq(npu_raw_alloc(fd, 4096, NPU_DMA_MEM_NORMAL_ONLY, &dev, NULL), 0);
		ck_assert_uint_ge(dev, infos[i].mem_base);
		ck_assert_uint_lt(dev, infos[i].mem_base + infos[i].mem_size);
		close(fd);
	}
}
END_TEST

static void assert_usage(int npu, const char *attr, const char *want)
{
	char got[256];

	ck_assert_int_eq(t_npu_attr(npu, attr, got, sizeof(got)), 0);
	ck_assert_msg(!strcmp(got, want), "npu%d %s: '%s', want '%s'", npu, attr,
		      got, want);
}

/* sysfs shows what is in use: memory, queues, the processes, the peers. */
START_TEST(test_sysfs_usage)
{
	int npu = nr_npus - 1, fd, fd2, i;
	struct npu_raw_queue q1, q2;
	char want[256] = "";
	uint64_t dev;

	for (i = 0; i < nr_npus; i++)
		if (infos[npu].peers & (1ULL << i))
			snprintf(want + strlen(want), sizeof(want) - strlen(want),
				 "%s%d", want[0] ? " " : "", i);
	assert_usage(npu, "peers", want);
	assert_usage(npu, "mem_used", "0");
	assert_usage(npu, "queues", "0");
	assert_usage(npu, "clients", "");

	fd = npu_raw_open(npu);
	fd2 = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_alloc(fd, 1 << 20, NPU_DMA_MEM_NORMAL_ONLY, &dev, NULL), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q1), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd2, 16, &q2), 0);
	assert_usage(npu, "mem_used", "1048576");
	assert_usage(npu, "queues", "2");
	snprintf(want, sizeof(want), "%d", (int)getpid());
	assert_usage(npu, "clients", want);

	npu_raw_queue_destroy(&q1);
	npu_raw_queue_destroy(&q2);
	close(fd);
	close(fd2);
	assert_usage(npu, "mem_used", "0");
	assert_usage(npu, "queues", "0");
	assert_usage(npu, "clients", "");
}
END_TEST

static Suite *xfer_suite(void)
{
	Suite *s = suite_create("t_xfer");
	TCase *tc = tcase_create("xfer");

	tcase_set_timeout(tc, 600);
	tcase_add_unchecked_fixture(tc, find_npus, NULL);
	tcase_add_loop_test(tc, test_roundtrip_registered_sizes, 0, MAX_NPUS);
	tcase_add_loop_test(tc, test_roundtrip_pageable, 0, MAX_NPUS);
	tcase_add_loop_test(tc, test_fill_and_2d_against_reference, 0, MAX_NPUS);
	tcase_add_test(tc, test_tall_2d_against_reference);
	tcase_add_test(tc, test_event_timestamps_monotonic);
	tcase_add_test(tc, test_mem_free_accounting);
	tcase_add_test(tc, test_info_base_and_peers);
	tcase_add_test(tc, test_sysfs_usage);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (!npu_raw_present())
		return T_EXIT_SKIP;
	return t_run_suite(xfer_suite());
}
