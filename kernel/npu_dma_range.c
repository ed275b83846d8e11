// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: non-overlapping address ranges of a context, in an rbtree.
 * Every address a descriptor names is looked up here: it must lie in one
 * range the submitting context owns. Callers hold the context's lock.
 */

#include <linux/overflow.h>

#include "npu_dma.h"

/**
 * npu_dma_range_find() - the range holding [addr, addr + len)
 * @root: tree to search
 * @addr: first address
 * @len: bytes, > 0
 *
 * Return: the range, or NULL if no single range holds all of it.
 */
struct npu_dma_range *npu_dma_range_find(struct rb_root *root, u64 addr,
					 u64 len)
{
	struct rb_node *n = root->rb_node;
	u64 end;

	if (!len || check_add_overflow(addr, len, &end))
		return NULL;

	while (n) {
		struct npu_dma_range *r = rb_entry(n, struct npu_dma_range, node);

		if (addr < r->start)
			n = n->rb_left;
		else if (addr >= r->start + r->size)
			n = n->rb_right;
		else
			return end <= r->start + r->size ? r : NULL;
	}
	return NULL;
}

/**
 * npu_dma_range_insert() - add a range
 * @root: tree
 * @range: range with start and size set
 *
 * Return: 0, or -EEXIST if it overlaps a range already in the tree.
 */
int npu_dma_range_insert(struct rb_root *root, struct npu_dma_range *range)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;
	u64 end = range->start + range->size;

	while (*link) {
		struct npu_dma_range *r = rb_entry(*link, struct npu_dma_range, node);

		parent = *link;
		if (end <= r->start)
			link = &(*link)->rb_left;
		else if (range->start >= r->start + r->size)
			link = &(*link)->rb_right;
		else
			return -EEXIST;
	}
	rb_link_node(&range->node, parent, link);
	rb_insert_color(&range->node, root);
	return 0;
}

/**
 * npu_dma_range_take() - remove the range that starts at an address
 * @ctx: the context (its lock is taken)
 * @root: &ctx->mem_tree or &ctx->host_tree
 * @start: the range's first address, as returned when it was created
 *
 * Return: the range, whose tree reference the caller now owns, or NULL.
 */
struct npu_dma_range *npu_dma_range_take(struct npu_dma_ctx *ctx,
					 struct rb_root *root, u64 start)
{
	struct npu_dma_range *r;

	mutex_lock(&ctx->lock);
	r = npu_dma_range_find(root, start, 1);
	if (r && r->start == start) {
		rb_erase(&r->node, root);
		WRITE_ONCE(r->gone, true);
	} else {
		r = NULL;
	}
	mutex_unlock(&ctx->lock);
	return r;
}

/**
 * npu_dma_range_drain() - empty a context's tree, dropping each range
 * @ctx: the context (its lock is taken)
 * @root: &ctx->mem_tree or &ctx->host_tree
 * @put: drops the tree's reference on a range
 */
void npu_dma_range_drain(struct npu_dma_ctx *ctx, struct rb_root *root,
			 void (*put)(struct npu_dma_range *range))
{
	struct rb_root drained;
	struct rb_node *n;

	/*
	 * Take the whole tree, then drop the references without ctx->lock:
	 * the last put of a registration un-accounts it under mmap_lock,
	 * which mmap() holds when it takes ctx->lock (lock order).
	 */
	mutex_lock(&ctx->lock);
	/* Gone under the lock: a GEM close checks it there (npu_dma_mem.c). */
	for (n = rb_first(root); n; n = rb_next(n))
		WRITE_ONCE(rb_entry(n, struct npu_dma_range, node)->gone, true);
	drained = *root;
	*root = RB_ROOT;
	mutex_unlock(&ctx->lock);

	while ((n = rb_first(&drained))) {
		rb_erase(n, &drained);
		put(rb_entry(n, struct npu_dma_range, node));
	}
}
