// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-smi: a small streaming JSON writer. Scripts parse this output, so
 * every string goes through smi_json_quote(), which cannot produce
 * invalid JSON whatever the bytes (process names are arbitrary bytes).
 */
#include <inttypes.h>
#include <stdlib.h>

#include "smi_json.h"

/*
 * Length of the valid UTF-8 sequence at s (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF), or 0 if the bytes are not one.
 */
static int utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static void quote_ascii(FILE *f, unsigned char c)
{
	switch (c) {
	case '"':
		fputs("\\\"", f);
		break;
	case '\\':
		fputs("\\\\", f);
		break;
	case '\n':
		fputs("\\n", f);
		break;
	case '\r':
		fputs("\\r", f);
		break;
	case '\t':
		fputs("\\t", f);
		break;
	default:
		if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
}

void smi_json_quote(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		int len = utf8_len(p);

		if (len == 1)
			quote_ascii(f, *p);
		else if (len)
			fwrite(p, 1, len, f);
		else
			fputs("\\ufffd", f);
		p += len ? len : 1;
	}
	fputc('"', f);
}

void smi_json_init(struct smi_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->count[0] = 0;
}

/* Separator, indentation and key in front of a value. */
static void begin_value(struct smi_json *j, const char *key)
{
	if (j->depth) {
		fputs(j->count[j->depth]++ ? ",\n" : "\n", j->f);
		fprintf(j->f, "%*s", 2 * j->depth, "");
	}
	if (key) {
		smi_json_quote(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_level(struct smi_json *j, const char *key, char open,
		       char close)
{
	begin_value(j, key);
	fputc(open, j->f);
	/* Nesting is fixed by npu-smi's own code: too deep is a bug in it. */
	if (j->depth >= SMI_JSON_MAX_DEPTH - 1)
		abort();
	j->close[j->depth] = close;
	j->count[++j->depth] = 0;
}

void smi_json_object(struct smi_json *j, const char *key)
{
	open_level(j, key, '{', '}');
}

void smi_json_array(struct smi_json *j, const char *key)
{
	open_level(j, key, '[', ']');
}

void smi_json_end(struct smi_json *j)
{
	if (!j->depth)
		return;
	/* Empty containers stay on one line: {} and []. */
	if (j->count[j->depth--])
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	fputc(j->close[j->depth], j->f);
	if (!j->depth)
		fputc('\n', j->f);
}

void smi_json_str(struct smi_json *j, const char *key, const char *s)
{
	if (!s) {
		smi_json_null(j, key);
		return;
	}
	begin_value(j, key);
	smi_json_quote(j->f, s);
}

void smi_json_uint(struct smi_json *j, const char *key, uint64_t v)
{
	begin_value(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void smi_json_int(struct smi_json *j, const char *key, int64_t v)
{
	begin_value(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void smi_json_null(struct smi_json *j, const char *key)
{
	begin_value(j, key);
	fputs("null", j->f);
}
