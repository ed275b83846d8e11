// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-soak: minutes to hours of mixed copies through libacl, every byte
 * checked. On request, not in CI: `make soak SOAK_SECONDS=300`.
 *
 * PROCS processes (fork) each run STREAMS streams, one thread each, for
 * SECONDS seconds. A stream owns two device buffers and keeps a host
 * shadow of what they must hold. It works in batches: a few synchronous
 * calls while the stream is idle, then asynchronous ones queued back to
 * back (H2D, D2H and D2D, 1-D and 2-D, memsets; pinned and pageable
 * host memory; random sizes, offsets and pitches), then one
 * synchronisation. Every D2H result is compared byte for byte with the
 * shadow as it was when the copy was queued, together with the guard
 * bytes around it; every few batches and at the end both device buffers
 * are read back whole and compared, so every byte an H2D, D2D or memset
 * wrote is checked as well.
 *
 * All randomness comes from one seed, printed first: -S replays a run's
 * choices (timing, and so the number of batches, differs). Exit status 0
 * when no byte was lost and no call failed, 1 otherwise, 2 on bad usage.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "npu_node.h"

#define PROG		"npu-soak"
#define MAX_DEVS	64
#define MAX_BATCH	64
#define GUARD		64		/* bytes checked on each side of a D2H */
#define SYNC_MS		60000		/* a batch that takes longer is a hang */
#define READBACK_EVERY	8		/* batches between full read-backs */

enum kind { H2D, D2H, D2D, H2D_2D, D2H_2D, D2D_2D, FILL, NR_KINDS };

static const char *const kind_name[NR_KINDS] = {
	"h2d", "d2h", "d2d", "h2d-2d", "d2h-2d", "d2d-2d", "memset",
};

/* One stream's figures, in memory shared with the parent. */
struct counters {
	uint64_t copies[NR_KINDS];
	uint64_t bytes[NR_KINDS];
	uint64_t pinned, pageable, sync, async;
	uint64_t batches, readbacks;
	uint64_t verified;	/* bytes compared with what they must be */
	uint64_t lost;		/* of those, the ones that differed */
	uint64_t errors;	/* acl calls that failed */
	uint64_t done;		/* the stream finished (cleanly or not) */
};

static struct opts {
	int procs, streams;
	unsigned int seconds;
	uint64_t seed;
	size_t max_len, dev_size;
	int batch;
	int devs[MAX_DEVS], nr_devs;
	bool verbose;
} o = {
	.procs = 4, .streams = 4, .seconds = 60,
	.max_len = 256 << 10, .dev_size = 2 << 20, .batch = 16,
};

static struct counters *shared;	/* procs * streams, MAP_SHARED */
static double deadline;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static uint64_t below(uint64_t *rng, uint64_t n)
{
	return n ? splitmix(rng) % n : 0;
}

/* 1..max, log-uniform: as many tiny copies as large ones. */
static size_t rnd_len(uint64_t *rng, size_t max)
{
	int bits = 0;
	size_t hi;

	while ((2ULL << bits) <= max)
		bits++;
	hi = (size_t)1 << below(rng, bits + 1);
	hi = hi * 2 - 1 < max ? hi * 2 - 1 : max;
	return 1 + below(rng, hi);
}

static void fill_random(uint64_t *rng, uint8_t *p, size_t len)
{
	uint64_t v;

	for (; len >= 8; p += 8, len -= 8) {
		v = splitmix(rng);
		memcpy(p, &v, 8);
	}
	v = splitmix(rng);
	memcpy(p, &v, len);
}

struct op;

struct pending {
	const char *what;	/* for the report of a mismatch */
	uint8_t *got;		/* host memory the copy wrote */
	uint8_t *want;		/* what it must hold, guards included */
	size_t len;
};

struct stream {
	int proc, index, dev;
	uint64_t rng;
	struct counters *c;
	aclrtStream st;
	uint8_t *dbuf[2];		/* device buffers */
	uint8_t *shadow[2];		/* what they hold */
	uint8_t *pin_src, *pin_dst;	/* aclrtMallocHost arenas */
	uint8_t *pg_src, *pg_dst;	/* malloc arenas (pageable) */
	uint8_t *want;			/* expected images of the dst arenas */
	uint8_t *back;			/* read-back buffer, dev_size */
	size_t slot;			/* bytes per batch slot of an arena */
	struct pending pend[MAX_BATCH];
	int npend;
	struct op *log;			/* operations since the last read-back */
	int nlog, log_size;
	bool failed;
};

