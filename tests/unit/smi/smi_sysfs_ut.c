// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tools/smi_sysfs.c on a fake sysfs and a fake /proc built
 * in a temporary directory (fake_sysfs.h), shaped like the driver's: the
 * attributes in the bus device of each NPU's DRM node (driver.rst, sysfs).
 */
#include <check.h>
#include <errno.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "t_check.h"
#include "fake_smi.h"
#include "fake_sysfs.h"
#include "smi_sysfs.h"

/*
 * A fake NPU: bus device dev (under sys/devices) with the driver's
 * attributes, render node renderD(128 + index), and on PCI the primary
 * node card(index) that DRM creates beside it on 6.1.
 */
static void fake_npu_chr(int index, const char *backend, const char *bus_id,
			 const char *dev, const char *chr, const char *clients,
			 const char *peers)
{
	char dir[256], minor[32], num[16];

	snprintf(minor, sizeof(minor), "renderD%d", 128 + index);
	fake_minor(dev, "drm", minor, chr, dir, sizeof(dir));
	if (bus_id) {
		snprintf(minor, sizeof(minor), "card%d", index);
		fake_minor(dev, "drm", minor, NULL, dir, sizeof(dir));
	}
	snprintf(num, sizeof(num), "%d", index);
	fake_write(dir, "npu_index", num);
	fake_write(dir, "backend", backend);
	if (bus_id)
		fake_write(dir, "pci_address", bus_id);
	fake_write(dir, "mem_size", "16777216");
	fake_write(dir, "mem_used", "2101248");
	fake_write(dir, "dma_channels", "4");
	fake_write(dir, "queues", "3");
	fake_write(dir, "clients", clients);
	fake_write(dir, "peers", peers);
}

static void fake_npu_dir(int index, const char *backend, const char *bus_id,
			 const char *dev, const char *clients, const char *peers)
{
	fake_npu_chr(index, backend, bus_id, dev, NULL, clients, peers);
}

/* The directory of NPU index's attributes. */
static void npu_dir(int index, char *buf, size_t size)
{
	snprintf(buf, size, "%s/class/drm/renderD%d/device", fake_sys, 128 + index);
}

static void setup(void)
{
	fake_tree_create("smi_sysfs_ut");
}

static void teardown(void)
{
	fake_tree_remove();
}

/* The fake VM: edu NPU 0 on PCI, simulated NPU 2 (no NPU 1). */
static void fake_two_npus(void)
{
	char devdir[256];

	fake_npu_dir(0, "edu", "0000:00:02.0", "pci0000:00/0000:00:02.0",
		     "", "");
	npu_dir(0, devdir, sizeof(devdir));
	fake_write(devdir, "numa_node", "-1");
	fake_write(devdir, "local_cpulist", "0-1");
	fake_npu_dir(2, "sim", NULL, "platform/npu_dma_sim.0", "300 7 41",
		     "3 70");
	fake_proc_entry(7, "t_npu_smi");
	fake_proc_entry(41, "bad\"name");
}

START_TEST(test_smi_collect_no_drm_class_is_enodev)
{
	struct smi_system sys;

	ck_assert_int_eq(smi_collect(fake_sys, fake_proc, &sys), -ENODEV);
}
END_TEST

/* Only another driver's GPU: no npu_index on its bus device. */
START_TEST(test_smi_collect_no_npu_minor_is_enodev)
{
	struct smi_system sys;
	char dir[256];

	fake_minor("pci0000:00/0000:00:01.0", "drm", "renderD128", NULL, dir,
		   sizeof(dir));
	fake_minor("pci0000:00/0000:00:01.0", "drm", "card0", NULL, dir,
		   sizeof(dir));
	ck_assert_int_eq(smi_collect(fake_sys, fake_proc, &sys), -ENODEV);
}
END_TEST

