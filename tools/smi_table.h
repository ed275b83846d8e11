/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu-smi: boxed text tables in the layout of CANN's npu-smi and
 * nvidia-smi. Columns are as wide as their widest cell; a row is cells,
 * a line spanning the whole width, or a rule between rows.
 *
 *   +------+-------+
 *   | NPU  | Name  |     cells
 *   +======+=======+     heavy rule (under the header)
 *   | 0    | edu   |
 *   +------+-------+     rule
 *   | one long line |    span
 *   +------+-------+
 */
#ifndef SMI_TABLE_H
#define SMI_TABLE_H

#include <stdio.h>

#define SMI_TABLE_MAX_COLS 8

enum smi_row_kind {
	SMI_ROW_CELLS,
	SMI_ROW_SPAN,
	SMI_ROW_RULE,
	SMI_ROW_HEAVY_RULE,
};

struct smi_row {
	enum smi_row_kind kind;
	char *cells[SMI_TABLE_MAX_COLS];	/* SPAN uses cells[0] */
};

struct smi_table {
	int ncols;
	int nrows;
	int cap;
	struct smi_row *rows;
	int failed;		/* an allocation failed; print reports it */
};

void smi_table_init(struct smi_table *t, int ncols);
void smi_table_free(struct smi_table *t);
/* A row of ncols cells (NULL prints as empty). */
void smi_table_cells(struct smi_table *t, const char *const *cells);
void smi_table_span(struct smi_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void smi_table_rule(struct smi_table *t, int heavy);
/*
 * Print with a rule above and below (unless the last row is a rule).
 * Return: 0, or -ENOMEM if building the table failed.
 */
int smi_table_print(const struct smi_table *t, FILE *f);

/* Display width of a UTF-8 string: its code points, not its bytes. */
int smi_text_width(const char *s);

#endif /* SMI_TABLE_H */
