// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: the NPUs as DRM devices, seen by DRM's own user space.
 *
 * - libdrm's drmGetDevices2() finds every NPU as a device of its own
 *   (edu: PCI 1234:11e8 at its pci_address; sim: a platform device),
 *   drmGetVersion() names the driver "npu_dma", and NPUs ordered by the
 *   index GET_INFO reports come out the same in two enumerations;
 *   DRM_IOCTL_VERSION answers through the raw ioctl too.
 * - drm_info (Debian's drm-info) runs over them: it exits 0 and
 *   accounts for every NPU, by its driver name or, for a device without
 *   KMS, which drm_info 2.4 cannot describe, by its node.
 * - /proc/PID/fdinfo of an NPU file has the DRM usage-stats keys, with
 *   per-file values that move with use: allocating grows
 *   drm-memory-device, registering drm-memory-host, copying
 *   drm-engine-dma; closing the handle takes the memory back.
 * - DRM_IOCTL_GEM_CLOSE of device memory with copies queued, running or
 *   parked on it: the copies complete byte-exact, new descriptors naming
 *   it are refused at once, the memory comes back when they are done.
 * - PCI removal of an edu NPU with files, queues and mappings open:
 *   every ioctl answers -ENODEV, the mappings stay readable, close
 *   works, the module unloads; the card comes back in its place.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include "npu_raw.h"
#include "t_state.h"
#include "t_vm.h"

#define MAX_NPUS	8
#define MAX_DEVS	64
#define MOD		"npu_dma"
#define EDU_VENDOR	0x1234
#define EDU_DEVICE	0x11e8

static struct npu_dma_info infos[MAX_NPUS];
static int nr_npus;

static void find_npus(void)
{
	nr_npus = t_find_npus(infos, MAX_NPUS);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void *anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

static int npu_of(uint32_t backend, int skip)
{
	int i;

	for (i = 0; i < nr_npus; i++)
		if (infos[i].backend == backend && skip-- == 0)
			return i;
	return -1;
}

/* ---- enumeration ---- */

/* An NPU as libdrm shows it. */
struct drm_npu {
	int index;		/* GET_INFO's, through the render node */
	char render[64];
	int bustype;
	char bus[64];		/* PCI address, or platform name */
	uint16_t vendor, device;
};

/* GET_INFO index of the NPU behind node @path, or -1 if it is not ours. */
static int index_of_node(const char *path)
{
	struct npu_dma_info info;
	drmVersionPtr v;
	int fd = open(path, O_RDWR | O_CLOEXEC), index = -1;

	if (fd < 0)
		return -1;
	v = drmGetVersion(fd);
	if (v && !strcmp(v->name, NPU_DMA_DRIVER_NAME) && !npu_raw_info(fd, &info))
		index = (int)info.index;
	drmFreeVersion(v);
	close(fd);
	return index;
}

static int by_index(const void *a, const void *b)
{
	return ((const struct drm_npu *)a)->index - ((const struct drm_npu *)b)->index;
}

/*
 * The NPUs among drmGetDevices2()'s devices, ordered by index. Every
 * device is one NPU: its primary node (6.1), if it has one, is the same
 * NPU as its render node (libdrm folds nodes whose bus information it
 * finds equal into one device).
 */
static int drm_npus(struct drm_npu *out, int max)
{
	drmDevicePtr devs[MAX_DEVS];
	int n, i, count = 0;

	n = drmGetDevices2(0, devs, MAX_DEVS);
	ck_assert_int_ge(n, 0);
	for (i = 0; i < n; i++) {
		drmDevicePtr d = devs[i];
		struct drm_npu *o = &out[count];
		int index;

		if (!(d->available_nodes & (1 << DRM_NODE_RENDER)))
			continue;
		index = index_of_node(d->nodes[DRM_NODE_RENDER]);
		if (index < 0)
			continue;
		ck_assert_int_lt(count, max);
		memset(o, 0, sizeof(*o));
		o->index = index;
		snprintf(o->render, sizeof(o->render), "%s", d->nodes[DRM_NODE_RENDER]);
		if (d->available_nodes & (1 << DRM_NODE_PRIMARY))
			ck_assert_msg(index_of_node(d->nodes[DRM_NODE_PRIMARY]) == index,
				      "libdrm folded NPU %d (%s) with %s into one device",
				      index, o->render, d->nodes[DRM_NODE_PRIMARY]);
		o->bustype = d->bustype;
		if (d->bustype == DRM_BUS_PCI) {
			snprintf(o->bus, sizeof(o->bus), "%04x:%02x:%02x.%u",
				 d->businfo.pci->domain, d->businfo.pci->bus,
				 d->businfo.pci->dev, d->businfo.pci->func);
			o->vendor = d->deviceinfo.pci->vendor_id;
			o->device = d->deviceinfo.pci->device_id;
		} else if (d->bustype == DRM_BUS_PLATFORM) {
			snprintf(o->bus, sizeof(o->bus), "%.63s", d->businfo.platform->fullname);
		}
		count++;
	}
	drmFreeDevices(devs, n);
	qsort(out, count, sizeof(out[0]), by_index);
	return count;
}

/*
 * Say which NPUs libdrm did not return, and what it keys devices by:
 * it folds nodes whose bus information is equal into one device (for a
 * platform device without device tree: the name in its MODALIAS).
 */
static void missing_from_libdrm(const struct drm_npu *found, int nr)
{
	char path[600], modalias[128];
	struct npu_node n;
	int i, j;

	for (i = 0; i < nr_npus; i++) {
		for (j = 0; j < nr && found[j].index != i; j++)
			;
		if (j < nr || !t_npu_find(i, &n))
			continue;
		snprintf(path, sizeof(path), "%s/modalias", n.sysdir);
		if (t_read_file(path, modalias, sizeof(modalias)))
			modalias[0] = '\0';
		printf("t_drm: libdrm has no device for NPU %d (%s, modalias %s)\n", i,
		       n.node, modalias);
	}
}

START_TEST(test_libdrm_finds_every_npu)
{
	struct drm_npu a[MAX_NPUS], b[MAX_NPUS];
	char want[64];
	struct npu_node n;
	int na, nb, i;

	na = drm_npus(a, MAX_NPUS);
	for (i = 0; i < na; i++)
		printf("t_drm: libdrm: NPU %d %s bus %d %s\n", a[i].index, a[i].render,
		       a[i].bustype, a[i].bus);
	/* npu-vm's default devices: 2 edu and 2 sim, every one found once. */
	ck_assert_int_eq(nr_npus, 4);
	if (na != nr_npus)
		missing_from_libdrm(a, na);
	ck_assert_int_eq(na, nr_npus);
	for (i = 0; i < na; i++) {
		ck_assert_int_eq(a[i].index, i);
		ck_assert(t_npu_find(i, &n));
		ck_assert_str_eq(a[i].render, n.node);
		if (infos[i].backend == NPU_DMA_BACKEND_EDU) {
			ck_assert_int_eq(a[i].bustype, DRM_BUS_PCI);
			ck_assert_uint_eq(a[i].vendor, EDU_VENDOR);
			ck_assert_uint_eq(a[i].device, EDU_DEVICE);
			ck_assert_int_eq(t_npu_attr(i, "pci_address", want, sizeof(want)), 0);
			ck_assert_str_eq(a[i].bus, want);
		} else {
			ck_assert_int_eq(a[i].bustype, DRM_BUS_PLATFORM);
			ck_assert_ptr_nonnull(strstr(a[i].bus, "npu_dma_sim"));
		}
	}
	/* The order by index is the same in a second enumeration. */
	nb = drm_npus(b, MAX_NPUS);
	ck_assert_int_eq(nb, na);
	for (i = 0; i < nb; i++) {
		ck_assert_int_eq(b[i].index, a[i].index);
		ck_assert_str_eq(b[i].render, a[i].render);
		ck_assert_str_eq(b[i].bus, a[i].bus);
	}
}
END_TEST

/* DRM_IOCTL_VERSION names the driver, through libdrm and raw. */
START_TEST(test_version_names_the_driver)
{
	char name[32], date[32], desc[128];
	struct drm_version v;
	drmVersionPtr dv;
	int i, fd;

	for (i = 0; i < nr_npus; i++) {
		fd = npu_raw_open(i);
		ck_assert_int_ge(fd, 0);
		dv = drmGetVersion(fd);
		ck_assert_ptr_nonnull(dv);
		ck_assert_str_eq(dv->name, NPU_DMA_DRIVER_NAME);
		ck_assert_int_gt(dv->desc_len, 0);
		ck_assert_int_gt(dv->date_len, 0);
		drmFreeVersion(dv);

		/* Asked for the lengths only, then for the strings. */
		memset(&v, 0, sizeof(v));
		ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_VERSION, &v), 0);
		ck_assert_uint_eq(v.name_len, strlen(NPU_DMA_DRIVER_NAME));
		memset(name, 0, sizeof(name));
		v.name = name;
		v.name_len = sizeof(name) - 1;
		v.date = date;
		v.date_len = sizeof(date) - 1;
		v.desc = desc;
		v.desc_len = sizeof(desc) - 1;
		ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_VERSION, &v), 0);
		ck_assert_str_eq(name, NPU_DMA_DRIVER_NAME);
		/* A name buffer too short gets what fits, and the full length. */
		memset(name, 0, sizeof(name));
		v.name_len = 3;
		ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_VERSION, &v), 0);
		ck_assert_uint_eq(v.name_len, strlen(NPU_DMA_DRIVER_NAME));
		ck_assert_str_eq(name, "npu");
		close(fd);
	}
}
END_TEST

