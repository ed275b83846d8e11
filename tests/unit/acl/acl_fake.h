/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the libacl unit tests that run against fake NPUs
 * (tests/unit/kmd/fake_kmd.h). Check forks each test, so every test
 * starts with a fresh library and no fake NPU; a fixture adds them.
 */
#ifndef ACL_FAKE_H
#define ACL_FAKE_H

#include <check.h>
#include <stdint.h>
#include <string.h>

#include "acl/acl.h"
#include "fake_kmd.h"

/* One default fake NPU of index @index. */
static inline void fake_add_index(uint32_t index)
{
	struct fake_npu_cfg c = { .index = index };

	ck_assert_int_eq(fake_npu_add(&c), 0);
}

/* Position-dependent bytes, different per @seed: a misplaced byte shows. */
static inline void fill_pattern(void *p, size_t n, unsigned int seed)
{
	unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(i * 7 + seed * 13 + (i >> 8));
}

/* First index where @p differs from the pattern, or -1. */
static inline long pattern_diff(const void *p, size_t n, unsigned int seed)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != (unsigned char)(i * 7 + seed * 13 + (i >> 8)))
			return (long)i;
	return -1;
}

#define ck_assert_pattern(p, n, seed) \
	ck_assert_msg(pattern_diff((p), (n), (seed)) < 0, \
		      "byte %ld of %s differs from pattern %u", \
		      pattern_diff((p), (n), (seed)), #p, (unsigned int)(seed))

/* aclrtSetDevice(@id) that must work. */
static inline void set_device(int32_t id)
{
	aclError ret = aclrtSetDevice(id);

	ck_assert_msg(ret == ACL_SUCCESS, "aclrtSetDevice(%d) = %d: %s", id,
		      ret, aclGetRecentErrMsg());
}

#endif /* ACL_FAKE_H */
