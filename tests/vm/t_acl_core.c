// SPDX-License-Identifier: GPL-2.0-only
/*
 * libacl in the guest: initialisation, devices, contexts, error
 * reporting, device and host memory (and its usage by component),
 * synchronous copies and memset, on an edu and on a sim NPU (loop index
 * 0 = edu, 1 = sim).
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "t_acl.h"

START_TEST(test_aclInit_repeats)
{
	int i;

	for (i = 0; i < 3; i++) {
		T_ACL_OK(aclInit(NULL));
		T_ACL_EQ(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
		T_ACL_OK(aclrtSetDevice(0));
		T_ACL_OK(aclFinalize());
		T_ACL_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
		t_acl_msg_has("not initialized");
	}
}
END_TEST

START_TEST(test_aclInit_rejects_missing_config)
{
	T_ACL_EQ(aclInit("/nonexistent/acl.json"), ACL_ERROR_INVALID_FILE);
	t_acl_msg_has("/nonexistent/acl.json");
}
END_TEST

START_TEST(test_aclrtSetDevice_and_reset)
{
	uint32_t n = 0;
	int32_t id = -1;
	aclrtRunMode mode;

	T_ACL_OK(aclrtGetDeviceCount(&n));
	ck_assert_uint_ge(n, 1);
	T_ACL_EQ(aclrtGetDevice(&id), ACL_ERROR_RT_CONTEXT_NULL);
	t_acl_msg_has("aclrtSetDevice");
	T_ACL_EQ(aclrtSetDevice((int32_t)n), ACL_ERROR_RT_INVALID_DEVICEID);
	t_acl_msg_has("deviceId=");
	T_ACL_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
	T_ACL_OK(aclrtSetDevice((int32_t)n - 1));
	T_ACL_OK(aclrtSetDevice((int32_t)n - 1));
	T_ACL_OK(aclrtGetDevice(&id));
	ck_assert_int_eq(id, (int)n - 1);
	T_ACL_OK(aclrtGetRunMode(&mode));
	ck_assert_int_eq(mode, ACL_HOST);
	T_ACL_OK(aclrtResetDevice(id));
	T_ACL_OK(aclrtGetDevice(&id));		/* one reference left */
	T_ACL_OK(aclrtResetDevice(id));
	T_ACL_EQ(aclrtResetDevice(id), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
	T_ACL_EQ(aclrtGetDevice(&id), ACL_ERROR_RT_CONTEXT_NULL);
	T_ACL_OK(aclrtSetDevice(0));
	T_ACL_OK(aclrtSetDevice(0));
	T_ACL_OK(aclrtResetDeviceForce(0));
	T_ACL_EQ(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
}
END_TEST

START_TEST(test_null_arguments_are_invalid_param)
{
	T_ACL_EQ(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("count is NULL");
	T_ACL_EQ(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMalloc(NULL, 1, ACL_MEM_MALLOC_HUGE_FIRST),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtMallocHost(NULL, 1), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM);
	/* API-edge rejections are not "last errors". */
	T_ACL_OK(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
}
END_TEST

START_TEST(test_aclrtGetLastError_consumes)
{
	int32_t id;

	T_ACL_EQ(aclrtGetDevice(&id), ACL_ERROR_RT_CONTEXT_NULL);
	T_ACL_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL),
		 ACL_ERROR_RT_CONTEXT_NULL);
	T_ACL_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL),
		 ACL_ERROR_RT_CONTEXT_NULL);
	T_ACL_OK(aclrtGetLastError(ACL_RT_THREAD_LEVEL));
	T_ACL_OK(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
	T_ACL_EQ(aclrtGetLastError((aclrtLastErrLevel)1),
		 ACL_ERROR_INVALID_PARAM);
	/* Messages are consumed by reading them. */
	ck_assert_ptr_nonnull(aclGetRecentErrMsg());
	ck_assert_ptr_null(aclGetRecentErrMsg());
}
END_TEST

