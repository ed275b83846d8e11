// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host-side test of tools/npu-vm itself: exit statuses, the kernel-log
 * watchdog, timeouts, shares and the interactive shell. Each test boots
 * a guest.
 */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "t_check.h"
#include "t_util.h"

extern char **environ;

static char npu_vm[4096];
static char tmpdir[] = "/tmp/t_npu_vm.XXXXXX";
static char out[1 << 16];

/*
 * Run npu-vm with argv, stdout and stderr both captured in out[].
 * Return: its exit status.
 */
static int run_vm_at(const char *prog, const char *const *args)
{
	const char *argv[32] = { prog };
	posix_spawn_file_actions_t fa;
	char log[256];
	pid_t pid;
	int i, status;

	for (i = 0; args[i]; i++)
		argv[i + 1] = args[i];
	snprintf(log, sizeof(log), "%s/out", tmpdir);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	ck_assert_int_eq(posix_spawn(&pid, prog, &fa, NULL, (char **)argv, environ), 0);
	posix_spawn_file_actions_destroy(&fa);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(t_read_file(log, out, sizeof(out)), 0);
	printf("%s\n", out);
	return WEXITSTATUS(status);
}

static int run_npu_vm(const char *const *args)
{
	return run_vm_at(npu_vm, args);
}

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

/*
 * The guest's NPUs as DRM nodes (render on 6.1, accel where the kernel
 * has it): one line "npuN /dev/dri/renderDX" per node devtmpfs made,
 * written into the share.
 */
static const char list_nodes[] =
	"for d in /sys/class/drm/renderD* /sys/class/accel/accel*; do "
	"[ -r \"$d/device/npu_index\" ] || continue; "
	"n=${d##*/}; case $n in accel*) f=/dev/accel/$n;; *) f=/dev/dri/$n;; esac; "
	"[ -c \"$f\" ] && echo \"npu$(cat \"$d/device/npu_index\") $f\"; "
	"done > %s/dev.txt; exit 3";

START_TEST(test_exit_status_devices_and_share)
{
	char script[1024], list[4096];
	const char *args[] = { "run", "--no-build", "--share", tmpdir, "--",
			       "sh", "-c", script, NULL };
	int i;

	snprintf(script, sizeof(script), list_nodes, tmpdir);
	ck_assert_int_eq(run_npu_vm(args), 3);

	ck_assert_int_eq(t_read_attr(list, sizeof(list), "%s/dev.txt", tmpdir), 0);
	for (i = 0; i < 4; i++) {
		char name[32];

		snprintf(name, sizeof(name), "npu%d /dev/", i);
		ck_assert_msg(strstr(list, name), "no NPU %d node in the guest:\n%s",
			      i, list);
	}
	ck_assert_msg(!strstr(list, "npu4 "), "a fifth NPU:\n%s", list);
}
END_TEST

/*
 * The module is a DRM driver: the DRM core is loaded even with
 * --no-load, so that a test can insmod the module itself.
 */
START_TEST(test_drm_core_loaded_without_the_module)
{
	const char *args[] = { "run", "--no-build", "--no-load", "--edu", "0",
			       "--", "sh", "-c",
			       "test -d /sys/module/drm && "
			       "! grep -q '^npu_dma ' /proc/modules && "
			       "insmod \"$NPU_DMA_KO\" nr_sim=1 && "
			       "echo npus=$(cat /sys/class/drm/renderD*/device/npu_index "
			       "/sys/class/accel/*/device/npu_index 2>/dev/null | wc -l)",
			       NULL };

	ck_assert_int_eq(run_npu_vm(args), 0);
	ck_assert_ptr_nonnull(strstr(out, "npus=1"));
}
END_TEST

START_TEST(test_false_fails)
{
	const char *args[] = { "run", "--no-build", "--", "false", NULL };

	ck_assert_int_eq(run_npu_vm(args), 1);
}
END_TEST

START_TEST(test_output_is_streamed_verbatim)
{
	const char *args[] = { "run", "--no-build", "--", "printf", "a b\\nc\\n", NULL };

	ck_assert_int_eq(run_npu_vm(args), 0);
	ck_assert_str_eq(out, "a b\nc");
}
END_TEST