/* The whole of a file, malloc'ed ("" if it is empty). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;

	ck_assert_msg(f != NULL, "cannot read %s", path);
	if (getdelim(&text, &cap, '\0', f) < 0) {
		free(text);
		text = strdup("");
	}
	fclose(f);
	return text;
}

/* Run a shell command line; its exit status, its output in *out, *err. */
static int run_sh(const char *cmd, char **out, char **err)
{
	char line[1024];
	int st;

	snprintf(line, sizeof(line), "{ %s; } >/tmp/t_drm.out 2>/tmp/t_drm.err", cmd);
	st = system(line);
	*out = slurp("/tmp/t_drm.out");
	*err = slurp("/tmp/t_drm.err");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The primary node (6.1) of NPU @index's bus device, or "" if none. */
static void primary_node(int index, char *buf, size_t size)
{
	char dev[PATH_MAX], other[PATH_MAX], path[600];
	struct npu_node n;
	struct dirent *de;
	DIR *d;

	buf[0] = '\0';
	ck_assert(t_npu_find(index, &n));
	ck_assert_ptr_nonnull(realpath(n.sysdir, dev));
	d = opendir("/sys/class/drm");
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "card", 4) || strchr(de->d_name, '-'))
			continue;
		snprintf(path, sizeof(path), "/sys/class/drm/%s/device", de->d_name);
		if (realpath(path, other) && !strcmp(other, dev))
			snprintf(buf, size, "/dev/dri/%.32s", de->d_name);
	}
	closedir(d);
}

