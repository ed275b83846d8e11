// SPDX-License-Identifier: MIT
/*
 * libacl: the command layer over the driver's DRM node (see acl_kmd.h).
 *
 * Finding the NPUs: libdrm's drmGetDevices2() lists the DRM devices
 * (PCI and platform buses alike) with their render nodes; libdrm 2.4.114
 * has no node type for drivers/accel, so /dev/accel/accel* is read here.
 * The DRM minor is shared with every other DRM driver (a GPU may hold
 * renderD128), so a node is ours only if DRM_IOCTL_VERSION names our
 * driver; which NPU it is comes from GET_INFO's index, never from the
 * minor. Every ioctl goes through drmIoctl(), which restarts on EINTR
 * and EAGAIN.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <xf86drm.h>

#include "acl_kmd.h"

#define ACL_KMD_ACCEL_DIR	"/dev/accel"
#define ACL_KMD_MODULE_VERSION	"/sys/module/" NPU_DMA_DRIVER_NAME "/version"

static int acl_kmd_ioctl(int fd, unsigned long request, void *arg)
{
	int ret = drmIoctl(fd, request, arg);

	return ret < 0 ? -errno : ret;
}

/* Is @fd a node of our driver? */
static bool acl_kmd_is_ours(int fd)
{
	drmVersionPtr v = drmGetVersion(fd);
	bool ours;

	if (!v)
		return false;
	ours = v->name && !strcmp(v->name, NPU_DMA_DRIVER_NAME);
	drmFreeVersion(v);
	return ours;
}

int acl_kmd_open(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (!acl_kmd_is_ours(fd)) {
		close(fd);
		return -ENODEV;
	}
	return fd;
}

void acl_kmd_close(int fd)
{
	if (fd >= 0)
		close(fd);
}

int acl_kmd_get_info(int fd, struct npu_dma_info *info)
{
	/* size is out-only and flags must be 0: the whole struct starts clear. */
	memset(info, 0, sizeof(*info));
	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_GET_INFO, info);
}

/* The probe's result list. */
struct acl_kmd_list {
	struct acl_kmd_node *nodes;
	int max;
	int n;
};

static void acl_kmd_list_add(struct acl_kmd_list *l, const char *path,
			     bool ours, int err, const struct npu_dma_info *info)
{
	struct acl_kmd_node *node;

	if (l->n++ >= l->max)
		return;		/* counted: the caller learns it needs more */
	node = &l->nodes[l->n - 1];
	memset(node, 0, sizeof(*node));
	snprintf(node->path, sizeof(node->path), "%s", path);
	node->ours = ours;
	node->err = err;
	if (info)
		node->info = *info;
}

/* Open @path and report it if it is ours, or if it cannot be opened. */
static void acl_kmd_probe_node(struct acl_kmd_list *l, const char *path)
{
	struct npu_dma_info info;
	int fd, err;

	if (strlen(path) >= ACL_KMD_PATH_MAX)
		return;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		/* A node that went away meanwhile is not worth a word. */
		if (errno != ENOENT && errno != ENXIO && errno != ENODEV)
			acl_kmd_list_add(l, path, false, -errno, NULL);
		return;
	}
	if (acl_kmd_is_ours(fd)) {
		err = acl_kmd_get_info(fd, &info);
		acl_kmd_list_add(l, path, true, err, err ? NULL : &info);
	}
	close(fd);
}

/* The render nodes of every DRM device libdrm finds. */
static void acl_kmd_probe_drm(struct acl_kmd_list *l)
{
	drmDevicePtr *devs;
	int i, n = drmGetDevices2(0, NULL, 0);

	if (n <= 0)
		return;
	devs = calloc((size_t)n, sizeof(*devs));
	if (!devs)
		return;
	n = drmGetDevices2(0, devs, n);	/* may have shrunk meanwhile */
	for (i = 0; i < n; i++) {
		if (devs[i]->available_nodes & (1 << DRM_NODE_RENDER))
			acl_kmd_probe_node(l, devs[i]->nodes[DRM_NODE_RENDER]);
	}
	if (n > 0)
		drmFreeDevices(devs, n);
	free(devs);
}

/* /dev/accel/accelN: drivers/accel nodes, unknown to this libdrm. */
static void acl_kmd_probe_accel(struct acl_kmd_list *l)
{
	char path[ACL_KMD_PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(ACL_KMD_ACCEL_DIR);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "accel", 5) ||
		    strspn(de->d_name + 5, "0123456789") != strlen(de->d_name + 5) ||
		    !de->d_name[5])
			continue;
		if (snprintf(path, sizeof(path), ACL_KMD_ACCEL_DIR "/%s",
			     de->d_name) >= (int)sizeof(path))
			continue;
		acl_kmd_probe_node(l, path);
	}
	closedir(d);
}

int acl_kmd_probe(struct acl_kmd_node *nodes, int max)
{
	struct acl_kmd_list l = { .nodes = nodes, .max = max };

	acl_kmd_probe_drm(&l);
	acl_kmd_probe_accel(&l);
	return l.n;
}

int acl_kmd_mem_alloc(int fd, struct npu_dma_mem_alloc *a)
{
	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_MEM_ALLOC, a);
}

int acl_kmd_gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return acl_kmd_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

int acl_kmd_host_register(int fd, uint64_t addr, uint64_t size, uint32_t flags)
{
	struct npu_dma_host_register r = {
		.addr = addr, .size = size, .flags = flags,
	};

	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_HOST_REGISTER, &r);
}

