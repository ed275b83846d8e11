// SPDX-License-Identifier: GPL-2.0-only
/*
 * acl-bandwidth: the measurements, through libacl.
 *
 * Buffers are allocated once at the largest size (host pinned, host
 * pageable, device A) or per case (device B for D2D, the peer's buffer
 * for P2P), so the peak is four buffers of the largest size. Each size
 * runs one untimed warm-up copy, then the timed iterations, then the
 * destination is read back and checked against the pattern written
 * into the source.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "bw.h"
#include "npu_attr.h"

struct bw_ctx {
	struct bw_report *rep;
	const struct bw_opts *o;
	uint64_t sizes[BW_MAX_SIZES];
	size_t nr_sizes;
	uint64_t max;
	double memcpy_gbps[BW_MAX_SIZES];
	void *pinned, *pageable, *dev_a, *dev_b, *peer_buf;
	aclrtStream stream;
	aclrtEvent ev0, ev1;
	double *samples;
	char p2p_na[160];	/* why P2P cannot run, once known */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t pattern_word(uint64_t i, uint64_t seed)
{
	return (i + 1) * 0x9e3779b97f4a7c15ULL ^ seed;
}

static void pattern_fill(void *buf, uint64_t len, uint64_t seed)
{
	uint64_t i, w, *p = buf;

	for (i = 0; i < len / 8; i++)
		p[i] = pattern_word(i, seed);
	w = pattern_word(i, seed);
	memcpy((char *)buf + i * 8, &w, len % 8);
}

/* Return: offset of the first wrong byte, or len. */
static uint64_t pattern_check(const void *buf, uint64_t len, uint64_t seed)
{
	const uint64_t *p = buf;
	uint64_t i, w;

	for (i = 0; i < len / 8; i++)
		if (p[i] != pattern_word(i, seed))
			return i * 8;
	w = pattern_word(i, seed);
	return memcmp((const char *)buf + i * 8, &w, len % 8) ? i * 8 : len;
}

/* The most recent libacl message, or the bare code. */
static void acl_note(char *note, size_t len, const char *what, aclError e)
{
	const char *m = aclGetRecentErrMsg();

	if (m && *m)
		snprintf(note, len, "%s", m);
	else
		snprintf(note, len, "%s: error %d", what, (int)e);
}

/*
 * memcpy through a pointer the compiler cannot see through, so that
 * repeating the same copy is not folded into one.
 */
static void *(*volatile host_memcpy)(void *, const void *, size_t) = memcpy;

/*
 * Seconds per memcpy of @n bytes: the copy repeated in a loop timed as a
 * whole, as many times as takes BW_MEMCPY_MIN_S (doubling from 1, at
 * most BW_MEMCPY_MAX_REPS), so the clock's own cost (a system call in a
 * guest without vDSO time, ~1 us) and its granularity drop out. A
 * single small memcpy takes less than one clock read.
 */
static double memcpy_sample(struct bw_ctx *c, uint64_t n, unsigned int *reps)
{
	double t;
	unsigned int k;

	for (;;) {
		t = now();
		for (k = 0; k < *reps; k++)
			host_memcpy(c->pageable, c->pinned, n);
		t = now() - t;
		if (t >= BW_MEMCPY_MIN_S || *reps >= BW_MEMCPY_MAX_REPS)
			return t / *reps;
		*reps *= 2;
	}
}

/*
 * Host memcpy of each size, the baseline of the ratio column: the median
 * of BW_MEMCPY_SAMPLES samples (memcpy_sample()), each a whole loop, so
 * that one preemption or page walk moves one sample, not the figure.
 */
static void measure_memcpy(struct bw_ctx *c)
{
	double v[BW_MEMCPY_SAMPLES];
	struct bw_stats st;
	unsigned int reps = 1;
	size_t s, k;

	for (s = 0; s < c->nr_sizes; s++) {
		host_memcpy(c->pageable, c->pinned, c->sizes[s]);
		/* Sizes grow: a count long enough for the last is for this one. */
		reps = reps > 1 ? reps / 2 : 1;
		for (k = 0; k < BW_MEMCPY_SAMPLES; k++)
			v[k] = bw_gbps(c->sizes[s], memcpy_sample(c, c->sizes[s], &reps));
		bw_stats(v, BW_MEMCPY_SAMPLES, &st);
		c->memcpy_gbps[s] = st.median;
	}
}

