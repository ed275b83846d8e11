/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The null ioctl the latency and submission benchmarks compare with
 * (tools/npu_null.h, shared with acl-bandwidth --latency), failing
 * loudly as the benchmarks do.
 */
#ifndef BENCH_NULL_H
#define BENCH_NULL_H

#include "bench_util.h"
#include "npu_null.h"

/* The DRM node of device @dev, opened, its null ioctl checked; exits on failure. */
static inline int bench_null_open(const char *prog, int dev)
{
	char node[NPU_NULL_NODE_LEN];
	int fd = npu_null_open(dev, node);

	if (fd < 0) {
		fprintf(stderr, "%s: null ioctl on device %d (%s): %s\n", prog,
			dev, node[0] ? node : "no NPU", strerror(-fd));
		exit(1);
	}
	return fd;
}

/* One null ioctl; it must fail, being no command. */
static inline void bench_null_ioctl(int fd)
{
	if (npu_null_ioctl(fd))
		exit(1);
}

#endif /* BENCH_NULL_H */