static void add(uint64_t *v, uint64_t n)
{
	__atomic_fetch_add(v, n, __ATOMIC_RELAXED);
}

static bool acl_fail(struct stream *s, const char *call, aclError ret)
{
	if (ret == ACL_SUCCESS)
		return false;
	fprintf(stderr, PROG ": proc %d stream %d (device %d): %s: error %d: %s\n",
		s->proc, s->index, s->dev, call, (int)ret, aclGetRecentErrMsg());
	add(&s->c->errors, 1);
	s->failed = true;
	return true;
}

#define ACL(s, call)	acl_fail(s, #call, call)

/* Compare @len bytes; count and report what differs. */
static void verify(struct stream *s, const char *what, const uint8_t *got,
		   const uint8_t *want, size_t len)
{
	size_t i, first = 0, bad = 0;

	add(&s->c->verified, len);
	if (!memcmp(got, want, len))
		return;
	for (i = 0; i < len; i++) {
		if (got[i] != want[i] && !bad++)
			first = i;
	}
	fprintf(stderr, PROG ": proc %d stream %d (device %d): %s: %zu of %zu"
		" bytes differ, first at %zu: 0x%02x, want 0x%02x\n", s->proc,
		s->index, s->dev, what, bad, len, first, got[first], want[first]);
	add(&s->c->lost, bad);
	s->failed = true;
}

static void count(struct stream *s, enum kind k, size_t bytes, bool pinned,
		  bool sync)
{
	add(&s->c->copies[k], 1);
	add(&s->c->bytes[k], bytes);
	if (k == H2D || k == D2H || k == H2D_2D || k == D2H_2D)
		add(pinned ? &s->c->pinned : &s->c->pageable, 1);
	add(sync ? &s->c->sync : &s->c->async, 1);
}

/* A 2-D shape: @h rows of @w bytes, pitches @sp and @dp; 1-D: h = 1. */
struct shape {
	size_t w, h, sp, dp;
};

/*
 * One operation, as drawn: device buffer @sb at @soff (or host memory)
 * to device buffer @db at @doff (or host memory).
 */
struct op {
	uint64_t batch;
	enum kind k;
	int slot, sb, db, value;
	bool sync, pinned;
	size_t soff, doff, hoff;
	struct shape sh;
};

static size_t extent(size_t w, size_t h, size_t pitch)
{
	return (h - 1) * pitch + w;
}

static struct shape rnd_shape(uint64_t *rng, size_t max, bool rows)
{
	struct shape sh;

	sh.w = rnd_len(rng, rows && max > 4096 ? 4096 : max);
	sh.h = 1;
	sh.sp = sh.dp = sh.w;
	if (!rows)
		return sh;
	sh.h = 1 + below(rng, 64);
	sh.sp = sh.w + below(rng, 257);
	sh.dp = sh.w + below(rng, 257);
	while (sh.h > 1 && (extent(sh.w, sh.h, sh.sp) > max ||
			    extent(sh.w, sh.h, sh.dp) > max))
		sh.h--;
	return sh;
}

/* Apply a copy to host memory (the shadow or an expected image). */
static void copy_rows(uint8_t *dst, const uint8_t *src, const struct shape *sh)
{
	size_t r;

	for (r = 0; r < sh->h; r++)
		memmove(dst + r * sh->dp, src + r * sh->sp, sh->w);
}

/* Does a region of @sh rows at @off (pitch @pitch) cover byte @x? */
static bool covers(const struct shape *sh, size_t off, size_t pitch, size_t x)
{
	return x >= off && (x - off) / pitch < sh->h && (x - off) % pitch < sh->w;
}

static void print_op(const struct op *op)
{
	fprintf(stderr, "  batch %" PRIu64 " slot %d: %s%s %s, %zu x %zu (pitch"
		" %zu -> %zu), src buf %d + %zu, dst buf %d + %zu, value %d\n",
		op->batch, op->slot, kind_name[op->k], op->sync ? " sync" : "",
		op->pinned ? "pinned" : "pageable", op->sh.w, op->sh.h, op->sh.sp,
		op->sh.dp, op->sb, op->soff, op->db, op->doff, op->value);
}

