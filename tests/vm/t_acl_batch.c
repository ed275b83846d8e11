// SPDX-License-Identifier: GPL-2.0-only
/*
 * libacl in the guest: batch copies, descriptor and offset copies and
 * 32-bit memsets, on an edu and a sim NPU (loop index 0 = edu, 1 = sim;
 * edu gets fewer and smaller copies). Data is checked byte for byte
 * against the host's copy of it.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "t_acl.h"

#define H2D ACL_MEMCPY_HOST_TO_DEVICE
#define D2H ACL_MEMCPY_DEVICE_TO_HOST
#define INNER ACL_MEMCPY_INNER_DEVICE_TO_DEVICE

/* The arrays of one batch of @n copies. */
struct batch {
	size_t n, nattrs;
	void **dsts, **srcs;
	size_t *max, *sizes, *idx;
	aclrtMemcpyBatchAttr *attrs;
};

static void batch_alloc(struct batch *b, size_t n)
{
	b->n = n;
	b->nattrs = 0;
	b->dsts = calloc(n, sizeof(void *));
	b->srcs = calloc(n, sizeof(void *));
	b->max = calloc(n, sizeof(size_t));
	b->sizes = calloc(n, sizeof(size_t));
	b->idx = calloc(n, sizeof(size_t));
	b->attrs = calloc(n, sizeof(*b->attrs));
	ck_assert(b->dsts && b->srcs && b->max && b->sizes && b->idx && b->attrs);
}

static void batch_free(struct batch *b)
{
	free(b->dsts);
	free(b->srcs);
	free(b->max);
	free(b->sizes);
	free(b->idx);
	free(b->attrs);
}

static aclrtMemLocation loc(aclrtMemLocationType type, int dev)
{
	aclrtMemLocation l = { .id = (uint32_t)dev, .type = type };

	return l;
}

/* Start a run of copies from @i on with these locations. */
static void batch_attr(struct batch *b, size_t i, aclrtMemLocation src,
		       aclrtMemLocation dst)
{
	b->idx[b->nattrs] = i;
	b->attrs[b->nattrs].srcLoc = src;
	b->attrs[b->nattrs].dstLoc = dst;
	b->nattrs++;
}

static void batch_set(struct batch *b, size_t i, void *dst, void *src,
		      size_t size)
{
	b->dsts[i] = dst;
	b->srcs[i] = src;
	b->sizes[i] = b->max[i] = size;
}

static aclError batch_sync(struct batch *b, size_t *fail)
{
	return aclrtMemcpyBatch(b->dsts, b->max, b->srcs, b->sizes, b->n,
				b->attrs, b->idx, b->nattrs, fail);
}

static aclError batch_async(struct batch *b, size_t *fail, aclrtStream s)
{
	return aclrtMemcpyBatchAsync(b->dsts, b->max, b->srcs, b->sizes, b->n,
				     b->attrs, b->idx, b->nattrs, fail, s);
}

/*
 * Many tiny copies, scattered: host chunk i -> device slot perm(i), then
 * back in one more batch; 4096 of them (8 on edu, where every copy is a
 * DMA of ~0.2 s), synchronous and
 * asynchronous (cut into ring-sized batches).
 */
