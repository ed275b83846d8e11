// SPDX-License-Identifier: MIT
/*
 * libacl: graph capture (aclmdlRI).
 *
 * While a stream captures, acl_stream_submit() appends what would have been
 * submitted (descriptors, and the bookkeeping of host tasks and event
 * records) to the stream's graph instead of ringing the doorbell. A graph
 * is therefore a ready-made descriptor array. aclmdlRICaptureEnd() hands
 * it to the driver (DRM_IOCTL_NPU_DMA_GRAPH_CREATE), which validates it once;
 * aclmdlRIExecuteAsync() then submits a single GRAPH descriptor to the
 * target stream, queues copies of the graph's host tasks for the stream's
 * runner and points its events at the new records (a GRAPH descriptor
 * takes one sequence number per task, so the bookkeeping is unchanged).
 *
 * Without driver support, or when the driver refuses the list, a replay
 * submits the descriptors themselves, validated at every doorbell. Either
 * way a replay naming memory freed since the capture fails that task with
 * -EFAULT, reported by the stream's synchronize, and never writes it.
 * See Documentation/libacl.rst.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_ring.h"
#include "acl_kmd.h"
#include "acl_stream.h"
#include "acl_htask.h"
#include "acl_capture.h"
#include "acl_submit.h"

#define ACL_GRAPH_MAGIC		0x61636c67U	/* "aclg" */

struct acl_graph {
	uint32_t pad[4];		/* keeps magic clear of malloc's free list */
	uint32_t magic;
	struct acl_device *dev;
	struct acl_stream *stream;	/* capturing on it; NULL once ended */
	aclmdlRICaptureMode mode;
	pthread_t owner;		/* thread that began the capture */
	bool invalid;			/* an error broke the capture (atomic) */
	bool callbacks;			/* has aclrtLaunchCallback tasks */
	struct npu_dma_desc *d;
	size_t n, cap;
	struct acl_ref *refs;		/* HOST_TASK templates are owned */
	size_t nrefs, rcap;
	uint32_t kid;			/* the driver's copy (GRAPH_CREATE), or 0 */
	uint64_t kgen;			/* dev->gen of the file that holds it */
	struct acl_graph *next;		/* in acl_cap_active while capturing */
};

/* Protects acl_cap_active; acl_cap_count mirrors its length (atomic). */
static pthread_mutex_t acl_cap_lock = PTHREAD_MUTEX_INITIALIZER;
static struct acl_graph *acl_cap_active;
static int acl_cap_count;
/* aclmdlRICaptureThreadExchangeMode(): the calling thread's mode. */
static __thread aclmdlRICaptureMode acl_cap_mode ACL_TLS_FAST;

/*
 * Let the driver validate the graph once. Failure is not an error: the
 * replays then send the descriptors (a refused one fails at its doorbell
 * exactly as it would have live).
 */
static void acl_graph_load(struct acl_graph *g)
{
	struct npu_dma_graph_create c = {
		.descs = (uintptr_t)g->d, .count = (uint32_t)g->n,
	};
	struct acl_device *dev = g->dev;

	if (!(dev->info.caps & NPU_DMA_CAP_GRAPH) || !g->n ||
	    g->n > dev->info.max_graph_tasks)
		return;
	if (acl_kmd_graph_create(dev->fd, &c))
		return;
	g->kid = c.graph_id;
	g->kgen = dev->gen;
}

/* The driver's copy, if the file it was made on is still open. */
static bool acl_graph_loaded(const struct acl_graph *g)
{
	return g->kid && g->kgen == __atomic_load_n(&g->dev->gen, __ATOMIC_ACQUIRE) &&
	       g->dev->fd >= 0;
}

static void acl_graph_free(struct acl_graph *g)
{
	size_t i;

	/* Fails harmlessly if the device was reset meanwhile. */
	if (acl_graph_loaded(g))
		acl_kmd_graph_destroy(g->dev->fd, g->kid);
	for (i = 0; i < g->nrefs; i++) {
		if (g->refs[i].task)
			acl_htask_release(g->refs[i].task);
		free(g->refs[i].task);
		if (g->refs[i].ev)
			acl_event_put(g->refs[i].ev);
	}
	free(g->refs);
	free(g->d);
	/* Atomic: a plain store right before free() may be optimised out. */
	__atomic_store_n(&g->magic, 0, __ATOMIC_RELEASE);
	free(g);
}

