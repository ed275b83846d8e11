// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_copy2d: a sub-region of a 4096 x 4096-byte matrix in pinned host
 * memory copied to the device by one aclrtMemcpy2dAsync (one strided
 * descriptor) against one aclrtMemcpyAsync per row, each followed by a
 * stream synchronize; median of 5 runs (15 for the row counts of narrow
 * rows), on the first sim NPU (or -d).
 * Target (issue 5): the 2-D call's cost does not grow with the number of
 * rows for narrow rows (read here as: 8x the rows, 512 -> 4096 rows of
 * 16 bytes, cost at most 1.5x, up to the end of the synchronize), so it
 * beats the row copies by far. The call's own time is shown too, and
 * the floor: the sim engine is this guest's CPU, and in TCG every row of
 * a 4096-byte pitch is a page of its own, which usually costs the
 * emulator a software TLB fill, so this CPU's own memcpy of the same
 * rows is timed in the same loop.
 *
 *   bench_copy2d [-d dev] [-j]
 */
#include <string.h>
#include <unistd.h>

#include "bench_util.h"

#define ROWS	4096
#define PITCH	4096
#define RUNS	5
#define NARROW_RUNS	15	/* each under a millisecond */

/*
 * Seconds for one 2-D copy (@rows_each false) or @rows row copies, up to
 * the end of the synchronize; *@call (if not NULL): up to the return of
 * the queueing calls.
 */
static double once(char *d, char *h, size_t w, size_t rows, bool rows_each,
		   aclrtStream s, double *call)
{
	double t = bench_now();
	size_t r;

	if (!rows_each)
		BENCH_ACL(aclrtMemcpy2dAsync(d, w, h, PITCH, w, rows,
					     ACL_MEMCPY_HOST_TO_DEVICE, s));
	for (r = 0; rows_each && r < rows; r++)
		BENCH_ACL(aclrtMemcpyAsync(d + r * w, w, h + r * PITCH, w,
					   ACL_MEMCPY_HOST_TO_DEVICE, s));
	if (call)
		*call = bench_now() - t;
	BENCH_ACL(aclrtSynchronizeStream(s));
	return bench_now() - t;
}

static const size_t widths[] = { 16, 256, 4096 };
#define NR_WIDTHS	(sizeof(widths) / sizeof(widths[0]))
#define NR_NARROW	4	/* 16-byte rows: 512, 1024, 2048, 4096 rows */

/*
 * Seconds: 2-D and row copies per width, 2-D of 16-byte rows per count
 * (in all and the call alone).
 */
struct copy2d_times {
	double t2[NR_WIDTHS], rows[NR_WIDTHS];
	double narrow[NR_NARROW], narrow_call[NR_NARROW];
	double floor[NR_NARROW];
};

static size_t narrow_rows(size_t i)
{
	return ROWS >> (NR_NARROW - 1 - i);
}

/*
 * Seconds for this CPU to copy the same @rows rows of 16 bytes itself
 * (memcpy, from the pinned matrix into a packed buffer): what moving
 * these rows costs in this guest, whoever moves them.
 */
static double floor_once(char *packed, const char *h, size_t rows)
{
	double t = bench_now();
	size_t r;

	for (r = 0; r < rows; r++)
		memcpy(packed + r * 16, h + r * PITCH, 16);
	/* The copies must happen: the compiler sees no reader. */
	__asm__ volatile("" : : "r"(packed) : "memory");
	return bench_now() - t;
}

/*
 * Medians of RUNS (NARROW_RUNS for the row counts of narrow rows); every
 * case runs once per run, so a change of load on a shared machine hits
 * them all alike. The row counts are measured on their own, after the
 * widths: right after thousands of row copies the first 2-D call of a
 * run paid for them (the smallest count came out slower than twice its
 * rows).
 */
static void measure(char *d, char *h, aclrtStream s, struct copy2d_times *t)
{
	double v2[NR_WIDTHS][RUNS], vr[NR_WIDTHS][RUNS];
	double vn[NR_NARROW][NARROW_RUNS], vc[NR_NARROW][NARROW_RUNS];
	double vf[NR_NARROW][NARROW_RUNS];
	static char packed[ROWS * 16];
	size_t i;
	int r;

	for (r = 0; r < RUNS; r++) {
		for (i = 0; i < NR_WIDTHS; i++) {
			v2[i][r] = once(d, h, widths[i], ROWS, false, s, NULL);
			vr[i][r] = once(d, h, widths[i], ROWS, true, s, NULL);
		}
	}
	for (r = 0; r < NARROW_RUNS; r++)
		for (i = 0; i < NR_NARROW; i++) {
			vn[i][r] = once(d, h, 16, narrow_rows(i), false, s,
					&vc[i][r]);
			vf[i][r] = floor_once(packed, h, narrow_rows(i));
		}
	for (i = 0; i < NR_WIDTHS; i++) {
		t->t2[i] = bench_median(v2[i], RUNS);
		t->rows[i] = bench_median(vr[i], RUNS);
	}
	for (i = 0; i < NR_NARROW; i++) {
		t->narrow[i] = bench_median(vn[i], NARROW_RUNS);
		t->narrow_call[i] = bench_median(vc[i], NARROW_RUNS);
		t->floor[i] = bench_median(vf[i], NARROW_RUNS);
	}
}

