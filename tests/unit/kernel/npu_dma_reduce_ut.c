// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit test of the driver's REDUCE arithmetic (kernel/npu_dma_reduce.c),
 * built here in user space against the host FPU's answers
 * (tests/common/t_reduce_ref.h): the integer soft-float addition of
 * binary16, bfloat16 and binary32 must round to nearest even in every
 * case, subnormals and overflow included.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* What the kernel file expects of <linux/types.h> and compiler.h. */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
#ifndef __always_inline		/* glibc's <sys/cdefs.h> has it */
#define __always_inline inline __attribute__((__always_inline__))
#endif

#include "npu_dma_reduce.c"

#include "t_check.h"
#include "t_reduce_ref.h"

static const unsigned int t_ops[] = {
	NPU_DMA_REDUCE_OP_SUM, NPU_DMA_REDUCE_OP_MAX, NPU_DMA_REDUCE_OP_MIN,
};

/* xorshift64: the same pairs on every run. */
static uint64_t t_rnd_state = 0x9e3779b97f4a7c15ULL;

static uint64_t t_rnd(void)
{
	t_rnd_state ^= t_rnd_state << 13;
	t_rnd_state ^= t_rnd_state >> 7;
	t_rnd_state ^= t_rnd_state << 17;
	return t_rnd_state;
}

/*
 * One element through npu_dma_reduce(), as the engine combines it. Out
 * of line: inlined, GCC 12 warns that @s "may be used uninitialized".
 */
static __attribute__((noinline)) uint32_t t_dut(uint32_t a, uint32_t b,
						unsigned int op,
						unsigned int type)
{
	uint32_t d = a, s = b;

	/* Little-endian host: the low bytes are the element. */
	npu_dma_reduce(&d, &s, t_red_size(type), NPU_DMA_REDUCE_VALUE(op, type));
	return d & (t_red_size(type) == 4 ? ~0U : (1U << 8 * t_red_size(type)) - 1);
}

static void t_check_pair(uint32_t a, uint32_t b, unsigned int op,
			 unsigned int type)
{
	uint32_t want = t_red_ref(a, b, op, type), got = t_dut(a, b, op, type);

	ck_assert_msg(got == want,
		      "type %u op %u: 0x%x, 0x%x -> 0x%x, want 0x%x",
		      type, op, a, b, got, want);
}

/*
 * Near pairs stress alignment, cancellation and ties: the second operand
 * shares the first's exponent give or take a few binades.
 */
static uint32_t t_partner(uint32_t a, unsigned int man, unsigned int bits)
{
	uint32_t b = (uint32_t)t_rnd();

	if (t_rnd() & 1)
		b = a + ((uint32_t)(t_rnd() % 9) - 4) * (1U << man) +
		    (uint32_t)(t_rnd() % 5) - 2;
	return b & ((bits == 32) ? ~0U : (1U << bits) - 1);
}

static void t_check_random(unsigned int type, unsigned int man,
			   unsigned int bits, unsigned long n)
{
	unsigned long i;
	uint32_t a;

	for (i = 0; i < n; i++) {
		a = (uint32_t)t_rnd() & ((bits == 32) ? ~0U : (1U << bits) - 1);
		t_check_pair(a, t_partner(a, man, bits), t_ops[i % 3], type);
	}
}

START_TEST(test_reduce_f16_all_sums_of_one_operand_set)
{
	uint32_t a, b;

	/* Every pair whose operands are 1 in 64 of all patterns, and more. */
	for (a = 0; a < 0x10000; a += 61)
		for (b = 0; b < 0x10000; b += 67)
			t_check_pair(a, b, NPU_DMA_REDUCE_OP_SUM,
				     NPU_DMA_REDUCE_T_F16);
	t_check_random(NPU_DMA_REDUCE_T_F16, 10, 16, 2000000);
}
END_TEST

START_TEST(test_reduce_bf16_random)
{
	uint32_t a, b;

	for (a = 0; a < 0x10000; a += 61)
		for (b = 0; b < 0x10000; b += 67)
			t_check_pair(a, b, NPU_DMA_REDUCE_OP_SUM,
				     NPU_DMA_REDUCE_T_BF16);
	t_check_random(NPU_DMA_REDUCE_T_BF16, 7, 16, 2000000);
}
END_TEST

START_TEST(test_reduce_f32_random)
{
	t_check_random(NPU_DMA_REDUCE_T_F32, 23, 32, 4000000);
}
END_TEST

