// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: an ioctl that creates an object and then cannot copy its
 * answer out. The argument lies in a read-only page, so the DRM core's
 * copy in succeeds and its copy out fails: the ioctl returns -EFAULT,
 * and the object the handler made belongs to the file until it closes
 * (upstream DRM semantics: the handler succeeded, there is no undo).
 * MEM_ALLOC, GRAPH_CREATE and QUEUE_CREATE are the ioctls that create
 * and answer; the others only look up or only copy in.
 *
 * First, without racers: the object of an unanswered create is there,
 * the file's own, and freed once by the id the create would have
 * answered (GEM handles are the lowest free from 1, graph ids the
 * lowest free of the file, queue ids the lowest free of all files).
 *
 * Then 3000 unanswered creates each, raced by two threads freeing or
 * destroying that predicted id: a racer may win (it frees an unanswered
 * object, which is the file's to free) or fail with the errno of an id
 * that is not there, never with another; every create still returns
 * -EFAULT; the kernel log stays clean (runtests.sh: a driver that frees
 * an object twice shows "refcount_t: underflow; use-after-free"); and
 * once the file is closed the NPU is back where it was: free device
 * memory (GET_INFO on another file), queues, clients, pinned pages.
 */
#include <errno.h>
#include <inttypes.h>
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
	int expected;		/* the errno a failed call must have */
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
 * Run ROUNDS calls of @cmd on the read-only @ro_arg (each must fail with
 * -EFAULT) against RACERS threads looping @racer_cmd on @racer_arg, each
 * call of which must succeed or fail with @racer_errno; return the
 * racers' wins.
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
		ck_assert_msg(r[i].bad_errno == 0, "a racer failed with %d, want 0 or %d",
			      -r[i].bad_errno, -racer_errno);
		wins += r[i].wins;
	}
	printf("t_undo_race: %d unanswered creates, %ld freed by the racers\n",
	       ROUNDS, wins);
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

/* Free device memory of NPU @npu, asked on a file of its own. */
static uint64_t mem_free(int npu)
{
	struct npu_dma_info info;
	int fd = npu_raw_open(npu);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_info(fd, &info), 0);
	close(fd);
	return info.mem_free;
}

static int queues(int npu)
{
	char buf[32];

	ck_assert_int_eq(t_npu_attr(npu, "queues", buf, sizeof(buf)), 0);
	return atoi(buf);
}

static int graph_create(int fd, struct npu_dma_graph_create *req)
{
	struct npu_dma_graph_create c = *req;
	int ret = npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_GRAPH_CREATE, &c);

	req->graph_id = c.graph_id;
	return ret;
}

static int graph_destroy(int fd, uint32_t id)
{
	struct npu_dma_graph_destroy d = { .graph_id = id };

	return npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_GRAPH_DESTROY, &d);
}

static int queue_destroy(int fd, uint32_t id)
{
	struct npu_dma_queue_destroy d = { .queue_id = id };

	return npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &d);
}

/* A graph of one task on registered host memory: it holds the pins. */
struct graph_env {
	uint8_t *host;
	uint64_t dev;
	struct npu_dma_desc d;
	struct npu_dma_graph_create req;
};

