// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-smi: the NPUs from /sys/class/npu_dma/npu_dmaN (attributes in
 * Documentation/driver.rst, "sysfs") and the processes using them from
 * /proc. The driver's attributes are plain text, one value each.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smi_sysfs.h"

#define CLASS_DIR "class/npu_dma"

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

/* Copy a string, cut to size. */
static void copy_text(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* The engine's device: name, resolved path, NUMA node, local CPUs. */
static void read_device(const char *dir, struct smi_npu *npu)
{
	char link[PATH_MAX + 16], path[PATH_MAX], buf[32];
	const char *slash;
	uint64_t node;

	npu->numa_node = -1;
	snprintf(link, sizeof(link), "%s/device", dir);
	if (!realpath(link, path))
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

static int read_npu(const char *sysroot, int index, struct smi_npu *npu)
{
	char dir[PATH_MAX];
	int ret;

	memset(npu, 0, sizeof(*npu));
	npu->index = index;
	snprintf(dir, sizeof(dir), "%s/" CLASS_DIR "/npu_dma%d", sysroot, index);
	ret = read_text(npu->backend, sizeof(npu->backend), "%s/backend", dir);
	/* pci_address exists for PCI engines only. */
	if (read_text(npu->bus_id, sizeof(npu->bus_id), "%s/pci_address", dir))
		npu->bus_id[0] = '\0';
	if (!ret)
		ret = read_u64(dir, "mem_size", &npu->mem_size);
	if (!ret)
		ret = read_u64(dir, "mem_used", &npu->mem_used);
	if (!ret)
		ret = read_uint(dir, "dma_channels", &npu->dma_channels);
	if (!ret)
		ret = read_uint(dir, "queues", &npu->queues);
	if (!ret)
		ret = read_peers(dir, &npu->peers);
	if (!ret)
		ret = read_clients(dir, npu);
	read_device(dir, npu);
	return ret;
}

/* "npu_dmaN" -> N, or -1 for anything else. */
static int entry_index(const char *name)
{
	uint64_t v;

	if (strncmp(name, "npu_dma", 7) || parse_u64(name + 7, &v) ||
	    v > SMI_MAX_INDEX)
		return -1;
	return (int)v;
}

/* Indices of the npu_dmaN entries as a bit mask. */
static int list_npus(const char *sysroot, uint64_t *mask)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/" CLASS_DIR, sysroot);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? -ENODEV : -errno;
	*mask = 0;
	while ((de = readdir(d))) {
		int i = entry_index(de->d_name);

		if (i >= 0)
			*mask |= 1ULL << i;
	}
	closedir(d);
	return *mask ? 0 : -ENODEV;
}

static void read_proc(const char *procroot, struct smi_proc *p)
{
	char path[PATH_MAX];
	struct passwd *pw;
	struct stat st;

	if (read_text(p->name, sizeof(p->name), "%s/%d/comm", procroot, p->pid))
		snprintf(p->name, sizeof(p->name), "-");
	snprintf(path, sizeof(path), "%s/%d", procroot, p->pid);
	if (stat(path, &st)) {
		snprintf(p->user, sizeof(p->user), "-");
		return;
	}
	pw = getpwuid(st.st_uid);
	if (pw)
		snprintf(p->user, sizeof(p->user), "%s", pw->pw_name);
	else
		snprintf(p->user, sizeof(p->user), "%u", (unsigned int)st.st_uid);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* One process row per (NPU, pid), NPUs in order, pids ascending. */
static int collect_procs(const char *procroot, struct smi_system *sys)
{
	int total = 0, i, j;

	for (i = 0; i < sys->nr_npus; i++)
		total += sys->npus[i].nr_clients;
	sys->procs = calloc(total ? total : 1, sizeof(*sys->procs));
	if (!sys->procs)
		return -ENOMEM;
	for (i = 0; i < sys->nr_npus; i++) {
		struct smi_npu *npu = &sys->npus[i];

		qsort(npu->clients, npu->nr_clients, sizeof(*npu->clients),
		      cmp_pid);
		for (j = 0; j < npu->nr_clients; j++) {
			struct smi_proc *p = &sys->procs[sys->nr_procs++];

			p->npu = npu->index;
			p->pid = npu->clients[j];
			read_proc(procroot, p);
		}
	}
	return 0;
}

int smi_collect(const char *sysroot, const char *procroot,
		struct smi_system *sys)
{
	uint64_t mask;
	int ret, i;

	memset(sys, 0, sizeof(*sys));
	ret = list_npus(sysroot, &mask);
	if (ret)
		return ret;
	sys->npus = calloc(__builtin_popcountll(mask), sizeof(*sys->npus));
	if (!sys->npus)
		return -ENOMEM;
	for (i = 0; i <= SMI_MAX_INDEX && !ret; i++) {
		if (!(mask & (1ULL << i)))
			continue;
		ret = read_npu(sysroot, i, &sys->npus[sys->nr_npus++]);
	}
	if (!ret)
		ret = collect_procs(procroot, sys);
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
