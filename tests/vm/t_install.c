// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: the project as make install leaves it. tests/vm/Makefile ran
 * `make install DESTDIR=build/install PREFIX=/usr` on the host and built
 * build/t_install_app (t_install_app.c) against that tree with
 * `pkg-config --cflags --libs acl` alone. Here the tree is checked, the
 * NPUs' DRM nodes get the owner and mode the installed udev rule gives
 * them (group npu is a numeric gid: the guest's /etc is the host's), and
 * the application runs against the installed library as an unprivileged
 * user, once in group npu and once not.
 */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "t_vm.h"

#define NPU_GID 4242		/* stands for group "npu" */
#define NOBODY 65534
#define MAX_NODES 32
#define ACL_ERROR_RT_NO_PERMISSION 207006

/* A program's exit status (-1 if it did not exit) and its output. */
struct run {
	int status;
	char out[4096];
	char err[4096];
};

#define OUT_FILE "/tmp/t_install.out"
#define ERR_FILE "/tmp/t_install.err"

#define TREE_MAX 1024
static char top[TREE_MAX];		/* the project tree */
static char inst[TREE_MAX + 16];	/* DESTDIR of make install */
static char app[TREE_MAX + 32];

/* The NPUs' nodes as they were before the rule was applied. */
static struct node {
	char path[64];		/* /dev/dri/renderD128 */
	char sys[600];		/* /sys/class/drm/renderD128 */
	struct stat st;
} nodes[MAX_NODES];
static int nr_nodes;
/* The primary (cardN) nodes DRM made beside them on 6.1. */
static struct node cards[MAX_NODES];
static int nr_cards;

static void find_paths(void)
{
	char exe[PATH_MAX], path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 8);

	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	strcat(exe, "/../..");
	ck_assert(realpath(exe, path));
	ck_assert_int_lt(strlen(path), sizeof(top));
	strcpy(top, path);
	snprintf(inst, sizeof(inst), "%s/build/install", top);
	snprintf(app, sizeof(app), "%s/build/t_install_app", top);
	ck_assert_msg(!access(app, X_OK), "no %s: make userspace", app);
}

static char *slurp(const char *path)
{
	static char buf[65536];

	ck_assert_msg(!t_read_file(path, buf, sizeof(buf)), "read %s", path);
	return buf;
}

static char *slurp_in(const char *rel)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", inst, rel);
	return slurp(path);
}

static void assert_link(const char *rel, const char *target)
{
	char path[PATH_MAX + 64], got[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", inst, rel);
	n = readlink(path, got, sizeof(got) - 1);
	ck_assert_msg(n > 0, "%s is no symlink", rel);
	got[n] = '\0';
	ck_assert_str_eq(got, target);
}

static void assert_file(const char *rel, mode_t mode)
{
	char path[PATH_MAX + 64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", inst, rel);
	ck_assert_msg(!lstat(path, &st) && S_ISREG(st.st_mode),
		      "%s not installed", rel);
	ck_assert_msg((st.st_mode & 07777) == mode, "%s has mode %o, want %o",
		      rel, st.st_mode & 07777, mode);
}

/* In the child: become nobody with the supplementary @groups, then exec. */
static void exec_as(const gid_t *groups, int ngroups, char *const argv[],
		    char *const envp[])
{
	if (groups && (setgroups(ngroups, groups) ||
		       setresgid(NOBODY, NOBODY, NOBODY) ||
		       setresuid(NOBODY, NOBODY, NOBODY)))
		_exit(126);
	execve(argv[0], argv, envp);
	_exit(127);
}

/* Capture @path, opened for the child's output. */
static int out_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
	return fd;
}

/* Run argv (absolute) with envp, as root if @groups is NULL. */
static void run(const gid_t *groups, int ngroups, char *const argv[],
		char *const envp[], struct run *r)
{
	int out = out_file(OUT_FILE), err = out_file(ERR_FILE);
	int status;
	pid_t pid;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		dup2(out, 1);
		dup2(err, 2);
		exec_as(groups, ngroups, argv, envp);
	}
	close(out);
	close(err);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	ck_assert(!t_read_file(OUT_FILE, r->out, sizeof(r->out)));
	ck_assert(!t_read_file(ERR_FILE, r->err, sizeof(r->err)));
}

