// SPDX-License-Identifier: GPL-2.0-only
/*
 * acl-bandwidth: statistics of the iterations.
 */
#include <stdlib.h>
#include <string.h>

#include "bw.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void bw_stats(const double *v, size_t n, struct bw_stats *st)
{
	double small[64], *s = n <= 64 ? small : malloc(n * sizeof(*s));

	if (!s) {
		/* No memory for a sorted copy: the first sample stands for all. */
		st->median = st->min = st->max = v[0];
		return;
	}
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	st->min = s[0];
	st->max = s[n - 1];
	st->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	if (s != small)
		free(s);
}

double bw_gbps(uint64_t bytes, double seconds)
{
	return seconds > 0 ? (double)bytes / seconds / 1e9 : 0;
}