/* One row of -j comparing the 4096-row figure of @v with its 512-row one. */
static void narrow_json(struct bench_result *r, char *metric, size_t size,
			const char *what, const double *v)
{
	snprintf(metric, size, "%s, %d rows vs %zu rows", what, ROWS,
		 narrow_rows(0));
	r->ours = v[NR_NARROW - 1] * 1e3;
	r->ref = v[0] * 1e3;
	r->ratio = v[NR_NARROW - 1] / v[0];
	bench_result_json(r);
}

/*
 * -j: the 2-D call against the row copies (ratio: how many times faster;
 * no target); the target: 16-byte rows, 8x the rows cost at most 1.5x
 * the time; without targets, the same for the call alone and for this
 * CPU's memcpy of the rows (the floor), and what the rows past the 512th
 * add to the 2-D copy against what they add to that memcpy.
 */
static void report(const struct copy2d_times *t)
{
	const int big = NR_NARROW - 1;
	char metric[64];
	struct bench_result r = {
		.bench = "bench_copy2d", .metric = metric, .unit = "ms",
	};
	size_t i;

	for (i = 0; i < NR_WIDTHS; i++) {
		snprintf(metric, sizeof(metric),
			 "2-D vs row copies, %zu B x %d rows", widths[i], ROWS);
		r.ours = t->t2[i] * 1e3;
		r.ref = t->rows[i] * 1e3;
		r.ratio = t->rows[i] / t->t2[i];
		bench_result_json(&r);
	}
	r.op = "<=";
	r.target = 1.5;
	narrow_json(&r, metric, sizeof(metric), "2-D 16 B rows", t->narrow);
	r.op = NULL;
	narrow_json(&r, metric, sizeof(metric), "2-D 16 B rows, call only",
		    t->narrow_call);
	narrow_json(&r, metric, sizeof(metric), "memcpy of the 16 B rows",
		    t->floor);
	snprintf(metric, sizeof(metric),
		 "2-D 16 B rows %zu..%d vs their memcpy", narrow_rows(0) + 1,
		 ROWS);
	r.ours = (t->narrow[big] - t->narrow[0]) * 1e3;
	r.ref = (t->floor[big] - t->floor[0]) * 1e3;
	r.ratio = r.ours / r.ref;
	bench_result_json(&r);
}

static void table(const struct copy2d_times *t)
{
	size_t i;

	printf("%6s %6s %12s %12s %8s %12s %12s\n", "width", "rows", "2d_ms",
	       "rows_ms", "ratio", "2d_call_ms", "memcpy_ms");
	for (i = 0; i < NR_WIDTHS; i++)
		printf("%6zu %6d %12.3f %12.3f %7.1fx\n", widths[i], ROWS,
		       t->t2[i] * 1e3, t->rows[i] * 1e3, t->rows[i] / t->t2[i]);
	/* Narrow rows: the 2-D call's time against its row count. */
	for (i = 0; i < NR_NARROW; i++)
		printf("%6d %6zu %12.3f %21s %12.3f %12.3f\n", 16,
		       narrow_rows(i), t->narrow[i] * 1e3, "",
		       t->narrow_call[i] * 1e3, t->floor[i] * 1e3);
}

int main(int argc, char **argv)
{
	int dev = -1, json = 0, opt;
	struct copy2d_times t;
	aclrtStream s;
	void *h, *d;

	while ((opt = getopt(argc, argv, "d:jh")) != -1) {
		if (opt == 'd') {
			dev = atoi(optarg);
		} else if (opt == 'j') {
			json = 1;
		} else {
			printf("usage: bench_copy2d [-d dev] [-j]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	if (dev < 0)
		dev = bench_first_sim("bench_copy2d");
	BENCH_ACL(aclrtSetDevice(dev));
	BENCH_ACL(aclrtCreateStream(&s));
	BENCH_ACL(aclrtMallocHost(&h, (size_t)ROWS * PITCH));
	BENCH_ACL(aclrtMalloc(&d, (size_t)ROWS * PITCH, ACL_MEM_MALLOC_HUGE_FIRST));
	memset(h, 1, (size_t)ROWS * PITCH);
	measure(d, h, s, &t);
	if (json)
		report(&t);
	else
		table(&t);
	BENCH_ACL(aclrtFree(d));
	BENCH_ACL(aclrtFreeHost(h));
	BENCH_ACL(aclrtDestroyStream(s));
	BENCH_ACL(aclrtResetDevice(dev));
	return 0;
}
