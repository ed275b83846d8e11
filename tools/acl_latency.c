// SPDX-License-Identifier: GPL-2.0-only
/*
 * Call-to-completion latency of small libacl operations: see
 * acl_latency.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "acl_latency.h"
#include "npu_null.h"

#define MAX_BYTES	(64 << 10)
/* Bursts a round of LAT_ASYNC_BURST times, at most: 10,000 copies. */
#define LAT_BURST_CALLS	10

const struct lat_case lat_cases[] = {
	{ LAT_NULL, 0, false, "null ioctl", 0 },
	{ LAT_SYNC_H2D, 64, false, "aclrtMemcpy H2D 64 B pinned", 10 },
	{ LAT_SYNC_H2D, 4096, false, "aclrtMemcpy H2D 4 KiB pinned", 10 },
	{ LAT_SYNC_H2D, 65536, false, "aclrtMemcpy H2D 64 KiB pinned", 0 },
	{ LAT_SYNC_D2H, 64, false, "aclrtMemcpy D2H 64 B pinned", 10 },
	{ LAT_SYNC_D2H, 4096, false, "aclrtMemcpy D2H 4 KiB pinned", 10 },
	{ LAT_SYNC_D2H, 65536, false, "aclrtMemcpy D2H 64 KiB pinned", 0 },
	{ LAT_SYNC_H2D, 64, true, "aclrtMemcpy H2D 64 B pageable", 0 },
	{ LAT_SYNC_H2D, 4096, true, "aclrtMemcpy H2D 4 KiB pageable", 0 },
	{ LAT_SYNC_H2D, 65536, true, "aclrtMemcpy H2D 64 KiB pageable", 0 },
	{ LAT_SYNC_D2H, 64, true, "aclrtMemcpy D2H 64 B pageable", 0 },
	{ LAT_SYNC_D2H, 4096, true, "aclrtMemcpy D2H 4 KiB pageable", 0 },
	{ LAT_SYNC_D2H, 65536, true, "aclrtMemcpy D2H 64 KiB pageable", 0 },
	{ LAT_ASYNC_H2D, 64, false, "MemcpyAsync+Sync H2D 64 B pinned", 0 },
	{ LAT_ASYNC_H2D, 4096, false, "MemcpyAsync+Sync H2D 4 KiB pinned", 0 },
	{ LAT_ASYNC_H2D, 65536, false, "MemcpyAsync+Sync H2D 64 KiB pinned", 0 },
	{ LAT_ASYNC_H2D, 64, true, "MemcpyAsync+Sync H2D 64 B pageable", 0 },
	{ LAT_ASYNC_H2D, 4096, true, "MemcpyAsync+Sync H2D 4 KiB pageable", 0 },
	{ LAT_ASYNC_H2D, 65536, true, "MemcpyAsync+Sync H2D 64 KiB pageable", 0 },
	{ LAT_EVENT, 0, false, "RecordEvent to SynchronizeEvent, idle", 10 },
	{ LAT_CALLBACK, 0, false, "LaunchHostFunc to the callback, idle", 10 },
	{ LAT_ASYNC_H2D_FAST, 4096, false, "FAST_SYNC stream: Async+Sync 4 KiB pinned", 0 },
	{ LAT_EVENT_FAST, 0, false, "FAST_SYNC stream: RecordEvent to Sync", 0 },
	{ LAT_CALLBACK_FAST, 0, false, "FAST_SYNC stream: LaunchHostFunc to run", 10 },
	{ LAT_ASYNC_BURST, 4096, false, "1000 MemcpyAsync 4 KiB pinned, per copy", 4 },
};

const size_t lat_nr_cases = sizeof(lat_cases) / sizeof(lat_cases[0]);

