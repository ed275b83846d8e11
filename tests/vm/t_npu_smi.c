// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: the real tools/npu-smi against the NPUs npu-vm created (by
 * default 2 edu + 2 sim). Its text and JSON output are checked against
 * sysfs and against what this test does to the NPUs (allocate device
 * memory, hold an NPU open); its exit codes for a missing NPU and for an
 * unloaded module are the documented ones. JSON is judged by python3's
 * json module, which the guest has through the host's root.
 */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_vm.h"

#define MOD "npu_dma"
#define MAX_NPUS 16
#define NOBODY 65534

/* Exit codes of npu-smi (Documentation/npu-smi.rst). */
#define SMI_OK 0
#define SMI_USAGE 2
#define SMI_NO_NPU 3
#define SMI_NO_SUCH_NPU 4

struct smi_run {
	int status;		/* exit status, or -1 if it did not exit */
	char *out;		/* stdout, NUL-terminated */
	char *err;		/* stderr */
};

static char smi_path[PATH_MAX];

/* tools/npu-smi of the tree this test was built in. */
static void find_smi(void)
{
	char exe[PATH_MAX], path[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	snprintf(path, sizeof(path), "%s/../../tools/npu-smi", exe);
	ck_assert_msg(realpath(path, smi_path), "no %s: make userspace", path);
}

static char *read_memfd(int fd)
{
	off_t len = lseek(fd, 0, SEEK_END);
	char *buf = malloc(len + 1);

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(pread(fd, buf, len, 0), len);
	buf[len] = '\0';
	close(fd);
	return buf;
}

/*
 * Run argv[0] with argv, as uid (unless -1), stdout and stderr into
 * memory files: no pipe to fill, so no deadlock whatever the size.
 */
static void run_as(uid_t uid, char *const argv[], struct smi_run *r)
{
	int out = memfd_create("out", 0), err = memfd_create("err", 0);
	int status;
	pid_t pid;

	ck_assert_int_ge(out, 0);
	ck_assert_int_ge(err, 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		dup2(out, 1);
		dup2(err, 2);
		if (uid != (uid_t)-1 && (setgroups(0, NULL) || setgid(uid) ||
					 setuid(uid)))
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	r->out = read_memfd(out);
	r->err = read_memfd(err);
}

/* npu-smi with up to five arguments (NULL-terminated). */
static void smi(struct smi_run *r, const char *a1, const char *a2,
		const char *a3, const char *a4)
{
	char *argv[] = { smi_path, (char *)a1, (char *)a2, (char *)a3,
			 (char *)a4, NULL };

	run_as((uid_t)-1, argv, r);
}

static void run_free(struct smi_run *r)
{
	free(r->out);
	free(r->err);
}

static void assert_status(const struct smi_run *r, int want)
{
	ck_assert_msg(r->status == want,
		      "npu-smi exited %d, want %d\nstdout:\n%s\nstderr:\n%s",
		      r->status, want, r->out, r->err);
}

/* Save text to a file in /tmp (the guest's tmpfs); return its path. */
static char *save_tmp(const char *text)
{
	char *path = strdup("/tmp/t_npu_smi.XXXXXX");
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

/*
 * Run a python3 snippet on a JSON text: "json.tool" only validates,
 * anything else is code that reads the parsed document d.
 */
static void py_json(const char *code, const char *json, struct smi_run *r)
{
	char *path = save_tmp(json);
	char script[2048];
	char *argv[] = { (char *)"python3", (char *)"-c", script, path, NULL };

	snprintf(script, sizeof(script),
		 "import json, sys\nd = json.load(open(sys.argv[1]))\n%s", code);
	run_as((uid_t)-1, argv, r);
	unlink(path);
	free(path);
	ck_assert_msg(r->status == 0, "python3 on npu-smi's JSON failed:\n%s\n%s",
		      r->err, json);
}

/* NPUs as sysfs lists them. */
struct sys_npu {
	int index;
	char backend[16];
	char bus_id[32];
};

static int sys_npus(struct sys_npu *n)
{
	int i, count = 0;

	for (i = 0; i < 64 && count < MAX_NPUS; i++) {
		if (t_npu_attr(i, "backend", n[count].backend, sizeof(n[count].backend)))
			continue;
		n[count].index = i;
		if (t_npu_attr(i, "pci_address", n[count].bus_id, sizeof(n[count].bus_id)))
			n[count].bus_id[0] = '\0';
		count++;
	}
	return count;
}

/* The first line of the NPU table of NPU index: "| 2     sim   | ...". */
static const char *npu_line(const char *out, int index)
{
	char head[32];
	const char *p;

	snprintf(head, sizeof(head), "\n| %-5d ", index);
	p = strstr(out, head);
	return p ? p + 1 : NULL;
}

/* Used and total MiB from an NPU's first line ("| 8    / 16 "). */
static void line_memory(const char *line, unsigned long *used,
			unsigned long *total)
{
	const char *p = strchr(line + 1, '|');

	ck_assert_ptr_nonnull(p);
	p = strchr(p + 1, '|');
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(sscanf(p + 1, "%lu / %lu", used, total), 2);
}

static void setup(void)
{
	if (!npu_raw_present())
		exit(T_EXIT_SKIP);
	find_smi();
}

START_TEST(test_info_lists_every_npu_with_its_backend)
{
	struct sys_npu n[MAX_NPUS];
	struct smi_run r;
	char want[64];
	int count = sys_npus(n), i, edu = 0, sim = 0;

	smi(&r, "info", NULL, NULL, NULL);
	assert_status(&r, SMI_OK);
	ck_assert_str_eq(r.err, "");
	for (i = 0; i < count; i++) {
		const char *line = npu_line(r.out, n[i].index);

		ck_assert_msg(line, "NPU %d missing:\n%s", n[i].index, r.out);
		snprintf(want, sizeof(want), "| %-5d %s ", n[i].index,
			 n[i].backend);
		ck_assert_msg(!strncmp(line, want, strlen(want)),
			      "NPU %d: want '%s' in:\n%s", n[i].index, want, r.out);
		edu += !strcmp(n[i].backend, "edu");
		sim += !strcmp(n[i].backend, "sim");
	}
	/* npu-vm's default devices. */
	ck_assert_int_eq(count, 4);
	ck_assert_int_eq(edu, 2);
	ck_assert_int_eq(sim, 2);
	ck_assert_ptr_null(npu_line(r.out, n[count - 1].index + 1));
	snprintf(want, sizeof(want), "NPUs: %d ", count);
	ck_assert_ptr_nonnull(strstr(r.out, want));
	run_free(&r);
}
END_TEST

START_TEST(test_info_edu_bus_ids_match_sysfs)
{
	struct sys_npu n[MAX_NPUS];
	struct smi_run r;
	char want[64];
	int count = sys_npus(n), i, seen = 0;

	smi(&r, NULL, NULL, NULL, NULL);
	assert_status(&r, SMI_OK);
	for (i = 0; i < count; i++) {
		const char *line = npu_line(r.out, n[i].index);
		const char *nl = strchr(line, '\n');

		if (strcmp(n[i].backend, "edu"))
			continue;
		snprintf(want, sizeof(want), "| %s |", n[i].bus_id);
		ck_assert_msg(strstr(line, want) && strstr(line, want) < nl,
			      "NPU %d: '%s' not on its line:\n%s", n[i].index,
			      want, r.out);
		/* The second line names the function through libpci. */
		ck_assert_msg(!strncmp(nl + 1, "| QEMU edu ", 11),
			      "NPU %d not named QEMU edu:\n%s", n[i].index, r.out);
		seen++;
	}
	ck_assert_int_eq(seen, 2);
	run_free(&r);
}
END_TEST

/*
 * Used MiB of NPU index in the text table; with json, also check that
 * -j gives the same numbers and sysfs's exact byte count.
 */
static unsigned long used_mib(int index, int json)
{
	char num[16], code[256], sysval[32];
	unsigned long used, total;
	struct smi_run r, py;

	snprintf(num, sizeof(num), "%d", index);
	smi(&r, "-i", num, NULL, NULL);
	assert_status(&r, SMI_OK);
	ck_assert_ptr_nonnull(npu_line(r.out, index));
	line_memory(npu_line(r.out, index), &used, &total);
	run_free(&r);
	if (!json)
		return used;

	smi(&r, "-j", "-i", num, NULL);
	assert_status(&r, SMI_OK);
	py_json("m = d['npus'][0]['memory']\n"
		"print(m['used_bytes'], m['used_mib'], m['total_mib'])",
		r.out, &py);
	ck_assert_int_eq(t_npu_attr(index, "mem_used", sysval, sizeof(sysval)), 0);
	snprintf(code, sizeof(code), "%s %lu %lu\n", sysval, used, total);
	ck_assert_str_eq(py.out, code);
	run_free(&py);
	run_free(&r);
	return used;
}

static void check_memory_follows_alloc(int index, uint64_t size)
{
	unsigned long before, during, after;
	uint64_t addr;
	uint32_t h;
	int fd;

	before = used_mib(index, 0);
	fd = npu_raw_open(index);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, size, NPU_DMA_MEM_NORMAL_ONLY, &addr, &h), 0);
	during = used_mib(index, 1);
	ck_assert_int_eq(npu_raw_free(fd, h), 0);
	close(fd);
	after = used_mib(index, 0);
	ck_assert_uint_eq(during, before + (size >> 20));
	ck_assert_uint_eq(after, before);
}

START_TEST(test_info_memory_used_follows_alloc_edu)
{
	check_memory_follows_alloc(0, 4 << 20);
}
END_TEST

START_TEST(test_info_memory_used_follows_alloc_sim)
{
	check_memory_follows_alloc(2, 64 << 20);
}
END_TEST

START_TEST(test_info_process_table_shows_own_pid)
{
	char want[64], code[256];
	struct smi_run r, py;
	int fd = npu_raw_open(3);

	ck_assert_int_ge(fd, 0);
	smi(&r, NULL, NULL, NULL, NULL);
	assert_status(&r, SMI_OK);
	snprintf(want, sizeof(want), "| 3   | %-10d | t_npu_smi ", getpid());
	ck_assert_msg(strstr(r.out, want), "'%s' not in:\n%s", want, r.out);
	run_free(&r);

	smi(&r, "--json", NULL, NULL, NULL);
	assert_status(&r, SMI_OK);
	snprintf(code, sizeof(code),
		 "print([(p['npu'], p['name']) for p in d['processes'] if p['pid'] == %d],\n"
		 "      %d in d['npus'][3]['pids'])", getpid(), getpid());
	py_json(code, r.out, &py);
	ck_assert_str_eq(py.out, "[(3, 't_npu_smi')] True\n");
	run_free(&py);
	run_free(&r);

	close(fd);
	smi(&r, NULL, NULL, NULL, NULL);
	ck_assert_msg(!strstr(r.out, want), "'%s' still listed:\n%s", want, r.out);
	run_free(&r);
}
END_TEST

START_TEST(test_json_has_the_same_facts_as_sysfs)
{
	struct sys_npu n[MAX_NPUS];
	struct smi_run r, py;
	char want[1024] = "";
	int count = sys_npus(n), i;

	smi(&r, "-j", NULL, NULL, NULL);
	assert_status(&r, SMI_OK);
	py_json("for n in d['npus']:\n"
		"    p = n['pci']\n"
		"    print(n['index'], n['backend'], p['bus_id'] if p else '-',\n"
		"          p['vendor_id'] + ':' + p['device_id'] if p else '-')\n",
		r.out, &py);
	for (i = 0; i < count; i++) {
		size_t len = strlen(want);

		snprintf(want + len, sizeof(want) - len, "%d %s %s %s\n",
			 n[i].index, n[i].backend,
			 n[i].bus_id[0] ? n[i].bus_id : "-",
			 n[i].bus_id[0] ? "0x1234:0x11e8" : "-");
	}
	ck_assert_str_eq(py.out, want);
	run_free(&py);
	run_free(&r);
}
END_TEST

/* The matrix row of NPU index, as its tokens joined by single spaces. */
static void topo_row(const char *out, int index, char *row, size_t size)
{
	char head[16], tok[16];
	const char *p;
	int i, n;

	snprintf(head, sizeof(head), "\nNPU%d ", index);
	p = strstr(out, head);
	ck_assert_msg(p, "no row NPU%d:\n%s", index, out);
	p += strlen(head);
	row[0] = '\0';
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(sscanf(p, "%15s%n", tok, &n), 1);
		p += n;
		snprintf(row + strlen(row), size - strlen(row), "%s%s",
			 i ? " " : "", tok);
	}
}

