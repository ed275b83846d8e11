// SPDX-License-Identifier: MIT
/*
 * libacl: the one submission path. Every piece of work that reaches a
 * ring goes through here, described by a struct acl_work (acl_submit.h):
 *
 *  - acl_stream_submit() hands work to a stream: it decides, once, under
 *    the ring's lock, whether the stream captures (the work is recorded)
 *    or runs it, and its first branch is the fast path of one plain
 *    descriptor (an asynchronous copy of pinned memory);
 *  - acl_submit_async() is the one asynchronous runner of the copy
 *    calls: acl_stream_submit(), and, for pageable host memory, a wait
 *    for the work (CANN: the caller's buffer is free on return);
 *  - acl_submit_sync() is the one synchronous runner: the work on one of
 *    the device's library rings, held for the call, waiting for its own
 *    descriptors only (never for a stream).
 *
 * Work is cut into doorbells as it goes: a planned transfer into
 * descriptors of at most what the NPU moves in one, a prepared list into
 * groups of @unit, so that the batch code keeps each BATCH_BEGIN ...
 * BATCH_END group inside one doorbell, as the driver requires.
 */
#include <errno.h>
#include <string.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_ring.h"
#include "acl_device.h"
#include "acl_stream.h"
#include "acl_htask.h"
#include "acl_capture.h"
#include "acl_copy.h"
#include "acl_submit.h"

#define ACL_CUT_BATCH	64	/* descriptors built per doorbell */

aclError acl_sync_allowed(const char *what)
{
	if (acl_capture_forbids_sync())
		return acl_err(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
			       "synchronous %s while a capture forbids it", what);
	if (!acl_current_ctx())
		return ACL_ERROR_RT_CONTEXT_NULL;
	return ACL_SUCCESS;
}

/* ---- cutting work into doorbells ------------------------------------- */

struct acl_cut {
	const struct acl_work *w;
	size_t unit;			/* prepared: descriptors per doorbell */
	size_t next;			/* prepared: the next one */
	struct npu_dma_desc t;		/* planned: the rest of the transfer */
	uint64_t left;			/* planned: bytes still to cut */
	uint64_t max;			/* planned: bytes per descriptor */
	struct npu_dma_desc d[ACL_CUT_BATCH];
};

static void acl_cut_init(struct acl_cut *c, const struct acl_work *w,
			 uint32_t entries)
{
	c->w = w;
	c->next = 0;
	c->unit = !w->unit ? w->n : w->unit < entries ? w->unit : entries;
	if (!w->x)
		return;
	c->t = w->x->tmpl;
	c->left = w->x->len;
	c->max = acl_dev_max_len(w->x->dev, w->x->pageable);
}

/* The next doorbell's descriptors into *@d: how many, 0 at the end. */
static size_t acl_cut_next(struct acl_cut *c, const struct npu_dma_desc **d)
{
	uint64_t span = 0;
	size_t n, i;

	if (!c->w->x) {
		n = c->w->n - c->next < c->unit ? c->w->n - c->next : c->unit;
		*d = c->w->d + c->next;
		c->next += n;
		return n;
	}
	if (!c->left)
		return 0;
	if (c->left <= c->max) {
		/* Most copies take one descriptor: no batch to build. */
		c->d[0] = c->t;
		c->d[0].len = c->left;
		n = 1;
	} else {
		n = acl_build_descs(c->d, ACL_CUT_BATCH, &c->t, c->left, c->max);
	}
	for (i = 0; i < n; i++)
		span += c->d[i].len;
	c->left -= span;
	c->t.dst += span;
	if (acl_desc_has_src(&c->t))
		c->t.src += span;
	*d = c->d;
	return n;
}

/*
 * All of @w into ring @r, a doorbell at a time. Caller holds r->lock.
 * Return: 0 or -errno; *@first .. *@last are what went in (both 0:
 * nothing), also on failure.
 */
static int acl_ring_submit_work_locked(struct acl_ring *r,
				       const struct acl_work *w,
				       uint64_t *first, uint64_t *last)
{
	const struct npu_dma_desc *d;
	uint64_t f, l;
	struct acl_cut c;
	int err = 0;
	size_t n;

	*first = *last = 0;
	acl_cut_init(&c, w, r->entries);
	while (!err && (n = acl_cut_next(&c, &d))) {
		f = l = 0;
		err = acl_ring_submit_locked(r, d, n, &f, &l);
		if (l && !*first)
			*first = f;
		if (l)
			*last = l;
	}
	return err;
}

/* Record @w in capture @g (caller holds the stream's ring lock). */
static int acl_work_capture(struct acl_graph *g, const struct acl_work *w)
{
	const struct npu_dma_desc *d;
	struct acl_cut c;
	int err = 0;
	size_t n;

	if (!w->x)
		return acl_capture_append(g, w->d, w->n, w->refs, w->nrefs);
	acl_cut_init(&c, w, ACL_CUT_BATCH);
	while (!err && (n = acl_cut_next(&c, &d)))
		err = acl_capture_append(g, d, n, NULL, 0);
	return err;
}

/* ---- host bookkeeping of a submission --------------------------------- */

static bool acl_refs_have_tasks(const struct acl_ref *refs, size_t nrefs)
{
	size_t i;

	for (i = 0; i < nrefs; i++)
		if (refs[i].kind == ACL_REF_HOST_TASK)
			return true;
	return false;
}

/*
 * Tell the events among @refs where they were recorded (or captured); an
 * external record only where a replay ran it: its capture changes nothing.
 */
