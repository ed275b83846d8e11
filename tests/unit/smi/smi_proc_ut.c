// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tools/smi_proc.c: the DRM usage stats of fdinfo, and the
 * process list built from a fake /proc whose fds point at real character
 * devices that a fake sysfs maps to NPUs (fake_sysfs.h).
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t_check.h"
#include "fake_smi.h"
#include "fake_sysfs.h"
#include "smi_proc.h"

static struct smi_npu fake_npus[4];
static struct smi_system fake_sys4;
static pid_t npu2_clients[] = { 300, 7, 55 };

static void setup(void)
{
	fake_tree_create("smi_proc_ut");
	fake_system_4(&fake_sys4, fake_npus);
}

static void teardown(void)
{
	fake_tree_remove();
}

START_TEST(test_fdinfo_parse_reads_the_usage_keys)
{
	struct smi_fdinfo fi;
	char text[512];

	fake_fdinfo(text, sizeof(text), "0000:00:02.0", 17, 123456789, 4100, 64);
	smi_fdinfo_parse(text, &fi);
	ck_assert_int_eq(fi.is_npu, 1);
	ck_assert_int_eq(fi.has_client_id, 1);
	ck_assert_uint_eq(fi.client_id, 17);
	ck_assert_uint_eq(fi.engine_ns, 123456789);
	ck_assert_uint_eq(fi.mem_device, 4100ULL << 10);
	ck_assert_uint_eq(fi.mem_host, 64ULL << 10);
}
END_TEST

START_TEST(test_fdinfo_parse_units_and_other_drivers)
{
	struct smi_fdinfo fi;

	smi_fdinfo_parse("drm-driver: npu_dma\ndrm-memory-device: 3 MiB\n"
			 "drm-memory-host:\t512", &fi);
	ck_assert_int_eq(fi.is_npu, 1);
	ck_assert_int_eq(fi.has_client_id, 0);
	ck_assert_uint_eq(fi.mem_device, 3ULL << 20);
	ck_assert_uint_eq(fi.mem_host, 512);
	smi_fdinfo_parse("drm-memory-device:\t2 GiB\n", &fi);
	ck_assert_uint_eq(fi.mem_device, 2ULL << 30);
	ck_assert_int_eq(fi.is_npu, 0);

	smi_fdinfo_parse("drm-driver:\ti915\ndrm-client-id:\t3\n", &fi);
	ck_assert_int_eq(fi.is_npu, 0);
	smi_fdinfo_parse("drm-driver:\tnpu_dma_other\n", &fi);
	ck_assert_int_eq(fi.is_npu, 0);
	/* Not numbers: the fields stay 0. */
	smi_fdinfo_parse("drm-driver:\tnpu_dma\ndrm-client-id:\tx\n"
			 "drm-engine-dma:\t-5 ns\ndrm-memory-device:\tKiB\n", &fi);
	ck_assert_int_eq(fi.is_npu, 1);
	ck_assert_int_eq(fi.has_client_id, 0);
	ck_assert_uint_eq(fi.engine_ns, 0);
	ck_assert_uint_eq(fi.mem_device, 0);
	smi_fdinfo_parse("", &fi);
	ck_assert_int_eq(fi.is_npu, 0);
}
END_TEST

/*
 * NPU 0 (edu) is /dev/zero's numbers as renderD128 and /dev/null's as
 * its primary node card0; NPU 2 (sim) is /dev/full's; /dev/urandom's
 * belong to another driver's GPU (no npu_index).
 */
static void fake_nodes(void)
{
	char dir[256];

	fake_minor("pci0000:00/0000:00:02.0", "drm", "renderD128", "/dev/zero",
		   dir, sizeof(dir));
	fake_minor("pci0000:00/0000:00:02.0", "drm", "card0", "/dev/null",
		   dir, sizeof(dir));
	fake_write(dir, "npu_index", "0");
	fake_minor("platform/npu_dma_sim.0", "drm", "renderD130", "/dev/full",
		   dir, sizeof(dir));
	fake_write(dir, "npu_index", "2");
	fake_minor("pci0000:00/0000:00:01.0", "drm", "renderD129", "/dev/urandom",
		   dir, sizeof(dir));
	fake_npus[2].nr_clients = 3;
	fake_npus[2].clients = npu2_clients;
}

/*
 * pid 7: NPU 0 through renderD128 twice (one file, dup'ed: client 1)
 * and through card0 (client 2), NPU 2 once, a plain file and another
 * driver's GPU; pid 41: NPU 0's numbers but no DRM fdinfo; pid 55: in
 * NPU 2's sysfs clients, fds unreadable; pid 300: in them, exited.
 */
