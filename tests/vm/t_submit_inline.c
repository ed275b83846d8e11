// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: QUEUE_SUBMIT with NPU_DMA_SUBMIT_F_INLINE, on every NPU, through
 * the raw ABI (kernel/npu_dma_sched.c, npu_dma_sched_run_inline()).
 *
 * - Every NPU says NPU_DMA_CAP_SUBMIT_INLINE.
 * - On an idle queue, small copies and fills (up to inline_max_bytes) are
 *   done when the doorbell returns: completed_seq is theirs with no wait,
 *   the bytes are right, NEED_WAKEUP is still set; an invalid descriptor
 *   among them completes at once with its error.
 * - A HOST_BARRIER parks the queue in the doorbell: barrier_seq is
 *   published when it returns. Its release runs what follows in the
 *   releasing call when none of it moves data (NOPs, the next barrier,
 *   published at once too); a copy behind a barrier completes once it
 *   is released, by the worker.
 * - Work over inline_max_bytes goes to the queue's worker.
 * - inline_max_bytes=0 turns it off; flags other than F_INLINE and
 *   F_HELP: -EINVAL.
 * - NPU_DMA_SUBMIT_F_HELP: a copy whose worker was woken but cannot run
 *   (every CPU busy with a SCHED_FIFO thread of the test) is done when
 *   a doorbell with F_HELP and nothing new returns, and the worker
 *   parks the queue afterwards as usual; F_HELP on an idle queue, on a
 *   queue parked at a host barrier (nothing passes it) and over
 *   inline_max_bytes runs nothing.
 * - Destroying a queue from another thread while doorbells run work
 *   inline leaves no job and no pin behind.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_state.h"
#include "t_vm.h"

#define PARAM	"/sys/module/npu_dma/parameters/inline_max_bytes"
#define SZ	4096

#define MAX_NPUS 8
#define MAX_CPUS 64

static int nr_npus;

/* NPUs that open, counted without Check (before the suite). */
static int count_npus(void)
{
	int n, fd;

	for (n = 0; n < MAX_NPUS; n++) {
		fd = npu_raw_open(n);
		if (fd < 0)
			break;
		close(fd);
	}
	return n;
}

static bool all_bytes(const uint8_t *p, size_t len, uint8_t v)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != v)
			return false;
	return true;
}

static int doorbell(struct npu_raw_queue *q, uint32_t flags)
{
	struct npu_dma_queue_submit s = { .queue_id = q->id, .flags = flags };

	return npu_raw_ioctl(q->fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &s);
}

static uint64_t completed(const struct npu_raw_queue *q)
{
	return __atomic_load_n(&q->ctrl->completed_seq, __ATOMIC_ACQUIRE);
}

static bool need_wakeup(const struct npu_raw_queue *q)
{
	return __atomic_load_n(&q->ctrl->flags, __ATOMIC_ACQUIRE) &
	       NPU_DMA_QUEUE_S_NEED_WAKEUP;
}

/* Wait until the worker went idle again (the state F_INLINE acts in). */
static void wait_idle(const struct npu_raw_queue *q)
{
	int i;

	for (i = 0; i < 500 && !need_wakeup(q); i++)
		usleep(10000);
	ck_assert_msg(need_wakeup(q), "queue %u never went idle", q->id);
}

static void set_max(const char *val)
{
	ck_assert_int_eq(t_write_file(PARAM, val), 0);
}

static void params_default(void)
{
	t_write_file(PARAM, "1048576");
}

START_TEST(test_cap_reported)
{
	struct npu_dma_info info;
	int fd = npu_raw_open(_i);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_info(fd, &info), 0);
	ck_assert_uint_ne(info.caps & NPU_DMA_CAP_SUBMIT_INLINE, 0);
	ck_assert_uint_ne(info.caps & NPU_DMA_CAP_SUBMIT_HELP, 0);
	close(fd);
}
END_TEST

