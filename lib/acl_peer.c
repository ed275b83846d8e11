// SPDX-License-Identifier: MIT
/*
 * libacl: peer access between NPUs.
 *
 * Whether two NPUs can reach each other's memory is the driver's answer
 * (GET_INFO.peers: NPUs behind one switch). Access is enabled per
 * direction, from the current device to a peer, as in CANN. A copy
 * between two NPUs runs on one of them (see acl_copy.c) and needs that
 * NPU's access to the other one enabled; the driver then lets its engine
 * read or write the peer's memory, validated against this process's
 * allocations there.
 */
#include "acl_objects.h"
#include "acl_error.h"
#include "acl_kmd.h"
#include "acl_device.h"
#include "acl_mem.h"

/*
 * The driver's peer mask of a device, whether or not this process opened
 * it. Asked afresh each time (GET_INFO is cheap), not taken from the
 * info cached at open: the driver drops an NPU that was removed from
 * every peer set, and the answer must follow. aclError (recorded).
 */
static aclError acl_device_peer_mask(struct acl_device *dev, uint64_t *mask)
{
	struct npu_dma_info info;
	aclError ret = ACL_SUCCESS;
	int fd, err = 0;

	/* acl_g.lock: the device neither opens nor closes meanwhile. */
	pthread_mutex_lock(&acl_g.lock);
	if (acl_device_is_open(dev)) {
		err = acl_kmd_get_info(dev->fd, &info);
	} else {
		ret = acl_node_open_locked(dev->phys, &fd, &info);
		if (!ret)
			acl_kmd_close(fd);
	}
	pthread_mutex_unlock(&acl_g.lock);
	if (err)
		return acl_err_sys(err, "DRM_IOCTL_NPU_DMA_GET_INFO");
	if (!ret)
		*mask = info.peers;
	return ret;
}

/* Two distinct, existing logical ids; errors as CANN reports them. */
static aclError acl_peer_ids(int32_t dev_id, int32_t peer_id,
			     struct acl_device **dev, struct acl_device **peer)
{
	int n = acl_device_count();

	if (dev_id == peer_id)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "deviceId=%d and peerDeviceId=%d are the same device",
			       dev_id, peer_id);
	if (dev_id < 0 || dev_id >= n || peer_id < 0 || peer_id >= n)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "deviceId=%d or peerDeviceId=%d is out of range [0, %d)",
			       dev_id, peer_id, n);
	*dev = &acl_g.dev[dev_id];
	*peer = &acl_g.dev[peer_id];
	return ACL_SUCCESS;
}

static aclError acl_can_access(struct acl_device *dev, struct acl_device *peer,
			       bool *can)
{
	uint64_t mask;
	aclError ret = acl_device_peer_mask(dev, &mask);

	if (ret)
		return ret;
	*can = (mask >> peer->phys) & 1;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer,
						      int32_t deviceId,
						      int32_t peerDeviceId)
{
	struct acl_device *dev, *peer;
	aclError ret;
	bool can = false;

	ACL_ENTER();
	if (!canAccessPeer)
		return acl_err(ACL_ERROR_INVALID_PARAM, "canAccessPeer=NULL");
	ret = acl_peer_ids(deviceId, peerDeviceId, &dev, &peer);
	if (!ret)
		ret = acl_can_access(dev, peer, &can);
	if (!ret)
		*canAccessPeer = can;
	return ret;
}

/* The current device and a peer id for Enable/Disable. */
static aclError acl_peer_of_current(int32_t peerDeviceId, struct acl_device **dev,
				    struct acl_device **peer)
{
	struct acl_context *ctx = acl_current_ctx();

	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	return acl_peer_ids(ctx->dev->id, peerDeviceId, dev, peer);
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId,
							 uint32_t flags)
{
	struct acl_device *dev, *peer;
	aclError ret;

	ACL_ENTER();
	if (flags)
		return acl_err(ACL_ERROR_FEATURE_UNSUPPORTED,
			       "flags=0x%x: must be 0", flags);
	ret = acl_peer_of_current(peerDeviceId, &dev, &peer);
	if (!ret)
		ret = acl_peer_enable(dev, peer);
	return ret;
}

aclError acl_peer_enable(struct acl_device *dev, struct acl_device *peer)
{
	aclError ret;
	bool can = false;

	ret = acl_can_access(dev, peer, &can);
	if (ret)
		return ret;
	if (!can)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "device %d cannot reach device %d (not behind one switch)",
			       dev->id, peer->id);
	__atomic_fetch_or(&dev->peer_on, 1ULL << peer->id, __ATOMIC_RELEASE);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId)
{
	struct acl_device *dev, *peer;
	aclError ret;

	ACL_ENTER();
	ret = acl_peer_of_current(peerDeviceId, &dev, &peer);
	if (ret)
		return ret;
	__atomic_fetch_and(&dev->peer_on, ~(1ULL << peer->id), __ATOMIC_RELEASE);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDevicePeerAccessStatus(int32_t deviceId,
							 int32_t peerDeviceId,
							 int32_t *status)
{
	struct acl_device *dev, *peer;
	aclError ret;

	ACL_ENTER();
	if (!status)
		return acl_err(ACL_ERROR_INVALID_PARAM, "status=NULL");
	ret = acl_peer_ids(deviceId, peerDeviceId, &dev, &peer);
	if (ret)
		return ret;
	*status = (__atomic_load_n(&dev->peer_on, __ATOMIC_ACQUIRE) >> peer->id) & 1;
	return ACL_SUCCESS;
}

/**
 * acl_peer_check() - may @run's engine move bytes of @dev's memory?
 * @run: the NPU that runs the copy
 * @dev: the NPU whose memory @name=@p is
 *
 * Return: 0, ACL_ERROR_RT_FEATURE_NOT_SUPPORT when they are not peers, or
 * ACL_ERROR_RT_NO_PERMISSION when @run has not enabled access to @dev.
 */
aclError acl_peer_check(struct acl_device *run, struct acl_device *dev,
			const char *name, const void *p)
{
	if (!((run->info.peers >> dev->phys) & 1))
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "%s=%p is on device %d, which device %d cannot reach "
			       "(not peers)", name, p, dev->id, run->id);
	if (!((__atomic_load_n(&run->peer_on, __ATOMIC_ACQUIRE) >> dev->id) & 1))
		return acl_err(ACL_ERROR_RT_NO_PERMISSION,
			       "%s=%p is on device %d: call aclrtDeviceEnablePeerAccess(%d, 0) "
			       "on device %d first", name, p, dev->id, dev->id, run->id);
	return ACL_SUCCESS;
}

/* A device is reset: its grants and the grants to it are gone. */
void acl_peer_forget(struct acl_device *dev)
{
	int i, n = acl_g.ndev;

	__atomic_store_n(&dev->peer_on, 0, __ATOMIC_RELEASE);
	for (i = 0; i < n; i++)
		__atomic_fetch_and(&acl_g.dev[i].peer_on, ~(1ULL << dev->id),
				   __ATOMIC_RELEASE);
}
