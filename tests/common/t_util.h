/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the tests: sysfs reading, kernel log markers,
 * module loading, data patterns. Functions return 0 or -errno.
 */
#ifndef T_UTIL_H
#define T_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Read a whole (small) file into buf, NUL-terminated, trailing newline cut. */
int t_read_file(const char *path, char *buf, size_t size);
/* Write text to an existing file (sysfs, procfs, debugfs) in one write. */
int t_write_file(const char *path, const char *text);
/* Same as t_read_file for a printf-formatted path. */
int t_read_attr(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Parse a decimal unsigned 64-bit number, the whole string. */
int t_parse_u64(const char *s, uint64_t *val);
/* 1 if the printf-formatted path exists, else 0. */
int t_exists(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* CLOCK_MONOTONIC in nanoseconds: the clock of the driver's timestamps. */
uint64_t t_now_ns(void);

/*
 * Kernel log: t_kmsg_mark() writes a unique marker line to /dev/kmsg;
 * t_kmsg_since() returns (malloc'ed) the log text after that marker.
 */
int t_kmsg_mark(char *mark, size_t size);
char *t_kmsg_since(const char *mark);
/* Pure helper of t_kmsg_since(): text after the last line holding mark. */
const char *t_log_after(const char *log, const char *mark);

/* Kernel modules, by file path and by name. */
int t_module_load(const char *path, const char *params);
int t_module_unload(const char *name);
int t_module_loaded(const char *name);

/* Position- and seed-dependent byte pattern, and its check. */
void t_pattern_fill(void *buf, size_t len, uint32_t seed);
/* Return: offset of the first wrong byte, or len when all match. */
size_t t_pattern_check(const void *buf, size_t len, uint32_t seed);
/*
 * Offset of the first byte that is not value, or len. One Check assert
 * on its result, not one per byte: each assert is a write(2) to the
 * runner (its last checkpoint), slow in the guest on megabytes.
 */
size_t t_bytes_check(const void *buf, size_t len, uint8_t value);

#endif /* T_UTIL_H */
