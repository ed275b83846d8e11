// SPDX-License-Identifier: MIT
/*
 * libacl: batch copies (ACL_API.md 4.10). @numBatches independent
 * copies srcs[i] -> dsts[i]; attrs[k] says where both sides of copies
 * attrsIndexes[k] .. attrsIndexes[k + 1] - 1 live.
 *
 * Every member is checked and planned before anything runs, so a bad one
 * leaves nothing queued. The members then go to the driver as one batch:
 * BATCH_BEGIN, the copies, BATCH_END, in one doorbell. The driver runs
 * them in any order, spread over its DMA channels, and retires the batch
 * as a unit in stream order. A batch larger than the ring (1024 entries
 * for a stream, 256 for the library rings of synchronous calls, fewer
 * if the driver's max_queue_entries is lower) is cut into consecutive
 * batches of a ring each.
 *
 * Host memory may be pinned or pageable, member by member; a pageable
 * member is pinned by the driver for its copy. When a batch has one, the
 * asynchronous call returns only after the batch completed (CANN drains
 * the stream and copies that member synchronously: same guarantee, the
 * caller's buffer is done with on return).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_ring.h"
#include "acl_device.h"
#include "acl_stream.h"
#include "acl_mem.h"
#include "acl_copy.h"
#include "acl_submit.h"

#define ACL_BATCH_MAX_SYNC	4096	/* CANN's DEVMM_MEMCPY_BATCH_MAX_COUNT */

struct acl_batch_args {
	void **dsts;
	size_t *destMaxs;
	void **srcs;
	size_t *sizes;
	size_t n;
	aclrtMemcpyBatchAttr *attrs;
	size_t *idx;
	size_t nattrs;
	size_t *fail;
	bool async;
	struct acl_stream *s;		/* async: the stream, once looked up */
};

/* The descriptor list under construction, cut into groups of @unit. */
struct acl_blist {
	struct npu_dma_desc *d;
	size_t n, cap;
	size_t unit;			/* descriptors per group, markers included */
	size_t open;			/* members in the open group, 0 if none */
	bool pageable;
};

/*
 * What the last member planned in full found, for the members after it:
 * one whose host pointer lies in the same pinned region and whose device
 * pointer in the same NPU's reserved range, under the same attribute,
 * classifies and plans the same way (same flags, same runner), so it is
 * written out without looking anything up again. Members that do not fit
 * (pageable, another region or NPU, a size over max_copy_len, any error)
 * take the full path, which reports errors as before.
 */
struct acl_batch_run {
	bool valid;
	bool h2d;			/* host side is the source */
	size_t attr;			/* attribute it was checked against */
	uint16_t flags;			/* descriptor flags */
	uintptr_t hlo, hhi;		/* pinned host region [hlo, hhi) */
	uint64_t gen;			/* acl_hosts.gen it was found at */
	struct acl_va va;		/* the device side's NPU */
	uint64_t max;			/* bytes per descriptor */
};

/* The checks of the acl edge: 100000, failIndex left at SIZE_MAX. */
static aclError acl_batch_edge(const struct acl_batch_args *a, bool *empty)
{
	size_t i, k;

	if (!a->sizes || !a->n)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "sizes=%p numBatches=%zu: need sizes and a count",
			       (void *)a->sizes, a->n);
	for (i = 0; i < a->n && !a->sizes[i]; i++)
		;
	*empty = i == a->n;
	if (*empty)
		return ACL_SUCCESS;
	if (!a->dsts || !a->destMaxs || !a->srcs || !a->attrs || !a->idx)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "dsts=%p destMaxs=%p srcs=%p attrs=%p "
			       "attrsIndexes=%p: none may be NULL",
			       (void *)a->dsts, (void *)a->destMaxs,
			       (void *)a->srcs, (void *)a->attrs, (void *)a->idx);
	for (i = 0; i < a->n; i++)
		if (a->destMaxs[i] < a->sizes[i])
			return acl_err(ACL_ERROR_INVALID_PARAM,
				       "sizes[%zu]=%zu does not fit destMaxs[%zu]=%zu",
				       i, a->sizes[i], i, a->destMaxs[i]);
	/* No further than numBatches: a larger numAttrs fails just after. */
	for (k = 0; k < a->nattrs && k < a->n; k++)
		for (i = 0; i < sizeof(a->attrs[k].rsv); i++)
			if (a->attrs[k].rsv[i])
				return acl_err(ACL_ERROR_INVALID_PARAM,
					       "attrs[%zu].rsv[%zu]=%u: reserved "
					       "bytes must be 0", k, i,
					       a->attrs[k].rsv[i]);
	return ACL_SUCCESS;
}