/*
 * drm_info over all devices: it exits 0, in JSON and in its text form.
 * python3 reads the JSON and prints "driver NODE NAME" for each device
 * described. drm_info 2.4 describes only devices with KMS: of ours it
 * says on stderr that it could not get their information, naming their
 * primary nodes (from libdrm's enumeration). Every NPU must show up one
 * of the two ways, and what the JSON calls npu_dma is an NPU's node.
 */
START_TEST(test_drm_info_lists_the_npus)
{
	static const char py[] =
		"import json, sys\n"
		"for node, dev in json.load(open(sys.argv[1])).items():\n"
		"    print(\"driver\", node, dev[\"driver\"][\"name\"])\n";
	char cmd[512], node[64], want[128], *out, *err, *devs;
	int i, named = 0, by_node = 0, ours = 0;
	struct npu_node n;
	char *p;

	T_SKIP_UNLESS(!access("/usr/bin/drm_info", X_OK),
		      "no drm_info (Debian package drm-info)");
	ck_assert_int_eq(run_sh("drm_info", &out, &err), 0);
	free(out);
	free(err);
	ck_assert_int_eq(run_sh("drm_info -j >/tmp/t_drm.json", &out, &err), 0);
	free(out);
	printf("t_drm: drm_info -j said on stderr:\n%s", err);
	snprintf(cmd, sizeof(cmd), "python3 -c '%s' /tmp/t_drm.json", py);
	ck_assert_msg(run_sh(cmd, &devs, &out) == 0, "drm_info -j printed no JSON: %s", out);
	free(out);
	for (i = 0; i < nr_npus; i++) {
		primary_node(i, node, sizeof(node));
		if (!node[0]) {
			printf("t_drm: NPU %d has no primary node, drm_info does not look\n", i);
			continue;
		}
		snprintf(want, sizeof(want), "driver %s %s\n", node, NPU_DMA_DRIVER_NAME);
		if (strstr(devs, want)) {
			named++;
			continue;
		}
		snprintf(want, sizeof(want), "Failed to retrieve information from %s\n", node);
		ck_assert_msg(strstr(err, want), "drm_info shows nothing of NPU %d (%s):\n%s%s",
			      i, node, devs, err);
		by_node++;
	}
	printf("t_drm: drm_info: %d NPUs described with their driver's name, %d named"
	       " by node only (no KMS)\n", named, by_node);
	/* Whatever drm_info calls npu_dma is a node of one of the NPUs. */
	for (p = devs; (p = strstr(p, " " NPU_DMA_DRIVER_NAME "\n")); p++)
		ours++;
	ck_assert_int_eq(ours, named);
	free(devs);
	free(err);

	/* Each NPU's render node named on the command line: no failure. */
	for (i = 0; i < nr_npus; i++) {
		ck_assert(t_npu_find(i, &n));
		snprintf(cmd, sizeof(cmd), "drm_info %s", n.node);
		ck_assert_int_eq(run_sh(cmd, &out, &err), 0);
		free(out);
		free(err);
	}
}
END_TEST

