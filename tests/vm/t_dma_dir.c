// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: the DMA direction of host pins on an edu NPU, as the kernel's
 * DMA-API debugging (CONFIG_DMA_API_DEBUG, the sanitizer kernel of
 * --debug-kernel) records it in /sys/kernel/debug/dma-api/dump. A
 * read-only registration is mapped DMA_TO_DEVICE (an IOMMU then refuses
 * the device's writes), a writable one DMA_BIDIRECTIONAL. A page that two
 * files register, one read-only and one writable, in either order, is
 * mapped bidirectionally once for both (the guest has no IOMMU: the two
 * mappings would have one bus address), stays so while the read-only
 * file alone holds it, and copies through both files work without a
 * DMA-API report.
 *
 * The distribution kernel has no DMA-API debugging: the test skips (77).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_state.h"
#include "t_vm.h"

#define DUMP "/sys/kernel/debug/dma-api/dump"
#define PAGES 4
#define PAGE 4096

static uint8_t *buf;
static uint64_t pfns[PAGES];

static void setup(void)
{
	uint64_t e;
	int fd, i;

	buf = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ck_assert_ptr_ne(buf, MAP_FAILED);
	memset(buf, 0x33, PAGES * PAGE);
	fd = open("/proc/self/pagemap", O_RDONLY);
	ck_assert_int_ge(fd, 0);
	for (i = 0; i < PAGES; i++) {
		ck_assert_int_eq(pread(fd, &e, sizeof(e),
				       ((uintptr_t)buf / PAGE + i) * sizeof(e)),
				 sizeof(e));
		ck_assert(e >> 63);	/* present */
		pfns[i] = e & ((1ULL << 55) - 1);
		ck_assert_uint_ne(pfns[i], 0);	/* root sees the frame */
	}
	close(fd);
}

static void teardown(void)
{
	munmap(buf, PAGES * PAGE);
}

/*
 * How many mappings of page @i in direction @dir ("DMA_TO_DEVICE") the
 * dump lists (its lines: "... P=<phys> N=<pfn> D=<dma> L=<len> <dir> ...").
 */
static int mappings(int i, const char *dir)
{
	char key[64], line[512];
	int n = 0;
	FILE *f;

	snprintf(key, sizeof(key), " N=%" PRIx64 " ", pfns[i]);
	f = fopen(DUMP, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, key) && strstr(line, dir) &&
		    strstr(line, "npu_dma"))
			n++;
	fclose(f);
	return n;
}

static void assert_pages(const char *dir, int want)
{
	int i;

	for (i = 0; i < PAGES; i++)
		ck_assert_msg(mappings(i, dir) == want, "page %d: %d %s mappings, want %d",
			      i, mappings(i, dir), dir, want);
}

START_TEST(test_readonly_pin_maps_to_device)
{
	int fd = npu_raw_open(0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_register(fd, buf, PAGES * PAGE,
					  NPU_DMA_HOST_F_READONLY), 0);
	assert_pages("DMA_TO_DEVICE", 1);
	assert_pages("DMA_BIDIRECTIONAL", 0);
	ck_assert_int_eq(npu_raw_unregister(fd, buf), 0);
	assert_pages("DMA_TO_DEVICE", 0);
	close(fd);
}
END_TEST

START_TEST(test_writable_pin_maps_bidirectional)
{
	int fd = npu_raw_open(0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_register(fd, buf, PAGES * PAGE, 0), 0);
	assert_pages("DMA_BIDIRECTIONAL", 1);
	assert_pages("DMA_TO_DEVICE", 0);
	close(fd);
	assert_pages("DMA_BIDIRECTIONAL", 0);
}
END_TEST

