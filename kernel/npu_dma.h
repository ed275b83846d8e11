/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: the core objects, NPUs, open files and address ranges (internal).
 *
 * Every stage of the pipeline sees these; what only some stages share has
 * a header of its own (Documentation/driver.rst lists them).
 */
#ifndef __NPU_DMA_H__
#define __NPU_DMA_H__

#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/rwsem.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/npu_dma_accel.h>

#include "npu_dma_budget.h"
#include "npu_dma_pin_cache.h"

#define NPU_DMA_NAME		"npu_dma"
#define NPU_DMA_MAX_DEVICES	64	/* npu_dma_info.peers is a u64 mask */
/*
 * Device addresses start here, well clear of 0 and of host-looking values;
 * NPU N's memory starts at BASE + N * STRIDE, so an address names its NPU.
 * The stride bounds the device memory of one NPU (1 TiB).
 */
#define NPU_DMA_DEVMEM_BASE	(1ULL << 40)
#define NPU_DMA_DEVMEM_STRIDE	(1ULL << 40)
/*
 * Foreign dma-bufs an NPU imports get device addresses of their own, in
 * a window per NPU above every NPU's memory: an address still names its
 * NPU, and no import can take room from device memory.
 */
#define NPU_DMA_IMPORT_BASE	(NPU_DMA_DEVMEM_BASE + \
				 NPU_DMA_MAX_DEVICES * NPU_DMA_DEVMEM_STRIDE)

struct gen_pool;
struct npu_dma_area;
struct npu_dma_engine_ops;
struct npu_dma_devmem;
struct seq_file;

/**
 * struct npu_dma_stats - counters of one NPU, for debugfs
 * @submitted: descriptors consumed from rings
 * @completed: descriptors retired, failed ones included
 * @failed: descriptors that completed with an error
 * @bytes: bytes moved by copies and fills that succeeded
 * @pins: host ranges pinned (registrations and transient pins)
 * @unpins: host ranges released
 * @irqs: engine interrupts handled
 * @reg_calls: HOST_REGISTER ioctls, failed ones included
 * @reg_ns: nanoseconds spent in them, from entry to return
 * @reg_pin_calls: of those, the ones that reached pin_user_pages_fast()
 * @reg_pin_ns: nanoseconds spent in pin_user_pages_fast() by them
 * @pin_cache_hits: pageable sides found pinned in a file's pin cache
 * @pin_cache_fills: pageable sides pinned into a file's pin cache
 */
struct npu_dma_stats {
	atomic64_t submitted;
	atomic64_t completed;
	atomic64_t failed;
	atomic64_t bytes;
	atomic64_t pins;
	atomic64_t unpins;
	atomic64_t irqs;
	atomic64_t reg_calls;
	atomic64_t reg_ns;
	atomic64_t reg_pin_calls;
	atomic64_t reg_pin_ns;
	atomic64_t pin_cache_hits;
	atomic64_t pin_cache_fills;
};

/**
 * struct npu_dma_device - one NPU, as seen by the core
 * @drm: its DRM device; the DRM device's refcount keeps this structure
 *	alive while files, allocations and pins exist (drm_dev_get/put)
 * @parent: bus device of the engine (PCI function or platform device),
 *	which also carries the sysfs attributes
 * @index: the NPU's number (npu_dma_info.index, sysfs npu_index),
 *	independent of the DRM minor
 * @name: "npu_dmaN", for debugfs and messages
 * @backend: engine kind, NPU_DMA_BACKEND_* of the ABI
 * @ops: engine operations
 * @engine: engine private data, owned by the engine
 * @mem_size: device memory advertised, in bytes
 * @mem_base: device address of its first byte (see NPU_DMA_DEVMEM_BASE)
 * @nr_channels: DMA channels the engine runs in parallel
 * @link_group: NPUs of one backend and one group share a switch and are
 *	peers (sim: sim_switch; edu: all one group)
 * @mem: device memory: allocator and backing pages
 * @import_pool: device addresses for imported dma-bufs, in the NPU's
 *	window at @import_base (npu_dma_prime.c)
 * @import_base: first address of that window (see NPU_DMA_IMPORT_BASE)
 * @bus_maps: the NPU's mappings of imported dma-bufs, one per buffer,
 *	shared by its imports of it (npu_dma_prime.c)
 * @bus_maps_lock: protects @bus_maps
 * @vmm_base: first address of the NPU's window of virtual addresses
 *	(VMM_MAP, npu_dma_vmm.c), right after its memory
 * @vmm_size: bytes of that window
 * @chan_lock: Protects @chan_busy, @chan_waiters, @chan_best
 * @chan_busy: the channels held, one bit each; every transfer holds one
 *	(its number is traced: the timeline has a track per channel)
 * @chan_waiters: those waiting for a channel, by queue priority, then
 *	in arrival order (npu_dma_chan.c)
 * @chan_best: priority of the first waiter, or NPU_DMA_QUEUE_PRIO_LOWEST
 *	+ 1 for none: holders read it without the lock to decide whether
 *	to give way
 * @ctx_lock: Protects @contexts
 * @contexts: open files (struct npu_dma_ctx.node), for teardown on removal;
 *	added and removed under @gone_lock (read) and @ctx_lock, so holding
 *	@gone_lock for write also keeps the list still
 * @gone_lock: Protects @gone; held for read around every use of @ops
 *	from a file operation, for write while the engine goes away
 * @gone: set once the engine has been removed; file operations then
 *	fail with -ENODEV
 * @dma_pages_lock: Protects @dma_pages and the use counts in it
 * @dma_pages: host pages mapped for the engine, by pfn and direction:
 *	one shared mapping per page and direction (npu_dma_pagemap.c)
 * @stats: counters shown in debugfs
 * @debugfs: its directory under /sys/kernel/debug/npu_dma
 */
