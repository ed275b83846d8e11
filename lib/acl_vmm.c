// SPDX-License-Identifier: MIT
/*
 * libacl: CANN's virtual memory management: physical allocations, address
 * reservations, mappings between them, and physical allocations shared
 * with other processes through shareable handles.
 *
 * Each device's reservation of host addresses (acl_va.c) covers its
 * memory and, after it, the driver's window of virtual device addresses
 * (GET_INFO.vmm_size): a reserved range is a piece of that window, so its
 * pointers convert to device addresses like any device pointer's, and a
 * copy through one is checked by the driver against the file's mappings
 * (DRM_IOCTL_NPU_DMA_VMM_MAP). A physical allocation is an ordinary
 * allocation of the driver that the library never hands out a pointer
 * to; aclrtDrvMemHandle points at its struct acl_phys.
 *
 * A range is reserved on the current device and holds mappings of that
 * device's memory only (CANN forbids one range over two devices' memory;
 * its ranges are not tied to a device until mapped, ours from the start).
 * Shareable handles are the driver's 64-bit IPC keys of whole physical
 * allocations; importing one gives a GEM handle of the allocation.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_kmd.h"
#include "acl_device.h"
#include "acl_mem.h"

/* Both granularities: mappings are whole huge pages, as on CANN's NPUs. */
#define ACL_VMM_GRANULARITY	(2ULL << 20)

struct acl_phys {
	struct acl_phys *next;
	struct acl_device *dev;
	uint64_t gen;			/* dev->gen: stale after a reset */
	uint32_t gem;			/* GEM handle in dev's file */
	uint64_t dev_addr;		/* the allocation's own address */
	uint64_t size;			/* bytes, whole granules */
	uint64_t charged;		/* counted as "vmm" (0: imported) */
	aclrtPhysicalMemProp prop;
	int refs;			/* MallocPhysical/Import + Retains */
	int maps;			/* mappings of it */
	bool imported;
	bool exported;
	uint64_t share;			/* its shareable handle once exported */
};

struct acl_map {
	struct acl_map *next;
	uint64_t va;			/* device address */
	uint64_t size;
	struct acl_phys *phys;		/* referenced */
};

struct acl_resv {
	struct acl_resv *next;
	struct acl_device *dev;
	uint64_t gen;
	uint64_t start;			/* device address */
	uint64_t size;
	struct acl_map *maps;
};

static pthread_mutex_t acl_vmm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct acl_phys *acl_physs;
static struct acl_resv *acl_resvs;

void acl_vmm_forked(void)
{
	/* Another thread may have been changing the lists: not freed. */
	pthread_mutex_init(&acl_vmm_lock, NULL);
	acl_physs = NULL;
	acl_resvs = NULL;
}

static bool acl_vmm_stale(const struct acl_device *dev, uint64_t gen)
{
	return !acl_device_is_open(dev) || dev->gen != gen;
}

/* @h if it is a live handle of this process (acl_vmm_lock held), or NULL. */
static struct acl_phys *acl_phys_find(aclrtDrvMemHandle h)
{
	struct acl_phys *p;

	/* Freed by its owner but still mapped: no longer a handle. */
	for (p = acl_physs; p; p = p->next)
		if (p == h && p->refs && !acl_vmm_stale(p->dev, p->gen))
			return p;
	return NULL;
}

static void acl_phys_unlink(struct acl_phys *p)
{
	struct acl_phys **pp;

	for (pp = &acl_physs; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			return;
		}
}

/*
 * Drop a user reference (@map false) or a mapping's; the last of all
 * closes the GEM handle (the driver keeps the memory while another
 * process holds it).
 */
static void acl_phys_put(struct acl_phys *p, bool map)
{
	if (map)
		p->maps--;
	else
		p->refs--;
	if (p->refs > 0 || p->maps > 0)
		return;
	if (!acl_vmm_stale(p->dev, p->gen)) {
		acl_kmd_gem_close(p->dev->fd, p->gem);
		acl_usage_uncharge(p->dev, p->gen, ACL_MEM_USE_VMM, p->charged);
	}
	acl_phys_unlink(p);
	free(p);
}

