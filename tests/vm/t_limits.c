// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: limits and faults. RLIMIT_MEMLOCK charges registrations of
 * unprivileged processes; device memory runs out cleanly and comes back;
 * a process killed in the middle of copies leaves no pinned page and no
 * device memory behind; an edu transfer whose interrupt never comes
 * (fault injection, test_hooks=1) fails with -ETIMEDOUT and the card
 * works afterwards.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_state.h"
#include "t_vm.h"

#define MAX_NPUS 8
#define MOD "npu_dma"
#define LOSE_IRQS "/sys/kernel/debug/npu_dma/edu_lose_irqs"
#define EDU_TIMEOUT "/sys/module/npu_dma/parameters/edu_timeout_ms"

static int nr_npus;
static struct npu_dma_info infos[MAX_NPUS];

static void find_npus(void)
{
	nr_npus = t_find_npus(infos, MAX_NPUS);
}

static int npu_of(uint32_t backend)
{
	int i;

	for (i = 0; i < nr_npus; i++)
		if (infos[i].backend == backend)
			return i;
	return -1;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static uint64_t mem_free(int npu)
{
	struct npu_dma_info info;
	int fd = npu_raw_open(npu);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_info(fd, &info), 0);
	close(fd);
	return info.mem_free;
}

/* VmLck of this process, in kB. */
static long vm_locked_kb(void)
{
	char buf[8192], *p;
	long kb = -1;

	ck_assert_int_eq(t_read_file("/proc/self/status", buf, sizeof(buf)), 0);
	p = strstr(buf, "VmLck:");
	ck_assert_ptr_nonnull(p);
	sscanf(p, "VmLck: %ld", &kb);
	return kb;
}

static void *anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

/*
 * Registrations of a process without CAP_IPC_LOCK are charged to its
 * locked memory and refused past RLIMIT_MEMLOCK; unregistering refunds.
 * Runs in the test's own (forked) process, which may drop root.
 */
START_TEST(test_rlimit_memlock)
{
	struct rlimit lim = { 64 * 1024, 64 * 1024 };
	uint8_t *buf = anon(256 * 1024);
	int fd = npu_raw_open(nr_npus - 1);

	ck_assert_int_ge(fd, 0);
	/* Root (CAP_IPC_LOCK) is not limited. */
	ck_assert_int_eq(setrlimit(RLIMIT_MEMLOCK, &lim), 0);
	ck_assert_int_eq(npu_raw_register(fd, buf, 256 * 1024, 0), 0);
	ck_assert_int_eq(npu_raw_unregister(fd, buf), 0);

	ck_assert_int_eq(setresgid(65534, 65534, 65534), 0);
	ck_assert_int_eq(setresuid(65534, 65534, 65534), 0);
	ck_assert_int_eq(vm_locked_kb(), 0);
	ck_assert_int_eq(npu_raw_register(fd, buf, 32 * 1024, 0), 0);
	ck_assert_int_eq(vm_locked_kb(), 32);
	/* 32 KiB more fits exactly; one page more does not. */
	ck_assert_int_eq(npu_raw_register(fd, buf + 64 * 1024, 36 * 1024, 0), -ENOMEM);
	ck_assert_int_eq(vm_locked_kb(), 32);
	ck_assert_int_eq(npu_raw_register(fd, buf + 64 * 1024, 32 * 1024, 0), 0);
	ck_assert_int_eq(vm_locked_kb(), 64);
	ck_assert_int_eq(npu_raw_register(fd, buf + 128 * 1024, 1, 0), -ENOMEM);
	/* An unaligned byte range is charged by the pages it touches. */
	ck_assert_int_eq(npu_raw_unregister(fd, buf), 0);
	ck_assert_int_eq(npu_raw_register(fd, buf + 4095, 2, 0), 0);
	ck_assert_int_eq(vm_locked_kb(), 32 + 8);
	/* Closing the file refunds everything. */
	close(fd);
	ck_assert_int_eq(vm_locked_kb(), 0);
}
END_TEST

