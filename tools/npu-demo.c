// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-demo: the seed's data flow through libacl, step by step, as `make
 * demo` shows it: pinned host memory, H2D on a stream, a device-side
 * step (D2D copy and memset), D2H, synchronize, verify; then two streams
 * whose copies overlap, a 2-D copy, a batch copy and a peer (P2P) copy.
 * Calls that this libacl does not export yet are looked up at run time
 * and their step is skipped with a note. Exit status 0 when every step
 * that ran verified its data.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"

#define MIB (1UL << 20)
#define N (4 * MIB)
#define SET_BYTES 4096

struct demo {
	int dev, peer;
	uint8_t *h_src, *h_dst;
	void *d_a, *d_b;
	aclrtStream s1, s2;
	int failed;
};

#define CHECK(d, call)							\
	do {								\
		aclError _e = (call);					\
		if (_e) {						\
			fail(d, #call, _e);				\
			return;						\
		}							\
	} while (0)

static void fail(struct demo *d, const char *what, aclError e)
{
	const char *m = aclGetRecentErrMsg();

	printf("    FAILED: %s = %d%s%s\n", what, (int)e, m ? ": " : "", m ? m : "");
	d->failed = 1;
}

static void verify(struct demo *d, const uint8_t *got, const uint8_t *want,
		   size_t n, const char *what)
{
	size_t i;

	for (i = 0; i < n && got[i] == want[i]; i++)
		;
	if (i == n) {
		printf("    verified: %s (%zu bytes)\n", what, n);
		return;
	}
	printf("    FAILED: %s differs at byte %zu\n", what, i);
	d->failed = 1;
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1e3 + (t.tv_nsec - t0->tv_nsec) / 1e6;
}

/* The first NPU of backend "sim" (fast, several channels), else 0. */
static int pick_devices(int *peer)
{
	char path[80], buf[16];
	int i, first = -1;

	*peer = -1;
	for (i = 0; i < 64; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "/sys/class/npu_dma/npu_dma%d/backend", i);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%15s", buf) == 1 && !strcmp(buf, "sim")) {
			if (first < 0)
				first = i;
			else if (*peer < 0)
				*peer = i;
		}
		fclose(f);
	}
	return first < 0 ? 0 : first;
}

static void step_seed_flow(struct demo *d)
{
	size_t i;

	printf("[1] pinned host memory: aclrtMallocHost 2 x %lu MiB; aclrtMalloc 2 x %lu MiB on device %d\n",
	       N / MIB, N / MIB, d->dev);
	CHECK(d, aclrtMallocHost((void **)&d->h_src, N));
	CHECK(d, aclrtMallocHost((void **)&d->h_dst, N));
	CHECK(d, aclrtMalloc(&d->d_a, N, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(d, aclrtMalloc(&d->d_b, N, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(d, aclrtCreateStream(&d->s1));
	CHECK(d, aclrtCreateStream(&d->s2));
	for (i = 0; i < N; i++)
		d->h_src[i] = (uint8_t)(i * 7 + i / 4096);
	printf("[2] H2D on a stream: aclrtMemcpyAsync %lu MiB host -> device\n", N / MIB);
	CHECK(d, aclrtMemcpyAsync(d->d_a, N, d->h_src, N, ACL_MEMCPY_HOST_TO_DEVICE, d->s1));
	printf("[3] device-side step: D2D copy, then aclrtMemsetAsync of the first %d bytes to 0xab\n",
	       SET_BYTES);
	CHECK(d, aclrtMemcpyAsync(d->d_b, N, d->d_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, d->s1));
	CHECK(d, aclrtMemsetAsync(d->d_b, N, 0xab, SET_BYTES, d->s1));
	printf("[4] D2H: aclrtMemcpyAsync device -> host\n");
	CHECK(d, aclrtMemcpyAsync(d->h_dst, N, d->d_b, N, ACL_MEMCPY_DEVICE_TO_HOST, d->s1));
	printf("[5] synchronize the stream and verify\n");
	CHECK(d, aclrtSynchronizeStream(d->s1));
	memset(d->h_src, 0xab, SET_BYTES);
	verify(d, d->h_dst, d->h_src, N, "H2D -> D2D -> memset -> D2H round trip");
}

/* Four 1 MiB H2D copies on each of two streams, timed by events. */
static void step_two_streams(struct demo *d)
{
	aclrtEvent start[2], end[2];
	aclrtStream s[2] = { d->s1, d->s2 };
	void *dst[2] = { d->d_a, d->d_b };
	float ms[2];
	struct timespec t0;
	int i, k;

	printf("[6] two streams: 4 x 1 MiB H2D on each, queued together\n");
	for (i = 0; i < 2; i++) {
		CHECK(d, aclrtCreateEvent(&start[i]));
		CHECK(d, aclrtCreateEvent(&end[i]));
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 2; i++)
		CHECK(d, aclrtRecordEvent(start[i], s[i]));
	for (k = 0; k < 4; k++)
		for (i = 0; i < 2; i++)
			CHECK(d, aclrtMemcpyAsync((uint8_t *)dst[i] + k * MIB, MIB,
						  d->h_src + k * MIB, MIB,
						  ACL_MEMCPY_HOST_TO_DEVICE, s[i]));
	for (i = 0; i < 2; i++)
		CHECK(d, aclrtRecordEvent(end[i], s[i]));
	for (i = 0; i < 2; i++) {
		CHECK(d, aclrtSynchronizeStream(s[i]));
		CHECK(d, aclrtEventElapsedTime(&ms[i], start[i], end[i]));
	}
	printf("    stream 1: %.2f ms, stream 2: %.2f ms, both: %.2f ms wall (the timeline shows the overlap)\n",
	       ms[0], ms[1], ms_since(&t0));
	for (i = 0; i < 2; i++) {
		aclrtDestroyEvent(start[i]);
		aclrtDestroyEvent(end[i]);
	}
	CHECK(d, aclrtMemcpy(d->h_dst, N, d->d_b, N, ACL_MEMCPY_DEVICE_TO_HOST));
	verify(d, d->h_dst, d->h_src, N, "stream 2's copies");
}

/* A 64 x 256-byte block out of a host matrix with 1 KiB rows. */
static void step_2d(struct demo *d)
{
	__typeof__(aclrtMemcpy2d) *copy2d =
		(__typeof__(copy2d))dlsym(RTLD_DEFAULT, "aclrtMemcpy2d");
	size_t row;

	printf("[7] 2-D copy: 64 rows x 256 bytes from a host matrix of 1 KiB rows\n");
	if (!copy2d) {
		printf("    skipped: this libacl does not export aclrtMemcpy2d yet\n");
		return;
	}
	CHECK(d, copy2d(d->d_a, 256, d->h_src, 1024, 256, 64, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK(d, aclrtMemcpy(d->h_dst, N, d->d_a, 64 * 256, ACL_MEMCPY_DEVICE_TO_HOST));
	for (row = 0; row < 64; row++)
		memcpy(d->h_src + N / 2 + row * 256, d->h_src + row * 1024, 256);
	verify(d, d->h_dst, d->h_src + N / 2, 64 * 256, "2-D block");
}

/* Eight 4 KiB H2D copies in one aclrtMemcpyBatch call. */
static void step_batch(struct demo *d)
{
	__typeof__(aclrtMemcpyBatch) *batch =
		(__typeof__(batch))dlsym(RTLD_DEFAULT, "aclrtMemcpyBatch");
	void *dsts[8], *srcs[8];
	size_t max[8], sizes[8], idx = 0, fail_idx = 0;
	aclrtMemcpyBatchAttr attr;
	int i;

	printf("[8] batch copy: 8 x 4 KiB H2D in one aclrtMemcpyBatch\n");
	if (!batch) {
		printf("    skipped: this libacl does not export aclrtMemcpyBatch yet\n");
		return;
	}
	memset(&attr, 0, sizeof(attr));
	attr.dstLoc = (aclrtMemLocation){ (uint32_t)d->dev, ACL_MEM_LOCATION_TYPE_DEVICE };
	attr.srcLoc = (aclrtMemLocation){ 0, ACL_MEM_LOCATION_TYPE_HOST };
	for (i = 0; i < 8; i++) {
		/* Scattered sources, gathered into one device range. */
		srcs[i] = d->h_src + (7 - i) * 65536;
		dsts[i] = (uint8_t *)d->d_a + i * 4096;
		max[i] = sizes[i] = 4096;
	}
	CHECK(d, batch(dsts, max, srcs, sizes, 8, &attr, &idx, 1, &fail_idx));
	CHECK(d, aclrtMemcpy(d->h_dst, N, d->d_a, 8 * 4096, ACL_MEMCPY_DEVICE_TO_HOST));
	for (i = 0; i < 8; i++)
		memcpy(d->h_src + N / 2 + i * 4096, srcs[i], 4096);
	verify(d, d->h_dst, d->h_src + N / 2, 8 * 4096, "batch");
}

/* 1 MiB from this device's memory into the peer's, read back there. */
static void step_p2p(struct demo *d)
{
	__typeof__(aclrtDeviceEnablePeerAccess) *enable =
		(__typeof__(enable))dlsym(RTLD_DEFAULT, "aclrtDeviceEnablePeerAccess");
	void *p_buf = NULL;
	aclError e;

	printf("[9] P2P copy: 1 MiB device %d -> device %d\n", d->dev, d->peer);
	if (d->peer < 0) {
		printf("    skipped: no second simulated NPU\n");
		return;
	}
	if (!enable) {
		printf("    skipped: this libacl does not export aclrtDeviceEnablePeerAccess yet\n");
		return;
	}
	CHECK(d, enable(d->peer, 0));
	CHECK(d, aclrtSetDevice(d->peer));
	CHECK(d, aclrtMalloc(&p_buf, MIB, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(d, aclrtSetDevice(d->dev));
	e = aclrtMemcpy(p_buf, MIB, d->d_a, MIB, ACL_MEMCPY_DEVICE_TO_DEVICE);
	if (e) {
		printf("    skipped: the peer copy returned %d: %s\n", (int)e, aclGetRecentErrMsg());
	} else {
		CHECK(d, aclrtSetDevice(d->peer));
		CHECK(d, aclrtMemcpy(d->h_dst, N, p_buf, MIB, ACL_MEMCPY_DEVICE_TO_HOST));
		CHECK(d, aclrtMemcpy(d->h_src + N / 2, N / 2, d->d_a, MIB,
				     ACL_MEMCPY_DEVICE_TO_HOST));
		verify(d, d->h_dst, d->h_src + N / 2, MIB, "peer copy");
	}
	aclrtSetDevice(d->peer);
	aclrtFree(p_buf);
	aclrtResetDevice(d->peer);
	aclrtSetDevice(d->dev);
}

static void cleanup(struct demo *d)
{
	if (d->s2)
		aclrtDestroyStream(d->s2);
	if (d->s1)
		aclrtDestroyStream(d->s1);
	if (d->d_b)
		aclrtFree(d->d_b);
	if (d->d_a)
		aclrtFree(d->d_a);
	if (d->h_dst)
		aclrtFreeHost(d->h_dst);
	if (d->h_src)
		aclrtFreeHost(d->h_src);
	aclrtResetDevice(d->dev);
	aclFinalize();
}

int main(void)
{
	struct demo d = { 0 };
	aclError e;

	setvbuf(stdout, NULL, _IOLBF, 0);
	d.dev = pick_devices(&d.peer);
	printf("npu-demo: libacl on device %d%s\n", d.dev,
	       d.peer >= 0 ? "" : " (no peer for P2P)");
	e = aclInit(NULL);
	if (!e)
		e = aclrtSetDevice(d.dev);
	if (e) {
		fail(&d, "aclInit/aclrtSetDevice", e);
		return 1;
	}
	step_seed_flow(&d);
	if (!d.failed) {
		step_two_streams(&d);
		step_2d(&d);
		step_batch(&d);
		step_p2p(&d);
	}
	cleanup(&d);
	printf("npu-demo: %s\n", d.failed ? "FAILED" : "all steps that ran verified their data");
	return d.failed;
}
