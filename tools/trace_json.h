/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A compact streaming JSON writer shared by npu-trace and acl-bandwidth:
 * one element per line up to a chosen depth, so big files (thousands of
 * trace events) stay small and still diff line by line. Strings go
 * through smi_json_quote(), so any bytes give valid JSON. Members of an
 * object take a key; elements of an array pass key NULL.
 */
#ifndef TRACE_JSON_H
#define TRACE_JSON_H

#include <stdint.h>
#include <stdio.h>

#define TJ_MAX_DEPTH 16

struct tj {
	FILE *f;
	int depth;
	int nl_depth;			/* elements down to here start a line */
	int count[TJ_MAX_DEPTH];	/* values written at each level */
	char close[TJ_MAX_DEPTH];	/* '}' or ']' closing each level */
};

/* Elements of containers opened at depth < nl_depth start a new line. */
void tj_init(struct tj *j, FILE *f, int nl_depth);
void tj_object(struct tj *j, const char *key);
void tj_array(struct tj *j, const char *key);
/* Close the innermost container; the outermost ends with a newline. */
void tj_end(struct tj *j);
/* s NULL writes null. */
void tj_str(struct tj *j, const char *key, const char *s);
void tj_int(struct tj *j, const char *key, int64_t v);
void tj_uint(struct tj *j, const char *key, uint64_t v);
/* 12 significant digits (%.12g); NaN and infinities: null. */
void tj_double(struct tj *j, const char *key, double v);
void tj_null(struct tj *j, const char *key);

#endif /* TRACE_JSON_H */