static void fake_procs(void)
{
	char info[512], plain[128];

	fake_proc_entry(7, "t_npu_smi");
	fake_fdinfo(info, sizeof(info), "0000:00:02.0", 1, 2000000, 4096, 64);
	fake_proc_fd(7, 3, "/dev/zero", info);
	fake_proc_fd(7, 4, "/dev/zero", info);
	fake_fdinfo(info, sizeof(info), "0000:00:02.0", 2, 500, 1, 0);
	fake_proc_fd(7, 5, "/dev/null", info);
	fake_fdinfo(info, sizeof(info), NULL, 3, 42, 0, 0);
	fake_proc_fd(7, 6, "/dev/full", info);
	snprintf(plain, sizeof(plain), "%s/plain", fake_root);
	fake_write(fake_root, "plain", "x");
	fake_proc_fd(7, 0, plain, "pos:\t0\n");
	fake_proc_fd(7, 1, "/dev/urandom", "drm-driver:\tother\n");
	fake_proc_entry(41, "cat");
	fake_proc_fd(41, 0, "/dev/zero", "pos:\t0\nflags:\t0100000\n");
	fake_proc_entry(55, "other_user");
	snprintf(plain, sizeof(plain), "%s/55/fd", fake_proc);
	ck_assert_int_eq(rmdir(plain), 0);
	fake_mkdir("%s/self", fake_proc);
	fake_mkdir("%s/sys", fake_proc);
}

START_TEST(test_collect_procs_from_fdinfo_and_clients)
{
	struct smi_proc *p;

	fake_nodes();
	fake_procs();
	ck_assert_int_eq(smi_collect_procs(fake_sys, fake_proc, &fake_sys4), 0);
	ck_assert_int_eq(fake_sys4.nr_procs, 4);
	p = fake_sys4.procs;

	ck_assert_int_eq(p[0].npu, 0);
	ck_assert_int_eq(p[0].pid, 7);
	ck_assert_str_eq(p[0].name, "t_npu_smi");
	ck_assert_int_eq(p[0].has_usage, 1);
	ck_assert_uint_eq(p[0].files, 2);
	ck_assert_uint_eq(p[0].mem_device, (4096ULL << 10) + 1024);
	ck_assert_uint_eq(p[0].mem_host, 64 << 10);
	ck_assert_uint_eq(p[0].engine_ns, 2000500);

	ck_assert_int_eq(p[1].npu, 2);
	ck_assert_int_eq(p[1].pid, 7);
	ck_assert_int_eq(p[1].has_usage, 1);
	ck_assert_uint_eq(p[1].files, 1);
	ck_assert_uint_eq(p[1].engine_ns, 42);

	ck_assert_int_eq(p[2].npu, 2);
	ck_assert_int_eq(p[2].pid, 55);
	ck_assert_str_eq(p[2].name, "other_user");
	ck_assert_int_eq(p[2].has_usage, 0);

	ck_assert_int_eq(p[3].pid, 300);
	ck_assert_str_eq(p[3].name, "-");
	ck_assert_str_eq(p[3].user, "-");
	ck_assert_int_eq(p[3].has_usage, 0);
	free(fake_sys4.procs);
}
END_TEST

START_TEST(test_collect_procs_without_readable_fds)
{
	ck_assert_int_eq(smi_collect_procs(fake_sys, "/nonexistent", &fake_sys4), 0);
	ck_assert_int_eq(fake_sys4.nr_procs, 0);
	fake_nodes();
	ck_assert_int_eq(smi_collect_procs(fake_sys, fake_proc, &fake_sys4), 0);
	/* Only NPU 2's sysfs clients, none of them readable. */
	ck_assert_int_eq(fake_sys4.nr_procs, 3);
	ck_assert_int_eq(fake_sys4.procs[0].pid, 7);
	ck_assert_int_eq(fake_sys4.procs[0].has_usage, 0);
	free(fake_sys4.procs);
}
END_TEST

static Suite *smi_proc_suite(void)
{
	Suite *s = suite_create("smi_proc");
	TCase *f = tcase_create("smi_fdinfo_parse");
	TCase *c = tcase_create("smi_collect_procs");

	tcase_add_test(f, test_fdinfo_parse_reads_the_usage_keys);
	tcase_add_test(f, test_fdinfo_parse_units_and_other_drivers);
	tcase_add_checked_fixture(c, setup, teardown);
	tcase_add_test(c, test_collect_procs_from_fdinfo_and_clients);
	tcase_add_test(c, test_collect_procs_without_readable_fds);
	suite_add_tcase(s, f);
	suite_add_tcase(s, c);
	return s;
}

int main(void)
{
	return t_run_suite(smi_proc_suite());
}
