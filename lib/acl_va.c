// SPDX-License-Identifier: MIT
/*
 * libacl: device pointers. Per NPU, a host virtual range as large as its
 * device memory is reserved PROT_NONE; device address A is presented to
 * the application as va_base + (A - mem_base). Such a pointer faults if
 * the host dereferences it, can never equal a host pointer, and names its
 * NPU by a range check. The reservation lives until aclFinalize(), so a
 * pointer stays recognisable (and is rejected cleanly) after a reset.
 */
#include <errno.h>
#include <sys/mman.h>

#include "acl_objects.h"
#include "acl_mem.h"

bool acl_va_contains(const struct acl_va *va, uintptr_t p)
{
	return va->base && p >= va->base && p - va->base < va->size;
}

void *acl_dev_to_va(const struct acl_va *va, uint64_t dev_addr)
{
	return (void *)(va->base + (uintptr_t)(dev_addr - va->mem_base));
}

/*
 * The device's memory and, after it, its window of virtual device
 * addresses (aclrtReserveMemAddress, acl_vmm.c): one linear range.
 */
uint64_t acl_va_span(const struct npu_dma_info *info)
{
	if (!info->vmm_size)
		return info->mem_size;
	return NPU_DMA_VMM_BASE(info->mem_base, info->mem_size) -
	       info->mem_base + info->vmm_size;
}

int acl_va_reserve(struct acl_device *dev)
{
	uint64_t size = acl_va_span(&dev->info);
	void *p;

	if (dev->va_base)
		return 0;
	p = mmap(NULL, size, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	dev->va_size = size;
	__atomic_store_n(&dev->va_base, (uintptr_t)p, __ATOMIC_RELEASE);
	return 0;
}

void acl_va_release(struct acl_device *dev)
{
	if (!dev->va_base)
		return;
	munmap((void *)dev->va_base, dev->va_size);
	__atomic_store_n(&dev->va_base, 0, __ATOMIC_RELEASE);
	dev->va_size = 0;
}

struct acl_device *acl_va_find(const void *p)
{
	int i, n = __atomic_load_n(&acl_g.ndev, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++) {
		struct acl_va va = acl_dev_va(&acl_g.dev[i]);

		if (acl_va_contains(&va, (uintptr_t)p))
			return &acl_g.dev[i];
	}
	return NULL;
}
