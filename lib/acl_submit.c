// SPDX-License-Identifier: MIT
/*
 * libacl: running descriptors the copy files prepared (2-D, batch,
 * descriptor copies, 32-bit fills).
 *
 * Synchronous calls run on one of the device's library rings, held for
 * the whole call, and wait for their own descriptors. Asynchronous ones
 * go to their stream through acl_stream_put_descs(), the one path of
 * stream work (a capturing stream records instead of running). Both cut
 * the list into doorbells of @unit descriptors, so that the batch code
 * can keep each BATCH_BEGIN ... BATCH_END group inside one doorbell, as
 * the driver requires.
 */
#include <errno.h>
#include <string.h>

#include "acl_internal.h"

aclError acl_sync_allowed(const char *what)
{
	if (acl_capture_forbids_sync())
		return acl_err(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
			       "synchronous %s while a capture forbids it", what);
	if (!acl_current_ctx())
		return ACL_ERROR_RT_CONTEXT_NULL;
	return ACL_SUCCESS;
}

/* Doorbell size: @unit, bounded by what the ring takes. */
static size_t acl_unit(size_t unit, uint32_t entries)
{
	return unit && unit < entries ? unit : entries;
}

aclError acl_descs_sync(struct acl_device *dev, const struct npu_dma_desc *d,
			size_t n, size_t unit)
{
	uint64_t first = 0, last = 0, f, l;
	struct acl_ring *r;
	size_t done, k;
	aclError ret;
	int slot, err = 0;

	r = acl_sync_ring_acquire(dev, &slot, &ret);
	if (!r)
		return ret;
	unit = acl_unit(unit, r->entries);
	for (done = 0; !err && done < n; done += k) {
		k = n - done < unit ? n - done : unit;
		err = acl_ring_submit(r, d + done, k, &f, &l);
		if (!err && !first)
			first = f;
		if (!err)
			last = l;
	}
	if (!err && last)
		err = acl_ring_wait(r, last, -1);
	if (!err && last)
		err = acl_ring_error_in(r, first, last);
	acl_sync_ring_release(dev, slot);
	if (err)
		return acl_err(acl_errno_to_acl(err),
			       "%zu descriptors on device %d failed: %s", n,
			       dev->id, strerror(-err));
	return ACL_SUCCESS;
}

aclError acl_descs_stream(struct acl_stream *s, const struct npu_dma_desc *d,
			  size_t n, size_t unit, bool wait)
{
	uint64_t first = 0, last = 0, f, l;
	size_t done, k;
	aclError ret;
	int err = 0;

	if (wait) {
		ret = acl_capture_reject_pageable(s);
		if (ret)
			return ret;
	}
	unit = unit ? acl_unit(unit, s->ring->entries) : n;
	for (done = 0; !err && done < n; done += k) {
		k = n - done < unit ? n - done : unit;
		err = acl_stream_put_descs(s, d + done, k, &f, &l);
		if (!err && !first)
			first = f;
		if (!err)
			last = l;
	}
	if (err)
		return acl_err_sys(err, "NPU_DMA_IOCTL_QUEUE_SUBMIT");
	if (!wait || !last)
		return ACL_SUCCESS;
	err = acl_ring_wait(s->ring, last, -1);
	if (err)
		return acl_err_sys(err, "waiting for a copy of pageable memory");
	return acl_stream_check_range(s, first, last);
}