START_TEST(test_topo_peers_by_backend)
{
	struct sys_npu n[MAX_NPUS];
	char row[64], json_rows[256] = "";
	struct smi_run r, py;
	int i;

	ck_assert_int_eq(sys_npus(n), 4);
	smi(&r, "info", "-t", "topo", NULL);
	assert_status(&r, SMI_OK);
	/* edu NPUs 0, 1 reach each other over PCI; sim 2, 3 in the driver. */
	topo_row(r.out, 0, row, sizeof(row));
	ck_assert_str_eq(row, "X PHB - -");
	topo_row(r.out, 1, row, sizeof(row));
	ck_assert_str_eq(row, "PHB X - -");
	topo_row(r.out, 2, row, sizeof(row));
	ck_assert_str_eq(row, "- - X SIM");
	topo_row(r.out, 3, row, sizeof(row));
	ck_assert_str_eq(row, "- - SIM X");
	ck_assert_ptr_nonnull(strstr(r.out, "Legend:"));
	for (i = 0; i < 4; i++) {
		topo_row(r.out, i, row, sizeof(row));
		snprintf(json_rows + strlen(json_rows),
			 sizeof(json_rows) - strlen(json_rows), "%s\n", row);
	}
	run_free(&r);

	smi(&r, "-t", "topo", "-j", NULL);
	assert_status(&r, SMI_OK);
	py_json("assert d['npus'] == [0, 1, 2, 3]\n"
		"for row in d['rows']:\n    print(' '.join(row['links']))\n",
		r.out, &py);
	ck_assert_str_eq(py.out, json_rows);
	run_free(&py);
	run_free(&r);
}
END_TEST

