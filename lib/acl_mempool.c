// SPDX-License-Identifier: MIT
/*
 * libacl: stream-ordered memory pools (acl/acl_rt_memory_soma.h).
 *
 * A pool hands out blocks of device memory carved from chunks, each chunk
 * one real device allocation (as aclrtMallocAlign32's, so the driver
 * checks every copy into pool memory against it; charged to "mempool" in
 * aclrtGetMemUsageInfo). Sizes follow CANN's SOMA:
 * blocks and the pool's maxSize are multiples of 2 MiB.
 *
 * A block is BUSY (handed out), CACHED (given back by
 * aclrtMemPoolFreeAsync on a stream, whose work up to that point may
 * still be running) or FREE (nothing can touch it any more). A CACHED
 * block remembers its free point: the freeing stream's ring and the
 * sequence number of the last descriptor queued there before the free.
 * Who may have it:
 *   - the freeing stream itself at once (its later work runs after its
 *     earlier work: stream order);
 *   - any stream once the ring's completed_seq reached the free point
 *     (the block is then FREE);
 *   - with ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, another
 *     stream that already waits for the free point (an event recorded
 *     after the free, waited for with aclrtStreamWaitEvent);
 *   - with ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES, another
 *     stream before that, after a WAIT descriptor on the free point is
 *     queued on it (CANN's implicit dependency).
 *
 * CANN releases idle memory above the release threshold at the next
 * stream synchronize; libacl has no hook there, so a pool releases it
 * when a pool call (aclrtMemPoolMallocAsync, aclrtMemPoolGetAttr) first
 * finds the frees completed. A chunk goes back to the driver only when
 * none of its blocks is BUSY; closing it while copies queued before a
 * free still run is safe: the driver frees it after them.
 *
 * One lock guards every pool; under it, the calls below take the device's
 * and the rings' locks (acl_pool_lock is outermost of those).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_rt_memory_soma.h"
#include "acl_objects.h"
#include "acl_error.h"
#include "acl_device.h"
#include "acl_mem.h"
#include "acl_ring.h"
#include "acl_stream.h"
#include "acl_htask.h"
#include "acl_submit.h"

#define ACL_POOL_GRAIN		(2ULL << 20)	/* CANN's block and pool alignment */

enum acl_blk_state {
	ACL_BLK_FREE,
	ACL_BLK_CACHED,
	ACL_BLK_BUSY,
};

/* A piece of a chunk; a chunk's blocks tile it, in address order. */
struct acl_pool_blk {
	uintptr_t addr;			/* device pointer */
	uint64_t size;
	enum acl_blk_state state;
	struct acl_ring *ring;		/* CACHED: ring of the free (a reference) */
	uint64_t seq;			/* CACHED: last descriptor before the free */
	struct acl_pool_blk *prev, *next;
};

/* One device allocation of the pool. */
struct acl_pool_chunk {
	void *base;			/* what acl_malloc_for() returned */
	uint64_t size;
	uint64_t gen;			/* the device's gen when allocated */
	struct acl_pool_blk *blks;
	struct acl_pool_chunk *next;
};

struct acl_mempool {
	struct acl_device *dev;
	uint64_t max_size;		/* bytes, a multiple of ACL_POOL_GRAIN */
	uint32_t reuse[3];		/* ACL_RT_MEM_POOL_REUSE_* (attr - 1) */
	uint64_t threshold;		/* ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD */
	uint64_t reserved, reserved_high;	/* bytes in chunks */
	uint64_t used, used_high;	/* bytes in BUSY blocks */
	struct acl_pool_chunk *chunks;
	struct acl_mempool *next;	/* in acl_pools */
};

static pthread_mutex_t acl_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct acl_mempool *acl_pools;	/* every live pool, under the lock */

/* ---- blocks and chunks ------------------------------------------------ */

/* Drop @b's free point (if it has one). */
static void acl_blk_unref(struct acl_pool_blk *b)
{
	if (b->ring)
		acl_ring_put(b->ring);
	b->ring = NULL;
	b->seq = 0;
}

/* May @a and its successor @b become one block? CANN's merge rule. */
static bool acl_blk_mergeable(const struct acl_pool_blk *a,
			      const struct acl_pool_blk *b)
{
	if (!a || !b || a->state != b->state || a->state == ACL_BLK_BUSY)
		return false;
	return a->state == ACL_BLK_FREE ||
	       (a->ring == b->ring && a->seq == b->seq);
}

