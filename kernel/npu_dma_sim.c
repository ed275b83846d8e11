// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: software-simulated NPUs.
 *
 * Each simulated NPU is a platform device "npu_dma_sim.N" bound to the
 * driver below, so it looks to the driver core (and to sysfs) like any
 * other device. nr_sim instances are created at module load.
 */

#include <linux/dma-mapping.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include "npu_dma_engine.h"
#include "npu_dma_reduce.h"

#define NPU_SIM_DRV_NAME	NPU_DMA_NAME "_sim"
#define NPU_SIM_MAX_DEVICES	32
#define NPU_SIM_MAX_CHANNELS	16
#define NPU_SIM_MAX_MEM_MB	(1024 * 1024)

static unsigned int sim_mem_mb = 16384;
module_param(sim_mem_mb, uint, 0444);
MODULE_PARM_DESC(sim_mem_mb,
		 "Device memory of each simulated NPU in MiB, backed on first use (1..1048576, default 16384)");

static unsigned int sim_switch;
module_param(sim_switch, uint, 0444);
MODULE_PARM_DESC(sim_switch,
		 "Simulated NPUs behind each simulated PCIe switch; NPUs are peers only behind the same switch (0: all behind one, default)");

static unsigned int sim_channels = 4;
module_param(sim_channels, uint, 0444);
MODULE_PARM_DESC(sim_channels,
		 "DMA channels of each simulated NPU (1..16, default 4)");

/**
 * struct npu_dma_sim - one simulated NPU
 * @ndev: the NPU it backs
 */
struct npu_dma_sim {
	struct npu_dma_device *ndev;
};

/*
 * Word-at-a-time copy for 8-byte aligned pieces. memcpy() may use string
 * instructions (rep movs), which some CPUs (and emulators, as in the
 * developer VM) run much slower than plain loads and stores; which one
 * the engine uses is measured at load, as the RAID xor code does.
 */
static void npu_sim_copy_words(void *dst, const void *src, size_t len)
{
	u64 *d = dst;
	const u64 *s = src;
	size_t i, n = len / 8;

	for (i = 0; i + 8 <= n; i += 8) {
		u64 a = s[i], b = s[i + 1], c = s[i + 2], e = s[i + 3];
		u64 f = s[i + 4], g = s[i + 5], h = s[i + 6], k = s[i + 7];

		d[i] = a;
		d[i + 1] = b;
		d[i + 2] = c;
		d[i + 3] = e;
		d[i + 4] = f;
		d[i + 5] = g;
		d[i + 6] = h;
		d[i + 7] = k;
	}
	for (; i < n; i++)
		d[i] = s[i];
	memcpy(d + n, s + n, len % 8);
}

static bool npu_sim_use_words;

/*
 * Move one piece with the copy the engine uses. The length is hidden
 * from the compiler: given a constant PAGE_SIZE, GCC inlines "rep movsq"
 * instead of calling memcpy(), and calibrating that would time a copy
 * the engine never runs (the out-of-line memcpy() may be "rep movsb",
 * which TCG emulates a byte per iteration: 6 to 8 times slower).
 */
static void npu_sim_move(void *d, const void *s, size_t len, bool words)
{
	OPTIMIZER_HIDE_VAR(len);
	if (words && !(((unsigned long)d | (unsigned long)s) & 7))
		npu_sim_copy_words(d, s, len);
	else
		memcpy(d, s, len);
}

/*
 * Pieces of whole 8-byte words, 8-byte aligned, up to this size (narrow
 * 2-D rows) are copied inline with plain loads and stores: for them the
 * calls, tests and tail memcpy() of npu_sim_move() cost more than the
 * bytes.
 */
#define NPU_SIM_SMALL		64

static __always_inline bool npu_sim_copy_small(void *dst, const void *src,
					       unsigned int len)
{
	u64 *d = dst;
	const u64 *s = src;
	unsigned int i;

	if (len > NPU_SIM_SMALL ||
	    (((unsigned long)d | (unsigned long)s | len) & 7))
		return false;
	for (i = 0; i < len / 8; i++)
		d[i] = s[i];
	return true;
}

/* A segment's bytes, mapped unless a dma-buf's vmap already holds them. */
static __always_inline void *npu_sim_map(const struct npu_dma_seg *seg)
{
	return seg->vaddr ?: kmap_local_page(seg->page) + seg->offset;
}

static __always_inline void npu_sim_unmap(const struct npu_dma_seg *seg,
					  void *p)
{
	if (!seg->vaddr)
		kunmap_local(p);
}

/* The simulated DMA engine: a CPU copy between the two pages. */
static __always_inline void npu_sim_copy_seg(const struct npu_dma_seg *dst,
					     const struct npu_dma_seg *src,
					     unsigned int len, bool words)
{
	void *d = npu_sim_map(dst);
	void *s = npu_sim_map(src);

	if (!npu_sim_copy_small(d, s, len))
		npu_sim_move(d, s, len, words);
	npu_sim_unmap(src, s);
	npu_sim_unmap(dst, d);
}

