/* SPDX-License-Identifier: MIT */
/*
 * libacl internals: finding the NPUs (acl_init.c), devices and their
 * library rings (acl_device.c), contexts (acl_context.c), fork()
 * (acl_fork.c).
 */
#ifndef ACL_DEVICE_H
#define ACL_DEVICE_H

#include <drm/npu_dma_accel.h>

#include "acl_objects.h"

/*
 * Parse ASCEND_RT_VISIBLE_DEVICES: map logical ids to the physical ones
 * present (present[i] true if the driver's NPU of index i was found and
 * accepted). Stops at the first invalid, absent or repeated entry, as
 * CANN does. Return: device count.
 */
int acl_parse_visible(const char *env, const bool *present, int npresent,
		      int *phys, int max);
/*
 * Enumerate the NPUs (caller holds acl_g.lock): the driver's nodes are
 * probed once per process, the visible devices set up again after every
 * finalize. Each node refused (another ABI version, GET_INFO failing)
 * leaves a message. Return: how many were refused.
 */
int acl_enumerate_locked(void);
/*
 * Open the node of NPU @phys (caller holds acl_g.lock), check that it is
 * still that NPU and speaks our ABI: its fd and GET_INFO answer, or an
 * aclError recorded (and nothing left open).
 */
aclError acl_node_open_locked(int phys, int *fd, struct npu_dma_info *info);
int acl_device_count(void);
/*
 * Whether the driver has NPU @phys (its index), visible or not: what the
 * last probe found and accepted.
 */
bool acl_node_present(int phys);
/* Logical id -> device, or NULL with 107001 recorded. */
struct acl_device *acl_device_get(int32_t id);
/* The visible device that is the driver's NPU @phys, or NULL. */
struct acl_device *acl_device_of_phys(int phys);
/* Open @dev if closed, taking acl_g.lock: 0 or an aclError. */
aclError acl_device_ensure_open(struct acl_device *dev);
/* Open @dev if closed (caller holds acl_g.lock): 0 or an aclError. */
aclError acl_device_open_locked(struct acl_device *dev);
void acl_device_close_locked(struct acl_device *dev);
bool acl_device_is_open(const struct acl_device *dev);
/* The sync ring of @dev for this call, locked; or NULL with error. */
struct acl_ring *acl_sync_ring_acquire(struct acl_device *dev, int *slot,
				       aclError *ret);
void acl_sync_ring_release(struct acl_device *dev, int slot);
/*
 * Entries of the shortest library ring an open NPU has (at most
 * ACL_SYNC_RING_ENTRIES, fewer if a driver allows fewer): what one
 * doorbell of a synchronous call can take on whichever NPU runs it.
 */
uint32_t acl_sync_ring_min(void);
/* Wait for every stream of @dev. */
aclError acl_device_sync(struct acl_device *dev, int32_t timeout_ms);
void acl_finalize_all_locked(void);

/* ---- acl_fork.c ------------------------------------------------------ */

/* Was @gen (a device's, kept by an object) given out before fork()? */
bool acl_gen_inherited(uint64_t gen);
/*
 * 107017 for a handle that is not live: @what ("stream") of the parent
 * process if @gen says so (0: unknown), else stale.
 */
aclError acl_err_stale(const char *name, const void *handle, uint64_t gen,
		       const char *what);
/* 107000 for device pointer @p of a closed @dev: reset, or the parent's. */
aclError acl_err_dev_gone(const char *name, const void *p,
			  const struct acl_device *dev);

/* The thread's current context, or NULL with 107002 recorded. */
struct acl_context *acl_current_ctx(void);
void acl_set_current(struct acl_context *ctx);
aclError acl_context_init(struct acl_context *ctx, struct acl_device *dev,
			  bool is_default);
void acl_context_fini(struct acl_context *ctx);

#endif /* ACL_DEVICE_H */