/* An error broke @g's capture: its End will report it (any thread). */
static void acl_graph_invalidate(struct acl_graph *g)
{
	__atomic_store_n(&g->invalid, true, __ATOMIC_RELEASE);
}

static bool acl_graph_invalid(const struct acl_graph *g)
{
	return __atomic_load_n(&g->invalid, __ATOMIC_ACQUIRE);
}

static int acl_grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 16;
	void *np;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	np = realloc(*p, ncap * size);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = ncap;
	return 0;
}

static int acl_capture_add_ref(struct acl_graph *g, const struct acl_ref *r,
			       size_t base)
{
	struct acl_ref *out = &g->refs[g->nrefs];

	*out = *r;
	out->idx += base;
	/* Replays tell it where they recorded it: it must outlive them. */
	if (r->ev)
		acl_event_get(r->ev);
	if (r->kind == ACL_REF_HOST_TASK) {
		out->task = malloc(sizeof(*out->task));
		if (!out->task)
			return -ENOMEM;
		*out->task = *r->task;
		out->task->sub = NULL;
		out->task->next = NULL;
		/* Replays queue copies of it: what it names must outlive them. */
		acl_htask_hold(out->task);
		g->callbacks |= r->task->kind == ACL_HT_CALLBACK;
	}
	g->nrefs++;
	return 0;
}

int acl_capture_append(struct acl_graph *g, const struct npu_dma_desc *d,
		       size_t n, const struct acl_ref *refs, size_t nrefs)
{
	size_t i, base = g->n;
	int err;

	if (acl_graph_invalid(g))
		return 0;	/* dropped: aclmdlRICaptureEnd reports it */
	err = acl_grow((void **)&g->d, &g->cap, g->n + n, sizeof(*d));
	if (!err)
		err = acl_grow((void **)&g->refs, &g->rcap, g->nrefs + nrefs,
			       sizeof(*refs));
	for (i = 0; !err && i < nrefs; i++)
		err = acl_capture_add_ref(g, &refs[i], base);
	if (err) {
		acl_graph_invalidate(g);
		return err;
	}
	memcpy(g->d + g->n, d, n * sizeof(*d));
	g->n += n;
	return 0;
}

/*
 * Does capture @g restrict a thread whose own mode is @tm? Its owner, if
 * @g is not RELAXED; every other thread that keeps the GLOBAL mode, if
 * @g is GLOBAL. A RELAXED thread (the caller checks) is never restricted.
 */
