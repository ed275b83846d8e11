// SPDX-License-Identifier: MIT
/*
 * libacl: device memory this process holds, per device and per component
 * (aclrtGetMemUsageInfo): what each family of calls has allocated and not
 * yet given back, and the most it held at once.
 *
 * Every byte of device memory the library holds comes from one MEM_ALLOC
 * (acl_mem.c for aclrtMalloc* and the memory pools' chunks, acl_vmm.c for
 * physical allocations); the driver answers with the size it reserved,
 * after rounding to its page size, and that size is charged to the
 * allocation's component until its GEM handle is closed. The figures
 * therefore move exactly as the device's free memory (aclrtGetMemInfo)
 * does for this process's allocations. The library allocates no device
 * memory for itself: its queues, completion areas and event tables are
 * host memory of the driver's.
 *
 * The counters are the device's, under its mem_lock, and describe the
 * current opening of its file: closing the file frees everything the
 * process held there, so they restart at zero (current and peak).
 */
#include <stdio.h>
#include <string.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_device.h"
#include "acl_mem.h"

/* The component names aclrtGetMemUsageInfo reports. */
static const char *const acl_usage_names[ACL_MEM_USE_NR] = {
	[ACL_MEM_USE_APP] = "app",
	[ACL_MEM_USE_VMM] = "vmm",
	[ACL_MEM_USE_MEMPOOL] = "mempool",
};

void acl_usage_charge_locked(struct acl_device *dev, enum acl_mem_use use,
			     uint64_t bytes)
{
	struct acl_mem_usage *u = &dev->usage;

	u->cur[use] += bytes;
	if (u->cur[use] > u->peak[use])
		u->peak[use] = u->cur[use];
}

void acl_usage_uncharge_locked(struct acl_device *dev, enum acl_mem_use use,
			       uint64_t bytes)
{
	struct acl_mem_usage *u = &dev->usage;

	/* Never below zero, should a charge have been lost to a reset. */
	u->cur[use] -= bytes < u->cur[use] ? bytes : u->cur[use];
}

/* Is @dev still the opening of generation @gen (mem_lock held)? */
static bool acl_usage_live(const struct acl_device *dev, uint64_t gen)
{
	return acl_device_is_open(dev) &&
	       __atomic_load_n(&dev->gen, __ATOMIC_ACQUIRE) == gen;
}

void acl_usage_charge(struct acl_device *dev, uint64_t gen,
		      enum acl_mem_use use, uint64_t bytes)
{
	pthread_mutex_lock(&dev->mem_lock);
	if (acl_usage_live(dev, gen))
		acl_usage_charge_locked(dev, use, bytes);
	pthread_mutex_unlock(&dev->mem_lock);
}

void acl_usage_uncharge(struct acl_device *dev, uint64_t gen,
			enum acl_mem_use use, uint64_t bytes)
{
	pthread_mutex_lock(&dev->mem_lock);
	if (acl_usage_live(dev, gen))
		acl_usage_uncharge_locked(dev, use, bytes);
	pthread_mutex_unlock(&dev->mem_lock);
}

void acl_usage_forget_locked(struct acl_device *dev)
{
	memset(&dev->usage, 0, sizeof(dev->usage));
}

/* Is @a listed before @b? More held first, then the higher peak. */
static bool acl_usage_before(const struct acl_mem_usage *u, int a, int b)
{
	if (u->cur[a] != u->cur[b])
		return u->cur[a] > u->cur[b];
	if (u->peak[a] != u->peak[b])
		return u->peak[a] > u->peak[b];
	return a < b;
}

/* The components of @u in report order, into @order. */
static void acl_usage_sort(const struct acl_mem_usage *u,
			   int order[ACL_MEM_USE_NR])
{
	int i, j;

	/* Insertion sort: three entries. */
	for (i = 0; i < ACL_MEM_USE_NR; i++) {
		for (j = i; j > 0 && acl_usage_before(u, i, order[j - 1]); j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
}

static void acl_usage_fill(aclrtMemUsageInfo *info,
			   const struct acl_mem_usage *u, int use)
{
	memset(info, 0, sizeof(*info));
	snprintf(info->name, sizeof(info->name), "%s", acl_usage_names[use]);
	info->curMemSize = u->cur[use];
	info->memPeakSize = u->peak[use];
}

ACL_FUNC_VISIBILITY aclError aclrtGetMemUsageInfo(int32_t deviceId,
						  aclrtMemUsageInfo *memUsageInfo,
						  size_t inputNum,
						  size_t *outputNum)
{
	int order[ACL_MEM_USE_NR];
	struct acl_mem_usage u;
	struct acl_device *dev;
	size_t i, n;

	ACL_ENTER();
	if (!memUsageInfo || !outputNum)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "memUsageInfo=%p outputNum=%p: neither may be NULL",
			       (void *)memUsageInfo, (void *)outputNum);
	*outputNum = 0;
	if (!inputNum)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "inputNum=0: room for at least one component "
			       "is needed");
	dev = acl_device_get(deviceId);
	if (!dev)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	/* One snapshot: the entries agree with each other. */
	pthread_mutex_lock(&dev->mem_lock);
	u = dev->usage;
	pthread_mutex_unlock(&dev->mem_lock);
	acl_usage_sort(&u, order);
	n = inputNum < ACL_MEM_USE_NR ? inputNum : ACL_MEM_USE_NR;
	for (i = 0; i < n; i++)
		acl_usage_fill(&memUsageInfo[i], &u, order[i]);
	*outputNum = n;
	return ACL_SUCCESS;
}
