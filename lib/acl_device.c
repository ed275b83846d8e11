// SPDX-License-Identifier: MIT
/*
 * libacl: devices. One fd per NPU per process, opened by the first
 * aclrtSetDevice (or aclrtCreateContext) and closed when the last
 * reference goes: the kernel then frees everything the process had on
 * that NPU (memory, registrations, queues), as CANN's reset does.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_ring.h"
#include "acl_kmd.h"
#include "acl_device.h"
#include "acl_htask.h"
#include "acl_mem.h"

/*
 * The most a synchronous call asks the driver to move in its doorbell.
 * A sim NPU copies at memory speed, and up to 1 MiB the two wake-ups of
 * the worker's path cost more than the copy (pageable memory pinned and
 * copied in the doorbell reaches 2.4 to 2.8 GB/s at 128 KiB to 1 MiB,
 * against 0.6 to 1.9 GB/s through the worker: Documentation/
 * performance.md). A DMA engine (edu: 100 ms a 4 KiB transfer, in the
 * caller's context uninterruptibly) gets the driver's former 64 KiB.
 */
#define ACL_SYNC_INLINE_SIM	(1u << 20)
#define ACL_SYNC_INLINE_DMA	(64u << 10)

bool acl_device_is_open(const struct acl_device *dev)
{
	return __atomic_load_n(&dev->fd, __ATOMIC_ACQUIRE) >= 0;
}

/* The visible device that is the driver's NPU @phys, or NULL. */
struct acl_device *acl_device_of_phys(int phys)
{
	int i, n = acl_device_count();

	for (i = 0; i < n; i++)
		if (acl_g.dev[i].phys == phys)
			return &acl_g.dev[i];
	return NULL;
}

aclError acl_device_ensure_open(struct acl_device *dev)
{
	aclError ret;

	pthread_mutex_lock(&acl_g.lock);
	ret = acl_device_open_locked(dev);
	pthread_mutex_unlock(&acl_g.lock);
	return ret;
}

struct acl_device *acl_device_get(int32_t id)
{
	int n = acl_device_count();

	if (id < 0 || id >= n) {
		acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
			"deviceId=%d is out of range [0, %d)", id, n);
		return NULL;
	}
	return &acl_g.dev[id];
}

/*
 * The context's event table, read-only, where GET_INFO says. The driver
 * must offer at least the slots it claims.
 */
static int acl_device_map_events(struct acl_device *dev)
{
	uint64_t need = (uint64_t)dev->info.max_event_slots *
			sizeof(struct npu_dma_event_slot);
	uint64_t size = dev->info.events_size;
	void *p = NULL;
	int err;

	if (!need || size < need)
		return -EPROTO;
	err = acl_kmd_mmap(dev->fd, dev->info.events_offset, (size_t)size,
			   PROT_READ, &p);
	if (err)
		return err;
	dev->slots = p;
	dev->slots_size = (size_t)size;
	dev->slot_map = calloc((dev->info.max_event_slots + 63) / 64,
			       sizeof(uint64_t));
	return dev->slot_map ? 0 : -ENOMEM;
}

aclError acl_device_open_locked(struct acl_device *dev)
{
	struct npu_dma_info info;
	aclError e;
	int fd, ret;

	if (acl_device_is_open(dev))
		return ACL_SUCCESS;
	/* dev->info keeps the last opening's until this one succeeds. */
	e = acl_node_open_locked(dev->phys, &fd, &info);
	if (e)
		return e;
	dev->info = info;
	dev->fd = fd;
	if (dev->va_base && dev->va_size != acl_va_span(&dev->info))
		acl_va_release(dev);	/* module reloaded with a new size */
	ret = acl_va_reserve(dev);
	if (!ret)
		ret = acl_device_map_events(dev);
	if (ret) {
		e = acl_err_sys(ret, "setting up the NPU");
		acl_device_close_locked(dev);
		return e;
	}
	dev->gen = __atomic_add_fetch(&acl_g.gen_counter, 1, __ATOMIC_RELAXED);
	dev->refcnt = 0;
	dev->nsync = 0;
	dev->res_set = 0;	/* the process's resource limits start anew */
	return ACL_SUCCESS;
}

