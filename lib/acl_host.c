// SPDX-License-Identifier: MIT
/*
 * libacl: pinned host memory. aclrtMallocHost and aclrtHostRegister(V2)
 * ranges live in one process-wide table (sorted, non-overlapping). A range
 * is pinned on an NPU (HOST_REGISTER on that NPU's fd) when it is created,
 * on the current device, and lazily on any other NPU the first time a copy
 * there names it; a copy that leaves the range, or a range the driver
 * refuses to pin, falls back to the pageable path.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_kmd.h"
#include "acl_device.h"
#include "acl_mem.h"

pthread_mutex_t acl_host_lock = PTHREAD_MUTEX_INITIALIZER;
struct acl_host_table acl_hosts;

__thread struct acl_host_hit acl_host_hit ACL_TLS_FAST;

/* Index of the first region ending after @p (binary search). */
static size_t acl_host_lower(const struct acl_host_table *t, uintptr_t p)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->r[mid].addr + t->r[mid].size <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

ssize_t acl_host_find(const struct acl_host_table *t, uintptr_t p)
{
	size_t i = acl_host_lower(t, p);

	if (i < t->n && t->r[i].addr <= p)
		return (ssize_t)i;
	return -1;
}

ssize_t acl_host_overlap(const struct acl_host_table *t, uintptr_t p,
			 uint64_t size)
{
	size_t i = acl_host_lower(t, p);

	if (i < t->n && t->r[i].addr < p + size)
		return (ssize_t)i;
	return -1;
}

void acl_host_changed(struct acl_host_table *t)
{
	__atomic_store_n(&t->gen, t->gen + 1, __ATOMIC_RELEASE);
}

int acl_host_insert(struct acl_host_table *t, const struct acl_host_region *r)
{
	size_t i;

	if (!r->size || r->addr + r->size < r->addr ||
	    acl_host_overlap(t, r->addr, r->size) >= 0)
		return -EINVAL;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct acl_host_region *nr = realloc(t->r, cap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		t->r = nr;
		t->cap = cap;
	}
	i = acl_host_lower(t, r->addr);
	memmove(&t->r[i + 1], &t->r[i], (t->n - i) * sizeof(*t->r));
	t->r[i] = *r;
	t->n++;
	acl_host_changed(t);
	return 0;
}

void acl_host_remove(struct acl_host_table *t, size_t i)
{
	memmove(&t->r[i], &t->r[i + 1], (t->n - i - 1) * sizeof(*t->r));
	t->n--;
	acl_host_changed(t);
}

/* The generation survives: a hit cached before must not match again. */
void acl_host_table_free(struct acl_host_table *t)
{
	free(t->r);
	t->r = NULL;
	t->n = t->cap = 0;
	acl_host_changed(t);
}

static bool acl_region_on(const struct acl_host_region *r,
			  const struct acl_device *dev)
{
	return (r->dev_mask & (1ULL << dev->phys)) &&
	       r->dev_gen[dev->phys] == dev->gen;
}

/* Pin @r on @dev (host lock held): 0 or -errno. */
static int acl_region_pin(struct acl_host_region *r, struct acl_device *dev)
{
	int ret;

	if (acl_region_on(r, dev))
		return 0;
	ret = acl_kmd_host_register(dev->fd, r->addr, r->size,
				    (r->flags & ACL_HOST_REG_READONLY) ?
				    NPU_DMA_HOST_F_READONLY : 0);
	if (ret && ret != -EEXIST)
		return ret;
	r->dev_mask |= 1ULL << dev->phys;
	r->dev_gen[dev->phys] = dev->gen;
	return 0;
}

/* Unpin @r everywhere it is pinned (host lock held). */
static void acl_region_unpin(struct acl_host_region *r)
{
	int i;

	for (i = 0; i < ACL_MAX_DEVICES && r->dev_mask; i++) {
		struct acl_device *dev = NULL;
		int j;

		if (!(r->dev_mask & (1ULL << i)))
			continue;
		r->dev_mask &= ~(1ULL << i);
		for (j = 0; j < acl_g.ndev; j++)
			if (acl_g.dev[j].phys == i)
				dev = &acl_g.dev[j];
		/* Copies still queued keep the pages until they retire. */
		if (dev && acl_device_is_open(dev) && r->dev_gen[i] == dev->gen)
			acl_kmd_host_unregister(dev->fd, r->addr);
	}
	acl_host_changed(&acl_hosts);
}

