// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: sysfs attributes of /sys/class/npu_dma/npu_dmaN.
 *
 * All values here are fixed for the life of the device, so no locking.
 */

#include <linux/pci.h>
#include <linux/sysfs.h>

#include "npu_dma.h"

static const char * const npu_dma_backend_names[] = {
	[NPU_DMA_BACKEND_EDU] = "edu",
	[NPU_DMA_BACKEND_SIM] = "sim",
};

static ssize_t backend_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct npu_dma_device *ndev = to_npu_dma_device(dev);

	return sysfs_emit(buf, "%s\n", npu_dma_backend_names[ndev->backend]);
}
static DEVICE_ATTR_RO(backend);

static ssize_t pci_address_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct npu_dma_device *ndev = to_npu_dma_device(dev);

	return sysfs_emit(buf, "%s\n", pci_name(to_pci_dev(ndev->parent)));
}
static DEVICE_ATTR_RO(pci_address);

static ssize_t mem_size_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%llu\n", to_npu_dma_device(dev)->mem_size);
}
static DEVICE_ATTR_RO(mem_size);

static ssize_t dma_channels_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_npu_dma_device(dev)->nr_channels);
}
static DEVICE_ATTR_RO(dma_channels);

static struct attribute *npu_dma_dev_attrs[] = {
	&dev_attr_backend.attr,
	&dev_attr_pci_address.attr,
	&dev_attr_mem_size.attr,
	&dev_attr_dma_channels.attr,
	NULL
};

/* Only NPUs behind a PCI function have a PCI address. */
static umode_t npu_dma_attr_visible(struct kobject *kobj, struct attribute *attr,
				    int n)
{
	struct npu_dma_device *ndev = to_npu_dma_device(kobj_to_dev(kobj));

	if (attr == &dev_attr_pci_address.attr && !dev_is_pci(ndev->parent))
		return 0;
	return attr->mode;
}

static const struct attribute_group npu_dma_dev_group = {
	.attrs = npu_dma_dev_attrs,
	.is_visible = npu_dma_attr_visible,
};

const struct attribute_group *npu_dma_dev_groups[] = {
	&npu_dma_dev_group,
	NULL
};
