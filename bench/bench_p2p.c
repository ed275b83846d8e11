// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_p2p: peer-to-peer bandwidth between two NPUs against a copy
 * staged through pinned host memory (D2H then H2D) on the same pair, in
 * one run. Target (issue 6): P2P >= 1.5x staged.
 *
 *   bench_p2p [-s MiB] [-n iterations] [-a dev] [-b dev] [-j]
 *
 * By default it takes the first two sim NPUs that are peers.
 */
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"

struct opts {
	size_t size;
	int iters;
	int a, b;
	int json;
};

/* The first two sim NPUs that are peers, unless given. */
static void pick_pair(struct opts *o)
{
	uint32_t n = 0;
	int i, j, can;

	if (o->a >= 0 && o->b >= 0)
		return;
	BENCH_ACL(aclrtGetDeviceCount(&n));
	for (i = 0; i < (int)n; i++)
		for (j = 0; j < (int)n; j++)
			if (i != j && bench_backend_is(i, "sim") &&
			    !aclrtDeviceCanAccessPeer(&can, i, j) && can) {
				o->a = i;
				o->b = j;
				return;
			}
	fprintf(stderr, "bench_p2p: no pair of peer sim NPUs\n");
	exit(2);
}

struct bufs {
	void *pa, *pb, *host;
	size_t size;
	int a;
};

/* b -> a through a's engine, peer access enabled. */
static void run_p2p(struct bufs *bf)
{
	BENCH_ACL(aclrtMemcpy(bf->pa, bf->size, bf->pb, bf->size,
			      ACL_MEMCPY_DEVICE_TO_DEVICE));
}

/* b -> pinned host -> a. */
static void run_staged(struct bufs *bf)
{
	BENCH_ACL(aclrtMemcpy(bf->host, bf->size, bf->pb, bf->size,
			      ACL_MEMCPY_DEVICE_TO_HOST));
	BENCH_ACL(aclrtMemcpy(bf->pa, bf->size, bf->host, bf->size,
			      ACL_MEMCPY_HOST_TO_DEVICE));
}

static void report(const struct opts *o, double p2p, double staged)
{
	char metric[64];
	struct bench_result r = {
		.bench = "bench_p2p", .metric = metric, .unit = "GB/s",
		.ours = p2p, .ref = staged, .ratio = p2p / staged,
		.op = ">=", .target = 1.5,
	};

	snprintf(metric, sizeof(metric), "P2P npu%d -> npu%d %zu MiB vs staged",
		 o->b, o->a, o->size >> 20);
	bench_result_json(&r);
}

static double gbps_once(void (*fn)(struct bufs *), struct bufs *bf)
{
	double t = bench_now();

	fn(bf);
	return bf->size / (bench_now() - t) / 1e9;
}

/*
 * GB/s of both paths, median of @iters runs; the paths take turns, so a
 * change of load on a shared machine hits both alike.
 */
static void measure(struct bufs *bf, int iters, double *p2p, double *staged)
{
	double vp[64], vs[64];
	int i;

	for (i = 0; i < iters; i++) {
		vp[i] = gbps_once(run_p2p, bf);
		vs[i] = gbps_once(run_staged, bf);
	}
	*p2p = bench_median(vp, iters);
	*staged = bench_median(vs, iters);
}

static void usage(void)
{
	printf("usage: bench_p2p [-s MiB] [-n iterations] [-a dev] [-b dev] [-j]\n"
	       "  P2P bandwidth (device b -> device a, a's engine) vs a copy staged\n"
	       "  through pinned host memory, median of n runs (default 64 MiB, 5).\n"
	       "  -j prints JSON. Default pair: the first two peer sim NPUs.\n");
}

static void parse(int argc, char **argv, struct opts *o)
{
	int c;

	*o = (struct opts){ .size = 64 << 20, .iters = 5, .a = -1, .b = -1 };
	while ((c = getopt(argc, argv, "s:n:a:b:jh")) != -1) {
		switch (c) {
		case 's':
			o->size = (size_t)atol(optarg) << 20;
			break;
		case 'n':
			o->iters = atoi(optarg);
			break;
		case 'a':
			o->a = atoi(optarg);
			break;
		case 'b':
			o->b = atoi(optarg);
			break;
		case 'j':
			o->json = 1;
			break;
		case 'h':
			usage();
			exit(0);
		default:
			usage();
			exit(2);
		}
	}
	if (!o->size || o->iters < 1 || o->iters > 64) {
		usage();
		exit(2);
	}
}

int main(int argc, char **argv)
{
	struct bufs bf;
	double p2p, staged;
	struct opts o;

	parse(argc, argv, &o);
	BENCH_ACL(aclInit(NULL));
	pick_pair(&o);
	bf = (struct bufs){ .size = o.size, .a = o.a };
	BENCH_ACL(aclrtSetDevice(o.b));
	BENCH_ACL(aclrtMalloc(&bf.pb, o.size, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
	BENCH_ACL(aclrtMemset(bf.pb, o.size, 0x5a, o.size));
	BENCH_ACL(aclrtSetDevice(o.a));
	BENCH_ACL(aclrtMalloc(&bf.pa, o.size, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
	BENCH_ACL(aclrtMallocHost(&bf.host, o.size));
	BENCH_ACL(aclrtDeviceEnablePeerAccess(o.b, 0));

	run_p2p(&bf);		/* warm up: back the lazy pages */
	run_staged(&bf);
	measure(&bf, o.iters, &p2p, &staged);

	if (o.json)
		report(&o, p2p, staged);
	else
		printf("%-6s %-6s %10s %12s %12s %7s  %s\n"
		       "npu%-3d npu%-3d %10zu %7.3f GB/s %7.3f GB/s %6.2fx  %s\n",
		       "to", "from", "bytes", "p2p", "staged", "ratio", "target",
		       o.a, o.b, o.size, p2p, staged, p2p / staged,
		       p2p / staged >= 1.5 ? ">=1.5 ok" : ">=1.5 MISS");

	BENCH_ACL(aclrtFreeHost(bf.host));
	BENCH_ACL(aclrtFree(bf.pa));
	BENCH_ACL(aclrtSetDevice(o.b));
	BENCH_ACL(aclrtFree(bf.pb));
	BENCH_ACL(aclFinalize());
	return 0;
}
