// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: kernel memory that user space sizes is charged to its memory
 * cgroup, and per-file budgets bound what one file can hold.
 *
 * Each test moves itself (Check runs each in its own process) into a new
 * child cgroup with the memory controller and watches memory.current:
 * it rises by at least what a graph's task array, a file's event table,
 * queue areas or simulated device memory take, and falls when they are
 * freed. With memory.max just above memory.current, making them fails
 * with -ENOMEM (not the cgroup's OOM killer, which would end the test).
 * The graph budget (graph_tasks_per_file) answers -ENOSPC, per file.
 *
 * Without cgroup2 or its memory controller the test exits 77 (skip).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_state.h"
#include "t_vm.h"

#define CG_ROOT "/sys/fs/cgroup"
#define MIB (1024 * 1024ULL)
#define SIM_BYTES (32 * MIB)
#define QUEUES 32
#define QUEUE_ENTRIES 4096
#define FILES 64

static struct npu_dma_info infos[T_STATE_NPUS];
static int nr_npus;
static char cg_dir[128];

static void setup(void)
{
	nr_npus = t_find_npus(infos, T_STATE_NPUS);
	ck_assert_int_gt(nr_npus, 0);
}

/* cgroup2 with the memory controller: 1, else 0 (the test skips). */
static int cg_available(void)
{
	char buf[256];

	if (!t_exists(CG_ROOT "/cgroup.controllers") &&
	    mount("none", CG_ROOT, "cgroup2", 0, NULL))
		return 0;
	if (t_read_file(CG_ROOT "/cgroup.controllers", buf, sizeof(buf)) ||
	    !strstr(buf, "memory"))
		return 0;
	return !t_write_file(CG_ROOT "/cgroup.subtree_control", "+memory");
}

/* Move this process into a new child group. */
static void cg_enter(void)
{
	char path[192];

	snprintf(cg_dir, sizeof(cg_dir), CG_ROOT "/t_memcg.%d", (int)getpid());
	ck_assert_int_eq(mkdir(cg_dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg_dir);
	ck_assert_int_eq(t_write_file(path, "0"), 0);
}

static void cg_leave(void)
{
	ck_assert_int_eq(t_write_file(CG_ROOT "/cgroup.procs", "0"), 0);
	ck_assert_int_eq(rmdir(cg_dir), 0);
}

static uint64_t cg_u64(const char *file)
{
	char buf[64];
	uint64_t v;

	ck_assert_int_eq(t_read_attr(buf, sizeof(buf), "%s/%s", cg_dir, file), 0);
	ck_assert_int_eq(t_parse_u64(buf, &v), 0);
	return v;
}

static uint64_t cg_current(void)
{
	return cg_u64("memory.current");
}

/* memory.max: @bytes above what the group uses now, or "max" for 0. */
static void cg_limit(uint64_t headroom)
{
	char path[192], val[32];

	snprintf(path, sizeof(path), "%s/memory.max", cg_dir);
	if (headroom)
		snprintf(val, sizeof(val), "%llu",
			 (unsigned long long)(cg_current() + headroom));
	else
		snprintf(val, sizeof(val), "max");
	ck_assert_int_eq(t_write_file(path, val), 0);
}

/*
 * memory.current moves in per-CPU batches (MEMCG_CHARGE_BATCH, 64 pages a
 * CPU) and with whatever else the group's tasks allocate meanwhile: a
 * charge is asserted to this much less than its size. Every charge tested
 * is 4 MiB or more, so an uncharged allocation still fails.
 */
#define CG_SLACK (1 * MIB)

static void assert_rose(uint64_t before, uint64_t after, uint64_t least,
			const char *what)
{
	least -= CG_SLACK;
	ck_assert_msg(after >= before + least,
		      "%s: memory.current %llu -> %llu, expected a rise of at least %llu",
		      what, (unsigned long long)before, (unsigned long long)after,
		      (unsigned long long)least);
}

/*
 * Wait up to 5 s for the group to use @least bytes less than @before: the
 * last reference to what was freed may be a queue worker's, or a file's
 * release that runs after close(). Return: memory.current then.
 */
static uint64_t cg_fallen(uint64_t before, uint64_t least)
{
	uint64_t now = cg_current();
	int i;

	least -= CG_SLACK;
	for (i = 0; i < 50 && now + least > before; i++) {
		usleep(100000);
		now = cg_current();
	}
	return now;
}

static void assert_fell(uint64_t before, uint64_t after, uint64_t least,
			const char *what)
{
	least -= CG_SLACK;
	ck_assert_msg(after + least <= before,
		      "%s: memory.current %llu -> %llu, expected a fall of at least %llu",
		      what, (unsigned long long)before, (unsigned long long)after,
		      (unsigned long long)least);
}

/* The last NPU, a sim one in the default VM. */
static int sim_npu(void)
{
	int i;

	for (i = nr_npus - 1; i >= 0; i--)
		if (infos[i].backend == NPU_DMA_BACKEND_SIM)
			return i;
	ck_abort_msg("no sim NPU in the VM");
	return -1;
}

static int graph_create(int fd, const struct npu_dma_desc *d, uint32_t count,
			uint32_t *id)
{
	struct npu_dma_graph_create c = { .descs = (uintptr_t)d, .count = count };
	int ret = npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_GRAPH_CREATE, &c);

	*id = c.graph_id;
	return ret;
}

static int graph_destroy(int fd, uint32_t id)
{
	struct npu_dma_graph_destroy d = { .graph_id = id };

	return npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_GRAPH_DESTROY, &d);
}