/* Physical index (npu_index) of the first NPU of @backend, or -1. */
static int find_npu(const char *backend)
{
	char buf[16];
	int i;

	for (i = 0; i < MAX_NODES; i++)
		if (!t_npu_attr(i, "backend", buf, sizeof(buf)) &&
		    !strcmp(buf, backend))
			return i;
	return -1;
}

/* The application on NPU @npu, as nobody with @groups. */
static void run_app(int npu, size_t bytes, const gid_t *groups, int ngroups,
		    struct run *r)
{
	char visible[48], size[24];
	char *argv[] = { app, (char *)"0", size, NULL };
	char *envp[] = { visible, (char *)"PATH=/usr/bin:/bin", NULL };

	snprintf(visible, sizeof(visible), "ASCEND_RT_VISIBLE_DEVICES=%d", npu);
	snprintf(size, sizeof(size), "%zu", bytes);
	run(groups, ngroups, argv, envp, r);
}

#define UDEVADM "/bin/udevadm"
#define RUN_RULE "/run/udev/rules.d/70-npu-dma.rules"
#define TMP_GROUP "/tmp/t_install.group"

static bool by_udev;	/* udevadm applied the rule, not this test */

/*
 * Give udev the installed rule (in /run, the guest's tmpfs) and a group
 * "npu" (a copy of /etc/group bound over the read-only one).
 */
static int udev_prepare(void)
{
	char rule[PATH_MAX], cmd[2 * PATH_MAX];

	if (access(UDEVADM, X_OK))
		return -1;
	snprintf(rule, sizeof(rule), "%s/usr/lib/udev/rules.d/70-npu-dma.rules",
		 inst);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p /run/udev/rules.d && cp %s " RUN_RULE " && "
		 "{ cat /etc/group; echo npu:x:%d:; } > " TMP_GROUP, rule,
		 NPU_GID);
	if (system(cmd))
		return -1;
	return mount(TMP_GROUP, "/etc/group", NULL, MS_BIND, NULL);
}

/* udevadm test of the DRM minor at sysfs path @sys: the rules applied. */
static void udev_add(const char *sys)
{
	char *argv[] = { (char *)UDEVADM, (char *)"test",
			 (char *)"--action=add", (char *)sys, NULL };
	char *envp[] = { NULL };
	struct run r;

	run(NULL, 0, argv, envp, &r);
	if (r.status)
		printf("udevadm test %s exited %d:\n%s\n", sys, r.status, r.err);
}

/* Remember node @name ("renderD128", "card0") of class @cls in @n. */
static int node_note(struct node *n, const char *cls, const char *devdir,
		     const char *name)
{
	snprintf(n->path, sizeof(n->path), "%s/%.32s", devdir, name);
	snprintf(n->sys, sizeof(n->sys), "/sys/class/%s/%.32s", cls, name);
	return stat(n->path, &n->st);
}

/* The primary minors in /sys/class/drm whose device is @sysdev's. */
static void find_cards(const char *sysdev)
{
	char dev[PATH_MAX], other[PATH_MAX], path[600];
	struct dirent *de;
	DIR *d;

	if (!realpath(sysdev, dev) || !(d = opendir("/sys/class/drm")))
		return;
	while ((de = readdir(d)) && nr_cards < MAX_NODES) {
		if (strncmp(de->d_name, "card", 4) || strchr(de->d_name, '-'))
			continue;
		snprintf(path, sizeof(path), "/sys/class/drm/%s/device", de->d_name);
		if (realpath(path, other) && !strcmp(other, dev) &&
		    !node_note(&cards[nr_cards], "drm", "/dev/dri", de->d_name))
			nr_cards++;
	}
	closedir(d);
}

/*
 * The nodes as the installed udev rule leaves them: root:npu, 0660. With
 * udevadm, every rule of the system runs on every minor of the NPUs,
 * their primary nodes too; by hand, this test does what the rule says
 * for the nodes it names (render and accel nodes of the driver).
 */
