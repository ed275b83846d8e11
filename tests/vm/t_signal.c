// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: signals (SIGNAL_CREATE, SIGNAL and WAIT_SIGNAL descriptors,
 * shared by IPC key), the driver's half of CANN's IPC events and
 * notifies, on sim and edu NPUs.
 *
 * - A queue waits, in the driver, for a record another queue has not
 *   run yet (held behind a host barrier), of this process or another
 *   one, on the same NPU or another; the work behind the wait runs only
 *   after the record.
 * - The process that created the signal dies with the record never run:
 *   the wait ends with -EPIPE, never hangs.
 * - Wait-and-reset (a notify): records collapse into one, each wait
 *   takes them; a second wait waits for a new record.
 * - A host waits (SIGNAL_WAIT): a query, a deadline, a sleep ended by
 *   the record; a sleep ended by the creator's death (-EPIPE).
 * - Refusals: unknown ids, flags, signals in graphs, keys of the wrong
 *   kind, export by a file that did not create the signal.
 * Every test ends with pins, memory, queues and files as they began.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "t_share.h"

static uint32_t sig_create(int fd)
{
	struct npu_dma_signal_create c = { 0 };

	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_SIGNAL_CREATE, &c), 0);
	ck_assert_uint_ne(c.id, 0);
	return c.id;
}

static int sig_destroy(int fd, uint32_t id)
{
	struct npu_dma_signal_destroy d = { .id = id };

	return npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_SIGNAL_DESTROY, &d);
}

static struct npu_dma_desc op(uint8_t opcode, uint32_t id, uint16_t flags)
{
	struct npu_dma_desc d = { .opcode = opcode, .flags = flags, .value = id };

	return d;
}

static struct npu_dma_desc barrier(void)
{
	struct npu_dma_desc d = { .opcode = NPU_DMA_OP_HOST_BARRIER };

	return d;
}

/* Push and ring: the last one's sequence number. */
static uint64_t push(struct npu_raw_queue *q, struct npu_dma_desc d)
{
	uint64_t seq = npu_raw_push(q, &d);

	ck_assert_int_ge(npu_raw_submit(q), 0);
	return seq;
}

static int done(struct npu_raw_queue *q, uint64_t seq)
{
	return __atomic_load_n(&q->ctrl->completed_seq, __ATOMIC_ACQUIRE) >= seq;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* SIGNAL_WAIT until CLOCK_MONOTONIC @deadline: 0 or -errno. */
static int host_wait(int fd, uint32_t id, uint32_t flags, int64_t deadline)
{
	struct npu_dma_signal_wait w = { .id = id, .flags = flags,
					 .timeout_ns = deadline };

	return npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_SIGNAL_WAIT, &w);
}

struct waiter {
	pthread_t thread;
	int fd;
	uint32_t id;
	int ret;
};

static void *waiter_run(void *arg)
{
	struct waiter *w = arg;

	w->ret = host_wait(w->fd, w->id, 0, INT64_MAX);
	return NULL;
}

/* A thread of ours sleeps in SIGNAL_WAIT for @id. */
static void waiter_start(struct waiter *w, int fd, uint32_t id)
{
	w->fd = fd;
	w->id = id;
	w->ret = 1;
	ck_assert_int_eq(pthread_create(&w->thread, NULL, waiter_run, w), 0);
}

/*
 * Queue w of NPU @b waits for a record queued on queue r of NPU @a behind
 * a host barrier: nothing behind the wait runs until the barrier goes.
 */
