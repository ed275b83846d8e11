// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: graphs (DRM_IOCTL_NPU_DMA_GRAPH_CREATE, NPU_DMA_OP_GRAPH). A list
 * validated once and replayed many times moves the right bytes, takes a
 * sequence number per task, parks at its barriers and waits, reports a
 * task's failure at that task's sequence number, refuses what a graph may
 * not hold, and never writes memory freed since it was made.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_state.h"
#include "t_vm.h"

#define BUF (64 * 1024)
#define CHUNK 4096

static struct npu_dma_info infos[T_STATE_NPUS];
static int nr_npus;

static void setup(void)
{
	nr_npus = t_find_npus(infos, T_STATE_NPUS);
}

/* The last NPU: a sim one when the VM has any. */
struct g_npu {
	int fd;
	uint64_t dev;
	uint8_t *host;
	struct npu_raw_queue q;
};

static void g_open(struct g_npu *n)
{
	ck_assert_int_gt(nr_npus, 0);
	n->fd = npu_raw_open(nr_npus - 1);
	ck_assert_int_ge(n->fd, 0);
	ck_assert_int_eq(npu_raw_alloc(n->fd, BUF, NPU_DMA_MEM_NORMAL_ONLY, &n->dev, NULL), 0);
	n->host = mmap(NULL, BUF, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ck_assert_ptr_ne(n->host, MAP_FAILED);
	ck_assert_int_eq(npu_raw_register(n->fd, n->host, BUF, 0), 0);
	ck_assert_int_eq(npu_raw_queue_create(n->fd, 64, &n->q), 0);
}

static void g_close(struct g_npu *n)
{
	npu_raw_queue_destroy(&n->q);
	close(n->fd);
	munmap(n->host, BUF);
}

static int g_create(int fd, const struct npu_dma_desc *d, uint32_t count,
		    uint32_t *id, uint32_t *bad)
{
	struct npu_dma_graph_create c = { .descs = (uintptr_t)d, .count = count };
	int ret = npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_GRAPH_CREATE, &c);

	if (id)
		*id = c.graph_id;
	if (bad)
		*bad = c.error_index;
	return ret;
}

static int g_destroy(int fd, uint32_t id)
{
	struct npu_dma_graph_destroy d = { .graph_id = id };

	return npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_GRAPH_DESTROY, &d);
}

/* Push a GRAPH descriptor naming @id with task count @count, ring. */
static void g_replay(struct npu_raw_queue *q, uint32_t id, uint32_t count)
{
	struct npu_dma_desc d = { .opcode = NPU_DMA_OP_GRAPH, .value = id,
				  .len = count };

	npu_raw_push(q, &d);
	ck_assert_int_eq(npu_raw_submit(q), 1);
}

static uint64_t completed(struct npu_raw_queue *q)
{
	return __atomic_load_n(&q->ctrl->completed_seq, __ATOMIC_ACQUIRE);
}

/*
 * host[0..4K) -H2D-> dev[0..4K) -D2D-> dev[4K..8K), fill dev[8K..12K),
 * record event slot 7, dev[4K..12K) -D2H-> host[16K..24K).
 */
static uint32_t g_pipeline(struct g_npu *n, struct npu_dma_desc *d)
{
	d[0] = npu_raw_copy(n->dev, (uintptr_t)n->host, CHUNK, NPU_DMA_DESC_F_SRC_HOST);
	d[1] = npu_raw_copy(n->dev + CHUNK, n->dev, CHUNK, 0);
	d[2] = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_FILL, .fill_size = 4,
				      .dst = n->dev + 2 * CHUNK, .len = CHUNK };
	d[3] = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_EVENT_RECORD, .dst = 7 };
	d[4] = npu_raw_copy((uintptr_t)n->host + 4 * CHUNK, n->dev + CHUNK,
			    2 * CHUNK, NPU_DMA_DESC_F_DST_HOST);
	return 5;
}

