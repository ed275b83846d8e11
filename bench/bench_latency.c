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
 * and the async copy and the event once more on a stream created with
 * ACL_STREAM_FAST_SYNC, whose waiters spin before they sleep
 * (lib/acl_ring.c).
 * Targets: the small synchronous copies (64 B and 4 KiB, pinned) and the
 * event and callback round trips <= 10x the null ioctl, on sim NPUs.
 * The null ioctl is bench_submit's (an unknown DRM command number on the
 * NPU's node). Each figure is the median of ROUNDS rounds, the mean of
 * -n calls each, timed around the whole round (the callback's call by
 * call, from the launch to a clock read inside it); the kinds take turns
 * so that load changes hit all alike.
 *
 *   bench_latency [-d dev] [-n calls] [-j]
 */
#include <getopt.h>
#include <string.h>

#include "bench_null.h"

#define ROUNDS		5
#define MAX_BYTES	(64 << 10)
#define TARGET		10

enum lat_kind {
	LAT_NULL,
	LAT_SYNC_H2D,
	LAT_SYNC_D2H,
	LAT_ASYNC_H2D,
	LAT_EVENT,
	LAT_CALLBACK,
	LAT_ASYNC_H2D_FAST,	/* on an ACL_STREAM_FAST_SYNC stream */
	LAT_EVENT_FAST,
};

struct lat_case {
	enum lat_kind kind;
	size_t bytes;
	bool pageable;
	const char *name;
	bool target;
};

static const struct lat_case cases[] = {
	{ LAT_NULL, 0, false, "null ioctl", false },
	{ LAT_SYNC_H2D, 64, false, "aclrtMemcpy H2D 64 B pinned", true },
	{ LAT_SYNC_H2D, 4096, false, "aclrtMemcpy H2D 4 KiB pinned", true },
	{ LAT_SYNC_H2D, 65536, false, "aclrtMemcpy H2D 64 KiB pinned", false },
	{ LAT_SYNC_D2H, 64, false, "aclrtMemcpy D2H 64 B pinned", true },
	{ LAT_SYNC_D2H, 4096, false, "aclrtMemcpy D2H 4 KiB pinned", true },
	{ LAT_SYNC_D2H, 65536, false, "aclrtMemcpy D2H 64 KiB pinned", false },
	{ LAT_SYNC_H2D, 64, true, "aclrtMemcpy H2D 64 B pageable", false },
	{ LAT_SYNC_H2D, 4096, true, "aclrtMemcpy H2D 4 KiB pageable", false },
	{ LAT_SYNC_H2D, 65536, true, "aclrtMemcpy H2D 64 KiB pageable", false },
	{ LAT_SYNC_D2H, 64, true, "aclrtMemcpy D2H 64 B pageable", false },
	{ LAT_SYNC_D2H, 4096, true, "aclrtMemcpy D2H 4 KiB pageable", false },
	{ LAT_SYNC_D2H, 65536, true, "aclrtMemcpy D2H 64 KiB pageable", false },
	{ LAT_ASYNC_H2D, 64, false, "MemcpyAsync+Sync H2D 64 B pinned", false },
	{ LAT_ASYNC_H2D, 4096, false, "MemcpyAsync+Sync H2D 4 KiB pinned", false },
	{ LAT_ASYNC_H2D, 65536, false, "MemcpyAsync+Sync H2D 64 KiB pinned", false },
	{ LAT_ASYNC_H2D, 64, true, "MemcpyAsync+Sync H2D 64 B pageable", false },
	{ LAT_ASYNC_H2D, 4096, true, "MemcpyAsync+Sync H2D 4 KiB pageable", false },
	{ LAT_ASYNC_H2D, 65536, true, "MemcpyAsync+Sync H2D 64 KiB pageable", false },
	{ LAT_EVENT, 0, false, "RecordEvent to SynchronizeEvent, idle", true },
	{ LAT_CALLBACK, 0, false, "LaunchHostFunc to the callback, idle", true },
	{ LAT_ASYNC_H2D_FAST, 4096, false, "FAST_SYNC stream: Async+Sync 4 KiB pinned", false },
	{ LAT_EVENT_FAST, 0, false, "FAST_SYNC stream: RecordEvent to Sync", false },
};

