// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: loading and unloading npu_dma.ko, its DRM nodes and sysfs.
 * Each NPU is a DRM device: a render node (an accel node where the
 * kernel has drivers/accel; on 6.1 also a primary cardN node) whose bus
 * device (the edu PCI function, or the sim platform device) carries the
 * attributes.
 *
 * Runs in the guest with the edu devices npu-vm created. Each test
 * starts with the module unloaded; the suite reloads it afterwards with
 * the arguments npu-vm used, for the tests that follow.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_vm.h"

#define MOD "npu_dma"
#define EDU_PCI_VENDOR "0x1234"
#define EDU_PCI_DEVICE "0x11e8"
#define MAX_EDU 8
#define DRM_MAJOR 226
#define MAX_MINORS 32

static char edu_addrs[MAX_EDU][256];
static int nr_edu;
/* DRM minors ("renderD128", "card0") of NPUs seen since the last load. */
static char minors[MAX_MINORS][32];
static int nr_minors;

/* The edu functions QEMU created, in PCI address order. */
static void find_edu_devices(void)
{
	struct dirent **names;
	char vendor[16], device[16];
	int n, i;

	nr_edu = 0;
	n = scandir("/sys/bus/pci/devices", &names, NULL, alphasort);
	ck_assert_int_ge(n, 0);
	for (i = 0; i < n; i++) {
		const char *a = names[i]->d_name;

		if (a[0] != '.' &&
		    !t_read_attr(vendor, sizeof(vendor), "/sys/bus/pci/devices/%s/vendor", a) &&
		    !t_read_attr(device, sizeof(device), "/sys/bus/pci/devices/%s/device", a) &&
		    !strcmp(vendor, EDU_PCI_VENDOR) && !strcmp(device, EDU_PCI_DEVICE) &&
		    nr_edu < MAX_EDU)
			snprintf(edu_addrs[nr_edu++], sizeof(edu_addrs[0]), "%s", a);
		free(names[i]);
	}
	free(names);
}

static void unload_if_loaded(void)
{
	if (t_module_loaded(MOD))
		ck_assert_int_eq(t_module_unload(MOD), 0);
	find_edu_devices();
}

/*
 * After the suite, the module as npu-vm loaded it, whatever a failed
 * test left loaded (with other parameters) or unloaded.
 */
static void reload_default(void)
{
	if (t_module_loaded(MOD))
		ck_assert_int_eq(t_module_unload(MOD), 0);
	ck_assert_int_eq(t_module_load(t_ko(), t_default_args()), 0);
}

static void assert_attr(const char *want, const char *attr, int index)
{
	char buf[128];

	ck_assert_msg(!t_npu_attr(index, attr, buf, sizeof(buf)),
		      "cannot read attribute %s of NPU %d", attr, index);
	ck_assert_msg(!strcmp(buf, want), "NPU %d %s: got '%s', want '%s'",
		      index, attr, buf, want);
}

static void note_minor(const char *name)
{
	int i;

	for (i = 0; i < nr_minors; i++)
		if (!strcmp(minors[i], name))
			return;
	ck_assert_int_lt(nr_minors, MAX_MINORS);
	snprintf(minors[nr_minors++], sizeof(minors[0]), "%s", name);
}

/* Last component of the path a sysfs link (or directory) resolves to. */
static void resolved_name(const char *path, char *buf, size_t size)
{
	char real[PATH_MAX];

	ck_assert_msg(realpath(path, real), "cannot resolve %s", path);
	snprintf(buf, size, "%s", strrchr(real, '/') + 1);
}

/*
 * The primary minors (cardN) DRM made for the bus device of NPU @n: 6.1
 * makes one beside every render node; an accel NPU has none.
 */