/* @count event records into slot 0: valid tasks that name no memory. */
static struct npu_dma_desc *graph_descs(uint32_t count)
{
	struct npu_dma_desc *d = calloc(count, sizeof(*d));
	uint32_t i;

	ck_assert_ptr_nonnull(d);
	for (i = 0; i < count; i++)
		d[i].opcode = NPU_DMA_OP_EVENT_RECORD;
	return d;
}

static uint32_t max_tasks(int npu)
{
	return infos[npu].max_graph_tasks < 65536 ? infos[npu].max_graph_tasks : 65536;
}

static unsigned int param_uint(const char *name)
{
	char buf[32];
	uint64_t v;

	ck_assert_msg(!t_read_attr(buf, sizeof(buf), "/sys/module/npu_dma/parameters/%s",
				   name), "no module parameter %s", name);
	ck_assert_int_eq(t_parse_u64(buf, &v), 0);
	return (unsigned int)v;
}

/* A task array is at least one descriptor a task. */
START_TEST(test_graph_tasks_are_charged)
{
	int npu = sim_npu(), fd;
	uint32_t count = max_tasks(npu), id;
	struct npu_dma_desc *d = graph_descs(count);
	uint64_t least = (uint64_t)count * sizeof(*d), c0, c1, c2;

	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	cg_enter();
	c0 = cg_current();
	ck_assert_int_eq(graph_create(fd, d, count, &id), 0);
	c1 = cg_current();
	assert_rose(c0, c1, least, "GRAPH_CREATE");
	ck_assert_int_eq(graph_destroy(fd, id), 0);
	c2 = cg_fallen(c1, least);
	assert_fell(c1, c2, least, "GRAPH_DESTROY");
	close(fd);
	cg_leave();
	free(d);
}
END_TEST

/* A file's event table: opening many files costs their tables. */
START_TEST(test_event_tables_are_charged)
{
	int npu = sim_npu(), fds[FILES], i;
	uint64_t table = (uint64_t)infos[npu].max_event_slots *
			 sizeof(struct npu_dma_event_slot);
	uint64_t c0, c1, c2;

	ck_assert_uint_gt(table, 0);
	cg_enter();
	c0 = cg_current();
	for (i = 0; i < FILES; i++) {
		fds[i] = npu_raw_open(npu);
		ck_assert_int_ge(fds[i], 0);
	}
	c1 = cg_current();
	assert_rose(c0, c1, FILES * table, "open");
	for (i = 0; i < FILES; i++)
		close(fds[i]);
	c2 = cg_fallen(c1, FILES * table);
	assert_fell(c1, c2, FILES * table, "close");
	cg_leave();
}
END_TEST

/* A queue's area holds its ring: entries descriptors. */
START_TEST(test_queue_areas_are_charged)
{
	static struct npu_raw_queue q[QUEUES];
	uint64_t least = (uint64_t)QUEUES * QUEUE_ENTRIES * sizeof(struct npu_dma_desc);
	int npu = sim_npu(), fd, i;
	uint64_t c0, c1, c2;

	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	cg_enter();
	c0 = cg_current();
	for (i = 0; i < QUEUES; i++)
		ck_assert_int_eq(npu_raw_queue_create(fd, QUEUE_ENTRIES, &q[i]), 0);
	c1 = cg_current();
	assert_rose(c0, c1, least, "QUEUE_CREATE");
	for (i = 0; i < QUEUES; i++)
		npu_raw_queue_destroy(&q[i]);
	c2 = cg_fallen(c1, least);
	assert_fell(c1, c2, least, "QUEUE_DESTROY");
	close(fd);
	cg_leave();
}
END_TEST

static struct npu_dma_desc fill_desc(uint64_t dst, uint64_t len)
{
	return (struct npu_dma_desc){ .opcode = NPU_DMA_OP_FILL, .fill_size = 4,
				      .value = 0x5a5a5a5a, .dst = dst, .len = len };
}

/*
 * A sim NPU backs its memory on first access, in a queue's worker: the
 * pages are still the allocating process's.
 */