static void graph_env(int fd, struct graph_env *g)
{
	ck_assert_int_eq(npu_raw_alloc(fd, BUF, NPU_DMA_MEM_NORMAL_ONLY, &g->dev, NULL), 0);
	g->host = mmap(NULL, BUF, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ck_assert_ptr_ne(g->host, MAP_FAILED);
	ck_assert_int_eq(npu_raw_register(fd, g->host, BUF, 0), 0);
	g->d = npu_raw_copy(g->dev, (uintptr_t)g->host, BUF, NPU_DMA_DESC_F_SRC_HOST);
	g->req = (struct npu_dma_graph_create){ .descs = (uintptr_t)&g->d, .count = 1 };
}

/* The object of an unanswered create is the file's, there once. */
START_TEST(test_unanswered_create_belongs_to_the_file)
{
	struct npu_dma_mem_alloc areq = { .size = BUF, .policy = NPU_DMA_MEM_NORMAL_ONLY };
	struct npu_dma_queue_create qreq = { .entries = 16, .eventfd = -1 };
	int npu = nr_npus - 1, fd;
	struct t_state start;
	struct graph_env g;
	struct npu_raw_queue q;
	uint64_t before, addr;
	uint32_t h, id;
	void *ro;

	ck_assert_int_gt(nr_npus, 0);
	t_state_get(&start, nr_npus);
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);

	/* MEM_ALLOC: the memory is taken, its handle (the lowest, 1) frees it. */
	before = mem_free(npu);
	ro = ro_copy(&areq, sizeof(areq));
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_MEM_ALLOC, ro), -EFAULT);
	munmap(ro, 4096);
	ck_assert_uint_eq(mem_free(npu), before - BUF);
	ck_assert_int_eq(npu_raw_free(fd, 1), 0);
	ck_assert_int_eq(npu_raw_free(fd, 1), -EINVAL);
	ck_assert_uint_eq(mem_free(npu), before);
	ck_assert_int_eq(npu_raw_alloc(fd, BUF, NPU_DMA_MEM_NORMAL_ONLY, &addr, &h), 0);
	ck_assert_uint_eq(h, 1);
	ck_assert_int_eq(npu_raw_free(fd, h), 0);

	/* GRAPH_CREATE: the lowest free id is taken; destroyed once. */
	graph_env(fd, &g);
	ck_assert_int_eq(graph_create(fd, &g.req), 0);
	id = g.req.graph_id;
	ck_assert_int_eq(graph_destroy(fd, id), 0);
	g.req.graph_id = 0;
	ro = ro_copy(&g.req, sizeof(g.req));
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_GRAPH_CREATE, ro), -EFAULT);
	munmap(ro, 4096);
	ck_assert_int_eq(graph_destroy(fd, id), 0);
	ck_assert_int_eq(graph_destroy(fd, id), -ENOENT);

	/* QUEUE_CREATE: counted in sysfs, the lowest free id, destroyed once. */
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	id = q.id;
	npu_raw_queue_destroy(&q);
	ck_assert_int_eq(queues(npu), 0);
	ro = ro_copy(&qreq, sizeof(qreq));
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, ro), -EFAULT);
	munmap(ro, 4096);
	ck_assert_int_eq(queues(npu), 1);
	ck_assert_int_eq(queue_destroy(fd, id), 0);
	ck_assert_int_eq(queue_destroy(fd, id), -ENOENT);
	ck_assert_int_eq(queues(npu), 0);

	/* Left unfreed, each goes with the file. */
	ro = ro_copy(&areq, sizeof(areq));
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_MEM_ALLOC, ro), -EFAULT);
	munmap(ro, 4096);
	ro = ro_copy(&g.req, sizeof(g.req));
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_GRAPH_CREATE, ro), -EFAULT);
	munmap(ro, 4096);
	ro = ro_copy(&qreq, sizeof(qreq));
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, ro), -EFAULT);
	munmap(ro, 4096);
	ck_assert_int_eq(queues(npu), 1);
	close(fd);
	munmap(g.host, BUF);
	ck_assert(t_state_back(&start));
}
END_TEST

