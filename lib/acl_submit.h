/* SPDX-License-Identifier: MIT */
/*
 * libacl internals: the one submission path (acl_submit.c): how work
 * reaches a stream or a library ring.
 */
#ifndef ACL_SUBMIT_H
#define ACL_SUBMIT_H

#include "acl_copy.h"
#include "acl_stream.h"

/*
 * May a synchronous @what ("2-D copy") run now: no capture forbids it and
 * the thread has a context? aclError (recorded).
 */
aclError acl_sync_allowed(const char *what);

/**
 * struct acl_work - work on its way to a ring (acl_submit.c)
 * @d: prepared descriptors (NULL when @x is set)
 * @n: how many
 * @unit: doorbell size for @d (0: as the ring takes them), so that a
 *	BATCH_BEGIN ... BATCH_END group laid out on @unit boundaries stays
 *	in one doorbell
 * @refs: descriptors of @d that need host bookkeeping (@nrefs of them)
 * @nrefs: how many
 * @x: or a planned transfer, cut into descriptors of what the NPU moves
 *	in one as it goes
 * @pageable: names pageable host memory: an asynchronous call waits
 */
struct acl_work {
	const struct npu_dma_desc *d;
	size_t n;
	size_t unit;
	const struct acl_ref *refs;
	size_t nrefs;
	const struct acl_xfer *x;
	bool pageable;
};

static inline struct acl_work acl_work_xfer(const struct acl_xfer *x)
{
	return (struct acl_work){ .x = x, .pageable = x->pageable };
}

static inline struct acl_work acl_work_descs(const struct npu_dma_desc *d,
					     size_t n)
{
	return (struct acl_work){ .d = d, .n = n };
}

/*
 * The one way work reaches a stream: if the stream is capturing, the
 * work is appended to the capture; else it is submitted to its ring. Return:
 * 0 or -errno; *@first and *@last are the sequence numbers used (on
 * failure: what went in), both 0 when nothing went to the ring.
 */
int acl_stream_submit(struct acl_stream *s, const struct acl_work *w,
		      uint64_t *first, uint64_t *last);
/*
 * The asynchronous runner of the copy calls: acl_stream_submit(), and,
 * with pageable host memory, return only when the work completed,
 * reporting its failure. aclError (recorded).
 */
aclError acl_submit_async(struct acl_stream *s, const struct acl_work *w);
/*
 * The synchronous runner: @w on one of @dev's library rings, waiting for
 * it. aclError (recorded).
 */
aclError acl_submit_sync(struct acl_device *dev, const struct acl_work *w);
/* @w on @r (a ring of the caller's own) and wait for it: 0 or -errno. */
int acl_ring_submit_wait(struct acl_ring *r, const struct acl_work *w);

#endif /* ACL_SUBMIT_H */
