// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-smi: the NPUs from sysfs. Each is a DRM node (renderDN, or accelN
 * where the kernel has drivers/accel) found by tools/npu_node.c; the
 * driver's attributes (Documentation/driver.rst, "sysfs") are in the
 * directory of the node's bus device, plain text, one value each. The
 * processes using them come from smi_proc.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npu_node.h"
#include "smi_proc.h"
#include "smi_sysfs.h"

/* Read a small file at a printf-formatted path; cut the trailing newline. */
static int read_text(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int read_text(char *buf, size_t size, const char *fmt, ...)
{
	char path[PATH_MAX];
	ssize_t n;
	va_list ap;
	int fd;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return n;
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

static int parse_u64(const char *s, uint64_t *val)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*val = strtoull(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

int smi_parse_ints(const char *s, int *vals, int max)
{
	int n = 0;

	for (;;) {
		uint64_t v;
		char *end;

		while (*s == ' ')
			s++;
		if (!*s)
			return n;
		if (*s < '0' || *s > '9')
			return -EINVAL;
		errno = 0;
		v = strtoull(s, &end, 10);
		if (errno || v > INT_MAX || (*end && *end != ' '))
			return -EINVAL;
		if (n < max)
			vals[n++] = (int)v;
		s = end;
	}
}

static int read_u64(const char *dir, const char *attr, uint64_t *val)
{
	char buf[32];
	int ret = read_text(buf, sizeof(buf), "%s/%s", dir, attr);

	return ret ? ret : parse_u64(buf, val);
}

static int read_uint(const char *dir, const char *attr, unsigned int *val)
{
	uint64_t v;
	int ret = read_u64(dir, attr, &v);

	if (!ret && v > UINT_MAX)
		ret = -ERANGE;
	if (!ret)
		*val = (unsigned int)v;
	return ret;
}

static int read_peers(const char *dir, uint64_t *mask)
{
	int idx[SMI_MAX_INDEX + 1], n, i, ret;
	char buf[512];

	ret = read_text(buf, sizeof(buf), "%s/peers", dir);
	if (ret)
		return ret;
	n = smi_parse_ints(buf, idx, SMI_MAX_INDEX + 1);
	if (n < 0)
		return n;
	*mask = 0;
	for (i = 0; i < n; i++)
		if (idx[i] <= SMI_MAX_INDEX)
			*mask |= 1ULL << idx[i];
	return 0;
}

static int read_clients(const char *dir, struct smi_npu *npu)
{
	char buf[8192];
	int ret, max, n;

	ret = read_text(buf, sizeof(buf), "%s/clients", dir);
	if (ret)
		return ret;
	/* Each pid takes at least two characters with its separator. */
	max = strlen(buf) / 2 + 1;
	npu->clients = calloc(max, sizeof(*npu->clients));
	if (!npu->clients)
		return -ENOMEM;
	n = smi_parse_ints(buf, npu->clients, max);
	if (n < 0)
		return n;
	npu->nr_clients = n;
	return 0;
}

/*
 * mem_used, queues and clients tell what every user does: root's only
 * (0400). Without them the usage is unknown, and the processes are
 * those whose /proc entries smi_proc.c can read: a user's own.
 */
static int read_usage(const char *dir, struct smi_npu *npu)
{
	int ret = read_u64(dir, "mem_used", &npu->mem_used);

	if (ret == -EACCES) {
		npu->usage_hidden = 1;
		return 0;
	}
	if (!ret)
		ret = read_uint(dir, "queues", &npu->queues);
	if (!ret)
		ret = read_clients(dir, npu);
	return ret;
}

/* Copy a string, cut to size. */
static void copy_text(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* The bus device: name, resolved path, NUMA node, local CPUs. */
static void read_device(const char *dir, struct smi_npu *npu)
{
	char path[PATH_MAX], buf[32];
	const char *slash;
	uint64_t node;

	npu->numa_node = -1;
	if (!realpath(dir, path))
		return;
	copy_text(npu->dev_path, sizeof(npu->dev_path), path);
	slash = strrchr(path, '/');
	copy_text(npu->dev_name, sizeof(npu->dev_name), slash ? slash + 1 : path);
	/* "-1" (no NUMA) does not parse as u64 and stays -1. */
	if (!read_text(buf, sizeof(buf), "%s/numa_node", path) &&
	    !parse_u64(buf, &node) && node <= INT_MAX)
		npu->numa_node = (int)node;
	if (read_text(npu->cpu_affinity, sizeof(npu->cpu_affinity),
		      "%s/local_cpulist", path))
		npu->cpu_affinity[0] = '\0';
}

static int read_npu(const struct npu_node *node, struct smi_npu *npu)
{
	const char *dir = node->sysdir;
	int ret;

	memset(npu, 0, sizeof(*npu));
	npu->index = node->index;
	copy_text(npu->node, sizeof(npu->node), node->node);
	ret = read_text(npu->backend, sizeof(npu->backend), "%s/backend", dir);
	/* pci_address exists for PCI engines only. */
	if (read_text(npu->bus_id, sizeof(npu->bus_id), "%s/pci_address", dir))
		npu->bus_id[0] = '\0';
	if (!ret)
		ret = read_u64(dir, "mem_size", &npu->mem_size);
	if (!ret)
		ret = read_uint(dir, "dma_channels", &npu->dma_channels);
	if (!ret)
		ret = read_peers(dir, &npu->peers);
	if (!ret)
		ret = read_usage(dir, npu);
	read_device(dir, npu);
	return ret;
}

/*
 * The NPUs npu_node_list() finds, those whose index fits the 64-bit peer
 * masks. Return: 0, or -ENODEV when there is none.
 */
static int read_npus(const char *sysroot, struct smi_system *sys)
{
	struct npu_node *nodes;
	int n, i, ret = 0;

	nodes = calloc(SMI_MAX_INDEX + 1, sizeof(*nodes));
	if (!nodes)
		return -ENOMEM;
	n = npu_node_list(sysroot, nodes, SMI_MAX_INDEX + 1);
	while (n > 0 && nodes[n - 1].index > SMI_MAX_INDEX)
		n--;
	sys->npus = calloc(n ? n : 1, sizeof(*sys->npus));
	if (!sys->npus)
		ret = -ENOMEM;
	for (i = 0; i < n && !ret; i++)
		ret = read_npu(&nodes[i], &sys->npus[sys->nr_npus++]);
	if (!ret && !n)
		ret = -ENODEV;
	free(nodes);
	return ret;
}

int smi_collect(const char *sysroot, const char *procroot,
		struct smi_system *sys)
{
	int ret;

	memset(sys, 0, sizeof(*sys));
	ret = read_npus(sysroot, sys);
	if (!ret)
		ret = smi_collect_procs(sysroot, procroot, sys);
	if (ret)
		smi_system_free(sys);
	return ret;
}

void smi_system_free(struct smi_system *sys)
{
	int i;

	for (i = 0; i < sys->nr_npus; i++)
		free(sys->npus[i].clients);
	free(sys->npus);
	free(sys->procs);
	memset(sys, 0, sizeof(*sys));
}

struct smi_npu *smi_find(struct smi_system *sys, int index)
{
	int i;

	for (i = 0; i < sys->nr_npus; i++)
		if (sys->npus[i].index == index)
			return &sys->npus[i];
	return NULL;
}