static struct op draw_op(struct stream *s, int slot, bool sync)
{
	struct op op = {
		.batch = s->c->batches, .slot = slot, .sync = sync,
		.sb = -1, .db = -1,
	};
	size_t sext, dext;

	op.k = (enum kind)below(&s->rng, NR_KINDS);
	op.pinned = below(&s->rng, 2);
	op.hoff = GUARD + below(&s->rng, 64);
	op.sh = rnd_shape(&s->rng, o.max_len, op.k == H2D_2D ||
			  op.k == D2H_2D || op.k == D2D_2D);
	sext = extent(op.sh.w, op.sh.h, op.sh.sp);
	dext = extent(op.sh.w, op.sh.h, op.sh.dp);
	if (op.k != H2D && op.k != H2D_2D && op.k != FILL) {
		op.sb = below(&s->rng, 2);
		op.soff = below(&s->rng, o.dev_size - sext + 1);
	}
	if (op.k != D2H && op.k != D2H_2D) {
		op.db = below(&s->rng, 2);
		op.doff = below(&s->rng, o.dev_size - dext + 1);
	}
	/* Overlapping device ranges have no defined result: other buffer. */
	if (op.sb >= 0 && op.sb == op.db &&
	    op.soff < op.doff + dext && op.doff < op.soff + sext)
		op.db = !op.sb;
	if (op.k == FILL)
		op.value = (int)below(&s->rng, 256);
	return op;
}

/*
 * One operation in batch slot @slot: host memory it reads or writes is in
 * that slot of an arena, untouched by the others until the batch is
 * synchronised. @sync: a blocking call (the stream is idle).
 */
static void do_op(struct stream *s, int slot, bool sync)
{
	struct op op = draw_op(s, slot, sync);
	const struct shape *sh = &op.sh;
	size_t base = (size_t)slot * s->slot;
	uint8_t *src = (op.pinned ? s->pin_src : s->pg_src) + base + op.hoff;
	uint8_t *dst = (op.pinned ? s->pin_dst : s->pg_dst) + base;
	uint8_t *want = s->want + base;
	uint8_t *dsrc = op.sb >= 0 ? s->dbuf[op.sb] + op.soff : NULL;
	uint8_t *ddst = op.db >= 0 ? s->dbuf[op.db] + op.doff : NULL;
	size_t dext = extent(sh->w, sh->h, sh->dp);
	aclrtMemcpyKind kind;
	aclError ret;

	if (s->nlog < s->log_size)
		s->log[s->nlog++] = op;
	switch (op.k) {
	case H2D:
	case H2D_2D:
		fill_random(&s->rng, src, extent(sh->w, sh->h, sh->sp));
		dsrc = src;
		kind = ACL_MEMCPY_HOST_TO_DEVICE;
		break;
	case D2H:
	case D2H_2D:
		memset(dst, 0xa5 ^ slot, op.hoff + dext + GUARD);
		memset(want, 0xa5 ^ slot, op.hoff + dext + GUARD);
		copy_rows(want + op.hoff, s->shadow[op.sb] + op.soff, sh);
		ddst = dst + op.hoff;
		kind = ACL_MEMCPY_DEVICE_TO_HOST;
		break;
	case FILL:
		ret = op.sync ? aclrtMemset(ddst, o.dev_size - op.doff, op.value, sh->w) :
			aclrtMemsetAsync(ddst, o.dev_size - op.doff, op.value,
					 sh->w, s->st);
		if (acl_fail(s, "memset", ret))
			return;
		memset(s->shadow[op.db] + op.doff, op.value, sh->w);
		count(s, op.k, sh->w, true, op.sync);
		return;
	default:
		kind = ACL_MEMCPY_DEVICE_TO_DEVICE;
		break;
	}

	if (op.k == H2D || op.k == D2H || op.k == D2D)
		ret = op.sync ? aclrtMemcpy(ddst, sh->w, dsrc, sh->w, kind) :
			aclrtMemcpyAsync(ddst, sh->w, dsrc, sh->w, kind, s->st);
	else if (op.sync && op.k != D2D_2D)
		ret = aclrtMemcpy2d(ddst, sh->dp, dsrc, sh->sp, sh->w, sh->h, kind);
	else
		ret = aclrtMemcpy2dAsync(ddst, sh->dp, dsrc, sh->sp, sh->w, sh->h,
					 kind, s->st);
	/*
	 * aclrtMemcpy2d() is H2D or D2H only (as in CANN): a blocking D2D is
	 * queued and waited for, so what follows still finds the stream idle.
	 */
	if (!ret && op.sync && op.k == D2D_2D)
		ret = aclrtSynchronizeStreamWithTimeout(s->st, SYNC_MS);
	if (acl_fail(s, kind_name[op.k], ret))
		return;
	if (op.db >= 0)
		copy_rows(s->shadow[op.db] + op.doff,
			  op.sb >= 0 ? s->shadow[op.sb] + op.soff : src, sh);
	else
		s->pend[s->npend++] = (struct pending){ kind_name[op.k], dst, want,
							op.hoff + dext + GUARD };
	count(s, op.k, sh->w * sh->h, op.pinned, op.sync);
}

