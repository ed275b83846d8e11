// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: what queues promise about order. Host barriers hold a queue
 * until released; WAIT holds one queue behind another (same NPU or
 * another); batch members all land before what follows the batch; the
 * ring wraps; the eventfd fires; destroying a queue drains it, and
 * returns while another thread keeps its queue busy, or when another
 * thread stops it; STOP holds a queue and ABORT drops its work,
 * published or taken, also while another thread rings.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_state.h"
#include "t_vm.h"

#define MAX_NPUS 8
#define BUF (256 * 1024)

static int nr_npus;
static int backend[MAX_NPUS];

static void find_npus(void)
{
	struct npu_dma_info info;
	int fd;

	for (nr_npus = 0; nr_npus < MAX_NPUS; nr_npus++) {
		fd = npu_raw_open(nr_npus);
		if (fd < 0)
			break;
		ck_assert_int_eq(npu_raw_info(fd, &info), 0);
		backend[nr_npus] = info.backend;
		close(fd);
	}
}

/* An NPU of the wanted backend, or -1. */
static int npu_of(int want, int skip)
{
	int i;

	for (i = 0; i < nr_npus; i++)
		if (backend[i] == want && skip-- == 0)
			return i;
	return -1;
}

/* One open NPU with a device buffer and a registered host buffer. */
struct side {
	int fd;
	uint64_t dev;
	uint8_t *host;
	struct npu_raw_queue q;
};