/* Fold @b into its predecessor @a. */
static void acl_blk_fold(struct acl_pool_blk *a, struct acl_pool_blk *b)
{
	a->size += b->size;
	a->next = b->next;
	if (b->next)
		b->next->prev = a;
	acl_blk_unref(b);
	free(b);
}

/* Merge @b with its neighbours where the rule allows: the block left. */
static struct acl_pool_blk *acl_blk_merge(struct acl_pool_blk *b)
{
	if (acl_blk_mergeable(b->prev, b)) {
		b = b->prev;
		acl_blk_fold(b, b->next);
	}
	if (acl_blk_mergeable(b, b->next))
		acl_blk_fold(b, b->next);
	return b;
}

/*
 * Cut @b to @size bytes; the rest, in @b's state (and free point),
 * follows it. Return: 0 or -ENOMEM.
 */
static int acl_blk_split(struct acl_pool_blk *b, uint64_t size)
{
	struct acl_pool_blk *rest;

	if (b->size == size)
		return 0;
	rest = calloc(1, sizeof(*rest));
	if (!rest)
		return -ENOMEM;
	*rest = *b;
	rest->addr = b->addr + size;
	rest->size = b->size - size;
	rest->prev = b;
	if (rest->ring)
		acl_ring_get(rest->ring);
	if (b->next)
		b->next->prev = rest;
	b->next = rest;
	b->size = size;
	return 0;
}

static void acl_chunk_forget(struct acl_pool_chunk *c)
{
	struct acl_pool_blk *b, *next;

	for (b = c->blks; b; b = next) {
		next = b->next;
		acl_blk_unref(b);
		free(b);
	}
	free(c);
}

/* Is the chunk's memory still the device's (no reset since)? */
static bool acl_chunk_live(const struct acl_mempool *p,
			   const struct acl_pool_chunk *c)
{
	return acl_device_is_open(p->dev) &&
	       __atomic_load_n(&p->dev->gen, __ATOMIC_ACQUIRE) == c->gen;
}

/* Take chunk *@pc out of the pool and give its memory back. */
static void acl_chunk_release(struct acl_mempool *p, struct acl_pool_chunk **pc)
{
	struct acl_pool_chunk *c = *pc;
	const char *api = acl_tls.api;

	*pc = c->next;
	p->reserved -= c->size;
	if (acl_chunk_live(p, c))
		(void)aclrtFree(c->base);
	acl_tls.api = api;
	acl_chunk_forget(c);
}

/*
 * A device reset freed the memory of the chunks it saw: forget them and
 * their blocks (pointers into them are no longer the pool's).
 */
static void acl_pool_prune(struct acl_mempool *p)
{
	struct acl_pool_chunk **pc = &p->chunks, *c;
	struct acl_pool_blk *b;

	while (*pc) {
		if (acl_chunk_live(p, *pc)) {
			pc = &(*pc)->next;
			continue;
		}
		for (b = (*pc)->blks; b; b = b->next)
			if (b->state == ACL_BLK_BUSY)
				p->used -= b->size;
		c = *pc;
		*pc = c->next;
		p->reserved -= c->size;
		acl_chunk_forget(c);
	}
}

/* CACHED blocks whose free point completed become FREE. */
static void acl_pool_harvest(struct acl_mempool *p)
{
	struct acl_pool_chunk *c;
	struct acl_pool_blk *b;

	for (c = p->chunks; c; c = c->next) {
		for (b = c->blks; b; b = b->next) {
			if (b->state != ACL_BLK_CACHED ||
			    acl_ring_completed(b->ring) < b->seq)
				continue;
			acl_blk_unref(b);
			b->state = ACL_BLK_FREE;
			b = acl_blk_merge(b);
		}
	}
}

/* Chunk with no BUSY block (and, if @done_only, no CACHED one either)? */
static bool acl_chunk_idle(const struct acl_pool_chunk *c, bool done_only)
{
	const struct acl_pool_blk *b;

	for (b = c->blks; b; b = b->next)
		if (b->state == ACL_BLK_BUSY ||
		    (done_only && b->state == ACL_BLK_CACHED))
			return false;
	return true;
}