START_TEST(test_sim_pages_are_charged_to_the_allocator)
{
	int npu = sim_npu(), fd;
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	uint64_t dev, c0, c1, c2;
	uint32_t h;

	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 64, &q), 0);
	cg_enter();
	c0 = cg_current();
	ck_assert_int_eq(npu_raw_alloc(fd, SIM_BYTES, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h), 0);
	d = fill_desc(dev, SIM_BYTES);
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	c1 = cg_current();
	assert_rose(c0, c1, SIM_BYTES, "FILL of new sim memory");
	ck_assert_int_eq(npu_raw_free(fd, h), 0);
	c2 = cg_fallen(c1, SIM_BYTES);
	assert_fell(c1, c2, SIM_BYTES, "GEM_CLOSE");
	npu_raw_queue_destroy(&q);
	close(fd);
	cg_leave();
}
END_TEST

/*
 * Over memory.max each fails with -ENOMEM, and the process lives on;
 * with the limit lifted the same requests succeed.
 */
START_TEST(test_limit_fails_with_enomem)
{
	static struct npu_raw_queue q[QUEUES];
	int npu = sim_npu(), fd, i, ret = 0;
	uint32_t count = max_tasks(npu), id;
	struct npu_dma_desc *d = graph_descs(count), f;
	struct npu_raw_queue fq;
	uint64_t dev;
	uint32_t h;

	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 64, &fq), 0);
	cg_enter();
	cg_limit(2 * MIB);

	ck_assert_int_eq(graph_create(fd, d, count, &id), -ENOMEM);
	for (i = 0; i < QUEUES && !ret; i++)
		ret = npu_raw_queue_create(fd, QUEUE_ENTRIES, &q[i]);
	ck_assert_int_eq(ret, -ENOMEM);
	while (--i > 0)
		npu_raw_queue_destroy(&q[i - 1]);
	ck_assert_int_eq(npu_raw_alloc(fd, SIM_BYTES, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h), 0);
	f = fill_desc(dev, SIM_BYTES);
	ck_assert_int_eq(npu_raw_run(&fq, &f), -ENOMEM);
	ck_assert_int_eq(npu_raw_free(fd, h), 0);

	cg_limit(0);
	ck_assert_int_eq(graph_create(fd, d, count, &id), 0);
	ck_assert_int_eq(npu_raw_alloc(fd, SIM_BYTES, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h), 0);
	f = fill_desc(dev, SIM_BYTES);
	ck_assert_int_eq(npu_raw_run(&fq, &f), 0);
	npu_raw_queue_destroy(&fq);
	close(fd);
	cg_leave();
	free(d);
}
END_TEST

/*
 * graph_tasks_per_file bounds the tasks of one file's graphs: beyond it
 * -ENOSPC, until a graph is destroyed; another file has its own budget.
 */
START_TEST(test_graph_task_budget_per_file)
{
	int npu = sim_npu(), fd, fd2;
	unsigned int budget = param_uint("graph_tasks_per_file");
	uint32_t count = max_tasks(npu), ids[64], id, n = 0, used = 0;
	struct npu_dma_desc *d = graph_descs(count);

	ck_assert_uint_gt(param_uint("graphs_per_file"), 0);
	ck_assert_uint_le(budget / count, 64 - 1);
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	while (used + count <= budget) {
		ck_assert_int_eq(graph_create(fd, d, count, &ids[n++]), 0);
		used += count;
	}
	if (used < budget) {
		ck_assert_int_eq(graph_create(fd, d, budget - used, &ids[n++]), 0);
		used = budget;
	}
	ck_assert_int_eq(graph_create(fd, d, 1, &id), -ENOSPC);
	fd2 = npu_raw_open(npu);
	ck_assert_int_ge(fd2, 0);
	ck_assert_int_eq(graph_create(fd2, d, 1, &id), 0);
	close(fd2);
	ck_assert_int_eq(graph_destroy(fd, ids[0]), 0);
	ck_assert_int_eq(graph_create(fd, d, 1, &id), 0);
	close(fd);
	free(d);
}
END_TEST

static Suite *memcg_suite(void)
{
	Suite *s = suite_create("t_memcg");
	TCase *tc = tcase_create("memcg");
	TCase *tb = tcase_create("budget");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_graph_tasks_are_charged);
	tcase_add_test(tc, test_event_tables_are_charged);
	tcase_add_test(tc, test_queue_areas_are_charged);
	tcase_add_test(tc, test_sim_pages_are_charged_to_the_allocator);
	tcase_add_test(tc, test_limit_fails_with_enomem);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tb, setup, NULL);
	tcase_set_timeout(tb, 120);
	tcase_add_test(tb, test_graph_task_budget_per_file);
	suite_add_tcase(s, tb);
	return s;
}

int main(void)
{
	if (geteuid() != 0 || !npu_raw_present() || !cg_available())
		return T_EXIT_SKIP;
	if (!t_npu_backend_present("sim")) {
		printf("t_memcg: no sim NPU: skipped\n");
		return T_EXIT_SKIP;
	}
	return t_run_suite(memcg_suite());
}