START_TEST(test_small_work_done_in_the_doorbell)
{
	static uint8_t src[SZ], back[SZ], fill[SZ];
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	uint64_t dev, seq;
	uint32_t handle;
	int fd = npu_raw_open(_i), i;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, 2 * SZ, 0, &dev, &handle), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert(need_wakeup(&q));
	for (i = 0; i < 3; i++) {
		t_pattern_fill(src, SZ, (uint32_t)(_i * 10 + i));
		memset(back, 0, SZ);
		d = npu_raw_copy(dev, (uintptr_t)src, SZ,
				 NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE);
		npu_raw_push(&q, &d);
		d = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_FILL,
					   .dst = dev + SZ, .len = SZ,
					   .fill_size = 1, .value = 0xa5 };
		npu_raw_push(&q, &d);
		d = npu_raw_copy((uintptr_t)back, dev, SZ,
				 NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE);
		npu_raw_push(&q, &d);
		d = npu_raw_copy((uintptr_t)fill, dev + SZ, SZ,
				 NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE);
		seq = npu_raw_push(&q, &d);
		ck_assert_int_eq(doorbell(&q, NPU_DMA_SUBMIT_F_INLINE), 4);
		/* Done before the doorbell returned: no wait at all. */
		ck_assert_uint_eq(completed(&q), seq);
		ck_assert(need_wakeup(&q));
		ck_assert_int_eq(memcmp(src, back, SZ), 0);
		ck_assert(all_bytes(fill, SZ, 0xa5));
	}
	/* An invalid descriptor completes at once, with its error. */
	d = npu_raw_copy(dev + 64 * SZ, (uintptr_t)src, SZ,
			 NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE);
	seq = npu_raw_push(&q, &d);
	ck_assert_int_eq(doorbell(&q, NPU_DMA_SUBMIT_F_INLINE), 1);
	ck_assert_uint_eq(completed(&q), seq);
	ck_assert_uint_eq(q.ctrl->error_seq, seq);
	ck_assert_int_eq(q.ctrl->error, -EFAULT);

	npu_raw_queue_destroy(&q);
	ck_assert_int_eq(npu_raw_free(fd, handle), 0);
	close(fd);
}
END_TEST

static uint64_t barrier_seq(const struct npu_raw_queue *q)
{
	return __atomic_load_n(&q->ctrl->barrier_seq, __ATOMIC_ACQUIRE);
}

START_TEST(test_barriers_park_inline)
{
	struct npu_dma_desc b = { .opcode = NPU_DMA_OP_HOST_BARRIER };
	struct npu_dma_desc nop = { .opcode = NPU_DMA_OP_NOP };
	uint64_t b1, n1, b2, n2;
	struct npu_raw_queue q;
	int fd = npu_raw_open(_i);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);

	/* Parked and published by the doorbell itself: no wait. */
	b1 = npu_raw_push(&q, &b);
	n1 = npu_raw_push(&q, &nop);
	b2 = npu_raw_push(&q, &b);
	n2 = npu_raw_push(&q, &nop);
	ck_assert_int_eq(doorbell(&q, NPU_DMA_SUBMIT_F_INLINE), 4);
	ck_assert_uint_eq(barrier_seq(&q), b1);
	ck_assert_uint_eq(completed(&q), b1 - 1);
	ck_assert(need_wakeup(&q));

	/* Each release runs on to the next barrier, or to the end. */
	ck_assert_int_eq(npu_raw_release(&q, b1), 0);
	ck_assert_uint_eq(completed(&q), n1);
	ck_assert_uint_eq(barrier_seq(&q), b2);
	ck_assert_int_eq(npu_raw_release(&q, b2), 0);
	ck_assert_uint_eq(completed(&q), n2);
	ck_assert(need_wakeup(&q));
	/* A barrier not reached: -EINVAL. */
	ck_assert_int_eq(npu_raw_release(&q, n2 + 1), -EINVAL);

	/* Turned off: the worker parks the queue, and runs it on. */
	set_max("0");
	b1 = npu_raw_push(&q, &b);
	n1 = npu_raw_push(&q, &nop);
	ck_assert_int_eq(doorbell(&q, NPU_DMA_SUBMIT_F_INLINE), 2);
	ck_assert_uint_eq(npu_raw_wait_barrier(&q, 10000), b1);
	ck_assert_int_eq(npu_raw_release(&q, b1), 0);
	ck_assert_int_eq(npu_raw_wait(&q, n1, 10000), 0);
	params_default();

	npu_raw_queue_destroy(&q);
	close(fd);
}
END_TEST