START_TEST(test_wait_for_a_later_record)
{
	int a = nr_npus - 1, b = _i ? 0 : nr_npus - 1, fa, fb;
	struct npu_raw_queue r, w;
	uint64_t bar, seq;
	uint32_t id, idb;
	struct npu_dma_ipc_export x = { .flags = NPU_DMA_IPC_F_SIGNAL |
					  NPU_DMA_IPC_F_NO_PID_CHECK };
	struct npu_dma_ipc_import m = { .flags = NPU_DMA_IPC_IMPORT_F_SIGNAL };

	T_SKIP_UNLESS(is_sim(a), "needs a sim NPU");
	fa = npu_raw_open(a);
	fb = a == b ? fa : npu_raw_open(b);
	ck_assert_int_eq(npu_raw_queue_create(fa, 16, &r), 0);
	ck_assert_int_eq(npu_raw_queue_create(fb, 16, &w), 0);
	id = sig_create(fa);
	idb = id;
	if (fb != fa) {
		/* Another NPU's file gets it by key. */
		x.dev_addr = id;
		ck_assert_int_eq(npu_raw_ioctl(fa, DRM_IOCTL_NPU_DMA_IPC_EXPORT, &x), 0);
		m.key[0] = x.key[0];
		m.key[1] = x.key[1];
		ck_assert_int_eq(npu_raw_ioctl(fb, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &m), 0);
		idb = m.handle;
	}
	push(&r, barrier());
	bar = npu_raw_wait_barrier(&r, 5000);
	ck_assert_uint_ne(bar, 0);
	push(&r, op(NPU_DMA_OP_SIGNAL, id, 0));
	push(&w, op(NPU_DMA_OP_WAIT_SIGNAL, idb, 0));
	seq = push(&w, op(NPU_DMA_OP_NOP, 0, 0));
	usleep(200 * 1000);
	ck_assert(!done(&w, seq));
	ck_assert_int_eq(npu_raw_release(&r, bar), 0);
	ck_assert_int_eq(npu_raw_wait(&w, seq, 10000), 0);
	ck_assert_uint_eq(w.ctrl->error_count, 0);
	/* A wait with every record done passes at once. */
	seq = push(&w, op(NPU_DMA_OP_WAIT_SIGNAL, idb, 0));
	ck_assert_int_eq(npu_raw_wait(&w, seq, 10000), 0);
	npu_raw_queue_destroy(&r);
	npu_raw_queue_destroy(&w);
	ck_assert_int_eq(sig_destroy(fa, id), 0);
	if (fb != fa) {
		ck_assert_int_eq(sig_destroy(fb, idb), 0);
		close(fb);
	}
	close(fa);
}
END_TEST

/*
 * The host's wait for a record held behind a barrier: a query and a
 * deadline say not yet; a sleeping thread wakes when the record runs.
 */
START_TEST(test_host_wait)
{
	int npu = _i ? 0 : nr_npus - 1, fd = npu_raw_open(npu);
	struct npu_dma_signal_wait bad = { 0 };
	struct npu_raw_queue r;
	struct waiter wt;
	uint64_t bar;
	int64_t t0;
	uint32_t id;

	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &r), 0);
	id = sig_create(fd);
	/* Nothing submitted: nothing to wait for. */
	ck_assert_int_eq(host_wait(fd, id, NPU_DMA_SIGNAL_WAIT_F_QUERY, 0), 0);
	ck_assert_int_eq(host_wait(fd, id, 0, INT64_MAX), 0);
	push(&r, barrier());
	bar = npu_raw_wait_barrier(&r, 5000);
	ck_assert_uint_ne(bar, 0);
	push(&r, op(NPU_DMA_OP_SIGNAL, id, 0));
	ck_assert_int_eq(host_wait(fd, id, NPU_DMA_SIGNAL_WAIT_F_QUERY, 0), -EBUSY);
	t0 = now_ns();
	ck_assert_int_eq(host_wait(fd, id, 0, t0 + 100000000), -ETIME);
	ck_assert_int_ge(now_ns() - t0, 90000000);
	ck_assert_int_eq(host_wait(fd, id, 0, t0), -ETIME);	/* passed */
	waiter_start(&wt, fd, id);
	usleep(200 * 1000);
	ck_assert_int_eq(__atomic_load_n(&wt.ret, __ATOMIC_ACQUIRE), 1);
	ck_assert_int_eq(npu_raw_release(&r, bar), 0);
	ck_assert_int_eq(pthread_join(wt.thread, NULL), 0);
	ck_assert_int_eq(wt.ret, 0);
	ck_assert_int_eq(host_wait(fd, id, NPU_DMA_SIGNAL_WAIT_F_QUERY, 0), 0);
	/* Refusals. */
	ck_assert_int_eq(host_wait(fd, id + 100, 0, INT64_MAX), -ENOENT);
	ck_assert_int_eq(host_wait(fd, id, 2, INT64_MAX), -EINVAL);
	bad.id = id;
	bad.reserved[1] = 1;
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_SIGNAL_WAIT, &bad), -EINVAL);
	ck_assert_int_eq(sig_destroy(fd, id), 0);
	npu_raw_queue_destroy(&r);
	close(fd);
}
END_TEST

/*
 * Across processes: a child creates and exports a signal, queues a record
 * it never lets run, and is killed; our wait for it ends with -EPIPE, and
 * the work behind it runs; so does a thread's SIGNAL_WAIT. Its pid list names us (mode 0) or nobody but
 * the key (mode 1).
 */
