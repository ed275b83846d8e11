/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The null ioctl the latency and submission benchmarks compare with:
 * DRM_IO(DRM_COMMAND_END - 1) on the NPU's DRM node, a driver ioctl
 * number past the driver's table, which drm_ioctl() rejects with -EINVAL
 * after its table lookup (bench_submit.c says what that path covers).
 */
#ifndef BENCH_NULL_H
#define BENCH_NULL_H

#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm/npu_dma_accel.h>

#include "bench_util.h"

#define BENCH_NULL_IOCTL	DRM_IO(DRM_COMMAND_END - 1)

/* The DRM node of device @dev, opened, its null ioctl checked; exits on failure. */
static inline int bench_null_open(const char *prog, int dev)
{
	struct npu_node n;
	int fd;

	if (bench_npu(dev, &n)) {
		fprintf(stderr, "%s: no NPU for device %d\n", prog, dev);
		exit(1);
	}
	fd = open(n.node, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror(n.node);
		exit(1);
	}
	if (ioctl(fd, BENCH_NULL_IOCTL, 0) == 0 || errno != EINVAL) {
		fprintf(stderr, "%s: null ioctl on %s: %s, not EINVAL\n", prog,
			n.node, strerror(errno));
		exit(1);
	}
	return fd;
}

/* One null ioctl; it must fail, being no command. */
static inline void bench_null_ioctl(int fd)
{
	if (ioctl(fd, BENCH_NULL_IOCTL, 0) == 0)
		exit(1);
}

#endif /* BENCH_NULL_H */
