// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: sysfs attributes of an NPU, on its bus device (the PCI
 * function of an edu NPU, the platform device of a sim one), as DRM
 * drivers keep theirs: /sys/class/drm/renderDN/device/ reaches them.
 * npu_index names the NPU (npu_dma_info.index); user space finds NPU N
 * by it, as the DRM minor numbers are shared with other drivers.
 *
 * Most values are fixed for the life of the device. The usage counters
 * (mem_used, queues, clients) are snapshots taken under the locks that
 * protect them; the attributes are removed (and their readers drained)
 * before the device's memory and contexts go away.
 *
 * The usage counters are root's only (0400): they tell what other users
 * do with the NPU, clients even names their processes (a GPU's
 * per-process usage is in each process's fdinfo, readable by its owner,
 * and that is where npu-smi finds an unprivileged user's own).
 */

#include <linux/pci.h>
#include <linux/pid.h>
#include <linux/sysfs.h>

#include "npu_dma_mem.h"

/* Attributes exist only while their NPU is registered (see the top). */
static struct npu_dma_device *npu_attr_ndev(struct device *dev)
{
	return npu_dma_device_by_parent(dev);
}

static ssize_t npu_index_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "%d\n", npu_attr_ndev(dev)->index);
}
static DEVICE_ATTR_RO(npu_index);

static const char * const npu_dma_backend_names[] = {
	[NPU_DMA_BACKEND_EDU] = "edu",
	[NPU_DMA_BACKEND_SIM] = "sim",
};

static ssize_t backend_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct npu_dma_device *ndev = npu_attr_ndev(dev);

	return sysfs_emit(buf, "%s\n", npu_dma_backend_names[ndev->backend]);
}
static DEVICE_ATTR_RO(backend);

static ssize_t pci_address_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct npu_dma_device *ndev = npu_attr_ndev(dev);

	return sysfs_emit(buf, "%s\n", pci_name(to_pci_dev(ndev->parent)));
}
static DEVICE_ATTR_RO(pci_address);

static ssize_t mem_size_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%llu\n", npu_attr_ndev(dev)->mem_size);
}
static DEVICE_ATTR_RO(mem_size);

static ssize_t dma_channels_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", npu_attr_ndev(dev)->nr_channels);
}
static DEVICE_ATTR_RO(dma_channels);

static ssize_t mem_used_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct npu_dma_device *ndev = npu_attr_ndev(dev);

	return sysfs_emit(buf, "%llu\n",
			  ndev->mem_size - npu_dma_devmem_free_bytes(ndev));
}
static DEVICE_ATTR_ADMIN_RO(mem_used);

static ssize_t queues_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct npu_dma_device *ndev = npu_attr_ndev(dev);
	struct npu_dma_ctx *ctx;
	unsigned long index;
	unsigned int n = 0;
	void *q;

	mutex_lock(&ndev->ctx_lock);
	list_for_each_entry(ctx, &ndev->contexts, node) {
		mutex_lock(&ctx->lock);
		xa_for_each(&ctx->queues, index, q)
			n++;
		mutex_unlock(&ctx->lock);
	}
	mutex_unlock(&ndev->ctx_lock);
	return sysfs_emit(buf, "%u\n", n);
}
static DEVICE_ATTR_ADMIN_RO(queues);

/* Processes with the device open: one process id each, as the reader sees it. */
static ssize_t clients_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct npu_dma_device *ndev = npu_attr_ndev(dev);
	struct npu_dma_ctx *ctx, *prev;
	int len = 0;

	mutex_lock(&ndev->ctx_lock);
	list_for_each_entry(ctx, &ndev->contexts, node) {
		bool seen = false;

		/* A process with several files is listed once. */
		list_for_each_entry(prev, &ndev->contexts, node) {
			if (prev == ctx)
				break;
			seen |= prev->pid == ctx->pid;
		}
		if (!seen)
			len += sysfs_emit_at(buf, len, "%s%d", len ? " " : "",
					     pid_vnr(ctx->pid));
	}
	mutex_unlock(&ndev->ctx_lock);
	return len + sysfs_emit_at(buf, len, "\n");
}
static DEVICE_ATTR_ADMIN_RO(clients);

/* Indices of the peer NPUs, ascending, space separated. */
static ssize_t peers_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	u64 peers = npu_dma_device_peers(npu_attr_ndev(dev));
	int len = 0, i;

	for (i = 0; i < NPU_DMA_MAX_DEVICES; i++)
		if (peers & BIT_ULL(i))
			len += sysfs_emit_at(buf, len, "%s%d", len ? " " : "", i);
	return len + sysfs_emit_at(buf, len, "\n");
}
static DEVICE_ATTR_RO(peers);

static struct attribute *npu_dma_dev_attrs[] = {
	&dev_attr_npu_index.attr,
	&dev_attr_backend.attr,
	&dev_attr_pci_address.attr,
	&dev_attr_mem_size.attr,
	&dev_attr_dma_channels.attr,
	&dev_attr_mem_used.attr,
	&dev_attr_queues.attr,
	&dev_attr_clients.attr,
	&dev_attr_peers.attr,
	NULL
};

/* Only NPUs behind a PCI function have a PCI address. */
static umode_t npu_dma_attr_visible(struct kobject *kobj, struct attribute *attr,
				    int n)
{
	if (attr == &dev_attr_pci_address.attr && !dev_is_pci(kobj_to_dev(kobj)))
		return 0;
	return attr->mode;
}

static const struct attribute_group npu_dma_dev_group = {
	.attrs = npu_dma_dev_attrs,
	.is_visible = npu_dma_attr_visible,
};

int npu_dma_sysfs_add(struct npu_dma_device *ndev)
{
	return sysfs_create_group(&ndev->parent->kobj, &npu_dma_dev_group);
}

void npu_dma_sysfs_remove(struct npu_dma_device *ndev)
{
	sysfs_remove_group(&ndev->parent->kobj, &npu_dma_dev_group);
}
