// SPDX-License-Identifier: GPL-2.0-only
/*
 * acl-bandwidth: the results as a table, CSV or JSON. Every format has
 * one record per measurement, with the same fields; the latencies of
 * --latency follow the bandwidth records as a second table (text, CSV)
 * or a "latency" object (JSON).
 */
#include <math.h>
#include <string.h>

#include "acl_latency.h"
#include "bw.h"
#include "trace_json.h"

static double ratio(const struct bw_result *r)
{
	return r->status == BW_OK && r->memcpy_gbps > 0 ?
	       r->gbps.median / r->memcpy_gbps : NAN;
}

static void peer_str(char *buf, size_t len, const struct bw_report *rep)
{
	if (rep->peer < 0)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%d (%s)", rep->peer,
			 rep->peer_backend[0] ? rep->peer_backend : "?");
}

/* A number column, or "n/a" when the measurement has no value. */
static void num(FILE *f, int width, double v)
{
	if (isfinite(v))
		fprintf(f, " %*.4g", width, v);
	else
		fprintf(f, " %*s", width, "n/a");
}

static void write_text_bw(FILE *f, const struct bw_report *rep)
{
	char size[32], peer[32];
	size_t i;

	peer_str(peer, sizeof(peer), rep);
	fprintf(f, BW_PROG ": device %d (%s), peer %s; %u iterations after 1 warm-up; "
		"GB/s = 10^9 bytes/s\n", rep->device,
		rep->backend[0] ? rep->backend : "?", peer, rep->o->iterations);
	fprintf(f, "%-4s %-8s %10s %8s %11s %9s %9s %11s %9s  %s\n", "test", "memory",
		"bytes", "size", "median GB/s", "min GB/s", "max GB/s", "memcpy GB/s",
		"ratio", "status");
	for (i = 0; i < rep->nr; i++) {
		const struct bw_result *r = &rep->r[i];
		int ok = r->status == BW_OK;

		bw_size_str(size, sizeof(size), r->bytes);
		fprintf(f, "%-4s %-8s %10llu %8s", bw_test_name(r->test),
			bw_mem_name(r->mem), (unsigned long long)r->bytes, size);
		num(f, 11, ok ? r->gbps.median : NAN);
		num(f, 9, ok ? r->gbps.min : NAN);
		num(f, 9, ok ? r->gbps.max : NAN);
		num(f, 11, r->memcpy_gbps > 0 ? r->memcpy_gbps : NAN);
		num(f, 9, ratio(r));
		fprintf(f, "  %s%s%s\n", bw_status_name(r->status),
			r->note[0] ? ": " : "", r->note);
	}
}

/* The latency table: a row per case, the null ioctl first. */
static void write_text_lat(FILE *f, const struct bw_report *rep)
{
	size_t i;

	fprintf(f, BW_PROG ": latency on device %d (%s); median of %d rounds of %u calls; "
		"x null = over the null ioctl\n", rep->device,
		rep->backend[0] ? rep->backend : "?", LAT_ROUNDS, rep->o->calls);
	fprintf(f, "%-42s %10s %9s\n", "latency", "us", "x null");
	for (i = 0; i < rep->nr_lat; i++) {
		fprintf(f, "%-42s", rep->lat[i].name);
		num(f, 10, rep->lat[i].us);
		num(f, 9, rep->lat[i].x_null);
		fputc('\n', f);
	}
}

typedef void (*writer_fn)(FILE *f, const struct bw_report *rep);

/*
 * The bandwidth records unless -t none, then the latency rows if any,
 * an empty line between the two tables.
 */
static void write_both(FILE *f, const struct bw_report *rep, writer_fn bw, writer_fn lat)
{
	if (rep->o->tests)
		bw(f, rep);
	if (rep->o->tests && rep->nr_lat)
		fputc('\n', f);
	if (rep->nr_lat)
		lat(f, rep);
}

void bw_write_text(FILE *f, const struct bw_report *rep)
{
	write_both(f, rep, write_text_bw, write_text_lat);
}

/* A CSV field: quoted, with quotes doubled, when it holds , " or newline. */
static void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.9g", v);
	else
		fputc(',', f);
}