static void apply_rule(void)
{
	struct npu_node list[MAX_NODES];
	int count, i;

	find_paths();
	count = npu_node_list("/sys", list, MAX_NODES);
	if (!count)
		return;
	by_udev = !udev_prepare();
	if (!by_udev)
		printf("no udevadm: the rule applied by hand\n");
	for (i = 0; i < count; i++) {
		struct node *n = &nodes[nr_nodes];
		int first_card = nr_cards;

		snprintf(n->path, sizeof(n->path), "%s", list[i].node);
		/* The minor's directory: its bus device's, without "/device". */
		snprintf(n->sys, sizeof(n->sys), "%.*s",
			 (int)(strlen(list[i].sysdir) - strlen("/device")), list[i].sysdir);
		if (stat(n->path, &n->st))
			continue;
		nr_nodes++;
		find_cards(list[i].sysdir);
		if (by_udev) {
			udev_add(n->sys);
			for (; first_card < nr_cards; first_card++)
				udev_add(cards[first_card].sys);
		} else if (chown(n->path, 0, NPU_GID) || chmod(n->path, 0660)) {
			perror(n->path);
		}
	}
}

static void restore_list(struct node *list, int count)
{
	int i;

	for (i = 0; i < count; i++) {
		struct node *n = &list[i];

		if (chown(n->path, n->st.st_uid, n->st.st_gid) ||
		    chmod(n->path, n->st.st_mode & 07777))
			perror(n->path);
	}
}

static void restore_nodes(void)
{
	restore_list(nodes, nr_nodes);
	restore_list(cards, nr_cards);
	if (by_udev) {
		umount("/etc/group");
		unlink(TMP_GROUP);
		unlink(RUN_RULE);
	}
}

START_TEST(test_tree_has_library_headers_and_pc)
{
	static const char *const links[] = {
		"libascendcl.so.1", "libacl.so", "libascendcl.so", "libacl_rt.so",
	};
	char *pc;
	size_t i;

	assert_file("usr/lib/npu-dma/libascendcl.so.1.0.0", 0755);
	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		char rel[64];

		snprintf(rel, sizeof(rel), "usr/lib/npu-dma/%s", links[i]);
		assert_link(rel, "libascendcl.so.1.0.0");
	}
	assert_file("usr/lib/npu-dma/libacl.a", 0644);
	assert_file("usr/include/acl/acl.h", 0644);
	assert_file("usr/include/acl/acl_rt.h", 0644);
	assert_file("usr/include/acl/error_codes/rt_error_codes.h", 0644);
	assert_file("usr/include/drm/npu_dma_accel.h", 0644);
	assert_file("usr/lib/pkgconfig/acl.pc", 0644);

	pc = slurp_in("usr/lib/pkgconfig/acl.pc");
	ck_assert_msg(strstr(pc, "prefix=/usr\n"), "acl.pc:\n%s", pc);
	ck_assert_msg(strstr(pc, "libdir=${prefix}/lib/npu-dma\n"),
		      "acl.pc:\n%s", pc);
	ck_assert_msg(strstr(pc, "Libs: -L${libdir} -Wl,-rpath,${libdir} -lacl\n"),
		      "acl.pc:\n%s", pc);
	ck_assert_msg(!strstr(pc, top), "acl.pc names the build tree:\n%s", pc);
}
END_TEST

/* The system's own .pc directories (libdrm's among them). */
#define SYS_PC_PATH "/usr/local/lib/x86_64-linux-gnu/pkgconfig:/usr/local/lib/pkgconfig:" \
	"/usr/local/share/pkgconfig:/usr/lib/x86_64-linux-gnu/pkgconfig:/usr/lib/pkgconfig:" \
	"/usr/share/pkgconfig"

/*
 * acl.pc's own flags, into the tree; when it requires libdrm (privately,
 * for the static library), libdrm's include directory follows its own,
 * under the same sysroot as pkg-config puts every package.
 */
START_TEST(test_pkg_config_points_into_the_tree)
{
	char sysroot[PATH_MAX + 32], libdir[PATH_MAX + 512], want[4 * PATH_MAX];
	char drm[PATH_MAX + 32] = "";
	char *argv[] = { (char *)"/usr/bin/pkg-config", (char *)"--cflags",
			 (char *)"--libs", (char *)"acl", NULL };
	char *envp[] = { sysroot, libdir, NULL };
	struct run r;

	snprintf(sysroot, sizeof(sysroot), "PKG_CONFIG_SYSROOT_DIR=%s", inst);
	snprintf(libdir, sizeof(libdir),
		 "PKG_CONFIG_LIBDIR=%s/usr/lib/pkgconfig:" SYS_PC_PATH, inst);
	if (strstr(slurp_in("usr/lib/pkgconfig/acl.pc"), "\nRequires.private: libdrm\n"))
		snprintf(drm, sizeof(drm), "-I%s/usr/include/libdrm ", inst);
	run(NULL, 0, argv, envp, &r);
	snprintf(want, sizeof(want),
		 "-I%s/usr/include %s-L%s/usr/lib/npu-dma "
		 "-Wl,-rpath,%s/usr/lib/npu-dma -lacl ", inst, drm, inst, inst);
	ck_assert_msg(r.status == 0 && !strcmp(r.out, want),
		      "pkg-config exited %d: \"%s\", want \"%s\" (%s)", r.status,
		      r.out, want, r.err);
}
END_TEST

