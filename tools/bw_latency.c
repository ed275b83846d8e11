// SPDX-License-Identifier: GPL-2.0-only
/*
 * acl-bandwidth --latency: the rows of tools/acl_latency.c (bench_latency's
 * cases and measurement) on the device of the run, as microseconds and
 * ratios to the null ioctl of the same run.
 */
#include <stdlib.h>

#include "acl_latency.h"
#include "bw.h"

int bw_run_latency(struct bw_report *rep)
{
	double *sec = calloc(lat_nr_cases, sizeof(*sec));
	char err[256];
	size_t i;

	rep->lat = calloc(lat_nr_cases, sizeof(*rep->lat));
	if (!sec || !rep->lat) {
		fprintf(stderr, BW_PROG ": --latency: out of memory\n");
		free(sec);
		return -1;
	}
	if (lat_measure(rep->device, (int)rep->o->calls, NULL, sec, err, sizeof(err))) {
		fprintf(stderr, BW_PROG ": --latency on device %d: %s\n", rep->device, err);
		free(sec);
		return -1;
	}
	for (i = 0; i < lat_nr_cases; i++)
		rep->lat[i] = (struct bw_latency){ .name = lat_cases[i].name,
						   .us = sec[i] * 1e6,
						   .x_null = sec[i] / sec[0] };
	rep->nr_lat = lat_nr_cases;
	free(sec);
	return 0;
}
