// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_latency: how long a small operation takes from the call to its
 * completion as the caller sees it, against the guest's null ioctl of
 * the same run (issue 27). Sizes 64 B, 4 KiB and 64 KiB:
 *  - synchronous aclrtMemcpy, host to device and device to host, pinned
 *    (aclrtMallocHost) and pageable (malloc) host memory;
 *  - aclrtMemcpyAsync host to device + aclrtSynchronizeStream, pinned and
 *    pageable;
 * and on an idle stream:
 *  - aclrtRecordEvent + aclrtSynchronizeEvent;
 *  - aclrtLaunchHostFunc to the callback's first instruction (run by the
 *    runtime's thread; the time is taken inside the callback), then
 *    aclrtSynchronizeStream, not timed;
 * and the async copy, the event and the callback once more on a stream
 * created with ACL_STREAM_FAST_SYNC, whose waiters (and callback runner)
 * spin before they sleep (lib/acl_ring.c); and 1,000 asynchronous 4 KiB copies in a row, one
 * synchronize, per copy.
 * Targets: the small synchronous copies (64 B and 4 KiB, pinned) and the
 * event and callback round trips <= 10x the null ioctl, the burst <= 4x
 * per copy, on sim NPUs.
 * The null ioctl is bench_submit's (an unknown DRM command number on the
 * NPU's node). The cases and their measurement are tools/acl_latency.c,
 * shared with acl-bandwidth --latency: each figure is the median of
 * LAT_ROUNDS rounds, the mean of -n calls each.
 *
 *   bench_latency [-d dev] [-n calls] [-r rows] [-j]
 */
#include <getopt.h>

#include "acl_latency.h"
#include "bench_util.h"

/* Medians of every row (tools/acl_latency.c); exits on failure. */
static void measure(int dev, int calls, const char *only, double *med)
{
	char err[256];

	if (lat_measure(dev, calls, only, med, err, sizeof(err))) {
		fprintf(stderr, "bench_latency: %s\n", err);
		exit(1);
	}
}

static void report_json(const double *med, const char *only)
{
	struct bench_result r = { .bench = "bench_latency", .unit = "us",
				  .ref = med[0] * 1e6 };
	char metric[96];
	size_t c;

	r.metric = metric;
	for (c = 1; c < lat_nr_cases; c++) {
		if (!lat_wanted(&lat_cases[c], only))
			continue;
		snprintf(metric, sizeof(metric), "%s vs null ioctl", lat_cases[c].name);
		r.ours = med[c] * 1e6;
		r.ratio = med[c] / med[0];
		r.op = lat_cases[c].target ? "<=" : NULL;
		r.target = lat_cases[c].target;
		bench_result_json(&r);
	}
}

static void report_table(const double *med, const char *only)
{
	size_t c;

	printf("%-42s %10s %9s  %s\n", "latency", "time", "x null", "target");
	for (c = 0; c < lat_nr_cases; c++) {
		if (!lat_wanted(&lat_cases[c], only))
			continue;
		printf("%-42s %7.2f us %8.1fx", lat_cases[c].name, med[c] * 1e6,
		       med[c] / med[0]);
		if (lat_cases[c].target)
			printf("  <=%d %s", lat_cases[c].target,
			       med[c] <= lat_cases[c].target * med[0] ?
			       "ok" : "MISS");
		printf("\n");
	}
}

static void usage(int status)
{
	printf("usage: bench_latency [-d dev] [-n calls] [-r rows] [-j]\n"
	       "  Call-to-completion latency of small synchronous and asynchronous\n"
	       "  copies (64 B, 4 KiB, 64 KiB; pinned and pageable), of an event's\n"
	       "  record to its synchronize and of a host function's launch to its\n"
	       "  run, and of 1000 asynchronous 4 KiB copies in a row (per copy), as\n"
	       "  ratios to a null ioctl on the same NPU (default: the first sim NPU,\n"
	       "  200 calls each, the burst at most 10 times, median of %d rounds).\n"
	       "  -r \"a|b\": only the null ioctl and the rows whose name contains a\n"
	       "  or b (an edu card's transfers take 100 ms of guest time each).\n",
	       LAT_ROUNDS);
	exit(status);
}

int main(int argc, char **argv)
{
	int dev = -1, calls = 200, json = 0, c;
	const char *only = NULL;
	double *med;

	while ((c = getopt(argc, argv, "d:n:r:jh")) != -1) {
		if (c == 'd')
			dev = atoi(optarg);
		else if (c == 'r')
			only = optarg;
		else if (c == 'n')
			calls = atoi(optarg);
		else if (c == 'j')
			json = 1;
		else
			usage(c == 'h' ? 0 : 2);
	}
	if (calls < 1 || calls > LAT_MAX_CALLS)
		usage(2);
	if (dev < 0)
		dev = bench_first_sim("bench_latency");
	BENCH_ACL(aclInit(NULL));
	BENCH_ACL(aclrtSetDevice(dev));
	med = calloc(lat_nr_cases, sizeof(*med));
	if (!med)
		exit(1);
	measure(dev, calls, only, med);
	if (json)
		report_json(med, only);
	else
		report_table(med, only);
	BENCH_ACL(aclrtResetDevice(dev));
	BENCH_ACL(aclFinalize());
	return 0;
}
