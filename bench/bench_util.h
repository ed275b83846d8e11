/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Small helpers of the benchmark programs: a monotonic clock, the median
 * of a few runs, failing loudly on an acl error, and the result lines
 * (-j) that scripts/bench.sh gathers into one table and one JSON file.
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

/* Whether NPU @dev (N of /dev/npu_dmaN) exists and its backend is @name. */
static inline bool bench_backend_is(int dev, const char *name)
{
	char path[96], buf[16];
	bool is;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/npu_dma/npu_dma%d/backend", dev);
	f = fopen(path, "r");
	if (!f)
		return false;
	is = fgets(buf, sizeof(buf), f) && !strncmp(buf, name, strlen(name));
	fclose(f);
	return is;
}

/* The first NPU whose backend is @name, or -1. */
static inline int bench_first_backend(const char *name)
{
	int i;

	for (i = 0; i < 64; i++)
		if (bench_backend_is(i, name))
			return i;
	return -1;
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
