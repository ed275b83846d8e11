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
 * With -k the parent also SIGKILLs a random process at random times,
 * while it has copies queued, and starts a fresh one in its place: the
 * driver's teardown of queued work runs under load. A stream's figures
 * reach the totals only at a full read-back, once every byte it moved is
 * checked, so a killed process's unfinished work is neither counted nor
 * lost. After the last process, the parent checks that the pinned pages
 * (/proc/vmstat) and each NPU's free device memory are back where they
 * were, and each process that exited checks its locked memory.
 *
 * All randomness comes from one seed, printed first: -S replays a run's
 * choices (timing, and so the number of batches, differs), the kill
 * schedule included. Exit status 0 when no byte was lost, no call failed
 * and everything balanced, 1 otherwise, 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "drm/npu_dma_accel.h"
#include "npu_node.h"

#define PROG		"npu-soak"
#define MAX_DEVS	64
#define MAX_PROCS	64
#define MAX_BATCH	64
#define GUARD		64		/* bytes checked on each side of a D2H */
#define SYNC_MS		60000		/* a batch that takes longer is a hang */
#define READBACK_EVERY	8		/* batches between full read-backs */
#define BALANCE_MS	5000		/* a dead process's release may be deferred */

enum kind { H2D, D2H, D2D, H2D_2D, D2H_2D, D2D_2D, FILL, NR_KINDS };

static const char *const kind_name[NR_KINDS] = {
	"h2d", "d2h", "d2d", "h2d-2d", "d2h-2d", "d2d-2d", "memset",
};

/*
 * One stream's figures, in memory shared with the parent. A stream
 * stages its own (struct stream's @stage) and adds them here at each full
 * read-back; lost, errors, done, queued and locked go here directly.
 */
struct counters {
	uint64_t copies[NR_KINDS];
	uint64_t bytes[NR_KINDS];
	uint64_t pinned, pageable, sync, async;
	uint64_t batches, readbacks;
	uint64_t verified;	/* bytes compared with what they must be */
	uint64_t lost;		/* of those, the ones that differed */
	uint64_t errors;	/* acl calls that failed */
	uint64_t done;		/* the stream finished (cleanly or not) */
	uint64_t queued;	/* async calls not yet synchronised: a kill now is mid-batch */
	uint64_t locked;	/* kB of VmLck not given back (stream 0 of a process) */
};

static struct opts {
	int procs, streams;
	unsigned int seconds;
	uint64_t seed;
	size_t max_len, dev_size;
	int batch;
	int devs[MAX_DEVS], nr_devs;
	unsigned int kill_every;	/* mean seconds between kills, 0: none */
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
	int proc, gen, index, dev;
	uint64_t rng;
	struct counters *c;
	struct counters stage;		/* figures not yet checked by a read-back */
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
	uint64_t batches;		/* this stream's, for the operation log */
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
	fprintf(stderr, PROG ": proc %d.%d stream %d (device %d): %s: error %d: %s\n",
		s->proc, s->gen, s->index, s->dev, call, (int)ret, aclGetRecentErrMsg());
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

	s->stage.verified += len;
	if (!memcmp(got, want, len))
		return;
	for (i = 0; i < len; i++) {
		if (got[i] != want[i] && !bad++)
			first = i;
	}
	fprintf(stderr, PROG ": proc %d.%d stream %d (device %d): %s: %zu of %zu"
		" bytes differ, first at %zu: 0x%02x, want 0x%02x\n", s->proc, s->gen,
		s->index, s->dev, what, bad, len, first, got[first], want[first]);
	add(&s->c->lost, bad);
	s->failed = true;
}

static void count(struct stream *s, enum kind k, size_t bytes, bool pinned,
		  bool sync)
{
	s->stage.copies[k]++;
	s->stage.bytes[k] += bytes;
	if (k == H2D || k == D2H || k == H2D_2D || k == D2H_2D) {
		if (pinned)
			s->stage.pinned++;
		else
			s->stage.pageable++;
	}
	if (sync) {
		s->stage.sync++;
	} else {
		s->stage.async++;
		/* Queued, not waited for: a kill now finds work in flight. */
		__atomic_store_n(&s->c->queued, 1, __ATOMIC_RELAXED);
	}
}

