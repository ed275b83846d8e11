// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/acl_dtype.c: aclDataTypeSize for every aclDataType,
 * and the half-precision conversions against the compiler's _Float16
 * (IEEE round to nearest even) everywhere CANN's documented behaviour
 * agrees with IEEE, and CANN's values where it does not: saturation to
 * +-65504 for Inf, NaN and overflow, exponent 31 read as a number.
 */
#include <math.h>
#include <stdint.h>

#include "acl_ut.h"
#include "t_check.h"

START_TEST(test_data_type_size)
{
	static const struct {
		aclDataType t;
		size_t size;
	} tab[] = {
		{ ACL_DT_UNDEFINED, 0 }, { ACL_STRING, 0 },
		{ ACL_INT4, 1 }, { ACL_UINT1, 1 }, { ACL_BOOL, 1 },
		{ ACL_INT8, 1 }, { ACL_UINT8, 1 }, { ACL_HIFLOAT8, 1 },
		{ ACL_FLOAT8_E5M2, 1 }, { ACL_FLOAT8_E4M3FN, 1 },
		{ ACL_FLOAT8_E8M0, 1 },
		{ ACL_FLOAT16, 2 }, { ACL_BF16, 2 }, { ACL_INT16, 2 },
		{ ACL_UINT16, 2 },
		{ ACL_FLOAT, 4 }, { ACL_INT32, 4 }, { ACL_UINT32, 4 },
		{ ACL_COMPLEX32, 4 },
		{ ACL_INT64, 8 }, { ACL_UINT64, 8 }, { ACL_DOUBLE, 8 },
		{ ACL_COMPLEX64, 8 }, { ACL_COMPLEX128, 16 },
		/* Not in CANN's table: its default. */
		{ ACL_FLOAT4_E2M1, 8 }, { (aclDataType)1000, 8 },
	};
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		ck_assert_msg(aclDataTypeSize(tab[i].t) == tab[i].size,
			      "type %d: %zu, want %zu", tab[i].t,
			      aclDataTypeSize(tab[i].t), tab[i].size);
}
END_TEST

START_TEST(test_half_to_float)
{
	uint32_t h, bad = 0, first = 0;

	for (h = 0; h < 65536; h++) {
		_Float16 x;
		uint16_t hh = h;
		float want, got = aclFloat16ToFloat(hh);

		memcpy(&x, &hh, sizeof(x));
		if (((h >> 10) & 0x1f) == 31)
			want = ldexpf(1.0f + (h & 0x3ff) / 1024.0f, 16) *
			       ((h & 0x8000) ? -1.0f : 1.0f);
		else
			want = (float)x;
		if (memcmp(&got, &want, sizeof(got)) && !bad++)
			first = h;
	}
	ck_assert_msg(!bad, "%u halves wrong, the first %#x", bad, first);
	ck_assert(aclFloat16ToFloat(0x7c00) == 65536.0f);
	ck_assert(aclFloat16ToFloat(0xfc00) == -65536.0f);
	ck_assert(aclFloat16ToFloat(0x7e00) == 98304.0f);
}
END_TEST

START_TEST(test_float_to_half)
{
	uint64_t i;
	uint32_t bad = 0, first = 0;

	/* Every 251st bit pattern (all exponents, both signs). */
	for (i = 0; i < (1ull << 32); i += 251) {
		uint32_t u = i;
		uint16_t got, want;
		float f;

		memcpy(&f, &u, sizeof(f));
		if (isnan(f) || isinf(f) || fabsf(f) >= 65520.0f) {
			want = (u & 0x80000000) ? 0xfbff : 0x7bff;
		} else {
			_Float16 x = (_Float16)f;

			memcpy(&want, &x, sizeof(want));
		}
		got = aclFloatToFloat16(f);
		if (got != want && !bad++)
			first = u;
	}
	ck_assert_msg(!bad, "%u floats wrong, the first %#x", bad, first);
	ck_assert_uint_eq(aclFloatToFloat16(1.625f), 0x3e80);
	ck_assert_uint_eq(aclFloatToFloat16(INFINITY), 0x7bff);
	ck_assert_uint_eq(aclFloatToFloat16(-INFINITY), 0xfbff);
	ck_assert_uint_eq(aclFloatToFloat16(NAN), 0x7bff);
	ck_assert_uint_eq(aclFloatToFloat16(65519.0f), 0x7bff);
	/* Ties to even: 2^-25 is half the smallest subnormal. */
	ck_assert_uint_eq(aclFloatToFloat16(ldexpf(1.0f, -25)), 0);
	ck_assert_uint_eq(aclFloatToFloat16(ldexpf(1.5f, -25)), 1);
	ck_assert_uint_eq(aclFloatToFloat16(-0.0f), 0x8000);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_dtype");
	TCase *tc = tcase_create("dtype");

	tcase_add_test(tc, test_data_type_size);
	tcase_add_test(tc, test_half_to_float);
	tcase_add_test(tc, test_float_to_half);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