static aclError acl_phys_add(struct acl_device *dev, uint32_t gem,
			     uint64_t addr, uint64_t size, bool imported,
			     aclrtDrvMemHandle *handle)
{
	struct acl_phys *p = calloc(1, sizeof(*p));

	if (!p) {
		acl_kmd_gem_close(dev->fd, gem);
		return acl_err(ACL_ERROR_BAD_ALLOC, "no memory for a handle");
	}
	p->dev = dev;
	p->gen = dev->gen;
	p->gem = gem;
	p->dev_addr = addr;
	p->size = size;
	p->refs = 1;
	p->imported = imported;
	p->prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
	p->prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p->prop.memAttr = ACL_HBM_MEM_HUGE;
	p->prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p->prop.location.id = (uint32_t)dev->id;
	p->next = acl_physs;
	acl_physs = p;
	*handle = p;
	return ACL_SUCCESS;
}

/* A new physical allocation of this process (acl_vmm_lock held). */
static void acl_phys_charge(struct acl_phys *p,
			    const aclrtPhysicalMemProp *prop, uint64_t bytes)
{
	p->prop = *prop;
	p->charged = bytes;
	acl_usage_charge(p->dev, p->gen, ACL_MEM_USE_VMM, bytes);
}

static aclError acl_check_prop(const aclrtPhysicalMemProp *prop)
{
	if (!prop)
		return acl_err(ACL_ERROR_INVALID_PARAM, "prop=NULL");
	if (prop->handleType != ACL_MEM_HANDLE_TYPE_NONE ||
	    prop->allocationType != ACL_MEM_ALLOCATION_TYPE_PINNED || prop->reserve)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "prop: handleType=%d allocationType=%d reserve=%" PRIu64
			       " (want NONE, PINNED, 0)", (int)prop->handleType,
			       (int)prop->allocationType, prop->reserve);
	if (prop->location.type != ACL_MEM_LOCATION_TYPE_DEVICE)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "prop->location.type=%d: only device memory "
			       "(ACL_MEM_LOCATION_TYPE_DEVICE) here",
			       (int)prop->location.type);
	switch (prop->memAttr) {
	case ACL_MEM_NORMAL: case ACL_MEM_HUGE: case ACL_MEM_P2P_NORMAL:
	case ACL_MEM_P2P_HUGE: case ACL_HBM_MEM_HUGE: case ACL_HBM_MEM_NORMAL:
		return ACL_SUCCESS;
	default:
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "prop->memAttr=%d is no device page type here",
			       (int)prop->memAttr);
	}
}

ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop,
							      aclrtMemGranularityOptions option,
							      size_t *granularity)
{
	aclError ret;

	ACL_ENTER();
	if (!granularity)
		return acl_err(ACL_ERROR_INVALID_PARAM, "granularity=NULL");
	if (option != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM &&
	    option != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED)
		return acl_err(ACL_ERROR_INVALID_PARAM, "option=%d", (int)option);
	ret = acl_check_prop(prop);
	if (!ret)
		*granularity = ACL_VMM_GRANULARITY;
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle,
						 size_t size,
						 const aclrtPhysicalMemProp *prop,
						 uint64_t flags)
{
	struct npu_dma_mem_alloc a = { 0 };
	struct acl_device *dev;
	aclError ret;
	int err;

	ACL_ENTER();
	if (!handle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "handle=NULL");
	if (!size || flags)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "size=%zu flags=%#" PRIx64 " (want > 0, 0)", size, flags);
	ret = acl_check_prop(prop);
	if (ret)
		return ret;
	dev = acl_device_get((int32_t)prop->location.id);
	if (!dev)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	ret = acl_device_ensure_open(dev);
	if (ret)
		return ret;
	/* Whole granules, granule aligned: what a mapping takes. */
	a.size = ((uint64_t)size + ACL_VMM_GRANULARITY - 1) & ~(ACL_VMM_GRANULARITY - 1);
	a.align = ACL_VMM_GRANULARITY;
	a.policy = NPU_DMA_MEM_HUGE_FIRST;
	err = acl_kmd_mem_alloc(dev->fd, &a);
	if (err == -ENOMEM)
		return acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
			       "size=%zu: out of memory on device %d", size, dev->id);
	if (err)
		return acl_err_sys(err, "DRM_IOCTL_NPU_DMA_MEM_ALLOC");
	pthread_mutex_lock(&acl_vmm_lock);
	ret = acl_phys_add(dev, a.handle, a.dev_addr, a.size, false, handle);
	if (!ret)
		acl_phys_charge(*handle, prop, a.alloc_size);
	pthread_mutex_unlock(&acl_vmm_lock);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle)
{
	struct acl_phys *p;

	ACL_ENTER();
	pthread_mutex_lock(&acl_vmm_lock);
	p = acl_phys_find(handle);
	if (p)
		acl_phys_put(p, false);
	pthread_mutex_unlock(&acl_vmm_lock);
	if (!p)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "handle=%p is no physical allocation of this process",
			       handle);
	return ACL_SUCCESS;
}

