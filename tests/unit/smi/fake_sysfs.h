/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the unit tests that read sysfs and procfs (smi_sysfs_ut,
 * smi_proc_ut, tools/npu_node_ut): fake trees in a temporary directory,
 * shaped like the kernel's for a DRM driver on 6.1 and later:
 *
 *   sys/devices/BUS/               the NPU's bus device: npu_index,
 *                                  backend, mem_size, ... (the driver's
 *                                  attributes), numa_node
 *   sys/devices/BUS/drm/renderD128/dev      "MAJ:MIN"
 *   sys/devices/BUS/drm/renderD128/device -> sys/devices/BUS
 *   sys/class/drm/renderD128 -> sys/devices/BUS/drm/renderD128
 *   sys/dev/char/MAJ:MIN -> sys/devices/BUS/drm/renderD128
 *   proc/PID/comm, proc/PID/fd/N -> a character device,
 *   proc/PID/fdinfo/N              the DRM usage stats
 *
 * (accel minors: "accel" for "drm".) A fake file's device numbers are
 * those of a real character device of the host (/dev/zero, /dev/full...),
 * at which its fd link points, so the code under test stat()s it as it
 * would a real NPU node.
 */
#ifndef FAKE_SYSFS_H
#define FAKE_SYSFS_H

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static char fake_root[64];
static char fake_sys[96], fake_proc[96];

/* mkdir -p of a printf-formatted path. */
static inline void fake_mkdir(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline void fake_mkdir(const char *fmt, ...)
{
	char path[512], cmd[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	ck_assert_int_eq(system(cmd), 0);
}

/* dir/name holding text and a newline. */
static inline void fake_write(const char *dir, const char *name,
			      const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s\n", text);
	ck_assert_int_eq(fclose(f), 0);
}

/* A symbolic link at a printf-formatted path to target. */
static inline void fake_link(const char *target, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void fake_link(const char *target, const char *fmt, ...)
{
	char path[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	ck_assert_msg(symlink(target, path) == 0, "symlink %s", path);
}

/* "MAJ:MIN" of a host character device. */
static inline void fake_majmin(const char *chr, char *buf, size_t size)
{
	struct stat st;

	ck_assert_int_eq(stat(chr, &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
	snprintf(buf, size, "%u:%u", major(st.st_rdev), minor(st.st_rdev));
}

static inline void fake_tree_create(const char *name)
{
	snprintf(fake_root, sizeof(fake_root), "/tmp/%s.XXXXXX", name);
	ck_assert_ptr_nonnull(mkdtemp(fake_root));
	snprintf(fake_sys, sizeof(fake_sys), "%s/sys", fake_root);
	snprintf(fake_proc, sizeof(fake_proc), "%s/proc", fake_root);
	fake_mkdir("%s/dev/char", fake_sys);
	fake_mkdir("%s/class", fake_sys);
	fake_mkdir("%s", fake_proc);
}

static inline void fake_tree_remove(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake_root);
	ck_assert_int_eq(system(cmd), 0);
}

/*
 * DRM minor @minor ("renderD128", "card0", "accel0") of class @class
 * ("drm" or "accel") on bus device @bus (a path under sys/devices, made
 * if missing), with the device numbers of host character device @chr
 * (NULL: no numbers, no sys/dev/char link). Return: the bus device's
 * directory in buf.
 */
static inline void fake_minor(const char *bus, const char *class,
			      const char *minor, const char *chr,
			      char *buf, size_t size)
{
	char dir[300], majmin[32];

	snprintf(buf, size, "%s/devices/%s", fake_sys, bus);
	snprintf(dir, sizeof(dir), "%s/%s/%s", buf, class, minor);
	fake_mkdir("%s", dir);
	fake_link(buf, "%s/device", dir);
	fake_mkdir("%s/class/%s", fake_sys, class);
	fake_link(dir, "%s/class/%s/%s", fake_sys, class, minor);
	if (!chr)
		return;
	fake_majmin(chr, majmin, sizeof(majmin));
	fake_write(dir, "dev", majmin);
	fake_link(dir, "%s/dev/char/%s", fake_sys, majmin);
}

/* A process @pid named @comm (no fds yet). */
static inline void fake_proc_entry(int pid, const char *comm)
{
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/%d", fake_proc, pid);
	fake_mkdir("%s/fd", dir);
	fake_mkdir("%s/fdinfo", dir);
	fake_write(dir, "comm", comm);
}

/* fd @fd of process @pid: a link to @target, and its fdinfo @info. */
static inline void fake_proc_fd(int pid, int fd, const char *target,
				const char *info)
{
	char dir[256], name[16];

	fake_link(target, "%s/%d/fd/%d", fake_proc, pid, fd);
	snprintf(dir, sizeof(dir), "%s/%d/fdinfo", fake_proc, pid);
	snprintf(name, sizeof(name), "%d", fd);
	fake_write(dir, name, info);
}

/* The fdinfo of an NPU file, as the driver prints it. */
static inline void fake_fdinfo(char *buf, size_t size, const char *pdev,
			       int client, unsigned long long ns,
			       unsigned long long dev_kib,
			       unsigned long long host_kib)
{
	char pdev_line[64] = "";

	if (pdev)
		snprintf(pdev_line, sizeof(pdev_line), "drm-pdev:\t%s\n", pdev);
	snprintf(buf, size,
		 "pos:\t0\nflags:\t02100002\nmnt_id:\t24\nino:\t339\n"
		 "drm-driver:\tnpu_dma\n%s"
		 "drm-client-id:\t%d\n"
		 "drm-engine-dma:\t%llu ns\n"
		 "drm-engine-capacity-dma:\t4\n"
		 "drm-memory-device:\t%llu KiB\n"
		 "drm-memory-host:\t%llu KiB",
		 pdev_line, client, ns, dev_kib, host_kib);
}

#endif /* FAKE_SYSFS_H */
