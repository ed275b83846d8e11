// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: element arithmetic of NPU_DMA_OP_REDUCE, dst[i] = op(dst[i],
 * src[i]), as an engine that reduces while it copies would do it.
 *
 * Floating point is done on the bit patterns with integer arithmetic,
 * not with the FPU: kernel_fpu_begin() is x86 only, disables preemption
 * and needs per-file compiler flags, and the host FPU has no bfloat16
 * anyway. One addition serves binary16, bfloat16 and binary32 alike,
 * parameterised by the format's field widths; it rounds to nearest even
 * once, from an exact (or, far below the rounding point, sticky) sum.
 * NaN handling is fixed rather than whatever a host FPU would propagate:
 * a NaN operand, or the sum of opposite infinities, gives the format's
 * default quiet NaN (include/uapi/drm/npu_dma_accel.h, REDUCE).
 */

#include "npu_dma_reduce.h"

/**
 * struct npu_red_fmt - a binary floating-point format
 * @man: stored mantissa bits
 * @exp: exponent bits
 */
struct npu_red_fmt {
	unsigned int man;
	unsigned int exp;
};

static const struct npu_red_fmt npu_red_f16 = { .man = 10, .exp = 5 };
static const struct npu_red_fmt npu_red_bf16 = { .man = 7, .exp = 8 };
static const struct npu_red_fmt npu_red_f32 = { .man = 23, .exp = 8 };

/*
 * Significands are worked on in 64 bits with the leading bit at 61: the
 * sum of two fits, and the bits below the format's (38 and more) keep an
 * aligned operand exact unless it is so small that only its sticky bit
 * matters, which then can never fake a tie.
 */
#define NPU_RED_LEAD	61

static u32 npu_red_sign(const struct npu_red_fmt *f)
{
	return 1U << (f->man + f->exp);
}

static u32 npu_red_inf(const struct npu_red_fmt *f)
{
	return ((1U << f->exp) - 1) << f->man;
}

static u32 npu_red_qnan(const struct npu_red_fmt *f)
{
	return npu_red_inf(f) | 1U << (f->man - 1);
}

static bool npu_red_isnan(const struct npu_red_fmt *f, u32 x)
{
	return (x & ~npu_red_sign(f)) > npu_red_inf(f);
}

/* Biased exponent (1 for subnormals) and significand at NPU_RED_LEAD. */
static void npu_red_unpack(const struct npu_red_fmt *f, u32 x, int *e, u64 *m)
{
	u32 field = (x >> f->man) & ((1U << f->exp) - 1);
	u64 frac = x & ((1U << f->man) - 1);

	*e = field ? field : 1;
	if (field)
		frac |= 1ULL << f->man;
	*m = frac << (NPU_RED_LEAD - f->man);
}

/* @m >> @d, with the bits shifted out ORed into bit 0. */
static u64 npu_red_shift_sticky(u64 m, int d)
{
	if (d >= 64)
		return m != 0;
	if (!d)
		return m;
	return m >> d | ((m & ((1ULL << d) - 1)) != 0);
}

