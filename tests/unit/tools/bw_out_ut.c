// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tools/bw_out.c and bw_plot.c on a fake report: the
 * table, CSV and JSON carry the same records, n/a shows as such, JSON
 * is valid and the plot is well-formed SVG; with latency rows, each
 * format carries them after the bandwidth, and the plot a second panel
 * (alone with -t none).
 */
#include <math.h>

#include "t_check.h"
#include "fake_trace.h"
#include "bw.h"

static struct bw_opts fake_opts = { .tests = 0xf, .iterations = 3, .calls = 20 };
static struct bw_opts fake_lat_only = { .iterations = 3, .calls = 20, .latency = true };

/* Three rows of --latency, the null ioctl first. */
static struct bw_latency fake_lat[] = {
	{ "null ioctl", 2, 1 },
	{ "aclrtMemcpy H2D 64 B pinned", 20, 10 },
	{ "RecordEvent to SynchronizeEvent, idle", 3000, 1500 },
};

/* A fake run: H2D pinned at two sizes, P2P n/a, D2D skipped. */
static void fake_report(struct bw_report *rep, struct bw_result r[4])
{
	r[0] = (struct bw_result){ BW_H2D, BW_PINNED, 1024, 3, { 1.5, 1.25, 2 }, 3.0, BW_OK, "" };
	r[1] = (struct bw_result){ BW_H2D, BW_PINNED, 4096, 3, { 4, 3, 5 }, 8.0, BW_OK, "" };
	r[2] = (struct bw_result){ BW_P2P, BW_DEVICE, 1024, 3, { 0, 0, 0 }, 3.0, BW_NA,
				   "no peer, \"really\"" };
	r[3] = (struct bw_result){ BW_D2D, BW_DEVICE, 4096, 3, { 0, 0, 0 }, 8.0, BW_SKIPPED,
				   "time budget of 1 s spent" };
	*rep = (struct bw_report){ .o = &fake_opts, .device = 2, .peer = 3, .r = r, .nr = 4 };
	snprintf(rep->backend, sizeof(rep->backend), "sim");
	snprintf(rep->peer_backend, sizeof(rep->peer_backend), "sim");
}

/*
 * The fake report under options @o (none of its bandwidth records with
 * -t none) and the first @nr_lat rows of fake_lat, through @writer; the
 * text is malloc'ed.
 */
static char *render_lat(void (*writer)(FILE *, const struct bw_report *),
			const struct bw_opts *o, size_t nr_lat)
{
	struct bw_result r[4];
	struct bw_report rep;
	struct fake_out out;

	fake_report(&rep, r);
	rep.o = o;
	if (!o->tests)
		rep.nr = 0;
	rep.lat = fake_lat;
	rep.nr_lat = nr_lat;
	fake_out_open(&out);
	writer(out.f, &rep);
	fake_out_close(&out);
	return out.text;
}

/* The fake report through one writer; the text is malloc'ed. */
static char *render(void (*writer)(FILE *, const struct bw_report *))
{
	return render_lat(writer, &fake_opts, 0);
}

static void plot_writer(FILE *f, const struct bw_report *rep)
{
	ck_assert_int_eq(bw_write_plot(f, rep), 0);
}

START_TEST(test_bw_write_text_latency)
{
	struct fake_out o = { .text = render_lat(bw_write_text, &fake_opts, 3) };

	fake_assert_has(o.text, "4 KiB           4         3         5           8       0.5  ok\n");
	fake_assert_has(o.text, "spent\n\nacl-bandwidth: latency on device 2 (sim); median of 5 "
			"rounds of 20 calls; x null = over the null ioctl\n"
			"latency                                            us    x null\n"
			"null ioctl                                          2         1\n"
			"aclrtMemcpy H2D 64 B pinned                        20        10\n"
			"RecordEvent to SynchronizeEvent, idle            3000      1500\n");
	free(o.text);
	o.text = render_lat(bw_write_text, &fake_lat_only, 3);
	ck_assert_msg(!strncmp(o.text, "acl-bandwidth: latency on device 2", 34), "%s", o.text);
	fake_assert_lacks(o.text, "median GB/s");
	free(o.text);
}
END_TEST

START_TEST(test_bw_write_csv_latency)
{
	struct fake_out o = { .text = render_lat(bw_write_csv, &fake_opts, 3) };

	fake_assert_has(o.text, ",skipped,time budget of 1 s spent\n\nlatency,us,x_null\n"
			"null ioctl,2,1\naclrtMemcpy H2D 64 B pinned,20,10\n"
			"\"RecordEvent to SynchronizeEvent, idle\",3000,1500\n");
	free(o.text);
	o.text = render_lat(bw_write_csv, &fake_lat_only, 3);
	ck_assert_msg(!strncmp(o.text, "latency,us,x_null\n", 18), "%s", o.text);
	free(o.text);
}
END_TEST

