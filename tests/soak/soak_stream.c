// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-soak's per-stream work, one thread each: the random choices,
 * drawing and issuing the operations of a batch, checking every D2H and
 * the full read-backs against the shadow, staging and committing the
 * figures, a stream's setup and teardown (soak.h).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "soak.h"

#define GUARD		64		/* bytes checked on each side of a D2H */
#define READBACK_EVERY	8		/* batches between full read-backs */

const char *const kind_name[NR_KINDS] = {
	"h2d", "d2h", "d2d", "h2d-2d", "d2h-2d", "d2d-2d", "memset",
};

uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n). */
uint64_t below(uint64_t *rng, uint64_t n)
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

void add(uint64_t *v, uint64_t n)
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

void *stream_main(void *arg)
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