/* Every installed tool runs, and has a manual page of this version. */
START_TEST(test_every_tool_has_a_man_page)
{
	char bindir[PATH_MAX + 16], version[32], th[64];
	struct dirent *e;
	int tools = 0;
	DIR *d;

	snprintf(bindir, sizeof(bindir), "%s/VERSION", top);
	ck_assert(!t_read_file(bindir, version, sizeof(version)));
	version[strcspn(version, "\n")] = '\0';
	snprintf(th, sizeof(th), "\"npu-dma %s\"", version);
	snprintf(bindir, sizeof(bindir), "%s/usr/bin", inst);
	d = opendir(bindir);
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		char rel[300];

		if (e->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "usr/bin/%s", e->d_name);
		assert_file(rel, 0755);
		snprintf(rel, sizeof(rel), "usr/share/man/man1/%s.1", e->d_name);
		assert_file(rel, 0644);
		ck_assert_msg(strstr(slurp_in(rel), th), "%s lacks %s", rel, th);
		tools++;
	}
	closedir(d);
	ck_assert_int_ge(tools, 1);
	assert_file("usr/share/man/man1/npu-smi.1", 0644);
	assert_file("usr/share/doc/npu-dma/examples/modprobe.d/npu-dma.conf",
		    0644);
}
END_TEST

/* Installed tools that link libacl find the installed one by themselves. */
START_TEST(test_tools_load_the_installed_library)
{
	char bindir[TREE_MAX + 32], tool[TREE_MAX + 300], want[TREE_MAX + 64];
	char *argv[] = { tool, NULL };
	char *envp[] = { (char *)"LD_TRACE_LOADED_OBJECTS=1", NULL };
	struct dirent *e;
	int linked = 0;
	struct run r;
	DIR *d;

	snprintf(bindir, sizeof(bindir), "%s/usr/bin", inst);
	snprintf(want, sizeof(want), "libascendcl.so.1 => %s/usr/bin/../lib/npu-dma/",
		 inst);
	d = opendir(bindir);
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(tool, sizeof(tool), "%s/%s", bindir, e->d_name);
		run(NULL, 0, argv, envp, &r);
		ck_assert_msg(r.status == 0, "%s: %s", tool, r.err);
		if (!strstr(r.out, "libascendcl.so.1"))
			continue;
		ck_assert_msg(strstr(r.out, want), "%s loads:\n%s", tool, r.out);
		linked++;
	}
	closedir(d);
	printf("%d installed tools link libacl\n", linked);
}
END_TEST

START_TEST(test_udev_rule_gives_nodes_to_group_npu)
{
	char *rule;

	assert_file("usr/lib/udev/rules.d/70-npu-dma.rules", 0644);
	rule = slurp_in("usr/lib/udev/rules.d/70-npu-dma.rules");
	ck_assert_msg(strstr(rule, "SUBSYSTEM==\"drm\"") &&
		      strstr(rule, "renderD") &&
		      strstr(rule, "GROUP=\"npu\"") &&
		      strstr(rule, "MODE=\"0660\""), "rule:\n%s", rule);
}
END_TEST

/*
 * Every node of every NPU is root:npu 0660 after the rules. The primary
 * nodes 6.1 adds must not be a way around the group either: the
 * system's own rules give card nodes to group video, and the driver's
 * ioctls answer on a primary node too; after every rule of the system
 * they belong to root and group npu, with nothing for others.
 */