START_TEST(test_smi_collect_reads_every_attribute)
{
	struct smi_system sys;
	struct smi_npu *edu, *sim;

	fake_two_npus();
	ck_assert_int_eq(smi_collect(fake_sys, fake_proc, &sys), 0);
	ck_assert_int_eq(sys.nr_npus, 2);
	edu = smi_find(&sys, 0);
	sim = smi_find(&sys, 2);
	ck_assert_ptr_nonnull(edu);
	ck_assert_ptr_nonnull(sim);
	ck_assert_ptr_null(smi_find(&sys, 1));
	ck_assert_str_eq(edu->backend, "edu");
	ck_assert_str_eq(edu->node, "/dev/dri/renderD128");
	ck_assert_str_eq(sim->node, "/dev/dri/renderD130");
	ck_assert_str_eq(edu->bus_id, "0000:00:02.0");
	ck_assert_str_eq(edu->dev_name, "0000:00:02.0");
	ck_assert_ptr_nonnull(strstr(edu->dev_path, "/pci0000:00/0000:00:02.0"));
	ck_assert_int_eq(edu->numa_node, -1);
	ck_assert_str_eq(edu->cpu_affinity, "0-1");
	ck_assert_uint_eq(edu->mem_size, 16777216);
	ck_assert_uint_eq(edu->mem_used, 2101248);
	ck_assert_uint_eq(edu->dma_channels, 4);
	ck_assert_uint_eq(edu->queues, 3);
	ck_assert_uint_eq(edu->peers, 0);
	ck_assert_int_eq(edu->nr_clients, 0);
	ck_assert_str_eq(sim->bus_id, "");
	ck_assert_str_eq(sim->dev_name, "npu_dma_sim.0");
	ck_assert_str_eq(sim->cpu_affinity, "");
	/* Peer 70 cannot be in a 64-bit mask and is dropped. */
	ck_assert_uint_eq(sim->peers, 1ULL << 3);
	smi_system_free(&sys);
}
END_TEST

START_TEST(test_smi_collect_lists_processes_by_pid)
{
	struct passwd *pw = getpwuid(getuid());
	struct smi_system sys;

	fake_two_npus();
	ck_assert_int_eq(smi_collect(fake_sys, fake_proc, &sys), 0);
	ck_assert_int_eq(sys.nr_procs, 3);
	ck_assert_int_eq(sys.procs[0].npu, 2);
	ck_assert_int_eq(sys.procs[0].pid, 7);
	ck_assert_str_eq(sys.procs[0].name, "t_npu_smi");
	if (pw)
		ck_assert_str_eq(sys.procs[0].user, pw->pw_name);
	/* Known from sysfs clients only: no fds in the fake /proc. */
	ck_assert_int_eq(sys.procs[0].has_usage, 0);
	ck_assert_int_eq(sys.procs[1].pid, 41);
	ck_assert_str_eq(sys.procs[1].name, "bad\"name");
	/* Exited between reading clients and /proc. */
	ck_assert_int_eq(sys.procs[2].pid, 300);
	ck_assert_str_eq(sys.procs[2].name, "-");
	ck_assert_str_eq(sys.procs[2].user, "-");
	smi_system_free(&sys);
}
END_TEST

/* A process whose fds are readable: its usage from fdinfo. */
START_TEST(test_smi_collect_usage_from_fdinfo)
{
	struct smi_system sys;
	char info[512];

	fake_two_npus();
	fake_npu_chr(5, "sim", NULL, "platform/npu_dma_sim.1", "/dev/zero",
		     "9", "");
	fake_proc_entry(9, "t_acl");
	fake_fdinfo(info, sizeof(info), NULL, 12, 3000000, 2048, 8);
	fake_proc_fd(9, 3, "/dev/zero", info);
	ck_assert_int_eq(smi_collect(fake_sys, fake_proc, &sys), 0);
	ck_assert_int_eq(sys.nr_npus, 3);
	ck_assert_int_eq(sys.nr_procs, 4);
	ck_assert_int_eq(sys.procs[3].npu, 5);
	ck_assert_int_eq(sys.procs[3].pid, 9);
	ck_assert_int_eq(sys.procs[3].has_usage, 1);
	ck_assert_uint_eq(sys.procs[3].files, 1);
	ck_assert_uint_eq(sys.procs[3].mem_device, 2 << 20);
	ck_assert_uint_eq(sys.procs[3].mem_host, 8 << 10);
	ck_assert_uint_eq(sys.procs[3].engine_ns, 3000000);
	smi_system_free(&sys);
}
END_TEST

