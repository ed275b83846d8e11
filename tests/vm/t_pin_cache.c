// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: the pin cache of pageable copies (kernel/npu_dma_pin_cache.c),
 * on a sim NPU, through the raw ABI. A pageable copy of 64 KiB or more
 * keeps its pins for the file's next copies, a smaller one from its
 * second copy among the file's last eight small ones, and a cached pin
 * never carries bytes the process no longer maps there:
 *
 * - copies of one buffer pin it once (debugfs pin_cache_fills, then
 *   pin_cache_hits); the pins stay held while the file is open and go
 *   when it closes; pin_cache_mb=0 turns the cache off;
 * - a 4 KiB copy is cached when copied again, a 64 B copy in the same
 *   page then hits it; eight small buffers taking turns are cached, nine
 *   are not, nor a walk through fresh pages; big buffers evict the least
 *   recently used small one; a small cached buffer unmapped and mapped
 *   again carries its new bytes;
 * - after munmap and a new mapping at the same address, after
 *   MADV_DONTNEED, and after a fork (whose copy-on-write protection
 *   invalidates the range), the next copy carries what the process maps
 *   now, and a device-to-host copy lands where the process reads;
 * - after mprotect(PROT_READ) a device-to-host copy into the buffer
 *   fails with -EFAULT and leaves it unchanged;
 * - a seventeenth buffer evicts the least recently used one.
 * The module parameter is put back after each test.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_state.h"
#include "t_vm.h"

#define PARAM		"/sys/module/npu_dma/parameters/pin_cache_mb"
#define DBGFS		"/sys/kernel/debug/npu_dma"
#define LEN		(256 * 1024)
#define ENTRIES		16	/* NPU_PIN_CACHE_ENTRIES */

static int sim = -1;

/* The suite's teardown too, outside any test: no Check assertion. */
static void param_default(void)
{
	t_write_file(PARAM, "256");
}

static long counter(const char *name)
{
	char path[128], text[4096], *p;
	long v = -1;

	snprintf(path, sizeof(path), DBGFS "/npu_dma%d/counters", sim);
	ck_assert_int_eq(t_read_file(path, text, sizeof(text)), 0);
	p = strstr(text, name);
	ck_assert_msg(p != NULL, "no %s in %s", name, path);
	sscanf(p + strlen(name), " %ld", &v);
	return v;
}

struct fix {
	int fd;
	struct npu_raw_queue q;
	uint64_t dev;
	long fills, hits;
};

static void fix_open(struct fix *f)
{
	f->fd = npu_raw_open(sim);
	ck_assert_int_ge(f->fd, 0);
	ck_assert_int_eq(npu_raw_alloc(f->fd, LEN, 0, &f->dev, NULL), 0);
	ck_assert_int_eq(npu_raw_queue_create(f->fd, 64, &f->q), 0);
	f->fills = counter("pin_cache_fills");
	f->hits = counter("pin_cache_hits");
}

static void fix_close(struct fix *f)
{
	npu_raw_queue_destroy(&f->q);
	close(f->fd);
}

/* Fills and hits since fix_open() (or the last call). */
static void assert_counts(struct fix *f, long fills, long hits)
{
	long nf = counter("pin_cache_fills"), nh = counter("pin_cache_hits");

	ck_assert_int_eq(nf - f->fills, fills);
	ck_assert_int_eq(nh - f->hits, hits);
	f->fills = nf;
	f->hits = nh;
}

