// SPDX-License-Identifier: GPL-2.0-only
/*
 * acl-bandwidth: command line, sizes and names.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "acl_latency.h"
#include "bw.h"

static const char *const test_names[BW_NR_TESTS] = { "H2D", "D2H", "D2D", "P2P" };
static const char *const mem_names[BW_NR_MEMS] = { "pinned", "pageable", "device" };

const char *bw_test_name(enum bw_test t)
{
	return t < BW_NR_TESTS ? test_names[t] : "?";
}

const char *bw_mem_name(enum bw_mem m)
{
	return m < BW_NR_MEMS ? mem_names[m] : "?";
}

const char *bw_status_name(enum bw_status s)
{
	static const char *const names[] = { "ok", "n/a", "skipped", "failed" };

	return s <= BW_FAILED ? names[s] : "?";
}

void bw_size_str(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (u < 4 && bytes >= 1024 && !(bytes % 1024)) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)bytes, units[u]);
}

int bw_parse_size(const char *s, uint64_t *bytes)
{
	static const char *const suffix[] = { "", "K", "M", "G" };
	unsigned long long v;
	char *end;
	int i;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	for (i = 3; i > 0; i--) {
		size_t n = strlen(suffix[i]);

		if (!strncasecmp(end, suffix[i], n) &&
		    (!end[n] || !strcasecmp(end + n, "iB") || !strcasecmp(end + n, "B")))
			break;
	}
	if (!i && *end && strcasecmp(end, "B"))
		return -EINVAL;
	if (v > (UINT64_MAX >> (10 * i)))
		return -EINVAL;
	*bytes = (uint64_t)v << (10 * i);
	return *bytes ? 0 : -EINVAL;
}

void bw_usage(FILE *f)
{
	fprintf(f,
		"Usage: " BW_PROG " [OPTIONS]\n"
		"Measure H2D, D2H, D2D and P2P copy bandwidth through libacl, from pinned\n"
		"(aclrtMallocHost) and pageable (malloc) host memory, over a size sweep;\n"
		"with --latency also the latency of small copies, events and host\n"
		"functions.\n\n"
		"  -t, --test LIST        h2d,d2h,d2d,p2p or all (default all); none: no\n"
		"                         bandwidth, only --latency\n"
		"  -m, --memory LIST      pinned,pageable or all: host side of H2D/D2H (default all)\n"
		"  -d, --device N         device to measure (default 0)\n"
		"  -p, --peer N           peer device of P2P (default: the first other device\n"
		"                         libacl reports as a peer, else the next one)\n"
		"  -s, --size BYTES       one size instead of the sweep (suffixes K, M, G)\n"
		"      --min-size BYTES   sweep start (default 1K)\n"
		"      --max-size BYTES   sweep end (default 256M); sizes double\n"
		"  -i, --iterations N     timed copies per size, after one warm-up (default 5)\n"
		"  -b, --budget SECONDS   time per test and memory kind; larger sizes are\n"
		"                         skipped once it is spent, 0 for none (default 10)\n"
		"  -n, --no-verify        do not check the data after the copies\n"
		"  -c, --csv              CSV instead of the table\n"
		"  -j, --json             JSON instead of the table\n"
		"  -L, --latency          also measure latencies against a null ioctl (below)\n"
		"      --calls N          calls per round of each latency (default %d)\n"
		"  -P, --plot FILE.svg    also draw bandwidth against size, and with\n"
		"                         --latency a panel of the latencies\n"
		"  -h, --help             this text\n\n"
		"GB/s is 10^9 bytes per second. Pinned and device copies are timed with\n"
		"events around aclrtMemcpyAsync on a stream; pageable ones by the host\n"
		"clock around aclrtMemcpy. With both kinds of host memory, pinned and\n"
		"pageable take turns at each size. \"memcpy GB/s\" is host memcpy of the\n"
		"same size in this run, the median of %d samples, each a loop of copies\n"
		"timed as a whole, repeated until it took %g ms (at most %u copies a\n"
		"loop); \"ratio\" is the copy's median over it.\n\n"
		"--latency: from the call to its completion as the caller sees it:\n"
		"synchronous aclrtMemcpy H2D and D2H, aclrtMemcpyAsync H2D +\n"
		"aclrtSynchronizeStream, at 64 B, 4 KiB and 64 KiB, pinned and pageable;\n"
		"aclrtRecordEvent to aclrtSynchronizeEvent and aclrtLaunchHostFunc to\n"
		"the callback's run on an idle stream; the async copy, the event and the\n"
		"host function on an ACL_STREAM_FAST_SYNC stream; 1000 async 4 KiB\n"
		"copies in a row, per copy. Each is the median of %d rounds of the\n"
		"mean of --calls calls, in microseconds and as a multiple of the null\n"
		"ioctl (an unknown DRM command on the device's node) of the same run;\n"
		"the same measurement as bench/bench_latency.\n"
		"Exit status: 0 when every case ran or was n/a or skipped, 1 when a copy\n"
		"or libacl failed, 2 on a usage error.\n", BW_DEFAULT_CALLS,
		BW_MEMCPY_SAMPLES, BW_MEMCPY_MIN_S * 1e3, BW_MEMCPY_MAX_REPS, LAT_ROUNDS);
}

/*
 * A comma list of names; bit i set for names[i]; "all" sets every bit;
 * "none", where allowed and alone, none.
 */
