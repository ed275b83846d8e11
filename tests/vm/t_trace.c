// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: observability. The npu_dma tracepoints follow a copy's life
 * (pin, submit, start on a channel, complete, unpin; error; edu
 * interrupts); dynamic debug prints every descriptor; the per-NPU debugfs
 * files list queues, allocations and pins and count what happened.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_vm.h"

#define TRACING "/sys/kernel/tracing"
#define DBGFS "/sys/kernel/debug/npu_dma"
#define DYNDBG "/sys/kernel/debug/dynamic_debug/control"

/* The whole of a (possibly large) text file, malloc'ed. */
static char *slurp(const char *path)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert_ptr_nonnull(buf);
	ck_assert_msg(f != NULL, "cannot open %s", path);
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
			ck_assert_ptr_nonnull(buf);
		}
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static int npu_of(uint32_t backend)
{
	struct npu_dma_info info;
	int i, fd;

	for (i = 0; (fd = npu_raw_open(i)) >= 0; i++) {
		ck_assert_int_eq(npu_raw_info(fd, &info), 0);
		close(fd);
		if (info.backend == backend)
			return i;
	}
	return -1;
}

/* A pageable H2D copy, a registered D2H copy and one bad descriptor. */
static void some_work(int npu, uint32_t *queue_id)
{
	uint8_t *buf = mmap(NULL, 16384, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	struct npu_dma_desc d;
	struct npu_raw_queue q;
	uint64_t dev;
	int fd = npu_raw_open(npu);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, 8192, NPU_DMA_MEM_NORMAL_ONLY, &dev, NULL), 0);
	ck_assert_int_eq(npu_raw_register(fd, buf + 8192, 8192, 0), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	*queue_id = q.id;
	d = npu_raw_copy(dev, (uintptr_t)buf, 4096,
			 NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE);
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	d = npu_raw_copy((uintptr_t)buf + 8192, dev, 4096, NPU_DMA_DESC_F_DST_HOST);
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	d = npu_raw_copy(dev, dev + 8192, 8, 0);
	ck_assert_int_eq(npu_raw_run(&q, &d), -EFAULT);
	npu_raw_queue_destroy(&q);
	close(fd);
	munmap(buf, 16384);
}

static void assert_has(const char *text, const char *what)
{
	ck_assert_msg(strstr(text, what) != NULL, "no '%s' in:\n%.2000s", what, text);
}

START_TEST(test_tracepoints_follow_a_copy)
{
	int npu = _i ? npu_of(NPU_DMA_BACKEND_EDU) : npu_of(NPU_DMA_BACKEND_SIM);
	char want[128], *log;
	uint32_t id;

	T_SKIP_UNLESS(npu >= 0, "no %s NPU", _i ? "edu" : "sim");
	ck_assert_int_eq(t_write_file(TRACING "/trace", ""), 0);
	ck_assert_int_eq(t_write_file(TRACING "/events/npu_dma/enable", "1"), 0);
	some_work(npu, &id);
	ck_assert_int_eq(t_write_file(TRACING "/events/npu_dma/enable", "0"), 0);
	log = slurp(TRACING "/trace");

	snprintf(want, sizeof(want), "npu_dma_submit: npu=%d queue=%u seq=1 op=1 flags=0x5 bytes=4096",
		 npu, id);
	assert_has(log, want);
	snprintf(want, sizeof(want), "npu_dma_start: npu=%d queue=%u seq=1 op=1 flags=0x5 bytes=4096 chan=0",
		 npu, id);
	assert_has(log, want);
	snprintf(want, sizeof(want), "npu_dma_complete: npu=%d queue=%u seq=2 op=1 flags=0x2 bytes=4096",
		 npu, id);
	assert_has(log, want);
	snprintf(want, sizeof(want), "npu_dma_error: npu=%d queue=%u seq=3 op=1 flags=0x0 bytes=8 chan=-1 status=-14",
		 npu, id);
	assert_has(log, want);
	snprintf(want, sizeof(want), "npu_dma_pin: npu=%d", npu);
	assert_has(log, want);
	assert_has(log, "pages=1 longterm=0");
	assert_has(log, "pages=2 longterm=1");
	snprintf(want, sizeof(want), "npu_dma_unpin: npu=%d", npu);
	assert_has(log, want);
	if (_i) {
		snprintf(want, sizeof(want), "npu_dma_irq: npu=%d status=0x100", npu);
		assert_has(log, want);
	}
	free(log);
}
END_TEST