/* ---- reservations -------------------------------------------------- */

static uint64_t acl_vmm_base(const struct acl_device *dev)
{
	return NPU_DMA_VMM_BASE(dev->info.mem_base, dev->info.mem_size);
}

/* The live reservation holding device address @va of @dev, or NULL. */
static struct acl_resv *acl_resv_find(struct acl_device *dev, uint64_t va)
{
	struct acl_resv *r;

	for (r = acl_resvs; r; r = r->next)
		if (r->dev == dev && !acl_vmm_stale(dev, r->gen) &&
		    va >= r->start && va - r->start < r->size)
			return r;
	return NULL;
}

/* Does [@start, + @size) of @dev overlap a live reservation? */
static bool acl_resv_busy(struct acl_device *dev, uint64_t start, uint64_t size)
{
	struct acl_resv *r;

	for (r = acl_resvs; r; r = r->next)
		if (r->dev == dev && !acl_vmm_stale(dev, r->gen) &&
		    start < r->start + r->size && r->start < start + size)
			return true;
	return false;
}

/* First fit in @dev's window: the start, or 0 when full. */
static uint64_t acl_resv_place(struct acl_device *dev, uint64_t size)
{
	uint64_t base = acl_vmm_base(dev), end = base + dev->info.vmm_size, at;
	struct acl_resv *r;
	bool moved = true;

	for (at = base; moved && at + size <= end;) {
		moved = false;
		for (r = acl_resvs; r; r = r->next)
			if (r->dev == dev && !acl_vmm_stale(dev, r->gen) &&
			    at < r->start + r->size && r->start < at + size) {
				at = r->start + r->size;
				moved = true;
			}
	}
	return !moved && at + size <= end ? at : 0;
}

/* The device pointer @p of @dev as a device address in its window, or 0. */
static uint64_t acl_vmm_addr(struct acl_device *dev, const void *p)
{
	uint64_t a = acl_dev_addr(dev, p), base = acl_vmm_base(dev);

	return a >= base && a - base < dev->info.vmm_size ? a : 0;
}

ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void **virPtr, size_t size,
						    size_t alignment,
						    void *expectPtr,
						    uint64_t flags)
{
	struct acl_context *ctx;
	struct acl_device *dev;
	struct acl_resv *r;
	struct acl_va va;
	uint64_t start = 0;
	aclError ret = ACL_SUCCESS;

	ACL_ENTER();
	(void)flags;	/* a page type: every range is of huge pages here */
	if (!virPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "virPtr=NULL");
	if (!size || alignment)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "size=%zu alignment=%zu (want > 0, 0)", size, alignment);
	ctx = acl_current_ctx();
	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	dev = ctx->dev;
	if (!dev->info.vmm_size)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "device %d's driver has no virtual addresses", dev->id);
	size = (size + ACL_VMM_GRANULARITY - 1) & ~(ACL_VMM_GRANULARITY - 1);
	r = calloc(1, sizeof(*r));
	if (!r)
		return acl_err(ACL_ERROR_BAD_ALLOC, "no memory for a reservation");

	pthread_mutex_lock(&acl_vmm_lock);
	if (expectPtr) {
		start = acl_va_find(expectPtr) == dev ? acl_vmm_addr(dev, expectPtr) : 0;
		if (!start || start % ACL_VMM_GRANULARITY ||
		    size > dev->info.vmm_size - (start - acl_vmm_base(dev)) ||
		    acl_resv_busy(dev, start, size))
			ret = acl_err(ACL_ERROR_INVALID_PARAM,
				      "expectPtr=%p size=%zu: not a free, %llu-aligned "
				      "range of device %d's virtual addresses", expectPtr,
				      size, ACL_VMM_GRANULARITY, dev->id);
	} else {
		start = acl_resv_place(dev, size);
		if (!start)
			ret = acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
				      "size=%zu: device %d has no free range of "
				      "virtual addresses that long", size, dev->id);
	}
	if (!ret) {
		r->dev = dev;
		r->gen = dev->gen;
		r->start = start;
		r->size = size;
		r->next = acl_resvs;
		acl_resvs = r;
		va = acl_dev_va(dev);
		*virPtr = acl_dev_to_va(&va, start);
	}
	pthread_mutex_unlock(&acl_vmm_lock);
	if (ret)
		free(r);
	return ret;
}