/* The runtime's checks of the arrays: 107000. */
static aclError acl_batch_shape(const struct acl_batch_args *a)
{
	size_t k;

	if (!a->nattrs || a->nattrs > a->n)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "numAttrs=%zu must be 1..numBatches=%zu",
			       a->nattrs, a->n);
	if (a->idx[0])
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "attrsIndexes[0]=%zu must be 0", a->idx[0]);
	for (k = 1; k < a->nattrs; k++)
		if (a->idx[k] <= a->idx[k - 1] || a->idx[k] >= a->n)
			return acl_err(ACL_ERROR_RT_PARAM_INVALID,
				       "attrsIndexes[%zu]=%zu must exceed "
				       "attrsIndexes[%zu]=%zu and be below "
				       "numBatches=%zu", k, a->idx[k], k - 1,
				       a->idx[k - 1], a->n);
	if (!a->async && a->n > ACL_BATCH_MAX_SYNC)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "numBatches=%zu exceeds %d for a synchronous batch",
			       a->n, ACL_BATCH_MAX_SYNC);
	return ACL_SUCCESS;
}

static const char *acl_loc_name(enum acl_loc loc)
{
	return loc == ACL_LOC_DEVICE ? "device" :
	       loc == ACL_LOC_HOST ? "pinned host" : "pageable host";
}

/*
 * Does a pointer's real place match what the attribute says? Any host
 * type (HOST, UNREGISTERED, HOST_NUMA) fits host memory, pinned or not;
 * DEVICE must name the device by its id.
 */
static bool acl_loc_fits(enum acl_loc loc, const struct acl_device *dev,
			 const aclrtMemLocation *want)
{
	if (loc == ACL_LOC_DEVICE)
		return want->type == ACL_MEM_LOCATION_TYPE_DEVICE &&
		       (int64_t)want->id == dev->id;
	return want->type == ACL_MEM_LOCATION_TYPE_HOST ||
	       want->type == ACL_MEM_LOCATION_TYPE_UNREGISTERED ||
	       want->type == ACL_MEM_LOCATION_TYPE_HOST_NUMA;
}

static aclError acl_batch_fail(const struct acl_batch_args *a, size_t i,
			       aclError ret)
{
	*a->fail = i;
	return ret;
}

/*
 * One member's side against its attribute: 107000 naming it. *@ptr is
 * classified once here and planned from (acl_plan_copy_ptrs()).
 */
static aclError acl_batch_side(const struct acl_batch_args *a, size_t i,
			       size_t k, bool is_src, struct acl_ptr *ptr)
{
	const aclrtMemLocation *want = is_src ? &a->attrs[k].srcLoc :
						&a->attrs[k].dstLoc;

	ptr->p = is_src ? a->srcs[i] : a->dsts[i];
	ptr->loc = acl_classify(ptr->p, &ptr->dev);
	if (acl_loc_fits(ptr->loc, ptr->dev, want))
		return ACL_SUCCESS;
	return acl_batch_fail(a, i, acl_err(ACL_ERROR_RT_PARAM_INVALID,
		"%s[%zu]=%p is %s memory (device %d), but attrs[%zu].%s says "
		"type=%d id=%u", is_src ? "srcs" : "dsts", i, ptr->p,
		acl_loc_name(ptr->loc),
		ptr->loc == ACL_LOC_DEVICE ? ptr->dev->id : -1, k,
		is_src ? "srcLoc" : "dstLoc", (int)want->type, want->id));
}