#define NR_CASES	(sizeof(cases) / sizeof(cases[0]))

struct lat_env {
	int fd;			/* the NPU's DRM node, for the null ioctl */
	void *dev, *pinned, *pageable;
	aclrtStream s, fast;	/* fast: created with ACL_STREAM_FAST_SYNC */
	aclrtEvent e;
	double cb_time;		/* bench_now() inside the callback */
	int cb_done;		/* set, after cb_time, by the callback */
};

static void env_init(struct lat_env *env, int dev)
{
	env->fd = bench_null_open("bench_latency", dev);
	BENCH_ACL(aclrtMalloc(&env->dev, MAX_BYTES, ACL_MEM_MALLOC_NORMAL_ONLY));
	BENCH_ACL(aclrtMallocHost(&env->pinned, MAX_BYTES));
	env->pageable = aligned_alloc(4096, MAX_BYTES);
	if (!env->pageable)
		exit(1);
	memset(env->pinned, 1, MAX_BYTES);
	memset(env->pageable, 2, MAX_BYTES);
	BENCH_ACL(aclrtCreateStream(&env->s));
	BENCH_ACL(aclrtCreateStreamWithConfig(&env->fast, 0, ACL_STREAM_FAST_SYNC));
	BENCH_ACL(aclrtCreateEvent(&env->e));
}

static void env_fini(struct lat_env *env)
{
	BENCH_ACL(aclrtDestroyEvent(env->e));
	BENCH_ACL(aclrtDestroyStream(env->fast));
	BENCH_ACL(aclrtDestroyStream(env->s));
	BENCH_ACL(aclrtFreeHost(env->pinned));
	BENCH_ACL(aclrtFree(env->dev));
	free(env->pageable);
	close(env->fd);
}

static void callback(void *arg)
{
	struct lat_env *env = arg;

	env->cb_time = bench_now();
	__atomic_store_n(&env->cb_done, 1, __ATOMIC_RELEASE);
}

/*
 * One call of @c. Return: 0, or for the callback, the seconds from its
 * launch to its run (the clock is read inside it).
 */
static double lat_once(struct lat_env *env, const struct lat_case *c)
{
	void *host = c->pageable ? env->pageable : env->pinned;
	double t;

	switch (c->kind) {
	case LAT_NULL:
		bench_null_ioctl(env->fd);
		break;
	case LAT_SYNC_H2D:
		BENCH_ACL(aclrtMemcpy(env->dev, MAX_BYTES, host, c->bytes,
				      ACL_MEMCPY_HOST_TO_DEVICE));
		break;
	case LAT_SYNC_D2H:
		BENCH_ACL(aclrtMemcpy(host, MAX_BYTES, env->dev, c->bytes,
				      ACL_MEMCPY_DEVICE_TO_HOST));
		break;
	case LAT_ASYNC_H2D:
		BENCH_ACL(aclrtMemcpyAsync(env->dev, MAX_BYTES, host, c->bytes,
					   ACL_MEMCPY_HOST_TO_DEVICE, env->s));
		BENCH_ACL(aclrtSynchronizeStream(env->s));
		break;
	case LAT_EVENT:
		BENCH_ACL(aclrtRecordEvent(env->e, env->s));
		BENCH_ACL(aclrtSynchronizeEvent(env->e));
		break;
	case LAT_ASYNC_H2D_FAST:
		BENCH_ACL(aclrtMemcpyAsync(env->dev, MAX_BYTES, host, c->bytes,
					   ACL_MEMCPY_HOST_TO_DEVICE, env->fast));
		BENCH_ACL(aclrtSynchronizeStream(env->fast));
		break;
	case LAT_EVENT_FAST:
		BENCH_ACL(aclrtRecordEvent(env->e, env->fast));
		BENCH_ACL(aclrtSynchronizeEvent(env->e));
		break;
	case LAT_CALLBACK:
		__atomic_store_n(&env->cb_done, 0, __ATOMIC_RELAXED);
		t = bench_now();
		BENCH_ACL(aclrtLaunchHostFunc(env->s, callback, env));
		while (!__atomic_load_n(&env->cb_done, __ATOMIC_ACQUIRE))
			;
		t = env->cb_time - t;
		BENCH_ACL(aclrtSynchronizeStream(env->s));
		return t;
	}
	return 0;
}

