// SPDX-License-Identifier: MIT
/*
 * libacl: device pointers. Per NPU, a host virtual range as large as its
 * device memory is reserved PROT_NONE; device address A is presented to
 * the application as va_base + (A - mem_base). Such a pointer faults if
 * the host dereferences it, can never equal a host pointer, and names its
 * NPU by a range check. The reservation lives until aclFinalize(), so a
 * pointer stays recognisable (and is rejected cleanly) after a reset.
 *
 * In a forked child the parent's reservations stay reserved but are
 * no device's any more (acl_va_inherit()): each device gets a new range
 * when the child opens it, so a pointer of the parent never aliases one
 * of the child, and acl_va_find() answers acl_va_parent, a device that
 * is never open, for it: every path that checks a device pointer's NPU
 * is open refuses it (acl_err_dev_gone() says why).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "acl_objects.h"
#include "acl_device.h"
#include "acl_error.h"
#include "acl_mem.h"

/* The reservations of the parent (and its ancestors), in a forked child. */
struct acl_va_range {
	uintptr_t base;
	uint64_t size;
};

/* Changed by the fork handler and under acl_g.lock; read unlocked. */
static struct acl_va_range *acl_va_inh;
static size_t acl_va_ninh;

struct acl_device acl_va_parent = { .id = -1, .fd = -1 };

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
	size_t k;

	for (i = 0; i < n; i++) {
		struct acl_va va = acl_dev_va(&acl_g.dev[i]);

		if (acl_va_contains(&va, (uintptr_t)p))
			return &acl_g.dev[i];
	}
	for (k = 0; k < acl_va_ninh; k++)
		if ((uintptr_t)p - acl_va_inh[k].base < acl_va_inh[k].size)
			return &acl_va_parent;
	return NULL;
}

aclError acl_devptr_check(const char *name, const void *p,
			  struct acl_device **dev)
{
	struct acl_device *d = acl_va_find(p);

	if (!d)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%s=%p is not device memory", name, p);
	if (!acl_device_is_open(d))
		return acl_err_dev_gone(name, p, d);
	if (*dev && *dev != d)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%s=%p is on device %d, not device %d", name, p,
			       d->id, (*dev)->id);
	*dev = d;
	return ACL_SUCCESS;
}

void acl_va_inherit(struct acl_device *dev)
{
	struct acl_va_range *v;

	if (!dev->va_base)
		return;
	v = realloc(acl_va_inh, (acl_va_ninh + 1) * sizeof(*v));
	if (v) {
		acl_va_inh = v;
		v[acl_va_ninh].base = dev->va_base;
		v[acl_va_ninh++].size = dev->va_size;
	} else {
		/* Not recognised then, but still never the child's. */
		munmap((void *)dev->va_base, dev->va_size);
	}
	dev->va_base = 0;
	dev->va_size = 0;
}

void acl_va_release_inherited(void)
{
	size_t k;

	for (k = 0; k < acl_va_ninh; k++)
		munmap((void *)acl_va_inh[k].base, acl_va_inh[k].size);
	acl_va_ninh = 0;
	free(acl_va_inh);
	acl_va_inh = NULL;
}