/* ---- fdinfo ---- */

/* The value of @key in /proc/self/fdinfo/@fd, or NULL (malloc'ed). */
static char *fdinfo(int fd, const char *key)
{
	char path[64], text[4096], *p, *end, want[64];

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	ck_assert_int_eq(t_read_file(path, text, sizeof(text)), 0);
	snprintf(want, sizeof(want), "\n%s:\t", key);
	p = strstr(text, want);
	if (!p)
		return NULL;
	p += strlen(want);
	end = strchr(p, '\n');
	if (end)
		*end = '\0';
	return strdup(p);
}

/* A numeric value with the given unit ("ns", "KiB", "" for none). */
static uint64_t fdinfo_num(int fd, const char *key, const char *unit)
{
	char *v = fdinfo(fd, key), *end;
	uint64_t n;

	ck_assert_msg(v != NULL, "no %s in fdinfo", key);
	n = strtoull(v, &end, 10);
	ck_assert_msg(end != v, "%s: '%s'", key, v);
	if (*unit)
		ck_assert_msg(*end == ' ' && !strcmp(end + 1, unit), "%s: '%s', want N %s",
			      key, v, unit);
	else
		ck_assert_msg(*end == '\0', "%s: '%s'", key, v);
	free(v);
	return n;
}

static void check_fdinfo_keys(int npu, int fd)
{
	char want[64], *v;

	v = fdinfo(fd, "drm-driver");
	ck_assert_ptr_nonnull(v);
	ck_assert_str_eq(v, NPU_DMA_DRIVER_NAME);
	free(v);
	v = fdinfo(fd, "drm-pdev");
	if (infos[npu].backend == NPU_DMA_BACKEND_EDU) {
		ck_assert_msg(v != NULL, "edu NPU %d: no drm-pdev", npu);
		ck_assert_int_eq(t_npu_attr(npu, "pci_address", want, sizeof(want)), 0);
		ck_assert_str_eq(v, want);
	} else {
		ck_assert_msg(v == NULL, "sim NPU %d has drm-pdev '%s'", npu, v);
	}
	free(v);
	ck_assert_uint_eq(fdinfo_num(fd, "drm-engine-capacity-dma", ""),
			  infos[npu].nr_channels);
	fdinfo_num(fd, "drm-client-id", "");
	fdinfo_num(fd, "drm-engine-dma", "ns");
	fdinfo_num(fd, "drm-memory-device", "KiB");
	fdinfo_num(fd, "drm-memory-host", "KiB");
}

/*
 * Per-file usage on NPU @npu: a fresh file uses nothing; allocating,
 * registering and copying move its own numbers (and not another file's);
 * GEM_CLOSE and unregistering give the memory back.
 */
