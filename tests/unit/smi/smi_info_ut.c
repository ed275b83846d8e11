// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tools/smi_info.c: the NPU and process tables of fake
 * NPUs, as text and as JSON.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "t_check.h"
#include "fake_smi.h"
#include "smi_info.h"

static struct smi_npu fake_npus[4];
static struct smi_proc fake_procs[2];
static struct smi_system fake_sys;

/* The fake VM, with PCI names on the edu NPUs and a user on NPU 3. */
static void setup(void)
{
	int i;

	fake_system_4(&fake_sys, fake_npus);
	for (i = 0; i < 2; i++) {
		struct smi_pci *p = &fake_npus[i].pci;

		p->found = 1;
		p->vendor_id = 0x1234;
		p->device_id = 0x11e8;
		snprintf(p->vendor, sizeof(p->vendor), "QEMU");
		snprintf(p->device, sizeof(p->device), "edu");
	}
	snprintf(fake_npus[1].pci.link_speed, sizeof(fake_npus[1].pci.link_speed),
		 "8GT/s");
	fake_npus[1].pci.link_width = 4;
	fake_npus[1].numa_node = 1;
	fake_npus[3].mem_size = 1ULL << 30;
	fake_npus[3].mem_used = 4096;
	fake_npus[3].queues = 2;
	fake_npus[3].dma_channels = 4;
	snprintf(fake_npus[3].node, sizeof(fake_npus[3].node), "/dev/dri/renderD131");
	/* One process whose fdinfo was read, one of another user's. */
	fake_procs[0] = (struct smi_proc){
		.npu = 3, .pid = 4242, .has_usage = 1, .files = 2,
		.mem_device = (3 << 20) + 1, .mem_host = 8192,
		.engine_ns = 12345678,
	};
	snprintf(fake_procs[0].name, sizeof(fake_procs[0].name), "t\x01\xff");
	snprintf(fake_procs[0].user, sizeof(fake_procs[0].user), "nobody");
	fake_procs[1] = (struct smi_proc){ .npu = 3, .pid = 5000 };
	snprintf(fake_procs[1].name, sizeof(fake_procs[1].name), "other");
	snprintf(fake_procs[1].user, sizeof(fake_procs[1].user), "alice");
	fake_sys.nr_procs = 2;
	fake_sys.procs = fake_procs;
}

static const char *info_text(int index, struct fake_out *o)
{
	fake_out_open(o);
	ck_assert_int_eq(smi_info_text(&fake_sys, index, o->f), 0);
	return fake_out_close(o);
}

START_TEST(test_smi_mib_up_rounds_up)
{
	ck_assert_uint_eq(smi_mib_up(0), 0);
	ck_assert_uint_eq(smi_mib_up(1), 1);
	ck_assert_uint_eq(smi_mib_up(1 << 20), 1);
	ck_assert_uint_eq(smi_mib_up((1 << 20) + 1), 2);
	ck_assert_uint_eq(smi_mib_up(16ULL << 30), 16384);
}
END_TEST

START_TEST(test_smi_info_text_two_lines_per_npu)
{
	struct fake_out o;
	const char *t = info_text(-1, &o);

	fake_assert_has(t, "| NPU   Backend ");
	fake_assert_has(t, "| 0     edu ");
	fake_assert_has(t, "| QEMU edu ");
	fake_assert_has(t, "| 0000:00:03.0 | ");
	fake_assert_has(t, "| 8GT/s x4     | 1 ");
	fake_assert_has(t, "| simulated (npu_dma_sim.1) | -");
	fake_assert_has(t, "| 1    / 1024          4 ");
	fake_assert_has(t, "| 3   | 4242       | t\x01\xff");
	fake_assert_lacks(t, "No running processes found");
	free(o.text);
}
END_TEST

START_TEST(test_smi_info_text_process_usage)
{
	struct fake_out o;
	const char *t = info_text(3, &o);

	fake_assert_has(t, "| Memory-Usage(MiB) | DMA-Time(ms) |");
	/* 3 MiB + 1 byte rounds up; 12345678 ns. */
	fake_assert_has(t, "| nobody | 4                 | 12.3         |");
	fake_assert_has(t, "| 5000       | other        | alice  | -                 | -            |");
	free(o.text);
}
END_TEST

START_TEST(test_smi_info_text_lines_have_one_width)
{
	struct fake_out o;
	const char *t = info_text(-1, &o), *line = t;
	int width = -1, n = 0;

	/* Each of the two boxes has straight sides. */
	while (*line) {
		const char *nl = strchr(line, '\n');
		int len = (int)(nl - line);

		if (!len)
			width = -1;
		else if (width < 0)
			width = len;
		else
			ck_assert_msg(len == width, "line %d: %d != %d", n, len,
				      width);
		line = nl + 1;
		n++;
	}
	free(o.text);
}
END_TEST

START_TEST(test_smi_info_text_one_npu_without_processes)
{
	struct fake_out o;
	const char *t = info_text(1, &o);

	fake_assert_has(t, "| 1     edu ");
	fake_assert_lacks(t, "| 0     edu ");
	fake_assert_lacks(t, "sim ");
	fake_assert_has(t, "No running processes found");
	free(o.text);
}
END_TEST

START_TEST(test_smi_info_json_is_valid_and_complete)
{
	struct fake_out o;
	const char *t;

	fake_out_open(&o);
	smi_info_json(&fake_sys, -1, o.f);
	t = fake_out_close(&o);
	fake_assert_json(t);
	fake_assert_has(t, "\"vendor_id\": \"0x1234\"");
	fake_assert_has(t, "\"link_speed\": \"8GT/s\"");
	fake_assert_has(t, "\"link_width\": 4");
	fake_assert_has(t, "\"pci\": null");
	fake_assert_has(t, "\"used_bytes\": 4096");
	fake_assert_has(t, "\"name\": \"t\\u0001\\ufffd\"");
	fake_assert_has(t, "\"pid\": 4242");
	fake_assert_has(t, "\"node\": \"/dev/dri/renderD131\"");
	fake_assert_has(t, "\"files\": 2");
	fake_assert_has(t, "\"device_memory_bytes\": 3145729");
	fake_assert_has(t, "\"host_memory_bytes\": 8192");
	fake_assert_has(t, "\"dma_time_ns\": 12345678");
	fake_assert_has(t, "\"dma_time_ns\": null");
	fake_assert_has(t, "\"pids\": [\n        4242,\n        5000\n      ]");
	free(o.text);
}
END_TEST

static Suite *smi_info_suite(void)
{
	Suite *s = suite_create("smi_info");
	TCase *m = tcase_create("smi_mib_up");
	TCase *tc = tcase_create("smi_info");

	tcase_add_test(m, test_smi_mib_up_rounds_up);
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_smi_info_text_two_lines_per_npu);
	tcase_add_test(tc, test_smi_info_text_process_usage);
	tcase_add_test(tc, test_smi_info_text_lines_have_one_width);
	tcase_add_test(tc, test_smi_info_text_one_npu_without_processes);
	tcase_add_test(tc, test_smi_info_json_is_valid_and_complete);
	suite_add_tcase(s, m);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(smi_info_suite());
}