static void side_open(struct side *s, int npu)
{
	s->fd = npu_raw_open(npu);
	ck_assert_int_ge(s->fd, 0);
	ck_assert_int_eq(npu_raw_alloc(s->fd, BUF, NPU_DMA_MEM_NORMAL_ONLY, &s->dev, NULL), 0);
	s->host = mmap(NULL, BUF, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ck_assert_ptr_ne(s->host, MAP_FAILED);
	ck_assert_int_eq(npu_raw_register(s->fd, s->host, BUF, 0), 0);
	ck_assert_int_eq(npu_raw_queue_create(s->fd, 16, &s->q), 0);
}

static void side_close(struct side *s)
{
	npu_raw_queue_destroy(&s->q);
	close(s->fd);
	munmap(s->host, BUF);
}

static uint64_t completed(struct npu_raw_queue *q)
{
	return __atomic_load_n(&q->ctrl->completed_seq, __ATOMIC_ACQUIRE);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Wait until the queue is parked at a barrier; return its seq. */
static uint64_t wait_barrier(struct npu_raw_queue *q)
{
	uint64_t b = npu_raw_wait_barrier(q, 10000);

	ck_assert_msg(b, "queue %u never reached its barrier", q->id);
	return b;
}

static const struct npu_dma_desc barrier = { .opcode = NPU_DMA_OP_HOST_BARRIER };

START_TEST(test_host_barrier_holds_the_queue)
{
	int npu = _i < nr_npus ? _i : -1;
	struct npu_dma_desc d;
	struct side s;
	uint64_t b, last;

	T_SKIP_UNLESS(npu >= 0, "no NPU %d", _i);
	side_open(&s, npu);
	memset(s.host, 0x11, 4096);
	d = npu_raw_copy(s.dev, (uintptr_t)s.host, 4096, NPU_DMA_DESC_F_SRC_HOST);
	npu_raw_push(&s.q, &d);
	b = npu_raw_push(&s.q, &barrier);
	d = npu_raw_copy((uintptr_t)s.host + 4096, s.dev, 4096, NPU_DMA_DESC_F_DST_HOST);
	last = npu_raw_push(&s.q, &d);
	ck_assert_int_eq(npu_raw_submit(&s.q), 3);

	ck_assert_uint_eq(wait_barrier(&s.q), b);
	ck_assert_uint_eq(completed(&s.q), b - 1);
	sleep_ms(100);
	ck_assert_uint_eq(completed(&s.q), b - 1);
	ck_assert_uint_eq(s.host[4096], 0);
	ck_assert_int_eq(npu_raw_release(&s.q, b + 1), -EINVAL);

	ck_assert_int_eq(npu_raw_release(&s.q, b), 0);
	ck_assert_int_eq(npu_raw_wait(&s.q, last, 20000), 0);
	ck_assert_uint_eq(s.host[4096], 0x11);
	ck_assert_uint_eq(s.q.ctrl->barrier_seq, 0);
	ck_assert_uint_eq(s.q.ctrl->error_count, 0);
	/* Released once: a second release of the same barrier is refused. */
	ck_assert_int_eq(npu_raw_release(&s.q, b), -EINVAL);
	side_close(&s);
}
END_TEST

/*
 * Queue B (on NPU nb) waits for a copy on queue A (NPU na) that sits
 * behind a barrier; B's own copy reads what A's copy wrote, so B can
 * only get the right bytes if the wait held it.
 */
static void cross_queue_wait(int na, int nb)
{
	struct npu_dma_desc d, w = { .opcode = NPU_DMA_OP_WAIT };
	struct side a, b;
	uint64_t ba, copy_a, wseq, last_b;

	side_open(&a, na);
	side_open(&b, nb);
	t_pattern_fill(a.host, 8192, 7);
	memset(b.host, 0, 8192);

	/* A: barrier, then host -> A's device memory -> host (offset 8192). */
	ba = npu_raw_push(&a.q, &barrier);
	d = npu_raw_copy(a.dev, (uintptr_t)a.host, 8192, NPU_DMA_DESC_F_SRC_HOST);
	npu_raw_push(&a.q, &d);
	d = npu_raw_copy((uintptr_t)a.host + 8192, a.dev, 8192, NPU_DMA_DESC_F_DST_HOST);
	copy_a = npu_raw_push(&a.q, &d);
	/* B: wait for A's copy, then copy its result up to B's device and back. */
	w.wait_queue = a.q.id;
	w.value = copy_a;
	wseq = npu_raw_push(&b.q, &w);
	d = npu_raw_copy(b.dev, (uintptr_t)a.host + 8192, 8192,
			 NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE);
	npu_raw_push(&b.q, &d);
	d = npu_raw_copy((uintptr_t)b.host, b.dev, 8192, NPU_DMA_DESC_F_DST_HOST);
	last_b = npu_raw_push(&b.q, &d);

	ck_assert_int_eq(npu_raw_submit(&b.q), 3);
	ck_assert_int_eq(npu_raw_submit(&a.q), 3);
	ck_assert_uint_eq(wait_barrier(&a.q), ba);
	sleep_ms(100);
	ck_assert_uint_lt(completed(&b.q), wseq);
	ck_assert_int_eq(npu_raw_release(&a.q, ba), 0);
	ck_assert_int_eq(npu_raw_wait(&b.q, last_b, 60000), 0);
	ck_assert_uint_eq(b.q.ctrl->error_count, 0);
	ck_assert_uint_eq(completed(&a.q), copy_a);
	ck_assert_uint_eq(t_pattern_check(b.host, 8192, 7), 8192);
	side_close(&b);
	side_close(&a);
}

START_TEST(test_wait_same_npu)
{
	int n = npu_of(NPU_DMA_BACKEND_SIM, 0);

	cross_queue_wait(n < 0 ? 0 : n, n < 0 ? 0 : n);
}
END_TEST

START_TEST(test_wait_across_npus)
{
	int sim = npu_of(NPU_DMA_BACKEND_SIM, 0), edu = npu_of(NPU_DMA_BACKEND_EDU, 0);

	T_SKIP_UNLESS(nr_npus >= 2, "fewer than two NPUs");
	/* Across engines both ways when both exist, else two of a kind. */
	if (sim >= 0 && edu >= 0) {
		cross_queue_wait(sim, edu);
		cross_queue_wait(edu, sim);
	} else {
		cross_queue_wait(0, 1);
	}
}
END_TEST

/* A WAIT for a sequence that has already completed does not block. */
START_TEST(test_wait_for_the_past)
{
	struct npu_dma_desc nop = { .opcode = NPU_DMA_OP_NOP };
	struct npu_dma_desc w = { .opcode = NPU_DMA_OP_WAIT };
	struct side s;
	uint64_t seq;

	side_open(&s, nr_npus - 1);
	seq = npu_raw_push(&s.q, &nop);
	ck_assert_int_eq(npu_raw_submit(&s.q), 1);
	ck_assert_int_eq(npu_raw_wait(&s.q, seq, 20000), 0);
	w.wait_queue = s.q.id;
	w.value = seq;
	ck_assert_int_eq(npu_raw_run(&s.q, &w), 0);
	side_close(&s);
}
END_TEST

/* 64 members spread over the channels; what follows sees all of them. */
START_TEST(test_batch_then_ordered_copy)
{
	int npu = npu_of(NPU_DMA_BACKEND_SIM, 0);
	struct npu_dma_desc begin = { .opcode = NPU_DMA_OP_BATCH_BEGIN };
	struct npu_dma_desc end = { .opcode = NPU_DMA_OP_BATCH_END };
	struct npu_dma_desc d;
	struct npu_raw_queue q;
	uint64_t last;
	struct side s;
	int i;

	side_open(&s, npu < 0 ? nr_npus - 1 : npu);
	ck_assert_int_eq(npu_raw_queue_create(s.fd, 128, &q), 0);
	t_pattern_fill(s.host, 64 * 1024, 99);
	npu_raw_push(&q, &begin);
	for (i = 0; i < 64; i++) {
		if (i % 8 == 7) {
			d = (struct npu_dma_desc){
				.opcode = NPU_DMA_OP_FILL, .fill_size = 4,
				.dst = s.dev + i * 1024, .len = 1024,
				.value = 0xa1b2c3d4,
			};
		} else {
			d = npu_raw_copy(s.dev + i * 1024, (uintptr_t)s.host + i * 1024,
					 1024, NPU_DMA_DESC_F_SRC_HOST);
		}
		npu_raw_push(&q, &d);
	}
	npu_raw_push(&q, &end);
	d = npu_raw_copy((uintptr_t)s.host + 128 * 1024, s.dev, 64 * 1024,
			 NPU_DMA_DESC_F_DST_HOST);
	last = npu_raw_push(&q, &d);
	ck_assert_int_eq(npu_raw_submit(&q), 67);
	ck_assert_int_eq(npu_raw_wait(&q, last, 60000), 0);
	ck_assert_uint_eq(q.ctrl->error_count, 0);
	for (i = 0; i < 64; i++) {
		uint8_t *got = s.host + 128 * 1024 + i * 1024;

		if (i % 8 == 7) {
			ck_assert_uint_eq(((uint32_t *)got)[0], 0xa1b2c3d4);
			ck_assert_uint_eq(((uint32_t *)got)[255], 0xa1b2c3d4);
		} else {
			ck_assert_msg(!memcmp(got, s.host + i * 1024, 1024),
				      "batch member %d", i);
		}
	}
	npu_raw_queue_destroy(&q);
	side_close(&s);
}
END_TEST

/*
 * Members of one batch resolved in one pass: ranges shared by neighbours,
 * a pageable member and a second allocation in between, failures in the
 * middle. Each failure is reported at its own sequence number, the other
 * members all land.
 */
START_TEST(test_batch_member_errors)
{
	int npu = npu_of(NPU_DMA_BACKEND_SIM, 0);
	struct npu_dma_desc b[12], d;
	uint64_t dev2, seq0, last;
	struct side s;
	uint8_t *pg;
	int i;

	side_open(&s, npu < 0 ? nr_npus - 1 : npu);
	ck_assert_int_eq(npu_raw_alloc(s.fd, 64 * 1024, NPU_DMA_MEM_NORMAL_ONLY, &dev2, NULL), 0);
	pg = malloc(4096);
	ck_assert_ptr_nonnull(pg);
	memset(pg, 0x5c, 4096);
	t_pattern_fill(s.host, 16 * 1024, 7);
	memset(b, 0, sizeof(b));
	b[0].opcode = NPU_DMA_OP_BATCH_BEGIN;
	for (i = 1; i <= 3; i++)	/* #2 runs past the end of the allocation */
		b[i] = npu_raw_copy(i == 2 ? s.dev + BUF - 512 : s.dev + (i - 1) * 1024,
				    (uintptr_t)s.host + (i - 1) * 1024, 1024,
				    NPU_DMA_DESC_F_SRC_HOST);
	b[4] = npu_raw_copy(dev2, (uintptr_t)pg, 1024,
			    NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE);
	b[5] = npu_raw_copy(s.dev + 3072, (uintptr_t)s.host + 3072, 1024,
			    NPU_DMA_DESC_F_SRC_HOST);
	b[6].opcode = NPU_DMA_OP_EVENT_RECORD;	/* not a batch member */
	b[7] = npu_raw_copy(dev2 + 1024, (uintptr_t)s.host + 4096, 1024,
			    NPU_DMA_DESC_F_SRC_HOST);
	/* Runs past the end of the registration. */
	b[8] = npu_raw_copy(s.dev + 4096, (uintptr_t)s.host + BUF - 512, 1024,
			    NPU_DMA_DESC_F_SRC_HOST);
	b[9] = (struct npu_dma_desc){
		.opcode = NPU_DMA_OP_FILL, .fill_size = 1, .dst = dev2 + 2048,
		.len = 1024, .value = 0x3e,
	};
	b[10].opcode = NPU_DMA_OP_NOP;
	b[11].opcode = NPU_DMA_OP_BATCH_END;
	last = npu_raw_push_n(&s.q, b, 12);
	seq0 = last - 11;
	ck_assert_int_eq(npu_raw_submit(&s.q), 12);
	ck_assert_int_eq(npu_raw_wait(&s.q, last, 60000), 0);
	d = npu_raw_copy((uintptr_t)s.host + 128 * 1024, s.dev, 4096,
			 NPU_DMA_DESC_F_DST_HOST);
	ck_assert_int_eq(npu_raw_run(&s.q, &d), 0);
	d = npu_raw_copy((uintptr_t)s.host + 160 * 1024, dev2, 3072,
			 NPU_DMA_DESC_F_DST_HOST);
	ck_assert_int_eq(npu_raw_run(&s.q, &d), 0);

	ck_assert_uint_eq(s.q.ctrl->error_seq, seq0 + 2);
	ck_assert_int_eq(s.q.ctrl->error, -EFAULT);
	ck_assert_uint_eq(s.q.ctrl->last_error_seq, seq0 + 8);
	ck_assert_int_eq(s.q.ctrl->last_error, -EFAULT);
	ck_assert_uint_eq(s.q.ctrl->error_count, 3);
	ck_assert(!memcmp(s.host + 128 * 1024, s.host, 1024));
	ck_assert(!memcmp(s.host + 128 * 1024 + 2048, s.host + 2048, 2048));
	ck_assert(!memcmp(s.host + 160 * 1024, pg, 1024));
	ck_assert(!memcmp(s.host + 160 * 1024 + 1024, s.host + 4096, 1024));
	ck_assert_uint_eq(t_bytes_check(s.host + 160 * 1024 + 2048, 1024, 0x3e), 1024);
	free(pg);
	side_close(&s);
}
END_TEST

/*
 * Small copies at the head of a queue run together (one channel, shared
 * engine calls, one retirement): a chain of copies, each reading what
 * the one before wrote, lands whole; a copy that failed validation, a
 * long copy and a pageable one in between break the runs, and the
 * failure is reported at its own sequence number.
 */
START_TEST(test_plain_copies_in_order)
{
	int npu = npu_of(NPU_DMA_BACKEND_SIM, 0);
	struct npu_dma_desc d[24];
	struct npu_raw_queue q;
	uint64_t bad, last;
	struct side s;
	uint8_t *pg;
	int i, n = 0;

	side_open(&s, npu < 0 ? nr_npus - 1 : npu);
	ck_assert_int_eq(npu_raw_queue_create(s.fd, 64, &q), 0);
	pg = malloc(1024);
	ck_assert_ptr_nonnull(pg);
	memset(pg, 0x6d, 1024);
	t_pattern_fill(s.host, 192 * 1024, 41);
	d[n++] = npu_raw_copy(s.dev, (uintptr_t)s.host, 4096,
			      NPU_DMA_DESC_F_SRC_HOST);
	for (i = 0; i < 18; i++) {
		if (i == 4)	/* runs past the end of the allocation */
			d[n++] = npu_raw_copy(s.dev + 200 * 1024,
					      s.dev + BUF - 512, 1024, 0);
		if (i == 9)
			d[n++] = npu_raw_copy(s.dev + 96 * 1024,
					      (uintptr_t)s.host + 64 * 1024,
					      128 * 1024, NPU_DMA_DESC_F_SRC_HOST);
		if (i == 13)
			d[n++] = npu_raw_copy(s.dev + 240 * 1024, (uintptr_t)pg,
					      1024, NPU_DMA_DESC_F_SRC_HOST |
					      NPU_DMA_DESC_F_SRC_PAGEABLE);
		d[n++] = npu_raw_copy(s.dev + (i + 1) * 4096, s.dev + i * 4096,
				      4096, 0);
	}
	d[n++] = npu_raw_copy((uintptr_t)s.host + 200 * 1024, s.dev + 18 * 4096,
			      4096, NPU_DMA_DESC_F_DST_HOST);
	last = npu_raw_push_n(&q, d, n);
	bad = last - (n - 1) + 5;
	ck_assert_int_eq(npu_raw_submit(&q), n);
	ck_assert_int_eq(npu_raw_wait(&q, last, 60000), 0);
	ck_assert_uint_eq(completed(&q), last);
	ck_assert_uint_eq(q.ctrl->error_count, 1);
	ck_assert_uint_eq(q.ctrl->error_seq, bad);
	ck_assert_int_eq(q.ctrl->error, -EFAULT);
	ck_assert_msg(!memcmp(s.host + 200 * 1024, s.host, 4096),
		      "the chain of copies lost its order");
	d[0] = npu_raw_copy((uintptr_t)s.host + 208 * 1024, s.dev + 96 * 1024,
			    4096, NPU_DMA_DESC_F_DST_HOST);
	ck_assert_int_eq(npu_raw_run(&q, &d[0]), 0);
	ck_assert(!memcmp(s.host + 208 * 1024, s.host + 64 * 1024, 4096));
	d[0] = npu_raw_copy((uintptr_t)s.host + 216 * 1024, s.dev + 240 * 1024,
			    1024, NPU_DMA_DESC_F_DST_HOST);
	ck_assert_int_eq(npu_raw_run(&q, &d[0]), 0);
	ck_assert(!memcmp(s.host + 216 * 1024, pg, 1024));
	free(pg);
	npu_raw_queue_destroy(&q);
	side_close(&s);
}
END_TEST

/* Closing the file while a batch runs cancels what has not started. */
START_TEST(test_batch_closed_midway)
{
	int npu = npu_of(NPU_DMA_BACKEND_SIM, 0);
	struct npu_dma_desc b[62] = { { .opcode = NPU_DMA_OP_BATCH_BEGIN } };
	struct npu_raw_queue q;
	struct side s;
	int i;

	side_open(&s, npu < 0 ? nr_npus - 1 : npu);
	ck_assert_int_eq(npu_raw_queue_create(s.fd, 64, &q), 0);
	for (i = 1; i <= 60; i++)
		b[i] = npu_raw_copy(s.dev, (uintptr_t)s.host, BUF,
				    NPU_DMA_DESC_F_SRC_HOST);
	b[61].opcode = NPU_DMA_OP_BATCH_END;
	npu_raw_push_n(&q, b, 62);
	ck_assert_int_eq(npu_raw_submit(&q), 62);
	close(s.fd);	/* the queue's mappings stay until unmapped */
	npu_raw_queue_destroy(&q);
	npu_raw_queue_destroy(&s.q);
	munmap(s.host, BUF);
}
END_TEST

/*
 * The same with a thousand 4 KiB copies, which runners claim many at a
 * time and move with shared engine calls: each member still ends once,
 * copied or -ECANCELED, and the batch completes.
 */
START_TEST(test_small_members_closed_midway)
{
	int npu = npu_of(NPU_DMA_BACKEND_SIM, 0), i, n = 1000;
	struct npu_raw_queue q;
	struct npu_dma_desc *b;
	uint64_t last;
	struct side s;

	/* A thousand copies: edu's 100 ms each are too slow. */
	T_SKIP_UNLESS(npu >= 0, "no sim NPU");
	side_open(&s, npu);
	ck_assert_int_eq(npu_raw_queue_create(s.fd, 1024, &q), 0);
	b = calloc(n + 2, sizeof(*b));
	ck_assert_ptr_nonnull(b);
	b[0].opcode = NPU_DMA_OP_BATCH_BEGIN;
	for (i = 1; i <= n; i++)
		b[i] = npu_raw_copy(s.dev + i % 64 * 4096,
				    (uintptr_t)s.host + i % 64 * 4096, 4096,
				    NPU_DMA_DESC_F_SRC_HOST);
	b[n + 1].opcode = NPU_DMA_OP_BATCH_END;
	last = npu_raw_push_n(&q, b, n + 2);
	ck_assert_int_eq(npu_raw_submit(&q), n + 2);
	close(s.fd);
	ck_assert_int_eq(npu_raw_wait(&q, last, 60000), 0);
	ck_assert_uint_eq(q.ctrl->completed_seq, last);
	ck_assert_uint_le(q.ctrl->error_count, n);
	if (q.ctrl->error_count) {
		ck_assert_int_eq(q.ctrl->error, -ECANCELED);
		ck_assert_int_eq(q.ctrl->last_error, -ECANCELED);
	}
	free(b);
	npu_raw_queue_destroy(&q);
	npu_raw_queue_destroy(&s.q);
	munmap(s.host, BUF);
}
END_TEST

/*
 * Batches rung in back to back while the worker is still busy with the
 * previous ones: a doorbell's BATCH_BEGIN must never reach the worker
 * before its BATCH_END (it once did, and the worker walked off the list).
 */
START_TEST(test_batches_back_to_back)
{
	int npu = npu_of(NPU_DMA_BACKEND_SIM, 0);
	struct npu_dma_desc b[5] = { { .opcode = NPU_DMA_OP_BATCH_BEGIN } };
	struct npu_raw_queue q;
	uint64_t last = 0;
	struct side s;
	int i, j;

	side_open(&s, npu < 0 ? nr_npus - 1 : npu);
	ck_assert_int_eq(npu_raw_queue_create(s.fd, 64, &q), 0);
	b[4].opcode = NPU_DMA_OP_BATCH_END;
	for (i = 0; i < 400; i++) {
		for (j = 1; j <= 3; j++)
			b[j] = (struct npu_dma_desc){
				.opcode = NPU_DMA_OP_FILL, .fill_size = 4,
				.dst = s.dev + j * 256, .len = 256, .value = i,
			};
		/* Published whole: the busy worker may pull it before the doorbell. */
		last = npu_raw_push_n(&q, b, 5);
		ck_assert_int_eq(npu_raw_submit(&q), 5);
		/* Twelve batches fill 60 of the 64 slots. */
		if (i % 12 == 11)
			ck_assert_int_eq(npu_raw_wait(&q, last, 60000), 0);
	}
	ck_assert_int_eq(npu_raw_wait(&q, last, 60000), 0);
	ck_assert_uint_eq(q.ctrl->error_count, 0);
	ck_assert_uint_eq(q.ctrl->completed_seq, 2000);
	npu_raw_queue_destroy(&q);
	side_close(&s);
}
END_TEST

/* A ring of 4 carries 1000 descriptors: head and tail wrap. */
START_TEST(test_ring_wraps)
{
	struct npu_dma_desc nop = { .opcode = NPU_DMA_OP_NOP };
	struct npu_raw_queue q;
	uint64_t seq = 0;
	int fd = npu_raw_open(nr_npus - 1), i, j;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 4, &q), 0);
	for (i = 0; i < 250; i++) {
		for (j = 0; j < 4; j++)
			seq = npu_raw_push(&q, &nop);
		ck_assert_int_eq(npu_raw_submit(&q), 4);
		ck_assert_int_eq(npu_raw_wait(&q, seq, 20000), 0);
	}
	ck_assert_uint_eq(q.ctrl->completed_seq, 1000);
	ck_assert_uint_eq(q.ctrl->submitted_seq, 1000);
	ck_assert_uint_eq(q.ctrl->sq_head, 1000);
	npu_raw_queue_destroy(&q);
	close(fd);
}
END_TEST

