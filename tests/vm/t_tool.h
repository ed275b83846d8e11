/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the VM tests of the tools (t_bandwidth, t_npu_trace,
 * t_demo): run a tool of this tree through the shell with its output in
 * files, and judge JSON and XML with python3 (the guest has the host's).
 */
#ifndef T_TOOL_H
#define T_TOOL_H

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "t_vm.h"

struct t_out {
	int status;	/* exit status; 128 + signal when killed */
	char *out;	/* standard output */
	char *err;	/* standard error */
};

/* The tree's directory (two levels above this test program). */
static inline const char *t_tree(void)
{
	static char tree[PATH_MAX];
	char exe[PATH_MAX];
	ssize_t n;

	if (tree[0])
		return tree;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	strcat(exe, "/../..");
	ck_assert_ptr_nonnull(realpath(exe, tree));
	return tree;
}

static inline char *t_file_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0, len;

	ck_assert_msg(f != NULL, "cannot read %s", path);
	len = getdelim(&text, &cap, '\0', f);
	fclose(f);
	if (len == (size_t)-1)
		return strdup("");
	return text;
}

/* Run a printf-formatted shell command line in the tree's directory. */
static inline void t_sh(struct t_out *r, const char *fmt, ...)
{
	char *cmd, *line;
	va_list ap;
	int st;

	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&cmd, fmt, ap), 0);
	va_end(ap);
	ck_assert_int_ge(asprintf(&line, "cd '%s' && { %s; } >/tmp/t_tool.out 2>/tmp/t_tool.err",
				  t_tree(), cmd), 0);
	st = system(line);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r->out = t_file_text("/tmp/t_tool.out");
	r->err = t_file_text("/tmp/t_tool.err");
	free(line);
	free(cmd);
}

static inline void t_out_free(struct t_out *r)
{
	free(r->out);
	free(r->err);
}

#define t_expect_status(r, want)					\
	ck_assert_msg((r)->status == (want), "exit %d, want %d\nstdout:\n%s\nstderr:\n%s", \
		      (r)->status, (want), (r)->out, (r)->err)

/*
 * Run python3 code with the file at path as sys.argv[1]; the code reads
 * it (json.load, xml.dom.minidom) and asserts. Fails the test if it fails.
 */
static inline void t_py_check(const char *code, const char *path)
{
	struct t_out r;

	t_sh(&r, "python3 -c '%s' '%s'", code, path);
	ck_assert_msg(r.status == 0, "python3 check of %s failed:\n%s", path, r.err);
	t_out_free(&r);
}

/* Logical id of the first NPU of backend name ("sim", "edu"), or -1. */
static inline int t_npu_of(const char *name)
{
	char buf[16];
	int i;

	for (i = 0; i < 64; i++)
		if (!t_npu_attr(i, "backend", buf, sizeof(buf)) &&
		    !strcmp(buf, name))
			return i;
	return -1;
}

#endif /* T_TOOL_H */