START_TEST(test_kernel_warning_fails_the_run)
{
	const char *args[] = { "run", "--no-build", "--module-args", "test_hooks=1",
			       "--", "sh", "-c",
			       "echo 1 > /sys/kernel/debug/npu_dma/test_warn", NULL };

	ck_assert_int_eq(run_npu_vm(args), 125);
	ck_assert_ptr_nonnull(strstr(out, "WARNING:"));
	ck_assert_ptr_nonnull(strstr(out, "warning requested through debugfs"));
	ck_assert_ptr_nonnull(strstr(out, "npu-vm: guest kernel log shows a warning"));
}
END_TEST

START_TEST(test_test_hooks_are_off_by_default)
{
	const char *args[] = { "run", "--no-build", "--", "test", "!", "-e",
			       "/sys/kernel/debug/npu_dma/test_warn", NULL };

	ck_assert_int_eq(run_npu_vm(args), 0);
}
END_TEST

START_TEST(test_insmod_failure_is_reported)
{
	const char *args[] = { "run", "--no-build", "--sim", "99", "--", "true", NULL };

	ck_assert_int_eq(run_npu_vm(args), 125);
	ck_assert_ptr_nonnull(strstr(out, "npu-vm: guest setup failed: insmod"));
	ck_assert_ptr_nonnull(strstr(out, "nr_sim=99 out of range"));
}
END_TEST

/*
 * A limit of 20 s or more also leaves a task dump in the kernel log,
 * taken half the limit before it when the limit is under a minute.
 */
START_TEST(test_timeout_is_reported)
{
	const char *args[] = { "run", "--no-build", "--timeout", "30", "--",
			       "sleep", "1000", NULL };
	static char text[4 << 20];
	char log[PATH_MAX];

	ck_assert_int_eq(run_npu_vm(args), 124);
	ck_assert_ptr_nonnull(strstr(out, "npu-vm: timed out after 30 s"));
	/* npu_vm is TREE/tools/npu-vm; the log is TREE/build/npu-vm-kernel.log */
	snprintf(log, sizeof(log), "%.*s/build/npu-vm-kernel.log",
		 (int)(strrchr(npu_vm, '/') - npu_vm) - 6, npu_vm);
	ck_assert_int_eq(t_read_file(log, text, sizeof(text)), 0);
	ck_assert_msg(strstr(text, "task dump") && strstr(text, "Show Blocked State"),
		      "no task dump in %s", log);
}
END_TEST

/*
 * kernel/ also holds what make modules_install built for the host's
 * kernel: with --no-build, a module for another kernel is refused before
 * the guest boots. A copy of npu-vm in a tree of its own, whose module
 * is an object file with only a .modinfo section.
 */
START_TEST(test_module_for_another_kernel_is_refused)
{
	const char *args[] = { "run", "--no-build", "--", "true", NULL };
	char tree[PATH_MAX], prog[PATH_MAX + 16];

	snprintf(tree, sizeof(tree), "%s/tree", tmpdir);
	setenv("T_TREE", tree, 1);
	setenv("T_NPU_VM", npu_vm, 1);
	ck_assert_int_eq(system("set -e; cd \"$T_TREE/..\"; mkdir -p tree/tools tree/kernel\n"
				"src=$(dirname \"$T_NPU_VM\")/..\n"
				"cp \"$T_NPU_VM\" tree/tools/\n"
				"cp \"$src/kernel/Kbuild\" tree/kernel/\n"
				"ln -s \"$src/scripts\" tree/scripts\n"
				"printf 'vermagic=0.0.0-other SMP mod_unload\\0' > modinfo\n"
				"echo 'int x;' | cc -x c -c -o empty.o -\n"
				"objcopy --add-section .modinfo=modinfo empty.o "
				"tree/kernel/$(tree/scripts/ko-name.sh tree/kernel)"),
			 0);
	snprintf(prog, sizeof(prog), "%s/tools/npu-vm", tree);
	ck_assert_int_eq(run_vm_at(prog, args), 125);
	ck_assert_ptr_nonnull(strstr(out, "is built for kernel 0.0.0-other, the guest boots"));
}
END_TEST