/* The thread's last hit, if it holds [a, a + len) and is still current. */
/* Remember @r, pinned on @dev if not NULL (host lock held). */
static void acl_host_hit_set(const struct acl_host_region *r,
			     const struct acl_device *dev)
{
	struct acl_host_hit *h = &acl_host_hit;

	h->gen = acl_hosts.gen;
	h->addr = r->addr;
	h->size = r->size;
	h->pin_dev = dev;
	h->pin_gen = dev ? dev->gen : 0;
}

bool acl_host_is_acl(const void *p, uint64_t len)
{
	uintptr_t a = (uintptr_t)p;
	bool in = false;
	ssize_t i;

	if (acl_host_hit_get(a, len))
		return true;
	pthread_mutex_lock(&acl_host_lock);
	i = acl_host_find(&acl_hosts, a);
	if (i >= 0) {
		in = len <= acl_hosts.r[i].addr + acl_hosts.r[i].size - a;
		acl_host_hit_set(&acl_hosts.r[i], NULL);
	}
	pthread_mutex_unlock(&acl_host_lock);
	return in;
}

bool acl_host_pinned_on(struct acl_device *dev, const void *p, uint64_t len)
{
	uintptr_t a = (uintptr_t)p;
	bool pinned = false;
	ssize_t i;

	if (acl_host_hit_pinned(dev, p, len))
		return true;
	pthread_mutex_lock(&acl_host_lock);
	i = acl_host_find(&acl_hosts, a);
	if (i >= 0) {
		struct acl_host_region *r = &acl_hosts.r[i];

		pinned = len <= r->addr + r->size - a && !acl_region_pin(r, dev);
		if (pinned)
			acl_host_hit_set(r, dev);
	}
	pthread_mutex_unlock(&acl_host_lock);
	return pinned;
}

void acl_host_forget_device(struct acl_device *dev)
{
	size_t i;

	pthread_mutex_lock(&acl_host_lock);
	for (i = 0; i < acl_hosts.n; i++)
		acl_hosts.r[i].dev_mask &= ~(1ULL << dev->phys);
	acl_host_changed(&acl_hosts);
	pthread_mutex_unlock(&acl_host_lock);
}

void acl_host_forked(void)
{
	size_t i;

	/* The fork handler held it: consistent, and released here. */
	pthread_mutex_init(&acl_host_lock, NULL);
	for (i = 0; i < acl_hosts.n; i++)
		acl_hosts.r[i].dev_mask = 0;
	acl_host_changed(&acl_hosts);
}

void acl_host_release_all(void)
{
	size_t i;

	pthread_mutex_lock(&acl_host_lock);
	for (i = 0; i < acl_hosts.n; i++) {
		acl_region_unpin(&acl_hosts.r[i]);
		if (acl_hosts.r[i].kind == ACL_HOST_MALLOC)
			munmap((void *)acl_hosts.r[i].addr, acl_hosts.r[i].size);
	}
	acl_host_table_free(&acl_hosts);
	pthread_mutex_unlock(&acl_host_lock);
}

/* Pin a new region on the current device, if the thread has one. */
static aclError acl_region_pin_current(struct acl_host_region *r)
{
	struct acl_context *ctx = acl_tls.ctx;
	int ret;

	if (!ctx || !acl_device_is_open(ctx->dev) ||
	    acl_tls.ctx_gen != ctx->dev->gen)
		return ACL_SUCCESS;
	ret = acl_region_pin(r, ctx->dev);
	if (ret)
		return acl_err(acl_errno_to_acl(ret),
			       "pinning %p size %llu on device %d failed: %s",
			       (void *)r->addr, (unsigned long long)r->size,
			       ctx->dev->id, strerror(-ret));
	return ACL_SUCCESS;
}

/* Add a region and pin it on the current device (host lock held). */
static aclError acl_region_add(struct acl_host_region *r)
{
	aclError ret = acl_region_pin_current(r);
	int err;

	if (ret)
		return ret;
	err = acl_host_insert(&acl_hosts, r);
	if (err) {
		acl_region_unpin(r);
		return acl_err(ACL_ERROR_BAD_ALLOC, "no memory for the host table");
	}
	return ACL_SUCCESS;
}