/* Allocate in sixteenths until -ENOMEM; everything comes back on close. */
START_TEST(test_device_memory_exhaustion)
{
	int npu = _i;
	uint64_t chunk, addr[17], start;
	uint32_t h[17];
	int fd, fd2, n = 0, ret;

	if (npu >= nr_npus)
		return;
	start = mem_free(npu);
	ck_assert_uint_eq(start, infos[npu].mem_size);
	chunk = infos[npu].mem_size / 16;
	fd = npu_raw_open(npu);
	fd2 = npu_raw_open(npu);
	ck_assert_int_ge(fd2, 0);
	while ((ret = npu_raw_alloc(fd, chunk, NPU_DMA_MEM_HUGE_FIRST, &addr[n],
				    &h[n])) == 0) {
		ck_assert_int_lt(++n, 17);
	}
	ck_assert_int_eq(ret, -ENOMEM);
	ck_assert_int_eq(n, 16);
	ck_assert_uint_eq(mem_free(npu), 0);
	ck_assert_int_eq(npu_raw_alloc(fd2, 1, NPU_DMA_MEM_NORMAL_ONLY, &addr[16], NULL),
			 -ENOMEM);
	/* A hole of one sixteenth serves the other file. */
	ck_assert_int_eq(npu_raw_free(fd, h[7]), 0);
	ck_assert_int_eq(npu_raw_alloc(fd2, chunk, NPU_DMA_MEM_NORMAL_ONLY, &addr[16], NULL), 0);
	ck_assert_uint_eq(addr[16], addr[7]);
	close(fd);
	ck_assert_uint_eq(mem_free(npu), start - chunk);
	close(fd2);
	ck_assert_uint_eq(mem_free(npu), start);
}
END_TEST

/*
 * A child queues long copies (registered and pageable, both directions)
 * and is killed with SIGKILL while they run. Teardown must drain, unpin
 * and free: pins balanced and device memory back to where it started.
 */
