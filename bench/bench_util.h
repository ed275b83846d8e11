/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Small helpers of the benchmark programs: a monotonic clock, the median
 * of a few runs, and failing loudly on an acl error.
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

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

/* The first simulated NPU (index N of /dev/npu_dmaN); exits if none. */
static inline int bench_first_sim(const char *prog)
{
	char path[96], buf[8];
	FILE *f;
	int i, sim;

	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path), "/sys/class/npu_dma/npu_dma%d/backend", i);
		f = fopen(path, "r");
		if (!f)
			continue;
		sim = fgets(buf, sizeof(buf), f) && !strncmp(buf, "sim", 3);
		fclose(f);
		if (sim)
			return i;
	}
	fprintf(stderr, "%s: no sim NPU\n", prog);
	exit(2);
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