START_TEST(test_contexts)
{
	aclrtContext c = NULL, cur = NULL, def = NULL;
	int32_t id;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtGetCurrentContext(&def));
	T_ACL_OK(aclrtCreateContext(&c, dev));
	T_ACL_OK(aclrtGetCurrentContext(&cur));
	ck_assert_ptr_eq(cur, c);
	ck_assert_ptr_ne(cur, def);
	T_ACL_OK(aclrtGetDevice(&id));
	ck_assert_int_eq(id, dev);
	T_ACL_OK(aclrtSetCurrentContext(def));
	T_ACL_EQ(aclrtDestroyContext(def), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclrtDestroyContext(c));
	T_ACL_EQ(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
	T_ACL_OK(aclrtResetDeviceForce(dev));
}
END_TEST

START_TEST(test_aclrtMalloc_policies)
{
	static const aclrtMemMallocPolicy pol[] = {
		ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY,
		ACL_MEM_MALLOC_NORMAL_ONLY, ACL_MEM_MALLOC_HUGE_FIRST_P2P,
		ACL_MEM_MALLOC_HUGE_ONLY_P2P, ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
	};
	size_t i, fr0, tot, fr1;
	aclrtPtrAttributes a;
	void *p;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &fr0, &tot));
	ck_assert_uint_gt(tot, 0);
	ck_assert_uint_le(fr0, tot);
	/* Per page size: huge classes count whole free 2 MiB / 1 GiB blocks. */
	{
		size_t fh0, th, fh1, fn, tn, fg, tg;
		void *h;

		T_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM_HUGE, &fh0, &th));
		ck_assert_uint_le(th, tot);
		ck_assert_uint_le(fh0, fr0);
		ck_assert_uint_eq(fh0 % (2 << 20), 0);
		T_ACL_OK(aclrtGetMemInfo(ACL_MEM_HUGE1G, &fg, &tg));
		ck_assert_uint_eq(tg % (1 << 30), 0);
		ck_assert_uint_eq(fg % (1 << 30), 0);
		ck_assert_uint_le(fg, fh0);
		T_ACL_OK(aclrtMalloc(&h, 3 << 20, ACL_MEM_MALLOC_HUGE_ONLY));
		T_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM_P2P_HUGE, &fh1, &th));
		ck_assert_uint_le(fh1, fh0 - (4 << 20));
		T_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM_NORMAL, &fn, &tn));
		ck_assert_uint_eq(tn, tot);
		ck_assert_uint_le(fn, fr0 - (4 << 20));
		T_ACL_OK(aclrtFree(h));
	}
	for (i = 0; i < sizeof(pol) / sizeof(pol[0]); i++) {
		T_ACL_OK(aclrtMalloc(&p, 3 << 20, pol[i]));
		ck_assert_uint_eq((uintptr_t)p % 64, 0);
		T_ACL_OK(aclrtGetMemInfo(ACL_DDR_MEM, &fr1, &tot));
		ck_assert_uint_lt(fr1, fr0);
		T_ACL_OK(aclrtPointerGetAttributes(p, &a));
		ck_assert_int_eq(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
		ck_assert_uint_eq(a.location.id, (uint32_t)dev);
		/* 3 MiB: huge pages unless the policy says normal. */
		ck_assert_uint_eq(a.pageSize, pol[i] == ACL_MEM_MALLOC_NORMAL_ONLY ||
				  pol[i] == ACL_MEM_MALLOC_NORMAL_ONLY_P2P ?
				  4096 : 2 << 20);
		T_ACL_OK(aclrtPointerGetAttributes((char *)p + 100, &a));
		ck_assert_int_eq(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
		ck_assert_uint_ge(a.pageSize, 4096);
		T_ACL_OK(aclrtFree(p));
	}
	/* Small under HUGE_FIRST: normal pages (the driver's rule, > 1 MiB). */
	T_ACL_OK(aclrtMalloc(&p, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtPointerGetAttributes((char *)p + 4100, &a));
	ck_assert_uint_eq(a.pageSize, 4096);
	T_ACL_OK(aclrtFree(p));
	T_ACL_OK(aclrtMallocAlign32(&p, 1, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtFree(p));
	T_ACL_OK(aclrtMallocWithCfg(&p, 100, ACL_MEM_MALLOC_HUGE_FIRST |
				    ACL_MEM_TYPE_HIGH_BAND_WIDTH, NULL));
	T_ACL_OK(aclrtFreeWithDevSync(p));
	if (_i == 1) {
		/* 1 GiB policy: sim NPUs have GiBs, lazily backed. */
		T_ACL_OK(aclrtMalloc(&p, 10, ACL_MEM_MALLOC_HUGE1G_ONLY));
		T_ACL_OK(aclrtFree(p));
	}
	T_ACL_EQ(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("size=0");
	T_ACL_EQ(aclrtMalloc(&p, tot + 1, ACL_MEM_MALLOC_HUGE_FIRST),
		 ACL_ERROR_RT_MEMORY_ALLOCATION);
	t_acl_msg_has("out of memory");
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

START_TEST(test_aclrtFree_errors)
{
	char host[64];
	void *p;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_EQ(aclrtFree(host), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("is not device memory");
	T_ACL_EQ(aclrtFree((char *)p + 64), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("not the start");
	T_ACL_OK(aclrtFree(p));
	T_ACL_EQ(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* A device pointer faults when the host dereferences it. */
START_TEST(test_device_pointer_faults_on_host)
{
	volatile char *p;
	void *v;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		raise(SIGSEGV);		/* keep the expected signal */
	T_ACL_OK(aclrtMalloc(&v, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	p = v;
	p[0] = 1;
}
END_TEST

START_TEST(test_aclrtMallocHost)
{
	aclrtPtrAttributes a;
	char *h, on_stack[8];
	void *p;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtMallocHost(&p, 10000));
	h = p;
	ck_assert_uint_eq((uintptr_t)h % 4096, 0);
	memset(h, 0x5a, 10000);
	T_ACL_OK(aclrtPointerGetAttributes(h + 9999, &a));
	ck_assert_int_eq(a.location.type, ACL_MEM_LOCATION_TYPE_HOST);
	T_ACL_OK(aclrtPointerGetAttributes(on_stack, &a));
	ck_assert_int_eq(a.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
	T_ACL_EQ(aclrtMallocHost(&p, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtFreeHost(on_stack), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("aclrtMallocHost");
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

START_TEST(test_aclrtHostRegister)
{
	void *buf = aligned_alloc(4096, 3 * 4096), *dp = NULL, *mh;
	aclrtPtrAttributes a;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtHostRegister(buf, 2 * 4096, ACL_HOST_REGISTER_MAPPED, &dp));
	ck_assert_ptr_nonnull(dp);
	T_ACL_OK(aclrtPointerGetAttributes(buf, &a));
	ck_assert_int_eq(a.location.type, ACL_MEM_LOCATION_TYPE_HOST);
	T_ACL_OK(aclrtHostGetDevicePointer(buf, &dp, 0));
	T_ACL_EQ(aclrtHostGetDevicePointer(buf, &dp, 1), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtHostRegisterV2(buf, 4096, ACL_HOST_REG_PINNED),
		 ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
	t_acl_msg_has("overlaps");
	T_ACL_OK(aclrtHostUnregister(buf));
	T_ACL_EQ(aclrtHostUnregister(buf), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
	T_ACL_OK(aclrtHostRegisterV2(buf, 3 * 4096, ACL_HOST_REG_PINNED));
	T_ACL_OK(aclrtHostUnregister(buf));
	T_ACL_EQ(aclrtHostRegisterV2(buf, 4096, 0), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_EQ(aclrtHostRegisterV2(buf, 4096, 0x100),
		 ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_EQ(aclrtHostRegister((char *)buf + 1, 4096,
				   ACL_HOST_REGISTER_MAPPED, &dp),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("aligned");
	T_ACL_EQ(aclrtHostRegister(buf, 0, ACL_HOST_REGISTER_MAPPED, &dp),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtHostRegister(buf, 4096, ACL_HOST_REGISTER_IOMEMORY, &dp),
		 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	T_ACL_EQ(aclrtHostRegisterV2(buf, 4096, ACL_HOST_REG_IOMEMORY),
		 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	/* CANN clients map aclrtMallocHost memory: that must work. */
	T_ACL_OK(aclrtMallocHost(&mh, 8192));
	T_ACL_OK(aclrtHostRegister(mh, 8192, ACL_HOST_REGISTER_MAPPED, &dp));
	T_ACL_OK(aclrtHostUnregister(mh));
	T_ACL_OK(aclrtFreeHost(mh));
	free(buf);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/*
 * Read-only registration: a read-only mapping can be registered only so;
 * the device reads it at its registered address and never writes it.
 */
START_TEST(test_aclrtHostRegister_readonly)
{
	const size_t len = 2 * 4096;
	unsigned char *ro, back[2 * 4096];
	void *d = NULL, *dp = NULL;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	ro = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		  -1, 0);
	ck_assert_ptr_ne(ro, MAP_FAILED);
	memset(ro, 0x5a, len);
	ck_assert_int_eq(mprotect(ro, len, PROT_READ), 0);
	/* Pinning for the device's writes fails on a read-only mapping. */
	ck_assert_int_ne(aclrtHostRegisterV2(ro, len, ACL_HOST_REG_PINNED),
			 ACL_SUCCESS);
	T_ACL_OK(aclrtHostRegisterV2(ro, len, ACL_HOST_REG_READONLY |
				     ACL_HOST_REG_MAPPED));
	T_ACL_OK(aclrtMalloc(&d, len, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMemcpy(d, len, ro, len, ACL_MEMCPY_HOST_TO_DEVICE));
	memset(back, 0, len);
	T_ACL_OK(aclrtMemcpy(back, len, d, len, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_int_eq(memcmp(back, ro, len), 0);
	/* The device may not write it: an error, not a fault. */
	ck_assert_int_ne(aclrtMemcpy(ro, len, d, len, ACL_MEMCPY_DEVICE_TO_HOST),
			 ACL_SUCCESS);
	ck_assert_int_eq(ro[0], 0x5a);
	T_ACL_OK(aclrtHostUnregister(ro));
	/* The V1 call's READONLY type: mapped, at its own address. */
	T_ACL_OK(aclrtHostRegister(ro, len, ACL_HOST_REGISTER_READONLY, &dp));
	ck_assert_ptr_eq(dp, ro);
	T_ACL_OK(aclrtMemcpy(d, len, dp, len, ACL_MEMCPY_HOST_TO_DEVICE));
	T_ACL_OK(aclrtHostUnregister(ro));
	T_ACL_OK(aclrtFree(d));
	munmap(ro, len);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* aclrtMallocHostWithCfg's attributes; which engines reach host memory. */
START_TEST(test_host_cfg_and_map_capabilities)
{
	aclrtMallocAttribute at[2] = {
		{ .attr = ACL_RT_MEM_ATTR_MODULE_ID, .value.moduleId = 3 },
		{ .attr = ACL_RT_MEM_ATTR_VA_FLAG, .value.vaFlag = 1 },
	};
	aclrtMallocConfig cfg = { .attrs = at, .numAttrs = 2 };
	aclrtHostMemMapCapability cap = ACL_RT_HOST_MEM_MAP_SUPPORTED;
	aclrtPtrAttributes a;
	void *p = NULL, *d = NULL;
	uint32_t n = 0;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtMallocHostWithCfg(&p, 5000, &cfg));
	T_ACL_OK(aclrtPointerGetAttributes(p, &a));
	ck_assert_int_eq(a.location.type, ACL_MEM_LOCATION_TYPE_HOST);
	/* UVA: the device copies from it at its host address. */
	T_ACL_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	memset(p, 7, 4096);
	T_ACL_OK(aclrtMemcpy(d, 4096, p, 4096, ACL_MEMCPY_HOST_TO_DEVICE));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(p));
	T_ACL_OK(aclrtMallocHostWithCfg(&p, 100, NULL));
	T_ACL_OK(aclrtFreeHost(p));
	at[1].value.vaFlag = 2;
	T_ACL_EQ(aclrtMallocHostWithCfg(&p, 100, &cfg), ACL_ERROR_RT_PARAM_INVALID);
	at[1] = (aclrtMallocAttribute){ .attr = ACL_RT_MEM_ATTR_DEVICE_ID };
	T_ACL_EQ(aclrtMallocHostWithCfg(&p, 100, &cfg), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("MODULE_ID and VA_FLAG");
	cfg.attrs = NULL;
	T_ACL_EQ(aclrtMallocHostWithCfg(&p, 100, &cfg), ACL_ERROR_RT_PARAM_INVALID);
	/* The copy engine reaches host memory; nothing else is there. */
	T_ACL_OK(aclrtHostMemMapCapabilities((uint32_t)dev, ACL_RT_HAC_TYPE_PCIEDMA, &cap));
	ck_assert_int_eq(cap, ACL_RT_HOST_MEM_MAP_SUPPORTED);
	T_ACL_OK(aclrtHostMemMapCapabilities((uint32_t)dev, ACL_RT_HAC_TYPE_SDMA, &cap));
	ck_assert_int_eq(cap, ACL_RT_HOST_MEM_MAP_SUPPORTED);
	T_ACL_OK(aclrtHostMemMapCapabilities((uint32_t)dev, ACL_RT_HAC_TYPE_AIC, &cap));
	ck_assert_int_eq(cap, ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED);
	T_ACL_EQ(aclrtHostMemMapCapabilities((uint32_t)dev, ACL_RT_HAC_TYPE_SDMA, NULL),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtHostMemMapCapabilities((uint32_t)dev, (aclrtHacType)10, &cap),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_OK(aclrtGetDeviceCount(&n));
	T_ACL_EQ(aclrtHostMemMapCapabilities(n, ACL_RT_HAC_TYPE_SDMA, &cap),
		 ACL_ERROR_RT_INVALID_DEVICEID);
	T_ACL_OK(aclrtResetDevice(dev));
	T_ACL_EQ(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_SDMA, &cap),
		 ACL_ERROR_RT_CONTEXT_NULL);
}
END_TEST

/* H2D, D2D, D2H and DEFAULT, pinned and pageable, data checked. */
START_TEST(test_aclrtMemcpy_directions)
{
	size_t len = _i ? (1 << 20) + 17 : 20000;
	char *src = malloc(len), *dst = malloc(len);
	void *d0, *d1, *ph;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtMalloc(&d0, len, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMalloc(&d1, len, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMallocHost(&ph, len));
	t_pattern_fill(src, len, 1);
	T_ACL_OK(aclrtMemcpy(d0, len, src, len, ACL_MEMCPY_HOST_TO_DEVICE));
	T_ACL_OK(aclrtMemcpy(d1, len, d0, len, ACL_MEMCPY_DEVICE_TO_DEVICE));
	T_ACL_OK(aclrtMemcpy(ph, len, d1, len, ACL_MEMCPY_DEFAULT));
	ck_assert_uint_eq(t_pattern_check(ph, len, 1), len);
	t_pattern_fill(ph, len, 2);
	T_ACL_OK(aclrtMemcpy(d0, len, ph, len, ACL_MEMCPY_DEFAULT));
	T_ACL_OK(aclrtMemcpy(dst, len, d0, len, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(t_pattern_check(dst, len, 2), len);
	/* Host to host, pageable and pinned. */
	T_ACL_OK(aclrtMemcpy(dst, len, src, len, ACL_MEMCPY_HOST_TO_HOST));
	ck_assert_uint_eq(t_pattern_check(dst, len, 1), len);
	T_ACL_OK(aclrtMemcpy(ph, len, dst, len, ACL_MEMCPY_DEFAULT));
	ck_assert_uint_eq(t_pattern_check(ph, len, 1), len);
	/* Unaligned pieces. */
	T_ACL_OK(aclrtMemcpy((char *)d1 + 3, len - 3, src + 5, 1000,
			     ACL_MEMCPY_HOST_TO_DEVICE));
	memset(dst, 0, len);
	T_ACL_OK(aclrtMemcpy(dst + 7, len - 7, (char *)d1 + 3, 1000,
			     ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_mem_eq(dst + 7, src + 5, 1000);
	T_ACL_OK(aclrtFreeHost(ph));
	T_ACL_OK(aclrtFree(d0));
	T_ACL_OK(aclrtFree(d1));
	free(src);
	free(dst);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

START_TEST(test_aclrtMemcpy_errors)
{
	char h[256] = { 0 }, h2[256] = { 0 };
	void *d;
	int dev;

	T_ACL_EQ(aclrtMemcpy(h, 8, h2, 8, ACL_MEMCPY_HOST_TO_HOST),
		 ACL_ERROR_RT_CONTEXT_NULL);
	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtMalloc(&d, 256, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMemcpy(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE));
	T_ACL_EQ(aclrtMemcpy(d, 256, NULL, 8, ACL_MEMCPY_HOST_TO_DEVICE),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("src=(nil)");
	T_ACL_EQ(aclrtMemcpy(d, 256, h, 8, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("kind=6");
	T_ACL_EQ(aclrtMemcpy(d, 4, h, 8, ACL_MEMCPY_HOST_TO_DEVICE),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("count=8 does not fit destMax=4");
	T_ACL_EQ(aclrtMemcpy(d, 0, h, 8, ACL_MEMCPY_HOST_TO_DEVICE),
		 ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclrtMemcpy(d, 8, d, 8, ACL_MEMCPY_DEVICE_TO_DEVICE));
	/* A device pointer where the rules want a host one, and back. */
	T_ACL_EQ(aclrtMemcpy(d, 256, h, 8, ACL_MEMCPY_DEVICE_TO_HOST),
		 ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_EQ(aclrtMemcpy(h, 256, h2, 8, ACL_MEMCPY_DEVICE_TO_DEVICE),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("not device memory");
	/* Past the end of the allocation: the driver refuses it. */
	T_ACL_EQ(aclrtMemcpy((char *)d + 4000, 256, h, 256,
			     ACL_MEMCPY_HOST_TO_DEVICE),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("failed");
	/* An unmapped host page: pinning fails. */
	T_ACL_EQ(aclrtMemcpy((void *)4096, 256, d, 64,
			     ACL_MEMCPY_DEVICE_TO_HOST),
		 ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

START_TEST(test_aclrtMemset)
{
	size_t len = _i ? 3 << 20 : 9000;
	unsigned char *h = malloc(len);
	void *d, *ph;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtMalloc(&d, len, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMemset(d, len, 0x1ab, len));	/* low byte only */
	T_ACL_OK(aclrtMemset((char *)d + 1, len - 1, 0x11, 100));
	T_ACL_OK(aclrtMemcpy(h, len, d, len, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(h[0], 0xab);
	ck_assert_uint_eq(t_bytes_check(h + 1, 100, 0x11), 100);
	ck_assert_uint_eq(t_bytes_check(h + 101, len - 101, 0xab), len - 101);
	T_ACL_OK(aclrtMallocHost(&ph, 4096));
	T_ACL_OK(aclrtMemset(ph, 4096, 7, 4096));
	ck_assert_uint_eq(((unsigned char *)ph)[4095], 7);
	T_ACL_OK(aclrtMemsetAsync(ph, 4096, 9, 4096, NULL));
	T_ACL_OK(aclrtMemsetAsync(d, len, 0x22, len, NULL));
	T_ACL_OK(aclrtSynchronizeStream(NULL));
	ck_assert_uint_eq(((unsigned char *)ph)[4095], 9);
	T_ACL_OK(aclrtMemcpy(h, len, d, len, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(h[len - 1], 0x22);
	T_ACL_EQ(aclrtMemset(d, 10, 0, 11), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_EQ(aclrtMemset(h, len, 0, 1), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("neither device nor acl host memory");
	T_ACL_OK(aclrtMemset(NULL, 0, 0, 0));
	T_ACL_OK(aclrtFreeHost(ph));
	T_ACL_OK(aclrtFree(d));
	free(h);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

START_TEST(test_visible_devices_remap)
{
	int sim = t_acl_find("sim");
	uint32_t n = 0;
	char env[16];
	size_t fr, tot, tot_sim;

	T_SKIP_UNLESS(sim >= 0, "no sim NPU");
	T_ACL_OK(aclrtSetDevice(sim));
	T_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &fr, &tot_sim));
	T_ACL_OK(aclrtResetDevice(sim));
	T_ACL_OK(aclInit(NULL));
	T_ACL_OK(aclFinalize());	/* forget the enumeration */
	snprintf(env, sizeof(env), "%d,99", sim);
	setenv("ASCEND_RT_VISIBLE_DEVICES", env, 1);
	T_ACL_OK(aclrtGetDeviceCount(&n));
	ck_assert_uint_eq(n, 1);		/* 99 does not exist: stop there */
	T_ACL_OK(aclrtSetDevice(0));
	T_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &fr, &tot));
	ck_assert_uint_eq(tot, tot_sim);
	T_ACL_EQ(aclrtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
	unsetenv("ASCEND_RT_VISIBLE_DEVICES");
}
END_TEST

/* Reset releases the device's memory: free memory comes back. */
START_TEST(test_aclrtResetDevice_frees_memory)
{
	size_t fr0, fr1, tot;
	void *p;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &fr0, &tot));
	T_ACL_OK(aclrtMalloc(&p, 1 << 20, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtResetDevice(dev));
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &fr1, &tot));
	ck_assert_uint_eq(fr0, fr1);
	/* The old pointer is still recognised, and refused. */
	T_ACL_EQ(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclrtResetDeviceForce(dev));
}
END_TEST

/* The "app" entry of aclrtGetMemUsageInfo on @dev: current bytes, *@peak. */
static uint64_t t_app_usage(int dev, uint64_t *peak)
{
	aclrtMemUsageInfo u[3];
	size_t i, n = 0;

	T_ACL_OK(aclrtGetMemUsageInfo(dev, u, 3, &n));
	ck_assert_uint_eq(n, 3);
	for (i = 0; i < n; i++) {
		if (!strcmp(u[i].name, "app")) {
			*peak = u[i].memPeakSize;
			return u[i].curMemSize;
		}
	}
	ck_abort_msg("no \"app\" component");
	return 0;
}

/* aclrtMalloc's memory is counted as the driver took it; the peak stays. */
START_TEST(test_aclrtGetMemUsageInfo_app)
{
	uint64_t cur0, peak0, cur1, peak1, cur2, peak2;
	size_t fr0, fr1, tot;
	void *p;
	int dev, k;

	if (!t_acl_use_backend(_i, &dev))
		return;
	cur0 = t_app_usage(dev, &peak0);
	ck_assert_uint_eq(cur0 + peak0, 0);	/* a new opening holds nothing */
	for (k = 0; ; k++) {
		T_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &fr0, &tot));
		/* 3 MiB + 1 and CANN's padding: two 2 MiB pages (HUGE_FIRST). */
		T_ACL_OK(aclrtMalloc(&p, (3 << 20) + 1,
				     ACL_MEM_MALLOC_HUGE_FIRST));
		T_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &fr1, &tot));
		cur1 = t_app_usage(dev, &peak1);
		/* An earlier test's file released late frees memory too. */
		if (fr0 - fr1 == cur1 || k == 4)
			break;
		T_ACL_OK(aclrtFree(p));
		usleep(100 * 1000);
	}
	ck_assert_uint_eq(cur1, 4 << 20);
	ck_assert_uint_eq(cur1, fr0 - fr1);
	ck_assert_uint_eq(peak1, cur1);
	T_ACL_OK(aclrtFree(p));
	cur2 = t_app_usage(dev, &peak2);
	ck_assert_uint_eq(cur2, 0);
	ck_assert_uint_eq(peak2, 4 << 20);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

static Suite *acl_core_suite(void)
{
	Suite *s = suite_create("t_acl_core");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_aclInit_repeats);
	tcase_add_test(tc, test_aclInit_rejects_missing_config);
	tcase_add_test(tc, test_aclrtSetDevice_and_reset);
	tcase_add_test(tc, test_null_arguments_are_invalid_param);
	tcase_add_test(tc, test_aclrtGetLastError_consumes);
	tcase_add_test(tc, test_visible_devices_remap);
	tcase_add_loop_test(tc, test_contexts, 0, 2);
	tcase_add_loop_test(tc, test_aclrtMalloc_policies, 0, 2);
	tcase_add_loop_test(tc, test_aclrtFree_errors, 0, 2);
	tcase_add_loop_test_raise_signal(tc, test_device_pointer_faults_on_host,
					 SIGSEGV, 0, 2);
	tcase_add_loop_test(tc, test_aclrtMallocHost, 0, 2);
	tcase_add_loop_test(tc, test_aclrtHostRegister, 0, 2);
	tcase_add_loop_test(tc, test_aclrtHostRegister_readonly, 0, 2);
	tcase_add_loop_test(tc, test_host_cfg_and_map_capabilities, 0, 2);
	tcase_add_loop_test(tc, test_aclrtMemcpy_directions, 0, 2);
	tcase_add_loop_test(tc, test_aclrtMemcpy_errors, 0, 2);
	tcase_add_loop_test(tc, test_aclrtMemset, 0, 2);
	tcase_add_loop_test(tc, test_aclrtResetDevice_frees_memory, 0, 2);
	tcase_add_loop_test(tc, test_aclrtGetMemUsageInfo_app, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(acl_core_suite());
}
