// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-trace: parse tracefs text lines of the npu_dma tracepoints.
 *
 * A line looks like
 *   "   t_copy-212  [001] ..... 123.456789: npu_dma_start: npu=2 queue=1 ..."
 * The comm may hold spaces and dashes, so the line is read from the
 * event name outwards: the timestamp is the token before it, the
 * "comm-pid" is what precedes the "[cpu]" field.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_parse.h"

static const char *const kind_names[TR_NR_KINDS] = {
	[TR_SUBMIT] = "npu_dma_submit",
	[TR_START] = "npu_dma_start",
	[TR_COMPLETE] = "npu_dma_complete",
	[TR_ERROR] = "npu_dma_error",
	[TR_PIN] = "npu_dma_pin",
	[TR_UNPIN] = "npu_dma_unpin",
	[TR_IRQ] = "npu_dma_irq",
};

const char *tr_kind_name(enum tr_kind kind)
{
	return kind < TR_NR_KINDS ? kind_names[kind] : "?";
}

/* The kind whose name followed by ": " starts at p, or -1. */
static int kind_at(const char *p)
{
	int k;

	for (k = 0; k < TR_NR_KINDS; k++) {
		size_t n = strlen(kind_names[k]);

		if (!strncmp(p, kind_names[k], n) && p[n] == ':')
			return k;
	}
	return -1;
}

/* Value of "key=" in the field list, or NULL. Keys are whole words. */
static const char *field(const char *fields, const char *key)
{
	size_t n = strlen(key);
	const char *p = fields;

	while ((p = strstr(p, key))) {
		if ((p == fields || p[-1] == ' ') && p[n] == '=')
			return p + n + 1;
		p += n;
	}
	return NULL;
}

static int get_u64(const char *fields, const char *key, uint64_t *v)
{
	const char *p = field(fields, key);
	char *end;

	if (!p || *p == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoull(p, &end, 0);
	if (errno || end == p || (*end && *end != ' ' && *end != '\n'))
		return -EINVAL;
	return 0;
}

static int get_int(const char *fields, const char *key, int *v)
{
	const char *p = field(fields, key);
	char *end;
	long l;

	if (!p)
		return -EINVAL;
	errno = 0;
	l = strtol(p, &end, 0);
	if (errno || end == p || (*end && *end != ' ' && *end != '\n'))
		return -EINVAL;
	*v = (int)l;
	return 0;
}

static int get_u32(const char *fields, const char *key, uint32_t *v)
{
	uint64_t u;

	if (get_u64(fields, key, &u) || u > UINT32_MAX)
		return -EINVAL;
	*v = (uint32_t)u;
	return 0;
}

static int parse_job(const char *f, struct tr_event *ev)
{
	if (get_u32(f, "queue", &ev->queue) || get_u64(f, "seq", &ev->seq) ||
	    get_u32(f, "op", &ev->op) || get_u32(f, "flags", &ev->flags) ||
	    get_u64(f, "bytes", &ev->bytes) || get_int(f, "chan", &ev->chan) ||
	    get_int(f, "status", &ev->status))
		return -EINVAL;
	/* Added later: a recording without it has no peer copies marked. */
	if (field(f, "peer") && get_int(f, "peer", &ev->peer))
		return -EINVAL;
	return 0;
}

static int parse_pin(const char *f, struct tr_event *ev)
{
	if (get_u64(f, "addr", &ev->addr) || get_u64(f, "len", &ev->len) ||
	    get_u64(f, "pages", &ev->pages) || get_int(f, "longterm", &ev->longterm))
		return -EINVAL;
	return 0;
}

static int parse_fields(const char *f, struct tr_event *ev)
{
	uint32_t status;

	if (get_int(f, "npu", &ev->npu))
		return -EINVAL;
	switch (ev->kind) {
	case TR_PIN:
	case TR_UNPIN:
		return parse_pin(f, ev);
	case TR_IRQ:
		if (get_u32(f, "status", &status))
			return -EINVAL;
		ev->status = (int)status;
		return 0;
	default:
		return parse_job(f, ev);
	}
}

/* "comm-pid [cpu] flags ts:" before the event name at name. */
static int parse_head(const char *line, const char *name, struct tr_event *ev)
{
	const char *ts_end = name - 2, *ts, *cpu, *dash;
	size_t n;

	if (ts_end <= line || *ts_end != ':')
		return -EINVAL;
	for (ts = ts_end; ts > line && ts[-1] != ' '; ts--)
		;
	if (sscanf(ts, "%lf", &ev->ts_us) != 1)
		return -EINVAL;
	ev->ts_us *= 1e6;
	cpu = strstr(line, " [");
	if (!cpu || cpu > ts)
		return 0;	/* no task column: comm and pid stay empty */
	for (dash = cpu; dash > line && *dash != '-'; dash--)
		;
	if (*dash != '-')
		return 0;
	ev->pid = atoi(dash + 1);
	while (*line == ' ')
		line++;
	n = dash > line ? (size_t)(dash - line) : 0;
	if (n >= sizeof(ev->comm))
		n = sizeof(ev->comm) - 1;
	memcpy(ev->comm, line, n);
	ev->comm[n] = '\0';
	return 0;
}

int tr_parse_line(const char *line, struct tr_event *ev)
{
	const char *p;
	int kind = -1;

	if (line[0] == '#')
		return 0;
	for (p = strstr(line, " npu_dma_"); p; p = strstr(p + 1, " npu_dma_")) {
		kind = kind_at(p + 1);
		if (kind >= 0)
			break;
	}
	if (kind < 0)
		return 0;
	memset(ev, 0, sizeof(*ev));
	ev->kind = kind;
	ev->chan = -1;
	ev->peer = -1;
	if (parse_head(line, p + 1, ev))
		return -EINVAL;
	p += 1 + strlen(kind_names[kind]) + 1;
	return parse_fields(p, ev) ? -EINVAL : 1;
}