START_TEST(test_batch_tiny_copies)
{
	size_t n = _i ? 4096 : 8, chunk = 8, i, fail;
	uint8_t *src, *dst;
	struct batch b;
	void *hs, *hd, *d;
	aclrtStream st;
	int dev, pass;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&st));
	T_ACL_OK(aclrtMallocHost(&hs, n * chunk));
	T_ACL_OK(aclrtMallocHost(&hd, n * chunk));
	T_ACL_OK(aclrtMalloc(&d, n * chunk * 2, ACL_MEM_MALLOC_HUGE_FIRST));
	src = hs;
	dst = hd;
	batch_alloc(&b, n);
	for (pass = 0; pass < 2; pass++) {	/* 0: sync, 1: async */
		t_pattern_fill(src, n * chunk, (uint32_t)(7 + pass));
		memset(dst, 0, n * chunk);
		b.nattrs = 0;
		batch_attr(&b, 0, loc(ACL_MEM_LOCATION_TYPE_HOST, 0),
			   loc(ACL_MEM_LOCATION_TYPE_DEVICE, dev));
		for (i = 0; i < n; i++)
			batch_set(&b, i, (char *)d + ((i * 37) % n) * 2 * chunk,
				  src + i * chunk, chunk);
		if (pass)
			T_ACL_OK(batch_async(&b, &fail, st));
		else
			T_ACL_OK(batch_sync(&b, &fail));
		ck_assert_uint_eq(fail, SIZE_MAX);
		b.nattrs = 0;
		batch_attr(&b, 0, loc(ACL_MEM_LOCATION_TYPE_DEVICE, dev),
			   loc(ACL_MEM_LOCATION_TYPE_HOST, 0));
		for (i = 0; i < n; i++)
			batch_set(&b, i, dst + i * chunk,
				  (char *)d + ((i * 37) % n) * 2 * chunk, chunk);
		if (pass) {
			T_ACL_OK(aclrtMemcpyBatchAsyncV2(b.dsts, b.max, b.srcs,
							 b.sizes, n, b.attrs,
							 b.idx, 1, st));
			T_ACL_OK(aclrtSynchronizeStream(st));
		} else {
			T_ACL_OK(aclrtMemcpyBatchV2(b.dsts, b.max, b.srcs,
						    b.sizes, n, b.attrs, b.idx,
						    1));
		}
		ck_assert_uint_eq(t_pattern_check(dst, n * chunk,
						  (uint32_t)(7 + pass)),
				  n * chunk);
	}
	batch_free(&b);
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(hs));
	T_ACL_OK(aclrtFreeHost(hd));
	T_ACL_OK(aclrtDestroyStream(st));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/*
 * Sizes from 1 byte up, pinned and pageable members in one batch, several
 * attribute runs (HOST, UNREGISTERED and HOST_NUMA all name host memory),
 * zero-size members in a synchronous batch.
 */