/* Room for @more descriptors and the markers of their groups. */
static int acl_blist_reserve(struct acl_blist *l, size_t more)
{
	size_t need = l->n + more + 2 * (more / (l->unit - 2) + 2);
	struct npu_dma_desc *nd;
	size_t cap;

	if (need <= l->cap)
		return 0;
	cap = l->cap ? 2 * l->cap : 64;
	if (cap < need)
		cap = need;
	nd = realloc(l->d, cap * sizeof(*nd));
	if (!nd)
		return -1;
	l->d = nd;
	l->cap = cap;
	return 0;
}

/* Add one descriptor, opening and closing groups on the way. */
static int acl_blist_add(struct acl_blist *l, const struct npu_dma_desc *d)
{
	static const struct npu_dma_desc begin = { .opcode = NPU_DMA_OP_BATCH_BEGIN };
	static const struct npu_dma_desc end = { .opcode = NPU_DMA_OP_BATCH_END };

	if (l->n + 3 > l->cap && acl_blist_reserve(l, 1))
		return -1;
	if (!d) {			/* close the last group */
		if (l->open)
			l->d[l->n++] = end;
		l->open = 0;
		return 0;
	}
	if (!l->open)
		l->d[l->n++] = begin;
	l->d[l->n++] = *d;
	if (++l->open == l->unit - 2) {
		l->d[l->n++] = end;
		l->open = 0;
	}
	return 0;
}

/*
 * Remember what member @i, planned as @x with its device side on @dev,
 * found: the pinned region holding its host side and @dev's range.
 */
static void acl_batch_run_set(struct acl_batch_run *r, size_t attr,
			      const struct acl_xfer *x,
			      const struct acl_device *dev, uint64_t max)
{
	uintptr_t h = x->tmpl.flags & NPU_DMA_DESC_F_SRC_HOST ? x->tmpl.src :
								 x->tmpl.dst;
	ssize_t k;

	r->valid = false;
	if (x->pageable || x->len > max)
		return;
	pthread_mutex_lock(&acl_host_lock);
	k = acl_host_find(&acl_hosts, h);
	if (k >= 0) {
		r->hlo = acl_hosts.r[k].addr;
		r->hhi = acl_hosts.r[k].addr + acl_hosts.r[k].size;
		r->gen = acl_hosts.gen;
		r->valid = true;
	}
	pthread_mutex_unlock(&acl_host_lock);
	r->h2d = x->tmpl.flags & NPU_DMA_DESC_F_SRC_HOST;
	r->attr = attr;
	r->flags = x->tmpl.flags;
	r->va.base = __atomic_load_n(&dev->va_base, __ATOMIC_ACQUIRE);
	r->va.size = dev->va_size;
	r->va.mem_base = dev->info.mem_base;
	r->max = max;
}

/*
 * Write out members @i .. @end - 1 (one attribute) while they fit what
 * the last member planned in full found (@r, same attribute), and the
 * list has room (acl_blist_reserve() made it for one descriptor a
 * member). Return: the first member that does not fit, or @end.
 */
static size_t acl_batch_run_span(const struct acl_batch_run *r,
				 const struct acl_batch_args *a, size_t i,
				 size_t end, struct acl_blist *l)
{
	static const struct npu_dma_desc open_marker = { .opcode = NPU_DMA_OP_BATCH_BEGIN };
	static const struct npu_dma_desc close_marker = { .opcode = NPU_DMA_OP_BATCH_END };
	void **hosts = r->h2d ? a->srcs : a->dsts;
	void **devs = r->h2d ? a->dsts : a->srcs;
	uintptr_t h, v;
	uint64_t len, dev;

	for (; i < end; i++) {
		h = (uintptr_t)hosts[i];
		v = (uintptr_t)devs[i];
		len = a->sizes[i];
		if (l->n + 3 > l->cap || !len || len > r->max ||
		    h < r->hlo || h >= r->hhi ||
		    len > r->hhi - h || !acl_va_contains(&r->va, v) ||
		    __atomic_load_n(&acl_hosts.gen, __ATOMIC_ACQUIRE) != r->gen)
			break;
		dev = acl_va_to_dev(&r->va, v);
		if (!l->open)
			l->d[l->n++] = open_marker;
		l->d[l->n++] = (struct npu_dma_desc){
			.opcode = NPU_DMA_OP_COPY, .flags = r->flags,
			.src = r->h2d ? h : dev, .dst = r->h2d ? dev : h,
			.len = len,
		};
		if (++l->open == l->unit - 2) {
			l->d[l->n++] = close_marker;
			l->open = 0;
		}
	}
	return i;
}

