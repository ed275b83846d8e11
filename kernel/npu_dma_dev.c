// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: one character device per NPU.
 *
 * Engines (edu, sim) create an npu_dma_device for each NPU they drive and
 * remove it when they go away. The device structure is refcounted through
 * its embedded struct device: the class device, every open file and the
 * engine each hold a reference, so an engine can be unbound while files
 * are still open; those files then see -ENODEV.
 */

#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "npu_dma_queue.h"

static dev_t npu_dma_devt;
static DEFINE_IDA(npu_dma_ida);
/* NPUs by index, for peer lookups by device address; no references held. */
static DEFINE_XARRAY(npu_dma_devices);

static bool npu_dma_is_peer(struct npu_dma_device *ndev,
			    struct npu_dma_device *peer);

/*
 * /sys/class/npu_dma/topology: a matrix of every pair of NPUs, "X" on the
 * diagonal, "PIX" for peers (behind one switch), "-" for no peer access.
 */
static ssize_t topology_show(struct class *class,
			     struct class_attribute *attr, char *buf)
{
	struct npu_dma_device *row, *col;
	unsigned long i, j;
	int len = 0;

	xa_lock(&npu_dma_devices);
	len += sysfs_emit_at(buf, len, "%-8s", "");
	xa_for_each(&npu_dma_devices, j, col)
		len += sysfs_emit_at(buf, len, " %-8s", dev_name(&col->dev));
	len += sysfs_emit_at(buf, len, "\n");
	xa_for_each(&npu_dma_devices, i, row) {
		len += sysfs_emit_at(buf, len, "%-8s", dev_name(&row->dev));
		xa_for_each(&npu_dma_devices, j, col)
			len += sysfs_emit_at(buf, len, " %-8s", row == col ? "X" :
					     npu_dma_is_peer(row, col) ? "PIX" : "-");
		len += sysfs_emit_at(buf, len, "\n");
	}
	xa_unlock(&npu_dma_devices);
	return len;
}
static CLASS_ATTR_RO(topology);

static struct attribute *npu_dma_class_attrs[] = {
	&class_attr_topology.attr,
	NULL
};
ATTRIBUTE_GROUPS(npu_dma_class);

static struct class npu_dma_class = {
	.name = NPU_DMA_NAME,
	.dev_groups = npu_dma_dev_groups,
	.class_groups = npu_dma_class_groups,
};

static void npu_dma_dev_release(struct device *dev)
{
	struct npu_dma_device *ndev = to_npu_dma_device(dev);

	/* Every pin holds the device, so its mappings are gone by now. */
	WARN_ON(!xa_empty(&ndev->dma_pages));
	xa_destroy(&ndev->dma_pages);
	ida_free(&npu_dma_ida, ndev->index);
	put_device(ndev->parent);
	kfree(ndev);
}

/**
 * npu_dma_device_create() - allocate an NPU for an engine
 * @parent: the engine's bus device
 * @backend: engine kind
 * @ops: engine operations, must outlive npu_dma_device_remove()
 * @engine: engine private data
 *
 * The caller fills in the memory size and channel count, then calls
 * npu_dma_device_add(). On failure after this point, put_device() frees.
 *
 * Return: the device or an ERR_PTR().
 */
struct npu_dma_device *npu_dma_device_create(struct device *parent,
					     u32 backend,
					     const struct npu_dma_engine_ops *ops,
					     void *engine)
{
	struct npu_dma_device *ndev;
	int index;

	ndev = kzalloc(sizeof(*ndev), GFP_KERNEL);
	if (!ndev)
		return ERR_PTR(-ENOMEM);

	index = ida_alloc_max(&npu_dma_ida, NPU_DMA_MAX_DEVICES - 1, GFP_KERNEL);
	if (index < 0) {
		kfree(ndev);
		return ERR_PTR(index);
	}

	ndev->index = index;
	ndev->parent = get_device(parent);
	ndev->backend = backend;
	ndev->ops = ops;
	ndev->engine = engine;
	init_rwsem(&ndev->gone_lock);
	mutex_init(&ndev->ctx_lock);
	INIT_LIST_HEAD(&ndev->contexts);
	mutex_init(&ndev->dma_pages_lock);
	xa_init(&ndev->dma_pages);

	device_initialize(&ndev->dev);
	ndev->dev.class = &npu_dma_class;
	ndev->dev.parent = parent;
	ndev->dev.devt = MKDEV(MAJOR(npu_dma_devt), index);
	ndev->dev.release = npu_dma_dev_release;
	dev_set_drvdata(&ndev->dev, ndev);
	cdev_init(&ndev->cdev, &npu_dma_fops);
	ndev->cdev.owner = THIS_MODULE;

	return ndev;
}

