/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The null ioctl that latencies are stated against (bench_submit,
 * bench_latency, acl-bandwidth --latency): DRM_IO(DRM_COMMAND_END - 1)
 * on the NPU's DRM node, a driver ioctl number past the driver's table,
 * which drm_ioctl() rejects with -EINVAL after its table lookup
 * (bench/bench_submit.c says what that path covers).
 * Header only: each user compiles in tools/npu_node.c as well, and
 * needs libdrm's include directory for "drm.h".
 */
#ifndef NPU_NULL_H
#define NPU_NULL_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm/npu_dma_accel.h>

#include "npu_attr.h"

#define NPU_NULL_IOCTL	DRM_IO(DRM_COMMAND_END - 1)

/* One null ioctl. Return: 0 when it failed with EINVAL, as it must. */
static inline int npu_null_ioctl(int fd)
{
	if (ioctl(fd, NPU_NULL_IOCTL, 0) == 0)
		return -EPROTO;
	return errno == EINVAL ? 0 : -errno;
}

/*
 * Open the DRM node of the NPU at position @pos in index order (libacl's
 * device @pos, unless ASCEND_RT_VISIBLE_DEVICES renumbers them) and try
 * its null ioctl once. @node (NPU_NULL_NODE_LEN bytes) gets the node's
 * path for messages. Return: the fd, or -errno.
 */
#define NPU_NULL_NODE_LEN 64
static inline int npu_null_open(int pos, char *node)
{
	struct npu_node *nodes;
	int count, fd, ret;

	node[0] = '\0';
	if (pos < 0 || pos >= NPU_ATTR_MAX_NPUS)
		return -ENODEV;
	nodes = calloc(NPU_ATTR_MAX_NPUS, sizeof(*nodes));
	if (!nodes)
		return -ENOMEM;
	count = npu_node_list("/sys", nodes, NPU_ATTR_MAX_NPUS);
	if (pos < count)
		snprintf(node, NPU_NULL_NODE_LEN, "%s", nodes[pos].node);
	free(nodes);
	if (!node[0])
		return -ENODEV;
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = npu_null_ioctl(fd);
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

#endif /* NPU_NULL_H */