START_TEST(test_missing_npu_and_bad_usage_exit_codes)
{
	struct smi_run r;

	smi(&r, "-i", "9", NULL, NULL);
	assert_status(&r, SMI_NO_SUCH_NPU);
	ck_assert_str_eq(r.out, "");
	ck_assert_ptr_nonnull(strstr(r.err, "npu-smi: no NPU 9"));
	run_free(&r);

	smi(&r, "-t", "topo", "-j", "-i9");
	assert_status(&r, SMI_NO_SUCH_NPU);
	run_free(&r);

	smi(&r, "--bogus", NULL, NULL, NULL);
	assert_status(&r, SMI_USAGE);
	ck_assert_str_eq(r.out, "");
	run_free(&r);

	smi(&r, "-i", "x", NULL, NULL);
	assert_status(&r, SMI_USAGE);
	run_free(&r);
}
END_TEST

START_TEST(test_works_without_root)
{
	char *argv[] = { smi_path, (char *)"-j", NULL };
	struct smi_run r, py;

	if (getuid() != 0)
		return;		/* already unprivileged: the other tests cover it */
	run_as(NOBODY, argv, &r);
	assert_status(&r, SMI_OK);
	py_json("print(len(d['npus']), [n['pci']['vendor'] for n in d['npus'] if n['pci']])",
		r.out, &py);
	ck_assert_str_eq(py.out, "4 ['QEMU', 'QEMU']\n");
	run_free(&py);
	run_free(&r);
}
END_TEST