/**
 * npu_dma_device_add() - make an NPU visible as /dev/npu_dmaN
 * @ndev: device from npu_dma_device_create()
 *
 * Return: 0 or a negative errno; on failure the caller still owns its
 * reference and drops it with put_device().
 */
int npu_dma_device_add(struct npu_dma_device *ndev)
{
	int ret;

	ret = dev_set_name(&ndev->dev, NPU_DMA_NAME "%d", ndev->index);
	if (ret)
		return ret;
	ndev->mem_base = NPU_DMA_DEVMEM_BASE + ndev->index * NPU_DMA_DEVMEM_STRIDE;
	sema_init(&ndev->channels, ndev->nr_channels);
	spin_lock_init(&ndev->chan_lock);
	/* Engines that DMA-map need their memory mapped up front. */
	ret = npu_dma_devmem_init(ndev, !ndev->ops->dma_mapped);
	if (ret)
		return ret;

	ret = cdev_device_add(&ndev->cdev, &ndev->dev);
	if (ret) {
		dev_err(ndev->parent, "Failed to add %s: %d\n",
			dev_name(&ndev->dev), ret);
		npu_dma_devmem_fini(ndev);
		return ret;
	}

	xa_store(&npu_dma_devices, ndev->index, ndev, GFP_KERNEL);
	npu_dma_debugfs_add(ndev);
	dev_info(ndev->parent, "%s: %s engine, %llu MiB device memory\n",
		 dev_name(&ndev->dev), ndev->ops->name, ndev->mem_size >> 20);
	return 0;
}

/**
 * npu_dma_device_remove() - detach an NPU from its engine
 * @ndev: device added with npu_dma_device_add()
 *
 * After this returns no file operation will call into the engine, and
 * the engine may free its resources. Drops the engine's reference.
 */
void npu_dma_device_remove(struct npu_dma_device *ndev)
{
	struct npu_dma_ctx *ctx;

	cdev_device_del(&ndev->cdev, &ndev->dev);
	xa_erase(&npu_dma_devices, ndev->index);
	npu_dma_debugfs_remove(ndev);

	/* Unblock ioctls waiting on queues before taking the lock. */
	mutex_lock(&ndev->ctx_lock);
	list_for_each_entry(ctx, &ndev->contexts, node)
		npu_dma_queue_abort_all(ctx);
	mutex_unlock(&ndev->ctx_lock);

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

	put_device(&ndev->dev);
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

struct npu_dma_peer_scan {
	struct npu_dma_device *ndev;
	u64 peers;
};

static int npu_dma_peer_match(struct device *dev, void *data)
{
	struct npu_dma_device *peer = to_npu_dma_device(dev);
	struct npu_dma_peer_scan *scan = data;

	if (npu_dma_is_peer(scan->ndev, peer))
		scan->peers |= BIT_ULL(peer->index);
	return 0;
}

/**
 * npu_dma_device_peers() - NPUs whose memory @ndev's engine can reach
 * @ndev: the NPU asking
 *
 * Return: a mask with bit N set for /dev/npu_dmaN.
 */
u64 npu_dma_device_peers(struct npu_dma_device *ndev)
{
	struct npu_dma_peer_scan scan = { .ndev = ndev };

	class_for_each_device(&npu_dma_class, NULL, &scan, npu_dma_peer_match);
	return scan.peers;
}

/**
 * npu_dma_device_get_peer() - the peer NPU whose memory holds @addr
 * @ndev: NPU of the submitting queue
 * @addr: a device address outside @ndev's memory
 *
 * Return: the peer with a reference (put_device() it), or NULL when @addr
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
		get_device(&peer->dev);
	xa_unlock(&npu_dma_devices);
	return peer;
}

int npu_dma_chrdev_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&npu_dma_devt, 0, NPU_DMA_MAX_DEVICES,
				  NPU_DMA_NAME);
	if (ret)
		return ret;

	ret = class_register(&npu_dma_class);
	if (ret) {
		unregister_chrdev_region(npu_dma_devt, NPU_DMA_MAX_DEVICES);
		return ret;
	}
	return 0;
}

void npu_dma_chrdev_exit(void)
{
	class_unregister(&npu_dma_class);
	unregister_chrdev_region(npu_dma_devt, NPU_DMA_MAX_DEVICES);
	ida_destroy(&npu_dma_ida);
}
