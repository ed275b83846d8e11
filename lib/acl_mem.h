/* SPDX-License-Identifier: MIT */
/*
 * libacl internals: memory: device pointers (acl_va.c), pinned host
 * regions (acl_host.c), peer access (acl_peer.c), device allocations
 * (acl_mem.c).
 */
#ifndef ACL_MEM_H
#define ACL_MEM_H

#include <pthread.h>
#include <sys/types.h>

#include "acl_objects.h"

/* ---- acl_va.c: device pointers --------------------------------------- */

/*
 * A device pointer is va_base + (dev_addr - mem_base): the reservation is
 * PROT_NONE, so host dereferences fault and host pointers never collide.
 */
struct acl_va {
	uintptr_t base;
	uint64_t size;
	uint64_t mem_base;
};

bool acl_va_contains(const struct acl_va *va, uintptr_t p);

/*
 * The helpers of the fast path of a copy are inline here, so that the
 * shared library needs no link-time optimisation to inline them across
 * files (lib/Makefile).
 */
static inline uint64_t acl_va_to_dev(const struct acl_va *va, uintptr_t p)
{
	return va->mem_base + (uint64_t)(p - va->base);
}

/* @dev's reservation, read once (va_base is published last). */
static inline struct acl_va acl_dev_va(const struct acl_device *dev)
{
	struct acl_va va = {
		.base = __atomic_load_n(&dev->va_base, __ATOMIC_ACQUIRE),
		.size = dev->va_size,
		.mem_base = dev->info.mem_base,
	};

	return va;
}

/* The device address of device pointer @p of @dev. */
static inline uint64_t acl_dev_addr(const struct acl_device *dev,
				    const void *p)
{
	struct acl_va va = acl_dev_va(dev);

	return acl_va_to_dev(&va, (uintptr_t)p);
}

void *acl_dev_to_va(const struct acl_va *va, uint64_t dev_addr);
/* Bytes of device addresses a reservation covers: memory and VMM window. */
uint64_t acl_va_span(const struct npu_dma_info *info);
int acl_va_reserve(struct acl_device *dev);
void acl_va_release(struct acl_device *dev);
/*
 * Device whose reservation holds @p, or NULL; &acl_va_parent (never
 * open) for a device pointer a forked child inherited.
 */
struct acl_device *acl_va_find(const void *p);
/*
 * Device pointer @p (argument @name) of an open NPU, of *@dev when that
 * is set, which becomes it: else 107000 with a message naming @name.
 */
aclError acl_devptr_check(const char *name, const void *p,
			  struct acl_device **dev);
extern struct acl_device acl_va_parent;
/*
 * In a forked child (the fork handler): @dev's reservation becomes the
 * parent's, and @dev has none until it is opened again.
 */
void acl_va_inherit(struct acl_device *dev);
/* aclFinalize: unreserve the parent's ranges too. */
void acl_va_release_inherited(void);

/* ---- acl_host.c: pinned host regions ---------------------------------- */

enum acl_host_kind {
	ACL_HOST_MALLOC = 1,		/* aclrtMallocHost: we own the mapping */
	ACL_HOST_REGISTERED = 2,	/* aclrtHostRegister(V2) */
};

struct acl_host_region {
	uintptr_t addr;
	uint64_t size;
	enum acl_host_kind kind;
	uint32_t flags;			/* ACL_HOST_REG_* (registered ones) */
	uint64_t dev_mask;		/* physical NPUs it is registered on */
	uint64_t dev_gen[ACL_MAX_DEVICES];	/* per NPU: device gen when registered */
};

/* A sorted array of non-overlapping regions; the caller locks. */
struct acl_host_table {
	struct acl_host_region *r;
	size_t n, cap;
	uint64_t gen;			/* bumped by every change; read unlocked */
};

ssize_t acl_host_find(const struct acl_host_table *t, uintptr_t p);
/* Count a change of @t (caller locks): lookups cached before are stale. */
void acl_host_changed(struct acl_host_table *t);
/* Index of a region overlapping [p, p + size), or -1. */
ssize_t acl_host_overlap(const struct acl_host_table *t, uintptr_t p,
			 uint64_t size);
int acl_host_insert(struct acl_host_table *t, const struct acl_host_region *r);
void acl_host_remove(struct acl_host_table *t, size_t i);
void acl_host_table_free(struct acl_host_table *t);

extern pthread_mutex_t acl_host_lock;
extern struct acl_host_table acl_hosts;

/*
 * The host region this thread found last (and, if @pin_dev is set, saw
 * pinned on that NPU at its @pin_gen), valid while acl_hosts.gen is
 * still @gen: most copies name the buffer the previous one named.
 */
struct acl_host_hit {
	uint64_t gen;
	uintptr_t addr;
	uint64_t size;
	const struct acl_device *pin_dev;
	uint64_t pin_gen;
};

extern __thread struct acl_host_hit acl_host_hit ACL_TLS_FAST;

/* This thread's last region if it holds [a, a + len) and is current. */
static inline const struct acl_host_hit *acl_host_hit_get(uintptr_t a,
							  uint64_t len)
{
	const struct acl_host_hit *h = &acl_host_hit;

	if (h->gen != __atomic_load_n(&acl_hosts.gen, __ATOMIC_ACQUIRE) ||
	    a < h->addr || a - h->addr >= h->size ||
	    len > h->addr + h->size - a)
		return NULL;
	return h;
}

/*
 * Make sure [p, p + len) may be named as registered host memory on @dev.
 * Return: true if it lies in one acl region (registered on @dev now),
 * false if it is ordinary (pageable) memory.
 */