/* After a read-back mismatch at byte @x of buffer @b: what touched it. */
static void explain(struct stream *s, int b, size_t x)
{
	int i;

	fprintf(stderr, PROG ": proc %d stream %d: operations since the last"
		" read-back that wrote (or read) buffer %d byte %zu:\n", s->proc,
		s->index, b, x);
	for (i = 0; i < s->nlog; i++) {
		const struct op *op = &s->log[i];

		if ((op->db == b && covers(&op->sh, op->doff, op->sh.dp, x)) ||
		    (op->sb == b && covers(&op->sh, op->soff, op->sh.sp, x)))
			print_op(op);
	}
}

/* Both device buffers, read back whole (synchronously) and compared. */
static void readback(struct stream *s)
{
	size_t x;
	int b;

	for (b = 0; b < 2 && !s->failed; b++) {
		if (ACL(s, aclrtMemcpy(s->back, o.dev_size, s->dbuf[b], o.dev_size,
				       ACL_MEMCPY_DEVICE_TO_HOST)))
			return;
		verify(s, "read-back", s->back, s->shadow[b], o.dev_size);
		if (!s->failed)
			continue;
		for (x = 0; s->back[x] == s->shadow[b][x]; x++)
			;
		explain(s, b, x);
	}
	s->nlog = 0;
	add(&s->c->readbacks, 1);
}

static void batch(struct stream *s)
{
	int i, nsync = below(&s->rng, 4) ? 0 : 1 + below(&s->rng, 3);

	s->npend = 0;
	for (i = 0; i < o.batch && !s->failed; i++)
		do_op(s, i, i < nsync);
	if (s->failed)
		return;
	if (ACL(s, aclrtSynchronizeStreamWithTimeout(s->st, SYNC_MS)))
		return;
	for (i = 0; i < s->npend; i++)
		verify(s, s->pend[i].what, s->pend[i].got, s->pend[i].want,
		       s->pend[i].len);
	add(&s->c->batches, 1);
}

static int stream_setup(struct stream *s)
{
	size_t arena;
	int b;

	s->slot = o.max_len + 2 * GUARD + 64;
	arena = s->slot * o.batch;
	if (ACL(s, aclrtSetDevice(s->dev)) || ACL(s, aclrtCreateStream(&s->st)))
		return -1;
	for (b = 0; b < 2; b++) {
		if (ACL(s, aclrtMalloc((void **)&s->dbuf[b], o.dev_size,
				       ACL_MEM_MALLOC_HUGE_FIRST)))
			return -1;
		s->shadow[b] = malloc(o.dev_size);
		if (!s->shadow[b])
			goto nomem;
		fill_random(&s->rng, s->shadow[b], o.dev_size);
		if (ACL(s, aclrtMemcpy(s->dbuf[b], o.dev_size, s->shadow[b],
				       o.dev_size, ACL_MEMCPY_HOST_TO_DEVICE)))
			return -1;
	}
	if (ACL(s, aclrtMallocHost((void **)&s->pin_src, arena)) ||
	    ACL(s, aclrtMallocHost((void **)&s->pin_dst, arena)))
		return -1;
	s->pg_src = malloc(arena);
	s->pg_dst = malloc(arena);
	s->want = malloc(arena);
	s->back = malloc(o.dev_size);
	s->log_size = (READBACK_EVERY + 1) * o.batch;
	s->log = calloc(s->log_size, sizeof(*s->log));
	if (!s->pg_src || !s->pg_dst || !s->want || !s->back || !s->log)
		goto nomem;
	return 0;

nomem:
	fprintf(stderr, PROG ": proc %d stream %d: out of host memory\n",
		s->proc, s->index);
	add(&s->c->errors, 1);
	s->failed = true;
	return -1;
}