static aclError acl_malloc_host(void **ptr, uint64_t size)
{
	struct acl_host_region r = { .kind = ACL_HOST_MALLOC };
	aclError ret;
	void *p;

	if (!ptr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "hostPtr is NULL");
	if (!size || size > (uint64_t)SIZE_MAX - ACL_PAGE_SIZE)
		return acl_err(ACL_ERROR_INVALID_PARAM, "size=%llu is invalid",
			       (unsigned long long)size);
	r.size = (size + ACL_PAGE_SIZE - 1) & ~(ACL_PAGE_SIZE - 1);
	/* Page-aligned, so the application may also register it. */
	p = mmap(NULL, r.size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
			       "size=%llu: no host memory",
			       (unsigned long long)size);
	r.addr = (uintptr_t)p;
	pthread_mutex_lock(&acl_host_lock);
	ret = acl_region_add(&r);
	pthread_mutex_unlock(&acl_host_lock);
	if (ret) {
		munmap(p, r.size);
		return ret;
	}
	*ptr = p;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size)
{
	ACL_ENTER();
	return acl_malloc_host(hostPtr, size);
}

/*
 * CANN's host attributes: MODULE_ID (whom the memory is accounted to;
 * accepted) and VA_FLAG (0, or 1 for memory the device reaches at the
 * host address, which is what every pinned buffer here is). Any other
 * attribute is refused, as CANN does.
 */
static aclError acl_check_host_cfg(const aclrtMallocConfig *cfg)
{
	const aclrtMallocAttribute *a;
	size_t i;

	if (!cfg)
		return ACL_SUCCESS;
	if (!cfg->attrs)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "cfg->attrs is NULL (numAttrs=%zu)", cfg->numAttrs);
	for (i = 0; i < cfg->numAttrs; i++) {
		a = &cfg->attrs[i];
		if (a->attr == ACL_RT_MEM_ATTR_MODULE_ID)
			continue;
		if (a->attr == ACL_RT_MEM_ATTR_VA_FLAG && a->value.vaFlag <= 1)
			continue;
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "cfg->attrs[%zu]: attr=%d value=%u: host memory "
			       "takes MODULE_ID and VA_FLAG (0 or 1) only", i,
			       (int)a->attr, a->value.vaFlag);
	}
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size,
						    aclrtMallocConfig *cfg)
{
	aclError ret;

	ACL_ENTER();
	ret = acl_check_host_cfg(cfg);
	if (ret)
		return ret;
	return acl_malloc_host(ptr, size);
}

static aclError acl_free_host(void *hostPtr)
{
	aclError ret = ACL_SUCCESS;
	ssize_t i;

	if (!hostPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "hostPtr is NULL");
	pthread_mutex_lock(&acl_host_lock);
	i = acl_host_find(&acl_hosts, (uintptr_t)hostPtr);
	if (i < 0 || acl_hosts.r[i].addr != (uintptr_t)hostPtr ||
	    acl_hosts.r[i].kind != ACL_HOST_MALLOC) {
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "hostPtr=%p is not from aclrtMallocHost", hostPtr);
	} else {
		struct acl_host_region r = acl_hosts.r[i];

		acl_region_unpin(&r);
		acl_host_remove(&acl_hosts, (size_t)i);
		munmap(hostPtr, r.size);
	}
	pthread_mutex_unlock(&acl_host_lock);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr)
{
	ACL_ENTER();
	return acl_free_host(hostPtr);
}

ACL_FUNC_VISIBILITY aclError aclrtFreeHostWithDevSync(void *hostPtr)
{
	struct acl_context *ctx;

	ACL_ENTER();
	if (!hostPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "hostPtr is NULL");
	ctx = acl_current_ctx();
	if (ctx) {
		aclError ret = acl_device_sync(ctx->dev, -1);

		if (ret)
			return ret;
	}
	return acl_free_host(hostPtr);
}

/*
 * Register [ptr, ptr + size). A MAPPED request inside an aclrtMallocHost
 * buffer (already pinned) only marks it mapped, as clients of CANN do
 * exactly that.
 */