/* One copy, timed: events for async copies, the host clock for sync. */
static aclError timed_copy(struct bw_ctx *c, enum bw_mem mem, void *dst,
			   const void *src, uint64_t n, aclrtMemcpyKind kind,
			   double *sec)
{
	double t = now();
	float ms = 0;
	aclError e;

	if (mem == BW_PAGEABLE) {
		e = aclrtMemcpy(dst, n, src, n, kind);
		*sec = now() - t;
		return e;
	}
	e = aclrtRecordEvent(c->ev0, c->stream);
	if (!e)
		e = aclrtMemcpyAsync(dst, n, src, n, kind, c->stream);
	if (!e)
		e = aclrtRecordEvent(c->ev1, c->stream);
	if (!e)
		e = aclrtSynchronizeStream(c->stream);
	if (!e)
		e = aclrtEventElapsedTime(&ms, c->ev0, c->ev1);
	/* Below the event clock's resolution: the host clock is better than 0. */
	*sec = ms > 0 ? ms / 1e3 : now() - t;
	return e;
}

struct copy_plan {
	void *dst;
	const void *src;
	aclrtMemcpyKind kind;
	enum bw_mem mem;
	bool src_host, dst_host;
};

static void plan(struct bw_ctx *c, enum bw_test t, enum bw_mem mem, struct copy_plan *p)
{
	void *host = mem == BW_PINNED ? c->pinned : c->pageable;

	switch (t) {
	case BW_H2D:
		*p = (struct copy_plan){ c->dev_a, host, ACL_MEMCPY_HOST_TO_DEVICE, mem, true, false };
		break;
	case BW_D2H:
		*p = (struct copy_plan){ host, c->dev_a, ACL_MEMCPY_DEVICE_TO_HOST, mem, false, true };
		break;
	case BW_D2D:
		*p = (struct copy_plan){ c->dev_b, c->dev_a, ACL_MEMCPY_DEVICE_TO_DEVICE, mem,
					 false, false };
		break;
	default:
		*p = (struct copy_plan){ c->peer_buf, c->dev_a, ACL_MEMCPY_DEVICE_TO_DEVICE, mem,
					 false, false };
	}
}

/* Pattern into the source; for a device source through the pageable buffer. */
static aclError prepare(struct bw_ctx *c, const struct copy_plan *p, uint64_t n,
			uint64_t seed)
{
	if (p->src_host) {
		pattern_fill((void *)p->src, n, seed);
		return ACL_SUCCESS;
	}
	pattern_fill(c->pageable, n, seed);
	return aclrtMemcpy((void *)p->src, n, c->pageable, n, ACL_MEMCPY_HOST_TO_DEVICE);
}

/* Read the destination back (when on a device) and check it. */
static int verify(struct bw_ctx *c, const struct copy_plan *p, uint64_t n,
		  uint64_t seed, struct bw_result *r)
{
	void *back = p->src == c->pageable ? c->pinned : c->pageable;
	uint64_t bad;
	aclError e;

	if (p->dst_host) {
		back = p->dst;
	} else {
		e = aclrtMemcpy(back, n, p->dst, n, ACL_MEMCPY_DEVICE_TO_HOST);
		if (e) {
			acl_note(r->note, sizeof(r->note), "read back", e);
			return -EIO;
		}
	}
	bad = pattern_check(back, n, seed);
	if (bad == n)
		return 0;
	snprintf(r->note, sizeof(r->note), "data differs at byte %llu",
		 (unsigned long long)bad);
	return -EIO;
}

static void measure(struct bw_ctx *c, enum bw_test t, enum bw_mem mem, struct bw_result *r)
{
	uint64_t n = r->bytes, seed = n * 131 + (uint64_t)t * 7 + mem;
	struct copy_plan p;
	unsigned int k;
	double sec;
	aclError e;

	plan(c, t, mem, &p);
	e = prepare(c, &p, n, seed);
	if (!e)
		e = timed_copy(c, mem, p.dst, p.src, n, p.kind, &sec);
	for (k = 0; !e && k < c->o->iterations; k++) {
		e = timed_copy(c, mem, p.dst, p.src, n, p.kind, &sec);
		c->samples[k] = bw_gbps(n, sec);
	}
	if (e) {
		acl_note(r->note, sizeof(r->note), "copy", e);
		if (t == BW_P2P) {
			/* Peer copies unsupported: the same for every size. */
			snprintf(c->p2p_na, sizeof(c->p2p_na), "%s", r->note);
			r->status = BW_NA;
		} else {
			r->status = BW_FAILED;
		}
		return;
	}
	bw_stats(c->samples, c->o->iterations, &r->gbps);
	if (c->o->verify && verify(c, &p, n, seed, r))
		r->status = BW_FAILED;
}

