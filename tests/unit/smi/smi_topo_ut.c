// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tools/smi_topo.c: the link codes of the peer matrix, from
 * fake NPUs and made-up sysfs device paths.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "t_check.h"
#include "fake_smi.h"
#include "smi_topo.h"

#define ROOT0 "/sys/devices/pci0000:00"

START_TEST(test_smi_topo_pci_link_same_root_port_is_phb)
{
	ck_assert_str_eq(smi_topo_pci_link(ROOT0 "/0000:00:02.0",
					   ROOT0 "/0000:00:03.0"), "PHB");
}
END_TEST

START_TEST(test_smi_topo_pci_link_different_host_bridges_is_sys)
{
	ck_assert_str_eq(smi_topo_pci_link(ROOT0 "/0000:00:02.0",
					   "/sys/devices/pci0000:40/0000:40:01.0"),
			 "SYS");
	/* No host bridge in a path at all: nothing shared. */
	ck_assert_str_eq(smi_topo_pci_link("/sys/devices/platform/x",
					   ROOT0 "/0000:00:02.0"), "SYS");
}
END_TEST

START_TEST(test_smi_topo_pci_link_behind_one_bridge_is_pix)
{
	/* Two functions behind one bridge, then two ports of one switch. */
	ck_assert_str_eq(smi_topo_pci_link(ROOT0 "/0000:00:1c.0/0000:01:00.0",
					   ROOT0 "/0000:00:1c.0/0000:01:00.1"),
			 "PIX");
	ck_assert_str_eq(smi_topo_pci_link(
		ROOT0 "/0000:00:01.0/0000:01:00.0/0000:02:08.0/0000:03:00.0",
		ROOT0 "/0000:00:01.0/0000:01:00.0/0000:02:10.0/0000:04:00.0"),
		"PIX");
}
END_TEST

START_TEST(test_smi_topo_pci_link_nested_switches_is_pxb)
{
	ck_assert_str_eq(smi_topo_pci_link(
		ROOT0 "/0000:00:01.0/0000:01:00.0/0000:02:08.0/0000:03:00.0"
		"/0000:04:01.0/0000:05:00.0",
		ROOT0 "/0000:00:01.0/0000:01:00.0/0000:02:10.0/0000:06:00.0"),
		"PXB");
}
END_TEST

START_TEST(test_smi_topo_link_codes_of_fake_vm)
{
	struct smi_npu n[4];
	struct smi_system sys;

	fake_system_4(&sys, n);
	ck_assert_str_eq(smi_topo_link(&n[0], &n[0]), "X");
	ck_assert_str_eq(smi_topo_link(&n[0], &n[1]), "PHB");
	ck_assert_str_eq(smi_topo_link(&n[2], &n[3]), "SIM");
	ck_assert_str_eq(smi_topo_link(&n[0], &n[2]), "-");
	ck_assert_str_eq(smi_topo_link(&n[3], &n[1]), "-");
	/* A PCI NPU that is a peer of a simulated one. */
	n[0].peers |= 1ULL << 2;
	ck_assert_str_eq(smi_topo_link(&n[0], &n[2]), "SYS");
}
END_TEST

START_TEST(test_smi_topo_legend_covers_every_code)
{
	static const char *const codes[] = {
		"X", "PIX", "PXB", "PHB", "SYS", "SIM", "-"
	};
	unsigned int i;
	int k, found;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		found = 0;
		for (k = 0; smi_topo_legend[k].code; k++)
			found |= !strcmp(smi_topo_legend[k].code, codes[i]);
		ck_assert_msg(found, "no legend for %s", codes[i]);
	}
}
END_TEST

START_TEST(test_smi_topo_text_matrix)
{
	struct smi_npu n[4];
	struct smi_system sys;
	struct fake_out o;
	const char *text;

	fake_system_4(&sys, n);
	snprintf(n[0].cpu_affinity, sizeof(n[0].cpu_affinity), "0-1");
	n[1].numa_node = 0;
	fake_out_open(&o);
	smi_topo_text(&sys, -1, o.f);
	text = fake_out_close(&o);
	ck_assert_ptr_nonnull(strstr(text,
		"      NPU0  NPU1  NPU2  NPU3  CPU Affinity    NUMA Affinity\n"
		"NPU0  X     PHB   -     -     0-1             -\n"
		"NPU1  PHB   X     -     -     -               0\n"
		"NPU2  -     -     X     SIM   -               -\n"
		"NPU3  -     -     SIM   X     -               -\n"
		"\nLegend:\n"));
	free(o.text);
}
END_TEST

START_TEST(test_smi_topo_json_one_row_is_valid)
{
	struct smi_npu n[4];
	struct smi_system sys;
	struct fake_out o;
	const char *text;

	fake_system_4(&sys, n);
	fake_out_open(&o);
	smi_topo_json(&sys, 2, o.f);
	text = fake_out_close(&o);
	fake_assert_has(text, "\"npu\": 2");
	fake_assert_lacks(text, "\"npu\": 0");
	fake_assert_has(text, "\"X\",\n        \"SIM\"\n");
	fake_assert_json(text);
	free(o.text);
}
END_TEST

static Suite *smi_topo_suite(void)
{
	Suite *s = suite_create("smi_topo");
	TCase *pci = tcase_create("smi_topo_pci_link");
	TCase *link = tcase_create("smi_topo_link");
	TCase *out = tcase_create("smi_topo_output");

	tcase_add_test(pci, test_smi_topo_pci_link_same_root_port_is_phb);
	tcase_add_test(pci, test_smi_topo_pci_link_different_host_bridges_is_sys);
	tcase_add_test(pci, test_smi_topo_pci_link_behind_one_bridge_is_pix);
	tcase_add_test(pci, test_smi_topo_pci_link_nested_switches_is_pxb);
	tcase_add_test(link, test_smi_topo_link_codes_of_fake_vm);
	tcase_add_test(link, test_smi_topo_legend_covers_every_code);
	tcase_add_test(out, test_smi_topo_text_matrix);
	tcase_add_test(out, test_smi_topo_json_one_row_is_valid);
	suite_add_tcase(s, pci);
	suite_add_tcase(s, link);
	suite_add_tcase(s, out);
	return s;
}

int main(void)
{
	return t_run_suite(smi_topo_suite());
}
