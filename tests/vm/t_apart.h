/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The other process of a sharing test: this program run again, with the
 * arguments it is given, either as our child (fork+exec) or started
 * apart, as a daemon would be (fork, setsid, fork again, exec): then it
 * is not our child but init's, in a session of its own, and shares
 * nothing with us but what the test sends it.
 *
 * The two talk through a UNIX socket bound to a path (t_apart_listen(),
 * t_apart_connect()), which is how unrelated processes find each other;
 * dma-bufs cross it as SCM_RIGHTS (t_send_fd()).
 */
#ifndef T_APART_H
#define T_APART_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

/* How the other process starts: T_APART_EXEC or T_APART_DAEMON. */
enum { T_APART_EXEC, T_APART_DAEMON };

/*
 * Run /proc/self/exe with @argv (NULL-terminated) as @how says. The pid
 * to wait for with t_apart_wait() (T_APART_EXEC), or 0 (T_APART_DAEMON:
 * the middle process has exited; the daemon reports over the socket).
 */
static inline pid_t t_apart_spawn(char *const argv[], int how)
{
	pid_t pid = fork(), mid;
	int st;

	ck_assert_int_ge(pid, 0);
	if (!pid) {
		if (how == T_APART_DAEMON) {
			if (setsid() < 0)
				_exit(126);
			mid = fork();
			if (mid)
				_exit(mid < 0 ? 126 : 0);
		}
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	if (how == T_APART_EXEC)
		return pid;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return 0;
}

/* The exit status of a child: forked, or spawned with T_APART_EXEC. */
static inline int t_apart_wait(pid_t pid)
{
	int st;

	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static inline void t_apart_addr(struct sockaddr_un *a, const char *path)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	snprintf(a->sun_path, sizeof(a->sun_path), "%s", path);
}

/* A socket listening at a new path under /tmp (written to @path). */
static inline int t_apart_listen(char *path, size_t size)
{
	char dir[] = "/tmp/t_apartXXXXXX";
	struct sockaddr_un a;
	int s;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, size, "%s/sock", dir);
	t_apart_addr(&a, path);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(s, 0);
	ck_assert_int_eq(bind(s, (struct sockaddr *)&a, sizeof(a)), 0);
	ck_assert_int_eq(listen(s, 1), 0);
	return s;
}

/* The other side's connection, accepted; the path and its directory go. */
static inline int t_apart_accept(int s, const char *path)
{
	char dir[108];
	int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);

	ck_assert_int_ge(c, 0);
	close(s);
	unlink(path);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = 0;
	rmdir(dir);
	return c;
}

/* In the other process: connected to @path, or -1. */
static inline int t_apart_connect(const char *path)
{
	struct sockaddr_un a;
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	t_apart_addr(&a, path);
	if (s >= 0 && connect(s, (struct sockaddr *)&a, sizeof(a))) {
		close(s);
		s = -1;
	}
	return s;
}

/* Whole reads and writes on the socket: 0, or -1. */
static inline int t_apart_send(int s, const void *p, size_t n)
{
	return write(s, p, n) == (ssize_t)n ? 0 : -1;
}

static inline int t_apart_recv(int s, void *p, size_t n)
{
	return read(s, p, n) == (ssize_t)n ? 0 : -1;
}

#endif /* T_APART_H */