/*
 * The peer of P2P: the one asked for, else the first device libacl says
 * the device can reach, else the next device. -1 when there is only one.
 */
static int pick_peer(int dev, int asked)
{
	uint32_t count = 0, d;
	int32_t ok;

	if (asked >= 0)
		return asked;
	if (aclrtGetDeviceCount(&count) || count < 2)
		return -1;
	for (d = 0; d < count; d++)
		if ((int)d != dev && !aclrtDeviceCanAccessPeer(&ok, dev, (int32_t)d) && ok)
			return (int)d;
	return (int)((uint32_t)(dev + 1) % count);
}

/* Peer access and the peer's buffer; on failure c->p2p_na says why. */
static void p2p_setup(struct bw_ctx *c)
{
	int dev = c->rep->device, peer = c->rep->peer;
	aclError e;

	if (peer < 0 || peer == dev) {
		snprintf(c->p2p_na, sizeof(c->p2p_na), peer < 0 ? "no peer device" :
			 "the peer is the device itself");
		return;
	}
	e = aclrtDeviceEnablePeerAccess(peer, 0);
	if (e != ACL_SUCCESS) {
		acl_note(c->p2p_na, sizeof(c->p2p_na), "aclrtDeviceEnablePeerAccess", e);
		return;
	}
	e = aclrtSetDevice(peer);
	if (!e) {
		e = aclrtMalloc(&c->peer_buf, c->max, ACL_MEM_MALLOC_HUGE_FIRST);
		aclrtSetDevice(dev);
	}
	if (e)
		acl_note(c->p2p_na, sizeof(c->p2p_na), "peer memory", e);
}

/* Buffers a case needs beyond the shared ones; 0 or a note in r. */
static int case_setup(struct bw_ctx *c, enum bw_test t, char *note, size_t len)
{
	aclError e;

	if (t == BW_P2P) {
		p2p_setup(c);
		return 0;
	}
	if (t != BW_D2D)
		return 0;
	e = aclrtMalloc(&c->dev_b, c->max, ACL_MEM_MALLOC_HUGE_FIRST);
	if (e)
		acl_note(note, len, "aclrtMalloc", e);
	return e ? -ENOMEM : 0;
}

static void case_teardown(struct bw_ctx *c)
{
	if (c->dev_b)
		aclrtFree(c->dev_b);
	if (c->peer_buf)
		aclrtFree(c->peer_buf);
	c->dev_b = c->peer_buf = NULL;
}

/* One size of one case into @r; @spent: the case's seconds so far. */
static void run_size(struct bw_ctx *c, enum bw_test t, enum bw_mem mem, size_t s,
		     const char *failed, double *spent, struct bw_result *r)
{
	double t0 = now();

	*r = (struct bw_result){ .test = t, .mem = mem, .bytes = c->sizes[s],
				 .iterations = c->o->iterations,
				 .memcpy_gbps = c->memcpy_gbps[s] };
	if (failed) {
		r->status = BW_FAILED;
		snprintf(r->note, sizeof(r->note), "%s", failed);
	} else if (t == BW_P2P && c->p2p_na[0]) {
		r->status = BW_NA;
		snprintf(r->note, sizeof(r->note), "%s", c->p2p_na);
	} else if (c->o->budget_s > 0 && *spent > c->o->budget_s) {
		r->status = BW_SKIPPED;
		snprintf(r->note, sizeof(r->note), "time budget of %g s spent",
			 c->o->budget_s);
	} else {
		measure(c, t, mem, r);
	}
	*spent += now() - t0;
}

/*
 * Every size of @t for the memory kinds in @mems (bits of enum bw_mem),
 * the kinds taking turns at each size, so that a ratio between two
 * rows compares copies made seconds apart, not a whole sweep apart (a
 * guest under TCG changes speed from one moment to the next). The rows
 * are reported kind by kind all the same.
 */
static void run_case(struct bw_ctx *c, enum bw_test t, unsigned int mems)
{
	struct bw_result *rows[BW_NR_MEMS] = { NULL };
	double spent[BW_NR_MEMS] = { 0 };
	char note[160] = "";
	const char *failed;
	size_t s;
	int m;

	failed = case_setup(c, t, note, sizeof(note)) ? note : NULL;
	for (m = 0; m < BW_NR_MEMS; m++)
		if (mems & (1U << m)) {
			rows[m] = &c->rep->r[c->rep->nr];
			c->rep->nr += c->nr_sizes;
		}
	for (s = 0; s < c->nr_sizes; s++)
		for (m = 0; m < BW_NR_MEMS; m++)
			if (rows[m])
				run_size(c, t, m, s, failed, &spent[m], &rows[m][s]);
	case_teardown(c);
}