static int primary_minors(const struct npu_node *n)
{
	char dev[PATH_MAX], other[PATH_MAX], path[600];
	struct dirent *de;
	int count = 0;
	DIR *d;

	ck_assert_ptr_nonnull(realpath(n->sysdir, dev));
	d = opendir("/sys/class/drm");
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "card", 4) || strchr(de->d_name, '-'))
			continue;
		snprintf(path, sizeof(path), "/sys/class/drm/%s/device", de->d_name);
		if (realpath(path, other) && !strcmp(other, dev)) {
			note_minor(de->d_name);
			count++;
		}
	}
	closedir(d);
	return count;
}

/*
 * NPU @index's node is the char device (DRM's major) whose number its
 * minor's sysfs "dev" shows, under /dev/dri (or /dev/accel); the minor's
 * device is the bus device with the attributes; on 6.1 its one primary
 * node comes with it.
 */
static void assert_node(int index)
{
	char path[700], dev[32], want[32];
	struct npu_node n;
	struct stat st;

	ck_assert_msg(t_npu_find(index, &n), "no NPU %d in /sys/class/drm", index);
	note_minor(n.minor);
	ck_assert_msg(stat(n.node, &st) == 0, "%s missing", n.node);
	ck_assert_msg(S_ISCHR(st.st_mode), "%s not a char device", n.node);
	snprintf(path, sizeof(path), "/sys/class/%s/%s/dev",
		 strncmp(n.minor, "accel", 5) ? "drm" : "accel", n.minor);
	ck_assert_int_eq(t_read_file(path, dev, sizeof(dev)), 0);
	snprintf(want, sizeof(want), "%u:%u", major(st.st_rdev), minor(st.st_rdev));
	ck_assert_str_eq(dev, want);
	if (!strncmp(n.minor, "renderD", 7)) {
		ck_assert_uint_eq(major(st.st_rdev), DRM_MAJOR);
		ck_assert_str_eq(n.node + strlen("/dev/dri/"), n.minor);
		ck_assert_int_eq(primary_minors(&n), 1);
	} else {
		ck_assert_str_eq(n.node + strlen("/dev/accel/"), n.minor);
		ck_assert_int_eq(primary_minors(&n), 0);
	}
}

/* The driver bound to the bus device of NPU @index. */
static void assert_driver(int index, const char *want)
{
	char path[600], drv[64];
	struct npu_node n;

	ck_assert(t_npu_find(index, &n));
	snprintf(path, sizeof(path), "%s/driver", n.sysdir);
	resolved_name(path, drv, sizeof(drv));
	ck_assert_str_eq(drv, want);
}

static void assert_edu(int index, const char *addr, unsigned int mem_mb)
{
	char want[32], name[256];
	struct npu_node n;

	assert_node(index);
	assert_attr("edu", "backend", index);
	assert_attr(addr, "pci_address", index);
	snprintf(want, sizeof(want), "%llu", (unsigned long long)mem_mb << 20);
	assert_attr(want, "mem_size", index);
	assert_attr("1", "dma_channels", index);
	snprintf(want, sizeof(want), "%d", index);
	assert_attr(want, "npu_index", index);
	/* The attributes live in the PCI function itself. */
	ck_assert(t_npu_find(index, &n));
	resolved_name(n.sysdir, name, sizeof(name));
	ck_assert_str_eq(name, addr);
	assert_driver(index, "npu_dma_edu");
}

static void assert_sim(int index, int sim, unsigned int mem_mb,
		       unsigned int channels)
{
	char want[32], name[256], path[600];
	struct npu_node n;

	assert_node(index);
	assert_attr("sim", "backend", index);
	ck_assert(t_npu_find(index, &n));
	snprintf(path, sizeof(path), "%s/pci_address", n.sysdir);
	ck_assert(!t_exists("%s", path));
	snprintf(want, sizeof(want), "%llu", (unsigned long long)mem_mb << 20);
	assert_attr(want, "mem_size", index);
	snprintf(want, sizeof(want), "%u", channels);
	assert_attr(want, "dma_channels", index);
	snprintf(want, sizeof(want), "%d", index);
	assert_attr(want, "npu_index", index);

	resolved_name(n.sysdir, name, sizeof(name));
	snprintf(want, sizeof(want), "npu_dma_sim.%d", sim);
	ck_assert_str_eq(name, want);
	assert_driver(index, "npu_dma_sim");
}