/* The staged figures, all checked now, into the shared ones. */
static void commit(struct stream *s)
{
	struct counters *t = &s->stage;
	int k;

	for (k = 0; k < NR_KINDS; k++) {
		add(&s->c->copies[k], t->copies[k]);
		add(&s->c->bytes[k], t->bytes[k]);
	}
	add(&s->c->pinned, t->pinned);
	add(&s->c->pageable, t->pageable);
	add(&s->c->sync, t->sync);
	add(&s->c->async, t->async);
	add(&s->c->batches, t->batches);
	add(&s->c->readbacks, t->readbacks);
	add(&s->c->verified, t->verified);
	memset(t, 0, sizeof(*t));
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
		.batch = s->batches, .slot = slot, .sync = sync,
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
	s->stage.readbacks++;
	commit(s);
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
	__atomic_store_n(&s->c->queued, 0, __ATOMIC_RELAXED);
	for (i = 0; i < s->npend; i++)
		verify(s, s->pend[i].what, s->pend[i].got, s->pend[i].want,
		       s->pend[i].len);
	s->stage.batches++;
	s->batches++;
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
	commit(s);	/* after a failure: what was moved, lost included */
	stream_teardown(s);
	add(&s->c->done, 1);
	return NULL;
}

/*
 * VmLck in kB of process @pid, 0: this one (what the driver charges
 * host registrations to). -1: unknown.
 */
static long vmlck_kb(pid_t pid)
{
	char line[128];
	long kb = -1;
	FILE *f;

	if (pid)
		snprintf(line, sizeof(line), "/proc/%d/status", (int)pid);
	else
		snprintf(line, sizeof(line), "/proc/self/status");
	f = fopen(line, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "VmLck: %ld", &kb) == 1)
			break;
	}
	if (f)
		fclose(f);
	return kb;
}

/*
 * After aclFinalize: the locked memory the registrations charged must be
 * back to what it was before aclInit (a file's release may be deferred).
 */
static bool check_locked(int p, int gen, long before)
{
	double end = now() + BALANCE_MS / 1000.0;
	long after;

	while ((after = vmlck_kb(0)) != before && now() < end)
		usleep(50 * 1000);
	if (after == before)
		return true;
	fprintf(stderr, PROG ": proc %d.%d: VmLck %ld kB before aclInit, %ld kB after"
		" aclFinalize\n", p, gen, before, after);
	add(&shared[p * o.streams].locked, after > before ? after - before : before - after);
	return false;
}

/* Process slot @p, its generation @gen: 0 at start, +1 at each kill. */
static int proc_main(int p, int gen)
{
	struct stream *ss = calloc(o.streams, sizeof(*ss));
	pthread_t *tids = calloc(o.streams, sizeof(*tids));
	long locked = vmlck_kb(0);
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
		s->gen = gen;
		s->index = i;
		s->dev = o.devs[(p * o.streams + i) % o.nr_devs];
		s->c = &shared[p * o.streams + i];
		/* Generation 0 draws what it drew before kills existed. */
		s->rng = o.seed ^ ((uint64_t)p << 32 | (uint64_t)i) ^
			 (uint64_t)gen << 48;
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
	if (!check_locked(p, gen, locked))
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
		SUM(locked);
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

/* The parent's view of the run: its processes and what became of them. */
struct run {
	pid_t pids[MAX_PROCS];	/* 0: the slot's last process has ended */
	int gen[MAX_PROCS];	/* generation running in each slot */
	bool killed[MAX_PROCS];	/* SIGKILLed by the schedule, not yet reaped */
	int running, bad_exits;
	int kills;
	int victim;		/* slot drawn for the next kill, -1: none yet */
	uint64_t krng;		/* the kill schedule's randomness */
	double next_kill;
	bool unbalanced;
};

static void report(const struct counters *t, double secs, const struct run *r)
{
	uint64_t bytes = total(t->bytes);
	bool fail = t->lost || t->errors || r->bad_exits || r->unbalanced ||
		    t->locked || !total(t->copies);
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
	       ", errors %" PRIu64 ", failed processes %d, kills %d (mid-batch),"
	       " balances %s: %s\n", secs,
	       total(t->copies), bytes, secs > 0 ? bytes / secs / 1e6 : 0.0,
	       t->verified, t->lost, t->errors, r->bad_exits, r->kills,
	       r->unbalanced || t->locked ? "DIFFER" : "equal",
	       fail ? "FAIL" : "PASS");
}