/*
 * The eventfd fires when a queue parks at a barrier (so a library thread
 * can run the host's part) and when work completes; not otherwise.
 */
START_TEST(test_eventfd_signalled)
{
	struct side s;
	struct pollfd p;
	uint64_t b, v;

	side_open(&s, nr_npus - 1);
	p = (struct pollfd){ .fd = s.q.efd, .events = POLLIN };
	ck_assert_int_eq(poll(&p, 1, 0), 0);
	b = npu_raw_push(&s.q, &barrier);
	ck_assert_int_eq(npu_raw_submit(&s.q), 1);
	ck_assert_int_eq(poll(&p, 1, 20000), 1);
	ck_assert_uint_eq(wait_barrier(&s.q), b);
	ck_assert_int_eq(read(s.q.efd, &v, sizeof(v)), sizeof(v));
	ck_assert_int_eq(poll(&p, 1, 50), 0);
	ck_assert_uint_eq(completed(&s.q), b - 1);
	ck_assert_int_eq(npu_raw_release(&s.q, b), 0);
	ck_assert_int_eq(poll(&p, 1, 20000), 1);
	ck_assert_int_eq(read(s.q.efd, &v, sizeof(v)), sizeof(v));
	ck_assert_uint_ge(v, 1);
	ck_assert_uint_eq(completed(&s.q), b);
	side_close(&s);
}
END_TEST

