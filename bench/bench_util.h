/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Small helpers of the benchmark programs: a monotonic clock, the median
 * of a few runs, failing loudly on an acl error, and the result lines
 * (-j) that scripts/bench.sh gathers into one table and one JSON file.
 * NPUs are found in sysfs by tools/npu_node.c (built into every program).
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "npu_attr.h"

static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median of n samples (sorts them). */
static inline double bench_median(double *v, int n)
{
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * libacl's device @dev: the NPU at position @dev in index order (these
 * programs leave ASCEND_RT_VISIBLE_DEVICES alone). Return: 0, or -1 if
 * there is no such NPU.
 */
static inline int bench_npu(int dev, struct npu_node *n)
{
	struct npu_node *nodes;
	int count, ret = -1;

	if (dev < 0 || dev >= NPU_ATTR_MAX_NPUS)
		return -1;
	nodes = calloc(NPU_ATTR_MAX_NPUS, sizeof(*nodes));
	if (!nodes)
		return -1;
	count = npu_node_list("/sys", nodes, NPU_ATTR_MAX_NPUS);
	if (dev < count) {
		*n = nodes[dev];
		ret = 0;
	}
	free(nodes);
	return ret;
}

/* Whether device @dev exists and its backend is @name. */
static inline bool bench_backend_is(int dev, const char *name)
{
	char buf[16];

	return !npu_attr_nth(dev, "backend", buf, sizeof(buf)) &&
	       !strcmp(buf, name);
}

/* The first device whose backend is @name, or -1. */
static inline int bench_first_backend(const char *name)
{
	struct npu_node *nodes = calloc(NPU_ATTR_MAX_NPUS, sizeof(*nodes));
	int count, i, found = -1;
	char buf[16];

	if (!nodes)
		return -1;
	count = npu_node_list("/sys", nodes, NPU_ATTR_MAX_NPUS);
	for (i = 0; i < count && found < 0; i++)
		if (!npu_attr_read(&nodes[i], "backend", buf, sizeof(buf)) &&
		    !strcmp(buf, name))
			found = i;
	free(nodes);
	return found;
}

/* The first simulated NPU; exits if none. */
static inline int bench_first_sim(const char *prog)
{
	int i = bench_first_backend("sim");

	if (i < 0) {
		fprintf(stderr, "%s: no sim NPU\n", prog);
		exit(2);
	}
	return i;
}

/**
 * struct bench_result - one figure against its reference, same run
 * @bench: program name
 * @metric: what was measured (no double quotes)
 * @unit: unit of @ours and @ref ("GB/s", "us", ...)
 * @ours: our path
 * @ref: the path it is compared with
 * @ratio: the figure the target is stated in (ours / ref unless the
 *	metric says otherwise)
 * @op: ">=" or "<=" against @target; NULL for a figure with no target
 * @target: the bound on @ratio
 */
struct bench_result {
	const char *bench, *metric, *unit;
	double ours, ref, ratio;
	const char *op;
	double target;
};

/* A JSON number, or null for what JSON cannot hold (inf, nan). */
static inline void bench_json_num(const char *key, double v)
{
	if (isfinite(v))
		printf("\"%s\": %.6g, ", key, v);
	else
		printf("\"%s\": null, ", key);
}

/*
 * Print @r as one line of JSON, the format scripts/bench.sh reads:
 * {"bench": .., "metric": .., "unit": .., "ours": .., "reference": ..,
 *  "ratio": .., "op": .., "target": .., "pass": true|false|null}
 */
static inline void bench_result_json(const struct bench_result *r)
{
	bool pass = r->op && (r->op[0] == '>' ? r->ratio >= r->target :
				       r->ratio <= r->target);

	printf("{\"bench\": \"%s\", \"metric\": \"%s\", \"unit\": \"%s\", ",
	       r->bench, r->metric, r->unit);
	bench_json_num("ours", r->ours);
	bench_json_num("reference", r->ref);
	bench_json_num("ratio", r->ratio);
	if (r->op)
		printf("\"op\": \"%s\", \"target\": %g, \"pass\": %s}\n",
		       r->op, r->target, pass ? "true" : "false");
	else
		printf("\"op\": null, \"target\": null, \"pass\": null}\n");
	fflush(stdout);
}

#define BENCH_ACL(call)							\
	do {								\
		aclError _r = (call);					\
		if (_r != ACL_SUCCESS) {				\
			fprintf(stderr, "%s: %d (%s)\n", #call, _r,	\
				aclGetRecentErrMsg());			\
			exit(1);					\
		}							\
	} while (0)

#endif /* BENCH_UTIL_H */
