// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: loading and unloading npu_dma.ko, its device nodes and sysfs.
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

#include <linux/npu_dma.h>

#include "t_vm.h"

#define MOD "npu_dma"
#define EDU_PCI_VENDOR "0x1234"
#define EDU_PCI_DEVICE "0x11e8"
#define MAX_EDU 8

static char edu_addrs[MAX_EDU][256];
static int nr_edu;

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

static void reload_default(void)
{
	if (!t_module_loaded(MOD))
		ck_assert_int_eq(t_module_load(t_ko(), t_default_args()), 0);
}

static void assert_attr(const char *want, const char *fmt, int index)
{
	char buf[128];

	ck_assert_msg(!t_read_attr(buf, sizeof(buf), fmt, index),
		      "cannot read attribute for npu_dma%d", index);
	ck_assert_msg(!strcmp(buf, want), "npu_dma%d: got '%s', want '%s'",
		      index, buf, want);
}

/* /dev/npu_dmaN is a char device whose number matches sysfs "dev". */
static void assert_node(int index)
{
	char path[64], dev[32], want[32];
	struct stat st;

	snprintf(path, sizeof(path), "/dev/npu_dma%d", index);
	ck_assert_msg(stat(path, &st) == 0, "%s missing", path);
	ck_assert_msg(S_ISCHR(st.st_mode), "%s not a char device", path);
	ck_assert_int_eq(t_read_attr(dev, sizeof(dev),
				     "/sys/class/npu_dma/npu_dma%d/dev", index), 0);
	snprintf(want, sizeof(want), "%u:%u", major(st.st_rdev), minor(st.st_rdev));
	ck_assert_str_eq(dev, want);
}

static void assert_edu(int index, const char *addr, unsigned int mem_mb)
{
	char want[32], drv[256], link[256];
	ssize_t n;

	assert_node(index);
	assert_attr("edu", "/sys/class/npu_dma/npu_dma%d/backend", index);
	assert_attr(addr, "/sys/class/npu_dma/npu_dma%d/pci_address", index);
	snprintf(want, sizeof(want), "%llu", (unsigned long long)mem_mb << 20);
	assert_attr(want, "/sys/class/npu_dma/npu_dma%d/mem_size", index);
	assert_attr("1", "/sys/class/npu_dma/npu_dma%d/dma_channels", index);

	snprintf(link, sizeof(link), "/sys/bus/pci/devices/%s/driver", addr);
	n = readlink(link, drv, sizeof(drv) - 1);
	ck_assert_int_gt(n, 0);
	drv[n] = '\0';
	ck_assert_ptr_nonnull(strstr(drv, "npu_dma_edu"));
}

static void assert_sim(int index, int sim, unsigned int mem_mb,
		       unsigned int channels)
{
	char want[32], link[256], target[256];
	ssize_t n;

	assert_node(index);
	assert_attr("sim", "/sys/class/npu_dma/npu_dma%d/backend", index);
	ck_assert(!t_exists("/sys/class/npu_dma/npu_dma%d/pci_address", index));
	snprintf(want, sizeof(want), "%llu", (unsigned long long)mem_mb << 20);
	assert_attr(want, "/sys/class/npu_dma/npu_dma%d/mem_size", index);
	snprintf(want, sizeof(want), "%u", channels);
	assert_attr(want, "/sys/class/npu_dma/npu_dma%d/dma_channels", index);

	snprintf(link, sizeof(link), "/sys/class/npu_dma/npu_dma%d/device", index);
	n = readlink(link, target, sizeof(target) - 1);
	ck_assert_int_gt(n, 0);
	target[n] = '\0';
	snprintf(want, sizeof(want), "npu_dma_sim.%d", sim);
	ck_assert_str_eq(strrchr(target, '/') + 1, want);
}

static void assert_count(int count)
{
	ck_assert_msg(!t_exists("/dev/npu_dma%d", count),
		      "unexpected /dev/npu_dma%d", count);
	ck_assert(!t_exists("/sys/class/npu_dma/npu_dma%d", count));
}

static void assert_nothing_left(void)
{
	char devices[4096];
	int i;

	ck_assert(!t_module_loaded(MOD));
	for (i = 0; i < 8; i++)
		ck_assert_msg(!t_exists("/dev/npu_dma%d", i),
			      "/dev/npu_dma%d left behind", i);
	ck_assert(!t_exists("/sys/class/npu_dma"));
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

/* One row of /sys/class/npu_dma/topology as the driver lays it out. */
static void topology_row(char *line, size_t size, int row, int count,
			 int (*peer)(int, int))
{
	char name[24];
	int c, len;

	snprintf(name, sizeof(name), "npu_dma%d", row);
	len = snprintf(line, size, "%-8s", name);
	for (c = 0; c < count; c++)
		len += snprintf(line + len, size - len, " %-8s",
				c == row ? "X" : peer(row, c) ? "PIX" : "-");
	snprintf(line + len, size - len, "\n");
}

static int switch_peer(int a, int b)
{
	/* edu cards together; sim NPUs in pairs behind sim_switch=2. */
	if (a < nr_edu || b < nr_edu)
		return a < nr_edu && b < nr_edu;
	return (a - nr_edu) / 2 == (b - nr_edu) / 2;
}

/* sim_switch=2: sim NPUs pair up behind two switches; edu cards together. */
START_TEST(test_sim_switch_groups_peers)
{
	char want[64], got[2048], line[256];
	int i, s0 = nr_edu;

	ck_assert_int_eq(t_module_load(t_ko(), "nr_sim=4 sim_switch=2 edu_dma_bits=64"), 0);
	snprintf(want, sizeof(want), "%d", s0 + 1);
	assert_attr(want, "/sys/class/npu_dma/npu_dma%d/peers", s0);
	snprintf(want, sizeof(want), "%d", s0 + 3);
	assert_attr(want, "/sys/class/npu_dma/npu_dma%d/peers", s0 + 2);
	if (nr_edu >= 2)
		assert_attr("1", "/sys/class/npu_dma/npu_dma%d/peers", 0);

	/* The matrix: header row, then one row per NPU. */
	ck_assert_int_eq(t_read_file("/sys/class/npu_dma/topology", got, sizeof(got)), 0);
	for (i = 0; i < s0 + 4; i++) {
		topology_row(line, sizeof(line), i, s0 + 4, switch_peer);
		/* t_read_file cut the last newline. */
		if (i == s0 + 3)
			line[strlen(line) - 1] = '\0';
		ck_assert_msg(strstr(got, line), "no '%s' in:\n%s", line, got);
	}
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
	fd = open("/dev/npu_dma0", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(t_module_unload(MOD), -EWOULDBLOCK);
	ck_assert(t_exists("/dev/npu_dma0"));
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
	fd = open("/dev/npu_dma0", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ioctl(fd, NPU_DMA_IOCTL_QUEUE_CREATE, &c), 0);
	map = mmap(NULL, c.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   c.mmap_offset);
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