static void stream_teardown(struct stream *s)
{
	int b;

	if (s->st)
		ACL(s, aclrtDestroyStream(s->st));
	for (b = 0; b < 2; b++) {
		if (s->dbuf[b])
			ACL(s, aclrtFree(s->dbuf[b]));
		free(s->shadow[b]);
	}
	if (s->pin_src)
		ACL(s, aclrtFreeHost(s->pin_src));
	if (s->pin_dst)
		ACL(s, aclrtFreeHost(s->pin_dst));
	free(s->pg_src);
	free(s->pg_dst);
	free(s->want);
	free(s->back);
	free(s->log);
	ACL(s, aclrtResetDevice(s->dev));
}

static void *stream_main(void *arg)
{
	struct stream *s = arg;
	uint64_t n = 0;

	if (!stream_setup(s)) {
		while (!s->failed && now() < deadline) {
			batch(s);
			if (!s->failed && ++n % READBACK_EVERY == 0)
				readback(s);
		}
		if (!s->failed)
			readback(s);
	}
	stream_teardown(s);
	add(&s->c->done, 1);
	return NULL;
}

static int proc_main(int p)
{
	struct stream *ss = calloc(o.streams, sizeof(*ss));
	pthread_t *tids = calloc(o.streams, sizeof(*tids));
	bool failed = false;
	int i;

	if (!ss || !tids)
		return 1;
	if (aclInit(NULL) != ACL_SUCCESS) {
		fprintf(stderr, PROG ": proc %d: aclInit: %s\n", p, aclGetRecentErrMsg());
		return 1;
	}
	for (i = 0; i < o.streams; i++) {
		struct stream *s = &ss[i];

		s->proc = p;
		s->index = i;
		s->dev = o.devs[(p * o.streams + i) % o.nr_devs];
		s->c = &shared[p * o.streams + i];
		s->rng = o.seed ^ ((uint64_t)p << 32 | (uint64_t)i);
		splitmix(&s->rng);
		if (pthread_create(&tids[i], NULL, stream_main, s)) {
			fprintf(stderr, PROG ": proc %d: pthread_create failed\n", p);
			return 1;
		}
	}
	for (i = 0; i < o.streams; i++) {
		pthread_join(tids[i], NULL);
		failed |= ss[i].failed;
	}
	if (aclFinalize() != ACL_SUCCESS)
		failed = true;
	return failed;
}

static void sum(struct counters *t)
{
	int i, k;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < o.procs * o.streams; i++) {
		struct counters *c = &shared[i];

#define SUM(f) (t->f += __atomic_load_n(&c->f, __ATOMIC_RELAXED))
		for (k = 0; k < NR_KINDS; k++) {
			SUM(copies[k]);
			SUM(bytes[k]);
		}
		SUM(pinned);
		SUM(pageable);
		SUM(sync);
		SUM(async);
		SUM(batches);
		SUM(readbacks);
		SUM(verified);
		SUM(lost);
		SUM(errors);
		SUM(done);
#undef SUM
	}
}

static uint64_t total(const uint64_t *v)
{
	uint64_t t = 0;
	int k;

	for (k = 0; k < NR_KINDS; k++)
		t += v[k];
	return t;
}

static void report(const struct counters *t, double secs, int bad_exits)
{
	uint64_t bytes = total(t->bytes);
	int k;

	printf("%-8s %12s %16s\n", "kind", "copies", "bytes");
	for (k = 0; k < NR_KINDS; k++)
		printf("%-8s %12" PRIu64 " %16" PRIu64 "\n", kind_name[k],
		       t->copies[k], t->bytes[k]);
	printf("host side: %" PRIu64 " pinned, %" PRIu64 " pageable;"
	       " calls: %" PRIu64 " async, %" PRIu64 " sync;"
	       " %" PRIu64 " batches, %" PRIu64 " full read-backs\n",
	       t->pinned, t->pageable, t->async, t->sync, t->batches, t->readbacks);
	printf(PROG ": %.0f s, copies %" PRIu64 ", bytes moved %" PRIu64
	       " (%.1f MB/s), bytes verified %" PRIu64 ", bytes lost %" PRIu64
	       ", errors %" PRIu64 ", failed processes %d: %s\n", secs,
	       total(t->copies), bytes, secs > 0 ? bytes / secs / 1e6 : 0.0,
	       t->verified, t->lost, t->errors, bad_exits,
	       t->lost || t->errors || bad_exits ? "FAIL" : "PASS");
}