static void fdinfo_follows_use(int npu, size_t len)
{
	const uint16_t sh = NPU_DMA_DESC_F_SRC_HOST, dh = NPU_DMA_DESC_F_DST_HOST;
	uint8_t *host = anon(2 * len);
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	uint64_t dev, ns, ns2, c1, c2;
	uint32_t h;
	int fd = npu_raw_open(npu), fd2 = npu_raw_open(npu);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_ge(fd2, 0);
	check_fdinfo_keys(npu, fd);
	check_fdinfo_keys(npu, fd2);
	c1 = fdinfo_num(fd, "drm-client-id", "");
	c2 = fdinfo_num(fd2, "drm-client-id", "");
	ck_assert_uint_ne(c1, c2);
	ck_assert_uint_eq(fdinfo_num(fd, "drm-memory-device", "KiB"), 0);
	ck_assert_uint_eq(fdinfo_num(fd, "drm-memory-host", "KiB"), 0);
	ck_assert_uint_eq(fdinfo_num(fd, "drm-engine-dma", "ns"), 0);

	ck_assert_int_eq(npu_raw_alloc(fd, len, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h), 0);
	ck_assert_uint_eq(fdinfo_num(fd, "drm-memory-device", "KiB"), len >> 10);
	ck_assert_int_eq(npu_raw_register(fd, host, 2 * len, 0), 0);
	ck_assert_uint_eq(fdinfo_num(fd, "drm-memory-host", "KiB"), (2 * len) >> 10);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);

	t_pattern_fill(host, len, 21);
	d = npu_raw_copy(dev, (uintptr_t)host, len, sh);
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	ns = fdinfo_num(fd, "drm-engine-dma", "ns");
	ck_assert_uint_gt(ns, 0);
	d = npu_raw_copy((uintptr_t)host + len, dev, len, dh);
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	ck_assert_uint_eq(t_pattern_check(host + len, len, 21), len);
	ns2 = fdinfo_num(fd, "drm-engine-dma", "ns");
	ck_assert_uint_gt(ns2, ns);
	/* The other file did nothing. */
	ck_assert_uint_eq(fdinfo_num(fd2, "drm-engine-dma", "ns"), 0);
	ck_assert_uint_eq(fdinfo_num(fd2, "drm-memory-device", "KiB"), 0);
	ck_assert_uint_eq(fdinfo_num(fd2, "drm-memory-host", "KiB"), 0);
	ck_assert_uint_eq(fdinfo_num(fd, "drm-client-id", ""), c1);

	ck_assert_int_eq(npu_raw_free(fd, h), 0);
	ck_assert_uint_eq(fdinfo_num(fd, "drm-memory-device", "KiB"), 0);
	ck_assert_int_eq(npu_raw_unregister(fd, host), 0);
	ck_assert_uint_eq(fdinfo_num(fd, "drm-memory-host", "KiB"), 0);
	/* Busy time is a running total: it stays. */
	ck_assert_uint_ge(fdinfo_num(fd, "drm-engine-dma", "ns"), ns2);
	npu_raw_queue_destroy(&q);
	close(fd);
	close(fd2);
	munmap(host, 2 * len);
}

START_TEST(test_fdinfo_keys_and_values)
{
	int npu = _i ? npu_of(NPU_DMA_BACKEND_SIM, 0) : npu_of(NPU_DMA_BACKEND_EDU, 0);
	struct t_state start;

	T_SKIP_UNLESS(npu >= 0, "no %s NPU", _i ? "sim" : "edu");
	t_state_get(&start, nr_npus);
	fdinfo_follows_use(npu, _i ? 4 << 20 : 8 << 10);
	ck_assert(t_state_back(&start));
}
END_TEST

/* ---- GEM_CLOSE while copies use the memory ---- */

/*
 * Device memory A closed while @n copies host -> A -> host are queued
 * and running on it (the first already started for all the test
 * knows): they complete byte-exact, a descriptor naming A after the
 * close is refused with -EFAULT, and the memory comes back once they are
 * done.
 */
static void close_under_copies(int npu, size_t len, int n)
{
	const uint16_t sh = NPU_DMA_DESC_F_SRC_HOST, dh = NPU_DMA_DESC_F_DST_HOST;
	uint8_t *src = anon(len), *dst = anon((size_t)n * len);
	struct npu_dma_desc d[16], late;
	struct npu_raw_queue q;
	struct t_state start;
	uint64_t a, last, late_seq;
	uint32_t h;
	int fd, i;

	ck_assert_int_le(2 * n, 16);
	t_state_get(&start, nr_npus);
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, len, NPU_DMA_MEM_HUGE_FIRST, &a, &h), 0);
	ck_assert_int_eq(npu_raw_register(fd, src, len, NPU_DMA_HOST_F_READONLY), 0);
	ck_assert_int_eq(npu_raw_register(fd, dst, (size_t)n * len, 0), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	t_pattern_fill(src, len, 31);
	memset(dst, 0, (size_t)n * len);
	for (i = 0; i < n; i++) {
		d[2 * i] = npu_raw_copy(a, (uintptr_t)src, len, sh);
		d[2 * i + 1] = npu_raw_copy((uintptr_t)dst + (size_t)i * len, a, len, dh);
	}
	last = npu_raw_push_n(&q, d, 2 * n);
	ck_assert_int_eq(npu_raw_submit(&q), 2 * n);

	ck_assert_int_eq(npu_raw_free(fd, h), 0);
	/* Refused at once: the handle is gone, and so is the address. */
	ck_assert_int_eq(npu_raw_free(fd, h), -EINVAL);
	late = npu_raw_copy(a, (uintptr_t)src, 8, sh);
	late_seq = npu_raw_push(&q, &late);
	ck_assert_int_eq(npu_raw_submit(&q), 1);
	ck_assert_int_eq(npu_raw_wait(&q, late_seq, 120000), 0);
	ck_assert_uint_eq(q.ctrl->completed_seq, late_seq);
	ck_assert_uint_eq(late_seq, last + 1);
	ck_assert_uint_eq(q.ctrl->error_count, 1);
	ck_assert_uint_eq(q.ctrl->error_seq, late_seq);
	ck_assert_int_eq(q.ctrl->error, -EFAULT);
	for (i = 0; i < n; i++)
		ck_assert_msg(t_pattern_check(dst + (size_t)i * len, len, 31) == len,
			      "NPU %d: copy %d back from the closed allocation differs", npu, i);
	npu_raw_queue_destroy(&q);
	close(fd);
	munmap(src, len);
	munmap(dst, (size_t)n * len);
	ck_assert(t_state_back(&start));
}