/* Which chunks acl_pool_shrink() may give back. */
enum acl_shrink {
	ACL_SHRINK_DONE,	/* idle, every free completed; keep >= @keep */
	ACL_SHRINK_ANY,		/* idle (frees may be pending); keep >= @keep */
	ACL_SHRINK_BELOW,	/* as DONE, and may end below @keep */
};

/*
 * The idle chunk to give back while more than @keep bytes are reserved:
 * the largest that keeps @keep, else (BELOW) the smallest; or NULL.
 */
static struct acl_pool_chunk **acl_pool_victim(struct acl_mempool *p,
					       uint64_t keep, enum acl_shrink how)
{
	struct acl_pool_chunk **pc, **fit = NULL, **small = NULL;
	uint64_t excess = p->reserved - keep;

	for (pc = &p->chunks; *pc; pc = &(*pc)->next) {
		if (!acl_chunk_idle(*pc, how != ACL_SHRINK_ANY))
			continue;
		if ((*pc)->size <= excess && (!fit || (*pc)->size > (*fit)->size))
			fit = pc;
		if (!small || (*pc)->size < (*small)->size)
			small = pc;
	}
	return fit ? fit : how == ACL_SHRINK_BELOW ? small : NULL;
}

/* Give idle chunks back while more than @keep bytes are reserved. */
static void acl_pool_shrink(struct acl_mempool *p, uint64_t keep,
			    enum acl_shrink how)
{
	struct acl_pool_chunk **pc;

	while (p->reserved > keep && (pc = acl_pool_victim(p, keep, how)))
		acl_chunk_release(p, pc);
}

/* What CANN does at a synchronize: completed frees, then the threshold. */
static void acl_pool_settle(struct acl_mempool *p)
{
	acl_pool_prune(p);
	acl_pool_harvest(p);
	acl_pool_shrink(p, p->threshold, ACL_SHRINK_DONE);
}

/* ---- the registry ----------------------------------------------------- */

void acl_mempool_forked(void)
{
	/* The parent's pools hold the parent's memory: not the child's. */
	pthread_mutex_init(&acl_pool_lock, NULL);
	acl_pools = NULL;
}

/* The live pool behind @handle, or NULL (acl_pool_lock held). */
static struct acl_mempool *acl_pool_find(aclrtMemPool handle)
{
	struct acl_mempool *p;

	for (p = acl_pools; p; p = p->next)
		if (p == handle)
			return p;
	return NULL;
}

/* The block starting at device pointer @ptr, or NULL; *@pool: its pool. */
static struct acl_pool_blk *acl_pool_blk_at(uintptr_t ptr,
					    struct acl_mempool **pool)
{
	struct acl_pool_chunk *c;
	struct acl_pool_blk *b;
	struct acl_mempool *p;

	*pool = NULL;
	for (p = acl_pools; p; p = p->next) {
		for (c = p->chunks; c; c = c->next) {
			if (ptr < (uintptr_t)c->base ||
			    ptr - (uintptr_t)c->base >= c->size)
				continue;
			*pool = p;
			for (b = c->blks; b; b = b->next)
				if (b->addr == ptr)
					return b;
			return NULL;
		}
	}
	return NULL;
}

/* ---- aclrtMemPoolCreate / aclrtMemPoolDestroy -------------------------- */

static aclError acl_pool_check_props(const aclrtMemPoolProps *pp)
{
	size_t i;

	if (pp->allocType != ACL_MEM_ALLOCATION_TYPE_PINNED)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "poolProps->allocType=%d: only "
			       "ACL_MEM_ALLOCATION_TYPE_PINNED (0) is supported",
			       (int)pp->allocType);
	if (pp->location.type != ACL_MEM_LOCATION_TYPE_DEVICE)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "poolProps->location.type=%d: only "
			       "ACL_MEM_LOCATION_TYPE_DEVICE (1) is supported",
			       (int)pp->location.type);
	for (i = 0; i < sizeof(pp->reserved); i++)
		if (pp->reserved[i])
			return acl_err(ACL_ERROR_INVALID_PARAM,
				       "poolProps->reserved[%zu]=%u: reserved "
				       "bytes must be zero", i, pp->reserved[i]);
	return ACL_SUCCESS;
}

