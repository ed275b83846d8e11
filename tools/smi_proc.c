// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-smi: who uses the NPUs, from /proc.
 *
 * A file of an NPU shows in /proc/PID/fd/N as a character device whose
 * numbers sysfs maps back to the NPU: /sys/dev/char/MAJ:MIN/device is
 * the bus device, with npu_index (the render or accel node, and on 6.1
 * the primary node cardN as well, all lead there). Its fdinfo is in the
 * DRM usage-stats format and says drm-driver npu_dma and what the file
 * uses. A file shared by dup() or fork() shows once per fd with one
 * drm-client-id: each client is counted once per process.
 *
 * /proc/PID/fd of another user's process is readable only with
 * privilege. Such a process is still listed, from the NPU's sysfs
 * clients, with its usage unknown.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "smi_proc.h"

#define FDINFO_MAX	4096

/* A character device seen in some process, and its NPU (-1: not one). */
struct rdev_npu {
	dev_t rdev;
	int npu;
};

/* A DRM client already counted for a process. */
struct seen_client {
	pid_t pid;
	int npu;
	uint64_t id;
};

struct proc_scan {
	const char *sysroot;
	const char *procroot;
	struct smi_system *sys;
	struct rdev_npu *devs;
	int nr_devs, cap_devs;
	struct seen_client *seen;
	int nr_seen, cap_seen;
	struct smi_proc *rows;
	int nr_rows, cap_rows;
	int err;
};

/* Make room for one more element in *arr. Return: 0 or -ENOMEM. */
static int grow(void **arr, int nr, int *cap, size_t size)
{
	void *p;
	int n;

	if (nr < *cap)
		return 0;
	n = *cap ? *cap * 2 : 16;
	p = realloc(*arr, (size_t)n * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

/* Read a whole small file (at most size - 1 bytes) as a string. */
static int read_small(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	n = n < 0 ? -errno : 0;
	close(fd);
	buf[len] = '\0';
	return n;
}

/* A decimal number at s; *end after it. Return: 0, or -EINVAL. */
static int parse_num(const char *s, uint64_t *v, const char **end)
{
	char *e;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &e, 10);
	*end = e;
	return errno ? -EINVAL : 0;
}

/* "N", "N KiB", "N MiB", "N GiB" (drm-memory-*) in bytes. */
static void parse_bytes(const char *s, uint64_t *v)
{
	static const char *const units[] = { "KiB", "MiB", "GiB" };
	const char *end;
	uint64_t n;
	size_t i;

	if (parse_num(s, &n, &end))
		return;
	end += strspn(end, " \t");
	*v = n;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strncmp(end, units[i], 3))
			*v = n << (10 * (i + 1));
}

static void parse_line(const char *key, size_t klen, const char *val,
		       struct smi_fdinfo *fi)
{
	const char *end;
	uint64_t n;

#define KEY_IS(k) (klen == sizeof(k) - 1 && !strncmp(key, k, klen))
	if (KEY_IS("drm-driver")) {
		fi->is_npu = !strncmp(val, "npu_dma", 7) &&
			     (!val[7] || strchr(" \t\n", val[7]));
	} else if (KEY_IS("drm-client-id")) {
		fi->has_client_id = !parse_num(val, &fi->client_id, &end);
	} else if (KEY_IS("drm-engine-dma")) {
		if (!parse_num(val, &n, &end))
			fi->engine_ns = n;
	} else if (KEY_IS("drm-memory-device")) {
		parse_bytes(val, &fi->mem_device);
	} else if (KEY_IS("drm-memory-host")) {
		parse_bytes(val, &fi->mem_host);
	}
#undef KEY_IS
}

void smi_fdinfo_parse(const char *text, struct smi_fdinfo *fi)
{
	const char *line = text;

	memset(fi, 0, sizeof(*fi));
	while (*line) {
		const char *colon = strchr(line, ':');
		const char *nl = strchr(line, '\n');

		if (!nl)
			nl = line + strlen(line);
		if (colon && colon < nl)
			parse_line(line, colon - line,
				   colon + 1 + strspn(colon + 1, " \t"), fi);
		line = *nl ? nl + 1 : nl;
	}
}

static int have_npu(const struct smi_system *sys, int index)
{
	int i;

	for (i = 0; i < sys->nr_npus; i++)
		if (sys->npus[i].index == index)
			return 1;
	return 0;
}

/* The NPU index of a character device, through sysfs; -1 if none of ours. */
static int lookup_rdev(const struct proc_scan *s, dev_t rdev)
{
	char path[PATH_MAX], buf[32], *end;
	long v;

	snprintf(path, sizeof(path), "%s/dev/char/%u:%u/device/npu_index",
		 s->sysroot, major(rdev), minor(rdev));
	if (read_small(path, buf, sizeof(buf)))
		return -1;
	v = strtol(buf, &end, 10);
	if (end == buf || (*end && *end != '\n') || v < 0 || v > SMI_MAX_INDEX ||
	    !have_npu(s->sys, (int)v))
		return -1;
	return (int)v;
}

/* lookup_rdev() once per device number. */
static int rdev_npu(struct proc_scan *s, dev_t rdev)
{
	int i;

	for (i = 0; i < s->nr_devs; i++)
		if (s->devs[i].rdev == rdev)
			return s->devs[i].npu;
	if (grow((void **)&s->devs, s->nr_devs, &s->cap_devs, sizeof(*s->devs))) {
		s->err = -ENOMEM;
		return -1;
	}
	s->devs[s->nr_devs].rdev = rdev;
	s->devs[s->nr_devs].npu = lookup_rdev(s, rdev);
	return s->devs[s->nr_devs++].npu;
}

