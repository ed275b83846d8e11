// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-smi: the command line, modelled on CANN's npu-smi ("npu-smi info
 * -t topo -i 0") with -j for JSON. Parsing is kept apart from main() so
 * the unit tests can run it on any argv.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smi.h"
#include "smi_opts.h"

enum { OPT_VERSION = 0x100 };

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, 'j' },
	{ "type", required_argument, NULL, 't' },
	{ "id", required_argument, NULL, 'i' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

void smi_usage(FILE *f)
{
	fputs("Usage: npu-smi [info] [-t topo] [-i N] [-j]\n"
	      "       npu-smi -h | --help\n"
	      "       npu-smi --version\n"
	      "\n"
	      "Show the NPUs of the npu_dma driver and the processes using them.\n"
	      "Reads sysfs, /proc (the DRM usage stats in fdinfo) and PCI configuration\n"
	      "through libpci; no root needed, but without it the memory and DMA time\n"
	      "of other users' processes show as -.\n"
	      "\n"
	      "Commands:\n"
	      "  info               the NPU table and the process table (default)\n"
	      "\n"
	      "Options:\n"
	      "  -t, --type topo    the peer topology matrix instead\n"
	      "  -i, --id N         only NPU N (its index: sysfs npu_index)\n"
	      "  -j, --json         JSON instead of text\n"
	      "  -h, --help         this text\n"
	      "      --version      the version of npu-smi\n"
	      "\n"
	      "Exit status:\n"
	      "  0  success\n"
	      "  1  I/O error: sysfs, /proc or the output could not be read or written\n"
	      "  2  usage error: unknown option, command or argument\n"
	      "  3  no NPU: the npu_dma module is not loaded or found no NPU\n"
	      "  4  no such NPU: the NPU chosen with -i does not exist\n"
	      "\n"
	      "Documentation/npu-smi.rst describes every field.\n", f);
}

static int parse_index(const char *s, int *index)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v > INT_MAX)
		return -EINVAL;
	*index = (int)v;
	return 0;
}

static int parse_opt(int c, struct smi_opts *o, char *err, size_t errlen)
{
	switch (c) {
	case 'h':
		o->action = SMI_ACT_HELP;
		return 0;
	case OPT_VERSION:
		o->action = SMI_ACT_VERSION;
		return 0;
	case 'j':
		o->json = 1;
		return 0;
	case 't':
		if (!strcmp(optarg, "topo")) {
			o->view = SMI_VIEW_TOPO;
			return 0;
		}
		snprintf(err, errlen, "unsupported type '%s' (supported: topo)",
			 optarg);
		return -EINVAL;
	case 'i':
		if (!parse_index(optarg, &o->index))
			return 0;
		snprintf(err, errlen, "invalid NPU id '%s'", optarg);
		return -EINVAL;
	default:
		snprintf(err, errlen, "unknown option '-%c'", optopt);
		return -EINVAL;
	}
}

/* Left over after the options: nothing, or the one command "info". */
static int parse_command(int argc, char **argv, char *err, size_t errlen)
{
	if (optind == argc)
		return 0;
	if (strcmp(argv[optind], "info")) {
		snprintf(err, errlen, "unknown command '%s'", argv[optind]);
		return -EINVAL;
	}
	if (optind + 1 < argc) {
		snprintf(err, errlen, "unexpected argument '%s'",
			 argv[optind + 1]);
		return -EINVAL;
	}
	return 0;
}

int smi_parse_args(int argc, char **argv, struct smi_opts *o,
		   char *err, size_t errlen)
{
	int c, ret;

	memset(o, 0, sizeof(*o));
	o->index = -1;
	err[0] = '\0';
	/* Reset getopt: parsing may run more than once (unit tests). */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hjt:i:", long_opts, NULL)) != -1) {
		/* Name the option as it was typed (-i or --id). */
		if (c == ':') {
			snprintf(err, errlen, "option '%s' needs an argument",
				 argv[optind - 1]);
			return -EINVAL;
		}
		/* An unknown long option leaves optopt 0. */
		if (c == '?' && !optopt) {
			snprintf(err, errlen, "unknown option '%s'",
				 argv[optind - 1]);
			return -EINVAL;
		}
		ret = parse_opt(c, o, err, errlen);
		if (ret)
			return ret;
	}
	if (o->action != SMI_ACT_INFO)
		return 0;
	return parse_command(argc, argv, err, errlen);
}