/* The reservation starting at @p, or NULL with an error recorded. */
static struct acl_resv *acl_resv_of(const void *p, const char *name,
				    bool start_only)
{
	struct acl_device *dev = p ? acl_va_find(p) : NULL;
	uint64_t a = dev ? acl_vmm_addr(dev, p) : 0;
	struct acl_resv *r = a ? acl_resv_find(dev, a) : NULL;

	if (!r || (start_only && r->start != a)) {
		acl_err(ACL_ERROR_INVALID_PARAM,
			"%s=%p is not %s reserved by aclrtReserveMemAddress", name,
			p, start_only ? "the start of a range" : "in a range");
		return NULL;
	}
	return r;
}

ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void *virPtr)
{
	struct acl_resv **pp, *r;
	aclError ret = ACL_SUCCESS;

	ACL_ENTER();
	pthread_mutex_lock(&acl_vmm_lock);
	r = acl_resv_of(virPtr, "virPtr", true);
	if (!r)
		ret = ACL_ERROR_INVALID_PARAM;
	else if (r->maps)
		ret = acl_err(ACL_ERROR_INVALID_PARAM,
			      "virPtr=%p: the range is still mapped (aclrtUnmapMem first)",
			      virPtr);
	if (!ret) {
		for (pp = &acl_resvs; *pp != r; pp = &(*pp)->next)
			;
		*pp = r->next;
		free(r);
	}
	pthread_mutex_unlock(&acl_vmm_lock);
	return ret;
}

/* ---- mappings ------------------------------------------------------ */

static aclError acl_map_add(struct acl_resv *r, uint64_t va, uint64_t size,
			    struct acl_phys *p)
{
	struct acl_map *m = calloc(1, sizeof(*m));
	int err;

	if (!m)
		return acl_err(ACL_ERROR_BAD_ALLOC, "no memory for a mapping");
	err = acl_kmd_vmm_map(r->dev->fd, va, size, 0, p->gem);
	if (err) {
		free(m);
		if (err == -EEXIST)
			return acl_err(ACL_ERROR_INVALID_PARAM,
				       "[%#" PRIx64 ", +%#" PRIx64 ") overlaps a mapping",
				       va, size);
		return acl_err_sys(err, "DRM_IOCTL_NPU_DMA_VMM_MAP");
	}
	m->va = va;
	m->size = size;
	m->phys = p;
	p->maps++;
	m->next = r->maps;
	r->maps = m;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMapMem(void *virPtr, size_t size,
					 size_t offset,
					 aclrtDrvMemHandle handle,
					 uint64_t flags)
{
	struct acl_resv *r;
	struct acl_phys *p;
	aclError ret = ACL_SUCCESS;
	uint64_t va = 0;

	ACL_ENTER();
	if (!size || size % ACL_VMM_GRANULARITY || offset || flags)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "size=%zu offset=%zu flags=%#" PRIx64 " (want whole "
			       "%llu-byte granules, 0, 0)", size, offset, flags,
			       ACL_VMM_GRANULARITY);
	pthread_mutex_lock(&acl_vmm_lock);
	r = acl_resv_of(virPtr, "virPtr", false);
	p = acl_phys_find(handle);
	if (r)
		va = acl_vmm_addr(r->dev, virPtr);
	if (!r) {
		ret = ACL_ERROR_INVALID_PARAM;
	} else if (!p) {
		ret = acl_err(ACL_ERROR_INVALID_PARAM,
			      "handle=%p is no physical allocation of this process",
			      handle);
	} else if (p->dev != r->dev) {
		ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			      "handle=%p is device %d's memory, virPtr=%p a range "
			      "of device %d: reserve it with that device current",
			      handle, p->dev->id, virPtr, r->dev->id);
	} else if (va % ACL_VMM_GRANULARITY || size > p->size ||
		   size > r->size - (va - r->start)) {
		ret = acl_err(ACL_ERROR_INVALID_PARAM,
			      "virPtr=%p size=%zu: unaligned, past the range's end "
			      "or longer than the handle's %" PRIu64 " bytes",
			      virPtr, size, p->size);
	} else {
		ret = acl_map_add(r, va, size, p);
	}
	pthread_mutex_unlock(&acl_vmm_lock);
	return ret;
}