/* Plan member @i (direction @kind) on *@run and add its descriptors. */
static aclError acl_batch_member(const struct acl_batch_args *a, size_t i,
				 size_t attr, const struct acl_ptr *dst,
				 const struct acl_ptr *src, aclrtMemcpyKind kind,
				 struct acl_device **run, struct acl_blist *l,
				 struct acl_batch_run *r)
{
	uint64_t max, off;
	struct acl_xfer x;
	aclError ret;

	ret = acl_plan_copy_ptrs(&x, dst, src, a->sizes[i], kind, *run);
	if (ret)	/* newest first: which copy, then why */
		return acl_batch_fail(a, i, acl_err(ret,
			"dsts[%zu]=%p srcs[%zu]=%p sizes[%zu]=%zu: copy %zu of "
			"the batch", i, dst->p, i, src->p, i, a->sizes[i], i));
	*run = x.dev;
	l->pageable |= x.pageable;
	max = acl_dev_max_len(x.dev, x.pageable);
	acl_batch_run_set(r, attr, &x,
			  kind == ACL_MEMCPY_HOST_TO_DEVICE ? dst->dev : src->dev,
			  max);
	for (off = 0; off < x.len; off += max) {
		struct npu_dma_desc d;

		acl_build_descs(&d, 1, &x.tmpl, x.len - off, max);
		d.src += off;
		d.dst += off;
		if (acl_blist_add(l, &d))
			return acl_err(ACL_ERROR_BAD_ALLOC,
				       "no memory for %zu batch descriptors",
				       l->n);
	}
	return ACL_SUCCESS;
}

/*
 * Check every member against its attribute and the batch's direction
 * (the first member's: all H2D or all D2H), and plan it.
 */
static aclError acl_batch_plan(const struct acl_batch_args *a,
			       struct acl_device **run, struct acl_blist *l)
{
	aclrtMemcpyKind dir = ACL_MEMCPY_DEFAULT, k;
	struct acl_batch_run r = { .valid = false };
	struct acl_ptr src, dst;
	size_t i, j, attr = 0;
	aclError ret;

	if (acl_blist_reserve(l, a->n))
		return acl_err(ACL_ERROR_BAD_ALLOC, "no memory for a batch");
	for (i = 0; i < a->n; i++) {
		if (attr + 1 < a->nattrs && a->idx[attr + 1] == i)
			attr++;
		if (r.valid && r.attr == attr) {
			j = acl_batch_run_span(&r, a, i, attr + 1 < a->nattrs ?
					       a->idx[attr + 1] : a->n, l);
			if (j > i) {
				i = j - 1;	/* the loop moves on to j */
				continue;
			}
		}
		if (!a->sizes[i]) {
			if (a->async)
				return acl_batch_fail(a, i, acl_err(
					ACL_ERROR_RT_PARAM_INVALID,
					"sizes[%zu]=0 in an asynchronous batch",
					i));
			continue;
		}
		ret = acl_batch_side(a, i, attr, true, &src);
		if (!ret)
			ret = acl_batch_side(a, i, attr, false, &dst);
		if (ret)
			return ret;
		if ((src.loc == ACL_LOC_DEVICE) == (dst.loc == ACL_LOC_DEVICE))
			return acl_batch_fail(a, i, acl_err(
				ACL_ERROR_RT_PARAM_INVALID,
				"copy %zu is %s to %s: batches copy between host "
				"and device", i, acl_loc_name(src.loc),
				acl_loc_name(dst.loc)));
		k = src.loc == ACL_LOC_DEVICE ? ACL_MEMCPY_DEVICE_TO_HOST :
						ACL_MEMCPY_HOST_TO_DEVICE;
		if (dir != ACL_MEMCPY_DEFAULT && k != dir)
			return acl_batch_fail(a, i, acl_err(
				ACL_ERROR_RT_PARAM_INVALID,
				"copy %zu is %s, the batch is %s: one direction "
				"per batch", i, acl_kind_name(k),
				acl_kind_name(dir)));
		dir = k;
		ret = acl_batch_member(a, i, attr, &dst, &src, k, run, l, &r);
		if (ret)
			return ret;
	}
	return acl_blist_add(l, NULL) ?
	       acl_err(ACL_ERROR_BAD_ALLOC, "no memory for a batch") :
	       ACL_SUCCESS;
}

