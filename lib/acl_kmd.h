/* SPDX-License-Identifier: MIT */
/*
 * libacl: the command layer, the one way from the library to the kernel
 * driver (lib/acl_kmd.c). It finds the driver's DRM nodes, opens them,
 * runs every ioctl through libdrm's drmIoctl() and maps the areas the
 * driver offers. Everything above it speaks only these functions, so a
 * fake of them (tests/unit/kmd/fake_kmd.c) runs the library's stream,
 * ring and event code without a kernel.
 *
 * Policy is not here: which nodes are used, in which order, and what is
 * refused (the ABI check) is decided by acl_init.c from what
 * acl_kmd_probe() reports, so the same rules run against the fake.
 *
 * Every function returns 0 (or a count, or an fd) on success and a
 * negative errno on failure; none prints or records messages.
 */
#ifndef ACL_KMD_H
#define ACL_KMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <drm/npu_dma_accel.h>

#define ACL_KMD_PATH_MAX	64	/* "/dev/dri/renderD128", "/dev/accel/accel0" */

/**
 * struct acl_kmd_node - one DRM node acl_kmd_probe() looked at
 * @path: its device node
 * @ours: the node's DRM driver is NPU_DMA_DRIVER_NAME (checked with
 *	DRM_IOCTL_VERSION); false for a node that could not be opened, whose
 *	driver is unknown
 * @err: 0, or the -errno that opening the node (!@ours) or GET_INFO
 *	(@ours) failed with
 * @info: GET_INFO's answer, valid when @ours and !@err
 *
 * Nodes of other drivers are not reported.
 */
struct acl_kmd_node {
	char path[ACL_KMD_PATH_MAX];
	bool ours;
	int err;
	struct npu_dma_info info;
};

/*
 * Look at every DRM render node libdrm enumerates and every
 * /dev/accel/accel* node, and report those of our driver, and those that
 * could not be opened, into @nodes (at most @max; not sorted).
 * Return: how many there are (more than @max if some did not fit), or
 * -errno.
 */
int acl_kmd_probe(struct acl_kmd_node *nodes, int max);

/* Open the node at @path read-write, refusing another driver's (-ENODEV). */
int acl_kmd_open(const char *path);
void acl_kmd_close(int fd);

/* GET_INFO into @info (cleared first): 0 or -errno. */
int acl_kmd_get_info(int fd, struct npu_dma_info *info);

/* Device memory: MEM_ALLOC (@a in/out), and GEM_CLOSE of its handle. */
int acl_kmd_mem_alloc(int fd, struct npu_dma_mem_alloc *a);
int acl_kmd_gem_close(int fd, uint32_t handle);

/* Pin [@addr, @addr + @size) for this file's descriptors, and unpin. */
int acl_kmd_host_register(int fd, uint64_t addr, uint64_t size, uint32_t flags);
int acl_kmd_host_unregister(int fd, uint64_t addr);

/* Queues: QUEUE_CREATE (@c in/out), QUEUE_DESTROY, the doorbell. */
int acl_kmd_queue_create(int fd, struct npu_dma_queue_create *c);
int acl_kmd_queue_destroy(int fd, uint32_t queue_id);
/* Return: descriptors consumed (>= 0), or -errno. */
int acl_kmd_queue_submit(int fd, uint32_t queue_id, uint32_t flags);
int acl_kmd_barrier_release(int fd, uint32_t queue_id, uint64_t seq);
/* QUEUE_CTL: NPU_DMA_QUEUE_CTL_* on a queue. */
int acl_kmd_queue_ctl(int fd, uint32_t queue_id, uint32_t op, uint32_t value);

/*
 * Device memory shared by key: IPC_EXPORT (@x in/out), IPC_SET_PIDS,
 * IPC_IMPORT (@m in/out), IPC_CLOSE. 0 or -errno.
 */
int acl_kmd_ipc_export(int fd, struct npu_dma_ipc_export *x);
int acl_kmd_ipc_set_pids(int fd, const uint64_t key[2], const int32_t *pids,
			 uint32_t count);
int acl_kmd_ipc_import(int fd, struct npu_dma_ipc_import *m);
int acl_kmd_ipc_close(int fd, const struct npu_dma_ipc_close *c);

/*
 * SIGNAL_CREATE (its id into *@id), SIGNAL_DESTROY, SIGNAL_WAIT (until
 * CLOCK_MONOTONIC @deadline_ns, INT64_MAX: none). 0 or -errno.
 */
int acl_kmd_signal_create(int fd, uint32_t *id);
int acl_kmd_signal_destroy(int fd, uint32_t id);
int acl_kmd_signal_wait(int fd, uint32_t id, uint32_t flags,
			int64_t deadline_ns);

/* VMM_MAP, VMM_UNMAP; MEM_INFO of @handle (address, size, flags if asked). */
int acl_kmd_vmm_map(int fd, uint64_t va, uint64_t size, uint64_t offset,
		    uint32_t handle);
int acl_kmd_vmm_unmap(int fd, uint64_t va);
int acl_kmd_mem_info(int fd, uint32_t handle, uint64_t *addr, uint64_t *size,
		     uint32_t *flags);

/* Graphs: GRAPH_CREATE (@g in/out), GRAPH_DESTROY. */
int acl_kmd_graph_create(int fd, struct npu_dma_graph_create *g);
int acl_kmd_graph_destroy(int fd, uint32_t graph_id);

/*
 * The driver's sysfs attribute @attr of the NPU behind @fd (on its bus
 * device, where the driver keeps them), its trailing newline dropped,
 * into @buf: 0; -ENOENT if this NPU has no such attribute (pci_address
 * on a sim NPU); -ERANGE if it does not fit; or -errno.
 */
int acl_kmd_attr(int fd, const char *attr, char *buf, size_t size);

/*
 * The loaded driver module's version (its MODULE_VERSION, from
 * /sys/module) into @buf: 0, -ENOENT without the module, or -errno.
 */
int acl_kmd_driver_version(char *buf, size_t size);

/*
 * mmap() @size bytes at offset @offset of the file (a queue's area, the
 * event table), shared, with @prot, into *@addr: 0 or -errno. munmap()
 * undoes it.
 */
int acl_kmd_mmap(int fd, uint64_t offset, size_t size, int prot, void **addr);

#endif /* ACL_KMD_H */