static void *map_buf(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

static int h2d(struct fix *f, const void *host, size_t len)
{
	struct npu_dma_desc d = npu_raw_copy(f->dev, (uintptr_t)host, len,
					     NPU_DMA_DESC_F_SRC_HOST |
					     NPU_DMA_DESC_F_SRC_PAGEABLE);

	return npu_raw_run(&f->q, &d);
}

static int d2h(struct fix *f, void *host, size_t len)
{
	struct npu_dma_desc d = npu_raw_copy((uintptr_t)host, f->dev, len,
					     NPU_DMA_DESC_F_DST_HOST |
					     NPU_DMA_DESC_F_DST_PAGEABLE);

	return npu_raw_run(&f->q, &d);
}

/* The device's first LEN bytes, through a buffer of their own (not cached twice). */
static void assert_dev_bytes(struct fix *f, int byte)
{
	uint8_t *out = map_buf(LEN);
	size_t i;

	ck_assert_int_eq(d2h(f, out, LEN), 0);
	for (i = 0; i < LEN; i++)
		ck_assert_msg(out[i] == byte, "byte %zu: 0x%02x, want 0x%02x",
			      i, out[i], byte);
	munmap(out, LEN);
}

START_TEST(test_reuse_pins_once)
{
	long held = t_pins_held();
	uint8_t *buf = map_buf(LEN);
	struct fix f;
	int i;

	fix_open(&f);
	memset(buf, 0x11, LEN);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(h2d(&f, buf, LEN), 0);
	assert_counts(&f, 1, 2);
	/* Unaligned, inside the same pages: the same pin. */
	ck_assert_int_eq(h2d(&f, buf + 100, LEN - 200), 0);
	assert_counts(&f, 0, 1);
	ck_assert_int_ge(t_pins_held() - held, LEN / 4096);
	assert_dev_bytes(&f, 0x11);
	fix_close(&f);
	ck_assert_int_eq(t_pins_held(), held);
	munmap(buf, LEN);
}
END_TEST

START_TEST(test_small_cached_when_copied_again)
{
	uint8_t *buf = map_buf(LEN);
	struct fix f;

	fix_open(&f);
	memset(buf, 0x31, LEN);
	ck_assert_int_eq(h2d(&f, buf, 4096), 0);
	assert_counts(&f, 0, 0);
	ck_assert_int_eq(d2h(&f, buf, 4096), 0);
	assert_counts(&f, 1, 0);
	ck_assert_int_eq(h2d(&f, buf + 64, 64), 0);
	ck_assert_int_eq(d2h(&f, buf, 4096), 0);
	assert_counts(&f, 0, 2);
	/* Two pages, a range of its own. */
	ck_assert_int_eq(h2d(&f, buf + 4000, 200), 0);
	ck_assert_int_eq(h2d(&f, buf + 4000, 200), 0);
	ck_assert_int_eq(h2d(&f, buf + 4000, 200), 0);
	assert_counts(&f, 1, 1);
	fix_close(&f);
	munmap(buf, LEN);
}
END_TEST

/* @n one-page buffers of @base taking turns, @rounds times. */
static void small_turns(struct fix *f, uint8_t *base, int n, int rounds)
{
	int r, i;

	for (r = 0; r < rounds; r++)
		for (i = 0; i < n; i++)
			ck_assert_int_eq(h2d(f, base + (size_t)i * 4096, 4096), 0);
}

START_TEST(test_small_turns_and_walks)
{
	uint8_t *buf = map_buf(LEN), *big[ENTRIES];
	struct fix f;
	int i;

	fix_open(&f);
	memset(buf, 0x32, LEN);
	/* Nine in turn: each forgotten before it comes back. */
	small_turns(&f, buf, 9, 3);
	assert_counts(&f, 0, 0);
	/* A walk: every page new. */
	small_turns(&f, buf + 9 * 4096, LEN / 4096 - 9, 1);
	assert_counts(&f, 0, 0);
	fix_close(&f);

	/* Eight (NPU_PIN_SEEN) in turn: cached on their second round. */
	fix_open(&f);
	small_turns(&f, buf, 8, 1);
	assert_counts(&f, 0, 0);
	small_turns(&f, buf, 8, 1);
	assert_counts(&f, 8, 0);
	small_turns(&f, buf, 8, 2);
	assert_counts(&f, 0, 16);
	/* Big ones push the least recently used small one out, not all. */
	for (i = 0; i < ENTRIES - 8 + 1; i++) {
		big[i] = map_buf(LEN);
		ck_assert_int_eq(h2d(&f, big[i], LEN), 0);
	}
	assert_counts(&f, ENTRIES - 8 + 1, 0);
	small_turns(&f, buf + 4096, 7, 1);
	assert_counts(&f, 0, 7);
	small_turns(&f, buf, 1, 1);
	assert_counts(&f, 1, 0);
	fix_close(&f);
	for (i = 0; i < ENTRIES - 8 + 1; i++)
		munmap(big[i], LEN);
	munmap(buf, LEN);
}
END_TEST

START_TEST(test_small_remap_carries_new_pages)
{
	uint8_t *buf = map_buf(4096), *again, *out = map_buf(4096);
	struct fix f;
	int i;

	fix_open(&f);
	memset(buf, 0x34, 4096);
	ck_assert_int_eq(h2d(&f, buf, 4096), 0);
	ck_assert_int_eq(h2d(&f, buf, 4096), 0);
	assert_counts(&f, 1, 0);
	munmap(buf, 4096);
	again = mmap(buf, 4096, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	ck_assert_ptr_eq(again, buf);
	memset(buf, 0x35, 4096);
	ck_assert_int_eq(h2d(&f, buf, 4096), 0);
	assert_counts(&f, 1, 0);
	ck_assert_int_eq(d2h(&f, out, 4096), 0);
	for (i = 0; i < 4096; i++)
		ck_assert_msg(out[i] == 0x35, "byte %d: 0x%02x", i, out[i]);
	fix_close(&f);
	munmap(buf, 4096);
	munmap(out, 4096);
}
END_TEST

START_TEST(test_off_not_cached)
{
	uint8_t *buf = map_buf(LEN);
	struct fix f;

	fix_open(&f);
	ck_assert_int_eq(t_write_file(PARAM, "0"), 0);
	ck_assert_int_eq(h2d(&f, buf, 4096), 0);
	ck_assert_int_eq(h2d(&f, buf, 4096), 0);
	ck_assert_int_eq(h2d(&f, buf, LEN), 0);
	ck_assert_int_eq(h2d(&f, buf, LEN), 0);
	assert_counts(&f, 0, 0);
	fix_close(&f);
	munmap(buf, LEN);
}
END_TEST

START_TEST(test_remap_carries_new_pages)
{
	uint8_t *buf = map_buf(LEN), *again;
	struct fix f;

	fix_open(&f);
	memset(buf, 0x22, LEN);
	ck_assert_int_eq(h2d(&f, buf, LEN), 0);
	munmap(buf, LEN);
	again = mmap(buf, LEN, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	ck_assert_ptr_eq(again, buf);
	memset(buf, 0x33, LEN);
	ck_assert_int_eq(h2d(&f, buf, LEN), 0);
	assert_counts(&f, 2, 0);
	assert_dev_bytes(&f, 0x33);

	/* Dropped pages read as zeroes again. */
	ck_assert_int_eq(h2d(&f, buf, LEN), 0);
	ck_assert_int_eq(madvise(buf, LEN, MADV_DONTNEED), 0);
	ck_assert_int_eq(h2d(&f, buf, LEN), 0);
	assert_dev_bytes(&f, 0);
	fix_close(&f);
	munmap(buf, LEN);
}
END_TEST

START_TEST(test_d2h_lands_where_read)
{
	uint8_t *buf = map_buf(LEN), *src = map_buf(LEN);
	struct fix f;
	pid_t pid;
	int st;

	fix_open(&f);
	memset(src, 0x44, LEN);
	ck_assert_int_eq(h2d(&f, src, LEN), 0);
	ck_assert_int_eq(d2h(&f, buf, LEN), 0);
	ck_assert_int_eq(buf[0], 0x44);
	memset(src, 0x55, LEN);
	ck_assert_int_eq(h2d(&f, src, LEN), 0);
	ck_assert_int_eq(d2h(&f, buf, LEN), 0);
	ck_assert_int_eq(buf[LEN - 1], 0x55);
	assert_counts(&f, 2, 2);

	/* Fork write-protects the parent's pages: its cached pins go. */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		memset(buf, 0x66, LEN);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && !WEXITSTATUS(st));
	memset(src, 0x77, LEN);
	ck_assert_int_eq(h2d(&f, src, LEN), 0);
	ck_assert_int_eq(d2h(&f, buf, LEN), 0);
	ck_assert_int_eq(buf[0], 0x77);
	ck_assert_int_eq(buf[LEN - 1], 0x77);
	fix_close(&f);
	munmap(buf, LEN);
	munmap(src, LEN);
}
END_TEST

START_TEST(test_readonly_refuses_d2h)
{
	uint8_t *buf = map_buf(LEN);
	struct fix f;

	fix_open(&f);
	memset(buf, 0x12, LEN);
	ck_assert_int_eq(d2h(&f, buf, LEN), 0);	/* cached writable */
	memset(buf, 0x13, LEN);
	ck_assert_int_eq(mprotect(buf, LEN, PROT_READ), 0);
	ck_assert_int_eq(d2h(&f, buf, LEN), -EFAULT);
	ck_assert_int_eq(buf[0], 0x13);
	ck_assert_int_eq(buf[LEN - 1], 0x13);
	/* Read-only is still a source. */
	ck_assert_int_eq(h2d(&f, buf, LEN), 0);
	assert_dev_bytes(&f, 0x13);
	fix_close(&f);
	munmap(buf, LEN);
}
END_TEST

START_TEST(test_lru_eviction)
{
	uint8_t *bufs[ENTRIES + 1];
	struct fix f;
	int i;

	fix_open(&f);
	for (i = 0; i <= ENTRIES; i++) {
		bufs[i] = map_buf(LEN);
		memset(bufs[i], i, LEN);
		ck_assert_int_eq(h2d(&f, bufs[i], LEN), 0);
	}
	assert_counts(&f, ENTRIES + 1, 0);
	/* The last sixteen are there; the first went. */
	ck_assert_int_eq(h2d(&f, bufs[ENTRIES], LEN), 0);
	ck_assert_int_eq(h2d(&f, bufs[1], LEN), 0);
	assert_counts(&f, 0, 2);
	ck_assert_int_eq(h2d(&f, bufs[0], LEN), 0);
	assert_counts(&f, 1, 0);
	assert_dev_bytes(&f, 0);
	fix_close(&f);
	for (i = 0; i <= ENTRIES; i++)
		munmap(bufs[i], LEN);
}
END_TEST

static Suite *pin_cache_suite(void)
{
	Suite *s = suite_create("t_pin_cache");
	TCase *tc = tcase_create("pin_cache");

	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, NULL, param_default);
	tcase_add_test(tc, test_reuse_pins_once);
	tcase_add_test(tc, test_small_cached_when_copied_again);
	tcase_add_test(tc, test_small_turns_and_walks);
	tcase_add_test(tc, test_small_remap_carries_new_pages);
	tcase_add_test(tc, test_off_not_cached);
	tcase_add_test(tc, test_remap_carries_new_pages);
	tcase_add_test(tc, test_d2h_lands_where_read);
	tcase_add_test(tc, test_readonly_refuses_d2h);
	tcase_add_test(tc, test_lru_eviction);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (!npu_raw_present())
		return T_EXIT_SKIP;
	sim = t_npu_of(NPU_DMA_BACKEND_SIM);
	if (sim < 0) {
		printf("t_pin_cache: no sim NPU: skipped\n");
		return T_EXIT_SKIP;
	}
	return t_run_suite(pin_cache_suite());
}