/* Exactly @count NPUs, numbered 0 .. count - 1. */
static void assert_count(int count)
{
	struct npu_node n[16];

	ck_assert_msg(!t_npu_find(count, NULL), "unexpected NPU %d", count);
	ck_assert_int_eq(npu_node_list("/sys", n, 16), count);
	if (count)
		ck_assert_int_eq(n[count - 1].index, count - 1);
}

/* No DRM minor in sysfs belongs to a device of ours. */
static void assert_no_drm_minor_left(void)
{
	char path[600], drv[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir("/sys/class/drm");

	if (!d)
		return;		/* drm.ko unloaded: nothing of anyone's */
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		ck_assert_msg(!t_exists("/sys/class/drm/%s/device/npu_index", de->d_name),
			      "%s still has an npu_index", de->d_name);
		snprintf(path, sizeof(path), "/sys/class/drm/%s/device/driver", de->d_name);
		if (realpath(path, drv))
			ck_assert_msg(!strstr(strrchr(drv, '/'), "npu_dma"),
				      "%s still bound to %s", de->d_name, drv);
	}
	closedir(d);
}

static void assert_nothing_left(void)
{
	struct npu_node n[8];
	char devices[4096];
	int i;

	ck_assert(!t_module_loaded(MOD));
	ck_assert_int_eq(npu_node_list("/sys", n, 8), 0);
	assert_no_drm_minor_left();
	for (i = 0; i < nr_minors; i++) {
		ck_assert_msg(!t_exists("/sys/class/drm/%s", minors[i]) &&
			      !t_exists("/sys/class/accel/%s", minors[i]),
			      "minor %s left behind", minors[i]);
		ck_assert_msg(!t_exists("/dev/dri/%s", minors[i]) &&
			      !t_exists("/dev/accel/%s", minors[i]),
			      "node of %s left behind", minors[i]);
	}
	nr_minors = 0;
	/* The class of the misc-device driver (ABI v1) is not made any more. */
	ck_assert(!t_exists("/sys/class/%s", MOD));
	ck_assert(!t_exists("/sys/bus/platform/drivers/npu_dma_sim"));
	ck_assert(!t_exists("/sys/bus/platform/devices/npu_dma_sim.0"));
	ck_assert(!t_exists("/sys/bus/pci/drivers/npu_dma_edu"));
	ck_assert(!t_exists("/sys/kernel/debug/npu_dma"));
	for (i = 0; i < nr_edu; i++)
		ck_assert(!t_exists("/sys/bus/pci/devices/%s/driver", edu_addrs[i]));
	ck_assert_int_eq(t_read_file("/proc/devices", devices, sizeof(devices)), 0);
	ck_assert_ptr_null(strstr(devices, "npu_dma"));
}

START_TEST(test_load_unload_three_times)
{
	int round, i;

	ck_assert_msg(nr_edu >= 1, "no edu device in the VM");
	for (round = 0; round < 3; round++) {
		ck_assert_int_eq(t_module_load(t_ko(), "nr_sim=2 edu_dma_bits=64"), 0);
		for (i = 0; i < nr_edu; i++)
			assert_edu(i, edu_addrs[i], 16);
		assert_sim(nr_edu, 0, 16384, 4);
		assert_sim(nr_edu + 1, 1, 16384, 4);
		assert_count(nr_edu + 2);
		ck_assert_int_eq(t_module_unload(MOD), 0);
		assert_nothing_left();
	}
}
END_TEST

