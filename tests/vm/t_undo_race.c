// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: an ioctl that creates an object and then fails to copy its
 * answer out must not have shown the object to anyone. The argument lies
 * in a read-only page, so the copy in succeeds and the copy out fails,
 * while other threads of the same process free or destroy the address or
 * id the create hands out (both are predictable: device memory is first
 * fit, graph ids are the lowest free). A driver that publishes first and
 * undoes after the failed copy-out frees the object twice
 * ("refcount_t: underflow; use-after-free", caught by runtests.sh's scan
 * of the kernel log) or drops a newer object that reused the id. Here
 * every create fails with -EFAULT, no racer ever succeeds, and nothing is
 * left behind: the memory is all free again and the id is the next one
 * handed out. MEM_ALLOC, GRAPH_CREATE and QUEUE_CREATE are the ioctls
 * that create and answer; the others only look up or only copy in.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_state.h"
#include "t_vm.h"

#define BUF		(64 * 1024)
#define ROUNDS		3000
#define RACERS		2

static struct npu_dma_info infos[T_STATE_NPUS];
static int nr_npus;

static void setup(void)
{
	nr_npus = t_find_npus(infos, T_STATE_NPUS);
}

/* A racer loops one ioctl on one argument until told to stop. */
struct racer {
	pthread_t thread;
	int fd;
	unsigned long cmd;
	const void *arg;
	size_t arg_size;
	int *stop;
	long wins;		/* calls that succeeded */
	int bad_errno;		/* a failure other than the one expected */
	int expected;		/* the errno a call must fail with */
};

static void *racer_loop(void *p)
{
	struct racer *r = p;
	uint8_t arg[256];
	int ret;

	while (!__atomic_load_n(r->stop, __ATOMIC_RELAXED)) {
		memcpy(arg, r->arg, r->arg_size);
		ret = npu_raw_ioctl(r->fd, r->cmd, arg);
		if (!ret)
			r->wins++;
		else if (ret != -r->expected)
			r->bad_errno = -ret;
	}
	return NULL;
}

/*
 * Run @rounds calls of @cmd on the read-only @ro_arg (each must fail with
 * -EFAULT) against RACERS threads looping @racer_cmd on @racer_arg;
 * return the racers' wins.
 */
static long race(int fd, unsigned long cmd, const void *ro_arg,
		 unsigned long racer_cmd, const void *racer_arg,
		 size_t racer_size, int racer_errno)
{
	struct racer r[RACERS];
	int stop = 0, i, n;
	long wins = 0;

	for (i = 0; i < RACERS; i++) {
		r[i] = (struct racer){ .fd = fd, .cmd = racer_cmd,
				       .arg = racer_arg, .arg_size = racer_size,
				       .stop = &stop, .expected = racer_errno };
		ck_assert_int_eq(pthread_create(&r[i].thread, NULL, racer_loop,
						&r[i]), 0);
	}
	for (n = 0; n < ROUNDS; n++)
		ck_assert_int_eq(npu_raw_ioctl(fd, cmd, (void *)ro_arg), -EFAULT);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < RACERS; i++) {
		ck_assert_int_eq(pthread_join(r[i].thread, NULL), 0);
		ck_assert_int_eq(r[i].bad_errno, 0);
		wins += r[i].wins;
	}
	return wins;
}

/* A page holding @size bytes of @arg, then made read-only. */
static void *ro_copy(const void *arg, size_t size)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	memcpy(p, arg, size);
	ck_assert_int_eq(mprotect(p, 4096, PROT_READ), 0);
	return p;
}

static uint64_t mem_free(int fd)
{
	struct npu_dma_info info;

	ck_assert_int_eq(npu_raw_info(fd, &info), 0);
	return info.mem_free;
}

START_TEST(test_alloc_copy_out_vs_free)
{
	struct npu_dma_mem_alloc req = { .size = BUF,
					 .policy = NPU_DMA_MEM_NORMAL_ONLY };
	struct npu_dma_mem_free fr = { 0 };
	uint64_t before, addr, again;
	void *ro;
	int fd;

	ck_assert_int_gt(nr_npus, 0);
	fd = npu_raw_open(nr_npus - 1);
	ck_assert_int_ge(fd, 0);
	before = mem_free(fd);
	/* First fit: the address the failing allocations will take. */
	ck_assert_int_eq(npu_raw_alloc(fd, BUF, req.policy, &addr), 0);
	ck_assert_int_eq(npu_raw_free(fd, addr), 0);
	fr.dev_addr = addr;
	ro = ro_copy(&req, sizeof(req));

	ck_assert_int_eq(race(fd, NPU_DMA_IOCTL_MEM_ALLOC, ro,
			      NPU_DMA_IOCTL_MEM_FREE, &fr, sizeof(fr), EINVAL), 0);
	ck_assert_uint_eq(mem_free(fd), before);
	/* Nothing of the failed allocations holds the address. */
	ck_assert_int_eq(npu_raw_alloc(fd, BUF, req.policy, &again), 0);
	ck_assert_uint_eq(again, addr);
	ck_assert_int_eq(npu_raw_free(fd, addr), 0);
	munmap(ro, 4096);
	close(fd);
}
END_TEST