static void acl_device_free_contexts(struct acl_device *dev)
{
	while (dev->contexts) {
		struct acl_context *c = dev->contexts;

		dev->contexts = c->next;
		acl_context_fini(c);
		free(c);
	}
	if (dev->defctx.magic)
		acl_context_fini(&dev->defctx);
}

void acl_device_close_locked(struct acl_device *dev)
{
	int i, fd = dev->fd;

	if (fd < 0)
		return;
	pthread_mutex_lock(&dev->lock);
	acl_device_free_contexts(dev);
	for (i = 0; i < dev->nsync; i++) {
		acl_ring_put(dev->sync[i]);
		pthread_mutex_destroy(&dev->sync_lock[i]);
	}
	dev->nsync = 0;
	dev->refcnt = 0;
	pthread_mutex_unlock(&dev->lock);
	acl_host_forget_device(dev);
	acl_peer_forget(dev);
	acl_mem_forget(dev);
	if (dev->slots)
		munmap((void *)dev->slots, dev->slots_size);
	dev->slots = NULL;
	free(dev->slot_map);
	dev->slot_map = NULL;
	__atomic_store_n(&dev->fd, -1, __ATOMIC_RELEASE);
	/* The driver frees what the file held: memory, pins, queues. */
	acl_kmd_close(fd);
}

/* Library rings are ACL_SYNC_RING_ENTRIES long, if the driver allows. */
static uint32_t acl_sync_ring_entries(const struct acl_device *dev)
{
	uint32_t max = dev->info.max_queue_entries;

	return max && max < ACL_SYNC_RING_ENTRIES ? max : ACL_SYNC_RING_ENTRIES;
}

uint32_t acl_sync_ring_min(void)
{
	int i, n = __atomic_load_n(&acl_g.ndev, __ATOMIC_ACQUIRE);
	uint32_t min = ACL_SYNC_RING_ENTRIES, e;

	for (i = 0; i < n; i++) {
		if (!acl_device_is_open(&acl_g.dev[i]))
			continue;
		e = acl_sync_ring_entries(&acl_g.dev[i]);
		if (e < min)
			min = e;
	}
	return min;
}

/*
 * Synchronous copies go to library-owned rings, never to a stream: they
 * wait for their own descriptors only. A caller holds its ring for the
 * whole copy, so the ring's error fields are its own; up to
 * ACL_SYNC_RINGS threads copy in parallel.
 */
struct acl_ring *acl_sync_ring_acquire(struct acl_device *dev, int *slot,
				       aclError *ret)
{
	struct acl_ring *r;
	int i, err, n;

	pthread_mutex_lock(&dev->lock);
	n = dev->nsync;
	for (i = 0; i < n; i++) {
		if (!pthread_mutex_trylock(&dev->sync_lock[i])) {
			pthread_mutex_unlock(&dev->lock);
			*slot = i;
			return dev->sync[i];
		}
	}
	if (n < ACL_SYNC_RINGS && n < (int)dev->info.nr_channels + 1) {
		r = acl_ring_create(dev->fd, acl_sync_ring_entries(dev), &err);
		if (!r) {
			pthread_mutex_unlock(&dev->lock);
			*ret = acl_err_sys(err, "creating a copy queue");
			return NULL;
		}
		/*
		 * Only synchronous calls use these rings, and each waits
		 * for its work: the driver may run it in the doorbell
		 * rather than wake the queue's worker for it.
		 */
		if (dev->info.caps & NPU_DMA_CAP_SUBMIT_INLINE)
			acl_ring_set_sync_inline(r, dev->info.backend ==
						 NPU_DMA_BACKEND_SIM ?
						 ACL_SYNC_INLINE_SIM :
						 ACL_SYNC_INLINE_DMA);
		pthread_mutex_init(&dev->sync_lock[n], NULL);
		pthread_mutex_lock(&dev->sync_lock[n]);
		dev->sync[n] = r;
		dev->nsync = n + 1;
		pthread_mutex_unlock(&dev->lock);
		*slot = n;
		return r;
	}
	pthread_mutex_unlock(&dev->lock);
	if (!n) {
		*ret = acl_err(ACL_ERROR_RT_INTERNAL_ERROR, "no copy queue");
		return NULL;
	}
	/* All busy: queue up behind one, spread by thread. */
	i = (int)(((uintptr_t)&acl_tls >> 6) % (uintptr_t)n);
	pthread_mutex_lock(&dev->sync_lock[i]);
	*slot = i;
	return dev->sync[i];
}

