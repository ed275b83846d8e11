// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the pure parts of tools/smi_pci.c: link speed codes,
 * sysfs speed strings, names for IDs pci.ids lacks.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "t_check.h"
#include "fake_smi.h"
#include "smi_pci.h"

START_TEST(test_smi_pci_speed_name_codes)
{
	ck_assert_str_eq(smi_pci_speed_name(1), "2.5GT/s");
	ck_assert_str_eq(smi_pci_speed_name(3), "8GT/s");
	ck_assert_str_eq(smi_pci_speed_name(6), "64GT/s");
	ck_assert_ptr_null(smi_pci_speed_name(0));
	ck_assert_ptr_null(smi_pci_speed_name(7));
	ck_assert_ptr_null(smi_pci_speed_name(0xf));
}
END_TEST

START_TEST(test_smi_pci_sysfs_speed_strings)
{
	char out[16];

	ck_assert_int_eq(smi_pci_sysfs_speed("8.0 GT/s PCIe\n", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "8.0GT/s");
	ck_assert_int_eq(smi_pci_sysfs_speed("2.5 GT/s\n", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "2.5GT/s");
	ck_assert_int_eq(smi_pci_sysfs_speed("Unknown\n", out, sizeof(out)), -EINVAL);
	ck_assert_int_eq(smi_pci_sysfs_speed("8.0 MB/s", out, sizeof(out)), -EINVAL);
	ck_assert_int_eq(smi_pci_sysfs_speed("0 GT/s", out, sizeof(out)), -EINVAL);
}
END_TEST

START_TEST(test_smi_pci_fallback_names_qemu_only)
{
	struct smi_pci p = { .vendor_id = 0x1234, .device_id = 0x11e8 };

	ck_assert_int_eq(smi_pci_fallback_names(&p), 1);
	ck_assert_str_eq(p.vendor, "QEMU");
	ck_assert_str_eq(p.device, "edu");
	p.device_id = 0x1111;
	ck_assert_int_eq(smi_pci_fallback_names(&p), 1);
	ck_assert_str_eq(p.device, "Device 1111");
	p = (struct smi_pci){ .vendor_id = 0x8086, .device_id = 0x1234 };
	ck_assert_int_eq(smi_pci_fallback_names(&p), 0);
	ck_assert_str_eq(p.vendor, "");
}
END_TEST

static Suite *smi_pci_suite(void)
{
	Suite *s = suite_create("smi_pci");
	TCase *tc = tcase_create("smi_pci");

	tcase_add_test(tc, test_smi_pci_speed_name_codes);
	tcase_add_test(tc, test_smi_pci_sysfs_speed_strings);
	tcase_add_test(tc, test_smi_pci_fallback_names_qemu_only);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(smi_pci_suite());
}