/*
 * Seconds per call of @c, the mean of @calls: the clock is read around
 * the loop (each read is a system call in the guest, about half a null
 * ioctl), except for the callback, timed call by call.
 */
static double lat_round(struct lat_env *env, const struct lat_case *c,
			int calls)
{
	double t = bench_now(), sum = 0;
	int i;

	for (i = 0; i < calls; i++)
		sum += lat_once(env, c);
	if (c->kind == LAT_CALLBACK)
		return sum / calls;
	return (bench_now() - t) / calls;
}

/* Medians over ROUNDS of the mean of @calls calls, every case per round. */
static void measure(int dev, int calls, double *med)
{
	static double v[NR_CASES][ROUNDS];
	struct lat_env env = { 0 };
	size_t c;
	int r;

	env_init(&env, dev);
	for (c = 0; c < NR_CASES; c++)	/* warm: first pins, first faults */
		lat_once(&env, &cases[c]);
	for (r = 0; r < ROUNDS; r++)
		for (c = 0; c < NR_CASES; c++)
			v[c][r] = lat_round(&env, &cases[c], calls);
	env_fini(&env);
	for (c = 0; c < NR_CASES; c++)
		med[c] = bench_median(v[c], ROUNDS);
}

static void report_json(const double *med)
{
	struct bench_result r = { .bench = "bench_latency", .unit = "us",
				  .ref = med[0] * 1e6 };
	char metric[96];
	size_t c;

	r.metric = metric;
	for (c = 1; c < NR_CASES; c++) {
		snprintf(metric, sizeof(metric), "%s vs null ioctl", cases[c].name);
		r.ours = med[c] * 1e6;
		r.ratio = med[c] / med[0];
		r.op = cases[c].target ? "<=" : NULL;
		r.target = TARGET;
		bench_result_json(&r);
	}
}

static void report_table(const double *med)
{
	size_t c;

	printf("%-42s %10s %9s  %s\n", "latency", "time", "x null", "target");
	for (c = 0; c < NR_CASES; c++) {
		printf("%-42s %7.2f us %8.1fx", cases[c].name, med[c] * 1e6,
		       med[c] / med[0]);
		if (cases[c].target)
			printf("  <=%d %s", TARGET,
			       med[c] <= TARGET * med[0] ? "ok" : "MISS");
		printf("\n");
	}
}

static void usage(int status)
{
	printf("usage: bench_latency [-d dev] [-n calls] [-j]\n"
	       "  Call-to-completion latency of small synchronous and asynchronous\n"
	       "  copies (64 B, 4 KiB, 64 KiB; pinned and pageable), of an event's\n"
	       "  record to its synchronize and of a host function's launch to its\n"
	       "  run, as ratios to a null ioctl on the same NPU (default: the first\n"
	       "  sim NPU, 200 calls each, median of %d rounds).\n", ROUNDS);
	exit(status);
}

int main(int argc, char **argv)
{
	int dev = -1, calls = 200, json = 0, c;
	double med[NR_CASES];

	while ((c = getopt(argc, argv, "d:n:jh")) != -1) {
		if (c == 'd')
			dev = atoi(optarg);
		else if (c == 'n')
			calls = atoi(optarg);
		else if (c == 'j')
			json = 1;
		else
			usage(c == 'h' ? 0 : 2);
	}
	if (calls < 1 || calls > 100000)
		usage(2);
	if (dev < 0)
		dev = bench_first_sim("bench_latency");
	BENCH_ACL(aclInit(NULL));
	BENCH_ACL(aclrtSetDevice(dev));
	measure(dev, calls, med);
	if (json)
		report_json(med);
	else
		report_table(med);
	BENCH_ACL(aclrtResetDevice(dev));
	BENCH_ACL(aclFinalize());
	return 0;
}