START_TEST(test_alloc_copy_out_vs_free)
{
	struct npu_dma_mem_alloc req = { .size = BUF,
					 .policy = NPU_DMA_MEM_NORMAL_ONLY };
	struct drm_gem_close gc = { 0 };
	int npu = nr_npus - 1, fd;
	uint64_t before, addr, again;
	struct t_state start;
	uint32_t h;
	long wins;
	void *ro;

	ck_assert_int_gt(nr_npus, 0);
	t_state_get(&start, nr_npus);
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	before = mem_free(npu);
	/* First fit and the lowest handle: what the failing creates take. */
	ck_assert_int_eq(npu_raw_alloc(fd, BUF, req.policy, &addr, &h), 0);
	ck_assert_int_eq(npu_raw_free(fd, h), 0);
	gc.handle = h;
	ro = ro_copy(&req, sizeof(req));

	wins = race(fd, DRM_IOCTL_NPU_DMA_MEM_ALLOC, ro, DRM_IOCTL_GEM_CLOSE, &gc,
		    sizeof(gc), EINVAL);
	/*
	 * Each racer's win freed one unanswered allocation; every other one
	 * is still the file's (when the NPU had room for them all).
	 */
	if ((uint64_t)ROUNDS * BUF <= before)
		ck_assert_uint_eq(mem_free(npu), before - (uint64_t)(ROUNDS - wins) * BUF);
	else
		printf("t_undo_race: NPU %d too small to count the allocations\n", npu);
	close(fd);
	ck_assert_msg(t_state_back(&start), "unanswered allocations outlived their file");
	/* Nothing of them holds the address or the handle. */
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, BUF, req.policy, &again, &h), 0);
	ck_assert_uint_eq(again, addr);
	ck_assert_uint_eq(h, gc.handle);
	ck_assert_int_eq(npu_raw_free(fd, h), 0);
	munmap(ro, 4096);
	close(fd);
}
END_TEST

START_TEST(test_graph_create_copy_out_vs_destroy)
{
	struct npu_dma_graph_destroy gd = { 0 };
	int npu = nr_npus - 1, fd;
	struct t_state start;
	struct graph_env g;
	uint32_t id;
	void *ro;

	ck_assert_int_gt(nr_npus, 0);
	t_state_get(&start, nr_npus);
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	graph_env(fd, &g);
	/* Lowest free id: the one the failing creates will take. */
	ck_assert_int_eq(graph_create(fd, &g.req), 0);
	id = g.req.graph_id;
	ck_assert_int_eq(graph_destroy(fd, id), 0);
	g.req.graph_id = 0;
	gd.graph_id = id;
	ro = ro_copy(&g.req, sizeof(g.req));

	race(fd, DRM_IOCTL_NPU_DMA_GRAPH_CREATE, ro, DRM_IOCTL_NPU_DMA_GRAPH_DESTROY,
	     &gd, sizeof(gd), ENOENT);
	/* The graphs left hold the registration's pins until the file goes. */
	ck_assert_int_eq(npu_raw_unregister(fd, g.host), 0);
	close(fd);
	munmap(g.host, BUF);
	ck_assert_msg(t_state_back(&start), "unanswered graphs outlived their file");
	/* A new file's first graph takes the same id again. */
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	graph_env(fd, &g);
	ck_assert_int_eq(graph_create(fd, &g.req), 0);
	ck_assert_uint_eq(g.req.graph_id, id);
	ck_assert_int_eq(graph_destroy(fd, id), 0);
	munmap(ro, 4096);
	close(fd);
	munmap(g.host, BUF);
	ck_assert(t_state_back(&start));
}
END_TEST

/* Queue ids are global and the lowest free: predictable too. */
START_TEST(test_queue_create_copy_out_vs_destroy)
{
	struct npu_dma_queue_create req = { .entries = 16, .eventfd = -1 };
	struct npu_dma_queue_destroy qd = { 0 };
	int npu = nr_npus - 1, fd, n;
	struct npu_raw_queue q;
	struct t_state start;
	uint32_t id;
	void *ro;

	ck_assert_int_gt(nr_npus, 0);
	t_state_get(&start, nr_npus);
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	id = q.id;
	npu_raw_queue_destroy(&q);
	qd.queue_id = id;
	ro = ro_copy(&req, sizeof(req));

	race(fd, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, ro, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY,
	     &qd, sizeof(qd), ENOENT);
	/* No more than a file's 64 queues, however many creates ran. */
	n = queues(npu);
	ck_assert_int_le(n, 64);
	close(fd);
	ck_assert_msg(t_state_back(&start), "%d unanswered queues outlived their file", n);
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
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
	tcase_add_test(tc, test_unanswered_create_belongs_to_the_file);
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