void acl_sync_ring_release(struct acl_device *dev, int slot)
{
	pthread_mutex_unlock(&dev->sync_lock[slot]);
}

/* Every stream of @dev, each with a reference (dev->lock held). */
static size_t acl_device_streams(struct acl_device *dev,
				 struct acl_stream ***out)
{
	struct acl_context *ctxs[2] = { &dev->defctx, dev->contexts };
	struct acl_stream **v = NULL;
	size_t n = 0, cap = 0;
	struct acl_context *c;
	int k;

	for (k = 0; k < 2; k++) {
		for (c = ctxs[k]; c && c->magic; c = k ? c->next : NULL) {
			struct acl_stream *s = c->defstream;

			for (; s; s = s == c->defstream ? c->streams : s->next) {
				if (n == cap) {
					struct acl_stream **nv;

					cap = cap ? 2 * cap : 16;
					nv = realloc(v, cap * sizeof(*v));
					if (!nv)
						goto out;
					v = nv;
				}
				v[n++] = s;
			}
		}
	}
out:
	*out = v;
	return n;
}

aclError acl_device_sync(struct acl_device *dev, int32_t timeout_ms)
{
	struct acl_ring **rings;
	struct acl_stream **v;
	uint64_t *seqs;
	aclError ret = ACL_SUCCESS;
	size_t i, n;

	pthread_mutex_lock(&dev->lock);
	n = acl_device_streams(dev, &v);
	rings = calloc(n + 1, sizeof(*rings));
	seqs = calloc(n + 1, sizeof(*seqs));
	for (i = 0; rings && seqs && i < n; i++) {
		rings[i] = v[i]->ring;
		acl_ring_get(rings[i]);
		/*
		 * A failure to queue a running host function's barrier (the
		 * NPU gone, the driver out of memory) leaves that function
		 * out of the wait; the rest is waited for.
		 */
		acl_stream_mark(v[i], &seqs[i]);
	}
	pthread_mutex_unlock(&dev->lock);
	if (!rings || !seqs)
		n = 0;
	for (i = 0; i < n; i++) {
		int err = ret ? 0 : acl_ring_wait(rings[i], seqs[i], timeout_ms);

		if (err == -ETIMEDOUT)
			ret = acl_err(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
				      "device %d not idle after %d ms", dev->id,
				      timeout_ms);
		else if (err)
			ret = acl_err_sys(err, "waiting for the device");
		acl_ring_put(rings[i]);
	}
	free(rings);
	free(seqs);
	free(v);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId)
{
	struct acl_device *dev;
	aclError ret;

	ACL_ENTER();
	dev = acl_device_get(deviceId);
	if (!dev)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	pthread_mutex_lock(&acl_g.lock);
	ret = acl_device_open_locked(dev);
	pthread_mutex_lock(&dev->lock);
	if (!ret && !dev->defctx.magic)
		ret = acl_context_init(&dev->defctx, dev, true);
	if (!ret)
		dev->refcnt++;
	pthread_mutex_unlock(&dev->lock);
	if (ret && !dev->refcnt && !dev->contexts)
		acl_device_close_locked(dev);
	pthread_mutex_unlock(&acl_g.lock);
	if (!ret)
		acl_set_current(&dev->defctx);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId)
{
	struct acl_context *ctx;

	ACL_ENTER();
	if (!deviceId)
		return acl_err(ACL_ERROR_INVALID_PARAM, "deviceId is NULL");
	ctx = acl_current_ctx();
	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	*deviceId = ctx->dev->id;
	return ACL_SUCCESS;
}

/* Drop @dev's default context; close it if nothing else uses it. */
static void acl_device_release_locked(struct acl_device *dev)
{
	pthread_mutex_lock(&dev->lock);
	dev->refcnt = 0;
	if (dev->defctx.magic)
		acl_context_fini(&dev->defctx);
	pthread_mutex_unlock(&dev->lock);
	if (!dev->contexts)
		acl_device_close_locked(dev);
	if (acl_tls.ctx && acl_tls.ctx->dev == dev && !dev->contexts)
		acl_tls.ctx = NULL;
}

