// SPDX-License-Identifier: MIT
/*
 * libacl: what a copy is. Pointers fall in three classes (acl pinned
 * host, acl device, anything else); CANN's rules turn the class pair and
 * the kind the caller passed into the kind performed (ACL_API.md 5.1).
 * Also the splitting of long copies and fills into descriptors.
 */
#include <string.h>

#include "acl_objects.h"
#include "acl_mem.h"
#include "acl_copy.h"

#define K(kind) (1U << (kind))

/*
 * For a class pair: the kind forced when both sides are acl memory, or
 * else the kinds the caller may pass and what DEFAULT becomes.
 */
struct acl_kind_rule {
	int forced;		/* -1: not forced */
	unsigned int allowed;	/* K() bits */
	aclrtMemcpyKind def;
};

static const struct acl_kind_rule acl_kind_rules[3][3] = {
	/* [src][dst] */
	[ACL_LOC_HOST] = {
		[ACL_LOC_HOST] = { ACL_MEMCPY_HOST_TO_HOST, 0, ACL_MEMCPY_HOST_TO_HOST },
		[ACL_LOC_DEVICE] = { ACL_MEMCPY_HOST_TO_DEVICE, 0, ACL_MEMCPY_HOST_TO_DEVICE },
		[ACL_LOC_UNREG] = { -1, K(ACL_MEMCPY_HOST_TO_HOST) | K(ACL_MEMCPY_HOST_TO_DEVICE),
				    ACL_MEMCPY_HOST_TO_HOST },
	},
	[ACL_LOC_DEVICE] = {
		[ACL_LOC_HOST] = { ACL_MEMCPY_DEVICE_TO_HOST, 0, ACL_MEMCPY_DEVICE_TO_HOST },
		[ACL_LOC_DEVICE] = { ACL_MEMCPY_DEVICE_TO_DEVICE, 0, ACL_MEMCPY_DEVICE_TO_DEVICE },
		[ACL_LOC_UNREG] = { -1, K(ACL_MEMCPY_DEVICE_TO_HOST) | K(ACL_MEMCPY_DEVICE_TO_DEVICE),
				    ACL_MEMCPY_DEVICE_TO_HOST },
	},
	[ACL_LOC_UNREG] = {
		[ACL_LOC_HOST] = { -1, K(ACL_MEMCPY_HOST_TO_HOST) | K(ACL_MEMCPY_DEVICE_TO_HOST),
				   ACL_MEMCPY_HOST_TO_HOST },
		[ACL_LOC_DEVICE] = { -1, K(ACL_MEMCPY_HOST_TO_DEVICE) | K(ACL_MEMCPY_DEVICE_TO_DEVICE),
				     ACL_MEMCPY_HOST_TO_DEVICE },
		[ACL_LOC_UNREG] = { -1, K(ACL_MEMCPY_HOST_TO_HOST) | K(ACL_MEMCPY_HOST_TO_DEVICE) |
					K(ACL_MEMCPY_DEVICE_TO_HOST) | K(ACL_MEMCPY_DEVICE_TO_DEVICE),
				    ACL_MEMCPY_HOST_TO_HOST },
	},
};

aclError acl_resolve_kind(enum acl_loc src, enum acl_loc dst,
			  aclrtMemcpyKind kind, aclrtMemcpyKind *out)
{
	const struct acl_kind_rule *rule;

	if ((unsigned int)src > ACL_LOC_UNREG || (unsigned int)dst > ACL_LOC_UNREG ||
	    (unsigned int)kind > ACL_MEMCPY_DEFAULT)
		return ACL_ERROR_RT_PARAM_INVALID;
	rule = &acl_kind_rules[src][dst];
	if (rule->forced >= 0)
		*out = (aclrtMemcpyKind)rule->forced;
	else if (kind == ACL_MEMCPY_DEFAULT)
		*out = rule->def;
	else if (rule->allowed & K(kind))
		*out = kind;
	else
		return ACL_ERROR_RT_PARAM_INVALID;
	return ACL_SUCCESS;
}

const char *acl_kind_name(int kind)
{
	static const char *const names[] = {
		"ACL_MEMCPY_HOST_TO_HOST", "ACL_MEMCPY_HOST_TO_DEVICE",
		"ACL_MEMCPY_DEVICE_TO_HOST", "ACL_MEMCPY_DEVICE_TO_DEVICE",
		"ACL_MEMCPY_DEFAULT", "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE",
		"ACL_MEMCPY_INNER_DEVICE_TO_DEVICE",
		"ACL_MEMCPY_INTER_DEVICE_TO_DEVICE",
	};

	if (kind < 0 || (size_t)kind >= sizeof(names) / sizeof(names[0]))
		return "unknown kind";
	return names[kind];
}

enum acl_loc acl_classify(const void *p, struct acl_device **dev)
{
	*dev = acl_va_find(p);
	if (*dev)
		return ACL_LOC_DEVICE;
	return acl_host_is_acl(p, 1) ? ACL_LOC_HOST : ACL_LOC_UNREG;
}

size_t acl_build_descs(struct npu_dma_desc *d, size_t n,
		       const struct npu_dma_desc *tmpl, uint64_t len,
		       uint64_t max_len)
{
	uint64_t off = 0;
	size_t i;

	for (i = 0; i < n && off < len; i++) {
		uint64_t chunk = len - off < max_len ? len - off : max_len;

		d[i] = *tmpl;
		d[i].dst += off;
		if (acl_desc_has_src(tmpl))
			d[i].src += off;
		d[i].len = chunk;
		off += chunk;
	}
	return i;
}