static aclError acl_memcpy_batch(struct acl_batch_args *a, aclrtStream stream)
{
	struct acl_blist l = { 0 };
	struct acl_device *run = NULL;
	struct acl_work w;
	aclError ret;
	bool empty;

	ret = acl_batch_edge(a, &empty);
	if (ret || empty)
		return ret;
	ret = acl_batch_shape(a);
	if (ret)
		return ret;
	if (a->async) {
		a->s = acl_stream_for_task(stream, &ret);
		if (!a->s)
			return ret;
		run = a->s->ctx->dev;
		l.unit = a->s->ring->entries;
	} else {
		ret = acl_sync_allowed("batch");
		if (ret)
			return ret;
		l.unit = acl_sync_ring_min();
	}
	ret = acl_batch_plan(a, &run, &l);
	w = acl_work_descs(l.d, l.n);
	w.unit = l.unit;
	w.pageable = a->async && l.pageable;
	if (!ret && a->async)
		ret = acl_submit_async(a->s, &w);
	else if (!ret)
		ret = acl_submit_sync(run, &w);
	free(l.d);
	return ret;
}

/* Set up the arguments; V2 calls pass no @fail. */
static aclError acl_batch_call(void **dsts, size_t *destMaxs, void **srcs,
			       size_t *sizes, size_t n,
			       aclrtMemcpyBatchAttr *attrs, size_t *idx,
			       size_t nattrs, size_t *fail, bool async,
			       aclrtStream stream)
{
	size_t unused;
	struct acl_batch_args a = {
		.dsts = dsts, .destMaxs = destMaxs, .srcs = srcs,
		.sizes = sizes, .n = n, .attrs = attrs, .idx = idx,
		.nattrs = nattrs, .fail = fail ? fail : &unused,
		.async = async,
	};

	*a.fail = SIZE_MAX;
	return acl_memcpy_batch(&a, stream);
}

ACL_FUNC_VISIBILITY aclError
aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
		 size_t numBatches, aclrtMemcpyBatchAttr *attrs,
		 size_t *attrsIndexes, size_t numAttrs, size_t *failIndex)
{
	ACL_ENTER();
	if (!failIndex)
		return acl_err(ACL_ERROR_INVALID_PARAM, "failIndex is NULL");
	return acl_batch_call(dsts, destMaxs, srcs, sizes, numBatches, attrs,
			      attrsIndexes, numAttrs, failIndex, false, NULL);
}

ACL_FUNC_VISIBILITY aclError
aclrtMemcpyBatchV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
		   size_t numBatches, aclrtMemcpyBatchAttr *attrs,
		   size_t *attrsIndexes, size_t numAttrs)
{
	ACL_ENTER();
	return acl_batch_call(dsts, destMaxs, srcs, sizes, numBatches, attrs,
			      attrsIndexes, numAttrs, NULL, false, NULL);
}

ACL_FUNC_VISIBILITY aclError
aclrtMemcpyBatchAsync(void **dsts, size_t *destMaxs, void **srcs,
		      size_t *sizes, size_t numBatches,
		      aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
		      size_t numAttrs, size_t *failIndex, aclrtStream stream)
{
	ACL_ENTER();
	if (!failIndex)
		return acl_err(ACL_ERROR_INVALID_PARAM, "failIndex is NULL");
	return acl_batch_call(dsts, destMaxs, srcs, sizes, numBatches, attrs,
			      attrsIndexes, numAttrs, failIndex, true, stream);
}

ACL_FUNC_VISIBILITY aclError
aclrtMemcpyBatchAsyncV2(void **dsts, size_t *destMaxs, void **srcs,
			size_t *sizes, size_t numBatches,
			aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
			size_t numAttrs, aclrtStream stream)
{
	ACL_ENTER();
	return acl_batch_call(dsts, destMaxs, srcs, sizes, numBatches, attrs,
			      attrsIndexes, numAttrs, NULL, true, stream);
}
