// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tools/trace_parse.c: tracefs lines of the npu_dma
 * tracepoints into fields, other lines ignored, broken ones refused.
 */
#include <errno.h>

#include "t_check.h"
#include "fake_trace.h"
#include "trace_parse.h"

START_TEST(test_tr_parse_line_job_event)
{
	struct tr_event ev;

	ck_assert_int_eq(tr_parse_line("  kworker/u4:2-31      [001] .....   100.000250: "
				       "npu_dma_start: npu=2 queue=2 seq=7 op=1 flags=0x5 "
				       "bytes=1048576 chan=1 status=0\n", &ev), 1);
	ck_assert_int_eq(ev.kind, TR_START);
	ck_assert_double_eq_tol(ev.ts_us, 100000250.0, 0.01);
	ck_assert_str_eq(ev.comm, "kworker/u4:2");
	ck_assert_int_eq(ev.pid, 31);
	ck_assert_int_eq(ev.npu, 2);
	ck_assert_uint_eq(ev.queue, 2);
	ck_assert_uint_eq(ev.seq, 7);
	ck_assert_uint_eq(ev.op, 1);
	ck_assert_uint_eq(ev.flags, 5);
	ck_assert_uint_eq(ev.bytes, 1048576);
	ck_assert_int_eq(ev.chan, 1);
	ck_assert_int_eq(ev.status, 0);
	/* Recorded by a module without the peer field. */
	ck_assert_int_eq(ev.peer, -1);
}
END_TEST

START_TEST(test_tr_parse_line_peer_field)
{
	struct tr_event ev;

	ck_assert_int_eq(tr_parse_line("  k-3 [000] ..... 7.0: npu_dma_start: npu=2 queue=1 "
				       "seq=4 op=1 flags=0x0 bytes=4096 chan=0 status=0 peer=3",
				       &ev), 1);
	ck_assert_int_eq(ev.peer, 3);
	ck_assert_int_eq(ev.status, 0);
	ck_assert_int_eq(tr_parse_line("  k-3 [000] ..... 7.0: npu_dma_submit: npu=2 queue=1 "
				       "seq=5 op=1 flags=0x1 bytes=4096 chan=-1 status=0 peer=-1",
				       &ev), 1);
	ck_assert_int_eq(ev.peer, -1);
	ck_assert_int_eq(tr_parse_line("  k-3 [000] ..... 7.0: npu_dma_submit: npu=2 queue=1 "
				       "seq=5 op=1 flags=0x1 bytes=4096 chan=-1 status=0 peer=x",
				       &ev), -EINVAL);
}
END_TEST

START_TEST(test_tr_parse_line_negative_chan_and_status)
{
	struct tr_event ev;

	ck_assert_int_eq(tr_parse_line("  t-1 [000] ..... 1.5: npu_dma_error: npu=0 queue=1 "
				       "seq=3 op=1 flags=0x0 bytes=8 chan=-1 status=-14", &ev), 1);
	ck_assert_int_eq(ev.kind, TR_ERROR);
	ck_assert_int_eq(ev.chan, -1);
	ck_assert_int_eq(ev.status, -14);
}
END_TEST

START_TEST(test_tr_parse_line_pin_and_irq)
{
	struct tr_event ev;

	ck_assert_int_eq(tr_parse_line("   a b-c-9 [000] d..1. 2.000001: npu_dma_pin: npu=3 "
				       "addr=0x7f0000001000 len=8192 pages=2 longterm=1", &ev), 1);
	ck_assert_int_eq(ev.kind, TR_PIN);
	ck_assert_str_eq(ev.comm, "a b-c");
	ck_assert_int_eq(ev.pid, 9);
	ck_assert_uint_eq(ev.addr, 0x7f0000001000ULL);
	ck_assert_uint_eq(ev.len, 8192);
	ck_assert_uint_eq(ev.pages, 2);
	ck_assert_int_eq(ev.longterm, 1);
	ck_assert_int_eq(tr_parse_line("  <idle>-0 [001] d.h1. 3.0: npu_dma_irq: npu=0 "
				       "status=0x100", &ev), 1);
	ck_assert_int_eq(ev.kind, TR_IRQ);
	ck_assert_int_eq(ev.status, 0x100);
}
END_TEST

START_TEST(test_tr_parse_line_ignores_other_lines)
{
	struct tr_event ev;

	ck_assert_int_eq(tr_parse_line("# tracer: nop", &ev), 0);
	ck_assert_int_eq(tr_parse_line("", &ev), 0);
	ck_assert_int_eq(tr_parse_line("CPU:1 [LOST 12 EVENTS]", &ev), 0);
	ck_assert_int_eq(tr_parse_line("  x-1 [000] ..... 1.0: sched_switch: prev=npu_dma_start",
				       &ev), 0);
	ck_assert_int_eq(tr_parse_line("  x-1 [000] ..... 1.0: npu_dma_starter: npu=1", &ev), 0);
}
END_TEST

START_TEST(test_tr_parse_line_rejects_broken_fields)
{
	struct tr_event ev;

	ck_assert_int_eq(tr_parse_line("  x-1 [000] ..... 1.0: npu_dma_start: npu=1 queue=1",
				       &ev), -EINVAL);
	ck_assert_int_eq(tr_parse_line("  x-1 [000] ..... 1.0: npu_dma_start: npu=1 queue=x "
				       "seq=1 op=1 flags=0 bytes=1 chan=0 status=0", &ev), -EINVAL);
	ck_assert_int_eq(tr_parse_line("  x-1 [000] ..... 1.0: npu_dma_start: npu=1 queue=1 "
				       "seq=-1 op=1 flags=0 bytes=1 chan=0 status=0", &ev), -EINVAL);
	ck_assert_int_eq(tr_parse_line("garbage: npu_dma_irq: npu=0 status=1", &ev), -EINVAL);
}
END_TEST

START_TEST(test_tr_parse_line_whole_fake_recording)
{
	char *copy = strdup(fake_trace_text), *line, *save = NULL;
	int counts[TR_NR_KINDS] = { 0 };
	struct tr_event ev;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (tr_parse_line(line, &ev) == 1)
			counts[ev.kind]++;
	free(copy);
	ck_assert_int_eq(counts[TR_SUBMIT], 5);
	ck_assert_int_eq(counts[TR_START], 4);
	ck_assert_int_eq(counts[TR_COMPLETE], 5);
	ck_assert_int_eq(counts[TR_ERROR], 1);
	ck_assert_int_eq(counts[TR_PIN], 1);
	ck_assert_int_eq(counts[TR_UNPIN], 1);
	ck_assert_int_eq(counts[TR_IRQ], 1);
	ck_assert_str_eq(tr_kind_name(TR_UNPIN), "npu_dma_unpin");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("trace_parse");
	TCase *tc = tcase_create("tr_parse_line");

	tcase_add_test(tc, test_tr_parse_line_job_event);
	tcase_add_test(tc, test_tr_parse_line_peer_field);
	tcase_add_test(tc, test_tr_parse_line_negative_chan_and_status);
	tcase_add_test(tc, test_tr_parse_line_pin_and_irq);
	tcase_add_test(tc, test_tr_parse_line_ignores_other_lines);
	tcase_add_test(tc, test_tr_parse_line_rejects_broken_fields);
	tcase_add_test(tc, test_tr_parse_line_whole_fake_recording);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(suite());
}