/* Hand-picked: ties both ways, subnormals, overflow, NaN, signed zeros. */
START_TEST(test_reduce_float_edges)
{
	/* 2048 + 1 is a tie in binary16: even 2048; 2050 + 1 goes to 2052. */
	ck_assert_uint_eq(t_dut(0x6800, 0x3c00, 0, NPU_DMA_REDUCE_T_F16), 0x6800);
	ck_assert_uint_eq(t_dut(0x6801, 0x3c00, 0, NPU_DMA_REDUCE_T_F16), 0x6802);
	/* 65504 + 16 rounds to infinity, 65504 + 15.99 does not. */
	ck_assert_uint_eq(t_dut(0x7bff, 0x4c00, 0, NPU_DMA_REDUCE_T_F16), 0x7c00);
	ck_assert_uint_eq(t_dut(0x7bff, 0x4bff, 0, NPU_DMA_REDUCE_T_F16), 0x7bff);
	/* Smallest subnormals: 1 + 1 ulp, and x - x is +0. */
	ck_assert_uint_eq(t_dut(0x0001, 0x0001, 0, NPU_DMA_REDUCE_T_F16), 0x0002);
	ck_assert_uint_eq(t_dut(0x8001, 0x0001, 0, NPU_DMA_REDUCE_T_F16), 0x0000);
	ck_assert_uint_eq(t_dut(0x8000, 0x8000, 0, NPU_DMA_REDUCE_T_F16), 0x8000);
	/* bfloat16: 256 + 1 is a tie (stays 256), 258 + 1 -> 260. */
	ck_assert_uint_eq(t_dut(0x4380, 0x3f80, 0, NPU_DMA_REDUCE_T_BF16), 0x4380);
	ck_assert_uint_eq(t_dut(0x4381, 0x3f80, 0, NPU_DMA_REDUCE_T_BF16), 0x4382);
	/* inf - inf, and NaN payloads: the default quiet NaN. */
	ck_assert_uint_eq(t_dut(0x7c00, 0xfc00, 0, NPU_DMA_REDUCE_T_F16), 0x7e00);
	ck_assert_uint_eq(t_dut(0xff81, 0x3f80, 1, NPU_DMA_REDUCE_T_BF16), 0x7fc0);
	ck_assert_uint_eq(t_dut(0x3f800000, 0x7f800001, 2, NPU_DMA_REDUCE_T_F32),
			  0x7fc00000);
	ck_assert_uint_eq(t_dut(0x7f800000, 0x3f800000, 0, NPU_DMA_REDUCE_T_F32),
			  0x7f800000);
	/* MAX(-0, +0) is +0, MIN is -0, whichever side each comes from. */
	ck_assert_uint_eq(t_dut(0x8000, 0x0000, 1, NPU_DMA_REDUCE_T_F16), 0x0000);
	ck_assert_uint_eq(t_dut(0x0000, 0x8000, 2, NPU_DMA_REDUCE_T_F16), 0x8000);
	ck_assert_uint_eq(t_dut(0xbf800000, 0x3f800000, 2, NPU_DMA_REDUCE_T_F32),
			  0xbf800000);
}
END_TEST

START_TEST(test_reduce_int)
{
	ck_assert_uint_eq(t_dut(0x7f, 0x01, 0, NPU_DMA_REDUCE_T_S8), 0x80);
	ck_assert_uint_eq(t_dut(0xff, 0x01, 1, NPU_DMA_REDUCE_T_S8), 0x01);
	ck_assert_uint_eq(t_dut(0xff, 0x01, 1, NPU_DMA_REDUCE_T_U8), 0xff);
	ck_assert_uint_eq(t_dut(0x8000, 0x7fff, 2, NPU_DMA_REDUCE_T_S16), 0x8000);
	ck_assert_uint_eq(t_dut(0x8000, 0x7fff, 2, NPU_DMA_REDUCE_T_U16), 0x7fff);
	ck_assert_uint_eq(t_dut(0xffffffff, 2, 0, NPU_DMA_REDUCE_T_U32), 1);
	ck_assert_uint_eq(t_dut(0x80000000, 1, 1, NPU_DMA_REDUCE_T_S32), 1);
	ck_assert_uint_eq(t_dut(0x80000000, 1, 1, NPU_DMA_REDUCE_T_U32),
			  0x80000000);
	t_check_random(NPU_DMA_REDUCE_T_S8, 0, 8, 10000);
	t_check_random(NPU_DMA_REDUCE_T_U16, 0, 16, 10000);
	t_check_random(NPU_DMA_REDUCE_T_S32, 0, 32, 10000);
}
END_TEST

/* What validation relies on: sizes, and refusal of unknown values. */
START_TEST(test_reduce_elem_size)
{
	ck_assert_uint_eq(npu_dma_reduce_elem_size(NPU_DMA_REDUCE_VALUE(2, NPU_DMA_REDUCE_T_BF16)), 2);
	ck_assert_uint_eq(npu_dma_reduce_elem_size(NPU_DMA_REDUCE_VALUE(0, NPU_DMA_REDUCE_T_F32)), 4);
	ck_assert_uint_eq(npu_dma_reduce_elem_size(NPU_DMA_REDUCE_VALUE(0, NPU_DMA_REDUCE_T_U8)), 1);
	ck_assert_uint_eq(npu_dma_reduce_elem_size(NPU_DMA_REDUCE_VALUE(3, 0)), 0);
	ck_assert_uint_eq(npu_dma_reduce_elem_size(NPU_DMA_REDUCE_VALUE(0, 9)), 0);
	ck_assert_uint_eq(npu_dma_reduce_elem_size(1ULL << 16), 0);
}
END_TEST

/* A run of elements: each combined with its own partner, none beyond. */
START_TEST(test_reduce_run)
{
	uint16_t d[5] = { 1, 2, 3, 4, 0xaaaa }, s[5] = { 10, 20, 30, 40, 1 };

	npu_dma_reduce(d, s, 8, NPU_DMA_REDUCE_VALUE(0, NPU_DMA_REDUCE_T_U16));
	ck_assert_uint_eq(d[0], 11);
	ck_assert_uint_eq(d[3], 44);
	ck_assert_uint_eq(d[4], 0xaaaa);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("npu_dma_reduce");
	TCase *tc = tcase_create("reduce");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_reduce_f16_all_sums_of_one_operand_set);
	tcase_add_test(tc, test_reduce_bf16_random);
	tcase_add_test(tc, test_reduce_f32_random);
	tcase_add_test(tc, test_reduce_float_edges);
	tcase_add_test(tc, test_reduce_int);
	tcase_add_test(tc, test_reduce_elem_size);
	tcase_add_test(tc, test_reduce_run);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