START_TEST(test_big_or_held_work_goes_to_the_worker)
{
	static uint8_t src[4 * SZ], back[4 * SZ];
	struct npu_dma_desc b = { .opcode = NPU_DMA_OP_HOST_BARRIER }, d;
	struct npu_raw_queue q;
	uint64_t dev, bseq, seq;
	uint32_t handle;
	int fd = npu_raw_open(_i);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, 4 * SZ, 0, &dev, &handle), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	t_pattern_fill(src, sizeof(src), (uint32_t)_i + 5);

	/* The doorbell returns while the barrier holds the copy behind it. */
	bseq = npu_raw_push(&q, &b);
	d = npu_raw_copy(dev, (uintptr_t)src, 64,
			 NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE);
	seq = npu_raw_push(&q, &d);
	ck_assert_int_eq(doorbell(&q, NPU_DMA_SUBMIT_F_INLINE), 2);
	ck_assert_uint_eq(npu_raw_wait_barrier(&q, 10000), bseq);
	ck_assert_uint_lt(completed(&q), seq);
	ck_assert_int_eq(npu_raw_release(&q, bseq), 0);
	ck_assert_int_eq(npu_raw_wait(&q, seq, 10000), 0);

	/* Over the limit: the worker runs it, with the same result. */
	set_max("4096");
	wait_idle(&q);
	d = npu_raw_copy(dev, (uintptr_t)src, sizeof(src),
			 NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE);
	npu_raw_push(&q, &d);
	d = npu_raw_copy((uintptr_t)back, dev, sizeof(back),
			 NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE);
	seq = npu_raw_push(&q, &d);
	ck_assert_int_eq(doorbell(&q, NPU_DMA_SUBMIT_F_INLINE), 2);
	ck_assert_int_eq(npu_raw_wait(&q, seq, 10000), 0);
	ck_assert_int_eq(memcmp(src, back, sizeof(src)), 0);
	ck_assert_uint_eq(q.ctrl->error_count, 0);

	/* Turned off: a 64-byte copy is the worker's too, and still right. */
	set_max("0");
	wait_idle(&q);
	memset(back, 0, 64);
	d = npu_raw_copy((uintptr_t)back, dev, 64,
			 NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE);
	seq = npu_raw_push(&q, &d);
	ck_assert_int_eq(doorbell(&q, NPU_DMA_SUBMIT_F_INLINE), 1);
	ck_assert_int_eq(npu_raw_wait(&q, seq, 10000), 0);
	ck_assert_int_eq(memcmp(src, back, 64), 0);
	params_default();

	npu_raw_queue_destroy(&q);
	ck_assert_int_eq(npu_raw_free(fd, handle), 0);
	close(fd);
}
END_TEST

START_TEST(test_unknown_flags_refused)
{
	struct npu_raw_queue q;
	int fd = npu_raw_open(_i);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_int_eq(doorbell(&q, NPU_DMA_SUBMIT_F_HELP << 1), -EINVAL);
	ck_assert_int_eq(doorbell(&q, NPU_DMA_SUBMIT_F_HELP | (1U << 31)), -EINVAL);
	ck_assert_int_eq(doorbell(&q, NPU_DMA_SUBMIT_F_INLINE | (1U << 31)), -EINVAL);
	ck_assert_int_eq(doorbell(&q, NPU_DMA_SUBMIT_F_INLINE), 0);
	npu_raw_queue_destroy(&q);
	close(fd);
}
END_TEST

/*
 * Every CPU held by a SCHED_FIFO thread of the test (the caller's own on
 * CPU 0, a spinner on each other): a worker woken meanwhile cannot run,
 * so "kicked but not started" is a state the test can hold.
 */
struct hogs {
	pthread_t th[MAX_CPUS];
	int n;
	volatile int stop;
	int running;
};

static void *hog(void *arg)
{
	struct hogs *h = arg;

	__atomic_add_fetch(&h->running, 1, __ATOMIC_RELEASE);
	while (!h->stop)
		__asm__ __volatile__("pause");
	return NULL;
}

