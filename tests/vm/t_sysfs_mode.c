// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: who may read an NPU's sysfs attributes. The usage counters
 * (mem_used, queues, clients) tell what every user does, clients even
 * names the processes: root's only (0400), refused to another user. The
 * description of the NPU (npu_index, backend, mem_size, dma_channels,
 * peers) stays world-readable: npu-smi and libacl find NPUs by it, and
 * npu-smi run as another user shows the usage it may not read as null.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_vm.h"

#define NOBODY 65534

static const char *const private_attrs[] = { "mem_used", "queues", "clients" };
static const char *const public_attrs[] = { "npu_index", "backend", "mem_size",
					    "dma_channels", "peers" };

static mode_t attr_mode(const struct npu_node *n, const char *attr)
{
	char path[640];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", n->sysdir, attr);
	ck_assert_msg(!stat(path, &st), "%s: %s", path, strerror(errno));
	return st.st_mode & 07777;
}

/* open(2) of @attr as uid NOBODY, in a child: 0 or -errno. */
static int open_as_nobody(const struct npu_node *n, const char *attr)
{
	char path[640];
	int status, fd;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", n->sysdir, attr);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(100);
		fd = open(path, O_RDONLY);
		_exit(fd >= 0 ? 0 : errno);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_ne(WEXITSTATUS(status), 100);
	return -WEXITSTATUS(status);
}

START_TEST(test_usage_is_root_only)
{
	struct npu_node n;
	unsigned int i;
	char buf[256];

	ck_assert(t_npu_find(_i, &n));
	for (i = 0; i < sizeof(private_attrs) / sizeof(private_attrs[0]); i++) {
		ck_assert_msg(attr_mode(&n, private_attrs[i]) == 0400, "%s is %o",
			      private_attrs[i], attr_mode(&n, private_attrs[i]));
		ck_assert_int_eq(open_as_nobody(&n, private_attrs[i]), -EACCES);
		/* Root still reads it. */
		ck_assert_int_eq(t_npu_attr(_i, private_attrs[i], buf, sizeof(buf)), 0);
	}
	for (i = 0; i < sizeof(public_attrs) / sizeof(public_attrs[0]); i++) {
		ck_assert_msg(attr_mode(&n, public_attrs[i]) == 0444, "%s is %o",
			      public_attrs[i], attr_mode(&n, public_attrs[i]));
		ck_assert_int_eq(open_as_nobody(&n, public_attrs[i]), 0);
	}
}
END_TEST

/*
 * `npu-smi -j` (of the tree this test was built in) as uid @uid, or as
 * root for 0: its exit status; its output into @out.
 */
static int smi_json(uid_t uid, char *out, size_t size)
{
	char exe[PATH_MAX], smi[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int pfd[2], status;
	size_t len = 0;
	pid_t pid;

	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	snprintf(smi, sizeof(smi), "%s/../../tools/npu-smi", exe);
	ck_assert_int_eq(pipe(pfd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		dup2(pfd[1], 1);
		if (uid && (setgroups(0, NULL) || setgid(uid) || setuid(uid)))
			_exit(100);
		execl(smi, smi, "-j", (char *)NULL);
		_exit(101);
	}
	close(pfd[1]);
	while (len < size - 1 && (n = read(pfd[0], out + len, size - 1 - len)) > 0)
		len += n;
	out[len] = '\0';
	close(pfd[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

START_TEST(test_npu_smi_hides_what_it_may_not_read)
{
	static char out[65536];

	ck_assert_int_eq(smi_json(NOBODY, out, sizeof(out)), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"used_bytes\": null"));
	ck_assert_ptr_nonnull(strstr(out, "\"queues\": null"));
	ck_assert_ptr_nonnull(strstr(out, "\"total_bytes\": "));
	ck_assert_int_eq(smi_json(0, out, sizeof(out)), 0);
	ck_assert_ptr_null(strstr(out, "\"used_bytes\": null"));
	ck_assert_ptr_null(strstr(out, "\"queues\": null"));
}
END_TEST

static Suite *sysfs_mode_suite(int nr_npus)
{
	Suite *s = suite_create("t_sysfs_mode");
	TCase *tc = tcase_create("modes");

	tcase_add_loop_test(tc, test_usage_is_root_only, 0, nr_npus);
	tcase_add_test(tc, test_npu_smi_hides_what_it_may_not_read);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	int n = 0;

	if (geteuid() != 0 || !npu_raw_present())
		return T_EXIT_SKIP;
	while (t_npu_find(n, NULL))
		n++;
	return t_run_suite(sysfs_mode_suite(n));
}
