// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: CANN's virtual memory management through libacl, on sim NPUs
 * (and an edu NPU for the basic path).
 *
 * - Two physical allocations mapped side by side in one reserved range:
 *   1-D, 2-D, batch, memset, async, captured-and-replayed and peer copies
 *   across the seam are byte-exact.
 * - A range that is unmapped, released or never mapped is refused; a
 *   physical allocation freed while mapped lives until the unmap.
 * - Queries: granularity, address ranges, retained handles, properties,
 *   access.
 * - Shareable handles between processes (V1 and V2, default and fabric),
 *   with and without the pid list, and the errors; on edu and sim, to an
 *   importer exec'd by us and to one started apart (a daemon).
 * Every test ends with pins, memory, queues and files as they began.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_acl.h"
#include "t_apart.h"
#include "t_state.h"

#define GRAN	(2UL << 20)

static struct t_state start;

static void setup(void)
{
	struct npu_dma_info infos[8];

	t_state_get(&start, t_find_npus(infos, 8));
	T_ACL_OK(aclInit(NULL));
}

static void teardown(void)
{
	uint32_t n = 0, i;

	aclrtGetDeviceCount(&n);
	for (i = 0; i < n; i++)
		aclrtResetDevice((int32_t)i);
	T_ACL_OK(aclFinalize());
	ck_assert_msg(t_state_back(&start), "pins, memory, queues or files leaked");
}

static void pattern(unsigned char *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 37 + seed + (i >> 11));
}

static aclrtPhysicalMemProp prop_of(int dev)
{
	aclrtPhysicalMemProp p = { 0 };

	p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
	p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p.memAttr = ACL_HBM_MEM_HUGE;
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = (uint32_t)dev;
	return p;
}

/* Two granules of physical memory mapped at @va: one range, two handles. */
static void map_two(int dev, void **va, aclrtDrvMemHandle h[2])
{
	aclrtPhysicalMemProp prop = prop_of(dev);

	T_ACL_OK(aclrtMallocPhysical(&h[0], GRAN, &prop, 0));
	T_ACL_OK(aclrtMallocPhysical(&h[1], GRAN, &prop, 0));
	T_ACL_OK(aclrtReserveMemAddress(va, 2 * GRAN, 0, NULL, 0));
	T_ACL_OK(aclrtMapMem(*va, GRAN, 0, h[0], 0));
	T_ACL_OK(aclrtMapMem((char *)*va + GRAN, GRAN, 0, h[1], 0));
}

static void unmap_two(void *va, aclrtDrvMemHandle h[2])
{
	T_ACL_OK(aclrtUnmapMem(va));
	T_ACL_OK(aclrtUnmapMem((char *)va + GRAN));
	T_ACL_OK(aclrtFreePhysical(h[0]));
	T_ACL_OK(aclrtFreePhysical(h[1]));
	T_ACL_OK(aclrtReleaseMemAddress(va));
}

