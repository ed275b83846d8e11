/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu-smi: a small streaming JSON writer (indented, two spaces a level).
 * Members of an object take a key; elements of an array pass key NULL.
 */
#ifndef SMI_JSON_H
#define SMI_JSON_H

#include <stdint.h>
#include <stdio.h>

#define SMI_JSON_MAX_DEPTH 16

struct smi_json {
	FILE *f;
	int depth;
	int count[SMI_JSON_MAX_DEPTH];	/* values written at each level */
	char close[SMI_JSON_MAX_DEPTH];	/* '}' or ']' closing each level */
};

void smi_json_init(struct smi_json *j, FILE *f);
void smi_json_object(struct smi_json *j, const char *key);
void smi_json_array(struct smi_json *j, const char *key);
/* Close the innermost object or array; the outermost ends with a newline. */
void smi_json_end(struct smi_json *j);
/* s NULL writes null. */
void smi_json_str(struct smi_json *j, const char *key, const char *s);
void smi_json_uint(struct smi_json *j, const char *key, uint64_t v);
void smi_json_int(struct smi_json *j, const char *key, int64_t v);
void smi_json_null(struct smi_json *j, const char *key);

/*
 * Write s as a JSON string with its quotes. Control characters are
 * escaped and bytes that are not valid UTF-8 become U+FFFD, so any input
 * (a process name, say) gives valid JSON.
 */
void smi_json_quote(FILE *f, const char *s);

#endif /* SMI_JSON_H */
