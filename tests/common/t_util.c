// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helpers shared by the tests. Unit-tested in tests/unit/common/.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "t_util.h"

#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_SIZE_BUFFER	10

int t_read_file(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	if (!size)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

int t_write_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd, ret = 0;

	/* O_TRUNC: what clears a tracing buffer; harmless elsewhere. */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* sysfs, procfs and debugfs take a value in one write. */
	n = write(fd, text, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int t_read_attr(char *buf, size_t size, const char *fmt, ...)
{
	char path[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	return t_read_file(path, buf, size);
}

int t_parse_u64(const char *s, uint64_t *val)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*val = v;
	return 0;
}

int t_exists(const char *fmt, ...)
{
	char path[512];
	struct stat st;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	return lstat(path, &st) == 0;
}

uint64_t t_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int t_kmsg_mark(char *mark, size_t size)
{
	static unsigned int seq;
	struct timespec ts;
	int fd, len;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	len = snprintf(mark, size, "npu-test-mark-%d-%u-%ld", getpid(), seq++,
		       (long)ts.tv_nsec);
	if (len < 0 || (size_t)len + 1 >= size)
		return -EINVAL;
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/*
	 * With its newline: a record without one stays open for a
	 * continuation, and readers of the log do not see it until the
	 * next record is stored (a test that logs nothing after it would
	 * not find its own mark).
	 */
	mark[len] = '\n';
	if (write(fd, mark, len + 1) != len + 1) {
		mark[len] = '\0';
		close(fd);
		return -EIO;
	}
	mark[len] = '\0';
	close(fd);
	return 0;
}

const char *t_log_after(const char *log, const char *mark)
{
	const char *hit = NULL, *p = log;

	while ((p = strstr(p, mark))) {
		hit = p;
		p += strlen(mark);
	}
	if (!hit)
		return NULL;
	p = strchr(hit, '\n');
	return p ? p + 1 : hit + strlen(hit);
}

/*
 * Every record of the kernel log, one message per line (malloc'ed), read
 * from /dev/kmsg: it has each record as soon as it is stored, where
 * syslog(2)'s READ_ALL only has what the consoles have printed (a
 * record written a moment ago may not be there yet). NULL on failure.
 */
static char *kmsg_records(void)
{
	size_t len = 0, cap = 1 << 16;
	char rec[8192], *out, *msg, *nl, *p;
	ssize_t n;
	int fd;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	out = malloc(cap);
	if (!out) {
		close(fd);
		return NULL;
	}
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten meanwhile: go on */
		if (n <= 0)
			break;		/* EAGAIN: that was the last one */
		rec[n] = '\0';
		/* "prio,seq,usec,flags;message\n" then " KEY=value" lines */
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = '\0';
		if (len + strlen(msg) + 2 > cap) {
			cap = 2 * (len + strlen(msg) + 2);
			p = realloc(out, cap);
			if (!p) {
				free(out);
				close(fd);
				return NULL;
			}
			out = p;
		}
		len += (size_t)sprintf(out + len, "%s\n", msg);
	}
	close(fd);
	out[len] = '\0';
	return out;
}

/* The whole log through syslog(2), if /dev/kmsg cannot be read. */
static char *syslog_text(void)
{
	int size, n;
	char *log;

	size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	if (size <= 0)
		return NULL;
	log = malloc(size + 1);
	if (!log)
		return NULL;
	n = klogctl(SYSLOG_ACTION_READ_ALL, log, size);
	if (n < 0) {
		free(log);
		return NULL;
	}
	log[n] = '\0';
	return log;
}

char *t_kmsg_since(const char *mark)
{
	const char *after;
	char *log, *out;

	log = kmsg_records();
	if (!log)
		log = syslog_text();
	if (!log)
		return NULL;
	after = t_log_after(log, mark);
	out = after ? strdup(after) : NULL;
	free(log);
	return out;
}

int t_module_load(const char *path, const char *params)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

int t_module_unload(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK) ? -errno : 0;
}

int t_module_loaded(const char *name)
{
	return t_exists("/sys/module/%s/initstate", name);
}

/* xorshift32 keyed by seed and position: every byte depends on both. */
static uint8_t t_pattern_byte(size_t i, uint32_t seed)
{
	uint32_t x = seed ^ (uint32_t)(i / 4) * 2654435761u ^ 0x9e3779b9u;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return (uint8_t)(x >> ((i % 4) * 8));
}

void t_pattern_fill(void *buf, size_t len, uint32_t seed)
{
	uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = t_pattern_byte(i, seed);
}

size_t t_pattern_check(const void *buf, size_t len, uint32_t seed)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != t_pattern_byte(i, seed))
			return i;
	return len;
}

size_t t_bytes_check(const void *buf, size_t len, uint8_t value)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != value)
			return i;
	return len;
}