/* 200 replays, each with new input and fill value, each checked. */
START_TEST(test_replay_moves_the_bytes)
{
	struct npu_dma_desc d[5];
	struct npu_dma_info info;
	struct npu_dma_event_slot *ev;
	struct g_npu n;
	uint32_t id, count, i;
	size_t ev_size;
	uint64_t seq;

	g_open(&n);
	ck_assert_int_eq(npu_raw_info(n.fd, &info), 0);
	ck_assert(info.caps & NPU_DMA_CAP_GRAPH);
	ck_assert_uint_ge(info.max_graph_tasks, 1024);
	ev = npu_raw_map_events(n.fd, &ev_size);
	ck_assert_ptr_ne(ev, MAP_FAILED);
	count = g_pipeline(&n, d);
	ck_assert_int_eq(g_create(n.fd, d, count, &id, NULL), 0);
	ck_assert_uint_ne(id, 0);
	for (i = 0; i < 200; i++) {
		uint32_t *fill = (uint32_t *)(n.host + 5 * CHUNK);

		t_pattern_fill(n.host, CHUNK, i);
		/* The fill value is fixed in the graph (0): check it is. */
		memset(n.host + 4 * CHUNK, 0xee, 2 * CHUNK);
		g_replay(&n.q, id, count);
		/* A replay takes a sequence number per task. */
		seq = (uint64_t)i * count + 1;
		ck_assert_int_eq(npu_raw_wait(&n.q, seq + count - 1, 20000), 0);
		ck_assert_uint_eq(completed(&n.q), (uint64_t)(i + 1) * count);
		ck_assert_uint_eq(n.q.ctrl->submitted_seq, (uint64_t)(i + 1) * count);
		ck_assert_msg(!memcmp(n.host + 4 * CHUNK, n.host, CHUNK),
			      "replay %u: data", i);
		ck_assert_uint_eq(t_bytes_check(fill, CHUNK, 0), CHUNK);
		ck_assert_uint_eq(ev[7].seq, seq + 3);
		ck_assert_uint_eq(ev[7].queue_id, n.q.id);
	}
	ck_assert_uint_eq(n.q.ctrl->error_count, 0);
	ck_assert_int_eq(g_destroy(n.fd, id), 0);
	ck_assert_int_eq(g_destroy(n.fd, id), -ENOENT);
	/* Replaying a destroyed graph fails at its doorbell position. */
	g_replay(&n.q, id, count);
	ck_assert_int_eq(npu_raw_wait(&n.q, n.q.ctrl->submitted_seq, 20000), 0);
	ck_assert_uint_eq(n.q.ctrl->error_count, 1);
	ck_assert_int_eq(n.q.ctrl->last_error, -ENOENT);
	ck_assert_uint_eq(n.q.ctrl->last_error_seq, 200 * count + 1);
	munmap(ev, ev_size);
	g_close(&n);
}
END_TEST

struct bad_graph {
	const char *what;
	int err;
	uint32_t index;
	struct npu_dma_desc d;
};