/*
 * Simulated NPUs, as acl device ids: libacl numbers the NPUs present in
 * the order of their index (without ASCEND_RT_VISIBLE_DEVICES), which
 * is npu_node_list()'s order; the backend is in each one's sysfs
 * directory.
 */
static int find_sim(void)
{
	struct npu_node nodes[MAX_DEVS];
	char path[600], buf[8];
	int i, n;
	FILE *f;

	n = npu_node_list("/sys", nodes, MAX_DEVS);
	for (i = 0; i < n && o.nr_devs < MAX_DEVS; i++) {
		snprintf(path, sizeof(path), "%.580s/backend", nodes[i].sysdir);
		f = fopen(path, "r");
		if (f && fgets(buf, sizeof(buf), f) && !strncmp(buf, "sim", 3))
			o.devs[o.nr_devs++] = i;
		if (f)
			fclose(f);
	}
	return o.nr_devs;
}

static int parse_devs(const char *arg)
{
	char *end;
	long v;

	o.nr_devs = 0;
	do {
		v = strtol(arg, &end, 0);
		if (end == arg || v < 0 || v >= MAX_DEVS || o.nr_devs == MAX_DEVS ||
		    (*end && *end != ','))
			return -1;
		o.devs[o.nr_devs++] = (int)v;
		arg = end + 1;
	} while (*end == ',');
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [OPTIONS]\n"
"\n"
"Run mixed copies through libacl on several streams of several processes\n"
"for a time, comparing every byte moved with what it must be: H2D, D2H,\n"
"D2D, 2-D copies and memsets, pinned and pageable host memory, sync and\n"
"async calls, random sizes and offsets from one printed seed. Prints\n"
"totals (copies, bytes moved, bytes verified, bytes lost).\n"
"\n"
"Options:\n"
"  -t, --seconds N    how long to run (default %u)\n"
"  -p, --procs N      processes (default %d)\n"
"  -s, --streams N    streams per process, one thread each (default %d)\n"
"  -d, --devices L    acl device ids, comma separated, used round-robin\n"
"                     (default: every simulated NPU)\n"
"  -S, --seed X       seed of all random choices (default: from the clock)\n"
"  -m, --max-len N    largest copy in bytes (default %zu)\n"
"  -b, --dev-size N   bytes of each of a stream's two device buffers\n"
"                     (default %zu)\n"
"  -B, --batch N      operations between synchronisations (default %d)\n"
"  -v, --verbose      print the totals every 10 seconds\n"
"  -h, --help         this text\n"
"\n"
"Exit status: 0 if no byte was lost and no call failed, 1 otherwise,\n"
"2 on a usage error.\n",
		o.seconds, o.procs, o.streams, o.max_len, o.dev_size, o.batch);
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && end != s && !*end && *s != '-';
}

