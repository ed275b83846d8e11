// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: device memory shared between processes by key, the driver's
 * half of CANN's IPC memory (aclrtIpcMem*, Documentation/security.rst).
 *
 * A share is a window of whole pages of one allocation, exported by the
 * file that owns it under a random 128-bit key. The kernel, not the
 * library, decides who may import it: the processes the exporter named
 * (struct pid references, so a pid number reused by a later process does
 * not inherit the right), or anybody who knows the key when the exporter
 * turned the check off. An import is an alias range in the importing
 * file's tree (npu_dma_prime.c) at the exporter's device address,
 * covering the window only, and holding the allocation's GEM object: the
 * exporter freeing the memory, revoking the key or dying leaves every
 * import working; no import can be made after that.
 *
 * Locking: npu_ipc_lock protects the table of shares and every context's
 * list of its own; it is never held with a context's lock.
 */

#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_gem.h>

#include "npu_dma_ipc.h"
#include "npu_dma_mem.h"
#include "npu_dma_prime.h"
#include "npu_dma_signal.h"

/**
 * struct npu_ipc_share - a window of an allocation, shared by key
 * @hnode: in npu_ipc_shares, hashed by @key[0]
 * @owner_node: in the exporting context's @ipc_shares
 * @key: the key (random, never zero)
 * @owner: the exporting context (the share goes before it does)
 * @a: the allocation (its GEM object referenced), or NULL for a signal
 * @sig: a signal (referenced, npu_dma_signal.c), or NULL for memory
 * @start: first device address of the window
 * @size: its size, whole pages
 * @check_pids: only @pids may import
 * @nr_pids: entries of @pids
 * @pids: the processes allowed, referenced
 */
struct npu_ipc_share {
	struct hlist_node hnode;
	struct list_head owner_node;
	u64 key[2];
	struct npu_dma_ctx *owner;
	struct npu_dma_alloc *a;
	struct npu_dma_signal *sig;
	u64 start;
	u64 size;
	bool check_pids;
	unsigned int nr_pids;
	struct pid **pids;
};

static DEFINE_MUTEX(npu_ipc_lock);
static DEFINE_HASHTABLE(npu_ipc_shares, 6);

static struct npu_ipc_share *npu_ipc_find(const u64 key[2])
{
	struct npu_ipc_share *s;

	lockdep_assert_held(&npu_ipc_lock);
	hash_for_each_possible(npu_ipc_shares, s, hnode, key[0])
		if (s->key[0] == key[0] && s->key[1] == key[1])
			return s;
	return NULL;
}

/* The share of @key that @ctx exported, or NULL. */
static struct npu_ipc_share *npu_ipc_find_own(struct npu_dma_ctx *ctx,
					      const u64 key[2])
{
	struct npu_ipc_share *s = npu_ipc_find(key);

	return s && s->owner == ctx ? s : NULL;
}

/* Unlink @s (under npu_ipc_lock); npu_ipc_free() it after. */
static void npu_ipc_unlink(struct npu_ipc_share *s)
{
	lockdep_assert_held(&npu_ipc_lock);
	hash_del(&s->hnode);
	list_del(&s->owner_node);
}

static void npu_ipc_free(struct npu_ipc_share *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_pids; i++)
		put_pid(s->pids[i]);
	kvfree(s->pids);
	if (s->a)
		drm_gem_object_put(&s->a->base);
	else
		npu_dma_signal_put(s->sig);
	kfree(s);
}

/* Free every share of @ctx that @match (or, with NULL, every one). */
static void npu_ipc_revoke(struct npu_dma_ctx *ctx, struct npu_dma_alloc *match)
{
	struct npu_ipc_share *s, *tmp;
	LIST_HEAD(gone);

	mutex_lock(&npu_ipc_lock);
	list_for_each_entry_safe(s, tmp, &ctx->ipc_shares, owner_node) {
		if (match && s->a != match)
			continue;	/* NULL for a signal: kept */
		hash_del(&s->hnode);
		list_move(&s->owner_node, &gone);
	}
	mutex_unlock(&npu_ipc_lock);
	list_for_each_entry_safe(s, tmp, &gone, owner_node)
		npu_ipc_free(s);
}

/**
 * npu_dma_ipc_revoke_alloc() - the owner freed an allocation: its keys go
 * @ctx: the owner's context
 * @a: the allocation
 */
void npu_dma_ipc_revoke_alloc(struct npu_dma_ctx *ctx, struct npu_dma_alloc *a)
{
	npu_ipc_revoke(ctx, a);
}

/**
 * npu_dma_ipc_revoke_all() - a closing context's keys go
 * @ctx: the context
 */
void npu_dma_ipc_revoke_all(struct npu_dma_ctx *ctx)
{
	npu_ipc_revoke(ctx, NULL);
}

