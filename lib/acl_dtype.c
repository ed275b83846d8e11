// SPDX-License-Identifier: MIT
/*
 * libacl: element sizes and half-precision conversion (acl_base_rt.h):
 * aclDataTypeSize, aclFloatToFloat16, aclFloat16ToFloat. Host-only
 * helpers that CANN programs call around their copies (CANN's
 * example/0_quickstart/2_system_info). CANN's documented behaviour,
 * kept here, differs from IEEE 754 for the special values: float to
 * half rounds to nearest even and saturates (Inf, NaN and everything
 * from 65520 up become the largest finite half, 65504, with their sign);
 * half to float reads exponent 31 as an ordinary exponent, so 0x7c00
 * (IEEE +Inf) is 65536.0 and 0x7e00 (a NaN) 98304.0.
 */
#include <stdint.h>
#include <string.h>

#include "acl/acl_base_rt.h"

ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType)
{
	switch (dataType) {
	case ACL_DT_UNDEFINED:
	case ACL_STRING:
		return 0;
	/* Sub-byte types take a byte each, as in CANN. */
	case ACL_INT4:
	case ACL_UINT1:
	case ACL_BOOL:
	case ACL_INT8:
	case ACL_UINT8:
	case ACL_HIFLOAT8:
	case ACL_FLOAT8_E5M2:
	case ACL_FLOAT8_E4M3FN:
	case ACL_FLOAT8_E8M0:
		return 1;
	case ACL_FLOAT16:
	case ACL_BF16:
	case ACL_INT16:
	case ACL_UINT16:
		return 2;
	case ACL_FLOAT:
	case ACL_INT32:
	case ACL_UINT32:
	case ACL_COMPLEX32:
		return 4;
	case ACL_COMPLEX128:
		return 16;
	default:
		/*
		 * 64-bit types, ACL_COMPLEX64, and what CANN's runtime does
		 * not list (the FP6 and FP4 types, unknown values): 8.
		 */
		return 8;
	}
}

/* Round @q (bits above the cut) by @rem, the @shift bits cut off. */
static uint32_t acl_round_even(uint32_t q, uint32_t rem, unsigned int shift)
{
	uint32_t half = 1u << (shift - 1);

	if (rem > half || (rem == half && (q & 1)))
		q++;
	return q;
}

ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value)
{
	uint32_t f, exp, man, q;
	uint16_t sign;

	memcpy(&f, &value, sizeof(f));
	sign = (f >> 16) & 0x8000;
	exp = (f >> 23) & 0xff;
	man = f & 0x7fffff;
	/* 2^16 and above, Inf and NaN: saturate. */
	if (exp >= 127 + 16)
		return sign | 0x7bff;
	if (exp >= 127 - 14) {
		/* A normal half: 10 of the 23 mantissa bits. */
		q = (exp - 112) << 10 | man >> 13;
		q = acl_round_even(q, man & 0x1fff, 13);
		return sign | (q >= 0x7c00 ? 0x7bff : q);
	}
	/* Below 2^-25 even rounding gives zero. */
	if (exp < 127 - 25)
		return sign;
	/* A subnormal half, in units of 2^-24 (a carry makes it normal). */
	man |= 0x800000;
	q = man >> (126 - exp);
	q = acl_round_even(q, man & ((1u << (126 - exp)) - 1), 126 - exp);
	return sign | q;
}

ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value)
{
	uint32_t exp = (value >> 10) & 0x1f;
	uint32_t man = value & 0x3ff;
	uint32_t f;
	float r;

	if (exp == 0) {
		/* Zero or subnormal: man * 2^-24, exact in a float. */
		r = (float)man * (1.0f / 16777216.0f);
		return (value & 0x8000) ? -r : r;
	}
	f = (uint32_t)(value & 0x8000) << 16 | (exp + 112) << 23 | man << 13;
	memcpy(&r, &f, sizeof(r));
	return r;
}
