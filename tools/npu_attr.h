/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One sysfs attribute of an NPU (tools/npu_node.h finds it), for the
 * tools and benchmarks that label their output with it ("backend").
 * Header only: each user compiles in tools/npu_node.c as well.
 */
#ifndef NPU_ATTR_H
#define NPU_ATTR_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npu_node.h"

/* NPUs looked at: as many as libacl numbers. */
#define NPU_ATTR_MAX_NPUS 64

/*
 * Read attribute @attr of NPU @n into @buf (trailing newline cut).
 * Return: 0, or -1 with @buf "" when it cannot be read.
 */
static inline int npu_attr_read(const struct npu_node *n, const char *attr,
				char *buf, size_t size)
{
	char path[sizeof(n->sysdir) + 64];
	FILE *f;
	int ok;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", n->sysdir, attr);
	f = fopen(path, "re");
	if (!f)
		return -1;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (!ok)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return ok ? 0 : -1;
}

/*
 * Attribute @attr of the NPU at position @pos in index order, which is
 * libacl's device @pos (unless ASCEND_RT_VISIBLE_DEVICES renumbers the
 * devices). Return: 0, or -1 with @buf "" (no such NPU or attribute).
 */
static inline int npu_attr_nth(int pos, const char *attr, char *buf,
			       size_t size)
{
	struct npu_node *nodes;
	int n, ret = -1;

	buf[0] = '\0';
	if (pos < 0 || pos >= NPU_ATTR_MAX_NPUS)
		return -1;
	nodes = calloc(NPU_ATTR_MAX_NPUS, sizeof(*nodes));
	if (!nodes)
		return -1;
	n = npu_node_list("/sys", nodes, NPU_ATTR_MAX_NPUS);
	if (pos < n)
		ret = npu_attr_read(&nodes[pos], attr, buf, size);
	free(nodes);
	return ret;
}

#endif /* NPU_ATTR_H */
