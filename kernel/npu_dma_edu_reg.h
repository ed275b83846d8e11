/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Register map of QEMU's edu device (hw/misc/edu.c, docs/specs/edu.rst).
 * Offsets below 0x80 take 32-bit accesses only; the DMA fields at 0x80
 * and above are 64 bits wide and decoded only at their base offset.
 */
#ifndef __NPU_DMA_EDU_REG_H__
#define __NPU_DMA_EDU_REG_H__

#include <linux/bits.h>

#define EDU_BAR			0
#define EDU_BAR_SIZE		0x100000

#define EDU_REG_ID		0x00
#define   EDU_ID_MAGIC_MASK	0xff
#define   EDU_ID_MAGIC		0xed
#define   EDU_ID_MAJOR(id)	((id) >> 24)
#define   EDU_ID_MINOR(id)	(((id) >> 16) & 0xff)
#define EDU_REG_LIVENESS	0x04	/* reads back ~(last write) */
#define EDU_REG_STATUS		0x20
#define EDU_REG_IRQ_STATUS	0x24
#define EDU_REG_IRQ_RAISE	0x60
#define EDU_REG_IRQ_ACK		0x64
#define EDU_REG_DMA_SRC		0x80
#define EDU_REG_DMA_DST		0x88
#define EDU_REG_DMA_COUNT	0x90
#define EDU_REG_DMA_CMD		0x98
#define   EDU_DMA_CMD_START	BIT(0)
#define   EDU_DMA_CMD_TO_HOST	BIT(1)	/* card buffer -> RAM */
#define   EDU_DMA_CMD_IRQ	BIT(2)

/* Interrupt status bits raised by the device itself. */
#define EDU_IRQ_FACT		BIT(0)
#define EDU_IRQ_DMA		BIT(8)
/* A bit the device never raises: used by the driver to test its IRQ. */
#define EDU_IRQ_SELFTEST	BIT(16)

/* The card's DMA buffer, in the device's own address space. */
#define EDU_DMA_BUF_ADDR	0x40000
#define EDU_DMA_BUF_SIZE	0x1000

#endif /* __NPU_DMA_EDU_REG_H__ */