/* The allocation of @ctx's own that holds [start, start + size), referenced. */
static struct npu_dma_alloc *npu_ipc_own_alloc(struct npu_dma_ctx *ctx,
					       u64 start, u64 size)
{
	struct npu_dma_alloc *a = NULL;
	struct npu_dma_range *r;

	mutex_lock(&ctx->lock);
	r = npu_dma_range_find(&ctx->mem_tree, start, size);
	/* Not another's memory (an alias), nor a foreign import. */
	if (r && !r->target && !r->imported) {
		a = container_of(r, struct npu_dma_alloc, range);
		drm_gem_object_get(&a->base);
	}
	mutex_unlock(&ctx->lock);
	return a;
}

/* Publish @s of @ctx under a new key, into @req. */
static void npu_ipc_publish(struct npu_dma_ctx *ctx, struct npu_ipc_share *s,
			    struct npu_dma_ipc_export *req)
{
	mutex_lock(&npu_ipc_lock);
	do {
		get_random_bytes(s->key, sizeof(s->key));
		if (req->flags & NPU_DMA_IPC_F_KEY64)
			s->key[1] = 0;
	} while ((!s->key[0] && !s->key[1]) || npu_ipc_find(s->key));
	hash_add(npu_ipc_shares, &s->hnode, s->key[0]);
	list_add_tail(&s->owner_node, &ctx->ipc_shares);
	mutex_unlock(&npu_ipc_lock);

	req->key[0] = s->key[0];
	req->key[1] = s->key[1];
}

/* IPC_EXPORT of a signal the file created: @req->dev_addr is its id. */
static int npu_ipc_export_signal(struct npu_dma_ctx *ctx,
				 struct npu_dma_ipc_export *req)
{
	struct npu_ipc_share *s;

	if (req->size || req->dev_addr > U32_MAX)
		return -EINVAL;
	s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s)
		return -ENOMEM;
	s->sig = npu_dma_signal_lookup(ctx, (u32)req->dev_addr);
	if (!s->sig || !npu_dma_signal_owned(s->sig, ctx)) {
		if (s->sig)
			npu_dma_signal_put(s->sig);
		kfree(s);
		return -ENOENT;
	}
	s->owner = ctx;
	s->check_pids = !(req->flags & NPU_DMA_IPC_F_NO_PID_CHECK);
	npu_ipc_publish(ctx, s, req);
	return 0;
}

int npu_dma_ipc_export_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_ipc_export *req = data;
	struct npu_ipc_share *s;
	u64 start, end;

	if ((req->flags & ~NPU_DMA_IPC_EXPORT_FLAGS) || req->pad ||
	    req->key[0] || req->key[1] || req->reserved[0] || req->reserved[1]) {
		npu_dbg(ctx->ndev, "unknown flags, output or reserved fields set\n");
		return -EINVAL;
	}
	if (req->flags & NPU_DMA_IPC_F_SIGNAL)
		return npu_ipc_export_signal(ctx, req);
	start = round_down(req->dev_addr, PAGE_SIZE);
	if (!req->size || check_add_overflow(req->dev_addr, req->size, &end) ||
	    end > U64_MAX - PAGE_SIZE)
		return -EINVAL;
	end = round_up(end, PAGE_SIZE);

	s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s)
		return -ENOMEM;
	s->a = npu_ipc_own_alloc(ctx, start, end - start);
	if (!s->a) {
		npu_dbg(ctx->ndev, "%#llx+%#llx is not in one allocation of the file\n",
			req->dev_addr, req->size);
		kfree(s);
		return -EFAULT;
	}
	s->owner = ctx;
	s->start = start;
	s->size = end - start;
	s->check_pids = !(req->flags & NPU_DMA_IPC_F_NO_PID_CHECK);
	npu_ipc_publish(ctx, s, req);
	return 0;
}

/* Each pid number of @req as a struct pid, referenced; or an ERR_PTR. */
static struct pid **npu_ipc_get_pids(const struct npu_dma_ipc_set_pids *req)
{
	s32 __user *up = u64_to_user_ptr(req->pids);
	struct pid **pids;
	unsigned int i;
	int ret = 0;

	pids = kvcalloc(req->count, sizeof(*pids), GFP_KERNEL_ACCOUNT);
	if (!pids)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < req->count && !ret; i++) {
		s32 nr;

		if (get_user(nr, up + i)) {
			ret = -EFAULT;
			break;
		}
		pids[i] = nr > 0 ? find_get_pid(nr) : NULL;
		if (!pids[i])
			ret = nr > 0 ? -ESRCH : -EINVAL;
	}
	if (!ret)
		return pids;
	while (i--)
		put_pid(pids[i]);
	kvfree(pids);
	return ERR_PTR(ret);
}