START_TEST(test_nodes_belong_to_group_npu)
{
	struct stat st;
	int i;

	ck_assert_int_gt(nr_nodes, 0);
	for (i = 0; i < nr_nodes; i++) {
		ck_assert_int_eq(stat(nodes[i].path, &st), 0);
		ck_assert_msg(st.st_uid == 0 && st.st_gid == NPU_GID &&
			      (st.st_mode & 07777) == 0660,
			      "%s is %u:%u %o after the rule (udev: %d)",
			      nodes[i].path, st.st_uid, st.st_gid,
			      st.st_mode & 07777, by_udev);
	}
	for (i = 0; i < nr_cards; i++) {
		ck_assert_int_eq(stat(cards[i].path, &st), 0);
		ck_assert_msg(st.st_uid == 0 && (st.st_gid == 0 || st.st_gid == NPU_GID) &&
			      !(st.st_mode & 0007),
			      "%s (primary node of an NPU) is %u:%u %o after the rules (udev: %d)",
			      cards[i].path, st.st_uid, st.st_gid, st.st_mode & 07777,
			      by_udev);
	}
}
END_TEST

/* Loop index 0 = sim (1 MiB + 1), 1 = edu (small: the card is slow). */
static const struct {
	const char *backend;
	size_t bytes;
} cases[] = { { "sim", (1 << 20) + 1 }, { "edu", 4097 } };

START_TEST(test_app_runs_as_member_of_group_npu)
{
	static const gid_t groups[] = { NPU_GID };
	int npu = find_npu(cases[_i].backend);
	char want[PATH_MAX + 64];
	struct run r;

	T_SKIP_UNLESS(npu >= 0, "no %s NPU", cases[_i].backend);
	run_app(npu, cases[_i].bytes, groups, 1, &r);
	snprintf(want, sizeof(want), "ok %zu bytes via %s/usr/lib/npu-dma/libascendcl.so.1",
		 cases[_i].bytes, inst);
	ck_assert_msg(r.status == 0 && !strcmp(r.out, want),
		      "app on NPU %d exited %d\nstdout: %s\nstderr: %s",
		      npu, r.status, r.out, r.err);
}
END_TEST

/* 1 if @text names the DRM node of one of the NPUs. */
static int names_an_npu_node(const char *text)
{
	struct npu_node list[MAX_NODES];
	int i, n = npu_node_list("/sys", list, MAX_NODES);

	for (i = 0; i < n; i++)
		if (strstr(text, list[i].node))
			return 1;
	return 0;
}

/*
 * Outside the group the application fails with 207006 and a message that
 * says why and names an NPU's node: libacl orders NPUs by the index
 * GET_INFO reports, so when it can open none it cannot tell which node
 * is the visible device, and names the ones it tried.
 */
START_TEST(test_app_refused_outside_group_npu)
{
	static const gid_t groups[] = { NOBODY };
	int npu = find_npu("sim");
	char code[16];
	struct run r;

	if (npu < 0)
		npu = find_npu("edu");
	ck_assert_int_ge(npu, 0);
	run_app(npu, 4096, groups, 1, &r);
	snprintf(code, sizeof(code), "%d", ACL_ERROR_RT_NO_PERMISSION);
	ck_assert_msg(r.status == 1 && strstr(r.err, "aclrtSetDevice") &&
		      strstr(r.err, code) && names_an_npu_node(r.err) &&
		      strstr(r.err, "Permission denied"),
		      "app exited %d\nstdout: %s\nstderr: %s", r.status, r.out,
		      r.err);
	printf("as nobody: %s\n", r.err);
}
END_TEST

static Suite *install_suite(void)
{
	Suite *s = suite_create("install");
	TCase *tree = tcase_create("tree");
	TCase *use = tcase_create("use");

	tcase_add_unchecked_fixture(tree, find_paths, NULL);
	/* Loading every installed tool takes seconds on a loaded TCG guest. */
	tcase_set_timeout(tree, 60);
	tcase_add_test(tree, test_tree_has_library_headers_and_pc);
	tcase_add_test(tree, test_pkg_config_points_into_the_tree);
	tcase_add_test(tree, test_every_tool_has_a_man_page);
	tcase_add_test(tree, test_tools_load_the_installed_library);
	tcase_add_test(tree, test_udev_rule_gives_nodes_to_group_npu);
	suite_add_tcase(s, tree);

	tcase_add_unchecked_fixture(use, apply_rule, restore_nodes);
	tcase_set_timeout(use, 60);
	tcase_add_test(use, test_nodes_belong_to_group_npu);
	tcase_add_loop_test(use, test_app_runs_as_member_of_group_npu, 0, 2);
	tcase_add_test(use, test_app_refused_outside_group_npu);
	suite_add_tcase(s, use);
	return s;
}

int main(void)
{
	return t_run_suite(install_suite());
}