/* Every graph here is NOP, the bad descriptor, NOP. */
START_TEST(test_create_refuses)
{
	const struct bad_graph bad[] = {
		{ "pageable source", -EINVAL, 1, { .opcode = NPU_DMA_OP_COPY,
		  .flags = NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE,
		  .src = 4096, .dst = 0, .len = 16 } },
		{ "nested graph", -EINVAL, 1, { .opcode = NPU_DMA_OP_GRAPH,
		  .value = 1, .len = 1 } },
		{ "unknown opcode", -EINVAL, 1, { .opcode = NPU_DMA_OP_MAX + 1 } },
		{ "unallocated device address", -EFAULT, 1,
		  { .opcode = NPU_DMA_OP_FILL, .fill_size = 1, .dst = 1, .len = 1 } },
		{ "batch end without begin", -EINVAL, 1,
		  { .opcode = NPU_DMA_OP_BATCH_END } },
		{ "unknown wait queue", -ENOENT, 1, { .opcode = NPU_DMA_OP_WAIT,
		  .wait_queue = 0xfffff, .value = 1 } },
	};
	struct npu_dma_graph_create c;
	struct npu_dma_desc d[3] = { { 0 } };
	struct g_npu n;
	uint32_t i, badi;

	g_open(&n);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		d[1] = bad[i].d;
		ck_assert_msg(g_create(n.fd, d, 3, NULL, &badi) == bad[i].err,
			      "%s", bad[i].what);
		ck_assert_msg(badi == bad[i].index, "%s: index %u", bad[i].what, badi);
	}
	/* The header: count, flags, reserved, a bad pointer. */
	ck_assert_int_eq(g_create(n.fd, d, 0, NULL, NULL), -EINVAL);
	ck_assert_int_eq(g_create(n.fd, d, 65537, NULL, NULL), -EINVAL);
	c = (struct npu_dma_graph_create){ .descs = (uintptr_t)d, .count = 1, .flags = 1 };
	ck_assert_int_eq(npu_raw_ioctl(n.fd, DRM_IOCTL_NPU_DMA_GRAPH_CREATE, &c), -EINVAL);
	c = (struct npu_dma_graph_create){ .descs = (uintptr_t)d, .count = 1,
					   .reserved = { 0, 1 } };
	ck_assert_int_eq(npu_raw_ioctl(n.fd, DRM_IOCTL_NPU_DMA_GRAPH_CREATE, &c), -EINVAL);
	c = (struct npu_dma_graph_create){ .descs = 16, .count = 1 };
	ck_assert_int_eq(npu_raw_ioctl(n.fd, DRM_IOCTL_NPU_DMA_GRAPH_CREATE, &c), -EFAULT);
	ck_assert_int_eq(g_destroy(n.fd, 0), -ENOENT);
	g_close(&n);
}
END_TEST

/* A GRAPH descriptor whose @len is not the graph's count fails, and
 * still takes @len sequence numbers (user space counted them). */
START_TEST(test_wrong_count)
{
	struct npu_dma_desc d[4] = { { 0 } };
	struct g_npu n;
	uint32_t id;

	g_open(&n);
	ck_assert_int_eq(g_create(n.fd, d, 4, &id, NULL), 0);
	g_replay(&n.q, id, 3);
	ck_assert_int_eq(npu_raw_wait(&n.q, 3, 20000), 0);
	ck_assert_uint_eq(n.q.ctrl->submitted_seq, 3);
	ck_assert_int_eq(n.q.ctrl->error, -EINVAL);
	ck_assert_uint_eq(n.q.ctrl->error_seq, 1);
	g_close(&n);
}
END_TEST

/*
 * Graph ids are 32 bits in a 64-bit field: an id with high bits set
 * names no graph, not the graph of its low 32 bits. The four tasks fill
 * dev[0..4K): a wrong replay would change it.
 */
START_TEST(test_id_high_bits)
{
	struct npu_dma_desc d[4];
	struct npu_dma_desc r;
	uint8_t back[CHUNK];
	struct g_npu n;
	uint32_t id, i;

	g_open(&n);
	for (i = 0; i < 4; i++)
		d[i] = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_FILL,
					      .fill_size = 1, .value = 0xa5,
					      .dst = n.dev + i * 1024, .len = 1024 };
	ck_assert_int_eq(g_create(n.fd, d, 4, &id, NULL), 0);
	r = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_GRAPH, .len = 4,
				   .value = id | (1ULL << 32) };
	npu_raw_push(&n.q, &r);
	ck_assert_int_eq(npu_raw_submit(&n.q), 1);
	ck_assert_int_eq(npu_raw_wait(&n.q, 4, 20000), 0);
	ck_assert_int_eq(n.q.ctrl->error, -EINVAL);
	ck_assert_uint_eq(n.q.ctrl->error_seq, 1);
	r = npu_raw_copy((uintptr_t)n.host, n.dev, CHUNK, NPU_DMA_DESC_F_DST_HOST);
	ck_assert_int_eq(npu_raw_run(&n.q, &r), 0);
	memcpy(back, n.host, CHUNK);
	ck_assert_uint_eq(t_bytes_check(back, CHUNK, 0), CHUNK);
	g_close(&n);
}
END_TEST

/*
 * A replay parks at its HOST_BARRIER with the tasks before it complete,
 * and the barrier's own sequence number is the one to release.
 */