START_TEST(test_gem_close_while_copies_run)
{
	int npu = _i ? npu_of(NPU_DMA_BACKEND_SIM, 0) : npu_of(NPU_DMA_BACKEND_EDU, 0);

	T_SKIP_UNLESS(npu >= 0, "no %s NPU", _i ? "sim" : "edu");
	if (_i)
		close_under_copies(npu, 16 << 20, 4);
	else
		close_under_copies(npu, 16 << 10, 2);
}
END_TEST

/*
 * The same with the copies parked behind a host barrier, certainly not
 * started when the handle is closed: the memory stays allocated (GET_INFO
 * on another file) until they are released and done.
 */
START_TEST(test_gem_close_while_copies_wait)
{
	const uint16_t sh = NPU_DMA_DESC_F_SRC_HOST, dh = NPU_DMA_DESC_F_DST_HOST;
	int npu = _i ? npu_of(NPU_DMA_BACKEND_SIM, 0) : npu_of(NPU_DMA_BACKEND_EDU, 0);
	size_t len = _i ? 1 << 20 : 8 << 10;
	struct npu_dma_desc d[3], late;
	struct npu_raw_queue q;
	struct t_state orig, start;
	uint64_t a, free0, free1, bseq, last, late_seq;
	uint8_t *src, *dst;
	uint32_t h;
	int fd, i;

	T_SKIP_UNLESS(npu >= 0, "no %s NPU", _i ? "sim" : "edu");
	src = anon(len);
	dst = anon(len);
	t_state_get(&orig, nr_npus);
	free0 = orig.mem_free[npu];
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, len, NPU_DMA_MEM_NORMAL_ONLY, &a, &h), 0);
	ck_assert_int_eq(npu_raw_register(fd, src, len, 0), 0);
	ck_assert_int_eq(npu_raw_register(fd, dst, len, 0), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	t_pattern_fill(src, len, 41);
	d[0] = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_HOST_BARRIER };
	d[1] = npu_raw_copy(a, (uintptr_t)src, len, sh);
	d[2] = npu_raw_copy((uintptr_t)dst, a, len, dh);
	last = npu_raw_push_n(&q, d, 3);
	ck_assert_int_eq(npu_raw_submit(&q), 3);
	bseq = npu_raw_wait_barrier(&q, 30000);
	ck_assert_uint_eq(bseq, last - 2);

	ck_assert_int_eq(npu_raw_free(fd, h), 0);
	t_state_get(&start, nr_npus);
	free1 = start.mem_free[npu];
	ck_assert_uint_eq(free1, free0 - len);	/* held by the parked copies */
	late = npu_raw_copy((uintptr_t)dst, a, 8, dh);
	late_seq = npu_raw_push(&q, &late);
	ck_assert_int_eq(npu_raw_submit(&q), 1);
	ck_assert_int_eq(npu_raw_release(&q, bseq), 0);
	ck_assert_int_eq(npu_raw_wait(&q, late_seq, 120000), 0);
	ck_assert_uint_eq(q.ctrl->error_count, 1);
	ck_assert_uint_eq(q.ctrl->error_seq, late_seq);
	ck_assert_int_eq(q.ctrl->error, -EFAULT);
	ck_assert_uint_eq(t_pattern_check(dst, len, 41), len);
	/* Done with it: the memory is back while the file is still open. */
	for (i = 0; i < 500; i++) {
		t_state_get(&start, nr_npus);
		if (start.mem_free[npu] == free0)
			break;
		sleep_ms(10);
	}
	ck_assert_uint_eq(start.mem_free[npu], free0);
	npu_raw_queue_destroy(&q);
	close(fd);
	munmap(src, len);
	munmap(dst, len);
	ck_assert(t_state_back(&orig));
}
END_TEST