static void fifo_on(pthread_t t, int cpu, int policy)
{
	struct sched_param sp = { .sched_priority = policy == SCHED_FIFO ? 1 : 0 };
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	if (cpu >= 0)
		CPU_SET(cpu, &set);
	else
		for (i = 0; i < CPU_SETSIZE; i++)
			CPU_SET(i, &set);
	ck_assert_int_eq(pthread_setaffinity_np(t, sizeof(set), &set), 0);
	ck_assert_int_eq(pthread_setschedparam(t, policy, &sp), 0);
}

static void hogs_begin(struct hogs *h)
{
	int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN), i;

	memset(h, 0, sizeof(*h));
	ck_assert_int_le(cpus, MAX_CPUS);
	fifo_on(pthread_self(), 0, SCHED_FIFO);
	for (i = 1; i < cpus; i++) {
		ck_assert_int_eq(pthread_create(&h->th[h->n], NULL, hog, h), 0);
		fifo_on(h->th[h->n++], i, SCHED_FIFO);
	}
	while (__atomic_load_n(&h->running, __ATOMIC_ACQUIRE) < h->n)
		sched_yield();
}

static void hogs_end(struct hogs *h)
{
	int i;

	h->stop = 1;
	for (i = 0; i < h->n; i++)
		ck_assert_int_eq(pthread_join(h->th[i], NULL), 0);
	fifo_on(pthread_self(), -1, SCHED_OTHER);
}

START_TEST(test_help_runs_unstarted_work)
{
	static uint8_t src[SZ], back[SZ];
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	struct hogs h;
	uint64_t dev, seq, bseq;
	uint32_t handle;
	int fd = npu_raw_open(_i);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, SZ, 0, &dev, &handle), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	t_pattern_fill(src, SZ, (uint32_t)_i + 40);
	/* Pages present: pinning them in a doorbell does not sleep (and free a CPU). */
	memset(back, 0, SZ);

	/* An idle queue: nothing to run, and it stays idle. */
	ck_assert_int_eq(doorbell(&q, NPU_DMA_SUBMIT_F_HELP), 0);
	ck_assert(need_wakeup(&q));
	ck_assert_uint_eq(completed(&q), 0);

	hogs_begin(&h);
	npu_raw_push(&q, &(struct npu_dma_desc){ .opcode = NPU_DMA_OP_NOP });
	d = npu_raw_copy(dev, (uintptr_t)src, SZ,
			 NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE);
	npu_raw_push(&q, &d);
	ck_assert_int_eq(doorbell(&q, 0), 2);
	/* Woken, not started: no CPU is free for the worker. */
	ck_assert(!need_wakeup(&q));
	ck_assert_uint_eq(completed(&q), 0);
	/* The helper takes the copy back and what was published since. */
	d = npu_raw_copy((uintptr_t)back, dev, SZ,
			 NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE);
	seq = npu_raw_push(&q, &d);
	ck_assert_int_eq(doorbell(&q, NPU_DMA_SUBMIT_F_HELP), 1);
	ck_assert_uint_eq(completed(&q), seq);

	/* Over inline_max_bytes it declines: the worker's, once it runs. */
	set_max("1024");
	memset(back, 0, SZ);
	seq = npu_raw_push(&q, &d);
	ck_assert_int_eq(doorbell(&q, NPU_DMA_SUBMIT_F_HELP), 1);
	ck_assert_uint_lt(completed(&q), seq);
	hogs_end(&h);
	params_default();
	ck_assert_int_eq(npu_raw_wait(&q, seq, 10000), 0);
	ck_assert_int_eq(memcmp(src, back, SZ), 0);
	ck_assert_uint_eq(q.ctrl->error_count, 0);
	/* The worker came after all, found nothing, and parked the queue. */
	wait_idle(&q);

	/* Parked at a barrier by the worker (NEED_WAKEUP clear): nothing passes it. */
	bseq = npu_raw_push(&q, &(struct npu_dma_desc){ .opcode = NPU_DMA_OP_HOST_BARRIER });
	seq = npu_raw_push(&q, &d);
	ck_assert_int_eq(doorbell(&q, 0), 2);
	ck_assert_uint_eq(npu_raw_wait_barrier(&q, 10000), bseq);
	ck_assert_int_eq(doorbell(&q, NPU_DMA_SUBMIT_F_HELP), 0);
	ck_assert_uint_eq(completed(&q), bseq - 1);
	ck_assert_int_eq(npu_raw_release(&q, bseq), 0);
	ck_assert_int_eq(npu_raw_wait(&q, seq, 10000), 0);

	npu_raw_queue_destroy(&q);
	ck_assert_int_eq(npu_raw_free(fd, handle), 0);
	close(fd);
}
END_TEST