/* The mapping holding device address @va in @r, and where it hangs. */
static struct acl_map **acl_map_slot(struct acl_resv *r, uint64_t va)
{
	struct acl_map **mp;

	for (mp = &r->maps; *mp; mp = &(*mp)->next)
		if (va >= (*mp)->va && va - (*mp)->va < (*mp)->size)
			return mp;
	return NULL;
}

ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void *virPtr)
{
	struct acl_map **mp = NULL, *m;
	struct acl_resv *r;
	aclError ret = ACL_SUCCESS;
	uint64_t va = 0;
	int err;

	ACL_ENTER();
	pthread_mutex_lock(&acl_vmm_lock);
	r = acl_resv_of(virPtr, "virPtr", false);
	if (r) {
		va = acl_vmm_addr(r->dev, virPtr);
		mp = acl_map_slot(r, va);
	}
	if (!mp || (*mp)->va != va) {
		ret = acl_err(ACL_ERROR_INVALID_PARAM,
			      "virPtr=%p is not the start of a mapping", virPtr);
	} else {
		m = *mp;
		err = acl_kmd_vmm_unmap(r->dev->fd, m->va);
		if (err) {
			ret = acl_err_sys(err, "DRM_IOCTL_NPU_DMA_VMM_UNMAP");
		} else {
			*mp = m->next;
			acl_phys_put(m->phys, true);
			free(m);
		}
	}
	pthread_mutex_unlock(&acl_vmm_lock);
	return ret;
}

/*
 * The GEM handle of the physical allocation mapped at @p, a VMM address
 * of @dev, or 0 (no error recorded): for aclrtPointerGetAttributes.
 */
uint32_t acl_vmm_gem_at(struct acl_device *dev, const void *p)
{
	uint64_t a = acl_vmm_addr(dev, p);
	struct acl_resv *r;
	struct acl_map **mp;
	uint32_t gem = 0;

	if (!a)
		return 0;
	pthread_mutex_lock(&acl_vmm_lock);
	r = acl_resv_find(dev, a);
	mp = r ? acl_map_slot(r, a) : NULL;
	if (mp && (*mp)->phys->dev == dev)
		gem = (*mp)->phys->gem;
	pthread_mutex_unlock(&acl_vmm_lock);
	return gem;
}

/* The mapping holding @p (acl_vmm_lock held), or NULL with an error. */
static struct acl_map *acl_map_of(const void *p, struct acl_resv **rp)
{
	struct acl_resv *r = acl_resv_of(p, "virPtr", false);
	struct acl_map **mp = r ? acl_map_slot(r, acl_vmm_addr(r->dev, p)) : NULL;

	if (r && !mp)
		acl_err(ACL_ERROR_INVALID_PARAM, "virPtr=%p is not mapped", p);
	if (rp)
		*rp = r;
	return mp ? *mp : NULL;
}

ACL_FUNC_VISIBILITY aclError aclrtMemRetainAllocationHandle(void *virPtr,
							    aclrtDrvMemHandle *handle)
{
	struct acl_map *m;

	ACL_ENTER();
	if (!handle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "handle=NULL");
	pthread_mutex_lock(&acl_vmm_lock);
	m = acl_map_of(virPtr, NULL);
	if (m) {
		m->phys->refs++;	/* released by aclrtFreePhysical */
		*handle = m->phys;
	}
	pthread_mutex_unlock(&acl_vmm_lock);
	return m ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}

ACL_FUNC_VISIBILITY aclError
aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
					  aclrtPhysicalMemProp *prop)
{
	struct acl_phys *p;

	ACL_ENTER();
	if (!prop)
		return acl_err(ACL_ERROR_INVALID_PARAM, "prop=NULL");
	pthread_mutex_lock(&acl_vmm_lock);
	p = acl_phys_find(handle);
	if (p)
		*prop = p->prop;
	pthread_mutex_unlock(&acl_vmm_lock);
	if (!p)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "handle=%p is no physical allocation of this process",
			       handle);
	return ACL_SUCCESS;
}

/* ---- access -------------------------------------------------------- */

/*
 * The memory's own device always has read-write access to a mapping;
 * another device gets it as a peer (aclrtDeviceEnablePeerAccess's
 * grant, which is per device, not per range).
 */
