/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host reference of NPU_DMA_OP_REDUCE's element arithmetic, computed
 * with the host's FPU: the driver does it in integers (kernel/
 * npu_dma_reduce.c), so the two are independent. binary16 uses GCC's
 * _Float16; bfloat16 a float sum rounded to nearest even. A float has
 * at least 2p + 2 bits for either half format's p, so rounding its
 * correctly rounded sum again gives the correctly rounded half sum.
 * NaN results are the default quiet NaN, as the uapi header defines.
 */
#ifndef T_REDUCE_REF_H
#define T_REDUCE_REF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <drm/npu_dma_accel.h>

static inline float t_red_f32(uint32_t b)
{
	float f;

	memcpy(&f, &b, sizeof(f));
	return f;
}

static inline uint32_t t_red_f32_bits(float f)
{
	uint32_t b;

	if (isnan(f))
		return 0x7fc00000;
	memcpy(&b, &f, sizeof(b));
	return b;
}

static inline float t_red_f16(uint16_t b)
{
	_Float16 h;

	memcpy(&h, &b, sizeof(h));
	return h;
}

static inline uint16_t t_red_f16_bits(float f)
{
	_Float16 h = (_Float16)f;
	uint16_t b;

	if (isnan(f))
		return 0x7e00;
	memcpy(&b, &h, sizeof(b));
	return b;
}

static inline float t_red_bf16(uint16_t b)
{
	return t_red_f32((uint32_t)b << 16);
}

/* A float to bfloat16, rounded to nearest even (overflow to infinity). */
static inline uint16_t t_red_bf16_bits(float f)
{
	uint32_t b;

	if (isnan(f))
		return 0x7fc0;
	memcpy(&b, &f, sizeof(b));
	return (uint16_t)((b + 0x7fff + ((b >> 16) & 1)) >> 16);
}

/* Float MAX/MIN with NaN and -0 < +0 as the driver defines them. */
static inline float t_red_fpick(float a, float b, unsigned int op)
{
	int a_first;

	if (isnan(a) || isnan(b))
		return NAN;
	if (a == b)
		a_first = signbit(a) == signbit(b) || !signbit(a);
	else
		a_first = a > b;
	return a_first == (op == NPU_DMA_REDUCE_OP_MAX) ? a : b;
}

static inline float t_red_fop(float a, float b, unsigned int op)
{
	return op == NPU_DMA_REDUCE_OP_SUM ? a + b : t_red_fpick(a, b, op);
}

/*
 * One element: @a (destination) combined with @b (source), as bit
 * patterns or integer values of type @type (NPU_DMA_REDUCE_T_*),
 * zero-extended into 32 bits.
 */
static inline uint32_t t_red_ref(uint32_t a, uint32_t b, unsigned int op,
				 unsigned int type)
{
	int64_t x, y;

	switch (type) {
	case NPU_DMA_REDUCE_T_F16:
		return t_red_f16_bits(t_red_fop(t_red_f16(a), t_red_f16(b), op));
	case NPU_DMA_REDUCE_T_BF16:
		return t_red_bf16_bits(t_red_fop(t_red_bf16(a), t_red_bf16(b), op));
	case NPU_DMA_REDUCE_T_F32:
		return t_red_f32_bits(t_red_fop(t_red_f32(a), t_red_f32(b), op));
	case NPU_DMA_REDUCE_T_S8:
		x = (int8_t)a, y = (int8_t)b;
		break;
	case NPU_DMA_REDUCE_T_S16:
		x = (int16_t)a, y = (int16_t)b;
		break;
	case NPU_DMA_REDUCE_T_S32:
		x = (int32_t)a, y = (int32_t)b;
		break;
	default:
		x = a, y = b;
	}
	if (op == NPU_DMA_REDUCE_OP_SUM)
		x += y;
	else if ((op == NPU_DMA_REDUCE_OP_MAX) == (y > x))
		x = y;
	switch (type) {
	case NPU_DMA_REDUCE_T_S8:
	case NPU_DMA_REDUCE_T_U8:
		return (uint8_t)x;
	case NPU_DMA_REDUCE_T_S16:
	case NPU_DMA_REDUCE_T_U16:
		return (uint16_t)x;
	default:
		return (uint32_t)x;
	}
}

static inline unsigned int t_red_size(unsigned int type)
{
	static const unsigned char size[NPU_DMA_REDUCE_NR_TYPES] = {
		1, 1, 2, 2, 4, 4, 2, 2, 4
	};

	return size[type];
}

#endif /* T_REDUCE_REF_H */
