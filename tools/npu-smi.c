// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-smi: list the NPUs of the npu_dma driver, the processes using them
 * and their peer topology, as text laid out like CANN's npu-smi or as
 * JSON. Documentation/npu-smi.rst describes the output and exit codes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "smi.h"
#include "smi_info.h"
#include "smi_opts.h"
#include "smi_pci.h"
#include "smi_sysfs.h"
#include "smi_topo.h"

static int err_exit(int code, const char *fmt, const char *arg)
{
	fputs("npu-smi: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return code;
}

static int collect(struct smi_system *sys)
{
	int ret = smi_collect("/sys", "/proc", sys);

	if (ret == -ENODEV)
		return err_exit(SMI_EXIT_NO_NPU, "%s",
				"no NPU found: is the npu_dma module loaded?");
	if (ret)
		return err_exit(SMI_EXIT_IO, "cannot read the NPUs in /sys: %s",
				strerror(-ret));
	/* Without libpci the NPUs keep what sysfs said: not an error. */
	smi_pci_fill(sys);
	return SMI_EXIT_OK;
}

static int show(const struct smi_system *sys, const struct smi_opts *o)
{
	int ret = 0;

	if (o->view == SMI_VIEW_TOPO && o->json)
		smi_topo_json(sys, o->index, stdout);
	else if (o->view == SMI_VIEW_TOPO)
		smi_topo_text(sys, o->index, stdout);
	else if (o->json)
		smi_info_json(sys, o->index, stdout);
	else
		ret = smi_info_text(sys, o->index, stdout);
	if (ret)
		return err_exit(SMI_EXIT_IO, "%s", strerror(-ret));
	/* A closed pipe or a full disk must not look like success. */
	if (fflush(stdout) || ferror(stdout))
		return err_exit(SMI_EXIT_IO, "cannot write output: %s",
				strerror(errno));
	return SMI_EXIT_OK;
}

static int run(const struct smi_opts *o)
{
	struct smi_system sys;
	char num[16];
	int ret;

	ret = collect(&sys);
	if (ret)
		return ret;
	if (o->index >= 0 && !smi_find(&sys, o->index)) {
		snprintf(num, sizeof(num), "%d", o->index);
		ret = err_exit(SMI_EXIT_NO_SUCH_NPU, "no NPU %s", num);
	} else {
		ret = show(&sys, o);
	}
	smi_system_free(&sys);
	return ret;
}

int main(int argc, char **argv)
{
	struct smi_opts o;
	char err[256];

	if (smi_parse_args(argc, argv, &o, err, sizeof(err))) {
		fprintf(stderr, "npu-smi: %s\nTry 'npu-smi --help'.\n", err);
		return SMI_EXIT_USAGE;
	}
	switch (o.action) {
	case SMI_ACT_HELP:
		smi_usage(stdout);
		return fflush(stdout) ? SMI_EXIT_IO : SMI_EXIT_OK;
	case SMI_ACT_VERSION:
		printf("npu-smi %s\n", SMI_VERSION);
		return fflush(stdout) ? SMI_EXIT_IO : SMI_EXIT_OK;
	default:
		return run(&o);
	}
}
