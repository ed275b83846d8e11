// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tools/trace_model.c, trace_chrome.c and trace_timeline.c:
 * the fake recording becomes slices on the right tracks, valid Chrome
 * trace JSON and well-formed SVG.
 */
#include "t_check.h"
#include "fake_trace.h"
#include "trace_out.h"

/* The model of the fake recording, finished. */
static void fake_model(struct tr_model *m)
{
	char *copy = strdup(fake_trace_text), *line, *save = NULL;
	struct tr_event ev;

	tr_model_init(m);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (tr_parse_line(line, &ev) == 1)
			ck_assert_int_eq(tr_model_add(m, &ev), 0);
	free(copy);
	ck_assert_int_eq(tr_model_finish(m), 0);
	snprintf(m->backend[2], sizeof(m->backend[2]), "sim");
}

START_TEST(test_tr_model_pairs_start_and_complete)
{
	struct tr_model m;
	const struct tr_slice *s;

	fake_model(&m);
	ck_assert_uint_eq(m.nr_slices, 4);
	ck_assert_uint_eq(m.nr_events, 18);
	ck_assert_uint_eq(m.nr_irqs, 1);
	ck_assert_uint_eq(m.nr_unmatched, 0);
	s = &m.slices[0];	/* sorted by start */
	ck_assert_int_eq(s->npu, 2);
	ck_assert_uint_eq(s->queue, 1);
	ck_assert_int_eq(s->chan, 0);
	ck_assert_uint_eq(s->bytes, 1048576);
	ck_assert_double_eq_tol(s->end_us - s->start_us, 1000, 0.01);
	ck_assert_double_eq_tol(s->start_us - s->submit_us, 100, 0.01);
	ck_assert_int_eq(s->peer, -1);
	ck_assert_str_eq(tr_direction(s->flags, s->peer), "H2D");
	ck_assert_int_eq(m.slices[1].chan, 1);
	ck_assert_str_eq(tr_direction(m.slices[3].flags, m.slices[3].peer), "D2H");
	ck_assert_str_eq(tr_direction(0, -1), "D2D");
	tr_model_free(&m);
}
END_TEST

START_TEST(test_tr_model_instants_for_pins_and_unstarted_errors)
{
	struct tr_model m;

	fake_model(&m);
	ck_assert_uint_eq(m.nr_instants, 3);
	ck_assert_int_eq(m.instants[0].ev.kind, TR_PIN);
	ck_assert_int_eq(m.instants[1].ev.kind, TR_UNPIN);
	ck_assert_int_eq(m.instants[2].ev.kind, TR_ERROR);
	ck_assert_int_eq(m.instants[2].ev.status, -14);
	tr_model_free(&m);
}
END_TEST

START_TEST(test_tr_model_overlap_in_one_queue_takes_lanes)
{
	struct tr_event ev = { .npu = 1, .queue = 3, .op = 1, .peer = -1 };
	struct tr_model m;
	int i;

	tr_model_init(&m);
	/* Three batch members of one queue run at once; a fourth after. */
	for (i = 1; i <= 4; i++) {
		ev.seq = (uint64_t)i;
		ev.kind = TR_SUBMIT;
		ev.ts_us = 0;
		ck_assert_int_eq(tr_model_add(&m, &ev), 0);
		ev.kind = TR_START;
		ev.chan = i - 1;
		ev.ts_us = i == 4 ? 50 : i;
		ck_assert_int_eq(tr_model_add(&m, &ev), 0);
	}
	for (i = 1; i <= 4; i++) {
		ev.seq = (uint64_t)i;
		ev.kind = TR_COMPLETE;
		ev.ts_us = i == 4 ? 60 : 40;
		ck_assert_int_eq(tr_model_add(&m, &ev), 0);
	}
	ck_assert_int_eq(tr_model_finish(&m), 0);
	ck_assert_int_eq(m.slices[0].lane, 0);
	ck_assert_int_eq(m.slices[1].lane, 1);
	ck_assert_int_eq(m.slices[2].lane, 2);
	ck_assert_int_eq(m.slices[3].lane, 0);
	tr_model_free(&m);
}
END_TEST

START_TEST(test_tr_model_tracks_in_order)
{
	struct tr_track *t;
	struct tr_model m;
	char name[64];
	size_t nr;

	fake_model(&m);
	ck_assert_int_eq(tr_model_tracks(&m, &t, &nr), 0);
	/* NPU 0: queue 4, channel 0; NPU 2: queues 1 2, channels 0 1, host. */
	ck_assert_uint_eq(nr, 7);
	ck_assert_int_eq(t[0].npu, 0);
	ck_assert_int_eq(t[0].kind, TR_TRACK_QUEUE);
	ck_assert_int_eq(t[1].kind, TR_TRACK_CHANNEL);
	ck_assert_int_eq(t[2].npu, 2);
	ck_assert_uint_eq(t[3].id, 2);
	ck_assert_int_eq(t[6].kind, TR_TRACK_HOST);
	tr_track_name(&t[5], name, sizeof(name));
	ck_assert_str_eq(name, "DMA channel 1");
	ck_assert_int_eq(tr_track_tid(&t[5]), TR_TID_CHANNEL + 1);
	tr_npu_name(&m, 2, name, sizeof(name));
	ck_assert_str_eq(name, "NPU 2 (sim)");
	tr_npu_name(&m, 0, name, sizeof(name));
	ck_assert_str_eq(name, "NPU 0");
	free(t);
	tr_model_free(&m);
}
END_TEST

