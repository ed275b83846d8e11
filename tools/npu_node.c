// SPDX-License-Identifier: GPL-2.0-only
/*
 * Finding NPU N in sysfs: see npu_node.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npu_node.h"

/* The minors an NPU can have: render nodes (6.1), accel nodes (>= 6.2). */
static const struct {
	const char *class;
	const char *prefix;
	const char *devdir;
} npu_minor_kinds[] = {
	{ "drm", "renderD", "/dev/dri" },
	{ "accel", "accel", "/dev/accel" },
};

static int read_index(const char *path, int *index)
{
	char buf[32], *end;
	FILE *f = fopen(path, "re");
	long v;

	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	v = strtol(buf, &end, 10);
	if (end == buf || (*end && *end != '\n') || v < 0 || v > 0xffff)
		return -EINVAL;
	*index = (int)v;
	return 0;
}

/* Call @fn for every NPU minor under @sysroot; stop at its non-zero. */
static int npu_node_scan(const char *sysroot,
			 int (*fn)(const struct npu_node *n, void *data),
			 void *data)
{
	char dir[480], path[600];
	struct npu_node n;
	struct dirent *de;
	size_t k;
	DIR *d;
	int ret = 0;

	for (k = 0; k < sizeof(npu_minor_kinds) / sizeof(npu_minor_kinds[0]) && !ret; k++) {
		snprintf(dir, sizeof(dir), "%s/class/%s", sysroot,
			 npu_minor_kinds[k].class);
		d = opendir(dir);
		if (!d)
			continue;
		while (!ret && (de = readdir(d))) {
			if (strncmp(de->d_name, npu_minor_kinds[k].prefix,
				    strlen(npu_minor_kinds[k].prefix)) ||
			    strlen(de->d_name) >= sizeof(n.minor))
				continue;
			snprintf(path, sizeof(path), "%s/%.31s/device/npu_index",
				 dir, de->d_name);
			if (read_index(path, &n.index))
				continue;	/* not an NPU of ours */
			snprintf(n.minor, sizeof(n.minor), "%.31s", de->d_name);
			snprintf(n.node, sizeof(n.node), "%s/%.31s",
				 npu_minor_kinds[k].devdir, de->d_name);
			snprintf(n.sysdir, sizeof(n.sysdir), "%.470s/%.31s/device",
				 dir, de->d_name);
			ret = fn(&n, data);
		}
		closedir(d);
	}
	return ret;
}

struct npu_node_want {
	int index;
	struct npu_node *out;
};

static int npu_node_match(const struct npu_node *n, void *data)
{
	struct npu_node_want *w = data;

	if (n->index != w->index)
		return 0;
	*w->out = *n;
	return 1;
}

int npu_node_find(const char *sysroot, int index, struct npu_node *n)
{
	struct npu_node_want w = { .index = index, .out = n };

	return npu_node_scan(sysroot, npu_node_match, &w) == 1 ? 0 : -ENOENT;
}

struct npu_node_all {
	struct npu_node *nodes;
	int max, count;
};

static int npu_node_add(const struct npu_node *n, void *data)
{
	struct npu_node_all *a = data;
	int i;

	/* Full: keep the @max lowest indices, whatever order sysfs lists. */
	if (a->count == a->max) {
		if (!a->max || a->nodes[a->max - 1].index < n->index)
			return 0;
		a->count--;
	}
	/* Insertion sort by index: there are a handful. */
	for (i = a->count; i > 0 && a->nodes[i - 1].index > n->index; i--)
		a->nodes[i] = a->nodes[i - 1];
	a->nodes[i] = *n;
	a->count++;
	return 0;
}

int npu_node_list(const char *sysroot, struct npu_node *nodes, int max)
{
	struct npu_node_all a = { .nodes = nodes, .max = max };

	npu_node_scan(sysroot, npu_node_add, &a);
	return a.count;
}

int npu_node_open(int index, int flags)
{
	struct npu_node n;
	int fd;

	if (npu_node_find("/sys", index, &n))
		return -ENOENT;
	fd = open(n.node, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}
