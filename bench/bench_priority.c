// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_priority: how long a small copy on a stream of the highest
 * priority takes while streams of lower priority keep every DMA channel
 * of the NPU busy (issue 26: priorities honoured by the driver's
 * scheduler). A backlog of NLOW streams, each with a batch of copies to
 * the NPU (a batch's runners keep their channels from member to member),
 * then a 64 KiB aclrtMemcpyAsync + aclrtSynchronizeStream on a priority-0
 * stream, timed. Three conditions, each the median of -r rounds:
 *  - idle: no backlog (the reference);
 *  - backlog at the same priority (0): the copy waits for a channel that
 *    a batch gives up only when it is done;
 *  - backlog at priority 7: a batch gives its channel to the waiting
 *    copy between two members.
 * Also the backlog's own time, to show what "waiting for it" costs.
 * No target: the figures show the arbitration, they are not a promise.
 *
 *   bench_priority [-d dev] [-r rounds] [-j]
 */
#include <getopt.h>
#include <string.h>

#include "bench_util.h"

#define NLOW		4
#define MEMBERS		128
#define CHUNK		(128 << 10)
#define COPY		(64 << 10)

struct prio_env {
	int dev;
	aclrtStream high, low[NLOW];
	void *host, *dev_mem, *small;
	void *dsts[MEMBERS], *srcs[MEMBERS];
	size_t sizes[MEMBERS];
};

static void env_init(struct prio_env *e, int dev)
{
	size_t i;
	int k;

	e->dev = dev;
	BENCH_ACL(aclrtCreateStreamWithConfig(&e->high, 0, 0));
	for (k = 0; k < NLOW; k++)
		BENCH_ACL(aclrtCreateStream(&e->low[k]));
	BENCH_ACL(aclrtMallocHost(&e->host, (size_t)MEMBERS * CHUNK));
	BENCH_ACL(aclrtMallocHost(&e->small, COPY));
	BENCH_ACL(aclrtMalloc(&e->dev_mem, (size_t)NLOW * MEMBERS * CHUNK,
			      ACL_MEM_MALLOC_HUGE_FIRST));
	memset(e->host, 1, (size_t)MEMBERS * CHUNK);
	memset(e->small, 2, COPY);
	for (i = 0; i < MEMBERS; i++) {
		e->srcs[i] = (char *)e->host + i * CHUNK;
		e->sizes[i] = CHUNK;
	}
}

static void env_fini(struct prio_env *e)
{
	int k;

	BENCH_ACL(aclrtDestroyStream(e->high));
	for (k = 0; k < NLOW; k++)
		BENCH_ACL(aclrtDestroyStream(e->low[k]));
	BENCH_ACL(aclrtFreeHost(e->host));
	BENCH_ACL(aclrtFreeHost(e->small));
	BENCH_ACL(aclrtFree(e->dev_mem));
}

/* Low stream @k's batch: the whole host buffer to its part of the NPU's. */
static void backlog_one(struct prio_env *e, int k)
{
	aclrtMemcpyBatchAttr attr;
	size_t zero = 0, fail, i;

	memset(&attr, 0, sizeof(attr));
	attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
	attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	attr.dstLoc.id = (uint32_t)e->dev;
	for (i = 0; i < MEMBERS; i++)
		e->dsts[i] = (char *)e->dev_mem + ((size_t)k * MEMBERS + i) * CHUNK;
	BENCH_ACL(aclrtMemcpyBatchAsync(e->dsts, e->sizes, e->srcs, e->sizes,
					MEMBERS, &attr, &zero, 1, &fail,
					e->low[k]));
}

static void backlog_sync(struct prio_env *e)
{
	int k;

	for (k = 0; k < NLOW; k++)
		BENCH_ACL(aclrtSynchronizeStream(e->low[k]));
}

static double high_copy(struct prio_env *e)
{
	double t0 = bench_now();

	BENCH_ACL(aclrtMemcpyAsync(e->dev_mem, COPY, e->small, COPY,
				   ACL_MEMCPY_HOST_TO_DEVICE, e->high));
	BENCH_ACL(aclrtSynchronizeStream(e->high));
	return bench_now() - t0;
}

enum prio_cond { COND_IDLE, COND_SAME, COND_LOW, COND_BACKLOG, NR_COND };

static const char *const cond_names[NR_COND] = {
	"64 KiB copy, priority 0, idle NPU",
	"64 KiB copy, priority 0, backlog at priority 0",
	"64 KiB copy, priority 0, backlog at priority 7",
	"the backlog alone",
};

/* One round of condition @c; returns the time measured. */
static double prio_round(struct prio_env *e, enum prio_cond c)
{
	aclrtStreamAttrValue v = { .streamPriority = c == COND_LOW ? 7 : 0 };
	double t, t0;
	int k;

	if (c == COND_IDLE)
		return high_copy(e);
	for (k = 0; k < NLOW; k++)
		BENCH_ACL(aclrtSetStreamAttribute(e->low[k],
						  ACL_STREAM_ATTR_PRIORITY, &v));
	t0 = bench_now();
	for (k = 0; k < NLOW; k++)
		backlog_one(e, k);
	t = c == COND_BACKLOG ? 0 : high_copy(e);
	backlog_sync(e);
	return c == COND_BACKLOG ? bench_now() - t0 : t;
}

static void measure(int dev, int rounds, double *med)
{
	double *v = calloc((size_t)NR_COND * rounds, sizeof(*v));
	struct prio_env e;
	int c, r;

	if (!v)
		exit(1);
	env_init(&e, dev);
	for (c = 0; c < NR_COND; c++)	/* warm: first faults, first pins */
		prio_round(&e, c);
	for (r = 0; r < rounds; r++)	/* conditions take turns */
		for (c = 0; c < NR_COND; c++)
			v[c * rounds + r] = prio_round(&e, c);
	env_fini(&e);
	for (c = 0; c < NR_COND; c++)
		med[c] = bench_median(&v[c * rounds], rounds);
	free(v);
}

static void report(const double *med, int json)
{
	struct bench_result r = { .bench = "bench_priority", .unit = "us",
				  .ref = med[COND_IDLE] * 1e6 };
	char metric[96];
	int c;

	if (!json)
		printf("%-50s %12s %9s\n", "condition", "time", "x idle");
	for (c = 0; c < NR_COND; c++) {
		if (!json) {
			printf("%-50s %9.1f us %8.1fx\n", cond_names[c],
			       med[c] * 1e6, med[c] / med[COND_IDLE]);
			continue;
		}
		if (c == COND_IDLE)
			continue;
		snprintf(metric, sizeof(metric), "%s vs idle", cond_names[c]);
		r.metric = metric;
		r.ours = med[c] * 1e6;
		r.ratio = med[c] / med[COND_IDLE];
		bench_result_json(&r);
	}
	if (!json)
		printf("priority 7 backlog vs priority 0 backlog: the copy is %.1fx faster\n",
		       med[COND_SAME] / med[COND_LOW]);
}

static void usage(int status)
{
	printf("usage: bench_priority [-d dev] [-r rounds] [-j]\n"
	       "  Latency of a 64 KiB copy on a priority-0 stream while %d streams\n"
	       "  keep the NPU's DMA channels busy with batches (%d copies of %d KiB\n"
	       "  each), at the same priority and at priority 7, against the idle\n"
	       "  NPU (default: the first sim NPU, median of 5 rounds).\n",
	       NLOW, MEMBERS, CHUNK >> 10);
	exit(status);
}

int main(int argc, char **argv)
{
	int dev = -1, rounds = 5, json = 0, c;
	double med[NR_COND];

	while ((c = getopt(argc, argv, "d:r:jh")) != -1) {
		if (c == 'd')
			dev = atoi(optarg);
		else if (c == 'r')
			rounds = atoi(optarg);
		else if (c == 'j')
			json = 1;
		else
			usage(c == 'h' ? 0 : 2);
	}
	if (rounds < 1 || rounds > 1000)
		usage(2);
	if (dev < 0)
		dev = bench_first_sim("bench_priority");
	BENCH_ACL(aclInit(NULL));
	BENCH_ACL(aclrtSetDevice(dev));
	measure(dev, rounds, med);
	report(med, json);
	BENCH_ACL(aclrtResetDevice(dev));
	BENCH_ACL(aclFinalize());
	return 0;
}