static int graph_create(int fd, struct npu_dma_graph_create *req)
{
	struct npu_dma_graph_create c = *req;
	int ret = npu_raw_ioctl(fd, NPU_DMA_IOCTL_GRAPH_CREATE, &c);

	req->graph_id = c.graph_id;
	return ret;
}

static int graph_destroy(int fd, uint32_t id)
{
	struct npu_dma_graph_destroy d = { .graph_id = id };

	return npu_raw_ioctl(fd, NPU_DMA_IOCTL_GRAPH_DESTROY, &d);
}

START_TEST(test_graph_create_copy_out_vs_destroy)
{
	struct npu_dma_graph_create req = { .count = 1 };
	struct npu_dma_graph_destroy gd = { 0 };
	struct npu_dma_desc d;
	uint8_t *host;
	uint64_t dev;
	uint32_t id;
	void *ro;
	int fd;

	ck_assert_int_gt(nr_npus, 0);
	fd = npu_raw_open(nr_npus - 1);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, BUF, NPU_DMA_MEM_NORMAL_ONLY, &dev), 0);
	/* A task on registered host memory: a leaked graph keeps its pins. */
	host = mmap(NULL, BUF, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ck_assert_ptr_ne(host, MAP_FAILED);
	ck_assert_int_eq(npu_raw_register(fd, host, BUF, 0), 0);
	d = npu_raw_copy(dev, (uintptr_t)host, BUF, NPU_DMA_DESC_F_SRC_HOST);
	req.descs = (uintptr_t)&d;

	/* Lowest free id: the one the failing creates will take. */
	ck_assert_int_eq(graph_create(fd, &req), 0);
	id = req.graph_id;
	ck_assert_int_eq(graph_destroy(fd, id), 0);
	req.graph_id = 0;
	gd.graph_id = id;
	ro = ro_copy(&req, sizeof(req));

	ck_assert_int_eq(race(fd, NPU_DMA_IOCTL_GRAPH_CREATE, ro,
			      NPU_DMA_IOCTL_GRAPH_DESTROY, &gd, sizeof(gd),
			      ENOENT), 0);
	/* The id is free again, and nothing else was left in the table. */
	ck_assert_int_eq(graph_create(fd, &req), 0);
	ck_assert_uint_eq(req.graph_id, id);
	ck_assert_int_eq(graph_destroy(fd, id), 0);
	ck_assert_int_eq(graph_destroy(fd, id + 1), -ENOENT);
	munmap(ro, 4096);
	close(fd);
	munmap(host, BUF);
}
END_TEST

/* Queue ids are global and the lowest free: predictable too. */
START_TEST(test_queue_create_copy_out_vs_destroy)
{
	struct npu_dma_queue_create req = { .entries = 16, .eventfd = -1 };
	struct npu_dma_queue_destroy qd = { 0 };
	struct npu_raw_queue q;
	uint32_t id;
	void *ro;
	int fd;

	ck_assert_int_gt(nr_npus, 0);
	fd = npu_raw_open(nr_npus - 1);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	id = q.id;
	npu_raw_queue_destroy(&q);
	qd.queue_id = id;
	ro = ro_copy(&req, sizeof(req));

	ck_assert_int_eq(race(fd, NPU_DMA_IOCTL_QUEUE_CREATE, ro,
			      NPU_DMA_IOCTL_QUEUE_DESTROY, &qd, sizeof(qd),
			      ENOENT), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_uint_eq(q.id, id);
	npu_raw_queue_destroy(&q);
	munmap(ro, 4096);
	close(fd);
}
END_TEST

static Suite *undo_suite(void)
{
	Suite *s = suite_create("t_undo_race");
	TCase *tc = tcase_create("copy_out");

	tcase_set_timeout(tc, 120);
	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_alloc_copy_out_vs_free);
	tcase_add_test(tc, test_graph_create_copy_out_vs_destroy);
	tcase_add_test(tc, test_queue_create_copy_out_vs_destroy);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (!npu_raw_present())
		return T_EXIT_SKIP;
	return t_run_suite(undo_suite());
}