/* CANN's size rule: 0 is the device's memory (rounded down), else rounded up. */
static aclError acl_pool_max_size(const struct acl_device *dev, size_t want,
				  uint64_t *max)
{
	uint64_t total = dev->info.mem_size;

	if (!want) {
		*max = total & ~(ACL_POOL_GRAIN - 1);
		return ACL_SUCCESS;
	}
	if ((uint64_t)want > total)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "poolProps->maxSize=%zu exceeds device %d's "
			       "memory of %llu bytes", want, dev->id,
			       (unsigned long long)total);
	*max = ((uint64_t)want + ACL_POOL_GRAIN - 1) & ~(ACL_POOL_GRAIN - 1);
	if (*max > total)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "poolProps->maxSize=%zu is %llu bytes once "
			       "aligned to 2 MiB, more than device %d's memory "
			       "of %llu bytes", want, (unsigned long long)*max,
			       dev->id, (unsigned long long)total);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolCreate(aclrtMemPool *memPool,
						const aclrtMemPoolProps *poolProps)
{
	struct acl_device *dev;
	struct acl_mempool *p;
	uint64_t max = 0;
	aclError ret;

	ACL_ENTER();
	if (!memPool || !poolProps)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "memPool=%p poolProps=%p: neither may be NULL",
			       (void *)memPool, (const void *)poolProps);
	ret = acl_pool_check_props(poolProps);
	if (ret)
		return ret;
	if (!acl_current_ctx())
		return ACL_ERROR_RT_CONTEXT_NULL;
	if (poolProps->location.id > INT32_MAX)
		return acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
			       "poolProps->location.id=%u is out of range",
			       poolProps->location.id);
	dev = acl_device_get((int32_t)poolProps->location.id);
	if (!dev)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	if (!acl_device_is_open(dev))
		return acl_err(ACL_ERROR_RT_CONTEXT_NULL,
			       "poolProps->location.id=%u: device not set in "
			       "this process (aclrtSetDevice)",
			       poolProps->location.id);
	ret = acl_pool_max_size(dev, poolProps->maxSize, &max);
	if (ret)
		return ret;
	p = calloc(1, sizeof(*p));
	if (!p)
		return acl_err(ACL_ERROR_BAD_ALLOC, "no memory for a pool");
	p->dev = dev;
	p->max_size = max;
	pthread_mutex_lock(&acl_pool_lock);
	p->next = acl_pools;
	acl_pools = p;
	pthread_mutex_unlock(&acl_pool_lock);
	*memPool = p;
	return ACL_SUCCESS;
}

/* Unlink @p from the registry (acl_pool_lock held). */
static void acl_pool_unlink(struct acl_mempool *p)
{
	struct acl_mempool **pp;

	for (pp = &acl_pools; *pp != p; pp = &(*pp)->next)
		;
	*pp = p->next;
}

/* Count the BUSY blocks of @p. */
static size_t acl_pool_busy(const struct acl_mempool *p)
{
	const struct acl_pool_chunk *c;
	const struct acl_pool_blk *b;
	size_t n = 0;

	for (c = p->chunks; c; c = c->next)
		for (b = c->blks; b; b = b->next)
			n += b->state == ACL_BLK_BUSY;
	return n;
}