static aclError acl_reset(int32_t deviceId, bool force)
{
	struct acl_device *dev = acl_device_get(deviceId);
	aclError ret = ACL_SUCCESS;

	if (!dev)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	pthread_mutex_lock(&acl_g.lock);
	if (!acl_device_is_open(dev) || dev->refcnt <= 0)
		ret = acl_err(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
			      "deviceId=%d is not set", deviceId);
	else if (force || --dev->refcnt == 0)
		acl_device_release_locked(dev);
	pthread_mutex_unlock(&acl_g.lock);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId)
{
	ACL_ENTER();
	return acl_reset(deviceId, false);
}

ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId)
{
	ACL_ENTER();
	return acl_reset(deviceId, true);
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count)
{
	ACL_ENTER();
	if (!count)
		return acl_err(ACL_ERROR_INVALID_PARAM, "count is NULL");
	*count = (uint32_t)acl_device_count();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode)
{
	ACL_ENTER();
	if (!runMode)
		return acl_err(ACL_ERROR_INVALID_PARAM, "runMode is NULL");
	*runMode = ACL_HOST;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void)
{
	struct acl_context *ctx;

	ACL_ENTER();
	ctx = acl_current_ctx();
	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	return acl_device_sync(ctx->dev, -1);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout)
{
	struct acl_context *ctx;

	ACL_ENTER();
	if (timeout < -1)
		return acl_check_timeout(timeout, "timeout");
	ctx = acl_current_ctx();
	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	if (acl_check_timeout(timeout, "timeout"))
		return ACL_ERROR_RT_PARAM_INVALID;
	return acl_device_sync(ctx->dev, timeout);
}

/*
 * The NPU has one memory, which stands for both CANN's DDR and HBM; the
 * P2P classes are the same memory (any allocation may be a peer's). The
 * classes differ by page size: NORMAL and the plain classes count every
 * free byte; HUGE and HUGE1G count the bytes in wholly free 2 MiB or
 * 1 GiB blocks, what an allocation in such pages can still get, out of
 * the memory's whole blocks. A driver without those figures (an older
 * GET_INFO) answers for every class with the plain ones.
 */
static void acl_mem_info_of(const struct npu_dma_info *info, aclrtMemAttr attr,
			    size_t *free, size_t *total)
{
	bool known = info->size >= offsetof(struct npu_dma_info, mem_free_1g) +
				   sizeof(info->mem_free_1g);
	uint64_t block = 0, avail = info->mem_free;

	switch (attr) {
	case ACL_DDR_MEM_HUGE:
	case ACL_HBM_MEM_HUGE:
	case ACL_DDR_MEM_P2P_HUGE:
	case ACL_HBM_MEM_P2P_HUGE:
	case ACL_MEM_HUGE:
	case ACL_MEM_P2P_HUGE:
		block = 2ULL << 20;
		avail = info->mem_free_huge;
		break;
	case ACL_HBM_MEM_HUGE1G:
	case ACL_HBM_MEM_P2P_HUGE1G:
	case ACL_MEM_HUGE1G:
	case ACL_MEM_P2P_HUGE1G:
		block = 1ULL << 30;
		avail = info->mem_free_1g;
		break;
	default:
		break;
	}
	if (!known || !block) {
		*free = (size_t)info->mem_free;
		*total = (size_t)info->mem_size;
		return;
	}
	*free = (size_t)avail;
	*total = (size_t)(info->mem_size & ~(block - 1));
}

ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free,
					     size_t *total)
{
	struct acl_context *ctx;
	struct npu_dma_info info;
	int err;

	ACL_ENTER();
	if (!free || !total)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "free=%p total=%p: neither may be NULL",
			       (void *)free, (void *)total);
	if ((unsigned int)attr > ACL_MEM_P2P_HUGE1G)
		return acl_err(ACL_ERROR_INVALID_PARAM, "attr=%d is invalid",
			       (int)attr);
	ctx = acl_current_ctx();
	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	err = acl_kmd_get_info(ctx->dev->fd, &info);
	if (err)
		return acl_err_sys(err, "DRM_IOCTL_NPU_DMA_GET_INFO");
	acl_mem_info_of(&info, attr, free, total);
	return ACL_SUCCESS;
}