/* QUEUE_DESTROY returns only after the queue's work has run. */
START_TEST(test_destroy_drains)
{
	struct npu_dma_queue_destroy qd;
	struct npu_dma_desc d;
	struct side s;
	int i;

	side_open(&s, nr_npus - 1);
	t_pattern_fill(s.host, BUF / 2, 3);
	for (i = 0; i < 8; i++) {
		d = npu_raw_copy(s.dev, (uintptr_t)s.host, BUF / 2, NPU_DMA_DESC_F_SRC_HOST);
		npu_raw_push(&s.q, &d);
	}
	d = npu_raw_copy((uintptr_t)s.host + BUF / 2, s.dev, BUF / 2, NPU_DMA_DESC_F_DST_HOST);
	npu_raw_push(&s.q, &d);
	ck_assert_int_eq(npu_raw_submit(&s.q), 9);
	qd = (struct npu_dma_queue_destroy){ .queue_id = s.q.id };
	ck_assert_int_eq(npu_raw_ioctl(s.fd, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &qd), 0);
	/* The mapping outlives the queue and shows the final state. */
	ck_assert_uint_eq(s.q.ctrl->completed_seq, 9);
	ck_assert_uint_eq(t_pattern_check(s.host + BUF / 2, BUF / 2, 3), BUF / 2);
	munmap(s.q.map, s.q.map_size);
	close(s.q.efd);
	close(s.fd);
}
END_TEST