/* Copies of every kind across the seam between two physical allocations. */
START_TEST(test_copies_across_the_seam)
{
	int dev = t_acl_find("sim");
	size_t len = 2 * GRAN, off = GRAN - 8192, n = 16384, i;
	unsigned char *in = malloc(len), *out = malloc(len);
	aclrtDrvMemHandle h[2];
	aclrtStream s;
	aclmdlRI ri;
	void *va, *mid;

	T_SKIP_UNLESS(dev >= 0, "no sim NPU");
	T_ACL_OK(aclrtSetDevice(dev));
	map_two(dev, &va, h);
	mid = (char *)va + off;
	/* 1-D, synchronous, the whole range both ways. */
	pattern(in, len, 1);
	T_ACL_OK(aclrtMemcpy(va, len, in, len, ACL_MEMCPY_HOST_TO_DEVICE));
	memset(out, 0, len);
	T_ACL_OK(aclrtMemcpy(out, len, va, len, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_int_eq(memcmp(in, out, len), 0);
	/* memset across the seam. */
	T_ACL_OK(aclrtMemset(mid, n, 0x3c, n));
	memset(in + off, 0x3c, n);
	/* 2-D: 100-byte rows every 1000 bytes, across it. */
	memset(out, 0, len);
	T_ACL_OK(aclrtMemcpy2d(out, 100, mid, 1000, 100, n / 1000,
			       ACL_MEMCPY_DEVICE_TO_HOST));
	for (i = 0; i < n / 1000; i++)
		ck_assert_int_eq(memcmp(out + i * 100, in + off + i * 1000, 100), 0);
	/* Batch: host to the range, one copy across the seam. */
	{
		void *dsts[2] = { va, mid };
		void *srcs[2] = { out, out + n };
		size_t sizes[2] = { n, n }, max[2] = { n, n }, idx = 0, fail = 0;
		aclrtMemcpyBatchAttr attr = { 0 };

		pattern(out, 2 * n, 3);
		attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
		attr.dstLoc.id = (uint32_t)dev;
		attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
		T_ACL_OK(aclrtMemcpyBatch(dsts, max, srcs, sizes, 2, &attr, &idx, 1, &fail));
		memcpy(in, out, n);
		memcpy(in + off, out + n, n);
	}
	/* Async, then captured and replayed twice, into pinned memory. */
	free(out);
	T_ACL_OK(aclrtMallocHost((void **)&out, len));
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	T_ACL_OK(aclrtMemcpyAsync(out, len, va, len, ACL_MEMCPY_DEVICE_TO_HOST, s));
	T_ACL_OK(aclmdlRICaptureEnd(s, &ri));
	for (i = 0; i < 2; i++) {
		memset(out, 0, len);
		T_ACL_OK(aclmdlRIExecuteAsync(ri, s));
		T_ACL_OK(aclrtSynchronizeStream(s));
		ck_assert_int_eq(memcmp(in, out, len), 0);
	}
	T_ACL_OK(aclmdlRIDestroy(ri));
	T_ACL_OK(aclrtDestroyStream(s));
	unmap_two(va, h);
	free(in);
	T_ACL_OK(aclrtFreeHost(out));
}
END_TEST

/* A peer NPU copies out of the range once given access. */
START_TEST(test_peer_access)
{
	int a = t_acl_find("sim"), b, can = 0;
	unsigned char *in = malloc(GRAN), *out = malloc(GRAN);
	aclrtMemAccessDesc desc = { 0 };
	aclrtMemLocation loc = { 0 };
	aclrtDrvMemHandle h[2];
	uint64_t flag = 9;
	void *va, *local;

	T_SKIP_UNLESS(a >= 0, "no sim NPU");
	b = a + 1;
	T_SKIP_UNLESS(!aclrtDeviceCanAccessPeer(&can, b, a) && can, "no sim peer");
	T_ACL_OK(aclrtSetDevice(a));
	map_two(a, &va, h);
	pattern(in, GRAN, 5);
	T_ACL_OK(aclrtMemcpy((char *)va + GRAN / 2, GRAN, in, GRAN,
			     ACL_MEMCPY_HOST_TO_DEVICE));
	loc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	loc.id = (uint32_t)b;
	T_ACL_OK(aclrtMemGetAccess(va, &loc, &flag));
	ck_assert_uint_eq(flag, ACL_RT_MEM_ACCESS_FLAGS_NONE);
	desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
	desc.location = loc;
	T_ACL_OK(aclrtMemSetAccess(va, 2 * GRAN, &desc, 1));
	T_ACL_OK(aclrtMemGetAccess(va, &loc, &flag));
	ck_assert_uint_eq(flag, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
	T_ACL_OK(aclrtSetDevice(b));
	T_ACL_OK(aclrtMalloc(&local, GRAN, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMemcpy(local, GRAN, (char *)va + GRAN / 2, GRAN,
			     ACL_MEMCPY_DEVICE_TO_DEVICE));
	T_ACL_OK(aclrtMemcpy(out, GRAN, local, GRAN, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_int_eq(memcmp(in, out, GRAN), 0);
	T_ACL_OK(aclrtFree(local));
	desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
	T_ACL_EQ(aclrtMemSetAccess(va, GRAN, &desc, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	T_ACL_OK(aclrtSetDevice(a));
	unmap_two(va, h);
	free(in);
	free(out);
}
END_TEST

/* Unmapped, released, never mapped: refused; freed while mapped: alive. */
START_TEST(test_lifetimes)
{
	int dev = _i ? t_acl_find("sim") : t_acl_find("edu");
	aclrtPhysicalMemProp prop;
	aclrtDrvMemHandle h, h2 = NULL;
	unsigned char buf[4096], want[4096];
	void *va, *base = NULL;
	size_t size = 0;

	T_SKIP_UNLESS(dev >= 0, "no such NPU");
	T_ACL_OK(aclrtSetDevice(dev));
	prop = prop_of(dev);
	T_ACL_OK(aclrtMallocPhysical(&h, GRAN, &prop, 0));
	T_ACL_OK(aclrtReserveMemAddress(&va, 2 * GRAN, 0, NULL, 0));
	/* Reserved but not mapped. */
	T_ACL_EQ(aclrtMemcpy(buf, 1, va, 1, ACL_MEMCPY_DEVICE_TO_HOST),
		 ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclrtMapMem(va, GRAN, 0, h, 0));
	/* Queries. */
	T_ACL_OK(aclrtMemGetAddressRange((char *)va + 100, &base, &size));
	ck_assert_ptr_eq(base, va);
	ck_assert_uint_eq(size, GRAN);
	T_ACL_OK(aclrtMemRetainAllocationHandle((char *)va + 5, &h2));
	ck_assert_ptr_eq(h2, h);
	T_ACL_OK(aclrtFreePhysical(h2));
	memset(&prop, 0, sizeof(prop));
	T_ACL_OK(aclrtMemGetAllocationPropertiesFromHandle(h, &prop));
	ck_assert_int_eq(prop.location.id, dev);
	ck_assert_int_eq(prop.memAttr, ACL_HBM_MEM_HUGE);
	{
		aclrtPtrAttributes pa;

		T_ACL_OK(aclrtPointerGetAttributes((char *)va + 5, &pa));
		ck_assert_int_eq(pa.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
		ck_assert_uint_eq(pa.pageSize, GRAN);
	}
	/* The second granule of the range is not mapped. */
	T_ACL_EQ(aclrtMemcpy(buf, 2, (char *)va + GRAN - 1, 2,
			     ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("Bad address");
	/* Freed while mapped: the bytes stay until the unmap. */
	pattern(want, sizeof(want), 7);
	T_ACL_OK(aclrtMemcpy(va, sizeof(want), want, sizeof(want),
			     ACL_MEMCPY_HOST_TO_DEVICE));
	T_ACL_OK(aclrtFreePhysical(h));
	T_ACL_EQ(aclrtFreePhysical(h), ACL_ERROR_INVALID_PARAM);
	T_ACL_OK(aclrtMemcpy(buf, sizeof(buf), va, sizeof(buf),
			     ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_int_eq(memcmp(buf, want, sizeof(buf)), 0);
	T_ACL_EQ(aclrtReleaseMemAddress(va), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("still mapped");
	T_ACL_OK(aclrtUnmapMem(va));
	T_ACL_EQ(aclrtMemcpy(buf, 1, va, 1, ACL_MEMCPY_DEVICE_TO_HOST),
		 ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_EQ(aclrtUnmapMem(va), ACL_ERROR_INVALID_PARAM);
	T_ACL_OK(aclrtReleaseMemAddress(va));
	T_ACL_EQ(aclrtReleaseMemAddress(va), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMemcpy(buf, 1, va, 1, ACL_MEMCPY_DEVICE_TO_HOST),
		 ACL_ERROR_RT_PARAM_INVALID);
	/* An ordinary allocation's range, from an interior pointer. */
	T_ACL_OK(aclrtMalloc(&va, 10000, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMemGetAddressRange((char *)va + 9000, &base, &size));
	ck_assert_ptr_eq(base, va);
	ck_assert_uint_ge(size, 10000);
	T_ACL_OK(aclrtFree(va));
}
END_TEST

START_TEST(test_bad_arguments)
{
	int dev = t_acl_find("sim") >= 0 ? t_acl_find("sim") : 0;
	aclrtPhysicalMemProp prop = prop_of(dev), bad;
	aclrtDrvMemHandle h, h2;
	size_t g = 0;
	uint64_t share;
	void *va, *va2, *p;

	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
	ck_assert_uint_eq(g, GRAN);
	T_ACL_OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g));
	ck_assert_uint_eq(g, GRAN);
	T_ACL_EQ(aclrtMemGetAllocationGranularity(&prop, (aclrtMemGranularityOptions)7, &g),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMallocPhysical(NULL, GRAN, &prop, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMallocPhysical(&h, 0, &prop, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMallocPhysical(&h, GRAN, &prop, 1), ACL_ERROR_INVALID_PARAM);
	bad = prop;
	bad.location.type = ACL_MEM_LOCATION_TYPE_HOST;
	T_ACL_EQ(aclrtMallocPhysical(&h, GRAN, &bad, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	bad = prop;
	bad.reserve = 1;
	T_ACL_EQ(aclrtMallocPhysical(&h, GRAN, &bad, 0), ACL_ERROR_INVALID_PARAM);
	bad = prop;
	bad.location.id = 99;
	T_ACL_EQ(aclrtMallocPhysical(&h, GRAN, &bad, 0), ACL_ERROR_RT_INVALID_DEVICEID);

	T_ACL_OK(aclrtMallocPhysical(&h, 1, &prop, 0));	/* rounded up */
	T_ACL_EQ(aclrtReserveMemAddress(NULL, GRAN, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtReserveMemAddress(&va, 0, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtReserveMemAddress(&va, GRAN, 4096, NULL, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_OK(aclrtReserveMemAddress(&va, 3 * GRAN, 0, NULL, 0));
	/* expectPtr: free is taken, taken is refused. */
	T_ACL_EQ(aclrtReserveMemAddress(&va2, GRAN, 0, (char *)va + GRAN, 0),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_OK(aclrtReserveMemAddress(&va2, GRAN, 0, (char *)va + 3 * GRAN, 0));
	ck_assert_ptr_eq(va2, (char *)va + 3 * GRAN);
	T_ACL_OK(aclrtReleaseMemAddress(va2));
	/* Maps: size, offset, flags, handle, place. */
	T_ACL_EQ(aclrtMapMem(va, 4096, 0, h, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMapMem(va, GRAN, GRAN, h, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMapMem(va, GRAN, 0, h, 1), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMapMem(va, GRAN, 0, (aclrtDrvMemHandle)&g, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMapMem((char *)va + 4096, GRAN, 0, h, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMapMem(&g, GRAN, 0, h, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMapMem((char *)va + 2 * GRAN, 2 * GRAN, 0, h, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_OK(aclrtMapMem((char *)va + GRAN, GRAN, 0, h, 0));
	T_ACL_EQ(aclrtMapMem((char *)va + GRAN, GRAN, 0, h, 0), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("overlaps");
	T_ACL_EQ(aclrtUnmapMem((char *)va + GRAN + 4096), ACL_ERROR_INVALID_PARAM);
	/* Shareable handles: the exporter cannot import its own; one each. */
	T_ACL_OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &share));
	T_ACL_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &share),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMemImportFromShareableHandle(share, dev, &h2), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("exported by this process");
	T_ACL_EQ(aclrtMemImportFromShareableHandle(share + 1, dev, &h2), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMemSetPidToShareableHandle(share + 1, (int32_t[]){ getpid() }, 1),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMemSetPidToShareableHandle(share, (int32_t[]){ 0x3ffffff0 }, 1),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMemExportToShareableHandleV2(h, 0, (aclrtMemSharedHandleType)9, &share),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMemGetAddressRange(&g, &p, &g), ACL_ERROR_INVALID_PARAM);
	T_ACL_OK(aclrtUnmapMem((char *)va + GRAN));
	T_ACL_OK(aclrtFreePhysical(h));
	T_ACL_OK(aclrtReleaseMemAddress(va));
}
END_TEST

/*
 * Another process imports a shareable handle and maps it: by V1 (its
 * pid on the list) or V2 default or fabric (no pid check), and one not on
 * the list is refused.
 */
START_TEST(test_shareable_between_processes)
{
	int dev = t_acl_find("sim"), p[2], st, mode = _i;
	aclrtPhysicalMemProp prop;
	aclrtMemFabricHandle fab;
	aclrtDrvMemHandle h;
	unsigned char *in = malloc(GRAN), *out = malloc(GRAN);
	uint64_t share = 0;
	void *va;
	pid_t pid;

	T_SKIP_UNLESS(dev >= 0, "no sim NPU");
	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		aclrtDrvMemHandle ih;
		void *cva;
		aclError r;

		if (read(p[0], &share, sizeof(share)) != sizeof(share) ||
		    read(p[0], &fab, sizeof(fab)) != sizeof(fab) ||
		    aclrtSetDevice(dev))
			_exit(1);
		if (mode == 0)
			r = aclrtMemImportFromShareableHandle(share, dev, &ih);
		else if (mode == 1)
			r = aclrtMemImportFromShareableHandleV2(&share,
				ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &ih);
		else if (mode == 2)
			r = aclrtMemImportFromShareableHandleV2(&fab,
				ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &ih);
		else
			_exit(aclrtMemImportFromShareableHandle(share, dev, &ih) ==
			      ACL_ERROR_RT_NO_PERMISSION ? 0 : 2);
		if (r || aclrtReserveMemAddress(&cva, GRAN, 0, NULL, 0) ||
		    aclrtMapMem(cva, GRAN, 0, ih, 0))
			_exit(3);
		pattern(in, GRAN, 11);
		if (aclrtMemcpy(out, GRAN, cva, GRAN, ACL_MEMCPY_DEVICE_TO_HOST) ||
		    memcmp(in, out, GRAN))
			_exit(4);
		pattern(in, GRAN, 12);
		if (aclrtMemcpy(cva, GRAN, in, GRAN, ACL_MEMCPY_HOST_TO_DEVICE) ||
		    aclrtUnmapMem(cva) || aclrtFreePhysical(ih) ||
		    aclrtReleaseMemAddress(cva))
			_exit(5);
		_exit(0);
	}
	close(p[0]);
	T_ACL_OK(aclrtSetDevice(dev));
	prop = prop_of(dev);
	T_ACL_OK(aclrtMallocPhysical(&h, GRAN, &prop, 0));
	T_ACL_OK(aclrtReserveMemAddress(&va, GRAN, 0, NULL, 0));
	T_ACL_OK(aclrtMapMem(va, GRAN, 0, h, 0));
	pattern(in, GRAN, 11);
	T_ACL_OK(aclrtMemcpy(va, GRAN, in, GRAN, ACL_MEMCPY_HOST_TO_DEVICE));
	memset(&fab, 0, sizeof(fab));
	if (mode == 0 || mode == 3) {
		int32_t child = pid;

		T_ACL_OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE,
							 ACL_RT_VMM_EXPORT_FLAG_DEFAULT,
							 &share));
		if (mode == 0)
			T_ACL_OK(aclrtMemSetPidToShareableHandle(share, &child, 1));
	} else if (mode == 1) {
		T_ACL_OK(aclrtMemExportToShareableHandleV2(h,
			ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
			ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &share));
	} else {
		T_ACL_OK(aclrtMemExportToShareableHandleV2(h,
			ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
			ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &fab));
	}
	ck_assert_int_eq(write(p[1], &share, sizeof(share)), sizeof(share));
	ck_assert_int_eq(write(p[1], &fab, sizeof(fab)), sizeof(fab));
	close(p[1]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	pattern(in, GRAN, mode == 3 ? 11 : 12);
	T_ACL_OK(aclrtMemcpy(out, GRAN, va, GRAN, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_int_eq(memcmp(in, out, GRAN), 0);
	T_ACL_OK(aclrtUnmapMem(va));
	T_ACL_OK(aclrtFreePhysical(h));
	T_ACL_OK(aclrtReleaseMemAddress(va));
	free(in);
	free(out);
}
END_TEST

/*
 * The importer of test_shareable_apart, this program run again: it
 * finds the exporter by the socket at @path, sends its pid for the
 * handle's list, maps the handle it gets back, checks and rewrites
 * @len bytes. Reports 0, or the step that failed.
 */
static char importer_steps(int dev, size_t len, int s)
{
	unsigned char *want = malloc(len), *got = malloc(len);
	aclrtDrvMemHandle ih;
	uint64_t share;
	char st = 0;
	int32_t me;
	void *va;

	if (!want || !got || aclrtSetDevice(dev) ||
	    aclrtDeviceGetBareTgid(&me) ||
	    t_apart_send(s, &me, sizeof(me)) ||
	    t_apart_recv(s, &share, sizeof(share)))
		st = 1;
	else if (aclrtMemImportFromShareableHandle(share, dev, &ih) ||
		 aclrtReserveMemAddress(&va, GRAN, 0, NULL, 0) ||
		 aclrtMapMem(va, GRAN, 0, ih, 0))
		st = 2;
	if (!st) {
		pattern(want, len, 81);
		if (aclrtMemcpy(got, len, va, len, ACL_MEMCPY_DEVICE_TO_HOST) ||
		    memcmp(want, got, len))
			st = 3;
	}
	if (!st) {
		pattern(want, len, 83);
		if (aclrtMemcpy(va, len, want, len, ACL_MEMCPY_HOST_TO_DEVICE) ||
		    aclrtUnmapMem(va) || aclrtFreePhysical(ih) ||
		    aclrtReleaseMemAddress(va))
			st = 4;
	}
	/* Whatever failed, the device memory goes with aclrtResetDevice. */
	free(want);
	free(got);
	return st;
}

static int importer_apart(int dev, size_t len, const char *path)
{
	int s = t_apart_connect(path);
	char st;

	if (s < 0 || aclInit(NULL))
		return 30;
	st = importer_steps(dev, len, s);
	aclrtResetDevice(dev);
	if (aclFinalize() && !st)
		st = 5;
	return t_apart_send(s, &st, 1) ? 31 : 0;
}

/*
 * A shareable handle between two processes, on edu and sim: the
 * importer is this program exec'd by us, or started apart (a daemon)
 * and found by a named socket; its pid goes on the handle's list.
 */
START_TEST(test_shareable_apart)
{
	int dev = _i >> 1 ? t_acl_find("sim") : t_acl_find("edu");
	int how = _i & 1, ls, c;
	size_t len = _i >> 1 ? 64 * 1024 : 4096;
	unsigned char *in = malloc(len), *out = malloc(len);
	char path[108], d[16], l[32], st = -1;
	char *argv[] = { "t_acl_vmm", "--import", d, l, path, NULL };
	aclrtPhysicalMemProp prop;
	aclrtDrvMemHandle h;
	uint64_t share;
	int32_t pid;
	pid_t child;
	void *va;

	T_SKIP_UNLESS(dev >= 0, "no such NPU");
	T_ACL_OK(aclrtSetDevice(dev));
	prop = prop_of(dev);
	T_ACL_OK(aclrtMallocPhysical(&h, GRAN, &prop, 0));
	T_ACL_OK(aclrtReserveMemAddress(&va, GRAN, 0, NULL, 0));
	T_ACL_OK(aclrtMapMem(va, GRAN, 0, h, 0));
	pattern(in, len, 81);
	T_ACL_OK(aclrtMemcpy(va, len, in, len, ACL_MEMCPY_HOST_TO_DEVICE));
	T_ACL_OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE,
						 ACL_RT_VMM_EXPORT_FLAG_DEFAULT,
						 &share));
	ls = t_apart_listen(path, sizeof(path));
	snprintf(d, sizeof(d), "%d", dev);
	snprintf(l, sizeof(l), "%zu", len);
	child = t_apart_spawn(argv, how);
	c = t_apart_accept(ls, path);
	ck_assert_int_eq(t_apart_recv(c, &pid, sizeof(pid)), 0);
	T_ACL_OK(aclrtMemSetPidToShareableHandle(share, &pid, 1));
	ck_assert_int_eq(t_apart_send(c, &share, sizeof(share)), 0);
	ck_assert_int_eq(t_apart_recv(c, &st, 1), 0);
	ck_assert_int_eq(st, 0);
	close(c);
	if (how == T_APART_EXEC)
		ck_assert_int_eq(t_apart_wait(child), 0);
	pattern(in, len, 83);
	T_ACL_OK(aclrtMemcpy(out, len, va, len, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_int_eq(memcmp(in, out, len), 0);
	T_ACL_OK(aclrtUnmapMem(va));
	T_ACL_OK(aclrtFreePhysical(h));
	T_ACL_OK(aclrtReleaseMemAddress(va));
	free(in);
	free(out);
}
END_TEST

static Suite *vmm_suite(void)
{
	Suite *s = suite_create("acl_vmm");
	TCase *tc = tcase_create("acl_vmm");

	tcase_set_timeout(tc, 300);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_copies_across_the_seam);
	tcase_add_test(tc, test_peer_access);
	tcase_add_loop_test(tc, test_lifetimes, 0, 2);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_loop_test(tc, test_shareable_between_processes, 0, 4);
	tcase_add_loop_test(tc, test_shareable_apart, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "--import"))
		return importer_apart(atoi(argv[2]), strtoul(argv[3], NULL, 10),
				      argv[4]);
	return t_run_suite(vmm_suite());
}