static void child_copies(int npu, size_t len, int up)
{
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	uint8_t *reg = anon(len), *pageable = anon(len);
	uint64_t dev;
	int fd = npu_raw_open(npu), i;

	if (fd < 0 || npu_raw_alloc(fd, len, NPU_DMA_MEM_HUGE_FIRST, &dev, NULL) ||
	    npu_raw_register(fd, reg, len, 0) || npu_raw_queue_create(fd, 16, &q))
		_exit(1);
	for (i = 0; i < 16; i++) {
		if (i & 1)
			d = npu_raw_copy((uintptr_t)pageable, dev, len,
					 NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE);
		else
			d = npu_raw_copy(dev, (uintptr_t)reg, len, NPU_DMA_DESC_F_SRC_HOST);
		npu_raw_push(&q, &d);
	}
	if (npu_raw_submit(&q) != 16)
		_exit(1);
	if (write(up, "x", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static void kill_mid_copy(int npu, size_t len, int rounds)
{
	uint64_t start = mem_free(npu);
	long pins = t_pins_held();
	int r, i, status, up[2];
	char c;

	for (r = 0; r < rounds; r++) {
		pid_t pid;

		ck_assert_int_eq(pipe(up), 0);
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			close(up[0]);
			child_copies(npu, len, up[1]);
		}
		close(up[1]);
		ck_assert_int_eq(read(up[0], &c, 1), 1);
		close(up[0]);
		sleep_ms(10 + 20 * r);
		ck_assert_int_eq(kill(pid, SIGKILL), 0);
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	}
	/* The last file reference may drop just after the exit is reaped. */
	for (i = 0; i < 500 && (t_pins_held() != pins || mem_free(npu) != start); i++)
		sleep_ms(10);
	ck_assert_int_eq(t_pins_held(), pins);
	ck_assert_uint_eq(mem_free(npu), start);
}

START_TEST(test_kill_mid_copy_sim)
{
	int npu = npu_of(NPU_DMA_BACKEND_SIM);

	if (npu >= 0)
		kill_mid_copy(npu, 32 << 20, 5);
}
END_TEST

START_TEST(test_kill_mid_copy_edu)
{
	int npu = npu_of(NPU_DMA_BACKEND_EDU);

	if (npu >= 0)
		kill_mid_copy(npu, 64 << 10, 3);
}
END_TEST

/* Reload the module with the fault-injection files; back to normal after. */
static void load_with_test_hooks(void)
{
	char args[512];

	if (t_module_loaded(MOD))
		ck_assert_int_eq(t_module_unload(MOD), 0);
	snprintf(args, sizeof(args), "%s test_hooks=1", t_default_args());
	ck_assert_int_eq(t_module_load(t_ko(), args), 0);
}

static void load_default(void)
{
	if (t_module_loaded(MOD))
		ck_assert_int_eq(t_module_unload(MOD), 0);
	ck_assert_int_eq(t_module_load(t_ko(), t_default_args()), 0);
}

START_TEST(test_edu_lost_interrupt_times_out)
{
	int npu = npu_of(NPU_DMA_BACKEND_EDU);
	uint8_t *buf = anon(8192);
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	char mark[128], left[32], *log;
	uint64_t dev;
	int fd;

	T_SKIP_UNLESS(npu >= 0, "no edu NPU");
	ck_assert(t_exists(LOSE_IRQS));
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, 4096, NPU_DMA_MEM_NORMAL_ONLY, &dev, NULL), 0);
	ck_assert_int_eq(npu_raw_register(fd, buf, 8192, 0), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	t_pattern_fill(buf, 4096, 5);
	ck_assert_int_eq(t_kmsg_mark(mark, sizeof(mark)), 0);

	ck_assert_int_eq(t_write_file(EDU_TIMEOUT, "300"), 0);
	ck_assert_int_eq(t_write_file(LOSE_IRQS, "1"), 0);
	d = npu_raw_copy(dev, (uintptr_t)buf, 4096, NPU_DMA_DESC_F_SRC_HOST);
	ck_assert_int_eq(npu_raw_run(&q, &d), -ETIMEDOUT);
	ck_assert_int_eq(t_read_file(LOSE_IRQS, left, sizeof(left)), 0);
	ck_assert_str_eq(left, "0");
	log = t_kmsg_since(mark);
	ck_assert_ptr_nonnull(log);
	ck_assert_ptr_nonnull(strstr(log, "timed out"));
	free(log);

	/* The card recovered: the same copy now works, byte-exact. */
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	d = npu_raw_copy((uintptr_t)buf + 4096, dev, 4096, NPU_DMA_DESC_F_DST_HOST);
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	ck_assert_uint_eq(t_pattern_check(buf + 4096, 4096, 5), 4096);
	ck_assert_int_eq(t_write_file(EDU_TIMEOUT, "2000"), 0);
	npu_raw_queue_destroy(&q);
	close(fd);
}
END_TEST

static Suite *fault_suite(void)
{
	Suite *s = suite_create("t_limits");
	TCase *tc = tcase_create("limits");
	TCase *tk = tcase_create("kill");
	TCase *ti = tcase_create("inject");

	tcase_set_timeout(tc, 300);
	tcase_add_unchecked_fixture(tc, find_npus, NULL);
	tcase_add_test(tc, test_rlimit_memlock);
	tcase_add_loop_test(tc, test_device_memory_exhaustion, 0, MAX_NPUS);
	suite_add_tcase(s, tc);

	tcase_set_timeout(tk, 600);
	tcase_add_unchecked_fixture(tk, find_npus, NULL);
	tcase_add_test(tk, test_kill_mid_copy_sim);
	tcase_add_test(tk, test_kill_mid_copy_edu);
	suite_add_tcase(s, tk);

	tcase_set_timeout(ti, 120);
	tcase_add_unchecked_fixture(ti, load_with_test_hooks, load_default);
	tcase_add_unchecked_fixture(ti, find_npus, NULL);
	tcase_add_test(ti, test_edu_lost_interrupt_times_out);
	suite_add_tcase(s, ti);
	return s;
}

int main(void)
{
	if (geteuid() != 0 || !npu_raw_present())
		return T_EXIT_SKIP;
	return t_run_suite(fault_suite());
}