static aclError acl_pool_unknown(aclError code, aclrtMemPool memPool)
{
	return acl_err(code, "memPool=%p is not a memory pool (never created, "
		       "or destroyed)", memPool);
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolDestroy(const aclrtMemPool memPool)
{
	struct acl_mempool *p;
	size_t busy;

	ACL_ENTER();
	if (!memPool)
		return acl_err(ACL_ERROR_INVALID_PARAM, "memPool is NULL");
	pthread_mutex_lock(&acl_pool_lock);
	p = acl_pool_find(memPool);
	if (!p) {
		pthread_mutex_unlock(&acl_pool_lock);
		return acl_pool_unknown(ACL_ERROR_RT_INTERNAL_ERROR, memPool);
	}
	acl_pool_prune(p);
	busy = acl_pool_busy(p);
	if (busy) {
		aclError ret = acl_err(ACL_ERROR_RT_INTERNAL_ERROR,
				       "memPool=%p still has %zu allocations "
				       "(%llu bytes) not given back with "
				       "aclrtMemPoolFreeAsync", memPool, busy,
				       (unsigned long long)p->used);

		pthread_mutex_unlock(&acl_pool_lock);
		return ret;
	}
	acl_pool_unlink(p);
	while (p->chunks)
		acl_chunk_release(p, &p->chunks);
	pthread_mutex_unlock(&acl_pool_lock);
	free(p);
	return ACL_SUCCESS;
}

/* ---- attributes ------------------------------------------------------- */

static aclError acl_pool_bad_attr(aclrtMemPoolAttr attr)
{
	return acl_err(ACL_ERROR_RT_PARAM_INVALID,
		       "attr=%d is not an aclrtMemPoolAttr", (int)attr);
}

/* Lock and find the pool of an attribute call: NULL with error recorded. */
static struct acl_mempool *acl_pool_attr_enter(aclrtMemPool memPool,
					       const void *value, aclError *ret)
{
	struct acl_mempool *p;

	*ret = ACL_SUCCESS;
	if (!memPool) {
		*ret = acl_err(ACL_ERROR_INVALID_PARAM, "memPool is NULL");
		return NULL;
	}
	pthread_mutex_lock(&acl_pool_lock);
	p = acl_pool_find(memPool);
	if (!p)
		*ret = acl_pool_unknown(ACL_ERROR_RT_PARAM_INVALID, memPool);
	else if (!value)
		*ret = acl_err(ACL_ERROR_RT_PARAM_INVALID, "value is NULL");
	if (*ret) {
		pthread_mutex_unlock(&acl_pool_lock);
		return NULL;
	}
	return p;
}

static aclError acl_pool_set(struct acl_mempool *p, aclrtMemPoolAttr attr,
			     const void *value)
{
	uint64_t v;

	switch (attr) {
	case ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES:
	case ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC:
	case ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		p->reuse[attr - 1] = *(const uint32_t *)value != 0;
		return ACL_SUCCESS;
	case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT:
	case ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT:
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "attr=%d is read-only", (int)attr);
	default:
		break;
	}
	memcpy(&v, value, sizeof(v));
	switch (attr) {
	case ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD:
		if (v > p->max_size)
			return acl_err(ACL_ERROR_RT_PARAM_INVALID,
				       "release threshold %llu exceeds the "
				       "pool's maxSize %llu",
				       (unsigned long long)v,
				       (unsigned long long)p->max_size);
		p->threshold = v;
		return ACL_SUCCESS;
	case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH:
	case ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH:
		if (v)
			return acl_err(ACL_ERROR_RT_PARAM_INVALID,
				       "attr=%d value=%llu: a high-water mark "
				       "can only be reset to 0", (int)attr,
				       (unsigned long long)v);
		if (attr == ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH)
			p->used_high = 0;
		else
			p->reserved_high = 0;
		return ACL_SUCCESS;
	default:
		return acl_pool_bad_attr(attr);
	}
}


static aclError acl_pool_get(struct acl_mempool *p, aclrtMemPoolAttr attr,
			     void *value)
{
	uint64_t v;

	switch (attr) {
	case ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES:
	case ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC:
	case ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		*(uint32_t *)value = p->reuse[attr - 1];
		return ACL_SUCCESS;
	case ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD:
		v = p->threshold;
		break;
	case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT:
		v = p->reserved;
		break;
	case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH:
		v = p->reserved_high;
		break;
	case ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT:
		v = p->used;
		break;
	case ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH:
		v = p->used_high;
		break;
	default:
		return acl_pool_bad_attr(attr);
	}
	memcpy(value, &v, sizeof(v));
	return ACL_SUCCESS;
}

/*
 * Both attribute calls: find the pool under the lock, then set, or
 * settle (completed frees, the threshold) and get.
 */