/* ---- PCI removal with everything open ---- */

static void backends(char *out, size_t size)
{
	char b[16], pci[32];
	size_t n = 0;
	int j;

	out[0] = '\0';
	for (j = 0; j < MAX_NPUS; j++) {
		if (t_npu_attr(j, "backend", b, sizeof(b)))
			break;
		if (t_npu_attr(j, "pci_address", pci, sizeof(pci)))
			pci[0] = '\0';
		n += (size_t)snprintf(out + n, size - n, "%s%s%s%s", j ? " " : "", b,
				      pci[0] ? "@" : "", pci);
		if (n >= size)
			break;
	}
}

/* The module is loaded with npu-vm's arguments for the tests that follow. */
static void loaded_again(void)
{
	int i;

	t_write_file("/sys/bus/pci/rescan", "1");
	if (!t_module_loaded(MOD) && t_module_load(t_ko(), t_default_args()))
		fprintf(stderr, "t_drm: cannot load %s again\n", t_ko());
	for (i = 0; i < nr_npus; i++)
		t_npu_wait(i, 5000);
}

/*
 * The later edu card (so that a rescan puts it back in its place) is
 * removed from the PCI bus while two files use it: queues with copies,
 * a mapped queue area and event table, registered memory, an allocation.
 */
START_TEST(test_pci_removal_then_unload)
{
	const uint16_t sh = NPU_DMA_DESC_F_SRC_HOST;
	int npu = npu_of(NPU_DMA_BACKEND_EDU, 1), fd, fd2, i;
	char pci[64], path[128], before[256], after[256], mark[128], *log;
	struct npu_dma_desc d, rec = { .opcode = NPU_DMA_OP_EVENT_RECORD, .dst = 5 };
	struct drm_version ver = { 0 };
	struct drm_gem_close gc = { 0 };
	struct npu_dma_event_slot *ev;
	struct npu_dma_info info;
	struct npu_raw_queue q, q2;
	uint64_t dev, dev2, rec_seq;
	uint8_t *buf = anon(64 << 10);
	size_t ev_size;
	uint32_t h;
	void *p;

	T_SKIP_UNLESS(npu >= 0, "no second edu NPU");
	backends(before, sizeof(before));
	ck_assert_int_eq(t_npu_attr(npu, "pci_address", pci, sizeof(pci)), 0);
	fd = npu_raw_open(npu);
	fd2 = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_ge(fd2, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, 64 << 10, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h), 0);
	ck_assert_int_eq(npu_raw_register(fd, buf, 64 << 10, 0), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd2, 16, &q2), 0);
	ev = npu_raw_map_events(fd, &ev_size);
	ck_assert_ptr_ne(ev, MAP_FAILED);
	ck_assert_int_eq(npu_raw_info(fd, &info), 0);
	rec_seq = npu_raw_push(&q, &rec);
	ck_assert_int_eq(npu_raw_submit(&q), 1);
	ck_assert_int_eq(npu_raw_wait(&q, rec_seq, 20000), 0);
	for (i = 0; i < 4; i++) {
		d = npu_raw_copy(dev, (uintptr_t)buf, 64 << 10, sh);
		npu_raw_push(&q, &d);
	}
	ck_assert_int_eq(npu_raw_submit(&q), 4);

	ck_assert_int_eq(t_kmsg_mark(mark, sizeof(mark)), 0);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/remove", pci);
	ck_assert_int_eq(t_write_file(path, "1"), 0);
	ck_assert(!t_exists("/sys/bus/pci/devices/%s", pci));
	ck_assert(!t_npu_find(npu, NULL));

	/* The driver's ioctls and the DRM core's: -ENODEV. */
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_GET_INFO, &(struct npu_dma_info){ 0 }),
			 -ENODEV);
	ck_assert_int_eq(npu_raw_alloc(fd, 4096, 0, &dev2, NULL), -ENODEV);
	ck_assert_int_eq(npu_raw_submit(&q), -ENODEV);
	ck_assert_int_eq(npu_raw_register(fd2, buf, 4096, 0), -ENODEV);
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_VERSION, &ver), -ENODEV);
	gc.handle = h;
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc), -ENODEV);
	/* The mappings stay readable, with what they held. */
	ck_assert_uint_ne(q.ctrl->flags & NPU_DMA_QUEUE_S_DEAD, 0);
	ck_assert_uint_ne(q2.ctrl->flags & NPU_DMA_QUEUE_S_DEAD, 0);
	ck_assert_uint_ge(q.ctrl->completed_seq, rec_seq);
	ck_assert_uint_eq(ev[5].seq, rec_seq);
	ck_assert_uint_eq(ev[5].queue_id, q.id);
	/* No new mapping of the removed NPU. */
	p = mmap(NULL, ev_size, PROT_READ, MAP_SHARED, fd, (off_t)info.events_offset);
	ck_assert(p == MAP_FAILED);
	/* The other NPUs go on. */
	for (i = 0; i < nr_npus; i++) {
		int ofd;
		uint64_t odev;

		if (i == npu)
			continue;
		ofd = npu_raw_open(i);
		ck_assert_int_ge(ofd, 0);
		ck_assert_int_eq(npu_raw_alloc(ofd, 4096, 0, &odev, NULL), 0);
		close(ofd);
	}

	/* Close everything: then the module goes. */
	npu_raw_queue_destroy(&q);
	npu_raw_queue_destroy(&q2);
	ck_assert_int_eq(munmap(ev, ev_size), 0);
	ck_assert_int_eq(close(fd), 0);
	ck_assert_int_eq(close(fd2), 0);
	for (i = 0; i < 500 && t_module_unload(MOD) == -EWOULDBLOCK; i++)
		sleep_ms(10);
	ck_assert(!t_module_loaded(MOD));
	log = t_kmsg_since(mark);
	ck_assert_ptr_nonnull(log);
	/* runtests.sh scans the whole log; this says which step it was. */
	ck_assert_msg(!strstr(log, "WARNING:") && !strstr(log, "BUG:") &&
		      !strstr(log, "Oops:") && !strstr(log, "general protection"),
		      "kernel report after the removal:\n%s", log);
	free(log);

	/* The card back on the bus, the module back: the same NPUs in place. */
	ck_assert_int_eq(t_write_file("/sys/bus/pci/rescan", "1"), 0);
	ck_assert_int_eq(t_module_load(t_ko(), t_default_args()), 0);
	for (i = 0; i < nr_npus; i++)
		ck_assert(t_npu_wait(i, 5000));
	backends(after, sizeof(after));
	ck_assert_str_eq(after, before);
	find_npus();
	munmap(buf, 64 << 10);
}
END_TEST