START_TEST(test_creator_dies)
{
	int npu = nr_npus - 1, p[2], q2[2], fd;
	struct npu_dma_ipc_import m = { .flags = NPU_DMA_IPC_IMPORT_F_SIGNAL };
	struct npu_raw_queue w;
	uint64_t key[2], seq_wait, seq;
	pid_t pid, me = getpid();
	struct waiter wt;
	char c;

	T_SKIP_UNLESS(is_sim(npu), "needs a sim NPU");
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(pipe(q2), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		struct npu_dma_ipc_export x = { .flags = NPU_DMA_IPC_F_SIGNAL };
		struct npu_raw_queue r;
		int cfd = npu_raw_open(npu);
		int32_t allow = me;
		struct npu_dma_ipc_set_pids sp = { .pids = (uintptr_t)&allow,
						   .count = 1 };

		if (_i)
			x.flags |= NPU_DMA_IPC_F_NO_PID_CHECK;
		if (cfd < 0 || npu_raw_queue_create(cfd, 16, &r))
			_exit(1);
		x.dev_addr = sig_create(cfd);
		if (npu_raw_ioctl(cfd, DRM_IOCTL_NPU_DMA_IPC_EXPORT, &x))
			_exit(2);
		sp.key[0] = x.key[0];
		sp.key[1] = x.key[1];
		if (!_i && npu_raw_ioctl(cfd, DRM_IOCTL_NPU_DMA_IPC_SET_PIDS, &sp))
			_exit(3);
		push(&r, barrier());
		if (!npu_raw_wait_barrier(&r, 5000))
			_exit(4);
		push(&r, op(NPU_DMA_OP_SIGNAL, (uint32_t)x.dev_addr, 0));
		if (write(p[1], x.key, sizeof(x.key)) != sizeof(x.key))
			_exit(5);
		if (read(q2[0], &c, 1) != 1)	/* until we were told to die */
			_exit(6);
		pause();
		_exit(7);
	}
	close(p[1]);
	close(q2[0]);
	ck_assert_int_eq(read(p[0], key, sizeof(key)), sizeof(key));
	close(p[0]);
	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &w), 0);
	m.key[0] = key[0];
	m.key[1] = key[1];
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &m), 0);
	seq_wait = push(&w, op(NPU_DMA_OP_WAIT_SIGNAL, m.handle, 0));
	seq = push(&w, op(NPU_DMA_OP_NOP, 0, 0));
	waiter_start(&wt, fd, m.handle);
	usleep(200 * 1000);
	ck_assert(!done(&w, seq));
	ck_assert_int_eq(__atomic_load_n(&wt.ret, __ATOMIC_ACQUIRE), 1);
	ck_assert_int_eq(write(q2[1], "k", 1), 1);
	close(q2[1]);
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
	ck_assert_int_eq(pthread_join(wt.thread, NULL), 0);
	ck_assert_int_eq(wt.ret, -EPIPE);
	ck_assert_int_eq(npu_raw_wait(&w, seq, 20000), 0);
	ck_assert_uint_eq(w.ctrl->error_seq, seq_wait);
	ck_assert_int_eq(w.ctrl->error, -EPIPE);
	ck_assert_uint_eq(w.ctrl->error_count, 1);
	ck_assert_int_eq(sig_destroy(fd, m.handle), 0);
	npu_raw_queue_destroy(&w);
	close(fd);
}
END_TEST

/* Wait-and-reset: records collapse, each wait takes what is done. */
START_TEST(test_wait_and_reset)
{
	int npu = nr_npus - 1, fd;
	struct npu_raw_queue r, w;
	uint64_t seq, bar;
	uint32_t id;

	T_SKIP_UNLESS(is_sim(npu), "needs a sim NPU");
	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &r), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &w), 0);
	id = sig_create(fd);
	push(&r, op(NPU_DMA_OP_SIGNAL, id, 0));
	seq = push(&r, op(NPU_DMA_OP_SIGNAL, id, 0));
	ck_assert_int_eq(npu_raw_wait(&r, seq, 10000), 0);
	/* Two records, one wait takes both. */
	seq = push(&w, op(NPU_DMA_OP_WAIT_SIGNAL, id, NPU_DMA_DESC_F_SIGNAL_RESET));
	ck_assert_int_eq(npu_raw_wait(&w, seq, 10000), 0);
	/* The next waits for a new record. */
	push(&w, op(NPU_DMA_OP_WAIT_SIGNAL, id, NPU_DMA_DESC_F_SIGNAL_RESET));
	seq = push(&w, op(NPU_DMA_OP_NOP, 0, 0));
	usleep(200 * 1000);
	ck_assert(!done(&w, seq));
	push(&r, barrier());
	bar = npu_raw_wait_barrier(&r, 5000);
	push(&r, op(NPU_DMA_OP_SIGNAL, id, 0));
	usleep(100 * 1000);
	ck_assert(!done(&w, seq));
	ck_assert_int_eq(npu_raw_release(&r, bar), 0);
	ck_assert_int_eq(npu_raw_wait(&w, seq, 10000), 0);
	ck_assert_uint_eq(w.ctrl->error_count, 0);
	/* Destroyed by its creator: a reset-wait fails at once. */
	ck_assert_int_eq(sig_destroy(fd, id), 0);
	seq = push(&w, op(NPU_DMA_OP_WAIT_SIGNAL, id, NPU_DMA_DESC_F_SIGNAL_RESET));
	ck_assert_int_eq(npu_raw_wait(&w, seq, 10000), 0);
	ck_assert_int_eq(w.ctrl->last_error, -ENOENT);
	npu_raw_queue_destroy(&r);
	npu_raw_queue_destroy(&w);
	close(fd);
}
END_TEST