struct npu_dma_device {
	struct drm_device drm;
	struct device *parent;
	int index;
	char name[16];
	u32 backend;
	const struct npu_dma_engine_ops *ops;
	void *engine;
	u64 mem_size;
	u64 mem_base;
	u32 nr_channels;
	u32 link_group;
	struct npu_dma_devmem *mem;
	struct gen_pool *import_pool;
	u64 import_base;
	struct list_head bus_maps;
	struct mutex bus_maps_lock;	/* see above */
	u64 vmm_base;
	u64 vmm_size;
	spinlock_t chan_lock;		/* @chan_busy .. @chan_best */
	unsigned long chan_busy;
	struct list_head chan_waiters;
	int chan_best;

	struct mutex ctx_lock;		/* @contexts */
	struct list_head contexts;

	struct rw_semaphore gone_lock;
	bool gone;

	struct mutex dma_pages_lock;	/* @dma_pages */
	struct xarray dma_pages;

	struct npu_dma_stats stats;
	struct dentry *debugfs;
};

static inline struct npu_dma_device *to_npu_dma_device(struct drm_device *drm)
{
	return container_of(drm, struct npu_dma_device, drm);
}

/**
 * struct npu_dma_range - an address range owned by a context
 * @node: in the context's tree (device allocations or host regions)
 * @start: first address
 * @size: bytes
 * @ref: the tree holds one reference, each queued job and each graph one
 *	per range it touches; the range is released by the last put
 * @gone: taken out of its tree (freed or unregistered by user space, or
 *	the file closed); a graph replay then fails the tasks naming it
 * @target: an alias (another file's handle on a shared allocation,
 *	npu_dma_prime.c): the allocation's own range, whose pages it
 *	stands for; NULL for every other range
 * @imported: a foreign dma-buf imported by this NPU (npu_dma_prime.c)
 * @ipc: an alias made by IPC_IMPORT (npu_dma_ipc.c), covering a window
 *	of its allocation; removed by IPC_CLOSE, not by a GEM handle
 * @vmm: an alias made by VMM_MAP (npu_dma_vmm.c), at a virtual address;
 *	removed by VMM_UNMAP
 * @phys: an alias: the allocation's device address that @start stands for
 * @span: not in any tree: a job's side over several VMM mappings that
 *	follow each other (struct npu_vmm_span, npu_dma_vmm.c)
 */
struct npu_dma_range {
	struct rb_node node;
	u64 start;
	u64 size;
	struct kref ref;
	bool gone;
	bool imported;
	bool ipc;
	bool vmm;
	bool span;
	struct npu_dma_range *target;
	u64 phys;
};

/**
 * struct npu_dma_ctx - an open DRM file of an NPU (drm_file.driver_priv)
 * @ndev: its NPU (the DRM core holds a device reference for the file)
 * @file: the DRM file
 * @mm: address space of the opener (mmgrab'ed): pins are charged to it
 *	and only it may pin, submit or map
 * @memcg: memory cgroup of the opener, referenced: what the queues'
 *	workers allocate for it is charged there
 * @pid: thread-group id of the opener, for the clients attribute
 * @client_id: unique among all files since the module loaded (fdinfo)
 * @node: in ndev->contexts
 * @lock: Protects @mem_tree, @host_tree, @queues and @graphs
 * @mem_tree: device allocations (struct npu_dma_alloc)
 * @host_tree: registered host ranges (struct npu_dma_region)
 * @queues: queues of this context by index
 * @graphs: validated descriptor lists by id (struct npu_dma_graph)
 * @graph_tasks: tasks of this file's graphs not freed yet, against
 *	graph_tasks_per_file (npu_dma_graph.c)
 * @events_area: the shared area of the event table
 * @events: event table (struct npu_dma_event_slot[]), in @events_area
 * @engine_ns: nanoseconds the engine spent on this file's transfers,
 *	summed over channels (fdinfo drm-engine-dma)
 * @budget: what its queues have consumed and not retired
 *	(npu_dma_budget.c)
 * @ipc_shares: the keys it exported (npu_dma_ipc.c; under its lock there)
 * @signals: signals it created or imported, by id (npu_dma_signal.c)
 * @pin_cache: pins of its pageable copies kept for the next ones
 *	(npu_dma_pin_cache.c)
 */
