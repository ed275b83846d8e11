/* SPDX-License-Identifier: MIT */
/*
 * libacl internals: planning a copy or fill: pointer classes and CANN's
 * kind rules (acl_kind.c), the plan of a transfer (acl_copy.c).
 */
#ifndef ACL_COPY_H
#define ACL_COPY_H

#include "acl_objects.h"

/* ---- acl_kind.c: pointer classes and copy kinds ---------------------- */

enum acl_loc {
	ACL_LOC_HOST,			/* acl pinned host memory */
	ACL_LOC_DEVICE,			/* acl device memory */
	ACL_LOC_UNREG,			/* anything else */
};

/*
 * CANN's kind rules (ACL_API.md 5.1): from the classes of both pointers
 * and the kind passed (0..4), the kind to perform. Return: 0 or
 * ACL_ERROR_RT_PARAM_INVALID (kind not allowed for these pointers).
 */
aclError acl_resolve_kind(enum acl_loc src, enum acl_loc dst,
			  aclrtMemcpyKind kind, aclrtMemcpyKind *out);
const char *acl_kind_name(int kind);
enum acl_loc acl_classify(const void *p, struct acl_device **dev);

/*
 * Does a 1-D descriptor like @d advance its source with its destination
 * when it is cut (COPY, REDUCE), or read none (FILL)?
 */
static inline bool acl_desc_has_src(const struct npu_dma_desc *d)
{
	return d->opcode == NPU_DMA_OP_COPY || d->opcode == NPU_DMA_OP_REDUCE;
}

/*
 * Fill @d with copies of @tmpl (a COPY, REDUCE or FILL whose len is
 * ignored), each of at most @max_len bytes (for a REDUCE a multiple of
 * its element), covering @len bytes from tmpl's addresses.
 * Return: descriptors written (<= @n); the caller goes on with a
 * template advanced by what they cover if @len needs more.
 */
size_t acl_build_descs(struct npu_dma_desc *d, size_t n,
		       const struct npu_dma_desc *tmpl, uint64_t len,
		       uint64_t max_len);


/* ---- acl_copy.c: planned transfers, shared by the copy files ---------- */

/* A copy or fill, planned: what a 1-D call needs to run it. */
struct acl_xfer {
	struct acl_device *dev;		/* NPU that runs it; NULL for H2H */
	struct npu_dma_desc tmpl;	/* opcode, flags, addresses */
	uint64_t len;
	bool pageable;			/* names unregistered host memory */
};

/*
 * Plan a copy of @count bytes: pointer classes, CANN's kind rules, the
 * NPU and the descriptor template. @run is the NPU the caller will run
 * it on (a stream's), or NULL for the device memory's own. aclError
 * (recorded).
 */
aclError acl_plan_copy(struct acl_xfer *x, void *dst, const void *src,
		       size_t count, aclrtMemcpyKind kind, struct acl_device *run);

/* Bytes one descriptor may move on @dev (pageable: what the driver pins). */
uint64_t acl_dev_max_len(const struct acl_device *dev, bool pageable);
/*
 * The common copy planned without the general planner: host memory this
 * thread last found pinned on @dev (acl_host_hit_pinned()) and @dev's own
 * memory, any kind up to DEFAULT (CANN forces the kind for this pair),
 * one descriptor. Fills @d and returns true; false when the copy is
 * anything else (nothing recorded: plan it with acl_plan_copy()).
 */
bool acl_plan_fast(struct npu_dma_desc *d, void *dst, const void *src,
		   size_t count, aclrtMemcpyKind kind, struct acl_device *dev);

/* A pointer and what acl_classify() found it to be. */
struct acl_ptr {
	const void *p;
	enum acl_loc loc;
	struct acl_device *dev;
};

/* acl_plan_copy() for pointers the caller has classified already. */
aclError acl_plan_copy_ptrs(struct acl_xfer *x, const struct acl_ptr *dst,
			    const struct acl_ptr *src, size_t count,
			    aclrtMemcpyKind kind, struct acl_device *run);
/* Plan a FILL of the low byte of @value over @count bytes at @p. */
aclError acl_plan_fill(struct acl_xfer *x, void *p, int32_t value, size_t count,
		       struct acl_device *run);

#endif /* ACL_COPY_H */