ACL_FUNC_VISIBILITY aclError aclrtMemSetAccess(void *virPtr, size_t size,
					       aclrtMemAccessDesc *desc,
					       size_t count)
{
	struct acl_resv *r;
	struct acl_device *dev, *who;
	aclError ret = ACL_SUCCESS;
	size_t i;

	ACL_ENTER();
	if (!desc || !count || !size)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "desc=%p count=%zu size=%zu", (void *)desc, count, size);
	pthread_mutex_lock(&acl_vmm_lock);
	r = acl_resv_of(virPtr, "virPtr", false);
	dev = r ? r->dev : NULL;
	pthread_mutex_unlock(&acl_vmm_lock);
	if (!r)
		return ACL_ERROR_INVALID_PARAM;
	for (i = 0; i < count && !ret; i++) {
		if (desc[i].location.type != ACL_MEM_LOCATION_TYPE_DEVICE)
			return acl_err(ACL_ERROR_INVALID_PARAM,
				       "desc[%zu].location.type=%d: only devices",
				       i, (int)desc[i].location.type);
		who = acl_device_get((int32_t)desc[i].location.id);
		if (!who)
			return ACL_ERROR_INVALID_PARAM;
		if (desc[i].flags != ACL_RT_MEM_ACCESS_FLAGS_READWRITE)
			return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				       "desc[%zu].flags=%d: these NPUs grant read-write "
				       "access only", i, (int)desc[i].flags);
		if (who != dev) {
			ret = acl_device_ensure_open(who);
			if (!ret)
				ret = acl_peer_enable(who, dev);
		}
	}
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtMemGetAccess(void *virPtr,
					       aclrtMemLocation *location,
					       uint64_t *flag)
{
	struct acl_device *who;
	struct acl_resv *r;
	struct acl_map *m;

	ACL_ENTER();
	if (!location || !flag)
		return acl_err(ACL_ERROR_INVALID_PARAM, "location=%p flag=%p",
			       (void *)location, (void *)flag);
	if (location->type != ACL_MEM_LOCATION_TYPE_DEVICE)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "location->type=%d: only devices", (int)location->type);
	who = acl_device_get((int32_t)location->id);
	if (!who)
		return ACL_ERROR_INVALID_PARAM;
	pthread_mutex_lock(&acl_vmm_lock);
	m = acl_map_of(virPtr, &r);
	pthread_mutex_unlock(&acl_vmm_lock);
	if (!m)
		return ACL_ERROR_INVALID_PARAM;
	if (who == r->dev ||
	    (__atomic_load_n(&who->peer_on, __ATOMIC_ACQUIRE) >> r->dev->id) & 1)
		*flag = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
	else
		*flag = ACL_RT_MEM_ACCESS_FLAGS_NONE;
	return ACL_SUCCESS;
}

/* ---- address ranges ------------------------------------------------ */

ACL_FUNC_VISIBILITY aclError aclrtMemGetAddressRange(void *ptr, void **pbase,
						     size_t *psize)
{
	struct acl_device *dev = ptr ? acl_va_find(ptr) : NULL;
	uint64_t a, start = 0, size = 0, addr;
	struct acl_va va;
	struct acl_map *m = NULL;
	uint32_t gem;
	bool found;

	ACL_ENTER();
	if (!dev || !acl_device_is_open(dev))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "ptr=%p is not device memory of this process", ptr);
	a = acl_dev_addr(dev, ptr);
	if (acl_vmm_addr(dev, ptr)) {
		pthread_mutex_lock(&acl_vmm_lock);
		m = acl_map_of(ptr, NULL);
		if (m) {
			start = m->va;
			size = m->size;
		}
		pthread_mutex_unlock(&acl_vmm_lock);
		if (!m)
			return ACL_ERROR_INVALID_PARAM;
	} else {
		found = acl_mem_containing(dev, a, &start, &gem);
		if (!found || acl_kmd_mem_info(dev->fd, gem, &addr, &size, NULL) ||
		    a - start >= size)
			return acl_err(ACL_ERROR_INVALID_PARAM,
				       "ptr=%p is in no allocation", ptr);
	}
	va = acl_dev_va(dev);
	if (pbase)
		*pbase = acl_dev_to_va(&va, start);
	if (psize)
		*psize = (size_t)size;
	return ACL_SUCCESS;
}

/* ---- shareable handles --------------------------------------------- */