/*
 * Copies the busy thread keeps queued: one more than the scheduler runs
 * together (NPU_SCHED_RUN), so one is always left when a run retires.
 */
#define BUSY_JOBS 17

struct busy {
	struct side *s;
	int doorbells;		/* rung before the queue was gone */
	int last;		/* the doorbell's answer that ended the loop */
	int stop;		/* set by the test: stop ringing */
};

/* Keeps the queue from ever being idle, until it is gone. */
static void *keep_busy(void *arg)
{
	struct busy *b = arg;
	struct npu_raw_queue *q = &b->s->q;
	struct npu_dma_desc d = npu_raw_copy(b->s->dev, (uintptr_t)b->s->host,
					     4096, NPU_DMA_DESC_F_SRC_HOST);
	uint64_t pushed = 0;

	while (!__atomic_load_n(&b->stop, __ATOMIC_ACQUIRE)) {
		if (pushed - completed(q) < BUSY_JOBS) {
			npu_raw_push(q, &d);
			pushed++;
		} else {
			sleep_ms(1);
		}
		b->last = npu_raw_submit(q);
		if (b->last < 0)
			return NULL;
		b->doorbells++;
	}
	return NULL;
}

/*
 * Destroying waits for the work submitted before it, not for an idle
 * queue, which another thread may never leave it: here a copy is always
 * queued behind the ones running (100 ms each on edu), and destroy
 * waited for ever.
 */
START_TEST(test_destroy_while_busy)
{
	int n = npu_of(NPU_DMA_BACKEND_EDU, 0);
	struct npu_dma_queue_destroy qd;
	struct busy b = { 0 };
	long pins = t_pins_held();
	struct side s;
	pthread_t th;

	T_SKIP_UNLESS(n >= 0, "no edu NPU");
	side_open(&s, n);
	b.s = &s;
	ck_assert_int_eq(pthread_create(&th, NULL, keep_busy, &b), 0);
	while (completed(&s.q) == 0)
		sleep_ms(10);
	qd = (struct npu_dma_queue_destroy){ .queue_id = s.q.id };
	ck_assert_int_eq(npu_raw_ioctl(s.fd, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &qd), 0);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	ck_assert_int_eq(b.last, -ENOENT);
	ck_assert_int_gt(b.doorbells, BUSY_JOBS);
	/* Done or cancelled, all of it, with the queue. */
	ck_assert_uint_eq(s.q.ctrl->completed_seq, s.q.ctrl->submitted_seq);
	munmap(s.q.map, s.q.map_size);
	close(s.q.efd);
	close(s.fd);
	munmap(s.host, BUF);
	ck_assert_int_eq(t_pins_held(), pins);
}
END_TEST

/* A queue with a long backlog does not hold up a copy on another queue. */
START_TEST(test_queues_share_the_engine)
{
	struct npu_dma_desc d;
	struct npu_raw_queue q2;
	uint64_t last_a, seq_b;
	struct side s;
	int i;

	/* The last NPU, a sim one: edu would take minutes for the backlog. */
	T_SKIP_UNLESS(nr_npus && backend[nr_npus - 1] == NPU_DMA_BACKEND_SIM,
		      "no sim NPU last");
	side_open(&s, nr_npus - 1);
	ck_assert_int_eq(npu_raw_queue_create(s.fd, 256, &q2), 0);
	for (i = 0; i < 256; i++) {
		d = npu_raw_copy(s.dev, (uintptr_t)s.host, BUF, NPU_DMA_DESC_F_SRC_HOST);
		last_a = npu_raw_push(&q2, &d);
	}
	ck_assert_int_eq(npu_raw_submit(&q2), 256);
	d = npu_raw_copy((uintptr_t)s.host, s.dev, 4096, NPU_DMA_DESC_F_DST_HOST);
	seq_b = npu_raw_push(&s.q, &d);
	ck_assert_int_eq(npu_raw_submit(&s.q), 1);
	ck_assert_int_eq(npu_raw_wait(&s.q, seq_b, 60000), 0);
	ck_assert_uint_lt(completed(&q2), last_a);
	ck_assert_int_eq(npu_raw_wait(&q2, last_a, 120000), 0);
	npu_raw_queue_destroy(&q2);
	side_close(&s);
}
END_TEST

static uint32_t qflags(struct npu_raw_queue *q)
{
	return __atomic_load_n(&q->ctrl->flags, __ATOMIC_ACQUIRE);
}

/*
 * NEED_WAKEUP: set on an idle queue; clear while the queue works, and
 * then descriptors published without a doorbell still run; set again
 * once it is idle. DEAD once destroyed.
 */