/* Peer masks are 64 bits wide: an NPU of a higher index is left out. */
START_TEST(test_smi_collect_leaves_out_index_above_63)
{
	struct smi_system sys;

	fake_two_npus();
	fake_npu_dir(64, "sim", NULL, "platform/npu_dma_sim.9", "", "");
	ck_assert_int_eq(smi_collect(fake_sys, fake_proc, &sys), 0);
	ck_assert_int_eq(sys.nr_npus, 2);
	ck_assert_ptr_null(smi_find(&sys, 64));
	smi_system_free(&sys);
}
END_TEST

START_TEST(test_smi_collect_bad_attribute_fails)
{
	char dir[256];
	struct smi_system sys;

	fake_two_npus();
	npu_dir(2, dir, sizeof(dir));
	fake_write(dir, "mem_used", "lots");
	ck_assert_int_eq(smi_collect(fake_sys, fake_proc, &sys), -EINVAL);
	ck_assert_int_eq(sys.nr_npus, 0);
	ck_assert_ptr_null(sys.npus);
}
END_TEST

START_TEST(test_smi_collect_missing_attribute_fails)
{
	char path[256];
	struct smi_system sys;

	fake_two_npus();
	npu_dir(0, path, sizeof(path));
	strcat(path, "/queues");
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(smi_collect(fake_sys, fake_proc, &sys), -ENOENT);
}
END_TEST

START_TEST(test_smi_parse_ints_lists)
{
	int v[4];

	ck_assert_int_eq(smi_parse_ints("", v, 4), 0);
	ck_assert_int_eq(smi_parse_ints("5", v, 4), 1);
	ck_assert_int_eq(v[0], 5);
	ck_assert_int_eq(smi_parse_ints(" 1  22 333 ", v, 4), 3);
	ck_assert_int_eq(v[2], 333);
	/* More values than room: the first max are kept. */
	ck_assert_int_eq(smi_parse_ints("1 2 3 4 5", v, 4), 4);
	ck_assert_int_eq(smi_parse_ints("1,2", v, 4), -EINVAL);
	ck_assert_int_eq(smi_parse_ints("-1", v, 4), -EINVAL);
	ck_assert_int_eq(smi_parse_ints("99999999999", v, 4), -EINVAL);
}
END_TEST

static Suite *smi_sysfs_suite(void)
{
	Suite *s = suite_create("smi_sysfs");
	TCase *c = tcase_create("smi_collect");
	TCase *p = tcase_create("smi_parse_ints");

	tcase_add_checked_fixture(c, setup, teardown);
	tcase_add_test(c, test_smi_collect_no_drm_class_is_enodev);
	tcase_add_test(c, test_smi_collect_no_npu_minor_is_enodev);
	tcase_add_test(c, test_smi_collect_reads_every_attribute);
	tcase_add_test(c, test_smi_collect_lists_processes_by_pid);
	tcase_add_test(c, test_smi_collect_usage_from_fdinfo);
	tcase_add_test(c, test_smi_collect_leaves_out_index_above_63);
	tcase_add_test(c, test_smi_collect_bad_attribute_fails);
	tcase_add_test(c, test_smi_collect_missing_attribute_fails);
	tcase_add_test(p, test_smi_parse_ints_lists);
	suite_add_tcase(s, c);
	suite_add_tcase(s, p);
	return s;
}

int main(void)
{
	return t_run_suite(smi_sysfs_suite());
}
