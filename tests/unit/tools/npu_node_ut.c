// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tools/npu_node.c on a fake sysfs: which DRM minors are
 * NPUs, their order, their node and sysfs paths.
 */
#include <errno.h>

#include "t_check.h"
#include "../smi/fake_sysfs.h"
#include "npu_node.h"

static void setup(void)
{
	fake_tree_create("npu_node_ut");
}

static void teardown(void)
{
	fake_tree_remove();
}

/* An NPU of ours: its bus device has npu_index. */
static void fake_npu(const char *bus, const char *class, const char *minor,
		     const char *index)
{
	char dir[256];

	fake_minor(bus, class, minor, NULL, dir, sizeof(dir));
	if (index)
		fake_write(dir, "npu_index", index);
}

START_TEST(test_no_drm_class_no_npu)
{
	struct npu_node n[4];

	ck_assert_int_eq(npu_node_list(fake_sys, n, 4), 0);
	ck_assert_int_eq(npu_node_find(fake_sys, 0, n), -ENOENT);
}
END_TEST

START_TEST(test_render_and_accel_minors_in_index_order)
{
	struct npu_node n[8];

	/* 6.1: a primary node beside each render node, and another GPU. */
	fake_npu("pci0000:00/0000:00:02.0", "drm", "renderD129", "1");
	fake_npu("pci0000:00/0000:00:02.0", "drm", "card1", NULL);
	fake_npu("pci0000:00/0000:00:01.0", "drm", "renderD128", NULL);
	fake_npu("platform/npu_dma_sim.0", "drm", "renderD130", "2\n");
	fake_npu("platform/npu_dma_sim.1", "accel", "accel0", "0");
	ck_assert_int_eq(npu_node_list(fake_sys, n, 8), 3);
	ck_assert_int_eq(n[0].index, 0);
	ck_assert_str_eq(n[0].node, "/dev/accel/accel0");
	ck_assert_str_eq(n[0].minor, "accel0");
	ck_assert_int_eq(n[1].index, 1);
	ck_assert_str_eq(n[1].node, "/dev/dri/renderD129");
	ck_assert_int_eq(n[2].index, 2);
	ck_assert_str_eq(n[2].minor, "renderD130");

	ck_assert_int_eq(npu_node_find(fake_sys, 1, n), 0);
	ck_assert_str_eq(n[0].node, "/dev/dri/renderD129");
	ck_assert_msg(strstr(n[0].sysdir, "/class/drm/renderD129/device"),
		      "sysdir %s", n[0].sysdir);
	ck_assert_int_eq(npu_node_find(fake_sys, 3, n), -ENOENT);
}
END_TEST

START_TEST(test_sysdir_holds_the_bus_device_attributes)
{
	char dir[256], path[700], buf[32];
	struct npu_node n;
	FILE *f;

	fake_minor("platform/npu_dma_sim.0", "drm", "renderD128", "/dev/zero",
		   dir, sizeof(dir));
	fake_write(dir, "npu_index", "0");
	fake_write(dir, "backend", "sim");
	ck_assert_int_eq(npu_node_find(fake_sys, 0, &n), 0);
	snprintf(path, sizeof(path), "%s/backend", n.sysdir);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	ck_assert_str_eq(buf, "sim\n");
}
END_TEST

START_TEST(test_bad_index_is_not_an_npu)
{
	struct npu_node n[4];

	fake_npu("platform/a", "drm", "renderD128", "x");
	fake_npu("platform/b", "drm", "renderD129", "-1");
	fake_npu("platform/c", "drm", "renderD130", "70000");
	fake_npu("platform/d", "drm", "renderD131", "3 4");
	ck_assert_int_eq(npu_node_list(fake_sys, n, 4), 0);
}
END_TEST

/*
 * A list shorter than the NPUs keeps the lowest indices, in order,
 * wherever readdir() puts them: each rotation of the indices over the
 * same minors.
 */
START_TEST(test_short_list_keeps_the_lowest_indices)
{
	struct npu_node n[3];
	char bus[32], minor[32], idx[8];
	int r, i;

	for (r = 0; r < 5; r++) {
		fake_tree_remove();
		fake_tree_create("npu_node_ut");
		for (i = 0; i < 5; i++) {
			snprintf(bus, sizeof(bus), "platform/s.%d", i);
			snprintf(minor, sizeof(minor), "renderD%d", 128 + i);
			snprintf(idx, sizeof(idx), "%d", (i + r) % 5);
			fake_npu(bus, "drm", minor, idx);
		}
		ck_assert_int_eq(npu_node_list(fake_sys, n, 1), 1);
		ck_assert_int_eq(n[0].index, 0);
		ck_assert_int_eq(npu_node_list(fake_sys, n, 3), 3);
		for (i = 0; i < 3; i++)
			ck_assert_int_eq(n[i].index, i);
		ck_assert_int_eq(npu_node_list(fake_sys, n, 0), 0);
	}
}
END_TEST

static Suite *npu_node_suite(void)
{
	Suite *s = suite_create("npu_node");
	TCase *c = tcase_create("npu_node");

	tcase_add_checked_fixture(c, setup, teardown);
	tcase_add_test(c, test_no_drm_class_no_npu);
	tcase_add_test(c, test_render_and_accel_minors_in_index_order);
	tcase_add_test(c, test_sysdir_holds_the_bus_device_attributes);
	tcase_add_test(c, test_bad_index_is_not_an_npu);
	tcase_add_test(c, test_short_list_keeps_the_lowest_indices);
	suite_add_tcase(s, c);
	return s;
}

int main(void)
{
	return t_run_suite(npu_node_suite());
}
