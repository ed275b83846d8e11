// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: one DRM device per NPU.
 *
 * Engines (edu, sim) create an npu_dma_device for each NPU they drive,
 * from their probe, and remove it from their remove callback. The
 * structure embeds its struct drm_device and lives as long as that does:
 * the engine's bus device holds one reference (devm), every open file,
 * allocation and pin another, so an engine can be unbound while files
 * are still open; those files then see -ENODEV.
 */

#include <linux/idr.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>

#include "npu_dma_engine.h"
#include "npu_dma_mem.h"
#include "npu_dma_prime.h"
#include "npu_dma_queue.h"

static DEFINE_IDA(npu_dma_ida);
/* NPUs by index, for peer lookups by device address; no references held. */
static DEFINE_XARRAY(npu_dma_devices);

static bool npu_dma_is_peer(struct npu_dma_device *ndev,
			    struct npu_dma_device *peer);

/* The last reference to the DRM device is gone (drmm action). */
static void npu_dma_dev_release(struct drm_device *drm, void *data)
{
	struct npu_dma_device *ndev = data;

	/* Every pin holds the device, so its mappings are gone by now. */
	WARN_ON(!xa_empty(&ndev->dma_pages));
	xa_destroy(&ndev->dma_pages);
	/* Every import holds the device too. */
	npu_dma_prime_fini(ndev);
	ida_free(&npu_dma_ida, ndev->index);
}

/**
 * npu_dma_device_create() - allocate an NPU for an engine
 * @parent: the engine's bus device, from its probe
 * @backend: engine kind
 * @ops: engine operations, must outlive npu_dma_device_remove()
 * @engine: engine private data
 *
 * The caller fills in the memory size and channel count, then calls
 * npu_dma_device_add(). The structure is freed with the DRM device, the
 * last reference of which the bus device drops after its remove (devm).
 *
 * Return: the device or an ERR_PTR().
 */
struct npu_dma_device *npu_dma_device_create(struct device *parent,
					     u32 backend,
					     const struct npu_dma_engine_ops *ops,
					     void *engine)
{
	struct npu_dma_device *ndev;
	int index, ret;

	ndev = devm_drm_dev_alloc(parent, &npu_dma_drm_driver,
				  struct npu_dma_device, drm);
	if (IS_ERR(ndev))
		return ndev;

	index = ida_alloc_max(&npu_dma_ida, NPU_DMA_MAX_DEVICES - 1, GFP_KERNEL);
	if (index < 0)
		return ERR_PTR(index);
	ndev->index = index;
	xa_init(&ndev->dma_pages);
	ret = drmm_add_action_or_reset(&ndev->drm, npu_dma_dev_release, ndev);
	if (ret)
		return ERR_PTR(ret);
	ret = npu_dma_prime_init(ndev);
	if (ret)
		return ERR_PTR(ret);

	snprintf(ndev->name, sizeof(ndev->name), NPU_DMA_NAME "%d", index);
	ndev->parent = parent;
	ndev->backend = backend;
	ndev->ops = ops;
	ndev->engine = engine;
	init_rwsem(&ndev->gone_lock);
	mutex_init(&ndev->ctx_lock);
	INIT_LIST_HEAD(&ndev->contexts);
	mutex_init(&ndev->dma_pages_lock);
	return ndev;
}

/**
 * npu_dma_device_add() - make an NPU visible: its DRM node and attributes
 * @ndev: device from npu_dma_device_create()
 *
 * Return: 0 or a negative errno; on failure nothing is left registered
 * and the bus device's devm release frees @ndev.
 */
int npu_dma_device_add(struct npu_dma_device *ndev)
{
	int ret;

	ndev->mem_base = NPU_DMA_DEVMEM_BASE + ndev->index * NPU_DMA_DEVMEM_STRIDE;
	/*
	 * Virtual addresses for VMM_MAP follow the memory, twice its size
	 * (room to reserve ahead, as caching allocators do), in the NPU's
	 * stride: an address still names its NPU.
	 */
	ndev->vmm_base = NPU_DMA_VMM_BASE(ndev->mem_base, ndev->mem_size);
	ndev->vmm_size = min(2 * (ndev->vmm_base - ndev->mem_base),
			     ndev->mem_base + NPU_DMA_DEVMEM_STRIDE - ndev->vmm_base);
	spin_lock_init(&ndev->chan_lock);
	INIT_LIST_HEAD(&ndev->chan_waiters);
	ndev->chan_best = NPU_DMA_QUEUE_PRIO_LOWEST + 1;
	/* Engines that DMA-map need their memory mapped up front. */
	ret = npu_dma_devmem_init(ndev, !ndev->ops->dma_mapped);
	if (ret)
		return ret;

	/* Attributes first: udev looks for npu_index when the node appears. */
	xa_store(&npu_dma_devices, ndev->index, ndev, GFP_KERNEL);
	ret = npu_dma_sysfs_add(ndev);
	if (ret)
		goto err_devmem;
	ret = drm_dev_register(&ndev->drm, 0);
	if (ret) {
		dev_err(ndev->parent, "Failed to register %s: %d\n", ndev->name, ret);
		goto err_sysfs;
	}
	npu_dma_debugfs_add(ndev);
	dev_info(ndev->parent, "%s: %s engine, %llu MiB device memory\n",
		 ndev->name, ndev->ops->name, ndev->mem_size >> 20);
	return 0;

err_sysfs:
	npu_dma_sysfs_remove(ndev);
err_devmem:
	xa_erase(&npu_dma_devices, ndev->index);
	npu_dma_devmem_fini(ndev);
	return ret;
}