static void acl_refs_events(struct acl_stream *s, const struct acl_ref *refs,
			    size_t nrefs, uint64_t first)
{
	struct acl_event *e;
	size_t i;

	for (i = 0; i < nrefs; i++) {
		if (refs[i].kind != ACL_REF_EVENT &&
		    (refs[i].kind != ACL_REF_EVENT_EXTERNAL || !first))
			continue;
		e = refs[i].ev;
		pthread_mutex_lock(&e->lock);
		e->captured = !first;
		e->rec_gen++;
		/* Re-recorded on the same ring: the event keeps its reference. */
		if (first && e->ring != s->ring) {
			if (e->ring)
				acl_ring_put(e->ring);
			acl_ring_get(s->ring);
			e->ring = s->ring;
		}
		if (first)
			e->seq = first + refs[i].idx;
		pthread_mutex_unlock(&e->lock);
	}
}

/* Prepared descriptors with host tasks among them. Caller holds the lock. */
static int acl_stream_submit_refs_locked(struct acl_stream *s,
					 const struct acl_work *w,
					 uint64_t *first, uint64_t *last)
{
	struct acl_ring *r = s->ring;
	struct acl_htask *tasks;
	int err = 0;

	tasks = acl_hostq_prepare(s, w->refs, w->nrefs, r->seq + 1, &err);
	if (!err)
		err = acl_ring_submit_locked(r, w->d, w->n, first, last);
	if (tasks)
		acl_hostq_commit(s, tasks, r->seq);
	return err;
}

/* ---- the one submission path ------------------------------------------ */

/* One plain prepared descriptor: what the fast path takes. */
static bool acl_work_is_one(const struct acl_work *w)
{
	return !w->x && w->n == 1 && !w->nrefs;
}

/* @w onto @s's ring, in order. Caller holds the ring's lock. */
static int acl_stream_run_locked(struct acl_stream *s, const struct acl_work *w,
				 uint64_t *first, uint64_t *last)
{
	struct acl_ring *r = s->ring;
	/* After a host task started early that still runs: its barrier. */
	int err = acl_hostq_fence_locked(s);

	if (err)
		return err;
	if (acl_work_is_one(w)) {
		err = acl_ring_submit_one(r, w->d, first);
		*last = *first;
		return err;
	}
	if (w->nrefs)
		return acl_stream_submit_refs_locked(s, w, first, last);
	return acl_ring_submit_work_locked(r, w, first, last);
}

int acl_stream_submit(struct acl_stream *s, const struct acl_work *w,
		      uint64_t *first, uint64_t *last)
{
	struct acl_ring *r = s->ring;
	int err = 0;

	*first = *last = 0;
	if (acl_refs_have_tasks(w->refs, w->nrefs))
		err = acl_hostq_start(s);
	if (err)
		return err;
	pthread_mutex_lock(&r->lock);
	if (s->graph)
		err = acl_work_capture(s->graph, w);
	else
		err = acl_stream_run_locked(s, w, first, last);
	pthread_mutex_unlock(&r->lock);
	if (!err && w->nrefs)
		acl_refs_events(s, w->refs, w->nrefs, *first);
	return err;
}

/*
 * Wait for what went in up to @last (0: nothing), even after a failed
 * doorbell: a synchronous call, or one on pageable memory, must not
 * return while its copies still run. Return: @err, else the wait's
 * -errno.
 */
static int acl_wait_submitted(struct acl_ring *r, uint64_t last, int err)
{
	int werr = last ? acl_ring_wait(r, last, -1) : 0;

	return err ? err : werr;
}

aclError acl_submit_async(struct acl_stream *s, const struct acl_work *w)
{
	uint64_t first, last;
	aclError ret;
	int err, werr;

	if (!w->pageable) {
		err = acl_stream_submit(s, w, &first, &last);
		return err ? acl_err_sys(err, "DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT") :
			     ACL_SUCCESS;
	}
	ret = acl_capture_reject_pageable(s);
	if (ret)
		return ret;
	err = acl_stream_submit(s, w, &first, &last);
	werr = acl_wait_submitted(s->ring, last, 0);
	if (err)
		return acl_err_sys(err, "DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT");
	if (werr)
		return acl_err_sys(werr, "waiting for a copy of pageable memory");
	return last ? acl_stream_check_range(s, first, last) : ACL_SUCCESS;
}

int acl_ring_submit_wait(struct acl_ring *r, const struct acl_work *w)
{
	uint64_t first, last;
	int err;

	pthread_mutex_lock(&r->lock);
	err = acl_ring_submit_work_locked(r, w, &first, &last);
	pthread_mutex_unlock(&r->lock);
	err = acl_wait_submitted(r, last, err);
	if (!err && last)
		err = acl_ring_error_in(r, first, last);
	return err;
}

aclError acl_submit_sync(struct acl_device *dev, const struct acl_work *w)
{
	aclError ret = ACL_SUCCESS;
	struct acl_ring *r;
	int slot, err;

	r = acl_sync_ring_acquire(dev, &slot, &ret);
	if (!r)
		return ret;
	err = acl_ring_submit_wait(r, w);
	acl_sync_ring_release(dev, slot);
	if (!err)
		return ACL_SUCCESS;
	if (w->x)
		return acl_err(acl_errno_to_acl(err),
			       "transfer of %llu bytes on device %d failed: %s",
			       (unsigned long long)w->x->len, dev->id,
			       strerror(-err));
	return acl_err(acl_errno_to_acl(err),
		       "%zu descriptors on device %d failed: %s", w->n, dev->id,
		       strerror(-err));
}