START_TEST(test_barrier_inside)
{
	struct npu_dma_desc d[4];
	struct g_npu n;
	uint32_t id;

	g_open(&n);
	t_pattern_fill(n.host, CHUNK, 5);
	d[0] = npu_raw_copy(n.dev, (uintptr_t)n.host, CHUNK, NPU_DMA_DESC_F_SRC_HOST);
	d[1] = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_HOST_BARRIER };
	d[2] = npu_raw_copy((uintptr_t)n.host + CHUNK, n.dev, CHUNK,
			    NPU_DMA_DESC_F_DST_HOST);
	d[3] = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_NOP };
	ck_assert_int_eq(g_create(n.fd, d, 4, &id, NULL), 0);
	g_replay(&n.q, id, 4);
	ck_assert_uint_eq(npu_raw_wait_barrier(&n.q, 10000), 2);
	ck_assert_uint_eq(completed(&n.q), 1);
	usleep(50000);
	ck_assert_uint_eq(completed(&n.q), 1);	/* held */
	ck_assert_int_eq(npu_raw_release(&n.q, 2), 0);
	ck_assert_int_eq(npu_raw_wait(&n.q, 4, 20000), 0);
	ck_assert_uint_eq(n.q.ctrl->barrier_seq, 0);
	ck_assert(!memcmp(n.host + CHUNK, n.host, CHUNK));
	g_close(&n);
}
END_TEST

/* A WAIT task holds the replay until the other queue gets there. */
START_TEST(test_wait_inside)
{
	struct npu_dma_desc d[2], b = { .opcode = NPU_DMA_OP_HOST_BARRIER };
	struct npu_raw_queue other;
	struct g_npu n;
	uint64_t bseq;
	uint32_t id;

	g_open(&n);
	ck_assert_int_eq(npu_raw_queue_create(n.fd, 16, &other), 0);
	bseq = npu_raw_push(&other, &b);
	ck_assert_int_eq(npu_raw_submit(&other), 1);
	d[0] = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_WAIT,
				      .wait_queue = other.id, .value = bseq };
	d[1] = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_NOP };
	ck_assert_int_eq(g_create(n.fd, d, 2, &id, NULL), 0);
	g_replay(&n.q, id, 2);
	usleep(100000);
	ck_assert_uint_eq(completed(&n.q), 0);
	ck_assert_uint_eq(npu_raw_wait_barrier(&other, 10000), bseq);
	ck_assert_int_eq(npu_raw_release(&other, bseq), 0);
	ck_assert_int_eq(npu_raw_wait(&n.q, 2, 20000), 0);
	ck_assert_uint_eq(n.q.ctrl->error_count, 0);
	npu_raw_queue_destroy(&other);
	g_close(&n);
}
END_TEST

/*
 * Memory freed after the graph was made: its task fails with -EFAULT at
 * its own sequence number, the others still run, and the memory is
 * neither written nor given back until the graph goes.
 */
START_TEST(test_freed_buffer)
{
	struct npu_dma_desc d[3];
	struct npu_dma_info before, during, after;
	uint32_t id, extra_h;
	uint64_t extra;
	struct g_npu n;

	g_open(&n);
	ck_assert_int_eq(npu_raw_alloc(n.fd, 1 << 20, NPU_DMA_MEM_NORMAL_ONLY, &extra,
				       &extra_h), 0);
	t_pattern_fill(n.host, CHUNK, 9);
	d[0] = npu_raw_copy(n.dev, (uintptr_t)n.host, CHUNK, NPU_DMA_DESC_F_SRC_HOST);
	d[1] = npu_raw_copy(extra, n.dev, CHUNK, 0);
	d[2] = npu_raw_copy((uintptr_t)n.host + CHUNK, n.dev, CHUNK,
			    NPU_DMA_DESC_F_DST_HOST);
	ck_assert_int_eq(g_create(n.fd, d, 3, &id, NULL), 0);
	ck_assert_int_eq(npu_raw_info(n.fd, &before), 0);
	ck_assert_int_eq(npu_raw_free(n.fd, extra_h), 0);
	ck_assert_int_eq(npu_raw_info(n.fd, &during), 0);
	ck_assert_uint_eq(during.mem_free, before.mem_free);	/* still held */
	g_replay(&n.q, id, 3);
	ck_assert_int_eq(npu_raw_wait(&n.q, 3, 20000), 0);
	ck_assert_uint_eq(n.q.ctrl->error_count, 1);
	ck_assert_int_eq(n.q.ctrl->error, -EFAULT);
	ck_assert_uint_eq(n.q.ctrl->error_seq, 2);
	ck_assert(!memcmp(n.host + CHUNK, n.host, CHUNK));
	ck_assert_int_eq(g_destroy(n.fd, id), 0);
	ck_assert_int_eq(npu_raw_info(n.fd, &after), 0);
	ck_assert_uint_eq(after.mem_free, before.mem_free + (1 << 20));
	g_close(&n);
}
END_TEST