/**
 * npu_dma_device_remove() - detach an NPU from its engine
 * @ndev: device added with npu_dma_device_add()
 *
 * After this returns no file operation will call into the engine, and
 * the engine may free its resources. The structure lives on while files,
 * allocations or pins hold the DRM device.
 */
void npu_dma_device_remove(struct npu_dma_device *ndev)
{
	struct npu_dma_ctx *ctx;

	npu_dma_debugfs_remove(ndev);

	/* Unblock ioctls waiting on queues before waiting for them. */
	mutex_lock(&ndev->ctx_lock);
	list_for_each_entry(ctx, &ndev->contexts, node)
		npu_dma_queue_abort_all(ctx);
	mutex_unlock(&ndev->ctx_lock);

	/*
	 * No ioctl is inside drm_dev_enter() once this returns, and none
	 * will enter again; the node goes away and every CPU mapping of
	 * the device is zapped (the fault handler maps the pages again).
	 */
	drm_dev_unplug(&ndev->drm);
	npu_dma_sysfs_remove(ndev);
	xa_erase(&npu_dma_devices, ndev->index);

	/*
	 * Contexts join and leave the list only under gone_lock (read), so
	 * holding it for write keeps the list still without ctx_lock. Tearing
	 * down under ctx_lock would invert the order of a submission, which
	 * takes a queue's submit_lock and then a peer NPU's ctx_lock.
	 */
	down_write(&ndev->gone_lock);
	ndev->gone = true;
	list_for_each_entry(ctx, &ndev->contexts, node)
		npu_dma_ctx_teardown(ctx);
	npu_dma_devmem_fini(ndev);
	ndev->engine = NULL;
	up_write(&ndev->gone_lock);
}

/**
 * npu_dma_device_put() - drop a reference taken by a lookup
 * @ndev: the NPU
 */
void npu_dma_device_put(struct npu_dma_device *ndev)
{
	drm_dev_put(&ndev->drm);
}

/**
 * npu_dma_device_by_parent() - the NPU of an engine's bus device
 * @parent: a PCI function or sim platform device
 *
 * For sysfs attributes, which are removed before the NPU goes away.
 *
 * Return: the NPU (no reference taken), or NULL.
 */
struct npu_dma_device *npu_dma_device_by_parent(struct device *parent)
{
	struct npu_dma_device *ndev;
	unsigned long i;

	xa_lock(&npu_dma_devices);
	xa_for_each(&npu_dma_devices, i, ndev)
		if (ndev->parent == parent)
			break;
	xa_unlock(&npu_dma_devices);
	return ndev;
}

/*
 * NPUs behind one switch reach each other's memory: edu cards all sit
 * behind the host bridge, sim NPUs behind the simulated switch sim_switch
 * puts them on; different kinds never see each other's memory. Atomic
 * context safe.
 */
static bool npu_dma_is_peer(struct npu_dma_device *ndev,
			    struct npu_dma_device *peer)
{
	return peer != ndev && peer->backend == ndev->backend &&
	       peer->link_group == ndev->link_group && !READ_ONCE(peer->gone);
}

/**
 * npu_dma_device_peers() - NPUs whose memory @ndev's engine can reach
 * @ndev: the NPU asking
 *
 * Return: a mask with bit N set for NPU N.
 */
u64 npu_dma_device_peers(struct npu_dma_device *ndev)
{
	struct npu_dma_device *peer;
	unsigned long i;
	u64 peers = 0;

	xa_lock(&npu_dma_devices);
	xa_for_each(&npu_dma_devices, i, peer)
		if (npu_dma_is_peer(ndev, peer))
			peers |= BIT_ULL(peer->index);
	xa_unlock(&npu_dma_devices);
	return peers;
}

/**
 * npu_dma_device_get_peer() - the peer NPU whose memory holds @addr
 * @ndev: NPU of the submitting queue
 * @addr: a device address outside @ndev's memory
 *
 * Return: the peer with a reference (npu_dma_device_put()), or NULL when @addr
 * is no NPU's memory or its NPU is not a peer of @ndev.
 */
struct npu_dma_device *npu_dma_device_get_peer(struct npu_dma_device *ndev,
					       u64 addr)
{
	struct npu_dma_device *peer;
	unsigned long index;

	if (addr < NPU_DMA_DEVMEM_BASE)
		return NULL;
	index = (addr - NPU_DMA_DEVMEM_BASE) / NPU_DMA_DEVMEM_STRIDE;
	if (index >= NPU_DMA_MAX_DEVICES || index == ndev->index)
		return NULL;

	xa_lock(&npu_dma_devices);
	peer = xa_load(&npu_dma_devices, index);
	if (peer && !npu_dma_is_peer(ndev, peer))
		peer = NULL;
	if (peer)
		drm_dev_get(&peer->drm);
	xa_unlock(&npu_dma_devices);
	return peer;
}