START_TEST(test_usage_errors)
{
	const char *no_cmd[] = { "run", "--no-build", NULL };
	const char *bad_opt[] = { "run", "--frobnicate", "--", "true", NULL };
	const char *bad_num[] = { "run", "--edu", "two", "--", "true", NULL };

	ck_assert_int_eq(run_npu_vm(no_cmd), 2);
	ck_assert_int_eq(run_npu_vm(bad_opt), 2);
	ck_assert_int_eq(run_npu_vm(bad_num), 2);
	ck_assert_ptr_nonnull(strstr(out, "--edu needs a number"));
}
END_TEST

/*
 * Append what the pty master fd gives to out[] until it holds want, the
 * other side closed (want NULL: until then) or seconds passed.
 * Return: 1 if want was seen (or the end reached for NULL), else 0.
 */
static int pty_read_until(int fd, size_t *len, const char *want, int seconds)
{
	time_t end = time(NULL) + seconds;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t n;

	while (time(NULL) < end) {
		if (want && strstr(out, want))
			return 1;
		if (poll(&p, 1, 1000) <= 0)
			continue;
		n = read(fd, out + *len, sizeof(out) - 1 - *len);
		if (n <= 0)	/* EIO: the last user of the slave exited */
			return !want;
		*len += n;
		out[*len] = '\0';
	}
	return 0;
}

/*
 * npu-vm shell from a terminal: QEMU must stay in the terminal's
 * foreground process group, or the kernel stops it (SIGTTOU) when it
 * sets the terminal raw. --timeout also covers the timeout(1) wrapper,
 * which once put QEMU in a background group of its own.
 */
START_TEST(test_shell_in_a_terminal)
{
	static const char line[] = "echo \"nodes=$(cat /sys/class/drm/renderD*/device/npu_index "
				   "/sys/class/accel/*/device/npu_index 2>/dev/null | wc -l)\"; exit 7\r";
	size_t len = 0;
	int fd, status;
	pid_t pid;

	out[0] = '\0';
	pid = forkpty(&fd, NULL, NULL, NULL);
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		execl(npu_vm, npu_vm, "shell", "--no-build", "--timeout", "240",
		      (char *)NULL);
		_exit(127);
	}
	/*
	 * Typed before bash opens the serial line, input is lost: wait
	 * for the prompt (root@(none):DIR# ).
	 */
	ck_assert_msg(pty_read_until(fd, &len, "root@", 200), "no prompt: %s", out);
	ck_assert_int_eq(write(fd, line, strlen(line)), (ssize_t)strlen(line));
	pty_read_until(fd, &len, NULL, 60);
	close(fd);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	printf("%s\n", out);
	/* The echoed line holds "nodes=$(", the command's output "nodes=4". */
	ck_assert_ptr_nonnull(strstr(out, "nodes=4"));
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 7);
}
END_TEST

static Suite *npu_vm_suite(void)
{
	Suite *s = suite_create("t_npu_vm");
	TCase *tc = tcase_create("npu_vm");

	tcase_set_timeout(tc, 300);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_usage_errors);
	tcase_add_test(tc, test_module_for_another_kernel_is_refused);
	tcase_add_test(tc, test_exit_status_devices_and_share);
	tcase_add_test(tc, test_drm_core_loaded_without_the_module);
	tcase_add_test(tc, test_false_fails);
	tcase_add_test(tc, test_output_is_streamed_verbatim);
	tcase_add_test(tc, test_kernel_warning_fails_the_run);
	tcase_add_test(tc, test_test_hooks_are_off_by_default);
	tcase_add_test(tc, test_insmod_failure_is_reported);
	tcase_add_test(tc, test_timeout_is_reported);
	tcase_add_test(tc, test_shell_in_a_terminal);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s PATH-TO-npu-vm\n", argv[0]);
		return 2;
	}
	if (!realpath(argv[1], npu_vm))
		return 2;
	return t_run_suite(npu_vm_suite());
}