static int parse_list(const char *arg, const char *const *names, int nr,
		      bool allow_none, unsigned int *bits)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	bool none = false;
	int i, ret = 0;

	*bits = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcasecmp(tok, "all")) {
			*bits |= (1U << nr) - 1;
			continue;
		}
		if (allow_none && !strcasecmp(tok, "none")) {
			none = true;
			continue;
		}
		for (i = 0; i < nr && strcasecmp(tok, names[i]); i++)
			;
		if (i == nr)
			ret = -EINVAL;
		else
			*bits |= 1U << i;
	}
	free(copy);
	if (none)
		return ret || *bits ? -EINVAL : 0;
	return ret || !*bits ? -EINVAL : 0;
}

static int parse_uint(const char *s, unsigned int max, unsigned int *v)
{
	unsigned long l;
	char *end;

	errno = 0;
	l = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || l > max)
		return -EINVAL;
	*v = (unsigned int)l;
	return 0;
}

static int parse_one(int c, const char *arg, struct bw_opts *o)
{
	unsigned int u;
	char *end;

	switch (c) {
	case 't': return parse_list(arg, test_names, BW_NR_TESTS, true, &o->tests);
	case 'm': return parse_list(arg, mem_names, 2, false, &o->mems);
	case 'd':
	case 'p':
		if (parse_uint(arg, 1023, &u))
			return -EINVAL;
		*(c == 'd' ? &o->device : &o->peer) = (int)u;
		return 0;
	case 's': return bw_parse_size(arg, &o->size);
	case 'S': return bw_parse_size(arg, &o->min_size);
	case 'M': return bw_parse_size(arg, &o->max_size);
	case 'i':
		return parse_uint(arg, 1000000, &o->iterations) || !o->iterations ?
		       -EINVAL : 0;
	case 'b':
		o->budget_s = strtod(arg, &end);
		return *end || end == arg || o->budget_s < 0 ? -EINVAL : 0;
	case 'n': o->verify = false; return 0;
	case 'c': o->format = BW_CSV; return 0;
	case 'j': o->format = BW_JSON; return 0;
	case 'P': o->plot = arg; return 0;
	case 'L': o->latency = true; return 0;
	case 'C': return parse_uint(arg, LAT_MAX_CALLS, &o->calls) || !o->calls ?
			 -EINVAL : 0;
	default: return -EINVAL;
	}
}

int bw_parse_opts(int argc, char **argv, struct bw_opts *o)
{
	static const struct option longs[] = {
		{ "test", required_argument, NULL, 't' },
		{ "memory", required_argument, NULL, 'm' },
		{ "device", required_argument, NULL, 'd' },
		{ "peer", required_argument, NULL, 'p' },
		{ "size", required_argument, NULL, 's' },
		{ "min-size", required_argument, NULL, 'S' },
		{ "max-size", required_argument, NULL, 'M' },
		{ "iterations", required_argument, NULL, 'i' },
		{ "budget", required_argument, NULL, 'b' },
		{ "no-verify", no_argument, NULL, 'n' },
		{ "csv", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "plot", required_argument, NULL, 'P' },
		{ "latency", no_argument, NULL, 'L' },
		{ "calls", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct bw_opts){ .tests = (1U << BW_NR_TESTS) - 1, .mems = 3,
			       .peer = -1, .min_size = BW_DEFAULT_MIN,
			       .max_size = BW_DEFAULT_MAX, .iterations = 5,
			       .budget_s = 10, .verify = true,
			       .calls = BW_DEFAULT_CALLS };
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:m:d:p:s:i:b:ncjP:Lh", longs, NULL)) != -1) {
		if (c == 'h') {
			bw_usage(stdout);
			return 1;
		}
		if (c == '?' || c == ':') {
			fprintf(stderr, BW_PROG ": %s option '%s'\n",
				c == ':' ? "missing value of" : "unknown",
				argv[optind - 1]);
			return 2;
		}
		if (parse_one(c, optarg, o)) {
			fprintf(stderr, BW_PROG ": bad value '%s' for %s\n", optarg,
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, BW_PROG ": unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (!o->tests && !o->latency) {
		fprintf(stderr, BW_PROG ": -t none measures nothing without --latency\n");
		return 2;
	}
	if (!o->size && o->min_size > o->max_size) {
		fprintf(stderr, BW_PROG ": --min-size is above --max-size\n");
		return 2;
	}
	return 0;
}

size_t bw_sizes(const struct bw_opts *o, uint64_t *sizes, size_t max)
{
	uint64_t s;
	size_t n = 0;

	if (o->size) {
		sizes[0] = o->size;
		return 1;
	}
	for (s = o->min_size; s <= o->max_size && n < max; s *= 2) {
		sizes[n++] = s;
		if (s > UINT64_MAX / 2)
			break;
	}
	return n;
}