START_TEST(test_need_wakeup_protocol)
{
	struct npu_dma_desc nop = { .opcode = NPU_DMA_OP_NOP };
	struct npu_dma_queue_destroy qd;
	struct side s;
	uint64_t b, last = 0;
	int i;

	side_open(&s, nr_npus - 1);
	ck_assert_uint_eq(qflags(&s.q), NPU_DMA_QUEUE_S_NEED_WAKEUP);
	b = npu_raw_push(&s.q, &barrier);
	ck_assert_int_eq(npu_raw_submit(&s.q), 1);
	ck_assert_uint_eq(wait_barrier(&s.q), b);
	/* Parked with work pending: the kernel will look at the ring again. */
	ck_assert_uint_eq(qflags(&s.q) & NPU_DMA_QUEUE_S_NEED_WAKEUP, 0);
	for (i = 0; i < 10; i++)
		last = npu_raw_push(&s.q, &nop);
	sleep_ms(50);
	ck_assert_uint_eq(s.q.ctrl->sq_head, 1);	/* not before the barrier */
	ck_assert_int_eq(npu_raw_release(&s.q, b), 0);
	/* No doorbell for the ten: the worker pulls them itself. */
	ck_assert_int_eq(npu_raw_wait(&s.q, last, 20000), 0);
	ck_assert_uint_eq(s.q.ctrl->sq_head, 11);
	ck_assert_uint_eq(s.q.ctrl->submitted_seq, 11);
	ck_assert_uint_eq(s.q.ctrl->error_count, 0);
	for (i = 0; i < 200 && !(qflags(&s.q) & NPU_DMA_QUEUE_S_NEED_WAKEUP); i++)
		sleep_ms(5);
	ck_assert_uint_eq(qflags(&s.q), NPU_DMA_QUEUE_S_NEED_WAKEUP);

	qd = (struct npu_dma_queue_destroy){ .queue_id = s.q.id };
	ck_assert_int_eq(npu_raw_ioctl(s.fd, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &qd), 0);
	ck_assert_uint_ne(qflags(&s.q) & NPU_DMA_QUEUE_S_DEAD, 0);
	munmap(s.q.map, s.q.map_size);
	close(s.q.efd);
	close(s.fd);
}
END_TEST

/* A child must never inherit the ring, whatever the parent asks. */
START_TEST(test_ring_not_inheritable)
{
	struct npu_dma_event_slot *ev;
	struct side s;
	size_t ev_size;

	side_open(&s, nr_npus - 1);
	ck_assert_int_eq(madvise(s.q.map, s.q.map_size, MADV_DOFORK), -1);
	ck_assert_int_eq(errno, EINVAL);
	ev = npu_raw_map_events(s.fd, &ev_size);
	ck_assert_ptr_ne(ev, MAP_FAILED);
	ck_assert_int_eq(madvise(ev, ev_size, MADV_DOFORK), -1);
	ck_assert_int_eq(errno, EINVAL);
	munmap(ev, ev_size);
	side_close(&s);
}
END_TEST

/*
 * A QUEUE_CREATE whose answer cannot be written back (its argument in a
 * read-only page) fails with -EFAULT, as the DRM core reports a failed
 * copy-out; the queue it made belongs to the file (upstream DRM
 * semantics: no undo in the handler) and is counted until the file
 * closes. Then everything is back and the NPU's next queue works.
 */
START_TEST(test_create_unanswered)
{
	struct npu_dma_desc nop = { .opcode = NPU_DMA_OP_NOP };
	struct npu_dma_queue_create *c;
	struct t_state before;
	struct npu_raw_queue q;
	char queues[32];
	int fd, i;

	c = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(c, MAP_FAILED);
	*c = (struct npu_dma_queue_create){ .entries = 64, .eventfd = -1 };
	ck_assert_int_eq(mprotect(c, 4096, PROT_READ), 0);
	t_state_get(&before, nr_npus);
	ck_assert_str_eq(before.queues[0], "0");
	fd = npu_raw_open(0);
	ck_assert_int_ge(fd, 0);
	for (i = 0; i < 10; i++)
		ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, c),
				 -EFAULT);
	ck_assert_int_eq(t_npu_attr(0, "queues", queues, sizeof(queues)), 0);
	ck_assert_str_eq(queues, "10");
	close(fd);
	ck_assert_msg(t_state_back(&before), "queues of a failed QUEUE_CREATE outlived close");
	fd = npu_raw_open(0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 64, &q), 0);
	ck_assert_int_eq(npu_raw_run(&q, &nop), 0);
	npu_raw_queue_destroy(&q);
	munmap(c, 4096);
	close(fd);
}
END_TEST

static int queue_ctl(struct npu_raw_queue *q, uint32_t op, uint64_t *seq)
{
	struct npu_dma_queue_ctl c = { .queue_id = q->id, .op = op };
	int ret = npu_raw_ioctl(q->fd, DRM_IOCTL_NPU_DMA_QUEUE_CTL, &c);

	if (seq)
		*seq = c.seq;
	return ret;
}

static uint32_t queue_flags(struct npu_raw_queue *q)
{
	return __atomic_load_n(&q->ctrl->flags, __ATOMIC_ACQUIRE);
}

/*
 * STOP holds what is queued, even past a released barrier, and says so
 * in the control area; ABORT drops it (each completes with -ECANCELED)
 * and the queue runs new work again.
 */
