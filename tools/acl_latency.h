/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Call-to-completion latency of small libacl operations against the
 * null ioctl of the same run (issue 27), shared by bench/bench_latency
 * (targets, make bench) and acl-bandwidth --latency (a table and the
 * plot). Sizes 64 B, 4 KiB and 64 KiB:
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
 * spin before they sleep (lib/acl_ring.c); and a stream of LAT_BURST asynchronous 4 KiB copies
 * of pinned memory with one synchronize, per copy.
 * Each figure is the median of LAT_ROUNDS rounds, the mean of @calls
 * calls each, timed around the whole round (the callback's call by
 * call, from the launch to a clock read inside it); the kinds take turns
 * in every round so that load changes hit all alike.
 * Users compile in acl_latency.c and npu_node.c and link libacl.
 */
#ifndef ACL_LATENCY_H
#define ACL_LATENCY_H

#include <stdbool.h>
#include <stddef.h>

#define LAT_ROUNDS	5
#define LAT_MAX_CALLS	100000

enum lat_kind {
	LAT_NULL,
	LAT_SYNC_H2D,
	LAT_SYNC_D2H,
	LAT_ASYNC_H2D,
	LAT_EVENT,
	LAT_CALLBACK,
	LAT_ASYNC_H2D_FAST,	/* on an ACL_STREAM_FAST_SYNC stream */
	LAT_EVENT_FAST,
	LAT_CALLBACK_FAST,
	LAT_ASYNC_BURST,	/* LAT_BURST async copies, one synchronize */
};

/* Copies in a row of LAT_ASYNC_BURST; its figure is per copy. */
#define LAT_BURST	1000

/**
 * struct lat_case - one row of the latency table
 * @kind: what is timed
 * @bytes: size of the copy; 0 for the others
 * @pageable: host side from malloc instead of aclrtMallocHost
 * @name: the row's label (no commas or quotes)
 * @target: bench_latency holds it to at most this many null ioctls; 0:
 *	no target
 */
struct lat_case {
	enum lat_kind kind;
	size_t bytes;
	bool pageable;
	const char *name;
	int target;
};

/* The rows, the null ioctl first (every ratio's denominator). */
extern const struct lat_case lat_cases[];
extern const size_t lat_nr_cases;

/*
 * Measure the rows on libacl's device @dev, already set with
 * aclrtSetDevice by the caller: @sec[i] gets row i's seconds per call
 * (lat_nr_cases entries), @calls (1 .. LAT_MAX_CALLS) calls a round.
 * @only: NULL for every row, else "a|b|...": the null ioctl and the rows
 * whose name contains one of them; the others get 0 (an edu card, whose
 * transfers take 100 ms of guest time, cannot afford the burst).
 * Return: 0, or -1 with what failed in @err.
 */
int lat_measure(int dev, int calls, const char *only, double *sec, char *err,
		size_t len);
/* Is row @c among @only (see lat_measure())? */
bool lat_wanted(const struct lat_case *c, const char *only);

#endif /* ACL_LATENCY_H */
