/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: internal definitions shared by the core and the engines.
 */
#ifndef __NPU_DMA_H__
#define __NPU_DMA_H__

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/types.h>

#define NPU_DMA_NAME		"npu_dma"
#define NPU_DMA_MAX_DEVICES	64

struct npu_dma_engine_ops;

/**
 * enum npu_dma_backend - which engine drives an NPU
 * @NPU_DMA_BACKEND_EDU: QEMU's edu PCI device
 * @NPU_DMA_BACKEND_SIM: software-simulated NPU inside this module
 */
enum npu_dma_backend {
	NPU_DMA_BACKEND_EDU,
	NPU_DMA_BACKEND_SIM,
};

/**
 * struct npu_dma_device - one NPU, as seen by the core
 * @dev: class device behind /dev/npu_dmaN; its refcount keeps this
 *	structure alive while files are open (see npu_dma_dev_release())
 * @cdev: character device, parented to @dev by cdev_device_add()
 * @parent: bus device of the engine (PCI function or platform device)
 * @index: N in /dev/npu_dmaN
 * @backend: engine kind, shown in sysfs
 * @ops: engine operations; only valid while @gone is false
 * @engine: engine private data, owned by the engine
 * @mem_size: device memory advertised, in bytes
 * @nr_channels: DMA channels the engine runs in parallel
 * @gone_lock: Protects @gone; held for read around every use of @ops
 *	from a file operation, for write while the engine goes away
 * @gone: set once the engine has been removed; file operations then
 *	fail with -ENODEV
 */
struct npu_dma_device {
	struct device dev;
	struct cdev cdev;
	struct device *parent;
	int index;
	enum npu_dma_backend backend;
	const struct npu_dma_engine_ops *ops;
	void *engine;
	u64 mem_size;
	u32 nr_channels;

	struct rw_semaphore gone_lock;
	bool gone;
};

static inline struct npu_dma_device *to_npu_dma_device(struct device *dev)
{
	return container_of(dev, struct npu_dma_device, dev);
}

/**
 * struct npu_dma_engine_ops - what an engine provides to the core
 * @name: backend name shown in sysfs ("edu", "sim")
 */
struct npu_dma_engine_ops {
	const char *name;
};

#define npu_err(ndev, fmt, ...) \
	dev_err(&(ndev)->dev, "%s: " fmt, __func__, ##__VA_ARGS__)
#define npu_dbg(ndev, fmt, ...) \
	dev_dbg(&(ndev)->dev, "%s: " fmt, __func__, ##__VA_ARGS__)

/* npu_dma_dev.c: device registration, char device */
struct npu_dma_device *npu_dma_device_create(struct device *parent,
					     enum npu_dma_backend backend,
					     const struct npu_dma_engine_ops *ops,
					     void *engine);
int npu_dma_device_add(struct npu_dma_device *ndev);
void npu_dma_device_remove(struct npu_dma_device *ndev);
int npu_dma_chrdev_init(void);
void npu_dma_chrdev_exit(void);

/* npu_dma_sysfs.c */
extern const struct attribute_group *npu_dma_dev_groups[];

/* npu_dma_debugfs.c */
void npu_dma_debugfs_init(bool test_hooks);
void npu_dma_debugfs_exit(void);

/* npu_dma_edu.c, npu_dma_sim.c: engines */
int npu_dma_edu_init(void);
void npu_dma_edu_exit(void);
int npu_dma_sim_init(unsigned int nr_sim);
void npu_dma_sim_exit(void);

#endif /* __NPU_DMA_H__ */
