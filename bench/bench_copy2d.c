// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_copy2d: a sub-region of a 4096 x 4096-byte matrix in pinned host
 * memory copied to the device by one aclrtMemcpy2dAsync (one strided
 * descriptor) against one aclrtMemcpyAsync per row, each followed by a
 * stream synchronize; median of 5 runs, on the first sim NPU (or -d).
 * Target (issue 5): the 2-D call's cost does not grow with the number of
 * descriptors, so it beats the row copies by far for narrow rows.
 *
 *   bench_copy2d [-d dev]
 */
#include <string.h>
#include <unistd.h>

#include "bench_util.h"

#define ROWS	4096
#define PITCH	4096
#define RUNS	5

/* Seconds for one 2-D copy (@rows_each false) or @h row copies. */
static double once(char *d, char *h, size_t w, size_t rows, bool rows_each,
		   aclrtStream s)
{
	double t = bench_now();
	size_t r;

	if (!rows_each)
		BENCH_ACL(aclrtMemcpy2dAsync(d, w, h, PITCH, w, rows,
					     ACL_MEMCPY_HOST_TO_DEVICE, s));
	for (r = 0; rows_each && r < rows; r++)
		BENCH_ACL(aclrtMemcpyAsync(d + r * w, w, h + r * PITCH, w,
					   ACL_MEMCPY_HOST_TO_DEVICE, s));
	BENCH_ACL(aclrtSynchronizeStream(s));
	return bench_now() - t;
}

static double median_of(char *d, char *h, size_t w, size_t rows,
			bool rows_each, aclrtStream s)
{
	double v[RUNS];
	int i;

	for (i = 0; i < RUNS; i++)
		v[i] = once(d, h, w, rows, rows_each, s);
	return bench_median(v, RUNS);
}

int main(int argc, char **argv)
{
	static const size_t widths[] = { 16, 256, 4096 };
	int dev = -1, opt;
	aclrtStream s;
	void *h, *d;
	size_t i;

	while ((opt = getopt(argc, argv, "d:")) != -1)
		dev = opt == 'd' ? atoi(optarg) : dev;
	if (dev < 0)
		dev = bench_first_sim("bench_copy2d");
	BENCH_ACL(aclrtSetDevice(dev));
	BENCH_ACL(aclrtCreateStream(&s));
	BENCH_ACL(aclrtMallocHost(&h, (size_t)ROWS * PITCH));
	BENCH_ACL(aclrtMalloc(&d, (size_t)ROWS * PITCH, ACL_MEM_MALLOC_HUGE_FIRST));
	memset(h, 1, (size_t)ROWS * PITCH);
	printf("%6s %6s %12s %12s %8s\n", "width", "rows", "2d_ms", "rows_ms",
	       "ratio");
	for (i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		double t2 = median_of(d, h, widths[i], ROWS, false, s);
		double tr = median_of(d, h, widths[i], ROWS, true, s);

		printf("%6zu %6d %12.3f %12.3f %7.1fx\n", widths[i], ROWS,
		       t2 * 1e3, tr * 1e3, tr / t2);
	}
	/* Narrow rows: the 2-D call's time against its row count. */
	for (i = 512; i <= ROWS; i *= 2)
		printf("%6d %6zu %12.3f\n", 16, i,
		       median_of(d, h, 16, i, false, s) * 1e3);
	BENCH_ACL(aclrtFree(d));
	BENCH_ACL(aclrtFreeHost(h));
	BENCH_ACL(aclrtDestroyStream(s));
	BENCH_ACL(aclrtResetDevice(dev));
	return 0;
}