/* Round the magnitude @m at exponent @e to nearest even, then encode it. */
static u32 npu_red_pack(const struct npu_red_fmt *f, u32 sign, int e, u64 m)
{
	unsigned int cut = NPU_RED_LEAD - f->man;
	u64 half = 1ULL << (cut - 1), rem, q;

	while (m && m < 1ULL << NPU_RED_LEAD && e > 1) {
		m <<= 1;
		e--;
	}
	q = m >> cut;
	rem = m & ((1ULL << cut) - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	if (q >> (f->man + 1)) {	/* rounded up to the next binade */
		q >>= 1;
		e++;
	}
	if (e >= (1 << f->exp) - 1)
		return sign | npu_red_inf(f);
	if (q < 1ULL << f->man)		/* subnormal or zero */
		return sign | (u32)q;
	return sign | (u32)e << f->man | ((u32)q & ((1U << f->man) - 1));
}

/* Finite @a + @b, |@a| >= |@b|. */
static u32 npu_red_add_finite(const struct npu_red_fmt *f, u32 a, u32 b)
{
	u32 sign = a & npu_red_sign(f);
	int ea, eb;
	u64 ma, mb;

	npu_red_unpack(f, a, &ea, &ma);
	npu_red_unpack(f, b, &eb, &mb);
	mb = npu_red_shift_sticky(mb, ea - eb);
	if ((a ^ b) & npu_red_sign(f)) {
		ma -= mb;
		if (!ma)	/* exact cancellation is +0 when rounding to nearest */
			return 0;
	} else {
		ma += mb;
		if (ma >> (NPU_RED_LEAD + 1)) {
			ma = npu_red_shift_sticky(ma, 1);
			ea++;
		}
	}
	return npu_red_pack(f, sign, ea, ma);
}

static u32 npu_red_fadd(const struct npu_red_fmt *f, u32 a, u32 b)
{
	u32 s = npu_red_sign(f), inf = npu_red_inf(f);

	if (npu_red_isnan(f, a) || npu_red_isnan(f, b))
		return npu_red_qnan(f);
	if ((a & ~s) == inf || (b & ~s) == inf) {
		if ((a & ~s) == inf && (b & ~s) == inf && (a ^ b) & s)
			return npu_red_qnan(f);
		return (a & ~s) == inf ? a : b;
	}
	if ((a & ~s) < (b & ~s))
		return npu_red_add_finite(f, b, a);
	return npu_red_add_finite(f, a, b);
}

/* Bit patterns ordered as the numbers are: -0 just below +0. */
static u32 npu_red_key(const struct npu_red_fmt *f, u32 x)
{
	u32 s = npu_red_sign(f);

	return x & s ? ~x & (s | (s - 1)) : x | s;
}

static u32 npu_red_fop(const struct npu_red_fmt *f, u32 a, u32 b,
		       unsigned int op)
{
	bool a_first;

	if (op == NPU_DMA_REDUCE_OP_SUM)
		return npu_red_fadd(f, a, b);
	if (npu_red_isnan(f, a) || npu_red_isnan(f, b))
		return npu_red_qnan(f);
	a_first = npu_red_key(f, a) >= npu_red_key(f, b);
	return a_first == (op == NPU_DMA_REDUCE_OP_MAX) ? a : b;
}

/* Integers: sums wrap (unsigned arithmetic, truncated by the store). */
static s64 npu_red_iop(s64 a, s64 b, unsigned int op)
{
	switch (op) {
	case NPU_DMA_REDUCE_OP_SUM:
		return (s64)((u64)a + (u64)b);
	case NPU_DMA_REDUCE_OP_MAX:
		return a > b ? a : b;
	default:
		return a < b ? a : b;
	}
}

/*
 * One loop per element type, on naturally aligned elements (validation
 * checked the addresses). Inlined with a constant type, each loop loads
 * and stores its own width.
 */
static __always_inline s64 npu_red_load(const void *p, size_t i,
					unsigned int type)
{
	switch (type) {
	case NPU_DMA_REDUCE_T_S8:
		return ((const s8 *)p)[i];
	case NPU_DMA_REDUCE_T_U8:
		return ((const u8 *)p)[i];
	case NPU_DMA_REDUCE_T_S16:
		return ((const s16 *)p)[i];
	case NPU_DMA_REDUCE_T_U16:
	case NPU_DMA_REDUCE_T_F16:
	case NPU_DMA_REDUCE_T_BF16:
		return ((const u16 *)p)[i];
	case NPU_DMA_REDUCE_T_S32:
		return ((const s32 *)p)[i];
	default:
		return ((const u32 *)p)[i];
	}
}

static __always_inline void npu_red_store(void *p, size_t i,
					  unsigned int type, s64 v)
{
	switch (type) {
	case NPU_DMA_REDUCE_T_S8:
	case NPU_DMA_REDUCE_T_U8:
		((u8 *)p)[i] = (u8)v;
		break;
	case NPU_DMA_REDUCE_T_S16:
	case NPU_DMA_REDUCE_T_U16:
	case NPU_DMA_REDUCE_T_F16:
	case NPU_DMA_REDUCE_T_BF16:
		((u16 *)p)[i] = (u16)v;
		break;
	default:
		((u32 *)p)[i] = (u32)v;
	}
}

static const struct npu_red_fmt *npu_red_fmt_of(unsigned int type)
{
	switch (type) {
	case NPU_DMA_REDUCE_T_F16:
		return &npu_red_f16;
	case NPU_DMA_REDUCE_T_BF16:
		return &npu_red_bf16;
	case NPU_DMA_REDUCE_T_F32:
		return &npu_red_f32;
	default:
		return NULL;
	}
}

static __always_inline void npu_red_loop(void *dst, const void *src, size_t n,
					 unsigned int op, unsigned int type)
{
	const struct npu_red_fmt *f = npu_red_fmt_of(type);
	size_t i;
	s64 a, b;

	for (i = 0; i < n; i++) {
		a = npu_red_load(dst, i, type);
		b = npu_red_load(src, i, type);
		npu_red_store(dst, i, type, f ? npu_red_fop(f, a, b, op) :
						npu_red_iop(a, b, op));
	}
}

/* One loop per type, specialised for its width by the constant type. */
#define NPU_RED_LOOP(name, t)						\
static void npu_red_loop_##name(void *dst, const void *src, size_t n,	\
				unsigned int op)				\
{									\
	npu_red_loop(dst, src, n, op, NPU_DMA_REDUCE_T_##t);		\
}

NPU_RED_LOOP(s8, S8)
NPU_RED_LOOP(u8, U8)
NPU_RED_LOOP(s16, S16)
NPU_RED_LOOP(u16, U16)
NPU_RED_LOOP(s32, S32)
NPU_RED_LOOP(u32, U32)
NPU_RED_LOOP(f16, F16)
NPU_RED_LOOP(bf16, BF16)
NPU_RED_LOOP(f32, F32)

static const struct npu_red_type {
	unsigned int size;
	void (*loop)(void *dst, const void *src, size_t n, unsigned int op);
} npu_red_types[NPU_DMA_REDUCE_NR_TYPES] = {
	[NPU_DMA_REDUCE_T_S8] = { 1, npu_red_loop_s8 },
	[NPU_DMA_REDUCE_T_U8] = { 1, npu_red_loop_u8 },
	[NPU_DMA_REDUCE_T_S16] = { 2, npu_red_loop_s16 },
	[NPU_DMA_REDUCE_T_U16] = { 2, npu_red_loop_u16 },
	[NPU_DMA_REDUCE_T_S32] = { 4, npu_red_loop_s32 },
	[NPU_DMA_REDUCE_T_U32] = { 4, npu_red_loop_u32 },
	[NPU_DMA_REDUCE_T_F16] = { 2, npu_red_loop_f16 },
	[NPU_DMA_REDUCE_T_BF16] = { 2, npu_red_loop_bf16 },
	[NPU_DMA_REDUCE_T_F32] = { 4, npu_red_loop_f32 },
};

/**
 * npu_dma_reduce_elem_size() - element size of a REDUCE descriptor's @value
 * @value: npu_dma_desc.value of an NPU_DMA_OP_REDUCE
 *
 * Return: 1, 2 or 4; 0 if @value names no known operation and type, or
 * has other bits set.
 */
unsigned int npu_dma_reduce_elem_size(u64 value)
{
	unsigned int op = value & 0xff, type = (value >> 8) & 0xff;

	if (value >> 16 || op >= NPU_DMA_REDUCE_NR_OPS ||
	    type >= NPU_DMA_REDUCE_NR_TYPES)
		return 0;
	return npu_red_types[type].size;
}

/**
 * npu_dma_reduce() - combine @len bytes at @src into @dst
 * @dst: destination elements, aligned to their size
 * @src: source elements, aligned to their size
 * @len: bytes of each, a multiple of the element size
 * @value: the operation and type, npu_dma_reduce_elem_size() accepted it
 */
void npu_dma_reduce(void *dst, const void *src, size_t len, u64 value)
{
	const struct npu_red_type *t = &npu_red_types[(value >> 8) & 0xff];

	t->loop(dst, src, len / t->size, value & 0xff);
}
