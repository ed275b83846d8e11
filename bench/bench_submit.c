// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_submit: CPU cost of submission against the guest's null ioctl,
 * in one run (issue 10):
 *  - aclrtMemcpyAsync of 4 KiB pinned memory while the stream is busy
 *    (a long copy ahead of it): target <= 1x a null ioctl per call, i.e.
 *    no system call per copy while the engine works;
 *  - aclrtRecordEvent + aclrtQueryEventStatus: target <= 1x.
 * The null ioctl is an unknown command on an open /dev/npu_dmaN (the
 * kernel's cheapest round trip through the driver).
 *
 *   bench_submit [-d dev] [-n calls] [-j]
 */
#include <fcntl.h>
#include <getopt.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/npu_dma.h>

#include "bench_util.h"

#define NULL_IOCTL	_IO(NPU_DMA_IOC_MAGIC, 0x7f)

struct opts {
	int dev;
	int calls;
	int json;
};

/* Seconds per null ioctl, median of 5 rounds of @calls. */
static double null_ioctl_cost(int dev, int calls)
{
	double v[5];
	char path[64];
	int fd, r, i;

	snprintf(path, sizeof(path), "/dev/npu_dma%d", dev);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	for (r = 0; r < 5; r++) {
		double t = bench_now();

		for (i = 0; i < calls; i++)
			if (ioctl(fd, NULL_IOCTL, 0) == 0)
				exit(1);	/* must fail: it is no command */
		v[r] = (bench_now() - t) / calls;
	}
	close(fd);
	return bench_median(v, 5);
}

/* Seconds per aclrtMemcpyAsync (4 KiB, pinned) behind a long copy. */
static double async_copy_cost(int calls)
{
	size_t big = 256 << 20;
	void *dbig, *dbig2, *dsmall, *host;
	aclrtStream s;
	double v[5];
	int r, i;

	BENCH_ACL(aclrtMalloc(&dbig, big, ACL_MEM_MALLOC_HUGE_FIRST));
	BENCH_ACL(aclrtMalloc(&dbig2, big, ACL_MEM_MALLOC_HUGE_FIRST));
	BENCH_ACL(aclrtMalloc(&dsmall, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	BENCH_ACL(aclrtMallocHost(&host, 4096));
	BENCH_ACL(aclrtCreateStream(&s));
	memset(host, 1, 4096);
	for (r = 0; r < 5; r++) {
		double t;

		/* Keep the engine busy for longer than the calls take. */
		BENCH_ACL(aclrtMemcpyAsync(dbig2, big, dbig, big,
					   ACL_MEMCPY_DEVICE_TO_DEVICE, s));
		t = bench_now();
		for (i = 0; i < calls; i++)
			BENCH_ACL(aclrtMemcpyAsync(dsmall, 4096, host, 4096,
						   ACL_MEMCPY_HOST_TO_DEVICE, s));
		v[r] = (bench_now() - t) / calls;
		BENCH_ACL(aclrtSynchronizeStream(s));
	}
	BENCH_ACL(aclrtDestroyStream(s));
	BENCH_ACL(aclrtFreeHost(host));
	BENCH_ACL(aclrtFree(dsmall));
	BENCH_ACL(aclrtFree(dbig2));
	BENCH_ACL(aclrtFree(dbig));
	return bench_median(v, 5);
}

/* Seconds per aclrtRecordEvent + aclrtQueryEventStatus pair. */
static double event_cost(int calls)
{
	aclrtEventRecordedStatus st;
	aclrtStream s;
	aclrtEvent e;
	double v[5];
	int r, i;

	BENCH_ACL(aclrtCreateStream(&s));
	BENCH_ACL(aclrtCreateEvent(&e));
	for (r = 0; r < 5; r++) {
		double t = bench_now();

		for (i = 0; i < calls; i++) {
			BENCH_ACL(aclrtRecordEvent(e, s));
			BENCH_ACL(aclrtQueryEventStatus(e, &st));
		}
		v[r] = (bench_now() - t) / calls;
		BENCH_ACL(aclrtSynchronizeStream(s));
	}
	BENCH_ACL(aclrtDestroyEvent(e));
	BENCH_ACL(aclrtDestroyStream(s));
	return bench_median(v, 5);
}

static void usage(int status)
{
	printf("usage: bench_submit [-d dev] [-n calls] [-j]\n"
	       "  Per-call CPU cost of aclrtMemcpyAsync (4 KiB pinned, stream busy)\n"
	       "  and of aclrtRecordEvent + aclrtQueryEventStatus, as ratios to a null\n"
	       "  ioctl on the same NPU (default: the first sim NPU, 500 calls).\n");
	exit(status);
}

int main(int argc, char **argv)
{
	struct opts o = { .dev = -1, .calls = 500 };
	double nul, cp, ev;
	int c;

	while ((c = getopt(argc, argv, "d:n:jh")) != -1) {
		if (c == 'd')
			o.dev = atoi(optarg);
		else if (c == 'n')
			o.calls = atoi(optarg);
		else if (c == 'j')
			o.json = 1;
		else
			usage(c == 'h' ? 0 : 2);
	}
	/* The ring holds 1024 descriptors: stay below, so no doorbell is forced. */
	if (o.calls < 1 || o.calls > 1000)
		usage(2);
	if (o.dev < 0)
		o.dev = bench_first_sim("bench_submit");
	BENCH_ACL(aclInit(NULL));
	BENCH_ACL(aclrtSetDevice(o.dev));
	nul = null_ioctl_cost(o.dev, o.calls);
	cp = async_copy_cost(o.calls);
	ev = event_cost(o.calls);
	if (o.json)
		printf("{\"null_ioctl_us\": %.3f, \"memcpy_async_us\": %.3f, "
		       "\"memcpy_async_ratio\": %.2f, \"event_us\": %.3f, "
		       "\"event_ratio\": %.2f, \"target\": 1.0}\n", nul * 1e6,
		       cp * 1e6, cp / nul, ev * 1e6, ev / nul);
	else
		printf("%-40s %10s %8s  %s\n"
		       "%-40s %7.2f us %8s\n"
		       "%-40s %7.2f us %7.2fx  <=1 %s\n"
		       "%-40s %7.2f us %7.2fx  <=1 %s\n",
		       "per call", "cost", "ratio", "target",
		       "null ioctl", nul * 1e6, "1.00x",
		       "aclrtMemcpyAsync 4 KiB pinned, busy", cp * 1e6, cp / nul,
		       cp <= nul ? "ok" : "MISS",
		       "aclrtRecordEvent + QueryEventStatus", ev * 1e6, ev / nul,
		       ev <= nul ? "ok" : "MISS");
	BENCH_ACL(aclrtResetDevice(o.dev));
	BENCH_ACL(aclFinalize());
	return 0;
}