static int npu_sim_copy(struct npu_dma_device *ndev, const struct npu_dma_seg *dst,
			const struct npu_dma_seg *src, size_t len)
{
	npu_sim_copy_seg(dst, src, len, npu_sim_use_words);
	return 0;
}

/* A tight loop: the core hands over a 2-D copy's rows as arrays. */
static int npu_sim_copy_pieces(struct npu_dma_device *ndev,
			       const struct npu_dma_piece *p, unsigned int n)
{
	bool words = npu_sim_use_words;
	unsigned int i;

	for (i = 0; i < n; i++)
		npu_sim_copy_seg(&p[i].dst, &p[i].src, p[i].len, words);
	return 0;
}

/*
 * The engine reduces while it copies: a piece (at most a page, so the
 * caller's scheduling point comes often) combined element by element.
 */
static int npu_sim_reduce(struct npu_dma_device *ndev,
			  const struct npu_dma_seg *dst,
			  const struct npu_dma_seg *src, size_t len, u64 value)
{
	void *d = npu_sim_map(dst);
	void *s = npu_sim_map(src);

	npu_dma_reduce(d, s, len, value);
	npu_sim_unmap(src, s);
	npu_sim_unmap(dst, d);
	return 0;
}

#define NPU_SIM_CAL_ORDER	4	/* 16 pages each way, as a job walks them */
#define NPU_SIM_CAL_ROUNDS	16

/* Nanoseconds for @rounds passes over the calibration pages. */
static u64 npu_sim_time_copy(void *dst, const void *src, bool words, int rounds)
{
	u64 t = ktime_get_ns();
	int i, p;

	for (i = 0; i < rounds; i++)
		for (p = 0; p < 1 << NPU_SIM_CAL_ORDER; p++)
			npu_sim_move(dst + p * PAGE_SIZE, src + p * PAGE_SIZE,
				     PAGE_SIZE, words);
	return ktime_get_ns() - t;
}

static u64 npu_sim_cal_mbps(u64 ns)
{
	return div64_u64((u64)NPU_SIM_CAL_ROUNDS * (PAGE_SIZE << NPU_SIM_CAL_ORDER) *
			 1000, ns ?: 1);
}

/* Pick the faster page copy of this machine; log both. */
static void npu_sim_calibrate(void)
{
	void *a = (void *)__get_free_pages(GFP_KERNEL, NPU_SIM_CAL_ORDER);
	void *b = (void *)__get_free_pages(GFP_KERNEL, NPU_SIM_CAL_ORDER);
	u64 mc, words;

	if (a && b) {
		memset(a, 0x5a, PAGE_SIZE << NPU_SIM_CAL_ORDER);
		npu_sim_time_copy(b, a, false, 1);	/* warm up */
		npu_sim_time_copy(b, a, true, 1);
		mc = npu_sim_time_copy(b, a, false, NPU_SIM_CAL_ROUNDS);
		words = npu_sim_time_copy(b, a, true, NPU_SIM_CAL_ROUNDS);
		npu_sim_use_words = words < mc;
		pr_info(NPU_DMA_NAME ": sim copy: %s (memcpy %llu MB/s, words %llu MB/s)\n",
			npu_sim_use_words ? "words" : "memcpy",
			npu_sim_cal_mbps(mc), npu_sim_cal_mbps(words));
	}
	free_pages((unsigned long)a, NPU_SIM_CAL_ORDER);
	free_pages((unsigned long)b, NPU_SIM_CAL_ORDER);
}

static const struct npu_dma_engine_ops npu_sim_ops = {
	.name = "sim",
	.dma_mapped = false,
	.copy = npu_sim_copy,
	.copy_pieces = npu_sim_copy_pieces,
	.reduce = npu_sim_reduce,
};

static struct platform_device *npu_sim_pdevs[NPU_SIM_MAX_DEVICES];
static unsigned int npu_sim_count;