static aclError acl_pool_attr(aclrtMemPool memPool, aclrtMemPoolAttr attr,
			      void *value, bool set)
{
	struct acl_mempool *p;
	aclError ret;

	p = acl_pool_attr_enter(memPool, value, &ret);
	if (!p)
		return ret;
	if (set) {
		ret = acl_pool_set(p, attr, value);
	} else {
		acl_pool_settle(p);
		ret = acl_pool_get(p, attr, value);
	}
	pthread_mutex_unlock(&acl_pool_lock);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolSetAttr(aclrtMemPool memPool,
						 aclrtMemPoolAttr attr,
						 void *value)
{
	ACL_ENTER();
	return acl_pool_attr(memPool, attr, value, true);
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolGetAttr(aclrtMemPool memPool,
						 aclrtMemPoolAttr attr,
						 void *value)
{
	ACL_ENTER();
	return acl_pool_attr(memPool, attr, value, false);
}

/* ---- aclrtMemPoolMallocAsync ------------------------------------------- */

/*
 * Has @s already queued a WAIT for @b's free point (or a later point of
 * the same queue)? Then its later work runs after the free: CANN's
 * event-dependency reuse. aclrtStreamWaitEvent queues exactly such a
 * WAIT for a record made after the free. The descriptors are read back
 * from the ring the library wrote them to (the kernel only reads it); a
 * WAIT older than the ring's last @entries slots is not seen, which
 * only costs a reuse.
 */
static bool acl_pool_waited(const struct acl_stream *s,
			    const struct acl_pool_blk *b)
{
	struct acl_ring *r = s->ring;
	const struct npu_dma_desc *d;
	bool found = false;
	uint32_t tail, i;

	pthread_mutex_lock(&r->lock);
	tail = r->ctrl->sq_tail;
	for (i = 1; i <= r->entries && !found; i++) {
		d = &r->ring[(tail - i) & (r->entries - 1)];
		found = d->opcode == NPU_DMA_OP_WAIT &&
			d->wait_queue == b->ring->id && d->value >= b->seq;
	}
	pthread_mutex_unlock(&r->lock);
	return found;
}

/* May @s have cached block @b without waiting? */
static bool acl_pool_ready(const struct acl_mempool *p,
			   const struct acl_stream *s,
			   const struct acl_pool_blk *b)
{
	if (b->state == ACL_BLK_FREE || b->ring == s->ring)
		return true;
	return p->reuse[ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES - 1] &&
	       acl_pool_waited(s, b);
}

/*
 * The best-fitting block of at least @size bytes @s may have: one it need
 * not wait for, else (*@wait set) one it may have after a WAIT.
 */
static struct acl_pool_blk *acl_pool_pick(struct acl_mempool *p,
					  const struct acl_stream *s,
					  uint64_t size, bool *wait)
{
	struct acl_pool_blk *b, *now = NULL, *later = NULL;
	bool internal = p->reuse[ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES - 1];
	struct acl_pool_chunk *c;

	for (c = p->chunks; c; c = c->next) {
		for (b = c->blks; b; b = b->next) {
			if (b->state == ACL_BLK_BUSY || b->size < size)
				continue;
			if (acl_pool_ready(p, s, b)) {
				if (!now || b->size < now->size)
					now = b;
			} else if (internal && (!later || b->size < later->size)) {
				later = b;
			}
		}
	}
	*wait = !now && later;
	return now ? now : later;
}

/* Queue on @s a WAIT for @b's free point: aclError. */
static aclError acl_pool_wait_free(struct acl_stream *s,
				   const struct acl_pool_blk *b)
{
	struct npu_dma_desc d = {
		.opcode = NPU_DMA_OP_WAIT,
		.wait_queue = b->ring->id,
		.value = b->seq,
	};
	struct acl_work w = acl_work_descs(&d, 1);
	uint64_t first, last;
	int err;

	err = acl_stream_submit(s, &w, &first, &last);
	return err ? acl_err_sys(err, "DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT") :
		     ACL_SUCCESS;
}

/* Make room for @size more reserved bytes, by idle chunks if need be. */
static bool acl_pool_room(struct acl_mempool *p, uint64_t size)
{
	if (p->max_size - p->reserved >= size)
		return true;
	acl_pool_shrink(p, p->max_size - size, ACL_SHRINK_BELOW);
	return p->max_size - p->reserved >= size;
}

/* A new chunk of @size bytes holding one block (returned), or NULL. */
static struct acl_pool_blk *acl_pool_grow(struct acl_mempool *p,
					  uint64_t size, aclError *ret)
{
	struct acl_pool_chunk *c = calloc(1, sizeof(*c));
	struct acl_pool_blk *b = calloc(1, sizeof(*b));

	*ret = ACL_SUCCESS;
	if (!c || !b) {
		free(c);
		free(b);
		*ret = acl_err(ACL_ERROR_BAD_ALLOC, "no memory for pool blocks");
		return NULL;
	}
	c->gen = __atomic_load_n(&p->dev->gen, __ATOMIC_ACQUIRE);
	*ret = acl_malloc_for(&c->base, (size_t)size, ACL_MEM_USE_MEMPOOL);
	if (*ret) {
		free(c);
		free(b);
		acl_err(*ret, "memPool=%p: could not take %llu more bytes from "
			"device %d", (void *)p, (unsigned long long)size,
			p->dev->id);
		return NULL;
	}
	c->size = size;
	c->blks = b;
	b->addr = (uintptr_t)c->base;
	b->size = size;
	c->next = p->chunks;
	p->chunks = c;
	p->reserved += size;
	if (p->reserved > p->reserved_high)
		p->reserved_high = p->reserved;
	return b;
}

/* Hand out @size bytes of @p for @s (acl_pool_lock held): the block, or NULL. */
static struct acl_pool_blk *acl_pool_alloc(struct acl_mempool *p,
					   struct acl_stream *s,
					   uint64_t size, aclError *ret)
{
	struct acl_pool_blk *b;
	bool wait;

	acl_pool_prune(p);
	acl_pool_harvest(p);
	b = acl_pool_pick(p, s, size, &wait);
	if (b && wait) {
		*ret = acl_pool_wait_free(s, b);
		if (*ret)
			return NULL;
	}
	if (b && acl_blk_split(b, size)) {
		*ret = acl_err(ACL_ERROR_BAD_ALLOC, "no memory for pool blocks");
		return NULL;
	}
	if (!b && !acl_pool_room(p, size)) {
		*ret = acl_err(ACL_ERROR_RT_INTERNAL_ERROR,
			       "memPool=%p cannot give %llu bytes: maxSize "
			       "%llu, %llu in use, %llu held by frees not yet "
			       "reached on other streams", (void *)p,
			       (unsigned long long)size,
			       (unsigned long long)p->max_size,
			       (unsigned long long)p->used,
			       (unsigned long long)(p->reserved - p->used));
		return NULL;
	}
	if (!b)
		b = acl_pool_grow(p, size, ret);
	if (!b)
		return NULL;
	acl_blk_unref(b);
	b->state = ACL_BLK_BUSY;
	p->used += size;
	if (p->used > p->used_high)
		p->used_high = p->used;
	acl_pool_shrink(p, p->threshold, ACL_SHRINK_DONE);
	return b;
}

/* The stream of a pool call, of the current context: NULL with error. */
static struct acl_stream *acl_pool_stream(aclrtStream stream, aclError *ret)
{
	struct acl_stream *s = acl_stream_for_task(stream, ret);

	if (s && acl_stream_capturing(s)) {
		*ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "stream=%p is capturing: stream-ordered pool "
			       "calls cannot be captured", stream);
		return NULL;
	}
	return s;
}

static aclError acl_pool_other_device(const struct acl_mempool *p,
				      aclrtStream stream,
				      const struct acl_stream *s)
{
	return acl_err(ACL_ERROR_RT_PARAM_INVALID,
		       "stream=%p is on device %d, memPool=%p on device %d",
		       stream, s->ctx->dev->id, (const void *)p, p->dev->id);
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolMallocAsync(void **ptr, size_t size,
						     aclrtMemPool memPool,
						     aclrtStream stream)
{
	struct acl_pool_blk *b = NULL;
	struct acl_mempool *p;
	struct acl_stream *s;
	uint64_t need;
	aclError ret;

	ACL_ENTER();
	if (!ptr || !memPool || !stream)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "ptr=%p memPool=%p stream=%p: none may be NULL",
			       (void *)ptr, memPool, stream);
	if (!size)
		return ACL_SUCCESS;	/* CANN: nothing, *ptr untouched */
	s = acl_pool_stream(stream, &ret);
	if (!s)
		return ret;
	if ((uint64_t)size > UINT64_MAX - (ACL_POOL_GRAIN - 1))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "size=%zu overflows when aligned to 2 MiB", size);
	need = ((uint64_t)size + ACL_POOL_GRAIN - 1) & ~(ACL_POOL_GRAIN - 1);
	pthread_mutex_lock(&acl_pool_lock);
	p = acl_pool_find(memPool);
	if (!p)
		ret = acl_pool_unknown(ACL_ERROR_RT_INTERNAL_ERROR, memPool);
	else if (s->ctx->dev != p->dev)
		ret = acl_pool_other_device(p, stream, s);
	else
		b = acl_pool_alloc(p, s, need, &ret);
	if (b)
		*ptr = (void *)b->addr;
	pthread_mutex_unlock(&acl_pool_lock);
	return ret;
}