static int parse_args(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seconds", required_argument, NULL, 't' },
		{ "procs", required_argument, NULL, 'p' },
		{ "streams", required_argument, NULL, 's' },
		{ "devices", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 'S' },
		{ "max-len", required_argument, NULL, 'm' },
		{ "dev-size", required_argument, NULL, 'b' },
		{ "batch", required_argument, NULL, 'B' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	bool seeded = false;
	uint64_t v;
	int c;

	while ((c = getopt_long(argc, argv, "t:p:s:d:S:m:b:B:vh", lo, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			exit(0);
		case 'v':
			o.verbose = true;
			continue;
		case 'd':
			if (parse_devs(optarg))
				goto bad;
			continue;
		case '?':
			usage(stderr);
			return -1;
		}
		if (!parse_u64(optarg, &v))
			goto bad;
		switch (c) {
		case 't':
			if (v > 7 * 86400)
				goto bad;
			o.seconds = (unsigned int)v;
			break;
		case 'p':
			if (!v || v > 64)
				goto bad;
			o.procs = (int)v;
			break;
		case 's':
			if (!v || v > 64)
				goto bad;
			o.streams = (int)v;
			break;
		case 'S':
			o.seed = v;
			seeded = true;
			break;
		case 'm':
			if (!v || v > (64 << 20))
				goto bad;
			o.max_len = v;
			break;
		case 'b':
			if (!v || v > (1ULL << 32))
				goto bad;
			o.dev_size = v;
			break;
		case 'B':
			if (!v || v > MAX_BATCH)
				goto bad;
			o.batch = (int)v;
			break;
		}
	}
	if (optind != argc) {
		fprintf(stderr, PROG ": unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (o.max_len > o.dev_size) {
		fprintf(stderr, PROG ": --max-len is larger than --dev-size\n");
		return -1;
	}
	if (!seeded) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		o.seed = (uint64_t)ts.tv_sec * 1000003ULL ^ (uint64_t)ts.tv_nsec;
	}
	return 0;
bad:
	fprintf(stderr, PROG ": invalid value for -%c: '%s'\n", c, optarg);
	return -1;
}

int main(int argc, char **argv)
{
	int p, status, running, bad_exits = 0;
	double start, next_print;
	struct counters t;
	pid_t *pids;
	size_t i;

	if (parse_args(argc, argv))
		return 2;
	if (!o.nr_devs && !find_sim()) {
		fprintf(stderr, PROG ": no simulated NPU (load npu_dma with nr_sim=N,"
			" or name devices with -d)\n");
		return 1;
	}
	printf(PROG ": seed 0x%016" PRIx64 ", %d processes x %d streams, %u s,"
	       " devices", o.seed, o.procs, o.streams, o.seconds);
	for (p = 0; p < o.nr_devs; p++)
		printf("%c%d", p ? ',' : ' ', o.devs[p]);
	printf(", copies up to %zu bytes, batches of %d\n", o.max_len, o.batch);
	printf(PROG ": replay: " PROG " -S 0x%016" PRIx64 " -t %u -p %d -s %d -m %zu"
	       " -b %zu -B %d\n", o.seed, o.seconds, o.procs, o.streams, o.max_len,
	       o.dev_size, o.batch);
	fflush(stdout);

	shared = mmap(NULL, sizeof(*shared) * o.procs * o.streams,
		      PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(o.procs, sizeof(*pids));
	if (shared == MAP_FAILED || !pids) {
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	start = now();
	deadline = start + o.seconds;
	for (p = 0; p < o.procs; p++) {
		pids[p] = fork();
		if (pids[p] < 0) {
			fprintf(stderr, PROG ": fork: %s\n", strerror(errno));
			return 1;
		}
		if (!pids[p])
			_exit(proc_main(p));
	}

	/* Wait; a process still running long after the deadline hangs. */
	next_print = start + 10;
	running = o.procs;
	while (running) {
		pid_t pid = waitpid(-1, &status, WNOHANG);

		if (pid > 0) {
			running--;
			if (!WIFEXITED(status) || WEXITSTATUS(status)) {
				fprintf(stderr, PROG ": process %d: %s %d\n", (int)pid,
					WIFEXITED(status) ? "exit status" : "killed by signal",
					WIFEXITED(status) ? WEXITSTATUS(status) :
					WTERMSIG(status));
				bad_exits++;
			}
			continue;
		}
		if (now() > deadline + 2.0 * SYNC_MS / 1000) {
			fprintf(stderr, PROG ": %d processes hang; killing them\n", running);
			for (p = 0; p < o.procs; p++)
				kill(pids[p], SIGKILL);
			next_print = deadline + 1e9;
		}
		if (o.verbose && now() >= next_print) {
			sum(&t);
			printf(PROG ": %.0f s: copies %" PRIu64 ", bytes moved %" PRIu64
			       ", verified %" PRIu64 ", lost %" PRIu64 ", errors %" PRIu64 "\n",
			       now() - start, total(t.copies), total(t.bytes), t.verified,
			       t.lost, t.errors);
			fflush(stdout);
			next_print += 10;
		}
		usleep(100 * 1000);
	}
	sum(&t);
	report(&t, now() - start, bad_exits);
	for (i = 0; i < (size_t)o.procs * o.streams; i++) {
		if (!shared[i].done)
			bad_exits++;
	}
	return t.lost || t.errors || bad_exits || total(t.copies) == 0;
}
