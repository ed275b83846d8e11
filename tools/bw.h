/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * acl-bandwidth: measure copy bandwidth through libacl.
 *
 * Cases are a test (H2D, D2H, D2D, P2P) and the memory kind of its host
 * side (pinned from aclrtMallocHost, or pageable from malloc; D2D and P2P
 * have none: "device"), each over a list of sizes. Each result is the
 * median, min and max of the iterations' GB/s (10^9 bytes per second),
 * next to host memcpy of the same size measured in the same run.
 */
#ifndef BW_H
#define BW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BW_PROG "acl-bandwidth"
#define BW_MAX_SIZES 64
#define BW_DEFAULT_MIN (1ULL << 10)
#define BW_DEFAULT_MAX (256ULL << 20)
/*
 * Host memcpy reference: the median of SAMPLES, each a loop of copies of
 * at least MIN_S; short, so that few samples span the host descheduling
 * the vCPU (2 ms samples, 5 of them, still moved by 3x under load).
 */
#define BW_MEMCPY_SAMPLES 9
#define BW_MEMCPY_MIN_S 0.0005
#define BW_MEMCPY_MAX_REPS (1U << 20)
#define BW_DEFAULT_CALLS 200

enum bw_test { BW_H2D, BW_D2H, BW_D2D, BW_P2P, BW_NR_TESTS };
enum bw_mem { BW_PINNED, BW_PAGEABLE, BW_DEVICE, BW_NR_MEMS };
enum bw_format { BW_TEXT, BW_CSV, BW_JSON };

/* What a result came to. */
enum bw_status {
	BW_OK,
	BW_NA,		/* not supported here (P2P without peer access) */
	BW_SKIPPED,	/* the case's time budget ran out before this size */
	BW_FAILED,	/* a copy failed or the data was wrong */
};

struct bw_opts {
	unsigned int tests;	/* bit per enum bw_test; 0 with -t none */
	unsigned int mems;	/* bits BW_PINNED, BW_PAGEABLE */
	int device;
	int peer;		/* -1: pick one */
	uint64_t size;		/* fixed size, 0 for the sweep */
	uint64_t min_size, max_size;
	unsigned int iterations;
	double budget_s;	/* per case; 0 for no limit */
	bool verify;
	enum bw_format format;
	const char *plot;	/* SVG file, or NULL */
	bool latency;		/* --latency: the latency table too */
	unsigned int calls;	/* calls per round of each latency row */
};

struct bw_stats {
	double median, min, max;
};

struct bw_result {
	enum bw_test test;
	enum bw_mem mem;
	uint64_t bytes;
	unsigned int iterations;
	struct bw_stats gbps;
	double memcpy_gbps;	/* host memcpy median of the same size */
	enum bw_status status;
	char note[160];		/* why, when not BW_OK */
};

/* One row of the latency table (tools/acl_latency.h). */
struct bw_latency {
	const char *name;
	double us;		/* microseconds per call, median of the rounds */
	double x_null;		/* us over the null ioctl's; 1 for that row */
};

struct bw_report {
	const struct bw_opts *o;
	int device, peer;	/* peer -1 when there is none */
	char backend[16], peer_backend[16];
	struct bw_result *r;
	size_t nr;
	struct bw_latency *lat;	/* --latency: nr_lat rows, the null ioctl first */
	size_t nr_lat;
};

/* bw_opts.c */
/* "4096", "4K", "4KiB", "1M", "256MiB", "1G": bytes. Return 0 or -EINVAL. */
int bw_parse_size(const char *s, uint64_t *bytes);
/* Return: 0 to run, 1 when --help was printed, 2 on a usage error. */
int bw_parse_opts(int argc, char **argv, struct bw_opts *o);
void bw_usage(FILE *f);
/* The sizes to run (powers of two from min to max, or the fixed one). */
size_t bw_sizes(const struct bw_opts *o, uint64_t *sizes, size_t max);
const char *bw_test_name(enum bw_test t);
const char *bw_mem_name(enum bw_mem m);
const char *bw_status_name(enum bw_status s);
/* "1 KiB", "256 MiB", "1536 B". */
void bw_size_str(char *buf, size_t len, uint64_t bytes);

/* bw_stats.c */
/* Median (mean of the middle two when n is even), min, max; n > 0. */
void bw_stats(const double *v, size_t n, struct bw_stats *st);
/* 10^9 bytes per second; 0 when seconds is not positive. */
double bw_gbps(uint64_t bytes, double seconds);

/* bw_out.c */
void bw_write_text(FILE *f, const struct bw_report *rep);
void bw_write_csv(FILE *f, const struct bw_report *rep);
void bw_write_json(FILE *f, const struct bw_report *rep);

/*
 * bw_plot.c: bandwidth against size (log x), a line per test and memory;
 * with latency rows, a second panel of bars (x null ioctl, log scale).
 */
int bw_write_plot(FILE *f, const struct bw_report *rep);

/*
 * bw_run.c: measure every case, then with --latency the latency rows.
 * Return 0, or -1 when libacl failed.
 */
int bw_run(struct bw_report *rep);
/* bw_latency.c: the latency rows into rep->lat. Return 0 or -1. */
int bw_run_latency(struct bw_report *rep);

#endif /* BW_H */