static bool acl_cap_restricts(const struct acl_graph *g,
			      aclmdlRICaptureMode tm, pthread_t self)
{
	if (g->mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
		return false;
	return pthread_equal(g->owner, self) ||
	       (tm == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL &&
		g->mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
}

/*
 * Is the calling thread restricted by an active capture? With
 * @invalidate, every capture that restricts it is invalidated.
 */
static bool acl_cap_restricted(bool invalidate)
{
	aclmdlRICaptureMode tm = acl_cap_mode;
	pthread_t self = pthread_self();
	struct acl_graph *g;
	bool hit = false;

	if (!__atomic_load_n(&acl_cap_count, __ATOMIC_ACQUIRE) ||
	    tm == ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
		return false;
	pthread_mutex_lock(&acl_cap_lock);
	for (g = acl_cap_active; g && (invalidate || !hit); g = g->next) {
		if (!acl_cap_restricts(g, tm, self))
			continue;
		hit = true;
		if (invalidate)
			acl_graph_invalidate(g);
	}
	pthread_mutex_unlock(&acl_cap_lock);
	return hit;
}

bool acl_capture_forbids_sync(void)
{
	return acl_cap_restricted(false);
}

aclError acl_capture_reject_pageable(struct acl_stream *s)
{
	struct acl_graph *g;

	pthread_mutex_lock(&s->ring->lock);
	g = s->graph;
	if (g)
		acl_graph_invalidate(g);
	pthread_mutex_unlock(&s->ring->lock);
	if (g)
		return acl_err(acl_capture_forbids_sync() ?
			       ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC :
			       ACL_ERROR_RT_PARAM_INVALID,
			       "stream %d is capturing: an async copy may not "
			       "use pageable host memory (capture invalidated)",
			       s->id);
	/*
	 * Not captured, the copy would run synchronously: an unsafe call,
	 * refused like aclrtMemcpy. It touches no capture, so none breaks.
	 */
	if (acl_capture_forbids_sync())
		return acl_err(ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC,
			       "stream %d: an async copy of pageable host memory "
			       "runs synchronously, which an active capture's "
			       "mode forbids on this thread", s->id);
	return ACL_SUCCESS;
}

aclError acl_capture_check_default(struct acl_stream *s)
{
	if (s != s->ctx->defstream || !acl_cap_restricted(true))
		return ACL_SUCCESS;
	return acl_err(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
		       "stream=NULL: device %d's default stream may not take "
		       "work while a capture is active (the capture that "
		       "forbids it is invalidated)", s->ctx->dev->id);
}

static void acl_cap_unlist(struct acl_graph *g)
{
	struct acl_graph **pp;

	pthread_mutex_lock(&acl_cap_lock);
	for (pp = &acl_cap_active; *pp && *pp != g; pp = &(*pp)->next)
		;
	if (*pp) {
		*pp = g->next;
		__atomic_sub_fetch(&acl_cap_count, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&acl_cap_lock);
}

/* Detach @s's capture (caller holds s->ring->lock); it, or NULL. */
static struct acl_graph *acl_capture_detach(struct acl_stream *s)
{
	struct acl_graph *g = s->graph;

	if (g) {
		g->stream = NULL;
		__atomic_store_n(&s->graph, NULL, __ATOMIC_RELEASE);
	}
	return g;
}

void acl_capture_drop(struct acl_stream *s)
{
	struct acl_graph *g;

	pthread_mutex_lock(&s->ring->lock);
	g = acl_capture_detach(s);
	pthread_mutex_unlock(&s->ring->lock);
	if (!g)
		return;
	/* A handle from aclmdlRICaptureGetInfo may still name it: keep it. */
	acl_graph_invalidate(g);
	acl_cap_unlist(g);
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream,
						  aclmdlRICaptureMode mode)
{
	struct acl_stream *s;
	struct acl_graph *g;
	aclError ret;

	ACL_ENTER();
	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM, "stream is NULL");
	if ((unsigned int)mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
		return acl_err(ACL_ERROR_INVALID_PARAM, "mode=%d is invalid",
			       (int)mode);
	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	g = calloc(1, sizeof(*g));
	if (!g)
		return acl_err(ACL_ERROR_BAD_ALLOC, "no memory for a capture");
	g->magic = ACL_GRAPH_MAGIC;
	g->dev = s->ctx->dev;
	g->mode = mode;
	g->owner = pthread_self();
	g->stream = s;
	pthread_mutex_lock(&s->ring->lock);
	if (!s->graph)
		__atomic_store_n(&s->graph, g, __ATOMIC_RELEASE);
	else
		ret = ACL_ERROR_STREAM_CAPTURE_CONFLICT;
	pthread_mutex_unlock(&s->ring->lock);
	if (ret) {
		free(g);
		return acl_err(ret, "stream %d is already capturing", s->id);
	}
	pthread_mutex_lock(&acl_cap_lock);
	g->next = acl_cap_active;
	acl_cap_active = g;
	__atomic_add_fetch(&acl_cap_count, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&acl_cap_lock);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream,
						aclmdlRI *modelRI)
{
	struct acl_graph *g;
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	if (!stream || !modelRI)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "stream=%p modelRI=%p: neither may be NULL", stream,
			       (void *)modelRI);
	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	pthread_mutex_lock(&s->ring->lock);
	g = s->graph;
	if (!g)
		ret = ACL_ERROR_RT_STREAM_NOT_CAPTURED;
	else if (g->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED &&
		 !pthread_equal(g->owner, pthread_self()))
		ret = ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD;
	else
		acl_capture_detach(s);
	pthread_mutex_unlock(&s->ring->lock);
	if (ret)
		return acl_err(ret, "stream %d: %s", s->id,
			       g ? "capture began on another thread" :
				   "not capturing");
	acl_cap_unlist(g);
	*modelRI = NULL;
	if (acl_graph_invalid(g)) {
		acl_graph_free(g);
		return acl_err(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
			       "stream %d: the capture was invalidated", s->id);
	}
	acl_graph_load(g);
	*modelRI = g;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
		       aclmdlRI *modelRI)
{
	struct acl_graph *g;
	struct acl_stream *s;
	aclError ret;
	bool invalid;

	ACL_ENTER();
	if (!stream || (!status && !modelRI))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "stream is NULL, or both outputs are");
	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	pthread_mutex_lock(&s->ring->lock);
	g = s->graph;
	invalid = g && acl_graph_invalid(g);
	pthread_mutex_unlock(&s->ring->lock);
	if (status)
		*status = !g ? ACL_MODEL_RI_CAPTURE_STATUS_NONE :
			  invalid ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED :
			  ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
	if (modelRI)
		*modelRI = g;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode)
{
	aclmdlRICaptureMode old = acl_cap_mode;

	ACL_ENTER();
	if (!mode || (unsigned int)*mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
		return acl_err(ACL_ERROR_INVALID_PARAM, "mode is NULL or invalid");
	acl_cap_mode = *mode;
	*mode = old;
	return ACL_SUCCESS;
}

/* Handle -> ended graph, or NULL with the error in *ret. */
static struct acl_graph *acl_graph_lookup(aclmdlRI modelRI, aclError *ret)
{
	struct acl_graph *g = modelRI;

	*ret = ACL_SUCCESS;
	if (!g)
		*ret = acl_err(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
	else if (g->magic != ACL_GRAPH_MAGIC)
		*ret = acl_err(ACL_ERROR_RT_INVALID_HANDLE,
			       "modelRI=%p is not a live graph", modelRI);
	else if (__atomic_load_n(&g->stream, __ATOMIC_ACQUIRE))
		*ret = acl_err(ACL_ERROR_RT_MODEL_CAPTURED,
			       "modelRI=%p is still being captured", modelRI);
	return *ret ? NULL : g;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI,
						  aclrtStream stream)
{
	uint64_t first, last;
	struct acl_graph *g;
	struct acl_stream *s;
	struct acl_work w;
	aclError ret;
	int err;

	ACL_ENTER();
	g = acl_graph_lookup(modelRI, &ret);
	if (!g)
		return ret;
	s = acl_stream_for_work(stream, &ret);
	if (!s)
		return ret;
	if (s->ctx->dev != g->dev)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "modelRI=%p was captured on device %d, stream %d "
			       "is on device %d", modelRI, g->dev->id, s->id,
			       s->ctx->dev->id);
	if (g->callbacks && !__atomic_load_n(&s->sub[ACL_SUB_REPORT], __ATOMIC_ACQUIRE))
		return acl_err(ACL_ERROR_RT_STREAM_NO_CB_REG,
			       "modelRI=%p has callbacks, stream %d no report "
			       "thread", modelRI, s->id);
	if (!g->n)
		return ACL_SUCCESS;
	w = (struct acl_work){
		.d = g->d, .n = g->n, .refs = g->refs, .nrefs = g->nrefs,
	};
	/* Into another capture the descriptors go themselves: no nesting. */
	if (acl_graph_loaded(g) && !acl_stream_capturing(s)) {
		struct npu_dma_desc d = {
			.opcode = NPU_DMA_OP_GRAPH, .len = g->n, .value = g->kid,
		};

		w.d = &d;
		w.n = 1;
		err = acl_stream_submit(s, &w, &first, &last);
	} else {
		err = acl_stream_submit(s, &w, &first, &last);
	}
	return err ? acl_err_sys(err, "replaying a graph") : ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI)
{
	struct acl_graph *g;
	aclError ret;

	ACL_ENTER();
	g = acl_graph_lookup(modelRI, &ret);
	if (!g)
		return ret;
	/* Replays copied what they needed: the rings hold no pointer here. */
	acl_graph_free(g);
	return ACL_SUCCESS;
}

/* The parent's captures are on streams the child does not have. */
void acl_capture_forked(void)
{
	pthread_mutex_init(&acl_cap_lock, NULL);
	acl_cap_active = NULL;
	__atomic_store_n(&acl_cap_count, 0, __ATOMIC_RELAXED);
}