int npu_dma_ipc_set_pids_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_ipc_set_pids *req = data;
	struct npu_ipc_share *s;
	struct pid **add, **all = NULL;
	unsigned int i;
	int ret = 0;

	if (req->flags || req->reserved[0] || req->reserved[1] || !req->count ||
	    req->count > NPU_DMA_IPC_MAX_PIDS)
		return -EINVAL;
	add = npu_ipc_get_pids(req);
	if (IS_ERR(add))
		return PTR_ERR(add);

	mutex_lock(&npu_ipc_lock);
	s = npu_ipc_find_own(ctx, req->key);
	if (!s)
		ret = -ENOENT;
	else if (s->nr_pids + req->count > NPU_DMA_IPC_MAX_PIDS)
		ret = -ENOSPC;
	else
		all = kvrealloc(s->pids, s->nr_pids * sizeof(*all),
				(s->nr_pids + req->count) * sizeof(*all),
				GFP_KERNEL_ACCOUNT);
	if (!ret && !all)
		ret = -ENOMEM;
	if (!ret) {
		memcpy(all + s->nr_pids, add, req->count * sizeof(*all));
		s->pids = all;
		s->nr_pids += req->count;
	}
	mutex_unlock(&npu_ipc_lock);
	if (ret)
		for (i = 0; i < req->count; i++)
			put_pid(add[i]);
	kvfree(add);
	return ret;
}

/* May the calling process import @s? */
static bool npu_ipc_allowed(const struct npu_ipc_share *s)
{
	struct pid *me = task_tgid(current);
	unsigned int i;

	if (!s->check_pids)
		return true;
	for (i = 0; i < s->nr_pids; i++)
		if (s->pids[i] == me)
			return true;
	return false;
}

/* May @ctx import share @s (under npu_ipc_lock) as asked? 0 or -errno. */
static int npu_ipc_import_check(struct npu_dma_ctx *ctx,
				const struct npu_ipc_share *s, bool handle,
				bool signal)
{
	if (!s)
		return -ENOENT;
	if (!s->a != signal)
		return -EINVAL;	/* memory asked for as a signal, or the reverse */
	if (!npu_ipc_allowed(s))
		return -EACCES;
	if (signal)
		return 0;	/* signals cross NPUs */
	if (s->a->ndev != ctx->ndev)
		return -EXDEV;
	if (!handle)
		return 0;
	/* A handle is of a whole allocation, and of another file's. */
	if (s->start != s->a->range.start || s->size != s->a->range.size)
		return -EINVAL;
	return s->a->owner == ctx->file ? -EEXIST : 0;
}

int npu_dma_ipc_import_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_ipc_import *req = data;
	bool handle = req->flags & NPU_DMA_IPC_IMPORT_F_HANDLE;
	bool signal = req->flags & NPU_DMA_IPC_IMPORT_F_SIGNAL;
	struct npu_dma_signal *sig = NULL;
	struct npu_dma_alloc *a = NULL;
	struct npu_ipc_share *s;
	u64 start = 0, size = 0;
	int ret = 0;

	if ((req->flags & ~(NPU_DMA_IPC_IMPORT_F_HANDLE | NPU_DMA_IPC_IMPORT_F_SIGNAL)) ||
	    (handle && signal) || req->handle || req->dev_addr || req->size ||
	    req->reserved[0] || req->reserved[1])
		return -EINVAL;
	mutex_lock(&npu_ipc_lock);
	s = npu_ipc_find(req->key);
	ret = npu_ipc_import_check(ctx, s, handle, signal);
	if (!ret && signal) {
		sig = s->sig;
		npu_dma_signal_get(sig);	/* for the file's table */
	} else if (!ret) {
		a = s->a;
		drm_gem_object_get(&a->base);
		start = s->start;
		size = s->size;
	}
	mutex_unlock(&npu_ipc_lock);
	if (ret) {
		npu_dbg(ctx->ndev, "import refused: %d\n", ret);
		return ret;
	}
	if (signal) {
		ret = npu_dma_signal_add(ctx, sig, &req->handle);
		if (ret)
			npu_dma_signal_put(sig);
		return ret == -EBUSY ? -ENOSPC : ret;
	}

	if (handle)
		ret = drm_gem_handle_create(ctx->file, &a->base, &req->handle);
	else
		ret = npu_dma_alias_add(ctx, &a->range, start, size, start,
					NPU_DMA_ALIAS_IPC);
	drm_gem_object_put(&a->base);
	if (ret)
		return ret;
	req->dev_addr = start;
	req->size = size;
	return 0;
}

int npu_dma_ipc_close_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_ipc_close *req = data;
	struct npu_ipc_share *s;

	if (req->pad || req->reserved[0] || req->reserved[1])
		return -EINVAL;
	switch (req->flags) {
	case NPU_DMA_IPC_CLOSE_EXPORT:
		if (req->dev_addr)
			return -EINVAL;
		mutex_lock(&npu_ipc_lock);
		s = npu_ipc_find_own(ctx, req->key);
		if (s)
			npu_ipc_unlink(s);
		mutex_unlock(&npu_ipc_lock);
		if (!s)
			return -ENOENT;
		npu_ipc_free(s);
		return 0;
	case NPU_DMA_IPC_CLOSE_IMPORT:
		if (req->key[0] || req->key[1])
			return -EINVAL;
		return npu_dma_alias_remove_at(ctx, req->dev_addr,
					       NPU_DMA_ALIAS_IPC);
	default:
		return -EINVAL;
	}
}
