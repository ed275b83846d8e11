// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_bw: copy bandwidth against the guest's own memcpy, in one run
 * (issue 10 targets, sim engine):
 *  - pinned H2D and D2H at >= 8 MiB: >= 90 % of memcpy of the same size;
 *  - pageable H2D and D2H at >= 8 MiB: >= 70 % of pinned.
 * Synchronous aclrtMemcpy, median of n runs per size (default 7), the
 * five paths taking turns within each run.
 *
 *   bench_bw [-d dev] [-n runs] [-j]
 */
#include <getopt.h>
#include <string.h>
#include <sys/mman.h>

#include "bench_util.h"

static const size_t sizes[] = { 8 << 20, 32 << 20, 64 << 20 };
#define NR_SIZES (sizeof(sizes) / sizeof(sizes[0]))

struct run {
	void *dst, *src;
	size_t len;
	aclrtMemcpyKind kind;	/* -1: host memcpy */
};

enum { MC, PIN_H2D, PIN_D2H, PG_H2D, PG_D2H, NR_ARMS };

static double gbps_once(const struct run *r)
{
	double t = bench_now();

	if ((int)r->kind < 0)
		memcpy(r->dst, r->src, r->len);
	else
		BENCH_ACL(aclrtMemcpy(r->dst, r->len, r->src, r->len, r->kind));
	return r->len / (bench_now() - t) / 1e9;
}

/*
 * GB/s of each arm, median of @runs. The arms take turns, so a change of
 * load on a shared machine hits them all alike.
 */
static void gbps(const struct run *arms, int runs, double *med)
{
	double v[NR_ARMS][16];
	int i, a;

	for (i = 0; i < runs; i++)
		for (a = 0; a < NR_ARMS; a++)
			v[a][i] = gbps_once(&arms[a]);
	for (a = 0; a < NR_ARMS; a++)
		med[a] = bench_median(v[a], runs);
}

static void *pageable(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	memset(p, 7, len);
	return p;
}

static void result(const char *what, size_t n, double ours, double ref,
		   double target)
{
	char metric[64];
	struct bench_result r = {
		.bench = "bench_bw", .metric = metric, .unit = "GB/s",
		.ours = ours, .ref = ref, .ratio = ours / ref,
		.op = ">=", .target = target,
	};

	snprintf(metric, sizeof(metric), "%s %zu MiB", what, n >> 20);
	bench_result_json(&r);
}

/* -j: the four targets at one size, as result lines. */
static void report(size_t n, const double *g)
{
	result("pinned H2D vs memcpy", n, g[PIN_H2D], g[MC], 0.9);
	result("pinned D2H vs memcpy", n, g[PIN_D2H], g[MC], 0.9);
	result("pageable H2D vs pinned H2D", n, g[PG_H2D], g[PIN_H2D], 0.7);
	result("pageable D2H vs pinned D2H", n, g[PG_D2H], g[PIN_D2H], 0.7);
}

int main(int argc, char **argv)
{
	int dev = -1, runs = 7, json = 0, c;
	size_t max = sizes[NR_SIZES - 1], i;
	void *dmem, *pin_a, *pin_b, *pg_a, *pg_b;

	while ((c = getopt(argc, argv, "d:n:jh")) != -1) {
		if (c == 'd') {
			dev = atoi(optarg);
		} else if (c == 'n') {
			runs = atoi(optarg);
		} else if (c == 'j') {
			json = 1;
		} else {
			printf("usage: bench_bw [-d dev] [-n runs] [-j]\n"
			       "  pinned and pageable H2D/D2H bandwidth vs memcpy, 8..64 MiB\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (runs < 1 || runs > 16)
		return 2;
	if (dev < 0)
		dev = bench_first_sim("bench_bw");
	BENCH_ACL(aclInit(NULL));
	BENCH_ACL(aclrtSetDevice(dev));
	BENCH_ACL(aclrtMalloc(&dmem, max, ACL_MEM_MALLOC_HUGE_FIRST));
	BENCH_ACL(aclrtMallocHost(&pin_a, max));
	BENCH_ACL(aclrtMallocHost(&pin_b, max));
	memset(pin_a, 3, max);
	memset(pin_b, 4, max);
	pg_a = pageable(max);
	pg_b = pageable(max);
	/* Back the device pages before measuring. */
	BENCH_ACL(aclrtMemcpy(dmem, max, pin_a, max, ACL_MEMCPY_HOST_TO_DEVICE));

	if (!json)
		printf("%9s %9s %9s %9s %9s %9s %7s %7s %7s %7s\n", "bytes", "memcpy",
		       "pin H2D", "pin D2H", "pg H2D", "pg D2H", "pinH/mc", "pinD/mc",
		       "pgH/pin", "pgD/pin");
	for (i = 0; i < NR_SIZES; i++) {
		size_t n = sizes[i];
		const struct run arms[NR_ARMS] = {
			[MC] = { pin_b, pin_a, n, (aclrtMemcpyKind)-1 },
			[PIN_H2D] = { dmem, pin_a, n, ACL_MEMCPY_HOST_TO_DEVICE },
			[PIN_D2H] = { pin_b, dmem, n, ACL_MEMCPY_DEVICE_TO_HOST },
			[PG_H2D] = { dmem, pg_a, n, ACL_MEMCPY_HOST_TO_DEVICE },
			[PG_D2H] = { pg_b, dmem, n, ACL_MEMCPY_DEVICE_TO_HOST },
		};
		double g[NR_ARMS];

		gbps(arms, runs, g);
		if (json)
			report(n, g);
		else
			printf("%9zu %9.3f %9.3f %9.3f %9.3f %9.3f %6.0f%% %6.0f%% %6.0f%% %6.0f%%\n",
			       n, g[MC], g[PIN_H2D], g[PIN_D2H], g[PG_H2D], g[PG_D2H],
			       100 * g[PIN_H2D] / g[MC], 100 * g[PIN_D2H] / g[MC],
			       100 * g[PG_H2D] / g[PIN_H2D],
			       100 * g[PG_D2H] / g[PIN_D2H]);
	}
	if (!json)
		printf("GB/s, median of %d; targets: pinned >= 90%% of memcpy, "
		       "pageable >= 70%% of pinned\n", runs);
	BENCH_ACL(aclrtFreeHost(pin_a));
	BENCH_ACL(aclrtFreeHost(pin_b));
	BENCH_ACL(aclrtFree(dmem));
	BENCH_ACL(aclrtResetDevice(dev));
	BENCH_ACL(aclFinalize());
	return 0;
}