/*
 * What must be the same after the run as before it: pages pinned with
 * FOLL_PIN system-wide, and each NPU's free device memory. Read in the
 * parent, which never opens a device through libacl: the nodes are
 * opened only for the GET_INFO ioctl, and closed before anything forks.
 */
struct balance {
	long long pins;			/* -1: unknown */
	long long mem_free[MAX_DEVS];	/* by acl device id, -1: unknown */
};

static long long pinned_pages(void)
{
	long long acq = -1, rel = -1, v;
	char name[64];
	FILE *f;

	/* The counters are per-CPU, folded lazily: fold them now. */
	f = fopen("/proc/sys/vm/stat_refresh", "w");
	if (f) {
		fputs("1\n", f);
		fclose(f);
	}
	f = fopen("/proc/vmstat", "r");
	while (f && fscanf(f, "%63s %lld", name, &v) == 2) {
		if (!strcmp(name, "nr_foll_pin_acquired"))
			acq = v;
		else if (!strcmp(name, "nr_foll_pin_released"))
			rel = v;
	}
	if (f)
		fclose(f);
	return acq < 0 || rel < 0 ? -1 : acq - rel;
}

static long long dev_mem_free(const struct npu_node *n)
{
	struct npu_dma_info info = { 0 };
	int fd = open(n->node, O_RDWR | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -1;
	ret = ioctl(fd, DRM_IOCTL_NPU_DMA_GET_INFO, &info);
	close(fd);
	return ret ? -1 : (long long)info.mem_free;
}

static void read_balance(struct balance *b)
{
	struct npu_node nodes[MAX_DEVS];
	int i, n;

	b->pins = pinned_pages();
	n = npu_node_list("/sys", nodes, MAX_DEVS);
	for (i = 0; i < MAX_DEVS; i++)
		b->mem_free[i] = -1;
	for (i = 0; i < o.nr_devs; i++) {
		if (o.devs[i] < n)
			b->mem_free[o.devs[i]] = dev_mem_free(&nodes[o.devs[i]]);
	}
}

static bool same_balance(const struct balance *a, const struct balance *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/*
 * After the last process: poll until the balances are back (the release
 * of a killed process's file may run later, from a work item), print
 * them. Return: whether they are.
 */
static bool check_balance(const struct balance *start)
{
	double end = now() + BALANCE_MS / 1000.0;
	struct balance b;
	bool same;
	int i, d;

	while (read_balance(&b), !(same = same_balance(start, &b)) && now() < end)
		usleep(100 * 1000);
	printf(PROG ": balance: pinned pages %lld at start, %lld at end", start->pins,
	       b.pins);
	for (i = 0; i < MAX_DEVS; i++) {
		for (d = 0; d < o.nr_devs && o.devs[d] != i; d++)
			;
		if (d < o.nr_devs)
			printf("; device %d memory free %lld, %lld", i, start->mem_free[i],
			       b.mem_free[i]);
	}
	printf(": %s\n", same ? "equal" : "DIFFER");
	if (start->pins < 0)
		fprintf(stderr, PROG ": pinned pages unknown (no nr_foll_pin_* in"
			" /proc/vmstat)\n");
	for (i = 0; i < o.nr_devs; i++) {
		if (start->mem_free[o.devs[i]] < 0)
			fprintf(stderr, PROG ": device %d: memory free unknown (GET_INFO"
				" on its node failed; run as root)\n", o.devs[i]);
	}
	return same;
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
"totals (copies, bytes moved, bytes verified, bytes lost, kills). A\n"
"stream's figures count once a full read-back has checked them: the\n"
"unfinished work of a killed process is neither counted nor lost. At the\n"
"end, pinned pages (/proc/vmstat nr_foll_pin_*) and each device's free\n"
"memory (GET_INFO) must be back to their start values, and each process's\n"
"VmLck after aclFinalize to its value before aclInit.\n"
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
"  -k, --kill-every N SIGKILL a random process every N seconds on average\n"
"                     (uniform in 0..2N), while it has copies queued, and\n"
"                     start a fresh one in its place; 0: no kills (default)\n"
"  -v, --verbose      print the totals every 10 seconds\n"
"  -h, --help         this text\n"
"\n"
"Exit status: 0 if no byte was lost, no call failed and everything\n"
"balanced, 1 otherwise, 2 on a usage error.\n",
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
		{ "kill-every", required_argument, NULL, 'k' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	bool seeded = false;
	uint64_t v;
	int c;

	while ((c = getopt_long(argc, argv, "t:p:s:d:S:m:b:B:k:vh", lo, NULL)) != -1) {
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
			if (!v || v > MAX_PROCS)
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
		case 'k':
			if (v > 86400)
				goto bad;
			o.kill_every = (unsigned int)v;
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

/*
 * The totals so far, with the pages pinned and the device memory in use
 * now: the balances checked at the end are seen to move.
 */
static void progress(struct counters *t, double secs, const struct run *r,
		     const struct balance *start)
{
	long long used = 0, locked = 0, kb;
	struct balance b;
	int i;

	sum(t);
	read_balance(&b);
	for (i = 0; i < MAX_DEVS; i++)
		used += start->mem_free[i] - b.mem_free[i];
	for (i = 0; i < o.procs; i++) {
		kb = r->pids[i] ? vmlck_kb(r->pids[i]) : 0;
		locked += kb > 0 ? kb : 0;
	}
	printf(PROG ": %.0f s: copies %" PRIu64 ", bytes moved %" PRIu64
	       ", verified %" PRIu64 ", lost %" PRIu64 ", errors %" PRIu64
	       ", kills %d; pinned pages %lld, device memory in use %lld,"
	       " VmLck %lld kB\n", secs, total(t->copies), total(t->bytes),
	       t->verified, t->lost, t->errors, r->kills, b.pins - start->pins,
	       used, locked);
	fflush(stdout);
}

/* Slot @p's process, generation r->gen[p]. */
static int spawn(struct run *r, int p)
{
	pid_t pid;
	int i;

	/* What a killed predecessor left must not pass for the new one's. */
	for (i = 0; i < o.streams; i++)
		__atomic_store_n(&shared[p * o.streams + i].queued, 0, __ATOMIC_RELAXED);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, PROG ": fork: %s\n", strerror(errno));
		return -1;
	}
	if (!pid)
		_exit(proc_main(p, r->gen[p]));
	r->pids[p] = pid;
	return 0;
}

/* Seconds until the next kill: uniform in (0, 2 * mean), from the seed. */
static double kill_interval(struct run *r)
{
	return (splitmix(&r->krng) >> 11) * 0x1p-53 * 2 * o.kill_every;
}

/* Has slot @p's process async copies queued that it has not waited for? */
static bool queued(int p)
{
	int i;

	for (i = 0; i < o.streams; i++) {
		if (__atomic_load_n(&shared[p * o.streams + i].queued, __ATOMIC_RELAXED))
			return true;
	}
	return false;
}

/*
 * The kill schedule: at each scheduled time a process slot is drawn from
 * the seed; its process is SIGKILLed as soon as it has copies queued
 * (checked at each turn of the parent's loop), so it dies mid-batch and
 * the driver tears down work in flight, even when the slot's process is
 * a replacement still setting up. Its replacement starts when it is
 * reaped. The next time is drawn once the kill is done.
 */
static void kill_turn(struct run *r)
{
	int p = r->victim;

	if (p < 0) {
		if (now() < r->next_kill)
			return;
		r->victim = (int)below(&r->krng, o.procs);
		r->next_kill += kill_interval(r);
		return;
	}
	if (r->killed[p] || !queued(p))
		return;		/* its replacement, or copies, to come */
	if (!r->pids[p] || kill(r->pids[p], SIGKILL)) {
		r->victim = -1;	/* it has ended by itself */
		return;
	}
	r->killed[p] = true;
	r->kills++;
	r->victim = -1;
	if (r->next_kill < now())
		r->next_kill = now();
	if (o.verbose)
		printf(PROG ": killed process %d.%d (pid %d)\n", p, r->gen[p],
		       (int)r->pids[p]);
}

/* A process ended: judge how, and replace it if the schedule killed it. */
static void reaped(struct run *r, pid_t pid, int status)
{
	int p;

	for (p = 0; p < o.procs && r->pids[p] != pid; p++)
		;
	if (p == o.procs)
		return;
	if (r->killed[p] && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
		r->killed[p] = false;
		r->gen[p]++;
		if (!spawn(r, p))
			return;
		r->bad_exits++;
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, PROG ": process %d.%d (pid %d): %s %d\n", p, r->gen[p],
			(int)pid, WIFEXITED(status) ? "exit status" : "killed by signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		r->bad_exits++;
	}
	r->killed[p] = false;
	r->pids[p] = 0;
	r->running--;
}

int main(int argc, char **argv)
{
	static struct run r;
	double start, next_print;
	struct balance bal;
	struct counters t;
	int p, status;
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
	printf(", copies up to %zu bytes, batches of %d, ", o.max_len, o.batch);
	if (o.kill_every)
		printf("a kill every %u s on average\n", o.kill_every);
	else
		printf("no kills\n");
	printf(PROG ": replay: " PROG " -S 0x%016" PRIx64 " -t %u -p %d -s %d -m %zu"
	       " -b %zu -B %d -k %u\n", o.seed, o.seconds, o.procs, o.streams,
	       o.max_len, o.dev_size, o.batch, o.kill_every);
	fflush(stdout);

	shared = mmap(NULL, sizeof(*shared) * o.procs * o.streams,
		      PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	read_balance(&bal);
	r.krng = o.seed ^ 0x6b696c6c;	/* "kill": apart from the streams' */
	r.victim = -1;
	start = now();
	deadline = start + o.seconds;
	r.next_kill = o.kill_every ? start + kill_interval(&r) : deadline + 1e9;
	for (p = 0; p < o.procs; p++) {
		if (spawn(&r, p))
			return 1;
		r.running++;
	}

	/* Wait; a process still running long after the deadline hangs. */
	next_print = start + 10;
	while (r.running) {
		pid_t pid = waitpid(-1, &status, WNOHANG);

		if (pid > 0) {
			reaped(&r, pid, status);
			continue;
		}
		if (o.kill_every && now() < deadline)
			kill_turn(&r);
		if (now() > deadline + 2.0 * SYNC_MS / 1000) {
			if (next_print < deadline + 1e9)
				fprintf(stderr, PROG ": %d processes hang; killing them\n",
					r.running);
			for (p = 0; p < o.procs; p++) {
				if (r.pids[p])
					kill(r.pids[p], SIGKILL);
			}
			next_print = deadline + 1e9;
		}
		if (o.verbose && now() >= next_print) {
			progress(&t, now() - start, &r, &bal);
			next_print += 10;
		}
		usleep(10 * 1000);
	}
	sum(&t);
	for (i = 0; i < (size_t)o.procs * o.streams; i++) {
		if (!shared[i].done)
			r.bad_exits++;
	}
	r.unbalanced = !check_balance(&bal);
	printf(PROG ": balance: VmLck after aclFinalize as before aclInit in each"
	       " process that exited: %s\n", t.locked ? "DIFFER" : "equal");
	report(&t, now() - start, &r);
	return t.lost || t.errors || r.bad_exits || r.unbalanced || t.locked ||
	       total(t.copies) == 0;
}