static int npu_sim_probe(struct platform_device *pdev)
{
	struct npu_dma_device *ndev;
	struct npu_dma_sim *sim;
	int ret;

	sim = devm_kzalloc(&pdev->dev, sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;

	/* The engine addresses host pages directly: any address goes. */
	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	/* Imports are walked page by page: a segment may be any length. */
	ret = dma_set_max_seg_size(&pdev->dev, UINT_MAX);
	if (ret)
		return ret;

	ndev = npu_dma_device_create(&pdev->dev, NPU_DMA_BACKEND_SIM,
				     &npu_sim_ops, sim);
	if (IS_ERR(ndev))
		return PTR_ERR(ndev);
	ndev->mem_size = (u64)sim_mem_mb << 20;
	ndev->nr_channels = sim_channels;
	/* npu_dma_sim.N sits behind switch N / sim_switch. */
	ndev->link_group = sim_switch ?
		*(const unsigned int *)dev_get_platdata(&pdev->dev) / sim_switch : 0;

	ret = npu_dma_device_add(ndev);
	if (ret)
		return ret;
	sim->ndev = ndev;
	platform_set_drvdata(pdev, sim);
	return 0;
}

static int npu_sim_remove(struct platform_device *pdev)
{
	struct npu_dma_sim *sim = platform_get_drvdata(pdev);

	npu_dma_device_remove(sim->ndev);
	return 0;
}

static struct platform_driver npu_sim_driver = {
	.driver = {
		.name = NPU_SIM_DRV_NAME,
	},
	.probe = npu_sim_probe,
	.remove = npu_sim_remove,
};

/**
 * npu_dma_sim_check_params() - check the sim parameters
 * @nr_sim: number of simulated NPUs asked for
 *
 * Return: 0, or -EINVAL with a line naming the parameter.
 */
int npu_dma_sim_check_params(unsigned int nr_sim)
{
	if (nr_sim > NPU_SIM_MAX_DEVICES) {
		pr_err(NPU_DMA_NAME ": nr_sim=%u out of range (0..%u)\n",
		       nr_sim, NPU_SIM_MAX_DEVICES);
		return -EINVAL;
	}
	if (!sim_mem_mb || sim_mem_mb > NPU_SIM_MAX_MEM_MB) {
		pr_err(NPU_DMA_NAME ": sim_mem_mb=%u out of range (1..%u)\n",
		       sim_mem_mb, NPU_SIM_MAX_MEM_MB);
		return -EINVAL;
	}
	if (sim_switch > NPU_SIM_MAX_DEVICES) {
		pr_err(NPU_DMA_NAME ": sim_switch=%u out of range (0..%u)\n",
		       sim_switch, NPU_SIM_MAX_DEVICES);
		return -EINVAL;
	}
	if (!sim_channels || sim_channels > NPU_SIM_MAX_CHANNELS) {
		pr_err(NPU_DMA_NAME ": sim_channels=%u out of range (1..%u)\n",
		       sim_channels, NPU_SIM_MAX_CHANNELS);
		return -EINVAL;
	}
	return 0;
}

/*
 * Sim NPU @n is the platform device "npu_dma_sim.@n", bound to the sim
 * driver by driver_override. Its number is part of the device's name
 * rather than a platform id so that its MODALIAS differs from the other
 * sim NPUs': libdrm tells platform DRM devices without a device tree
 * apart by that alone, and would fold them into one. The number itself
 * travels as platform data.
 */
static struct platform_device *npu_sim_device_add(unsigned int n)
{
	struct platform_device *pdev;
	char name[32];
	int ret;

	snprintf(name, sizeof(name), NPU_SIM_DRV_NAME ".%u", n);
	pdev = platform_device_alloc(name, PLATFORM_DEVID_NONE);
	if (!pdev)
		return ERR_PTR(-ENOMEM);
	/* Freed with the device (platform_device_release()). */
	pdev->driver_override = kstrdup(NPU_SIM_DRV_NAME, GFP_KERNEL);
	ret = pdev->driver_override ? 0 : -ENOMEM;
	if (!ret)
		ret = platform_device_add_data(pdev, &n, sizeof(n));
	if (!ret)
		ret = platform_device_add(pdev);
	if (ret) {
		platform_device_put(pdev);
		return ERR_PTR(ret);
	}
	return pdev;
}

/**
 * npu_dma_sim_init() - register the sim driver and create its devices
 * @nr_sim: number of simulated NPUs
 *
 * Return: 0 or a negative errno; nothing is left registered on failure.
 */
int npu_dma_sim_init(unsigned int nr_sim)
{
	struct platform_device *pdev;
	int ret;

	/* npu_dma_init() has checked the parameters before any probe. */
	if (nr_sim)
		npu_sim_calibrate();

	ret = platform_driver_register(&npu_sim_driver);
	if (ret)
		return ret;

	for (npu_sim_count = 0; npu_sim_count < nr_sim; npu_sim_count++) {
		pdev = npu_sim_device_add(npu_sim_count);
		if (IS_ERR(pdev)) {
			ret = PTR_ERR(pdev);
			pr_err(NPU_DMA_NAME ": Failed to create sim device %u: %d\n",
			       npu_sim_count, ret);
			npu_dma_sim_exit();
			return ret;
		}
		npu_sim_pdevs[npu_sim_count] = pdev;
	}
	return 0;
}

void npu_dma_sim_exit(void)
{
	while (npu_sim_count)
		platform_device_unregister(npu_sim_pdevs[--npu_sim_count]);
	platform_driver_unregister(&npu_sim_driver);
}