static void backend_of(int dev, char *buf, size_t len)
{
	buf[0] = '\0';
	/*
	 * libacl's device N is the NPU at position N in index order, unless
	 * this variable renumbers the devices.
	 */
	if (dev < 0 || getenv("ASCEND_RT_VISIBLE_DEVICES"))
		return;
	npu_attr_nth(dev, "backend", buf, len);
}

/* The sweep's buffers, stream and events. Return: 0, or the error and @what. */
static aclError buffers_setup(struct bw_ctx *c, const char **what)
{
	aclError e;

	if ((*what = "aclrtMallocHost", e = aclrtMallocHost(&c->pinned, c->max)) == 0 &&
	    (*what = "aclrtMalloc", e = aclrtMalloc(&c->dev_a, c->max,
						     ACL_MEM_MALLOC_HUGE_FIRST)) == 0 &&
	    (*what = "aclrtCreateStream", e = aclrtCreateStream(&c->stream)) == 0 &&
	    (*what = "aclrtCreateEvent", e = aclrtCreateEvent(&c->ev0)) == 0)
		*what = "aclrtCreateEvent", e = aclrtCreateEvent(&c->ev1);
	c->pageable = malloc(c->max);
	c->samples = calloc(c->o->iterations, sizeof(*c->samples));
	if (!e && (!c->pageable || !c->samples))
		*what = "malloc", e = ACL_ERROR_BAD_ALLOC;
	if (!e)
		/* Fault the pageable buffer in, so the first copy does not pay for it. */
		memset(c->pageable, 0, c->max);
	return e;
}

static int ctx_setup(struct bw_ctx *c)
{
	const char *what = "aclInit";
	aclError e = aclInit(NULL);

	if (!e)
		what = "aclrtSetDevice", e = aclrtSetDevice(c->rep->device);
	/* -t none (--latency alone): the sweep's large buffers are not needed. */
	if (!e && c->o->tests)
		e = buffers_setup(c, &what);
	if (e) {
		const char *m = aclGetRecentErrMsg();

		fprintf(stderr, BW_PROG ": %s on device %d failed: %d%s%s\n", what,
			c->rep->device, (int)e, m ? ": " : "", m ? m : "");
		return -1;
	}
	return 0;
}

static void ctx_teardown(struct bw_ctx *c)
{
	if (c->ev1)
		aclrtDestroyEvent(c->ev1);
	if (c->ev0)
		aclrtDestroyEvent(c->ev0);
	if (c->stream)
		aclrtDestroyStream(c->stream);
	if (c->dev_a)
		aclrtFree(c->dev_a);
	if (c->pinned)
		aclrtFreeHost(c->pinned);
	free(c->pageable);
	free(c->samples);
	aclrtResetDevice(c->rep->device);
	aclFinalize();
}

static void run_sweep(struct bw_ctx *c)
{
	struct bw_report *rep = c->rep;
	int t;

	rep->peer = rep->o->tests & (1U << BW_P2P) ?
		    pick_peer(rep->device, rep->o->peer) : -1;
	backend_of(rep->peer, rep->peer_backend, sizeof(rep->peer_backend));
	measure_memcpy(c);
	for (t = 0; t < BW_NR_TESTS; t++) {
		if (!(rep->o->tests & (1U << t)))
			continue;
		if (t <= BW_D2H)
			run_case(c, t, rep->o->mems &
				 ((1U << BW_PINNED) | (1U << BW_PAGEABLE)));
		else
			run_case(c, t, 1U << BW_DEVICE);
	}
}

int bw_run(struct bw_report *rep)
{
	struct bw_ctx c = { .rep = rep, .o = rep->o };
	int ret = -1;

	c.nr_sizes = bw_sizes(rep->o, c.sizes, BW_MAX_SIZES);
	c.max = c.sizes[c.nr_sizes - 1];
	rep->r = calloc(BW_NR_TESTS * 2 * c.nr_sizes, sizeof(*rep->r));
	rep->nr = 0;
	backend_of(rep->device, rep->backend, sizeof(rep->backend));
	if (rep->r && !ctx_setup(&c)) {
		if (rep->o->tests)
			run_sweep(&c);
		ret = rep->o->latency ? bw_run_latency(rep) : 0;
	}
	ctx_teardown(&c);
	return ret;
}