/*
 * A graph holds its registrations pinned after they are unregistered,
 * until it is destroyed, or until the file is closed.
 */
START_TEST(test_graph_holds_pins)
{
	struct npu_dma_desc d = { .opcode = NPU_DMA_OP_COPY,
				  .flags = NPU_DMA_DESC_F_SRC_HOST, .len = CHUNK };
	long pins0 = t_pins_held();
	struct g_npu n;
	uint32_t id;

	g_open(&n);
	d.src = (uintptr_t)n.host;
	d.dst = n.dev;
	ck_assert_int_eq(g_create(n.fd, &d, 1, &id, NULL), 0);
	ck_assert_int_eq(npu_raw_unregister(n.fd, n.host), 0);
	ck_assert_int_gt(t_pins_held(), pins0);
	ck_assert_int_eq(g_destroy(n.fd, id), 0);
	ck_assert_int_eq(t_pins_held(), pins0);
	ck_assert_int_eq(npu_raw_register(n.fd, n.host, BUF, 0), 0);
	ck_assert_int_eq(g_create(n.fd, &d, 1, &id, NULL), 0);
	g_close(&n);
	ck_assert_int_eq(t_pins_held(), pins0);
}
END_TEST

/* One graph replayed on two queues at once, 50 times each. */
START_TEST(test_two_queues)
{
	struct npu_dma_desc d[5];
	struct npu_raw_queue q2;
	struct g_npu n;
	uint32_t id, count;
	int i;

	g_open(&n);
	ck_assert_int_eq(npu_raw_queue_create(n.fd, 64, &q2), 0);
	t_pattern_fill(n.host, CHUNK, 3);
	count = g_pipeline(&n, d);
	ck_assert_int_eq(g_create(n.fd, d, count, &id, NULL), 0);
	for (i = 0; i < 50; i++) {
		g_replay(&n.q, id, count);
		g_replay(&q2, id, count);
		if (i % 10 == 9) {
			ck_assert_int_eq(npu_raw_wait(&n.q, (i + 1) * count, 20000), 0);
			ck_assert_int_eq(npu_raw_wait(&q2, (i + 1) * count, 20000), 0);
		}
	}
	ck_assert_uint_eq(n.q.ctrl->error_count + q2.ctrl->error_count, 0);
	ck_assert(!memcmp(n.host + 4 * CHUNK, n.host, CHUNK));
	/* Destroyed while nothing runs; the queues keep working. */
	ck_assert_int_eq(g_destroy(n.fd, id), 0);
	npu_raw_queue_destroy(&q2);
	g_close(&n);
}
END_TEST

static Suite *graph_suite(void)
{
	Suite *s = suite_create("t_graph");
	TCase *tc = tcase_create("graph");

	tcase_set_timeout(tc, 300);
	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_replay_moves_the_bytes);
	tcase_add_test(tc, test_create_refuses);
	tcase_add_test(tc, test_wrong_count);
	tcase_add_test(tc, test_id_high_bits);
	tcase_add_test(tc, test_barrier_inside);
	tcase_add_test(tc, test_wait_inside);
	tcase_add_test(tc, test_freed_buffer);
	tcase_add_test(tc, test_graph_holds_pins);
	tcase_add_test(tc, test_two_queues);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (!npu_raw_present())
		return T_EXIT_SKIP;
	return t_run_suite(graph_suite());
}