START_TEST(test_load_with_parameters_shows_them_in_sysfs)
{
	int i;

	ck_assert_int_eq(t_module_load(t_ko(),
				       "nr_sim=3 sim_mem_mb=64 sim_channels=2 edu_mem_mb=8 edu_dma_bits=64"),
			 0);
	for (i = 0; i < nr_edu; i++)
		assert_edu(i, edu_addrs[i], 8);
	for (i = 0; i < 3; i++)
		assert_sim(nr_edu + i, i, 64, 2);
	assert_count(nr_edu + 3);
	ck_assert_int_eq(t_module_unload(MOD), 0);
	assert_nothing_left();
}
END_TEST

static int switch_peer(int a, int b)
{
	/* edu cards together; sim NPUs in pairs behind sim_switch=2. */
	if (a < nr_edu || b < nr_edu)
		return a < nr_edu && b < nr_edu;
	return (a - nr_edu) / 2 == (b - nr_edu) / 2;
}

/*
 * sim_switch=2: sim NPUs pair up behind two switches; edu cards together.
 * Each NPU's "peers" lists exactly the others it reaches, and GET_INFO's
 * peer mask says the same.
 */
START_TEST(test_sim_switch_groups_peers)
{
	struct npu_dma_info info;
	char want[64];
	uint64_t mask;
	int i, j, fd, count = nr_edu + 4;

	ck_assert_int_eq(t_module_load(t_ko(), "nr_sim=4 sim_switch=2 edu_dma_bits=64"), 0);
	assert_count(count);
	snprintf(want, sizeof(want), "%d", nr_edu + 1);
	assert_attr(want, "peers", nr_edu);
	snprintf(want, sizeof(want), "%d", nr_edu + 3);
	assert_attr(want, "peers", nr_edu + 2);
	if (nr_edu >= 2)
		assert_attr("1", "peers", 0);
	for (i = 0; i < count; i++) {
		want[0] = '\0';
		mask = 0;
		for (j = 0; j < count; j++) {
			if (j == i || !switch_peer(i, j))
				continue;
			snprintf(want + strlen(want), sizeof(want) - strlen(want),
				 "%s%d", want[0] ? " " : "", j);
			mask |= 1ULL << j;
		}
		assert_attr(want, "peers", i);
		fd = npu_raw_open(i);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(npu_raw_info(fd, &info), 0);
		close(fd);
		ck_assert_uint_eq(info.index, i);
		ck_assert_msg(info.peers == mask, "NPU %d: peers 0x%llx, want 0x%llx", i,
			      (unsigned long long)info.peers, (unsigned long long)mask);
	}
	/* The matrix of the misc-device driver's class is gone with it. */
	ck_assert(!t_exists("/sys/class/%s/topology", MOD));
	ck_assert_int_eq(t_module_unload(MOD), 0);
	assert_nothing_left();
}
END_TEST

START_TEST(test_load_without_sim_devices)
{
	ck_assert_int_eq(t_module_load(t_ko(), "edu_dma_bits=64"), 0);
	assert_count(nr_edu);
	ck_assert_int_eq(t_module_unload(MOD), 0);
	assert_nothing_left();
}
END_TEST

/* An invalid parameter fails the load with -EINVAL and a readable line. */
static void assert_load_rejected(const char *params, const char *line)
{
	char mark[64], *log;

	ck_assert_int_eq(t_kmsg_mark(mark, sizeof(mark)), 0);
	ck_assert_int_eq(t_module_load(t_ko(), params), -EINVAL);
	log = t_kmsg_since(mark);
	ck_assert_ptr_nonnull(log);
	ck_assert_msg(strstr(log, line), "no '%s' in dmesg after insmod %s:\n%s",
		      line, params, log);
	/* Parameters are checked before any device is probed. */
	ck_assert_msg(!strstr(log, " engine, "), "devices probed by insmod %s:\n%s",
		      params, log);
	free(log);
	assert_nothing_left();
}