struct ringer {
	struct npu_raw_queue *q;
	uint64_t dev;
	uint8_t *buf;
	volatile int stop;
};

/* Rings inline doorbells until the queue is gone or told to stop. */
static void *ring_inline(void *arg)
{
	struct ringer *r = arg;
	struct npu_dma_desc d;
	uint32_t tail;

	while (!r->stop) {
		tail = r->q->ctrl->sq_tail;
		if (tail - __atomic_load_n(&r->q->ctrl->sq_head, __ATOMIC_ACQUIRE) <
		    r->q->entries) {
			d = npu_raw_copy(r->dev, (uintptr_t)r->buf, 512,
					 NPU_DMA_DESC_F_SRC_HOST |
					 NPU_DMA_DESC_F_SRC_PAGEABLE);
			r->q->ring[tail & (r->q->entries - 1)] = d;
			__atomic_store_n(&r->q->ctrl->sq_tail, tail + 1,
					 __ATOMIC_RELEASE);
		}
		if (doorbell(r->q, NPU_DMA_SUBMIT_F_INLINE) == -ENOENT)
			break;
	}
	return NULL;
}

START_TEST(test_destroy_during_inline_doorbells)
{
	static uint8_t buf[512];
	struct npu_dma_queue_destroy qd = { 0 };
	struct ringer r = { .buf = buf };
	struct npu_raw_queue q;
	uint32_t handle;
	long pins = t_pins_held();
	pthread_t th;
	int fd = npu_raw_open(_i), round;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, 4096, 0, &r.dev, &handle), 0);
	for (round = 0; round < 20; round++) {
		ck_assert_int_eq(npu_raw_queue_create(fd, 8, &q), 0);
		r.q = &q;
		r.stop = 0;
		ck_assert_int_eq(pthread_create(&th, NULL, ring_inline, &r), 0);
		usleep(2000 + round * 500);
		qd.queue_id = q.id;
		ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &qd), 0);
		r.stop = 1;
		ck_assert_int_eq(pthread_join(th, NULL), 0);
		/* The mapping outlives the queue; the queue is gone. */
		ck_assert_int_eq(doorbell(&q, NPU_DMA_SUBMIT_F_INLINE), -ENOENT);
		q.id = 0;
		npu_raw_queue_destroy(&q);
	}
	ck_assert_int_eq(npu_raw_free(fd, handle), 0);
	close(fd);
	ck_assert_int_eq(t_pins_held(), pins);
}
END_TEST

static Suite *inline_suite(void)
{
	Suite *s = suite_create("t_submit_inline");
	TCase *tc = tcase_create("inline");

	tcase_set_timeout(tc, 120);
	tcase_add_unchecked_fixture(tc, NULL, params_default);
	tcase_add_loop_test(tc, test_cap_reported, 0, nr_npus);
	tcase_add_loop_test(tc, test_small_work_done_in_the_doorbell, 0, nr_npus);
	tcase_add_loop_test(tc, test_barriers_park_inline, 0, nr_npus);
	tcase_add_loop_test(tc, test_big_or_held_work_goes_to_the_worker, 0, nr_npus);
	tcase_add_loop_test(tc, test_help_runs_unstarted_work, 0, nr_npus);
	tcase_add_loop_test(tc, test_unknown_flags_refused, 0, nr_npus);
	tcase_add_loop_test(tc, test_destroy_during_inline_doorbells, 0, nr_npus);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (!npu_raw_present())
		return T_EXIT_SKIP;
	nr_npus = count_npus();
	if (nr_npus <= 0)
		return T_EXIT_SKIP;
	return t_run_suite(inline_suite());
}
