// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_bw: copy bandwidth against the guest's own memcpy, in one run
 * (issue 10 targets, sim engine):
 *  - pinned H2D and D2H at >= 8 MiB: >= 90 % of memcpy of the same size;
 *  - pageable H2D and D2H at >= 8 MiB: >= 70 % of pinned.
 * Synchronous aclrtMemcpy, median of n runs per size.
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

static double gbps(struct run *r, int runs)
{
	double v[16];
	int i;

	for (i = 0; i < runs; i++) {
		double t = bench_now();

		if ((int)r->kind < 0)
			memcpy(r->dst, r->src, r->len);
		else
			BENCH_ACL(aclrtMemcpy(r->dst, r->len, r->src, r->len, r->kind));
		v[i] = r->len / (bench_now() - t) / 1e9;
	}
	return bench_median(v, runs);
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

int main(int argc, char **argv)
{
	int dev = -1, runs = 5, json = 0, c;
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
		struct run mc = { pin_b, pin_a, n, (aclrtMemcpyKind)-1 };
		struct run ph = { dmem, pin_a, n, ACL_MEMCPY_HOST_TO_DEVICE };
		struct run pd = { pin_b, dmem, n, ACL_MEMCPY_DEVICE_TO_HOST };
		struct run gh = { dmem, pg_a, n, ACL_MEMCPY_HOST_TO_DEVICE };
		struct run gd = { pg_b, dmem, n, ACL_MEMCPY_DEVICE_TO_HOST };
		double m = gbps(&mc, runs), a = gbps(&ph, runs), b = gbps(&pd, runs);
		double g = gbps(&gh, runs), h = gbps(&gd, runs);

		if (json)
			printf("{\"bytes\": %zu, \"memcpy\": %.3f, \"pinned_h2d\": %.3f, "
			       "\"pinned_d2h\": %.3f, \"pageable_h2d\": %.3f, "
			       "\"pageable_d2h\": %.3f}\n", n, m, a, b, g, h);
		else
			printf("%9zu %9.3f %9.3f %9.3f %9.3f %9.3f %6.0f%% %6.0f%% %6.0f%% %6.0f%%\n",
			       n, m, a, b, g, h, 100 * a / m, 100 * b / m, 100 * g / a,
			       100 * h / b);
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