struct mem_cgroup;

struct npu_dma_ctx {
	struct npu_dma_device *ndev;
	struct drm_file *file;
	struct mm_struct *mm;
	struct mem_cgroup *memcg;
	struct pid *pid;
	u64 client_id;
	struct list_head node;
	struct mutex lock;		/* trees, @queues, @graphs */
	struct rb_root mem_tree;
	struct rb_root host_tree;
	struct xarray queues;
	struct xarray graphs;
	atomic_t graph_tasks;
	struct npu_dma_area *events_area;
	struct npu_dma_event_slot *events;
	atomic64_t engine_ns;
	struct npu_dma_budget budget;
	struct list_head ipc_shares;
	struct xarray signals;
	struct npu_dma_pin_cache pin_cache;
};

#define NPU_DMA_MAX_EVENT_SLOTS		4096
#define NPU_DMA_MAX_QUEUE_ENTRIES	4096
#define NPU_DMA_MAX_QUEUES		64
#define NPU_DMA_MAX_GRAPHS		4096
#define NPU_DMA_MAX_GRAPH_TASKS		65536
#define NPU_DMA_MAX_COPY_LEN		(1ULL << 32)
#define NPU_DMA_MAX_2D_HEIGHT		(1U << 20)
#define NPU_DMA_MAX_2D_PITCH		(1ULL << 32)

/* Messages name the bus device, as DRM drivers' do, and the NPU. */
#define npu_err(ndev, fmt, ...) do {					\
	const struct npu_dma_device *__nd = (ndev);			\
									\
	dev_err(__nd->parent, "%s: %s: " fmt, __nd->name, __func__,	\
		##__VA_ARGS__);						\
} while (0)
#define npu_dbg(ndev, fmt, ...) do {					\
	const struct npu_dma_device *__nd = (ndev);			\
									\
	dev_dbg(__nd->parent, "%s: %s: " fmt, __nd->name, __func__,	\
		##__VA_ARGS__);						\
} while (0)

/* @addr lies in @ndev's own device memory (not a peer's). */
static inline bool npu_dma_own_memory(const struct npu_dma_device *ndev, u64 addr)
{
	return addr >= ndev->mem_base && addr - ndev->mem_base < ndev->mem_size;
}

/* @addr lies in @ndev's memory, or its windows of imports or mappings. */
static inline bool npu_dma_own_addr(const struct npu_dma_device *ndev, u64 addr)
{
	return npu_dma_own_memory(ndev, addr) ||
	       (addr >= ndev->vmm_base && addr - ndev->vmm_base < ndev->vmm_size) ||
	       (addr >= ndev->import_base &&
		addr - ndev->import_base < NPU_DMA_DEVMEM_STRIDE);
}

/* npu_dma_dev.c: NPUs and their peers (engines add them, npu_dma_engine.h) */
u64 npu_dma_device_peers(struct npu_dma_device *ndev);
struct npu_dma_device *npu_dma_device_get_peer(struct npu_dma_device *ndev,
					       u64 addr);
void npu_dma_device_put(struct npu_dma_device *ndev);

/* npu_dma.c: the DRM driver */
extern const struct drm_driver npu_dma_drm_driver;

/* npu_dma_ctx.c: contexts (open files) */
int npu_dma_ctx_open(struct drm_device *drm, struct drm_file *file);
void npu_dma_ctx_drain(struct npu_dma_ctx *ctx);
void npu_dma_ctx_close(struct drm_device *drm, struct drm_file *file);
void npu_dma_ctx_teardown(struct npu_dma_ctx *ctx);
int npu_dma_get_info_ioctl(struct npu_dma_ctx *ctx, void *data);
void npu_dma_ctx_show_fdinfo(struct npu_dma_ctx *ctx, struct seq_file *m);

/* npu_dma_range.c */
struct npu_dma_range *npu_dma_range_find(struct rb_root *root, u64 addr,
					 u64 len);
int npu_dma_range_insert(struct rb_root *root, struct npu_dma_range *range);
struct npu_dma_range *npu_dma_range_take(struct npu_dma_ctx *ctx,
					 struct rb_root *root, u64 start);
void npu_dma_range_drain(struct npu_dma_ctx *ctx, struct rb_root *root,
			 void (*put)(struct npu_dma_range *range));

void npu_dma_pages_unmap(struct npu_dma_device *ndev, struct page **pages,
			 unsigned long n, bool writable);

/* npu_dma_sysfs.c: attributes on the bus device */
int npu_dma_sysfs_add(struct npu_dma_device *ndev);
void npu_dma_sysfs_remove(struct npu_dma_device *ndev);

/* npu_dma_debugfs.c */
void npu_dma_debugfs_init(bool test_hooks);
void npu_dma_debugfs_exit(void);
void npu_dma_debugfs_add(struct npu_dma_device *ndev);
void npu_dma_debugfs_remove(struct npu_dma_device *ndev);

#endif /* __NPU_DMA_H__ */
