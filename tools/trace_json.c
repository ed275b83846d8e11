// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-trace and acl-bandwidth: compact streaming JSON (see trace_json.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "smi_json.h"
#include "trace_json.h"

void tj_init(struct tj *j, FILE *f, int nl_depth)
{
	j->f = f;
	j->depth = 0;
	j->nl_depth = nl_depth;
	j->count[0] = 0;
}

static void begin_value(struct tj *j, const char *key)
{
	if (j->depth) {
		if (j->count[j->depth]++)
			fputc(',', j->f);
		if (j->depth <= j->nl_depth)
			fputc('\n', j->f);
	}
	if (key) {
		smi_json_quote(j->f, key);
		fputc(':', j->f);
	}
}

static void open_level(struct tj *j, const char *key, char open, char close)
{
	begin_value(j, key);
	fputc(open, j->f);
	/* The nesting is fixed by the tools' own code: too deep is a bug. */
	if (j->depth >= TJ_MAX_DEPTH - 1)
		abort();
	j->close[j->depth] = close;
	j->count[++j->depth] = 0;
}

void tj_object(struct tj *j, const char *key)
{
	open_level(j, key, '{', '}');
}

void tj_array(struct tj *j, const char *key)
{
	open_level(j, key, '[', ']');
}

void tj_end(struct tj *j)
{
	if (!j->depth)
		return;
	if (j->count[j->depth--] && j->depth < j->nl_depth)
		fputc('\n', j->f);
	fputc(j->close[j->depth], j->f);
	if (!j->depth)
		fputc('\n', j->f);
}

void tj_str(struct tj *j, const char *key, const char *s)
{
	if (!s) {
		tj_null(j, key);
		return;
	}
	begin_value(j, key);
	smi_json_quote(j->f, s);
}

void tj_int(struct tj *j, const char *key, int64_t v)
{
	begin_value(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void tj_uint(struct tj *j, const char *key, uint64_t v)
{
	begin_value(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void tj_double(struct tj *j, const char *key, double v)
{
	if (!isfinite(v)) {
		tj_null(j, key);
		return;
	}
	begin_value(j, key);
	/* 12 significant digits: microseconds of a long trace, tiny GB/s. */
	fprintf(j->f, "%.12g", v == 0 ? 0.0 : v);
}

void tj_null(struct tj *j, const char *key)
{
	begin_value(j, key);
	fputs("null", j->f);
}
