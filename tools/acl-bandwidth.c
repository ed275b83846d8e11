// SPDX-License-Identifier: GPL-2.0-only
/*
 * acl-bandwidth: H2D, D2H, D2D and P2P copy bandwidth through libacl,
 * from pinned and pageable host memory, over a size sweep or one size,
 * and with --latency the call-to-completion latency of small operations
 * against a null ioctl; a table, CSV or JSON, and an SVG plot
 * (Documentation/tools.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bw.h"

static int write_plot(const struct bw_report *rep, const char *path)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f) {
		fprintf(stderr, BW_PROG ": cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	ret = bw_write_plot(f, rep);
	if (fclose(f) || ret) {
		fprintf(stderr, BW_PROG ": writing %s failed\n", path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct bw_report rep = { 0 };
	struct bw_opts o;
	int ret = bw_parse_opts(argc, argv, &o);
	size_t i;

	if (ret)
		return ret == 1 ? 0 : 2;
	rep.o = &o;
	rep.device = o.device;
	rep.peer = -1;
	if (bw_run(&rep)) {
		free(rep.r);
		free(rep.lat);
		return 1;
	}
	if (o.format == BW_CSV)
		bw_write_csv(stdout, &rep);
	else if (o.format == BW_JSON)
		bw_write_json(stdout, &rep);
	else
		bw_write_text(stdout, &rep);
	ret = o.plot && write_plot(&rep, o.plot) ? 1 : 0;
	for (i = 0; i < rep.nr; i++)
		if (rep.r[i].status == BW_FAILED)
			ret = 1;
	free(rep.r);
	free(rep.lat);
	return ret;
}