/* Copies through both files: host -> device -> host. */
static void mixed_copies(int ro, int rw)
{
	struct npu_raw_queue qro, qrw;
	struct npu_dma_desc d;
	uint64_t dev;

	ck_assert_int_eq(npu_raw_alloc(ro, PAGE, NPU_DMA_MEM_NORMAL_ONLY, &dev, NULL), 0);
	ck_assert_int_eq(npu_raw_queue_create(ro, 16, &qro), 0);
	t_pattern_fill(buf, PAGE, 7);
	d = npu_raw_copy(dev, (uintptr_t)buf, PAGE, NPU_DMA_DESC_F_SRC_HOST);
	ck_assert_int_eq(npu_raw_run(&qro, &d), 0);
	/* The read-only file may not write the buffer. */
	d = npu_raw_copy((uintptr_t)buf + PAGE, dev, PAGE, NPU_DMA_DESC_F_DST_HOST);
	ck_assert_int_ne(npu_raw_run(&qro, &d), 0);
	npu_raw_queue_destroy(&qro);

	ck_assert_int_eq(npu_raw_alloc(rw, PAGE, NPU_DMA_MEM_NORMAL_ONLY, &dev, NULL), 0);
	ck_assert_int_eq(npu_raw_queue_create(rw, 16, &qrw), 0);
	d = npu_raw_copy(dev, (uintptr_t)buf, PAGE, NPU_DMA_DESC_F_SRC_HOST);
	ck_assert_int_eq(npu_raw_run(&qrw, &d), 0);
	d = npu_raw_copy((uintptr_t)buf + 2 * PAGE, dev, PAGE, NPU_DMA_DESC_F_DST_HOST);
	ck_assert_int_eq(npu_raw_run(&qrw, &d), 0);
	ck_assert_uint_eq(t_pattern_check(buf + 2 * PAGE, PAGE, 7), PAGE);
	npu_raw_queue_destroy(&qrw);
}

/* Read-only first: the writable pin turns the mapping bidirectional. */
START_TEST(test_mixed_pins_share_a_bidirectional_mapping)
{
	int ro = npu_raw_open(0), rw = npu_raw_open(0);

	ck_assert_int_ge(ro, 0);
	ck_assert_int_ge(rw, 0);
	ck_assert_int_eq(npu_raw_register(ro, buf, PAGES * PAGE,
					  NPU_DMA_HOST_F_READONLY), 0);
	assert_pages("DMA_TO_DEVICE", 1);
	ck_assert_int_eq(npu_raw_register(rw, buf, PAGES * PAGE, 0), 0);
	assert_pages("DMA_TO_DEVICE", 0);
	assert_pages("DMA_BIDIRECTIONAL", 1);
	mixed_copies(ro, rw);
	close(rw);
	/* The read-only file still holds it. */
	assert_pages("DMA_BIDIRECTIONAL", 1);
	assert_pages("DMA_TO_DEVICE", 0);
	close(ro);
	assert_pages("DMA_BIDIRECTIONAL", 0);
}
END_TEST

/* Writable first: the read-only pin shares its mapping. */
START_TEST(test_readonly_pin_shares_a_writable_mapping)
{
	int ro = npu_raw_open(0), rw = npu_raw_open(0);

	ck_assert_int_ge(ro, 0);
	ck_assert_int_ge(rw, 0);
	ck_assert_int_eq(npu_raw_register(rw, buf, PAGES * PAGE, 0), 0);
	ck_assert_int_eq(npu_raw_register(ro, buf, PAGES * PAGE,
					  NPU_DMA_HOST_F_READONLY), 0);
	assert_pages("DMA_TO_DEVICE", 0);
	assert_pages("DMA_BIDIRECTIONAL", 1);
	mixed_copies(ro, rw);
	close(rw);
	assert_pages("DMA_BIDIRECTIONAL", 1);
	ck_assert_int_eq(npu_raw_unregister(ro, buf), 0);
	assert_pages("DMA_BIDIRECTIONAL", 0);
	/* Alone again, a read-only pin maps DMA_TO_DEVICE. */
	ck_assert_int_eq(npu_raw_register(ro, buf, PAGES * PAGE,
					  NPU_DMA_HOST_F_READONLY), 0);
	assert_pages("DMA_TO_DEVICE", 1);
	close(ro);
	assert_pages("DMA_TO_DEVICE", 0);
}
END_TEST

static Suite *dma_dir_suite(void)
{
	Suite *s = suite_create("t_dma_dir");
	TCase *tc = tcase_create("direction");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_readonly_pin_maps_to_device);
	tcase_add_test(tc, test_writable_pin_maps_bidirectional);
	tcase_add_test(tc, test_mixed_pins_share_a_bidirectional_mapping);
	tcase_add_test(tc, test_readonly_pin_shares_a_writable_mapping);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	/* The expectations for pages pinned both ways assume no IOMMU. */
	if (geteuid() != 0 || !t_exists(DUMP) || t_exists("/sys/class/iommu/dmar0"))
		return T_EXIT_SKIP;
	if (!t_npu0_is_edu())
		return T_EXIT_SKIP;
	return t_run_suite(dma_dir_suite());
}