static Suite *drm_suite(void)
{
	Suite *s = suite_create("t_drm");
	TCase *te = tcase_create("enumeration");
	TCase *tf = tcase_create("fdinfo");
	TCase *tg = tcase_create("gem_close");
	TCase *tr = tcase_create("removal");

	tcase_set_timeout(te, 120);
	tcase_add_unchecked_fixture(te, find_npus, NULL);
	tcase_add_test(te, test_libdrm_finds_every_npu);
	tcase_add_test(te, test_version_names_the_driver);
	tcase_add_test(te, test_drm_info_lists_the_npus);
	suite_add_tcase(s, te);

	tcase_set_timeout(tf, 120);
	tcase_add_unchecked_fixture(tf, find_npus, NULL);
	tcase_add_loop_test(tf, test_fdinfo_keys_and_values, 0, 2);
	suite_add_tcase(s, tf);

	tcase_set_timeout(tg, 300);
	tcase_add_unchecked_fixture(tg, find_npus, NULL);
	tcase_add_loop_test(tg, test_gem_close_while_copies_run, 0, 2);
	tcase_add_loop_test(tg, test_gem_close_while_copies_wait, 0, 2);
	suite_add_tcase(s, tg);

	/* Last: it unloads the module, then puts everything back. */
	tcase_set_timeout(tr, 300);
	tcase_add_unchecked_fixture(tr, find_npus, loaded_again);
	tcase_add_test(tr, test_pci_removal_then_unload);
	suite_add_tcase(s, tr);
	return s;
}

int main(void)
{
	if (geteuid() != 0 || !npu_raw_present())
		return T_EXIT_SKIP;
	return t_run_suite(drm_suite());
}