START_TEST(test_module_unloaded_is_no_npu)
{
	struct smi_run r;

	ck_assert_int_eq(t_module_unload(MOD), 0);
	smi(&r, NULL, NULL, NULL, NULL);
	assert_status(&r, SMI_NO_NPU);
	ck_assert_str_eq(r.out, "");
	ck_assert_ptr_nonnull(strstr(r.err, "module loaded"));
	run_free(&r);

	smi(&r, "-t", "topo", "-j", NULL);
	assert_status(&r, SMI_NO_NPU);
	run_free(&r);
}
END_TEST

/* Unchecked teardown: runs in the runner even when the test failed. */
static void reload_default(void)
{
	if (!t_module_loaded(MOD) && t_module_load(t_ko(), t_default_args()))
		fprintf(stderr, "t_npu_smi: cannot reload %s\n", t_ko());
}

static Suite *npu_smi_suite(void)
{
	Suite *s = suite_create("t_npu_smi");
	TCase *info = tcase_create("info");
	TCase *topo = tcase_create("topo");
	TCase *codes = tcase_create("exit_codes");
	TCase *unload = tcase_create("unloaded");

	tcase_add_checked_fixture(info, setup, NULL);
	tcase_set_timeout(info, 120);
	tcase_add_test(info, test_info_lists_every_npu_with_its_backend);
	tcase_add_test(info, test_info_edu_bus_ids_match_sysfs);
	tcase_add_test(info, test_info_memory_used_follows_alloc_edu);
	tcase_add_test(info, test_info_memory_used_follows_alloc_sim);
	tcase_add_test(info, test_info_process_table_shows_own_pid);
	tcase_add_test(info, test_json_has_the_same_facts_as_sysfs);
	tcase_add_test(info, test_works_without_root);
	suite_add_tcase(s, info);

	tcase_add_checked_fixture(topo, setup, NULL);
	tcase_set_timeout(topo, 120);
	tcase_add_test(topo, test_topo_peers_by_backend);
	suite_add_tcase(s, topo);

	tcase_add_checked_fixture(codes, setup, NULL);
	tcase_set_timeout(codes, 120);
	tcase_add_test(codes, test_missing_npu_and_bad_usage_exit_codes);
	suite_add_tcase(s, codes);

	/* Last: it unloads the module, then puts it back. */
	tcase_add_checked_fixture(unload, setup, NULL);
	tcase_add_unchecked_fixture(unload, NULL, reload_default);
	tcase_set_timeout(unload, 120);
	tcase_add_test(unload, test_module_unloaded_is_no_npu);
	suite_add_tcase(s, unload);
	return s;
}

int main(void)
{
	return t_run_suite(npu_smi_suite());
}