bool acl_host_pinned_on(struct acl_device *dev, const void *p, uint64_t len);
/*
 * Lock-free half of acl_host_pinned_on(): true if this thread's last
 * lookup found [p, p + len) in one acl region pinned on @dev, still
 * current. False decides nothing: ask acl_host_pinned_on().
 */
static inline bool acl_host_hit_pinned(const struct acl_device *dev,
				       const void *p, uint64_t len)
{
	const struct acl_host_hit *h = acl_host_hit_get((uintptr_t)p, len);

	return h && h->pin_dev == dev && h->pin_gen == dev->gen;
}
/* Does [p, p + len) lie in one acl host region (aclrtMallocHost, registered)? */
bool acl_host_is_acl(const void *p, uint64_t len);
/* Drop the registrations a closing device had. */
void acl_host_forget_device(struct acl_device *dev);
void acl_host_release_all(void);
/* In a forked child: the lock again, nothing pinned (acl_fork.c). */
void acl_host_forked(void);

/* ---- acl_peer.c ------------------------------------------------------ */

/* May @run's engine move @dev's memory (@name=@p, for messages)? */
aclError acl_peer_check(struct acl_device *run, struct acl_device *dev,
			const char *name, const void *p);
/*
 * Let @dev's engine reach @peer's memory (aclrtDeviceEnablePeerAccess, and
 * IPC imports with ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS).
 */
aclError acl_peer_enable(struct acl_device *dev, struct acl_device *peer);
/* Drop a reset device's peer grants, both ways; caller holds acl_g.lock. */
void acl_peer_forget(struct acl_device *dev);


/* ---- acl_ipc.c, acl_vmm.c: shared and virtual memory ----------------- */

/*
 * Keys of shared objects as strings: "<prefix><N>:<32 hex digits>", N the
 * driver's NPU index. Parse: 0 (and the NPU and key), or -1 for anything
 * but that exact spelling.
 */
void acl_key_format(char *buf, size_t size, const char *prefix, int phys,
		    const uint64_t k[2]);
int acl_key_parse(const char *key, const char *prefix, int *phys,
		  uint64_t k[2]);
/*
 * A signal shared by key @k (string @key, a shared @what: "notify",
 * "event") into the current device's file: its device and id there, or
 * an aclError recorded.
 */
aclError acl_signal_import(const uint64_t k[2], const char *key,
			   const char *what, struct acl_device **dev,
			   uint32_t *id);

/*
 * In a forked child: what the parent exported, imported, reserved and
 * mapped is forgotten (its files are not the child's), the locks new.
 */
void acl_ipc_forked(void);
void acl_vmm_forked(void);
uint32_t acl_vmm_gem_at(struct acl_device *dev, const void *p);
/* The same for memory pools (their memory is the parent's) and allocators. */
void acl_mempool_forked(void);
void acl_allocator_forked(void);

/* ---- acl_mem.c ------------------------------------------------------- */

/* What MEM_ALLOC gets for an aclrtMalloc* request. */
struct acl_alloc_req {
	uint64_t bytes;
	uint64_t align;
	uint32_t policy;		/* NPU_DMA_MEM_* */
	uint32_t flags;			/* NPU_DMA_MEM_F_* */
};

/*
 * CANN's size rule (round to 32 bytes, plus 32 bytes of padding when @pad)
 * and policy mapping; @cfg allows the OR-ed bandwidth/read-only bits of
 * aclrtMallocWithCfg. Return: 0 or ACL_ERROR_INVALID_PARAM (recorded).
 */
aclError acl_malloc_params(size_t size, uint32_t policy, bool pad, bool cfg,
			   struct acl_alloc_req *req);

/*
 * aclrtMallocAlign32(@devPtr, @size, ACL_MEM_MALLOC_HUGE_FIRST) on the
 * current device, charged to @use (a memory pool's chunk); aclrtFree()
 * frees it. Errors are recorded under the calling entry point's name.
 */
aclError acl_malloc_for(void **devPtr, size_t size, enum acl_mem_use use);

/* The allocation table (caller locks): 0 or -ENOMEM / -EEXIST / -EINVAL. */
int acl_mem_insert(struct acl_mem_table *t, const struct acl_mem_entry *ent);
/*
 * Remove the allocation starting at @addr: its handle, or 0 if none; its
 * entry into *@gone (if not NULL).
 */
uint32_t acl_mem_remove(struct acl_mem_table *t, uint64_t addr,
			struct acl_mem_entry *gone);
void acl_mem_table_free(struct acl_mem_table *t);
/*
 * The allocation of @dev starting last at or before @addr (which may
 * still end before it: ask the driver its size): true and its start and
 * handle, or false.
 */
bool acl_mem_containing(struct acl_device *dev, uint64_t addr, uint64_t *start,
			uint32_t *handle);
/*
 * A closing device's file took its allocations along: forget them, and
 * what they were charged.
 */
void acl_mem_forget(struct acl_device *dev);

/* ---- acl_memusage.c: device memory held, per component --------------- */

/* @bytes more, or fewer, held on @dev for @use (dev->mem_lock held). */
void acl_usage_charge_locked(struct acl_device *dev, enum acl_mem_use use,
			     uint64_t bytes);
void acl_usage_uncharge_locked(struct acl_device *dev, enum acl_mem_use use,
			       uint64_t bytes);
/*
 * The same for memory allocated while @dev had generation @gen: nothing
 * if @dev was closed since (its file took the memory along).
 */
void acl_usage_charge(struct acl_device *dev, uint64_t gen,
		      enum acl_mem_use use, uint64_t bytes);
void acl_usage_uncharge(struct acl_device *dev, uint64_t gen,
			enum acl_mem_use use, uint64_t bytes);
/* @dev's file is closing (mem_lock held): nothing is held any more. */
void acl_usage_forget_locked(struct acl_device *dev);

#endif /* ACL_MEM_H */