/* ---- aclrtMemPoolFreeAsync --------------------------------------------- */

static void acl_pool_free_host(void *ptr)
{
	(void)aclrtFree(ptr);
}

/*
 * A pointer no pool knows: CANN takes it for aclrtMalloc memory and
 * frees it with aclrtFree when the stream reaches this point.
 */
static aclError acl_pool_free_plain(void *ptr, aclrtStream stream)
{
	const char *api = acl_tls.api;
	aclError ret;

	if (!acl_va_find(ptr))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "ptr=%p is neither pool memory nor device memory",
			       ptr);
	ret = aclrtLaunchHostFunc(stream, acl_pool_free_host, ptr);
	acl_tls.api = api;
	return ret;
}

/* Give @b back at @s's current end (acl_pool_lock held). */
static void acl_pool_cache(struct acl_mempool *p, struct acl_pool_blk *b,
			   struct acl_stream *s)
{
	b->state = ACL_BLK_CACHED;
	b->ring = s->ring;
	acl_ring_get(b->ring);
	/*
	 * Should a running host function's barrier fail to queue (the NPU
	 * gone, the driver out of memory), the block is free for reuse
	 * when the stream's queued work is done, not that function.
	 */
	acl_stream_mark(s, &b->seq);
	p->used -= b->size;
	acl_blk_merge(b);
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolFreeAsync(void *ptr,
						   aclrtStream stream)
{
	struct acl_pool_blk *b;
	struct acl_mempool *p;
	struct acl_stream *s;
	aclError ret = ACL_SUCCESS;

	ACL_ENTER();
	if (!ptr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
	if (!stream)
		return acl_err(ACL_ERROR_RT_INTERNAL_ERROR,
			       "stream is NULL: the free needs a stream");
	s = acl_pool_stream(stream, &ret);
	if (!s)
		return ret;
	pthread_mutex_lock(&acl_pool_lock);
	for (p = acl_pools; p; p = p->next)
		acl_pool_prune(p);
	b = acl_pool_blk_at((uintptr_t)ptr, &p);
	if (!p) {
		pthread_mutex_unlock(&acl_pool_lock);
		return acl_pool_free_plain(ptr, stream);
	}
	if (!b || b->state != ACL_BLK_BUSY)
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "ptr=%p is not an allocation of memPool=%p (not "
			      "its start, or already freed)", ptr, (void *)p);
	else if (s->ctx->dev != p->dev)
		ret = acl_pool_other_device(p, stream, s);
	else
		acl_pool_cache(p, b, s);
	pthread_mutex_unlock(&acl_pool_lock);
	return ret;
}

/* ---- aclrtMemPoolTrimTo ------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtMemPoolTrimTo(aclrtMemPool memPool,
						size_t minBytesToKeep)
{
	uint64_t keep = minBytesToKeep;
	struct acl_mempool *p;
	aclError ret = ACL_SUCCESS;

	ACL_ENTER();
	if (!memPool)
		return acl_err(ACL_ERROR_INVALID_PARAM, "memPool is NULL");
	pthread_mutex_lock(&acl_pool_lock);
	p = acl_pool_find(memPool);
	if (!p) {
		ret = acl_pool_unknown(ACL_ERROR_RT_INTERNAL_ERROR, memPool);
		goto out;
	}
	acl_pool_prune(p);
	acl_pool_harvest(p);
	if (keep > p->max_size)
		ret = acl_err(ACL_ERROR_RT_INTERNAL_ERROR,
			      "minBytesToKeep=%zu exceeds the pool's maxSize "
			      "%llu", minBytesToKeep,
			      (unsigned long long)p->max_size);
	else if (keep < p->used)
		ret = acl_err(ACL_ERROR_RT_INTERNAL_ERROR,
			      "minBytesToKeep=%zu is below the %llu bytes in "
			      "use", minBytesToKeep,
			      (unsigned long long)p->used);
	else
		acl_pool_shrink(p, keep, ACL_SHRINK_ANY);
out:
	pthread_mutex_unlock(&acl_pool_lock);
	return ret;
}