struct lat_env {
	int fd;			/* the NPU's DRM node, for the null ioctl */
	void *dev, *pinned, *pageable;
	aclrtStream s, fast;	/* fast: created with ACL_STREAM_FAST_SYNC */
	aclrtEvent e;
	double cb_time;		/* now() inside the callback */
	int cb_done;		/* set, after cb_time, by the callback */
	const char *what;	/* the call that failed */
	aclError err;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Record the first failure; return whether @e is success. */
static bool ok(struct lat_env *env, aclError e, const char *what)
{
	if (e != ACL_SUCCESS && !env->err) {
		env->err = e;
		env->what = what;
	}
	return e == ACL_SUCCESS;
}

static void env_fini(struct lat_env *env)
{
	if (env->e)
		aclrtDestroyEvent(env->e);
	if (env->fast)
		aclrtDestroyStream(env->fast);
	if (env->s)
		aclrtDestroyStream(env->s);
	if (env->pinned)
		aclrtFreeHost(env->pinned);
	if (env->dev)
		aclrtFree(env->dev);
	free(env->pageable);
	if (env->fd >= 0)
		close(env->fd);
}

/* Return: 0, or -1 with env->what and env->err (0 for a null ioctl failure). */
static int env_init(struct lat_env *env, int dev)
{
	char node[NPU_NULL_NODE_LEN];

	env->fd = npu_null_open(dev, node);
	if (env->fd < 0) {
		env->what = "the null ioctl's node";
		return -1;
	}
	env->pageable = aligned_alloc(4096, MAX_BYTES);
	if (!env->pageable) {
		env->what = "malloc";
		return -1;
	}
	if (!ok(env, aclrtMalloc(&env->dev, MAX_BYTES, ACL_MEM_MALLOC_NORMAL_ONLY),
		"aclrtMalloc") ||
	    !ok(env, aclrtMallocHost(&env->pinned, MAX_BYTES), "aclrtMallocHost") ||
	    !ok(env, aclrtCreateStream(&env->s), "aclrtCreateStream") ||
	    !ok(env, aclrtCreateStreamWithConfig(&env->fast, 0, ACL_STREAM_FAST_SYNC),
		"aclrtCreateStreamWithConfig") ||
	    !ok(env, aclrtCreateEvent(&env->e), "aclrtCreateEvent"))
		return -1;
	memset(env->pinned, 1, MAX_BYTES);
	memset(env->pageable, 2, MAX_BYTES);
	return 0;
}

static void callback(void *arg)
{
	struct lat_env *env = arg;

	env->cb_time = now();
	__atomic_store_n(&env->cb_done, 1, __ATOMIC_RELEASE);
}

/* A copy of @c's size and direction, on @s, then its synchronize. */
static bool async_copy(struct lat_env *env, const struct lat_case *c, void *host,
		       aclrtStream s)
{
	return ok(env, aclrtMemcpyAsync(env->dev, MAX_BYTES, host, c->bytes,
					ACL_MEMCPY_HOST_TO_DEVICE, s), "aclrtMemcpyAsync") &&
	       ok(env, aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
}

static bool event_trip(struct lat_env *env, aclrtStream s)
{
	return ok(env, aclrtRecordEvent(env->e, s), "aclrtRecordEvent") &&
	       ok(env, aclrtSynchronizeEvent(env->e), "aclrtSynchronizeEvent");
}

/* Seconds from the launch of a host function to its first instruction. */
static double callback_trip(struct lat_env *env, aclrtStream s)
{
	double t;

	__atomic_store_n(&env->cb_done, 0, __ATOMIC_RELAXED);
	t = now();
	if (!ok(env, aclrtLaunchHostFunc(s, callback, env), "aclrtLaunchHostFunc"))
		return 0;
	while (!__atomic_load_n(&env->cb_done, __ATOMIC_ACQUIRE))
		;
	t = env->cb_time - t;
	ok(env, aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
	return t;
}

/*
 * Seconds per copy of LAT_BURST asynchronous copies of @c's size in a
 * row, from the first call to the synchronize's return: what a stream
 * of small copies costs end to end (issue 27: <= 4 null ioctls).
 */
static double async_burst(struct lat_env *env, const struct lat_case *c)
{
	double t = now();
	int i;

	for (i = 0; i < LAT_BURST; i++)
		if (!ok(env, aclrtMemcpyAsync(env->dev, MAX_BYTES, env->pinned,
					      c->bytes, ACL_MEMCPY_HOST_TO_DEVICE,
					      env->s), "aclrtMemcpyAsync"))
			return 0;
	if (!ok(env, aclrtSynchronizeStream(env->s), "aclrtSynchronizeStream"))
		return 0;
	return (now() - t) / LAT_BURST;
}

/*
 * One call of @c. Return: 0, or for the kinds that time themselves (the
 * callback, the burst), the seconds of their measure.
 */
static double lat_once(struct lat_env *env, const struct lat_case *c)
{
	void *host = c->pageable ? env->pageable : env->pinned;

	switch (c->kind) {
	case LAT_NULL:
		if (npu_null_ioctl(env->fd))
			ok(env, ACL_ERROR_INTERNAL_ERROR, "the null ioctl");
		break;
	case LAT_SYNC_H2D:
		ok(env, aclrtMemcpy(env->dev, MAX_BYTES, host, c->bytes,
				    ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
		break;
	case LAT_SYNC_D2H:
		ok(env, aclrtMemcpy(host, MAX_BYTES, env->dev, c->bytes,
				    ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy");
		break;
	case LAT_ASYNC_H2D:
		async_copy(env, c, host, env->s);
		break;
	case LAT_ASYNC_H2D_FAST:
		async_copy(env, c, host, env->fast);
		break;
	case LAT_EVENT:
		event_trip(env, env->s);
		break;
	case LAT_EVENT_FAST:
		event_trip(env, env->fast);
		break;
	case LAT_CALLBACK:
		return callback_trip(env, env->s);
	case LAT_CALLBACK_FAST:
		return callback_trip(env, env->fast);
	case LAT_ASYNC_BURST:
		return async_burst(env, c);
	}
	return 0;
}

/*
 * Seconds per call of @c, the mean of @calls: the clock is read around
 * the loop (each read is a system call in the guest, about half a null
 * ioctl), except for the callback and the burst, which time themselves.
 * Stops at the first failure.
 */
static double lat_round(struct lat_env *env, const struct lat_case *c, int calls)
{
	bool timed = c->kind == LAT_CALLBACK || c->kind == LAT_CALLBACK_FAST ||
		     c->kind == LAT_ASYNC_BURST;
	double t = now(), sum = 0;
	int i;

	if (c->kind == LAT_ASYNC_BURST)	/* each call is LAT_BURST copies */
		calls = calls < LAT_BURST_CALLS ? calls : LAT_BURST_CALLS;
	for (i = 0; i < calls && !env->what; i++)
		sum += lat_once(env, c);
	if (timed)
		return sum / calls;
	return (now() - t) / calls;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool lat_wanted(const struct lat_case *c, const char *only)
{
	const char *p, *end;
	char part[64];
	size_t n;

	if (!only || c->kind == LAT_NULL)
		return true;
	for (p = only; *p; p = *end ? end + 1 : end) {
		end = strchr(p, '|');
		if (!end)
			end = p + strlen(p);
		n = (size_t)(end - p);
		if (!n || n >= sizeof(part))
			continue;
		memcpy(part, p, n);
		part[n] = '\0';
		if (strstr(c->name, part))
			return true;
	}
	return false;
}

static void rounds(struct lat_env *env, int calls, const char *only, double *sec)
{
	double (*v)[LAT_ROUNDS] = calloc(lat_nr_cases, sizeof(*v));
	size_t c;
	int r;

	if (!v) {
		env->what = "malloc";
		return;
	}
	for (c = 0; c < lat_nr_cases; c++)	/* warm: first pins, first faults */
		if (lat_wanted(&lat_cases[c], only))
			lat_once(env, &lat_cases[c]);
	for (r = 0; r < LAT_ROUNDS && !env->what; r++)
		for (c = 0; c < lat_nr_cases; c++)
			if (lat_wanted(&lat_cases[c], only))
				v[c][r] = lat_round(env, &lat_cases[c], calls);
	for (c = 0; c < lat_nr_cases; c++)
		sec[c] = median(v[c], LAT_ROUNDS);
	free(v);
}

int lat_measure(int dev, int calls, const char *only, double *sec, char *err,
		size_t len)
{
	struct lat_env env = { .fd = -1 };

	if (calls < 1 || calls > LAT_MAX_CALLS) {
		snprintf(err, len, "calls %d out of range [1, %d]", calls, LAT_MAX_CALLS);
		return -1;
	}
	if (!env_init(&env, dev))
		rounds(&env, calls, only, sec);
	if (env.what && env.err)
		snprintf(err, len, "%s: error %d: %s", env.what, (int)env.err,
			 aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "");
	else if (env.what)
		snprintf(err, len, "%s: %s", env.what,
			 env.fd < 0 ? strerror(-env.fd) : "failed");
	env_fini(&env);
	return env.what ? -1 : 0;
}
