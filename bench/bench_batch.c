// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_batch: 1000 host-to-device copies of 4 KiB from pinned memory,
 * queued by one aclrtMemcpyBatchAsync against 1000 aclrtMemcpyAsync
 * calls, each run ending with a stream synchronize; median of 15 runs on
 * the first sim NPU (or -d).
 * Target (issue 5): the batch at least 3x the throughput of the calls.
 * The time until the queueing calls return is shown too (no target): for
 * the batch, the library's planning of every member and the doorbell.
 *
 *   bench_batch [-d dev] [-n copies] [-j]
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"

#define CHUNK	4096
#define RUNS	15

struct arrays {
	void **dsts, **srcs;
	size_t *sizes, idx;
	aclrtMemcpyBatchAttr attr;
};

/* Seconds up to the end of the synchronize; *@call: until the calls return. */
static double run(const struct arrays *a, size_t n, bool batch, aclrtStream s,
		  double *call)
{
	double t = bench_now();
	size_t i, fail;

	if (batch)
		BENCH_ACL(aclrtMemcpyBatchAsync(a->dsts, a->sizes, a->srcs,
						a->sizes, n,
						(aclrtMemcpyBatchAttr *)&a->attr,
						(size_t *)&a->idx, 1, &fail, s));
	for (i = 0; !batch && i < n; i++)
		BENCH_ACL(aclrtMemcpyAsync(a->dsts[i], CHUNK, a->srcs[i], CHUNK,
					   ACL_MEMCPY_HOST_TO_DEVICE, s));
	*call = bench_now() - t;
	BENCH_ACL(aclrtSynchronizeStream(s));
	return bench_now() - t;
}

/* Seconds, medians of RUNS: batch and single calls, in all and the calls. */
struct batch_times {
	double tb, ts, cb, cs;
};

/*
 * The batch and the single calls take turns, so a change of load on a
 * shared machine hits both alike.
 */
static void measure(const struct arrays *a, size_t n, aclrtStream s,
		    struct batch_times *t)
{
	double vb[RUNS], vs[RUNS], cb[RUNS], cs[RUNS];
	int i;

	for (i = 0; i < RUNS; i++) {
		vb[i] = run(a, n, true, s, &cb[i]);
		vs[i] = run(a, n, false, s, &cs[i]);
	}
	t->tb = bench_median(vb, RUNS);
	t->ts = bench_median(vs, RUNS);
	t->cb = bench_median(cb, RUNS);
	t->cs = bench_median(cs, RUNS);
}

static void report(size_t n, const struct batch_times *t)
{
	char metric[80];
	struct bench_result r = {
		.bench = "bench_batch", .metric = metric, .unit = "MB/s",
		.ours = n * CHUNK / t->tb / 1e6, .ref = n * CHUNK / t->ts / 1e6,
		.ratio = t->ts / t->tb, .op = ">=", .target = 3,
	};

	snprintf(metric, sizeof(metric),
		 "MemcpyBatchAsync %zu x 4 KiB vs single calls", n);
	bench_result_json(&r);
	snprintf(metric, sizeof(metric),
		 "MemcpyBatchAsync %zu x 4 KiB, call only", n);
	r.unit = "ms";
	r.ours = t->cb * 1e3;
	r.ref = t->cs * 1e3;
	r.ratio = t->cb / t->cs;
	r.op = NULL;
	bench_result_json(&r);
}

int main(int argc, char **argv)
{
	int dev = -1, json = 0, opt;
	size_t n = 1000, i;
	struct batch_times t;
	struct arrays a;
	aclrtStream s;
	void *h, *d;

	while ((opt = getopt(argc, argv, "d:n:jh")) != -1) {
		if (opt == 'd') {
			dev = atoi(optarg);
		} else if (opt == 'n') {
			n = (size_t)atol(optarg);
		} else if (opt == 'j') {
			json = 1;
		} else {
			printf("usage: bench_batch [-d dev] [-n copies] [-j]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	if (!n)
		return 2;
	if (dev < 0)
		dev = bench_first_sim("bench_batch");
	BENCH_ACL(aclrtSetDevice(dev));
	BENCH_ACL(aclrtCreateStream(&s));
	BENCH_ACL(aclrtMallocHost(&h, n * CHUNK));
	BENCH_ACL(aclrtMalloc(&d, n * CHUNK, ACL_MEM_MALLOC_HUGE_FIRST));
	memset(&a, 0, sizeof(a));
	a.dsts = calloc(n, sizeof(void *));
	a.srcs = calloc(n, sizeof(void *));
	a.sizes = calloc(n, sizeof(size_t));
	if (!a.dsts || !a.srcs || !a.sizes)
		return 1;
	a.attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
	a.attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	a.attr.dstLoc.id = (uint32_t)dev;
	for (i = 0; i < n; i++) {
		a.dsts[i] = (char *)d + i * CHUNK;
		a.srcs[i] = (char *)h + i * CHUNK;
		a.sizes[i] = CHUNK;
	}
	measure(&a, n, s, &t);
	if (json)
		report(n, &t);
	else
		printf("%6s %8s %12s %12s %8s %14s %14s\n"
		       "%6zu %8d %12.1f %12.1f %7.2fx %14.3f %14.3f\n",
		       "copies", "bytes", "batch_MB/s", "single_MB/s", "ratio",
		       "batch_call_ms", "single_call_ms", n, CHUNK,
		       n * CHUNK / t.tb / 1e6, n * CHUNK / t.ts / 1e6,
		       t.ts / t.tb, t.cb * 1e3, t.cs * 1e3);
	BENCH_ACL(aclrtFree(d));
	BENCH_ACL(aclrtFreeHost(h));
	BENCH_ACL(aclrtDestroyStream(s));
	BENCH_ACL(aclrtResetDevice(dev));
	return 0;
}