/* The row of (pid, npu); a new one if create, else NULL when absent. */
static struct smi_proc *row_get(struct proc_scan *s, pid_t pid, int npu,
				int create)
{
	struct smi_proc *p;
	int i;

	for (i = 0; i < s->nr_rows; i++)
		if (s->rows[i].pid == pid && s->rows[i].npu == npu)
			return &s->rows[i];
	if (!create)
		return NULL;
	if (grow((void **)&s->rows, s->nr_rows, &s->cap_rows, sizeof(*s->rows))) {
		s->err = -ENOMEM;
		return NULL;
	}
	p = &s->rows[s->nr_rows++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->npu = npu;
	return p;
}

/* Whether the client was counted for this process already; remember it. */
static int client_seen(struct proc_scan *s, pid_t pid, int npu, uint64_t id)
{
	int i;

	for (i = 0; i < s->nr_seen; i++)
		if (s->seen[i].pid == pid && s->seen[i].npu == npu &&
		    s->seen[i].id == id)
			return 1;
	if (grow((void **)&s->seen, s->nr_seen, &s->cap_seen, sizeof(*s->seen))) {
		s->err = -ENOMEM;
		return 1;
	}
	s->seen[s->nr_seen++] = (struct seen_client){ pid, npu, id };
	return 0;
}

static void scan_fd(struct proc_scan *s, pid_t pid, const char *fd)
{
	char path[PATH_MAX], text[FDINFO_MAX];
	struct smi_fdinfo fi;
	struct smi_proc *p;
	struct stat st;
	int npu;

	snprintf(path, sizeof(path), "%s/%d/fd/%s", s->procroot, (int)pid, fd);
	if (stat(path, &st) || !S_ISCHR(st.st_mode))
		return;
	npu = rdev_npu(s, st.st_rdev);
	if (npu < 0)
		return;
	snprintf(path, sizeof(path), "%s/%d/fdinfo/%s", s->procroot, (int)pid, fd);
	if (read_small(path, text, sizeof(text)))
		return;
	smi_fdinfo_parse(text, &fi);
	if (!fi.is_npu || (fi.has_client_id && client_seen(s, pid, npu, fi.client_id)))
		return;
	p = row_get(s, pid, npu, 1);
	if (!p)
		return;
	p->has_usage = 1;
	p->files++;
	p->mem_device += fi.mem_device;
	p->mem_host += fi.mem_host;
	p->engine_ns += fi.engine_ns;
}

/* "123" -> 123; anything else -> -1. */
static long parse_name(const char *name)
{
	const char *end;
	uint64_t v;

	if (parse_num(name, &v, &end) || *end || v > INT_MAX)
		return -1;
	return (long)v;
}

/* Every fd of one process; unreadable (not ours, exited) is skipped. */
static void scan_pid(struct proc_scan *s, pid_t pid)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%d/fd", s->procroot, (int)pid);
	d = opendir(path);
	if (!d)
		return;
	while (!s->err && (de = readdir(d)))
		if (parse_name(de->d_name) >= 0)
			scan_fd(s, pid, de->d_name);
	closedir(d);
}

static void scan_procs(struct proc_scan *s)
{
	struct dirent *de;
	DIR *d;
	long pid;

	d = opendir(s->procroot);
	if (!d)
		return;
	while (!s->err && (de = readdir(d))) {
		pid = parse_name(de->d_name);
		if (pid > 0)
			scan_pid(s, (pid_t)pid);
	}
	closedir(d);
}

/* The sysfs clients whose files could not be read: usage unknown. */
static void add_unread_clients(struct proc_scan *s)
{
	int i, j;

	for (i = 0; i < s->sys->nr_npus && !s->err; i++) {
		const struct smi_npu *npu = &s->sys->npus[i];

		for (j = 0; j < npu->nr_clients && !s->err; j++)
			if (!row_get(s, npu->clients[j], npu->index, 0))
				row_get(s, npu->clients[j], npu->index, 1);
	}
}

static void read_owner(const char *procroot, struct smi_proc *p)
{
	char path[PATH_MAX];
	struct passwd *pw;
	struct stat st;

	snprintf(path, sizeof(path), "%s/%d/comm", procroot, (int)p->pid);
	if (read_small(path, p->name, sizeof(p->name)))
		p->name[0] = '\0';
	p->name[strcspn(p->name, "\n")] = '\0';
	if (!p->name[0])
		snprintf(p->name, sizeof(p->name), "-");
	snprintf(path, sizeof(path), "%s/%d", procroot, (int)p->pid);
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

static int cmp_row(const void *a, const void *b)
{
	const struct smi_proc *x = a, *y = b;

	if (x->npu != y->npu)
		return x->npu < y->npu ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

int smi_collect_procs(const char *sysroot, const char *procroot,
		      struct smi_system *sys)
{
	struct proc_scan s = {
		.sysroot = sysroot, .procroot = procroot, .sys = sys,
	};
	int i;

	scan_procs(&s);
	add_unread_clients(&s);
	free(s.devs);
	free(s.seen);
	if (s.err) {
		free(s.rows);
		return s.err;
	}
	for (i = 0; i < s.nr_rows; i++)
		read_owner(procroot, &s.rows[i]);
	if (s.nr_rows)
		qsort(s.rows, s.nr_rows, sizeof(*s.rows), cmp_row);
	sys->procs = s.rows;
	sys->nr_procs = s.nr_rows;
	return 0;
}
