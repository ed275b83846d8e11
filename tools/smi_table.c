// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-smi: boxed text tables. Building never fails loudly: an allocation
 * failure is remembered and reported once, by smi_table_print(), so the
 * callers stay a flat list of rows.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "smi_table.h"

int smi_text_width(const char *s)
{
	int w = 0;

	/* Count every byte that does not continue a UTF-8 sequence. */
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

void smi_table_init(struct smi_table *t, int ncols)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols > SMI_TABLE_MAX_COLS ? SMI_TABLE_MAX_COLS : ncols;
}

void smi_table_free(struct smi_table *t)
{
	int i, c;

	for (i = 0; i < t->nrows; i++)
		for (c = 0; c < SMI_TABLE_MAX_COLS; c++)
			free(t->rows[i].cells[c]);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

static struct smi_row *add_row(struct smi_table *t, enum smi_row_kind kind)
{
	struct smi_row *row;

	if (t->nrows == t->cap) {
		int cap = t->cap ? 2 * t->cap : 16;
		struct smi_row *rows = realloc(t->rows, cap * sizeof(*rows));

		if (!rows) {
			t->failed = 1;
			return NULL;
		}
		t->rows = rows;
		t->cap = cap;
	}
	row = &t->rows[t->nrows++];
	memset(row, 0, sizeof(*row));
	row->kind = kind;
	return row;
}

static char *dup_cell(struct smi_table *t, const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		t->failed = 1;
	return d;
}

void smi_table_cells(struct smi_table *t, const char *const *cells)
{
	struct smi_row *row = add_row(t, SMI_ROW_CELLS);
	int c;

	for (c = 0; row && c < t->ncols; c++)
		row->cells[c] = dup_cell(t, cells[c]);
}

void smi_table_span(struct smi_table *t, const char *fmt, ...)
{
	struct smi_row *row = add_row(t, SMI_ROW_SPAN);
	va_list ap;

	if (!row)
		return;
	va_start(ap, fmt);
	if (vasprintf(&row->cells[0], fmt, ap) < 0) {
		row->cells[0] = NULL;
		t->failed = 1;
	}
	va_end(ap);
}

void smi_table_rule(struct smi_table *t, int heavy)
{
	add_row(t, heavy ? SMI_ROW_HEAVY_RULE : SMI_ROW_RULE);
}

static int is_rule(const struct smi_row *row)
{
	return row->kind == SMI_ROW_RULE || row->kind == SMI_ROW_HEAVY_RULE;
}

/* Inner width of a full line: the columns and the " | " between them. */
static int inner_width(const int *w, int ncols)
{
	int total = 3 * (ncols - 1), c;

	for (c = 0; c < ncols; c++)
		total += w[c];
	return total;
}

/* Column widths; the last column grows if a span needs more room. */
static void widths(const struct smi_table *t, int *w)
{
	int i, c;

	for (c = 0; c < t->ncols; c++)
		w[c] = 0;
	for (i = 0; i < t->nrows; i++) {
		const struct smi_row *row = &t->rows[i];

		for (c = 0; row->kind == SMI_ROW_CELLS && c < t->ncols; c++)
			if (smi_text_width(row->cells[c]) > w[c])
				w[c] = smi_text_width(row->cells[c]);
	}
	for (i = 0; i < t->nrows; i++) {
		const struct smi_row *row = &t->rows[i];
		int need;

		if (row->kind != SMI_ROW_SPAN)
			continue;
		need = smi_text_width(row->cells[0]) - inner_width(w, t->ncols);
		if (need > 0)
			w[t->ncols - 1] += need;
	}
}

static void print_rule(FILE *f, const int *w, int ncols, char fill)
{
	int c, i;

	for (c = 0; c < ncols; c++) {
		fputc('+', f);
		for (i = 0; i < w[c] + 2; i++)
			fputc(fill, f);
	}
	fputs("+\n", f);
}

static void print_padded(FILE *f, const char *s, int width)
{
	fprintf(f, "%s%*s", s, width - smi_text_width(s), "");
}

static void print_row(FILE *f, const struct smi_row *row, const int *w,
		      int ncols)
{
	int c;

	switch (row->kind) {
	case SMI_ROW_RULE:
		print_rule(f, w, ncols, '-');
		return;
	case SMI_ROW_HEAVY_RULE:
		print_rule(f, w, ncols, '=');
		return;
	case SMI_ROW_SPAN:
		fputs("| ", f);
		print_padded(f, row->cells[0], inner_width(w, ncols));
		fputs(" |\n", f);
		return;
	case SMI_ROW_CELLS:
		for (c = 0; c < ncols; c++) {
			fputs(c ? " | " : "| ", f);
			print_padded(f, row->cells[c], w[c]);
		}
		fputs(" |\n", f);
		return;
	}
}

int smi_table_print(const struct smi_table *t, FILE *f)
{
	int w[SMI_TABLE_MAX_COLS], i;

	if (t->failed)
		return -ENOMEM;
	if (!t->ncols)
		return 0;
	widths(t, w);
	if (!t->nrows || !is_rule(&t->rows[0]))
		print_rule(f, w, t->ncols, '-');
	for (i = 0; i < t->nrows; i++)
		print_row(f, &t->rows[i], w, t->ncols);
	if (!t->nrows || !is_rule(&t->rows[t->nrows - 1]))
		print_rule(f, w, t->ncols, '-');
	return 0;
}
