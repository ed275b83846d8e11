/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu-smi: the command line.
 *
 *   npu-smi [info] [-t topo] [-i N] [-j]
 *   npu-smi -h | --help
 *   npu-smi --version
 */
#ifndef SMI_OPTS_H
#define SMI_OPTS_H

#include <stddef.h>
#include <stdio.h>

enum smi_action {
	SMI_ACT_INFO,
	SMI_ACT_HELP,
	SMI_ACT_VERSION,
};

enum smi_view {
	SMI_VIEW_BOARD,		/* the NPU and process tables */
	SMI_VIEW_TOPO,		/* the peer matrix */
};

struct smi_opts {
	enum smi_action action;
	enum smi_view view;
	int json;
	int index;		/* -i N, or -1 for all NPUs */
};

/*
 * Parse argv (argv[0] is the program). On a usage error, write the reason
 * to err. Return: 0 or -EINVAL.
 */
int smi_parse_args(int argc, char **argv, struct smi_opts *o,
		   char *err, size_t errlen);

/* The --help text, with the exit codes. */
void smi_usage(FILE *f);

#endif /* SMI_OPTS_H */