START_TEST(test_invalid_nr_sim_is_refused)
{
	assert_load_rejected("nr_sim=33", "npu_dma: nr_sim=33 out of range (0..32)");
}
END_TEST

START_TEST(test_invalid_sim_switch_is_refused)
{
	assert_load_rejected("nr_sim=1 sim_switch=33 edu_dma_bits=64",
			     "npu_dma: sim_switch=33 out of range (0..32)");
}
END_TEST

START_TEST(test_non_numeric_parameter_is_refused)
{
	assert_load_rejected("nr_sim=abc", "invalid for parameter");
}
END_TEST

START_TEST(test_invalid_edu_dma_bits_is_refused)
{
	assert_load_rejected("edu_dma_bits=16", "npu_dma: edu_dma_bits=16 out of range (24..64)");
}
END_TEST

START_TEST(test_invalid_sim_channels_is_refused)
{
	assert_load_rejected("nr_sim=1 sim_channels=0 edu_dma_bits=64",
			     "npu_dma: sim_channels=0 out of range (1..16)");
}
END_TEST

START_TEST(test_unload_refused_while_open)
{
	int fd;

	ck_assert_int_eq(t_module_load(t_ko(), "nr_sim=1 edu_dma_bits=64"), 0);
	assert_node(0);
	fd = npu_raw_open(0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(t_module_unload(MOD), -EWOULDBLOCK);
	assert_node(0);
	close(fd);
	ck_assert_int_eq(t_module_unload(MOD), 0);
	assert_nothing_left();
}
END_TEST

/*
 * A queue mapping keeps the file, and so the module, in use after close();
 * munmap() lets it go.
 */
START_TEST(test_unload_refused_while_mapped)
{
	struct npu_dma_queue_create c = { .entries = 16, .eventfd = -1 };
	void *map;
	int fd;

	ck_assert_int_eq(t_module_load(t_ko(), "nr_sim=1 edu_dma_bits=64"), 0);
	assert_node(0);
	fd = npu_raw_open(0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, &c), 0);
	map = mmap(NULL, c.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)c.mmap_offset);
	ck_assert_ptr_ne(map, MAP_FAILED);
	close(fd);
	ck_assert_int_eq(t_module_unload(MOD), -EWOULDBLOCK);
	/* The area is still ours to read and write. */
	((struct npu_dma_queue_ctrl *)map)->sq_tail = 1;
	ck_assert_uint_eq(((struct npu_dma_queue_ctrl *)map)->completed_seq, 0);
	ck_assert_int_eq(munmap(map, c.mmap_size), 0);
	ck_assert_int_eq(t_module_unload(MOD), 0);
	assert_nothing_left();
}
END_TEST

static Suite *load_suite(void)
{
	Suite *s = suite_create("t_load");
	TCase *tc = tcase_create("load");

	tcase_set_timeout(tc, 120);
	tcase_add_unchecked_fixture(tc, NULL, reload_default);
	tcase_add_checked_fixture(tc, unload_if_loaded, NULL);
	tcase_add_test(tc, test_load_unload_three_times);
	tcase_add_test(tc, test_load_with_parameters_shows_them_in_sysfs);
	tcase_add_test(tc, test_load_without_sim_devices);
	tcase_add_test(tc, test_sim_switch_groups_peers);
	tcase_add_test(tc, test_invalid_sim_switch_is_refused);
	tcase_add_test(tc, test_invalid_nr_sim_is_refused);
	tcase_add_test(tc, test_non_numeric_parameter_is_refused);
	tcase_add_test(tc, test_invalid_edu_dma_bits_is_refused);
	tcase_add_test(tc, test_invalid_sim_channels_is_refused);
	tcase_add_test(tc, test_unload_refused_while_open);
	tcase_add_test(tc, test_unload_refused_while_mapped);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (geteuid() != 0 || !t_exists("%s", t_ko()))
		return T_EXIT_SKIP;
	return t_run_suite(load_suite());
}