START_TEST(test_stop_then_abort)
{
	int npu = _i < nr_npus ? _i : -1;
	struct npu_dma_desc d;
	uint64_t b, last, seq;
	struct side s;

	T_SKIP_UNLESS(npu >= 0, "no NPU %d", _i);
	side_open(&s, npu);
	memset(s.host, 0x11, 4096);
	b = npu_raw_push(&s.q, &barrier);
	d = npu_raw_copy(s.dev, (uintptr_t)s.host, 4096, NPU_DMA_DESC_F_SRC_HOST);
	npu_raw_push(&s.q, &d);
	d = npu_raw_copy((uintptr_t)s.host + 4096, s.dev, 4096, NPU_DMA_DESC_F_DST_HOST);
	last = npu_raw_push(&s.q, &d);
	ck_assert_int_eq(npu_raw_submit(&s.q), 3);
	ck_assert_uint_eq(wait_barrier(&s.q), b);

	ck_assert_int_eq(queue_ctl(&s.q, NPU_DMA_QUEUE_CTL_STOP, &seq), 0);
	ck_assert_uint_eq(seq, last);
	ck_assert(queue_flags(&s.q) & NPU_DMA_QUEUE_S_STOPPED);
	ck_assert_int_eq(npu_raw_release(&s.q, b), 0);
	sleep_ms(200);
	ck_assert_uint_eq(completed(&s.q), b - 1);
	ck_assert_uint_eq(s.host[4096], 0);

	ck_assert_int_eq(queue_ctl(&s.q, NPU_DMA_QUEUE_CTL_ABORT, &seq), 0);
	ck_assert_uint_eq(seq, last);
	ck_assert_uint_eq(completed(&s.q), last);
	ck_assert(!(queue_flags(&s.q) & NPU_DMA_QUEUE_S_STOPPED));
	ck_assert_uint_eq(s.q.ctrl->error_count, 3);
	ck_assert_int_eq(s.q.ctrl->error, -ECANCELED);
	ck_assert_uint_eq(s.q.ctrl->error_seq, b);
	ck_assert_uint_eq(s.host[4096], 0);

	/* Runs again. */
	d = npu_raw_copy(s.dev, (uintptr_t)s.host, 4096, NPU_DMA_DESC_F_SRC_HOST);
	npu_raw_push(&s.q, &d);
	d = npu_raw_copy((uintptr_t)s.host + 4096, s.dev, 4096, NPU_DMA_DESC_F_DST_HOST);
	last = npu_raw_push(&s.q, &d);
	ck_assert_int_eq(npu_raw_submit(&s.q), 2);
	ck_assert_int_eq(npu_raw_wait(&s.q, last, 20000), 0);
	ck_assert_uint_eq(s.q.ctrl->error_count, 3);
	ck_assert_uint_eq(s.host[4096], 0x11);
	side_close(&s);
}
END_TEST

/*
 * ABORT also drops what was published in the ring and never submitted
 * (an idle queue does not look at its ring on its own): the kernel's
 * head moves past it and each completes with -ECANCELED, untouched.
 */
START_TEST(test_abort_drops_unsubmitted)
{
	int n = npu_of(NPU_DMA_BACKEND_SIM, 0);
	struct npu_dma_desc d;
	uint64_t last, seq;
	struct side s;
	int i;

	T_SKIP_UNLESS(n >= 0, "no sim NPU");
	side_open(&s, n);
	memset(s.host, 0x22, 4096);
	d = npu_raw_copy(s.dev, (uintptr_t)s.host, 4096, NPU_DMA_DESC_F_SRC_HOST);
	ck_assert_int_eq(npu_raw_run(&s.q, &d), 0);
	/* The worker asks for a doorbell once idle, just after completing. */
	for (i = 0; i < 200 && !(queue_flags(&s.q) & NPU_DMA_QUEUE_S_NEED_WAKEUP); i++)
		sleep_ms(5);
	ck_assert(queue_flags(&s.q) & NPU_DMA_QUEUE_S_NEED_WAKEUP);
	d = npu_raw_copy((uintptr_t)s.host + 4096, s.dev, 4096,
			 NPU_DMA_DESC_F_DST_HOST);
	npu_raw_push(&s.q, &d);
	last = npu_raw_push(&s.q, &d);
	ck_assert_int_eq(queue_ctl(&s.q, NPU_DMA_QUEUE_CTL_ABORT, &seq), 0);
	ck_assert_uint_eq(seq, last);
	ck_assert_uint_eq(completed(&s.q), last);
	ck_assert_uint_eq(s.q.ctrl->sq_head, s.q.ctrl->sq_tail);
	ck_assert_uint_eq(s.q.ctrl->error_count, 2);
	ck_assert_int_eq(s.q.ctrl->last_error, -ECANCELED);
	ck_assert_uint_eq(s.host[4096], 0);
	/* The doorbell user space then rings finds nothing more. */
	ck_assert_int_eq(npu_raw_submit(&s.q), 2);
	side_close(&s);
}
END_TEST

/*
 * ABORTs while another thread rings copies all return (the worker takes
 * submit_lock to go idle, and an abort that held it while it waited for
 * the worker waited for ever), and the queue then runs a copy.
 */
START_TEST(test_abort_while_rung)
{
	int n = npu_of(NPU_DMA_BACKEND_SIM, 0);
	struct busy b = { 0 };
	struct npu_dma_desc d;
	struct side s;
	pthread_t th;
	int i;

	T_SKIP_UNLESS(n >= 0, "no sim NPU");
	side_open(&s, n);
	b.s = &s;
	ck_assert_int_eq(pthread_create(&th, NULL, keep_busy, &b), 0);
	for (i = 0; i < 2000; i++)
		ck_assert_int_eq(queue_ctl(&s.q, NPU_DMA_QUEUE_CTL_ABORT, NULL), 0);
	__atomic_store_n(&b.stop, 1, __ATOMIC_RELEASE);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	ck_assert_int_gt(b.doorbells, 0);
	ck_assert_uint_eq(queue_flags(&s.q) & NPU_DMA_QUEUE_S_STOPPED, 0);
	t_pattern_fill(s.host + 8192, 4096, 9);
	d = npu_raw_copy(s.dev + 8192, (uintptr_t)s.host + 8192, 4096,
			 NPU_DMA_DESC_F_SRC_HOST);
	ck_assert_int_eq(npu_raw_run(&s.q, &d), 0);
	memset(s.host + 8192, 0, 4096);
	d = npu_raw_copy((uintptr_t)s.host + 8192, s.dev + 8192, 4096,
			 NPU_DMA_DESC_F_DST_HOST);
	ck_assert_int_eq(npu_raw_run(&s.q, &d), 0);
	ck_assert_uint_eq(t_pattern_check(s.host + 8192, 4096, 9), 4096);
	side_close(&s);
}
END_TEST

struct controller {
	struct npu_raw_queue *q;
	int calls;
	int bad;		/* an answer other than 0 or -ENOENT */
};

/* STOP and ABORT in turn until the queue is gone. */
static void *control_until_gone(void *arg)
{
	struct controller *c = arg;
	int ret;

	for (;;) {
		ret = queue_ctl(c->q, c->calls++ % 2 ? NPU_DMA_QUEUE_CTL_ABORT :
					NPU_DMA_QUEUE_CTL_STOP, NULL);
		if (ret == -ENOENT)
			return NULL;
		if (ret)
			c->bad = ret;
	}
}

/*
 * STOP and ABORT racing a destroy from another thread, the queue's
 * mapping and eventfd already closed: each says 0 or -ENOENT. A ctl
 * that went on once the destroy had freed the area and the eventfd
 * wrote to them (KASAN in make check-debug).
 */
