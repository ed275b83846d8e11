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

aclError acl_descs_sync(struct acl_device *dev, const struct npu_dma_desc *d,
			size_t n, size_t unit)
{
	uint64_t first, last;
	struct acl_ring *r;
	aclError ret;
	int slot, err;

	r = acl_sync_ring_acquire(dev, &slot, &ret);
	if (!r)
		return ret;
	pthread_mutex_lock(&r->lock);
	err = acl_ring_submit_units_locked(r, d, n, acl_unit(unit, r->entries),
					   &first, &last);
	pthread_mutex_unlock(&r->lock);
	err = acl_wait_submitted(r, last, err);
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
	uint64_t first, last;
	aclError ret;
	int err, werr = 0;

	if (wait) {
		ret = acl_capture_reject_pageable(s);
		if (ret)
			return ret;
	}
	if (unit)
		unit = acl_unit(unit, s->ring->entries);
	err = acl_stream_put_units(s, d, n, unit, &first, &last);
	if (wait)
		werr = acl_wait_submitted(s->ring, last, 0);
	if (err)
		return acl_err_sys(err, "DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT");
	if (werr)
		return acl_err_sys(werr, "waiting for a copy of pageable memory");
	if (!wait || !last)
		return ACL_SUCCESS;
	return acl_stream_check_range(s, first, last);
}
