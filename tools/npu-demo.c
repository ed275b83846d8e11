// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-demo: the seed's data flow through libacl, step by step, as `make
 * demo` shows it: pinned host memory, H2D on a stream, a device-side
 * step (D2D copy and memset), D2H, synchronize, verify; then two streams
 * whose copies overlap, a 2-D copy, a batch copy, a peer (P2P) copy, and
 * a device buffer shared with a second process by CANN's IPC memory calls
 * (that process is this program again, exec'd as "npu-demo --ipc-import
 * DEVICE KEY LEN SEED"). Exit status 0 when every step verified its data;
 * 1, naming the steps, when any failed. The one step that may be skipped
 * is the P2P copy, and only when no two NPUs of this machine are peers.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "npu_attr.h"

#define MIB (1UL << 20)
#define N (4 * MIB)
#define SET_BYTES 4096

struct demo {
	int dev;
	uint8_t *h_src, *h_dst;
	void *d_a, *d_b;
	aclrtStream s1, s2;
	int step;		/* the step running, for the summary */
	unsigned int failed;	/* bit n: step n failed */
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
	d->failed |= 1U << d->step;
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
	d->failed |= 1U << d->step;
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1e3 + (t.tv_nsec - t0->tv_nsec) / 1e6;
}

/* Number and announce step @n: a failure from here on is charged to it. */
static void step(struct demo *d, int n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void step(struct demo *d, int n, const char *fmt, ...)
{
	va_list ap;

	d->step = n;
	printf("[%d] ", n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/*
 * Whether libacl's device @i has backend @name: libacl numbers the NPUs
 * in index order, as sysfs lists them.
 */
static bool is_backend(int i, const char *name)
{
	char buf[16];

	return !npu_attr_nth(i, "backend", buf, sizeof(buf)) &&
	       !strcmp(buf, name);
}

/* The first NPU of backend "sim" (fast, several channels), else 0. */
static int pick_device(void)
{
	int i;

	for (i = 0; i < NPU_ATTR_MAX_NPUS; i++)
		if (is_backend(i, "sim"))
			return i;
	return 0;
}

static void step_seed_flow(struct demo *d)
{
	size_t i;

	step(d, 1, "pinned host memory: aclrtMallocHost 2 x %lu MiB; aclrtMalloc 2 x %lu MiB on device %d",
	     N / MIB, N / MIB, d->dev);
	CHECK(d, aclrtMallocHost((void **)&d->h_src, N));
	CHECK(d, aclrtMallocHost((void **)&d->h_dst, N));
	CHECK(d, aclrtMalloc(&d->d_a, N, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(d, aclrtMalloc(&d->d_b, N, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(d, aclrtCreateStream(&d->s1));
	CHECK(d, aclrtCreateStream(&d->s2));
	for (i = 0; i < N; i++)
		d->h_src[i] = (uint8_t)(i * 7 + i / 4096);
	step(d, 2, "H2D on a stream: aclrtMemcpyAsync %lu MiB host -> device", N / MIB);
	CHECK(d, aclrtMemcpyAsync(d->d_a, N, d->h_src, N, ACL_MEMCPY_HOST_TO_DEVICE, d->s1));
	step(d, 3, "device-side step: D2D copy, then aclrtMemsetAsync of the first %d bytes to 0xab",
	     SET_BYTES);
	CHECK(d, aclrtMemcpyAsync(d->d_b, N, d->d_a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, d->s1));
	CHECK(d, aclrtMemsetAsync(d->d_b, N, 0xab, SET_BYTES, d->s1));
	step(d, 4, "D2H: aclrtMemcpyAsync device -> host");
	CHECK(d, aclrtMemcpyAsync(d->h_dst, N, d->d_b, N, ACL_MEMCPY_DEVICE_TO_HOST, d->s1));
	step(d, 5, "synchronize the stream and verify");
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

	step(d, 6, "two streams: 4 x 1 MiB H2D on each, queued together");
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
	size_t row;

	step(d, 7, "2-D copy: 64 rows x 256 bytes from a host matrix of 1 KiB rows");
	CHECK(d, aclrtMemcpy2d(d->d_a, 256, d->h_src, 1024, 256, 64,
			       ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK(d, aclrtMemcpy(d->h_dst, N, d->d_a, 64 * 256, ACL_MEMCPY_DEVICE_TO_HOST));
	for (row = 0; row < 64; row++)
		memcpy(d->h_src + N / 2 + row * 256, d->h_src + row * 1024, 256);
	verify(d, d->h_dst, d->h_src + N / 2, 64 * 256, "2-D block");
}

/* Eight 4 KiB H2D copies in one aclrtMemcpyBatch call. */
static void step_batch(struct demo *d)
{
	void *dsts[8], *srcs[8];
	size_t max[8], sizes[8], idx = 0, fail_idx = 0;
	aclrtMemcpyBatchAttr attr;
	int i;

	step(d, 8, "batch copy: 8 x 4 KiB H2D in one aclrtMemcpyBatch");
	memset(&attr, 0, sizeof(attr));
	attr.dstLoc = (aclrtMemLocation){ (uint32_t)d->dev, ACL_MEM_LOCATION_TYPE_DEVICE };
	attr.srcLoc = (aclrtMemLocation){ 0, ACL_MEM_LOCATION_TYPE_HOST };
	for (i = 0; i < 8; i++) {
		/* Scattered sources, gathered into one device range. */
		srcs[i] = d->h_src + (7 - i) * 65536;
		dsts[i] = (uint8_t *)d->d_a + i * 4096;
		max[i] = sizes[i] = 4096;
	}
	CHECK(d, aclrtMemcpyBatch(dsts, max, srcs, sizes, 8, &attr, &idx, 1, &fail_idx));
	CHECK(d, aclrtMemcpy(d->h_dst, N, d->d_a, 8 * 4096, ACL_MEMCPY_DEVICE_TO_HOST));
	for (i = 0; i < 8; i++)
		memcpy(d->h_src + N / 2 + i * 4096, srcs[i], 4096);
	verify(d, d->h_dst, d->h_src + N / 2, 8 * 4096, "batch");
}

/*
 * Two NPUs that are peers, @a doing the copy: the demo's device and a
 * peer of it if it has one, else the first pair found.
 * Return: 1 with the pair, 0 when no two NPUs are peers, -1 on error.
 */
static int pick_peers(struct demo *d, int *a, int *b)
{
	uint32_t n = 0;
	aclError e;
	int i, j, can;

	e = aclrtGetDeviceCount(&n);
	if (e) {
		fail(d, "aclrtGetDeviceCount", e);
		return -1;
	}
	for (j = 0; j < (int)n; j++)
		if (j != d->dev && !aclrtDeviceCanAccessPeer(&can, d->dev, j) && can) {
			*a = d->dev;
			*b = j;
			return 1;
		}
	for (i = 0; i < (int)n; i++)
		for (j = 0; j < (int)n; j++)
			if (i != j && !aclrtDeviceCanAccessPeer(&can, i, j) && can) {
				*a = i;
				*b = j;
				return 1;
			}
	return 0;
}

/* Device memory for the P2P step, on NPU @dev, left current. */
static void *p2p_alloc(struct demo *d, int dev, size_t len)
{
	void *p = NULL;
	aclError e = aclrtSetDevice(dev);

	if (!e)
		e = aclrtMalloc(&p, len, ACL_MEM_MALLOC_HUGE_FIRST_P2P);
	if (e) {
		fail(d, "aclrtSetDevice/aclrtMalloc for the P2P copy", e);
		return NULL;
	}
	return p;
}

/* @a's engine copies from @a's memory into @b's; read back from @b. */
static void p2p_copy(struct demo *d, int a, int b, void *pa, void *pb, size_t len)
{
	CHECK(d, aclrtSetDevice(a));
	CHECK(d, aclrtMemcpy(pa, len, d->h_src, len, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK(d, aclrtDeviceEnablePeerAccess(b, 0));
	CHECK(d, aclrtMemcpy(pb, len, pa, len, ACL_MEMCPY_DEVICE_TO_DEVICE));
	CHECK(d, aclrtSetDevice(b));
	CHECK(d, aclrtMemcpy(d->h_dst, N, pb, len, ACL_MEMCPY_DEVICE_TO_HOST));
	verify(d, d->h_dst, d->h_src, len, "peer copy");
	aclrtSetDevice(a);
	aclrtDeviceDisablePeerAccess(b);
}

static void step_p2p(struct demo *d)
{
	void *pa = NULL, *pb = NULL;
	size_t len;
	int a, b, ret;

	step(d, 9, "P2P copy between two peer NPUs");
	ret = pick_peers(d, &a, &b);
	if (ret <= 0) {
		if (!ret)
			printf("    skipped: no two NPUs of this machine are peers (see npu-smi info -t topo)\n");
		return;
	}
	/* edu moves about 20 KiB/s: a page is enough to show the path. */
	len = is_backend(a, "edu") || is_backend(b, "edu") ? 4096 : MIB;
	printf("    %zu KiB from device %d's memory to device %d's, by device %d\n",
	       len >> 10, a, b, a);
	pa = p2p_alloc(d, a, len);
	if (pa)
		pb = p2p_alloc(d, b, len);
	if (pb)
		p2p_copy(d, a, b, pa, pb, len);
	if (pb && !aclrtSetDevice(b))
		aclrtFree(pb);
	if (pa && !aclrtSetDevice(a))
		aclrtFree(pa);
	if (a != d->dev)
		aclrtResetDevice(a);
	if (b != d->dev)
		aclrtResetDevice(b);
	aclrtSetDevice(d->dev);
}

/* The bytes of IPC seed @seed: A's are @seed, B's @seed + 1. */
static void ipc_pattern(uint8_t *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 31 + seed + (i >> 12));
}

/* Does device memory @dev hold IPC seed @seed? 1 if so, 0 if not, -1 on error. */
static int ipc_holds(void *dev, size_t len, unsigned int seed)
{
	uint8_t *got = malloc(len), *want = malloc(len);
	int ret = -1;

	if (got && want && !aclrtMemcpy(got, len, dev, len, ACL_MEMCPY_DEVICE_TO_HOST)) {
		ipc_pattern(want, len, seed);
		ret = !memcmp(got, want, len);
	}
	free(got);
	free(want);
	return ret;
}

static aclError ipc_put(void *dev, size_t len, unsigned int seed)
{
	uint8_t *p = malloc(len);
	aclError e = ACL_ERROR_BAD_ALLOC;

	if (p) {
		ipc_pattern(p, len, seed);
		e = aclrtMemcpy(dev, len, p, len, ACL_MEMCPY_HOST_TO_DEVICE);
	}
	free(p);
	return e;
}

/*
 * Process B of step 10, exec'd by A: import A's buffer by its key,
 * check A's bytes, write its own, close the import. An exit status.
 */
static int ipc_importer(int dev, const char *key, size_t len, unsigned int seed)
{
	void *p = NULL;
	int32_t me = 0;
	aclError e;

	setvbuf(stdout, NULL, _IOLBF, 0);
	e = aclInit(NULL);
	if (!e)
		e = aclrtSetDevice(dev);
	if (!e)
		e = aclrtDeviceGetBareTgid(&me);
	if (!e)
		e = aclrtIpcMemImportByKey(&p, key, ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT);
	if (e) {
		printf("    B: FAILED: import of key %s = %d: %s\n", key, (int)e,
		       aclGetRecentErrMsg());
		return 1;
	}
	printf("    B (pid %d): aclrtIpcMemImportByKey -> %p, B's pointer to A's buffer\n", me, p);
	if (ipc_holds(p, len, seed) != 1) {
		printf("    B: FAILED: the imported buffer does not hold A's bytes\n");
		return 1;
	}
	printf("    B: verified: A's bytes (%zu bytes); writing B's own and closing the import\n",
	       len);
	if (ipc_put(p, len, seed + 1) || aclrtIpcMemClose(key)) {
		printf("    B: FAILED: write or aclrtIpcMemClose: %s\n", aclGetRecentErrMsg());
		return 1;
	}
	aclrtResetDevice(dev);
	return aclFinalize() ? 1 : 0;
}

/* Fork B, which waits for @go, then execs this program in B's role. */
static pid_t ipc_spawn(int dev, const char *key, size_t len, unsigned int seed, int go[2])
{
	char d[16], l[32], s[16], c;
	pid_t pid = fork();

	if (pid)
		return pid;
	close(go[1]);
	if (read(go[0], &c, 1) != 1)
		_exit(9);
	snprintf(d, sizeof(d), "%d", dev);
	snprintf(l, sizeof(l), "%zu", len);
	snprintf(s, sizeof(s), "%u", seed);
	execl("/proc/self/exe", "npu-demo", "--ipc-import", d, key, l, s, (char *)NULL);
	_exit(8);
}

/*
 * A device buffer shared with another process: A (this one) allocates
 * and fills it, exports a key whose pid list names B, B (a new program
 * image) imports it, checks A's bytes, writes its own and closes; A
 * sees B's bytes.
 */
static void step_ipc(struct demo *d)
{
	size_t len = is_backend(d->dev, "edu") ? 4096 : MIB;
	char key[72] = "";
	void *mem = NULL;
	int go[2], st = -1;
	int32_t pid32;
	aclError e;
	pid_t pid;

	step(d, 10, "IPC memory: a device buffer shared with another process by key");
	CHECK(d, aclrtMalloc(&mem, len, ACL_MEM_MALLOC_HUGE_FIRST));
	e = ipc_put(mem, len, 10);
	if (!e)
		e = aclrtIpcMemGetExportKey(mem, len, key, sizeof(key),
					    ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT);
	if (e) {
		fail(d, "fill or aclrtIpcMemGetExportKey", e);
		goto out;
	}
	printf("    A (pid %d): aclrtMalloc %zu KiB at %p, filled; aclrtIpcMemGetExportKey -> \"%s\"\n",
	       (int)getpid(), len >> 10, mem, key);
	if (pipe(go))
		goto out;
	pid = ipc_spawn(d->dev, key, len, 10, go);
	close(go[0]);
	pid32 = pid;
	e = pid < 0 ? ACL_ERROR_FAILURE : aclrtIpcMemSetImportPid(key, &pid32, 1);
	if (e) {
		fail(d, "fork or aclrtIpcMemSetImportPid", e);
		close(go[1]);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		goto out;
	}
	printf("    A: aclrtIpcMemSetImportPid(key, [%d]): only B may import; B is fork+exec of npu-demo --ipc-import\n",
	       (int)pid);
	if (write(go[1], "g", 1) != 1)
		printf("    A: B is gone\n");
	close(go[1]);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		printf("    FAILED: B's status %#x\n", st);
		d->failed |= 1U << d->step;
		goto out;
	}
	if (ipc_holds(mem, len, 11) != 1) {
		printf("    FAILED: A does not see B's bytes\n");
		d->failed |= 1U << d->step;
		goto out;
	}
	printf("    verified: A reads the bytes B wrote (%zu bytes); A revokes the key (aclrtIpcMemClose)\n",
	       len);
	e = aclrtIpcMemClose(key);
	if (e)
		fail(d, "aclrtIpcMemClose", e);
out:
	aclrtFree(mem);
}

/* "1, 7" for the failed steps' bits. */
static void print_steps(unsigned int mask)
{
	const char *sep = "";
	int n;

	for (n = 0; n < 32; n++)
		if (mask & (1U << n)) {
			printf("%s%d", sep, n);
			sep = ", ";
		}
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

int main(int argc, char **argv)
{
	struct demo d = { 0 };
	aclError e;

	if (argc == 6 && !strcmp(argv[1], "--ipc-import"))
		return ipc_importer(atoi(argv[2]), argv[3], strtoul(argv[4], NULL, 10),
				    (unsigned int)atoi(argv[5]));
	setvbuf(stdout, NULL, _IOLBF, 0);
	d.dev = pick_device();
	printf("npu-demo: libacl on device %d\n", d.dev);
	e = aclInit(NULL);
	if (!e)
		e = aclrtSetDevice(d.dev);
	if (e) {
		fail(&d, "aclInit/aclrtSetDevice", e);
		printf("npu-demo: FAILED before step 1\n");
		return 1;
	}
	step_seed_flow(&d);
	if (!d.failed) {
		step_two_streams(&d);
		step_2d(&d);
		step_batch(&d);
		step_p2p(&d);
		step_ipc(&d);
	}
	cleanup(&d);
	if (!d.failed) {
		printf("npu-demo: every step verified its data\n");
		return 0;
	}
	printf("npu-demo: FAILED in step ");
	print_steps(d.failed);
	printf("%s\n", d.failed & 0x3e ? " (later steps not run)" : "");
	return 1;
}