START_TEST(test_ctl_races_destroy)
{
	int n = npu_of(NPU_DMA_BACKEND_SIM, 0), fd, round;
	struct npu_dma_queue_destroy qd;
	struct controller c;
	struct npu_raw_queue q;
	pthread_t th;

	T_SKIP_UNLESS(n >= 0, "no sim NPU");
	fd = npu_raw_open(n);
	ck_assert_int_ge(fd, 0);
	for (round = 0; round < 100; round++) {
		ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
		munmap(q.map, q.map_size);
		close(q.efd);
		c = (struct controller){ .q = &q };
		ck_assert_int_eq(pthread_create(&th, NULL, control_until_gone, &c), 0);
		usleep(round * 20);
		qd = (struct npu_dma_queue_destroy){ .queue_id = q.id };
		ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &qd), 0);
		ck_assert_int_eq(pthread_join(th, NULL), 0);
		ck_assert_int_eq(c.bad, 0);
		ck_assert_int_gt(c.calls, 0);
	}
	close(fd);
}
END_TEST

/*
 * A queue of @s on the first sim NPU parked at a barrier, with a copy of
 * 4 KiB of @byte behind it. Return: the barrier's seq.
 */
static uint64_t park_a_copy(struct side *s, int byte)
{
	int n = npu_of(NPU_DMA_BACKEND_SIM, 0);
	struct npu_dma_desc d;
	uint64_t b;

	side_open(s, n);
	memset(s->host, byte, 4096);
	b = npu_raw_push(&s->q, &barrier);
	d = npu_raw_copy(s->dev, (uintptr_t)s->host, 4096, NPU_DMA_DESC_F_SRC_HOST);
	npu_raw_push(&s->q, &d);
	ck_assert_int_eq(npu_raw_submit(&s->q), 2);
	ck_assert_uint_eq(wait_barrier(&s->q), b);
	return b;
}

/* Its queue destroyed, the copy park_a_copy() queued never ran. */
static void parked_copy_never_ran(struct side *s, int byte)
{
	struct npu_dma_desc d;

	ck_assert_int_eq(npu_raw_queue_create(s->fd, 16, &s->q), 0);
	memset(s->host + 4096, 0, 4096);
	d = npu_raw_copy((uintptr_t)s->host + 4096, s->dev, 4096,
			 NPU_DMA_DESC_F_DST_HOST);
	ck_assert_int_eq(npu_raw_run(&s->q, &d), 0);
	ck_assert_uint_ne(s->host[4096], byte);
	side_close(s);
}

/* A stopped queue is destroyed at once, its queued work dropped. */
START_TEST(test_destroy_stopped)
{
	struct side s;
	uint64_t b;

	T_SKIP_UNLESS(npu_of(NPU_DMA_BACKEND_SIM, 0) >= 0, "no sim NPU");
	b = park_a_copy(&s, 0x33);
	ck_assert_int_eq(queue_ctl(&s.q, NPU_DMA_QUEUE_CTL_STOP, NULL), 0);
	ck_assert_int_eq(npu_raw_release(&s.q, b), 0);
	/* Would wait for ever if the queue's work had to finish first. */
	npu_raw_queue_destroy(&s.q);
	parked_copy_never_ran(&s, 0x33);
}
END_TEST

struct destroyer {
	struct side *s;
	int ret;
};

static void *destroy_queue(void *arg)
{
	struct destroyer *t = arg;
	struct npu_dma_queue_destroy qd = { .queue_id = t->s->q.id };

	__atomic_store_n(&t->ret, npu_raw_ioctl(t->s->fd,
						DRM_IOCTL_NPU_DMA_QUEUE_DESTROY,
						&qd), __ATOMIC_RELEASE);
	return NULL;
}

/*
 * A destroy waiting for a queue parked at a barrier no one releases
 * returns when another thread stops the queue (it slept on until then).
 */
START_TEST(test_stop_ends_a_destroy)
{
	struct destroyer t = { .ret = 1 };
	struct side s;
	pthread_t th;

	T_SKIP_UNLESS(npu_of(NPU_DMA_BACKEND_SIM, 0) >= 0, "no sim NPU");
	park_a_copy(&s, 0x44);
	t.s = &s;
	ck_assert_int_eq(pthread_create(&th, NULL, destroy_queue, &t), 0);
	sleep_ms(100);
	/* Still waiting for the barrier. */
	ck_assert_int_eq(__atomic_load_n(&t.ret, __ATOMIC_ACQUIRE), 1);
	ck_assert_int_eq(queue_ctl(&s.q, NPU_DMA_QUEUE_CTL_STOP, NULL), 0);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	ck_assert_int_eq(t.ret, 0);
	munmap(s.q.map, s.q.map_size);
	close(s.q.efd);
	parked_copy_never_ran(&s, 0x44);
}
END_TEST

static Suite *queue_suite(void)
{
	Suite *s = suite_create("t_queue");
	TCase *tc = tcase_create("queue");

	tcase_set_timeout(tc, 300);
	tcase_add_unchecked_fixture(tc, find_npus, NULL);
	tcase_add_loop_test(tc, test_host_barrier_holds_the_queue, 0, MAX_NPUS);
	tcase_add_test(tc, test_wait_same_npu);
	tcase_add_test(tc, test_wait_across_npus);
	tcase_add_test(tc, test_wait_for_the_past);
	tcase_add_test(tc, test_batch_then_ordered_copy);
	tcase_add_test(tc, test_batch_member_errors);
	tcase_add_test(tc, test_batch_closed_midway);
	tcase_add_test(tc, test_small_members_closed_midway);
	tcase_add_test(tc, test_batches_back_to_back);
	tcase_add_test(tc, test_plain_copies_in_order);
	tcase_add_test(tc, test_ring_wraps);
	tcase_add_test(tc, test_eventfd_signalled);
	tcase_add_test(tc, test_destroy_drains);
	tcase_add_test(tc, test_destroy_while_busy);
	tcase_add_test(tc, test_queues_share_the_engine);
	tcase_add_test(tc, test_need_wakeup_protocol);
	tcase_add_test(tc, test_create_unanswered);
	tcase_add_test(tc, test_ring_not_inheritable);
	tcase_add_loop_test(tc, test_stop_then_abort, 0, MAX_NPUS);
	tcase_add_test(tc, test_abort_drops_unsubmitted);
	tcase_add_test(tc, test_abort_while_rung);
	tcase_add_test(tc, test_ctl_races_destroy);
	tcase_add_test(tc, test_destroy_stopped);
	tcase_add_test(tc, test_stop_ends_a_destroy);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (!npu_raw_present())
		return T_EXIT_SKIP;
	return t_run_suite(queue_suite());
}