static void write_csv_bw(FILE *f, const struct bw_report *rep)
{
	size_t i;

	fputs("test,memory,bytes,iterations,median_gbps,min_gbps,max_gbps,"
	      "memcpy_gbps,ratio,status,note\n", f);
	for (i = 0; i < rep->nr; i++) {
		const struct bw_result *r = &rep->r[i];
		int ok = r->status == BW_OK;

		fprintf(f, "%s,%s,%llu,%u", bw_test_name(r->test), bw_mem_name(r->mem),
			(unsigned long long)r->bytes, r->iterations);
		csv_num(f, ok ? r->gbps.median : NAN);
		csv_num(f, ok ? r->gbps.min : NAN);
		csv_num(f, ok ? r->gbps.max : NAN);
		csv_num(f, r->memcpy_gbps > 0 ? r->memcpy_gbps : NAN);
		csv_num(f, ratio(r));
		fprintf(f, ",%s,", bw_status_name(r->status));
		csv_str(f, r->note);
		fputc('\n', f);
	}
}

static void write_csv_lat(FILE *f, const struct bw_report *rep)
{
	size_t i;

	fputs("latency,us,x_null\n", f);
	for (i = 0; i < rep->nr_lat; i++) {
		csv_str(f, rep->lat[i].name);
		csv_num(f, rep->lat[i].us);
		csv_num(f, rep->lat[i].x_null);
		fputc('\n', f);
	}
}

/* With both, two CSV tables, each with its header. */
void bw_write_csv(FILE *f, const struct bw_report *rep)
{
	write_both(f, rep, write_csv_bw, write_csv_lat);
}

static void json_result(struct tj *j, const struct bw_result *r)
{
	int ok = r->status == BW_OK;

	tj_object(j, NULL);
	tj_str(j, "test", bw_test_name(r->test));
	tj_str(j, "memory", bw_mem_name(r->mem));
	tj_uint(j, "bytes", r->bytes);
	tj_uint(j, "iterations", r->iterations);
	tj_double(j, "median_gbps", ok ? r->gbps.median : NAN);
	tj_double(j, "min_gbps", ok ? r->gbps.min : NAN);
	tj_double(j, "max_gbps", ok ? r->gbps.max : NAN);
	tj_double(j, "memcpy_gbps", r->memcpy_gbps > 0 ? r->memcpy_gbps : NAN);
	tj_double(j, "ratio", ratio(r));
	tj_str(j, "status", bw_status_name(r->status));
	tj_str(j, "note", r->note[0] ? r->note : NULL);
	tj_end(j);
}

/* "latency": the run's parameters and one object per row. */
static void json_latency(struct tj *j, const struct bw_report *rep)
{
	size_t i;

	tj_object(j, "latency");
	tj_uint(j, "calls", rep->o->calls);
	tj_uint(j, "rounds", LAT_ROUNDS);
	tj_str(j, "unit", "us");
	tj_str(j, "statistic", "median of the rounds' means");
	tj_str(j, "reference", "null ioctl");
	tj_array(j, "results");
	for (i = 0; i < rep->nr_lat; i++) {
		tj_object(j, NULL);
		tj_str(j, "name", rep->lat[i].name);
		tj_double(j, "us", rep->lat[i].us);
		tj_double(j, "x_null", rep->lat[i].x_null);
		tj_end(j);
	}
	tj_end(j);
	tj_end(j);
}

void bw_write_json(FILE *f, const struct bw_report *rep)
{
	struct tj j;
	size_t i;

	tj_init(&j, f, 2);
	tj_object(&j, NULL);
	tj_str(&j, "tool", BW_PROG);
	tj_int(&j, "device", rep->device);
	tj_str(&j, "backend", rep->backend[0] ? rep->backend : NULL);
	if (rep->peer >= 0)
		tj_int(&j, "peer", rep->peer);
	else
		tj_null(&j, "peer");
	tj_str(&j, "peer_backend", rep->peer_backend[0] ? rep->peer_backend : NULL);
	tj_uint(&j, "iterations", rep->o->iterations);
	tj_uint(&j, "warmup", 1);
	tj_str(&j, "unit", "GB/s = 10^9 bytes/s");
	tj_str(&j, "statistic", "median");
	tj_array(&j, "results");
	for (i = 0; i < rep->nr; i++)
		json_result(&j, &rep->r[i]);
	tj_end(&j);
	if (rep->nr_lat)
		json_latency(&j, rep);
	tj_end(&j);
}