int acl_kmd_host_unregister(int fd, uint64_t addr)
{
	struct npu_dma_host_unregister u = { .addr = addr };

	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_HOST_UNREGISTER, &u);
}

int acl_kmd_queue_create(int fd, struct npu_dma_queue_create *c)
{
	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, c);
}

int acl_kmd_queue_destroy(int fd, uint32_t queue_id)
{
	struct npu_dma_queue_destroy d = { .queue_id = queue_id };

	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &d);
}

int acl_kmd_queue_submit(int fd, uint32_t queue_id, uint32_t flags)
{
	struct npu_dma_queue_submit s = { .queue_id = queue_id, .flags = flags };

	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &s);
}

int acl_kmd_queue_ctl(int fd, uint32_t queue_id, uint32_t op, uint32_t value)
{
	struct npu_dma_queue_ctl c = {
		.queue_id = queue_id, .op = op, .value = value,
	};

	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_CTL, &c);
}

int acl_kmd_barrier_release(int fd, uint32_t queue_id, uint64_t seq)
{
	struct npu_dma_barrier_release b = { .queue_id = queue_id, .seq = seq };

	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_BARRIER_RELEASE, &b);
}

int acl_kmd_graph_create(int fd, struct npu_dma_graph_create *g)
{
	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_GRAPH_CREATE, g);
}

int acl_kmd_graph_destroy(int fd, uint32_t graph_id)
{
	struct npu_dma_graph_destroy d = { .graph_id = graph_id };

	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_GRAPH_DESTROY, &d);
}

int acl_kmd_ipc_export(int fd, struct npu_dma_ipc_export *x)
{
	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_EXPORT, x);
}

int acl_kmd_ipc_set_pids(int fd, const uint64_t key[2], const int32_t *pids,
			 uint32_t count)
{
	struct npu_dma_ipc_set_pids s = {
		.key = { key[0], key[1] },
		.pids = (uintptr_t)pids,
		.count = count,
	};

	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_SET_PIDS, &s);
}

int acl_kmd_ipc_import(int fd, struct npu_dma_ipc_import *m)
{
	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_IMPORT, m);
}

int acl_kmd_ipc_close(int fd, const struct npu_dma_ipc_close *c)
{
	struct npu_dma_ipc_close copy = *c;

	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_CLOSE, &copy);
}

int acl_kmd_signal_create(int fd, uint32_t *id)
{
	struct npu_dma_signal_create c = { 0 };
	int err = acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_SIGNAL_CREATE, &c);

	if (!err)
		*id = c.id;
	return err;
}

int acl_kmd_signal_destroy(int fd, uint32_t id)
{
	struct npu_dma_signal_destroy d = { .id = id };

	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_SIGNAL_DESTROY, &d);
}

int acl_kmd_signal_wait(int fd, uint32_t id, uint32_t flags,
			int64_t deadline_ns)
{
	struct npu_dma_signal_wait w = { .id = id, .flags = flags,
					 .timeout_ns = deadline_ns };

	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_SIGNAL_WAIT, &w);
}

int acl_kmd_vmm_map(int fd, uint64_t va, uint64_t size, uint64_t offset,
		    uint32_t handle)
{
	struct npu_dma_vmm_map m = { .va = va, .size = size, .offset = offset,
				     .handle = handle };

	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_VMM_MAP, &m);
}

int acl_kmd_vmm_unmap(int fd, uint64_t va)
{
	struct npu_dma_vmm_unmap u = { .va = va };

	return acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_VMM_UNMAP, &u);
}

int acl_kmd_mem_info(int fd, uint32_t handle, uint64_t *addr, uint64_t *size,
		     uint32_t *flags)
{
	struct npu_dma_mem_info mi = { .handle = handle };
	int err = acl_kmd_ioctl(fd, DRM_IOCTL_NPU_DMA_MEM_INFO, &mi);

	if (!err) {
		*addr = mi.dev_addr;
		*size = mi.size;
		if (flags)
			*flags = mi.flags;
	}
	return err;
}

int acl_kmd_mmap(int fd, uint64_t offset, size_t size, int prot, void **addr)
{
	void *p;

	/* GEM fake offsets are large, but must fit a signed off_t. */
	if (offset > (uint64_t)INT64_MAX)
		return -EINVAL;
	p = mmap(NULL, size, prot, MAP_SHARED, fd, (off_t)offset);
	if (p == MAP_FAILED)
		return -errno;
	*addr = p;
	return 0;
}

/* One line of the file at @path, without its newline, into @buf. */
static int acl_kmd_read_line(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return (int)n;
	/* A full buffer may have been cut short: never pass on a truncation. */
	if ((size_t)n >= size)
		return -ERANGE;
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return 0;
}

int acl_kmd_attr(int fd, const char *attr, char *buf, size_t size)
{
	char path[128];
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISCHR(st.st_mode) || strchr(attr, '/'))
		return -EINVAL;
	/* The node's "device" link is the bus device holding the attributes. */
	if (snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/%s",
		     major(st.st_rdev), minor(st.st_rdev), attr) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	return acl_kmd_read_line(path, buf, size);
}

int acl_kmd_driver_version(char *buf, size_t size)
{
	return acl_kmd_read_line(ACL_KMD_MODULE_VERSION, buf, size);
}
