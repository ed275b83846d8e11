// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tools/smi_sysfs.c on a fake sysfs and a fake /proc built
 * in a temporary directory, shaped like the driver's (driver.rst, sysfs).
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
#include "smi_sysfs.h"

static char fake_root[] = "/tmp/smi_sysfs_ut.XXXXXX";
static char fake_sys[64], fake_proc[64];

static void fake_mkdir(const char *fmt, ...)
{
	char path[512], cmd[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	ck_assert_int_eq(system(cmd), 0);
}

static void fake_write(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

/* A fake /sys/class/npu_dma/npu_dmaN whose device link points at dev. */
static void fake_npu_dir(int index, const char *backend, const char *bus_id,
			 const char *dev, const char *clients, const char *peers)
{
	char dir[256], devdir[256], link[300];

	snprintf(dir, sizeof(dir), "%s/class/npu_dma/npu_dma%d", fake_sys, index);
	snprintf(devdir, sizeof(devdir), "%s/devices/%s", fake_sys, dev);
	fake_mkdir("%s", dir);
	fake_mkdir("%s", devdir);
	fake_write(dir, "backend", backend);
	if (bus_id)
		fake_write(dir, "pci_address", bus_id);
	fake_write(dir, "mem_size", "16777216");
	fake_write(dir, "mem_used", "2101248");
	fake_write(dir, "dma_channels", "4");
	fake_write(dir, "queues", "3");
	fake_write(dir, "clients", clients);
	fake_write(dir, "peers", peers);
	snprintf(link, sizeof(link), "%s/device", dir);
	ck_assert_int_eq(symlink(devdir, link), 0);
}

static void fake_proc_entry(int pid, const char *comm)
{
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/%d", fake_proc, pid);
	fake_mkdir("%s", dir);
	fake_write(dir, "comm", comm);
}

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(fake_root));
	snprintf(fake_sys, sizeof(fake_sys), "%s/sys", fake_root);
	snprintf(fake_proc, sizeof(fake_proc), "%s/proc", fake_root);
	fake_mkdir("%s", fake_proc);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", fake_root);
	ck_assert_int_eq(system(cmd), 0);
}

/* The fake VM: edu NPU 0 on PCI, simulated NPU 2 (no NPU 1). */
static void fake_two_npus(void)
{
	char devdir[256];

	fake_npu_dir(0, "edu", "0000:00:02.0", "pci0000:00/0000:00:02.0",
		     "", "");
	snprintf(devdir, sizeof(devdir), "%s/devices/pci0000:00/0000:00:02.0",
		 fake_sys);
	fake_write(devdir, "numa_node", "-1");
	fake_write(devdir, "local_cpulist", "0-1");
	fake_npu_dir(2, "sim", NULL, "platform/npu_dma_sim.0", "300 7 41",
		     "3 70");
	fake_proc_entry(7, "t_npu_smi");
	fake_proc_entry(41, "bad\"name");
}

START_TEST(test_smi_collect_no_class_dir_is_enodev)
{
	struct smi_system sys;

	ck_assert_int_eq(smi_collect(fake_sys, fake_proc, &sys), -ENODEV);
}
END_TEST

START_TEST(test_smi_collect_no_npu_entries_is_enodev)
{
	struct smi_system sys;

	fake_mkdir("%s/class/npu_dma/other", fake_sys);
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
	ck_assert_int_eq(sys.procs[1].pid, 41);
	ck_assert_str_eq(sys.procs[1].name, "bad\"name");
	/* Exited between reading clients and /proc. */
	ck_assert_int_eq(sys.procs[2].pid, 300);
	ck_assert_str_eq(sys.procs[2].name, "-");
	ck_assert_str_eq(sys.procs[2].user, "-");
	smi_system_free(&sys);
}
END_TEST

START_TEST(test_smi_collect_bad_attribute_fails)
{
	char dir[256];
	struct smi_system sys;

	fake_two_npus();
	snprintf(dir, sizeof(dir), "%s/class/npu_dma/npu_dma2", fake_sys);
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
	snprintf(path, sizeof(path), "%s/class/npu_dma/npu_dma0/queues", fake_sys);
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
	tcase_add_test(c, test_smi_collect_no_class_dir_is_enodev);
	tcase_add_test(c, test_smi_collect_no_npu_entries_is_enodev);
	tcase_add_test(c, test_smi_collect_reads_every_attribute);
	tcase_add_test(c, test_smi_collect_lists_processes_by_pid);
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