START_TEST(test_dynamic_debug_prints_descriptors)
{
	int npu = npu_of(NPU_DMA_BACKEND_SIM);
	char mark[128], want[128], *log;
	uint32_t id;

	if (npu < 0)
		npu = 0;
	ck_assert_int_eq(t_kmsg_mark(mark, sizeof(mark)), 0);
	ck_assert_int_eq(t_write_file(DYNDBG, "module npu_dma +p"), 0);
	some_work(npu, &id);
	ck_assert_int_eq(t_write_file(DYNDBG, "module npu_dma -p"), 0);
	log = t_kmsg_since(mark);
	ck_assert_ptr_nonnull(log);
	snprintf(want, sizeof(want), "queue %u seq 1: op 1 flags 0x5", id);
	assert_has(log, want);
	snprintf(want, sizeof(want), "queue %u seq 1: start on channel 0", id);
	assert_has(log, want);
	snprintf(want, sizeof(want), "queue %u seq 2: complete: 0", id);
	assert_has(log, want);
	snprintf(want, sizeof(want), "queue %u seq 3: complete: -14", id);
	assert_has(log, want);
	free(log);
}
END_TEST

static long counter(int npu, const char *name)
{
	char path[128], *text, *p;
	long v = -1;

	snprintf(path, sizeof(path), DBGFS "/npu_dma%d/counters", npu);
	text = slurp(path);
	p = strstr(text, name);
	ck_assert_ptr_nonnull(p);
	sscanf(p + strlen(name), " %ld", &v);
	free(text);
	return v;
}

START_TEST(test_debugfs_lists_and_counts)
{
	int npu = npu_of(NPU_DMA_BACKEND_SIM);
	long sub = counter(npu < 0 ? 0 : npu, "submitted");
	long bytes = counter(npu < 0 ? 0 : npu, "bytes");
	long failed = counter(npu < 0 ? 0 : npu, "failed");
	char path[128], want[128], *text;
	struct npu_raw_queue q;
	uint8_t *buf;
	uint64_t dev;
	uint32_t id;
	int fd;

	if (npu < 0)
		npu = 0;
	some_work(npu, &id);
	ck_assert_int_eq(counter(npu, "submitted") - sub, 3);
	ck_assert_int_eq(counter(npu, "bytes") - bytes, 8192);
	ck_assert_int_eq(counter(npu, "failed") - failed, 1);
	ck_assert_int_eq(counter(npu, "pins"), counter(npu, "unpins"));

	fd = npu_raw_open(npu);
	buf = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, 4096, NPU_DMA_MEM_NORMAL_ONLY, &dev, NULL), 0);
	ck_assert_int_eq(npu_raw_register(fd, buf, 8192, NPU_DMA_HOST_F_READONLY), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 32, &q), 0);

	snprintf(path, sizeof(path), DBGFS "/npu_dma%d/queues", npu);
	text = slurp(path);
	snprintf(want, sizeof(want), "%d %u 32 0 0 0 0\n", (int)getpid(), q.id);
	assert_has(text, want);
	free(text);
	snprintf(path, sizeof(path), DBGFS "/npu_dma%d/allocations", npu);
	text = slurp(path);
	snprintf(want, sizeof(want), "%d 0x%llx 4096\n", (int)getpid(),
		 (unsigned long long)dev);
	assert_has(text, want);
	free(text);
	snprintf(path, sizeof(path), DBGFS "/npu_dma%d/pins", npu);
	text = slurp(path);
	snprintf(want, sizeof(want), "%d %p 8192 2 0\n", (int)getpid(), (void *)buf);
	assert_has(text, want);
	free(text);

	npu_raw_queue_destroy(&q);
	close(fd);
	text = slurp(path);
	ck_assert_str_eq(text, "pid address size pages writable\n");
	free(text);
}
END_TEST

static Suite *trace_suite(void)
{
	Suite *s = suite_create("t_trace");
	TCase *tc = tcase_create("trace");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_tracepoints_follow_a_copy, 0, 2);
	tcase_add_test(tc, test_dynamic_debug_prints_descriptors);
	tcase_add_test(tc, test_debugfs_lists_and_counts);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (geteuid() != 0 || !npu_raw_present() || !t_exists(TRACING "/events/npu_dma"))
		return T_EXIT_SKIP;
	return t_run_suite(trace_suite());
}