START_TEST(test_refusals)
{
	int npu = 0, fd = npu_raw_open(npu), other;
	struct npu_dma_signal_create c = { .flags = 1 };
	struct npu_dma_ipc_export x = { .flags = NPU_DMA_IPC_F_SIGNAL };
	struct npu_dma_ipc_import m = { .flags = NPU_DMA_IPC_IMPORT_F_SIGNAL };
	struct npu_dma_graph_create g = { 0 };
	struct npu_dma_desc gd[1];
	struct npu_raw_queue q;
	uint64_t seq, dev;
	uint32_t id, h;

	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_SIGNAL_CREATE, &c), -EINVAL);
	ck_assert_int_eq(sig_destroy(fd, 77), -ENOENT);
	id = sig_create(fd);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	/* Unknown id: the descriptor fails; a reset flag elsewhere: too. */
	seq = push(&q, op(NPU_DMA_OP_SIGNAL, id + 100, 0));
	ck_assert_int_eq(npu_raw_wait(&q, seq, 5000), 0);
	ck_assert_int_eq(q.ctrl->last_error, -ENOENT);
	seq = push(&q, op(NPU_DMA_OP_SIGNAL, id, NPU_DMA_DESC_F_SIGNAL_RESET));
	ck_assert_int_eq(npu_raw_wait(&q, seq, 5000), 0);
	ck_assert_int_eq(q.ctrl->last_error, -EINVAL);
	/* No signals in graphs. */
	gd[0] = op(NPU_DMA_OP_SIGNAL, id, 0);
	g.descs = (uintptr_t)gd;
	g.count = 1;
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_GRAPH_CREATE, &g), -EINVAL);
	/* Export: size set, not ours; import: a memory key as a signal. */
	x.dev_addr = id;
	x.size = 1;
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_EXPORT, &x), -EINVAL);
	other = npu_raw_open(npu);
	x.size = 0;
	ck_assert_int_eq(npu_raw_ioctl(other, DRM_IOCTL_NPU_DMA_IPC_EXPORT, &x), -ENOENT);
	ck_assert_int_eq(npu_raw_alloc(fd, 4096, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h), 0);
	x = (struct npu_dma_ipc_export){ .dev_addr = dev, .size = 4096,
					 .flags = NPU_DMA_IPC_F_NO_PID_CHECK };
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_EXPORT, &x), 0);
	m.key[0] = x.key[0];
	m.key[1] = x.key[1];
	ck_assert_int_eq(npu_raw_ioctl(other, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &m), -EINVAL);
	m.flags = NPU_DMA_IPC_IMPORT_F_SIGNAL | NPU_DMA_IPC_IMPORT_F_HANDLE;
	ck_assert_int_eq(npu_raw_ioctl(other, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &m), -EINVAL);
	close(other);
	npu_raw_queue_destroy(&q);
	close(fd);
}
END_TEST

/*
 * A file closed with a queue parked on a wait never met (its own signal,
 * alive while it is open): the close aborts the wait, nothing hangs.
 * (QUEUE_DESTROY waits for the work, as a stream sync does.)
 */
START_TEST(test_destroy_while_waiting)
{
	int fd = npu_raw_open(nr_npus - 1);
	struct npu_raw_queue w;
	uint64_t seq;
	uint32_t id;

	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &w), 0);
	id = sig_create(fd);
	push(&w, op(NPU_DMA_OP_SIGNAL, id, 0));
	push(&w, op(NPU_DMA_OP_WAIT_SIGNAL, id, NPU_DMA_DESC_F_SIGNAL_RESET));
	seq = push(&w, op(NPU_DMA_OP_WAIT_SIGNAL, id, NPU_DMA_DESC_F_SIGNAL_RESET));
	usleep(100 * 1000);
	ck_assert(!done(&w, seq));
	munmap(w.map, w.map_size);
	close(w.efd);
	close(fd);
}
END_TEST

static Suite *signal_suite(void)
{
	Suite *s = suite_create("signal");
	TCase *tc = tcase_create("signal");

	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_wait_for_a_later_record, 0, 2);
	tcase_add_loop_test(tc, test_creator_dies, 0, 2);
	tcase_add_loop_test(tc, test_host_wait, 0, 2);
	tcase_add_test(tc, test_wait_and_reset);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_destroy_while_waiting);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(signal_suite());
}