/* The model through one writer with a command line; malloc'ed text. */
static char *render(const struct tr_model *m, const char *command,
		    int (*writer)(FILE *, const struct tr_model *, const char *))
{
	struct fake_out o;

	fake_out_open(&o);
	ck_assert_int_eq(writer(o.f, m, command), 0);
	return (char *)fake_out_close(&o);
}

START_TEST(test_tr_write_chrome_valid_with_slices)
{
	struct fake_out o;
	struct tr_model m;

	fake_model(&m);
	o.text = render(&m, "npu-demo \"x\"", tr_write_chrome);
	fake_assert_json(o.text);
	fake_assert_has(o.text, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":3,"
			"\"args\":{\"name\":\"NPU 2 (sim)\"}}");
	fake_assert_has(o.text, "\"name\":\"thread_name\",\"pid\":3,\"tid\":1000001,"
			"\"args\":{\"name\":\"DMA channel 1\"}");
	/* Queue 1's first copy: ts from the first event, 1 ms long. */
	fake_assert_has(o.text, "{\"ph\":\"X\",\"name\":\"H2D 1048576 B\",\"cat\":\"copy\","
			"\"pid\":3,\"tid\":9,\"ts\":100,\"dur\":1000,\"args\":{\"size\":1048576,"
			"\"direction\":\"H2D\"");
	fake_assert_has(o.text, "\"name\":\"D2H 2048 B\"");
	fake_assert_has(o.text, "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"pin\"");
	fake_assert_has(o.text, "\"command\":\"npu-demo \\\"x\\\"\"");
	free(o.text);
	tr_model_free(&m);
}
END_TEST

START_TEST(test_tr_write_svg_well_formed)
{
	struct fake_out o;
	struct tr_model m;

	fake_model(&m);
	o.text = render(&m, "a <b> & 'c'", tr_write_svg);
	fake_assert_xml(o.text);
	fake_assert_has(o.text, "npu-trace: a &lt;b&gt; &amp; &apos;c&apos;");
	fake_assert_has(o.text, ">NPU 2 (sim)</text>");
	fake_assert_has(o.text, ">DMA channel 1</text>");
	fake_assert_has(o.text, "<title>H2D copy 1 MiB: 1048576 bytes");
	free(o.text);
	tr_model_free(&m);
}
END_TEST

/* NPU 2 copies 4 KiB device to device into NPU 3's memory. */
static const char p2p_trace_text[] =
	"  t-7 [000] ..... 5.000010: npu_dma_submit: npu=2 queue=1 seq=1 op=1 flags=0x0 bytes=4096 chan=-1 status=0 peer=3\n"
	"  k-8 [001] ..... 5.000020: npu_dma_start: npu=2 queue=1 seq=1 op=1 flags=0x0 bytes=4096 chan=0 status=0 peer=3\n"
	"  k-8 [001] ..... 5.000050: npu_dma_complete: npu=2 queue=1 seq=1 op=1 flags=0x0 bytes=4096 chan=0 status=0 peer=3\n";

START_TEST(test_tr_peer_copy_is_p2p)
{
	char *copy = strdup(p2p_trace_text), *line, *save = NULL;
	struct tr_event ev;
	struct fake_out o;
	struct tr_model m;

	tr_model_init(&m);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		ck_assert_int_eq(tr_parse_line(line, &ev), 1);
		ck_assert_int_eq(tr_model_add(&m, &ev), 0);
	}
	free(copy);
	ck_assert_int_eq(tr_model_finish(&m), 0);
	ck_assert_uint_eq(m.nr_slices, 1);
	ck_assert_int_eq(m.slices[0].peer, 3);
	ck_assert_str_eq(tr_direction(m.slices[0].flags, m.slices[0].peer), "P2P");
	o.text = render(&m, "p2p", tr_write_chrome);
	fake_assert_json(o.text);
	fake_assert_has(o.text, "\"name\":\"P2P 4096 B\"");
	fake_assert_has(o.text, "\"direction\":\"P2P\",\"peer\":3,");
	free(o.text);
	o.text = render(&m, "p2p", tr_write_svg);
	fake_assert_xml(o.text);
	fake_assert_has(o.text, "<title>P2P copy 4 KiB: 4096 bytes");
	free(o.text);
	tr_model_free(&m);
}
END_TEST

START_TEST(test_tr_write_empty_model)
{
	struct fake_out o;
	struct tr_model m;

	tr_model_init(&m);
	ck_assert_int_eq(tr_model_finish(&m), 0);
	o.text = render(&m, NULL, tr_write_chrome);
	fake_assert_json(o.text);
	free(o.text);
	o.text = render(&m, NULL, tr_write_svg);
	fake_assert_xml(o.text);
	fake_assert_has(o.text, "no copies recorded");
	free(o.text);
}
END_TEST

/* python3 judges JSON and XML: slow to start on a loaded machine. */
static Suite *suite(void)
{
	Suite *s = suite_create("trace_model");
	TCase *model = tcase_create("model"), *out = tcase_create("output");

	tcase_add_test(model, test_tr_model_pairs_start_and_complete);
	tcase_add_test(model, test_tr_model_instants_for_pins_and_unstarted_errors);
	tcase_add_test(model, test_tr_model_overlap_in_one_queue_takes_lanes);
	tcase_add_test(model, test_tr_model_tracks_in_order);
	tcase_add_test(out, test_tr_write_chrome_valid_with_slices);
	tcase_add_test(out, test_tr_write_svg_well_formed);
	tcase_add_test(out, test_tr_peer_copy_is_p2p);
	tcase_add_test(out, test_tr_write_empty_model);
	tcase_set_timeout(model, 120);
	suite_add_tcase(s, model);
	tcase_set_timeout(out, 120);
	suite_add_tcase(s, out);
	return s;
}

int main(void)
{
	return t_run_suite(suite());
}