START_TEST(test_bw_write_json_latency)
{
	struct fake_out o = { .text = render_lat(bw_write_json, &fake_opts, 3) };

	fake_assert_json(o.text);
	fake_assert_has(o.text, "\"latency\":{\n\"calls\":20,\n\"rounds\":5,");
	fake_assert_has(o.text, "{\"name\":\"aclrtMemcpy H2D 64 B pinned\",\"us\":20,"
			"\"x_null\":10}");
	fake_assert_has(o.text, "\"bytes\":4096");
	free(o.text);
	/* No latency rows, no "latency" key. */
	o.text = render(bw_write_json);
	fake_assert_lacks(o.text, "\"latency\"");
	free(o.text);
}
END_TEST

START_TEST(test_bw_write_plot_latency)
{
	struct fake_out o = { .text = render_lat(plot_writer, &fake_opts, 3) };

	fake_assert_xml(o.text);
	fake_assert_has(o.text, ">H2D pinned</text>");
	fake_assert_has(o.text, ">host memcpy</text>");
	fake_assert_has(o.text, ">latency, call to completion: device 2 (sim), median of 5 "
			"rounds of 20 calls</text>");
	fake_assert_has(o.text, ">RecordEvent to SynchronizeEvent, idle</text>");
	fake_assert_has(o.text, ">3000 us, 1500x</text>");
	fake_assert_has(o.text, ">20.0 us, 10.0x</text>");
	fake_assert_has(o.text, ">1000x</text>");
	free(o.text);
	/* -t none: the latency panel alone. */
	o.text = render_lat(plot_writer, &fake_lat_only, 3);
	fake_assert_xml(o.text);
	fake_assert_lacks(o.text, ">host memcpy</text>");
	fake_assert_has(o.text, ">2.00 us, 1.00x</text>");
	free(o.text);
}
END_TEST

START_TEST(test_bw_write_text)
{
	struct fake_out o = { .text = render(bw_write_text) };

	fake_assert_has(o.text, "acl-bandwidth: device 2 (sim), peer 3 (sim); 3 iterations");
	fake_assert_has(o.text, "H2D  pinned         4096    4 KiB           4         3"
			"         5           8       0.5  ok\n");
	fake_assert_has(o.text, "P2P  device         1024    1 KiB         n/a       n/a"
			"       n/a           3       n/a  n/a: no peer");
	fake_assert_has(o.text, "skipped: time budget");
	free(o.text);
}
END_TEST

START_TEST(test_bw_write_csv)
{
	struct fake_out o = { .text = render(bw_write_csv) };

	fake_assert_has(o.text, "test,memory,bytes,iterations,median_gbps,min_gbps,max_gbps,"
			"memcpy_gbps,ratio,status,note\n");
	fake_assert_has(o.text, "\nH2D,pinned,1024,3,1.5,1.25,2,3,0.5,ok,\n");
	fake_assert_has(o.text, "\nP2P,device,1024,3,,,,3,,n/a,\"no peer, \"\"really\"\"\"\n");
	free(o.text);
}
END_TEST

START_TEST(test_bw_write_json)
{
	struct fake_out o = { .text = render(bw_write_json) };

	fake_assert_json(o.text);
	fake_assert_has(o.text, "{\"test\":\"H2D\",\"memory\":\"pinned\",\"bytes\":4096,"
			"\"iterations\":3,\"median_gbps\":4,\"min_gbps\":3,\"max_gbps\":5,"
			"\"memcpy_gbps\":8,\"ratio\":0.5,\"status\":\"ok\",\"note\":null}");
	fake_assert_has(o.text, "\"median_gbps\":null");
	fake_assert_has(o.text, "\"peer_backend\":\"sim\"");
	free(o.text);
}
END_TEST

START_TEST(test_bw_write_plot)
{
	struct fake_out o = { .text = render(plot_writer) };

	fake_assert_xml(o.text);
	fake_assert_has(o.text, ">H2D pinned</text>");
	fake_assert_has(o.text, ">host memcpy</text>");
	fake_assert_lacks(o.text, ">P2P device</text>");
	fake_assert_has(o.text, ">4 KiB</text>");
	free(o.text);
}
END_TEST

START_TEST(test_bw_write_plot_no_results)
{
	struct bw_report rep = { .o = &fake_opts, .device = 0, .peer = -1 };
	struct fake_out o;

	fake_out_open(&o);
	ck_assert_int_eq(bw_write_plot(o.f, &rep), 0);
	fake_out_close(&o);
	fake_assert_xml(o.text);
	free(o.text);
}
END_TEST

/* python3 judges JSON and XML: slow to start on a loaded machine. */
static Suite *suite(void)
{
	Suite *s = suite_create("bw_out");
	TCase *tc = tcase_create("formats");

	tcase_add_test(tc, test_bw_write_text);
	tcase_add_test(tc, test_bw_write_csv);
	tcase_add_test(tc, test_bw_write_json);
	tcase_add_test(tc, test_bw_write_plot);
	tcase_add_test(tc, test_bw_write_plot_no_results);
	tcase_add_test(tc, test_bw_write_text_latency);
	tcase_add_test(tc, test_bw_write_csv_latency);
	tcase_add_test(tc, test_bw_write_json_latency);
	tcase_add_test(tc, test_bw_write_plot_latency);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(suite());
}