static aclError acl_share_export(aclrtDrvMemHandle handle, uint64_t flags,
				 uint64_t *share)
{
	struct npu_dma_ipc_export x = { 0 };
	struct acl_phys *p;
	aclError ret = ACL_SUCCESS;
	int err;

	if (flags > ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flags=%#" PRIx64 " is not an export flag", flags);
	pthread_mutex_lock(&acl_vmm_lock);
	p = acl_phys_find(handle);
	if (!p || p->imported) {
		ret = acl_err(ACL_ERROR_INVALID_PARAM,
			      "handle=%p is no physical allocation this process made",
			      handle);
	} else if (p->exported) {
		ret = acl_err(ACL_ERROR_INVALID_PARAM,
			      "handle=%p is exported already (one shareable handle each)",
			      handle);
	} else {
		x.dev_addr = p->dev_addr;
		x.size = p->size;
		x.flags = NPU_DMA_IPC_F_KEY64;
		if (flags & ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
			x.flags |= NPU_DMA_IPC_F_NO_PID_CHECK;
		err = acl_kmd_ipc_export(p->dev->fd, &x);
		if (err)
			ret = acl_err_sys(err, "DRM_IOCTL_NPU_DMA_IPC_EXPORT");
		else {
			p->exported = true;
			p->share = x.key[0];
			*share = x.key[0];
		}
	}
	pthread_mutex_unlock(&acl_vmm_lock);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle,
							     aclrtMemHandleType handleType,
							     uint64_t flags,
							     uint64_t *shareableHandle)
{
	ACL_ENTER();
	if (!shareableHandle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "shareableHandle=NULL");
	if (handleType != ACL_MEM_HANDLE_TYPE_NONE)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "handleType=%d (want ACL_MEM_HANDLE_TYPE_NONE)",
			       (int)handleType);
	return acl_share_export(handle, flags, shareableHandle);
}

/* A V2 handle's key: a uint64_t, or the first 8 bytes of a fabric handle. */
static aclError acl_share_key(void *shareable, aclrtMemSharedHandleType type,
			      uint64_t **key)
{
	if (!shareable)
		return acl_err(ACL_ERROR_INVALID_PARAM, "shareableHandle=NULL");
	if (type != ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT &&
	    type != ACL_MEM_SHARE_HANDLE_TYPE_FABRIC)
		return acl_err(ACL_ERROR_INVALID_PARAM, "shareType=%d", (int)type);
	*key = shareable;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle,
							       uint64_t flags,
							       aclrtMemSharedHandleType shareType,
							       void *shareableHandle)
{
	uint64_t *key = NULL, k = 0;
	aclError ret;

	ACL_ENTER();
	ret = acl_share_key(shareableHandle, shareType, &key);
	if (!ret)
		ret = acl_share_export(handle, flags, &k);
	if (ret)
		return ret;
	/* One machine is one fabric here: the same key, zero-padded. */
	if (shareType == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC)
		memset(shareableHandle, 0, sizeof(aclrtMemFabricHandle));
	memcpy(key, &k, sizeof(k));
	return ACL_SUCCESS;
}

static aclError acl_share_set_pids(uint64_t share, int32_t *pid, size_t num)
{
	const uint64_t key[2] = { share, 0 };
	struct acl_phys *p;
	aclError ret = ACL_SUCCESS;
	size_t i;
	int err;

	if (!pid || !num || num > NPU_DMA_IPC_MAX_PIDS)
		return acl_err(ACL_ERROR_INVALID_PARAM, "pid=%p pidNum=%zu",
			       (void *)pid, num);
	for (i = 0; i < num; i++)
		if (pid[i] <= 0)
			return acl_err(ACL_ERROR_INVALID_PARAM,
				       "pid[%zu]=%d is no process id", i, pid[i]);
	pthread_mutex_lock(&acl_vmm_lock);
	for (p = acl_physs; p; p = p->next)
		if (p->exported && p->share == share &&
		    !acl_vmm_stale(p->dev, p->gen))
			break;
	if (!p) {
		ret = acl_err(ACL_ERROR_INVALID_PARAM,
			      "shareableHandle=%#" PRIx64 " was not exported by this "
			      "process", share);
	} else {
		err = acl_kmd_ipc_set_pids(p->dev->fd, key, pid, (uint32_t)num);
		if (err == -ESRCH)
			ret = acl_err(ACL_ERROR_INVALID_PARAM,
				      "pid: one of the %zu ids names no process", num);
		else if (err)
			ret = acl_err_sys(err, "DRM_IOCTL_NPU_DMA_IPC_SET_PIDS");
	}
	pthread_mutex_unlock(&acl_vmm_lock);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle,
							     int32_t *pid,
							     size_t pidNum)
{
	ACL_ENTER();
	return acl_share_set_pids(shareableHandle, pid, pidNum);
}

ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandleV2(void *shareableHandle,
							       aclrtMemSharedHandleType shareType,
							       int32_t *pid,
							       size_t pidNum)
{
	uint64_t *key = NULL, k;
	aclError ret;

	ACL_ENTER();
	ret = acl_share_key(shareableHandle, shareType, &key);
	if (ret)
		return ret;
	memcpy(&k, key, sizeof(k));
	return acl_share_set_pids(k, pid, pidNum);
}

/* IPC_IMPORT of @share on @dev as a handle: 0 or the driver's -errno. */
static int acl_share_try(struct acl_device *dev, uint64_t share,
			 aclrtDrvMemHandle *handle, aclError *ret)
{
	struct npu_dma_ipc_import m = { .key = { share, 0 },
					.flags = NPU_DMA_IPC_IMPORT_F_HANDLE };
	int err;

	*ret = acl_device_ensure_open(dev);
	if (*ret)
		return -ENODEV;
	err = acl_kmd_ipc_import(dev->fd, &m);
	if (err)
		return err;
	pthread_mutex_lock(&acl_vmm_lock);
	*ret = acl_phys_add(dev, m.handle, m.dev_addr, m.size, true, handle);
	pthread_mutex_unlock(&acl_vmm_lock);
	return 0;
}

/*
 * Import on whichever NPU holds the memory (the driver answers -EXDEV
 * for the others), @want's first; another device than @want gets peer
 * access to it, as CANN's handle "on another device" means.
 */
static aclError acl_share_import(uint64_t share, struct acl_device *want,
				 aclrtDrvMemHandle *handle)
{
	int i, n = acl_device_count(), err = -EXDEV;
	struct acl_device *dev = NULL;
	aclError ret = ACL_SUCCESS;
	struct acl_phys *p;

	if (!handle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "handle=NULL");
	pthread_mutex_lock(&acl_vmm_lock);
	for (p = acl_physs; p && !(p->exported && p->share == share); p = p->next)
		;
	pthread_mutex_unlock(&acl_vmm_lock);
	if (p)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "shareableHandle=%#" PRIx64 " was exported by this "
			       "process: use its own handle", share);
	if (want) {
		dev = want;
		err = acl_share_try(want, share, handle, &ret);
	}
	for (i = 0; i < n && err == -EXDEV; i++) {
		if (&acl_g.dev[i] == want)
			continue;
		dev = &acl_g.dev[i];
		err = acl_share_try(dev, share, handle, &ret);
	}
	if (ret)
		return ret;
	if (err == -EACCES)
		return acl_err(ACL_ERROR_RT_NO_PERMISSION,
			       "shareableHandle=%#" PRIx64 ": this process is not on "
			       "its pid list (aclrtMemSetPidToShareableHandle)", share);
	if (err == -ENOENT || err == -EXDEV)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "shareableHandle=%#" PRIx64 " names no shared memory "
			       "(freed, or its process exited)", share);
	if (err == -EEXIST)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "shareableHandle=%#" PRIx64 " is imported or exported "
			       "by this process already", share);
	if (err)
		return acl_err_sys(err, "DRM_IOCTL_NPU_DMA_IPC_IMPORT");
	if (want && want != dev)
		ret = acl_peer_enable(want, dev);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle,
							       int32_t deviceId,
							       aclrtDrvMemHandle *handle)
{
	struct acl_device *want;

	ACL_ENTER();
	want = acl_device_get(deviceId);
	if (!want)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	return acl_share_import(shareableHandle, want, handle);
}

ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandleV2(void *shareableHandle,
								 aclrtMemSharedHandleType shareType,
								 uint64_t flags,
								 aclrtDrvMemHandle *handle)
{
	uint64_t *key = NULL, k;
	aclError ret;

	ACL_ENTER();
	if (flags)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flags=%#" PRIx64 " (want 0)",
			       flags);
	ret = acl_share_key(shareableHandle, shareType, &key);
	if (ret)
		return ret;
	memcpy(&k, key, sizeof(k));
	return acl_share_import(k, NULL, handle);
}