static aclError acl_host_register(void *ptr, uint64_t size, uint32_t flags)
{
	struct acl_host_region r = {
		.addr = (uintptr_t)ptr, .size = size,
		.kind = ACL_HOST_REGISTERED, .flags = flags,
	};
	aclError ret = ACL_SUCCESS;
	ssize_t i;

	if ((uintptr_t)ptr & (ACL_PAGE_SIZE - 1))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "ptr=%p is not 4 KiB aligned", ptr);
	if (!acl_current_ctx())
		return ACL_ERROR_RT_CONTEXT_NULL;
	pthread_mutex_lock(&acl_host_lock);
	i = acl_host_overlap(&acl_hosts, r.addr, size);
	if (i >= 0) {
		struct acl_host_region *o = &acl_hosts.r[i];

		if (o->kind == ACL_HOST_MALLOC && !(flags & ACL_HOST_REG_PINNED) &&
		    !(o->flags & ACL_HOST_REG_MAPPED) && r.addr >= o->addr &&
		    size <= o->addr + o->size - r.addr)
			o->flags |= ACL_HOST_REG_MAPPED;
		else
			ret = acl_err(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
				      "ptr=%p size=%llu overlaps a registered range",
				      ptr, (unsigned long long)size);
	} else {
		ret = acl_region_add(&r);
	}
	pthread_mutex_unlock(&acl_host_lock);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void *ptr, uint64_t size,
					       aclrtHostRegisterType type,
					       void **devPtr)
{
	aclError ret;

	ACL_ENTER();
	if (!ptr || !devPtr || !size)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "ptr=%p devPtr=%p size=%llu: none may be 0", ptr,
			       (void *)devPtr, (unsigned long long)size);
	if (type != ACL_HOST_REGISTER_MAPPED && type != ACL_HOST_REGISTER_READONLY)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "type=%d is not supported (MAPPED or READONLY)",
			       (int)type);
	/* READONLY: the device only reads, so a read-only mapping will do. */
	ret = acl_host_register(ptr, size, ACL_HOST_REG_MAPPED |
				(type == ACL_HOST_REGISTER_READONLY ?
				 ACL_HOST_REG_READONLY : 0));
	if (!ret)
		*devPtr = ptr;	/* the NPU names host memory by host address */
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtHostRegisterV2(void *ptr, uint64_t size,
						 uint32_t flag)
{
	const uint32_t known = ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY |
			       ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED;

	ACL_ENTER();
	if (!ptr || !size)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "ptr=%p size=%llu: neither may be 0", ptr,
			       (unsigned long long)size);
	if (!flag || flag & ~known)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "flag=%#x is invalid", flag);
	if (flag & ACL_HOST_REG_IOMEMORY)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "flag=%#x: IOMEMORY is not supported (no device "
			       "BAR of another driver is mapped here)", flag);
	return acl_host_register(ptr, size, flag);
}

ACL_FUNC_VISIBILITY aclError aclrtHostGetDevicePointer(void *pHost,
						       void **pDevice,
						       uint32_t flag)
{
	ssize_t i;

	ACL_ENTER();
	if (!pHost || !pDevice)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "pHost=%p pDevice=%p: neither may be NULL", pHost,
			       (void *)pDevice);
	if (flag)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flag=%u must be 0", flag);
	pthread_mutex_lock(&acl_host_lock);
	i = acl_host_find(&acl_hosts, (uintptr_t)pHost);
	if (i >= 0 && !(acl_hosts.r[i].flags & ACL_HOST_REG_MAPPED))
		i = -1;
	pthread_mutex_unlock(&acl_host_lock);
	if (i < 0)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "pHost=%p is not registered as mapped", pHost);
	*pDevice = pHost;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void *ptr)
{
	aclError ret = ACL_SUCCESS;
	struct acl_host_region *r;
	ssize_t i;

	ACL_ENTER();
	if (!ptr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
	pthread_mutex_lock(&acl_host_lock);
	i = acl_host_find(&acl_hosts, (uintptr_t)ptr);
	r = i >= 0 ? &acl_hosts.r[i] : NULL;
	if (r && r->kind == ACL_HOST_REGISTERED && r->addr == (uintptr_t)ptr) {
		acl_region_unpin(r);
		acl_host_remove(&acl_hosts, (size_t)i);
	} else if (r && r->kind == ACL_HOST_MALLOC &&
		   (r->flags & ACL_HOST_REG_MAPPED)) {
		r->flags &= ~ACL_HOST_REG_MAPPED;	/* stays pinned */
	} else {
		ret = acl_err(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
			      "ptr=%p is not registered", ptr);
	}
	pthread_mutex_unlock(&acl_host_lock);
	return ret;
}