START_TEST(test_batch_mixed_sizes)
{
	size_t n = _i ? 24 : 8, i, off = 0, total, fail;
	size_t max_one = _i ? 100000 : 1000;
	unsigned int seed = 5;
	uint8_t *pin, *pg, *back;
	size_t *size, *at;
	struct batch b;
	aclrtStream st;
	void *hp, *d;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	size = calloc(n, sizeof(*size));
	at = calloc(n, sizeof(*at));
	ck_assert(size && at);
	for (i = 0; i < n; i++) {
		size[i] = i % 7 == 6 ? 0 : 1 + (size_t)rand_r(&seed) % max_one;
		at[i] = off;
		off += size[i] + 5;
	}
	total = off;
	pg = malloc(total);
	back = malloc(total);
	ck_assert(pg && back);
	T_ACL_OK(aclrtMallocHost(&hp, total));
	T_ACL_OK(aclrtMalloc(&d, total, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtCreateStream(&st));
	pin = hp;
	t_pattern_fill(pin, total, 77);
	t_pattern_fill(pg, total, 77);
	batch_alloc(&b, n);
	/* Thirds: pinned (HOST), pageable (UNREGISTERED), mixed (HOST_NUMA). */
	batch_attr(&b, 0, loc(ACL_MEM_LOCATION_TYPE_HOST, 0),
		   loc(ACL_MEM_LOCATION_TYPE_DEVICE, dev));
	batch_attr(&b, n / 3, loc(ACL_MEM_LOCATION_TYPE_UNREGISTERED, 0),
		   loc(ACL_MEM_LOCATION_TYPE_DEVICE, dev));
	batch_attr(&b, 2 * n / 3, loc(ACL_MEM_LOCATION_TYPE_HOST_NUMA, 0),
		   loc(ACL_MEM_LOCATION_TYPE_DEVICE, dev));
	for (i = 0; i < n; i++)
		batch_set(&b, i, (char *)d + at[i],
			  (i < n / 3 || (i >= 2 * n / 3 && i % 2) ? pin : pg) +
			  at[i],
			  size[i]);
	T_ACL_OK(aclrtMemset(d, total, 0, total));
	T_ACL_OK(batch_sync(&b, &fail));
	/* Back by the asynchronous call, into pageable memory: no zero sizes. */
	b.nattrs = 0;
	batch_attr(&b, 0, loc(ACL_MEM_LOCATION_TYPE_DEVICE, dev),
		   loc(ACL_MEM_LOCATION_TYPE_UNREGISTERED, 0));
	memset(back, 0, total);
	for (i = 0; i < n; i++)
		batch_set(&b, i, back + at[i], (char *)d + at[i],
			  size[i] ? size[i] : 1);
	T_ACL_OK(batch_async(&b, &fail, st));
	/* A pageable member: the call returned after the batch completed. */
	for (i = 0; i < n; i++)
		ck_assert_msg(!memcmp(back + at[i], pg + at[i], size[i]) &&
			      (size[i] || !back[at[i]]),
			      "copy %zu of %zu bytes differs", i, size[i]);
	T_ACL_OK(aclrtSynchronizeStream(st));
	batch_free(&b);
	free(size);
	free(at);
	free(pg);
	free(back);
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(hp));
	T_ACL_OK(aclrtDestroyStream(st));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* Per-copy errors name the copy in failIndex and leave nothing queued. */
START_TEST(test_batch_errors)
{
	char pg[64] = { 0 };
	struct batch b;
	void *d, *h;
	size_t fail;
	int dev, i;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMallocHost(&h, 4096));
	batch_alloc(&b, 4);
	batch_attr(&b, 0, loc(ACL_MEM_LOCATION_TYPE_HOST, 0),
		   loc(ACL_MEM_LOCATION_TYPE_DEVICE, dev));
	for (i = 0; i < 4; i++)
		batch_set(&b, (size_t)i, (char *)d + 64 * i, (char *)h + 64 * i, 64);
	T_ACL_OK(batch_sync(&b, &fail));
	ck_assert_uint_eq(fail, SIZE_MAX);
	/* The device id of the attribute must be the pointer's. */
	b.attrs[0].dstLoc.id = (uint32_t)dev + 1;
	T_ACL_EQ(batch_sync(&b, &fail), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(fail, 0);
	t_acl_msg_has("attrs[0].dstLoc says type=1");
	b.attrs[0].dstLoc.id = (uint32_t)dev;
	/* A source that is device memory under a HOST attribute. */
	b.srcs[2] = (char *)d + 1024;
	T_ACL_EQ(batch_async(&b, &fail, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(fail, 2);
	t_acl_msg_has("srcs[2]=");
	/* Device to device under matching attributes: not a batch copy. */
	batch_attr(&b, 2, loc(ACL_MEM_LOCATION_TYPE_DEVICE, dev),
		   loc(ACL_MEM_LOCATION_TYPE_DEVICE, dev));
	T_ACL_EQ(batch_sync(&b, &fail), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(fail, 2);
	t_acl_msg_has("batches copy between host and device");
	/* Two directions in one batch. */
	b.attrs[1].srcLoc = loc(ACL_MEM_LOCATION_TYPE_DEVICE, dev);
	b.attrs[1].dstLoc = loc(ACL_MEM_LOCATION_TYPE_UNREGISTERED, 0);
	b.dsts[2] = pg;
	T_ACL_EQ(batch_sync(&b, &fail), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(fail, 2);
	t_acl_msg_has("one direction per batch");
	/* Host to host. */
	b.srcs[2] = (char *)h + 1024;
	b.attrs[1].srcLoc = loc(ACL_MEM_LOCATION_TYPE_HOST, 0);
	T_ACL_EQ(batch_async(&b, &fail, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(fail, 2);
	/* A zero-size copy in an asynchronous batch. */
	b.nattrs = 1;
	b.srcs[2] = (char *)h + 128;
	b.dsts[2] = (char *)d + 128;
	b.sizes[3] = 0;
	T_ACL_EQ(batch_async(&b, &fail, NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(fail, 3);
	t_acl_msg_has("sizes[3]=0 in an asynchronous batch");
	T_ACL_OK(batch_sync(&b, &fail));	/* fine synchronously */
	T_ACL_OK(aclrtSynchronizeStream(NULL));	/* nothing failed queued */
	batch_free(&b);
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/*
 * One descriptor replayed 10,000 times (20 on edu) on a stream, with
 * the destination wiped now and then; rewritten, and copied to another
 * descriptor's memory by a plain D2D copy (read back from the device).
 */
START_TEST(test_desc_replay)
{
	int reps = _i ? 10000 : 20, r, dev;
	size_t len = _i ? 4096 : 128, dsz = 0;
	void *d, *desc, *desc2, *src, *dst, *h;
	aclrtStream st;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&st));
	T_ACL_OK(aclrtGetMemcpyDescSize(INNER, &dsz));
	T_ACL_OK(aclrtMalloc(&desc, dsz, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMalloc(&desc2, dsz, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMalloc(&d, 3 * len, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMallocHost(&h, len));
	src = d;
	dst = (char *)d + len;
	t_pattern_fill(h, len, 3);
	T_ACL_OK(aclrtMemcpy(src, len, h, len, H2D));
	T_ACL_OK(aclrtSetMemcpyDesc(desc, INNER, src, dst, len, NULL));
	for (r = 0; r < reps; r++) {
		if (r % 1000 == 999 || r == reps / 2)
			T_ACL_OK(aclrtMemsetAsync(dst, len, 0, len, st));
		T_ACL_OK(aclrtMemcpyAsyncWithDesc(desc, INNER, st));
	}
	T_ACL_OK(aclrtSynchronizeStream(st));
	memset(h, 0, len);
	T_ACL_OK(aclrtMemcpy(h, len, dst, len, D2H));
	ck_assert_uint_eq(t_pattern_check(h, len, 3), len);
	/* Rewrite: later launches use the new target. */
	T_ACL_OK(aclrtSetMemcpyDesc(desc, INNER, dst, (char *)d + 2 * len, len,
				    NULL));
	T_ACL_OK(aclrtMemcpyAsyncWithDesc(desc, INNER, st));
	/* A descriptor whose bytes were copied by other means. */
	T_ACL_OK(aclrtMemcpy(desc2, dsz, desc, dsz, ACL_MEMCPY_DEVICE_TO_DEVICE));
	T_ACL_OK(aclrtMemcpyAsyncWithDesc(desc2, INNER, st));
	T_ACL_OK(aclrtSynchronizeStream(st));
	memset(h, 0, len);
	T_ACL_OK(aclrtMemcpy(h, len, (char *)d + 2 * len, len, D2H));
	ck_assert_uint_eq(t_pattern_check(h, len, 3), len);
	/* Errors that need a device. */
	T_ACL_EQ(aclrtSetMemcpyDesc(desc, INNER, h, dst, len, NULL),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("srcAddr=");
	T_ACL_EQ(aclrtMemcpyAsyncWithDesc(h, INNER, st),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("is not device memory");
	T_ACL_EQ(aclrtMemcpyAsyncWithDesc((char *)desc + 8, INNER, st),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("aligned");
	/* Bytes that describe no copy: the stream reports it, then goes on. */
	T_ACL_OK(aclrtMemset(desc2, dsz, 0x5a, dsz));
	T_ACL_OK(aclrtMemcpyAsyncWithDesc(desc2, INNER, st));
	T_ACL_EQ(aclrtSynchronizeStream(st), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclrtMemcpyAsyncWithDesc(desc, INNER, st));
	T_ACL_OK(aclrtSynchronizeStream(st));
	T_ACL_OK(aclrtFree(desc));
	T_ACL_OK(aclrtFree(desc2));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtDestroyStream(st));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/*
 * A descriptor is read when its copy runs: rewritten by a copy queued
 * before it on the stream (no synchronize between), and by
 * aclrtSetMemcpyDesc() between replays of a captured graph; a
 * descriptor naming memory freed since fails on the stream only.
 */
START_TEST(test_desc_read_late)
{
	size_t len = _i ? 4096 : 128, dsz = 0, k;
	void *d, *desc, *other, *gone;
	uint8_t *h;
	aclrtStream st;
	aclmdlRI ri;
	int dev, r;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&st));
	T_ACL_OK(aclrtGetMemcpyDescSize(INNER, &dsz));
	T_ACL_OK(aclrtMalloc(&desc, dsz, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMalloc(&other, dsz, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMalloc(&d, 4 * len, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMallocHost((void **)&h, len));
	/* Chunk k of d holds pattern k. */
	for (k = 0; k < 2; k++) {
		t_pattern_fill(h, len, 20 + k);
		T_ACL_OK(aclrtMemcpy((char *)d + k * len, len, h, len, H2D));
	}
	T_ACL_OK(aclrtSetMemcpyDesc(desc, INNER, d, (char *)d + 2 * len, len,
				    NULL));
	T_ACL_OK(aclrtSetMemcpyDesc(other, INNER, (char *)d + len,
				    (char *)d + 3 * len, len, NULL));
	/* desc becomes other's copy by a copy queued just before it. */
	T_ACL_OK(aclrtMemcpyAsync(desc, dsz, other, dsz,
				  ACL_MEMCPY_DEVICE_TO_DEVICE, st));
	T_ACL_OK(aclrtMemcpyAsyncWithDesc(desc, INNER, st));
	T_ACL_OK(aclrtSynchronizeStream(st));
	T_ACL_OK(aclrtMemcpy(h, len, (char *)d + 3 * len, len, D2H));
	ck_assert_uint_eq(t_pattern_check(h, len, 21), len);

	/* Captured once, replayed with the descriptor set in between. */
	T_ACL_OK(aclmdlRICaptureBegin(st, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	T_ACL_OK(aclrtMemcpyAsyncWithDesc(desc, INNER, st));
	T_ACL_OK(aclmdlRICaptureEnd(st, &ri));
	for (r = 0; r < 4; r++) {
		T_ACL_OK(aclrtSetMemcpyDesc(desc, INNER, (char *)d + r % 2 * len,
					    (char *)d + (2 + r / 2) * len, len,
					    NULL));
		T_ACL_OK(aclmdlRIExecuteAsync(ri, st));
		T_ACL_OK(aclrtSynchronizeStream(st));
		T_ACL_OK(aclrtMemcpy(h, len, (char *)d + (2 + r / 2) * len, len,
				     D2H));
		ck_assert_uint_eq(t_pattern_check(h, len, 20 + r % 2), len);
	}
	/* Memory freed since: that copy fails, the stream goes on. */
	T_ACL_OK(aclrtMalloc(&gone, len, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtSetMemcpyDesc(desc, INNER, d, gone, len, NULL));
	T_ACL_OK(aclrtFree(gone));
	T_ACL_OK(aclrtMemcpyAsyncWithDesc(desc, INNER, st));
	T_ACL_EQ(aclrtSynchronizeStream(st), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclmdlRIExecuteAsync(ri, st));
	T_ACL_EQ(aclrtSynchronizeStream(st), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclrtMemcpyAsync(h, len, d, len, D2H, st));
	T_ACL_OK(aclrtSynchronizeStream(st));
	ck_assert_uint_eq(t_pattern_check(h, len, 20), len);
	/* The descriptor itself freed since the capture: read no more. */
	T_ACL_OK(aclrtFree(desc));
	T_ACL_OK(aclmdlRIExecuteAsync(ri, st));
	T_ACL_EQ(aclrtSynchronizeStream(st), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclmdlRIDestroy(ri));
	T_ACL_OK(aclrtFree(other));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtDestroyStream(st));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* Base addresses in device memory, written by the stream before the call. */
START_TEST(test_offset_copy)
{
	size_t len = 2048;
	void *d, *slots, *h, *bases[2];
	aclrtStream st;
	aclmdlRI ri;
	int dev, r;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&st));
	T_ACL_OK(aclrtMalloc(&d, 4 * len, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMalloc(&slots, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMallocHost(&h, 4 * len));
	bases[0] = (char *)d + 2 * len;		/* dst base */
	bases[1] = d;				/* src base */
	t_pattern_fill(h, len, 11);
	T_ACL_OK(aclrtMemcpy((char *)d + 100, len, h, len, H2D));
	memcpy((char *)h + len, bases, sizeof(bases));
	T_ACL_OK(aclrtMemcpyAsync(slots, 64, (char *)h + len, sizeof(bases),
				  H2D, st));
	T_ACL_OK(aclrtMemcpyAsyncWithOffset((void **)slots, 2 * len, 50,
					    (const void **)((char *)slots + 8),
					    len, 100, INNER, st));
	T_ACL_OK(aclrtSynchronizeStream(st));
	memset(h, 0, len);
	T_ACL_OK(aclrtMemcpy(h, len, (char *)d + 2 * len + 50, len, D2H));
	ck_assert_uint_eq(t_pattern_check(h, len, 11), len);
	/*
	 * Captured, then replayed with other bases written by a copy queued
	 * just before each replay: the bases are read when the copy runs.
	 */
	T_ACL_OK(aclmdlRICaptureBegin(st, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	T_ACL_OK(aclrtMemcpyAsyncWithOffset((void **)slots, 2 * len, 0,
					    (const void **)((char *)slots + 8),
					    len, 100, INNER, st));
	T_ACL_OK(aclmdlRICaptureEnd(st, &ri));
	for (r = 0; r < 2; r++) {
		bases[0] = (char *)d + (2 + r) * len;
		memcpy((char *)h + len, bases, sizeof(bases));
		T_ACL_OK(aclrtMemcpyAsync(slots, 64, (char *)h + len,
					  sizeof(bases), H2D, st));
		T_ACL_OK(aclmdlRIExecuteAsync(ri, st));
		T_ACL_OK(aclrtSynchronizeStream(st));
		memset(h, 0, len);
		T_ACL_OK(aclrtMemcpy(h, len, (char *)d + (2 + r) * len, len,
				     D2H));
		ck_assert_uint_eq(t_pattern_check(h, len, 11), len);
	}
	T_ACL_OK(aclmdlRIDestroy(ri));
	/* A base outside device memory: the copy fails on the stream. */
	bases[1] = h;
	memcpy((char *)h + len, bases, sizeof(bases));
	T_ACL_OK(aclrtMemcpy(slots, 64, (char *)h + len, sizeof(bases), H2D));
	T_ACL_OK(aclrtMemcpyAsyncWithOffset((void **)slots, 2 * len, 0,
					    (const void **)((char *)slots + 8),
					    len, 0, INNER, st));
	T_ACL_EQ(aclrtSynchronizeStream(st), ACL_ERROR_RT_PARAM_INVALID);
	/* A slot that is not 8-byte aligned. */
	T_ACL_EQ(aclrtMemcpyAsyncWithOffset((void **)((char *)slots + 4),
					    2 * len, 0,
					    (const void **)((char *)slots + 8),
					    len, 0, INNER, st),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("aligned");
	/* A slot that holds a host address. */
	T_ACL_EQ(aclrtMemcpyAsyncWithOffset((void **)slots, 2 * len, 0,
					    (const void **)&bases[1], len, 0,
					    INNER, st),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("src=");
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFree(slots));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtDestroyStream(st));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

START_TEST(test_memset_d32)
{
	size_t n = _i ? 1 << 20 : 256, i, bad = 0;
	uint32_t *h, *back, *w;
	void *d, *hp, *bp, *pp;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtMalloc(&d, n * 4 + 8, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMallocHost(&hp, n * 4));
	T_ACL_OK(aclrtMallocHost(&bp, n * 4 + 8));
	h = hp;
	back = bp;
	T_ACL_OK(aclrtMemset(d, n * 4 + 8, 0x11, n * 4 + 8));
	T_ACL_OK(aclrtMemsetD32((char *)d + 4, n * 4, 0xdeadbeef, n));
	T_ACL_OK(aclrtMemsetD32Async(d, 4, 0x01020304, 1, NULL));
	T_ACL_OK(aclrtSynchronizeStream(NULL));
	T_ACL_OK(aclrtMemcpy(back, n * 4 + 8, d, n * 4 + 8, D2H));
	ck_assert_uint_eq(back[0], 0x01020304);
	for (i = 1; i <= n; i++)
		bad += back[i] != 0xdeadbeef;
	ck_assert_uint_eq(bad, 0);
	ck_assert_uint_eq(back[n + 1], 0x11111111);
	/* Pinned host memory: filled at once by both calls. */
	T_ACL_OK(aclrtMemsetD32Async(h, n * 4, 7, n, NULL));
	ck_assert_uint_eq(h[n - 1], 7);
	T_ACL_OK(aclrtMemsetD32(h, n * 4, 9, n - 1));
	ck_assert_uint_eq(h[n - 2], 9);
	ck_assert_uint_eq(h[n - 1], 7);
	T_ACL_EQ(aclrtMemsetD32((char *)d + 2, 8, 0, 1), ACL_ERROR_INVALID_PARAM);
	/*
	 * The CPU fills host memory: a memSize larger than the buffer must
	 * not let it write past the end of the page it got (two words, the
	 * second one beyond); the last word alone is fine.
	 */
	T_ACL_OK(aclrtMallocHost(&pp, 4096));
	w = pp;
	w[1023] = 5;
	T_ACL_EQ(aclrtMemsetD32(w + 1023, 1 << 20, 0, 2),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("past the end");
	T_ACL_EQ(aclrtMemsetD32Async(w + 1023, 1 << 20, 0, 2, NULL),
		 ACL_ERROR_INVALID_PARAM);
	ck_assert_uint_eq(w[1023], 5);
	T_ACL_OK(aclrtMemsetD32(w + 1023, 4, 6, 1));
	ck_assert_uint_eq(w[1023], 6);
	T_ACL_OK(aclrtFreeHost(pp));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(hp));
	T_ACL_OK(aclrtFreeHost(bp));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

struct t_noctx {
	aclrtStream s;
	void *d, *h;
	aclError ret;
};

static void *t_noctx_run(void *arg)
{
	struct t_noctx *a = arg;

	a->ret = aclrtMemcpy2dAsync(a->d, 64, a->h, 64, 64, 2, H2D, a->s);
	return NULL;
}

/*
 * The stream of a copy or fill must belong to the thread's current
 * context (CANN: 107003); a thread with no context gets 107002. NULL is
 * still the current context's default stream.
 */
START_TEST(test_stream_of_other_context)
{
	struct t_noctx a = { 0 };
	aclrtContext def, other;
	size_t fail = 0;
	struct batch b;
	pthread_t th;
	void *d, *h;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtGetCurrentContext(&def));
	T_ACL_OK(aclrtCreateStream(&a.s));
	T_ACL_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMallocHost(&h, 4096));
	batch_alloc(&b, 1);
	batch_set(&b, 0, d, h, 64);
	batch_attr(&b, 0, loc(ACL_MEM_LOCATION_TYPE_HOST, 0),
		   loc(ACL_MEM_LOCATION_TYPE_DEVICE, dev));
	T_ACL_OK(aclrtCreateContext(&other, dev));	/* now current */
	T_ACL_EQ(aclrtMemcpyAsync(d, 64, h, 64, H2D, a.s),
		 ACL_ERROR_RT_STREAM_CONTEXT);
	t_acl_msg_has("not to this thread's current context");
	T_ACL_EQ(aclrtMemsetAsync(d, 64, 0, 64, a.s), ACL_ERROR_RT_STREAM_CONTEXT);
	T_ACL_EQ(aclrtMemcpy2dAsync(d, 64, h, 64, 64, 2, H2D, a.s),
		 ACL_ERROR_RT_STREAM_CONTEXT);
	T_ACL_EQ(batch_async(&b, &fail, a.s), ACL_ERROR_RT_STREAM_CONTEXT);
	T_ACL_EQ(aclrtMemcpyAsyncWithDesc(d, INNER, a.s),
		 ACL_ERROR_RT_STREAM_CONTEXT);
	T_ACL_EQ(aclrtMemsetD32Async(d, 64, 7, 16, a.s),
		 ACL_ERROR_RT_STREAM_CONTEXT);
	T_ACL_OK(aclrtMemsetD32Async(d, 64, 7, 16, NULL));
	T_ACL_OK(aclrtSynchronizeStream(NULL));
	T_ACL_OK(aclrtDestroyContext(other));
	/* A thread that never set a device or context. */
	a.d = d;
	a.h = h;
	ck_assert_int_eq(pthread_create(&th, NULL, t_noctx_run, &a), 0);
	pthread_join(th, NULL);
	ck_assert_int_eq(a.ret, ACL_ERROR_RT_CONTEXT_NULL);
	/* Its own context again: the same calls work. */
	T_ACL_OK(aclrtSetCurrentContext(def));
	T_ACL_OK(aclrtMemcpy2dAsync(d, 64, h, 64, 64, 2, H2D, a.s));
	T_ACL_OK(batch_async(&b, &fail, a.s));
	T_ACL_OK(aclrtSynchronizeStream(a.s));
	batch_free(&b);
	T_ACL_OK(aclrtDestroyStream(a.s));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

static Suite *acl_batch_suite(void)
{
	Suite *s = suite_create("t_acl_batch");
	TCase *tc = tcase_create("batch");

	tcase_set_timeout(tc, 240);
	tcase_add_loop_test(tc, test_batch_tiny_copies, 0, 2);
	tcase_add_loop_test(tc, test_batch_mixed_sizes, 0, 2);
	tcase_add_loop_test(tc, test_batch_errors, 0, 2);
	tcase_add_loop_test(tc, test_desc_replay, 0, 2);
	tcase_add_loop_test(tc, test_desc_read_late, 0, 2);
	tcase_add_loop_test(tc, test_offset_copy, 0, 2);
	tcase_add_loop_test(tc, test_memset_d32, 0, 2);
	tcase_add_loop_test(tc, test_stream_of_other_context, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(acl_batch_suite());
}
