// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: engine for QEMU's edu PCI device (PCI ID 1234:11e8).
 *
 * The card has one DMA channel and a 4 KiB buffer (QEMU's hw/misc/edu.c
 * is its specification); Documentation/driver.rst, "Engines: edu", says
 * how this driver uses it and which QEMU bug it steers clear of.
 */

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "npu_dma_edu_reg.h"
#include "npu_dma_engine.h"
#include "npu_dma_trace.h"

#define EDU_VENDOR_ID		0x1234
#define EDU_DEVICE_ID		0x11e8
#define EDU_SELFTEST_TIMEOUT	msecs_to_jiffies(2000)

static unsigned int edu_dma_bits = 28;
module_param(edu_dma_bits, uint, 0444);
MODULE_PARM_DESC(edu_dma_bits,
		 "DMA address bits of the edu devices; must match QEMU's dma_mask property (24..64, default 28)");

static unsigned int edu_chunk = 2048;
module_param(edu_chunk, uint, 0444);
MODULE_PARM_DESC(edu_chunk,
		 "Bytes per edu DMA (1..4095); QEMU < 9.1 aborts on a transfer touching the buffer's last byte (default 2048)");

static unsigned int edu_timeout_ms = 2000;
module_param(edu_timeout_ms, uint, 0644);
MODULE_PARM_DESC(edu_timeout_ms,
		 "Time an edu DMA may take before it is failed with -ETIMEDOUT, in ms (default 2000; QEMU takes 100 ms of virtual time)");

static unsigned int edu_mem_mb = 16;
module_param(edu_mem_mb, uint, 0444);
MODULE_PARM_DESC(edu_mem_mb,
		 "Device memory of each edu NPU in MiB, reserved from host RAM (1..1024, default 16)");

/**
 * struct npu_dma_edu - one edu card
 * @pdev: its PCI function
 * @regs: BAR0
 * @ndev: the NPU it backs
 * @selftest_done: completed by the IRQ handler on EDU_IRQ_SELFTEST
 * @dma_done: completed by the IRQ handler on EDU_IRQ_DMA
 * @dma_lock: Protects the DMA registers: the card has one DMA context and
 *	silently drops writes while it runs
 */
struct npu_dma_edu {
	struct pci_dev *pdev;
	void __iomem *regs;
	struct npu_dma_device *ndev;
	struct completion selftest_done;
	struct completion dma_done;
	struct mutex dma_lock;		/* one DMA at a time */
};

/* Wait for a DMA the card still runs after a timeout, so the next works. */
static void npu_edu_recover(struct npu_dma_edu *edu)
{
	unsigned int i;

	for (i = 0; i < 100 && (readq(edu->regs + EDU_REG_DMA_CMD) & EDU_DMA_CMD_START); i++)
		msleep(20);
	iowrite32(EDU_IRQ_DMA, edu->regs + EDU_REG_IRQ_ACK);
}

/* One transfer between RAM and the card's buffer; sleeps on the IRQ. */
static int npu_edu_dma(struct npu_dma_edu *edu, u64 src, u64 dst, u32 count,
		       u32 cmd)
{
	cmd |= EDU_DMA_CMD_START | EDU_DMA_CMD_IRQ;
	/* Injected fault: a transfer whose completion never arrives. */
	if (atomic_add_unless(&npu_dma_fault_edu_lost_irqs, -1, 0))
		cmd &= ~EDU_DMA_CMD_IRQ;

	reinit_completion(&edu->dma_done);
	writeq(src, edu->regs + EDU_REG_DMA_SRC);
	writeq(dst, edu->regs + EDU_REG_DMA_DST);
	writeq(count, edu->regs + EDU_REG_DMA_COUNT);
	writeq(cmd, edu->regs + EDU_REG_DMA_CMD);
	if (!wait_for_completion_timeout(&edu->dma_done,
					 msecs_to_jiffies(edu_timeout_ms))) {
		dev_err_ratelimited(&edu->pdev->dev, "DMA of %u bytes timed out\n", count);
		npu_edu_recover(edu);
		return -ETIMEDOUT;
	}
	return 0;
}

/*
 * Every byte goes RAM -> card buffer -> RAM, in chunks that stay clear of
 * the buffer's last byte: the range check of QEMU < 9.1 (hw/misc/edu.c)
 * aborts on a transfer that reaches it.
 */
static int npu_edu_copy(struct npu_dma_device *ndev, const struct npu_dma_seg *dst,
			const struct npu_dma_seg *src, size_t len)
{
	struct npu_dma_edu *edu = ndev->engine;
	struct device *dev = &edu->pdev->dev;
	size_t done, n;
	int ret = 0;

	mutex_lock(&edu->dma_lock);
	for (done = 0; done < len && !ret; done += n) {
		n = min_t(size_t, len - done, edu_chunk);
		dma_sync_single_for_device(dev, src->dma + done, n, DMA_TO_DEVICE);
		ret = npu_edu_dma(edu, src->dma + done, EDU_DMA_BUF_ADDR, n, 0);
		if (ret)
			break;
		/*
		 * The destination is the device's before it writes there: on a
		 * machine without coherent DMA, dirty lines the CPU left (a
		 * scrub, a fill pattern, the process's own stores) would
		 * otherwise be written back over the card's bytes.
		 */
		dma_sync_single_for_device(dev, dst->dma + done, n, DMA_FROM_DEVICE);
		ret = npu_edu_dma(edu, EDU_DMA_BUF_ADDR, dst->dma + done, n,
				  EDU_DMA_CMD_TO_HOST);
		dma_sync_single_for_cpu(dev, dst->dma + done, n, DMA_FROM_DEVICE);
	}
	mutex_unlock(&edu->dma_lock);
	return ret;
}

/*
 * No copy_pieces: each piece waits for the card's interrupt (about 100 ms
 * of virtual time), against which the core's per-piece call costs
 * nothing, and the core then tests for an abort between pieces.
 */
static const struct npu_dma_engine_ops npu_edu_ops = {
	.name = "edu",
	.dma_mapped = true,
	.copy = npu_edu_copy,
};

static irqreturn_t npu_edu_irq(int irq, void *data)
{
	struct npu_dma_edu *edu = data;
	struct npu_dma_device *ndev = READ_ONCE(edu->ndev);
	u32 status;

	status = ioread32(edu->regs + EDU_REG_IRQ_STATUS);
	if (!status)
		return IRQ_NONE;	/* shared INTx line, not ours */

	/* Ack also with MSI: otherwise the status never clears. */
	iowrite32(status, edu->regs + EDU_REG_IRQ_ACK);
	trace_npu_dma_irq(ndev ? ndev->index : -1, status);
	if (ndev)
		atomic64_inc(&ndev->stats.irqs);
	if (status & EDU_IRQ_SELFTEST)
		complete(&edu->selftest_done);
	if (status & EDU_IRQ_DMA)
		complete(&edu->dma_done);
	return IRQ_HANDLED;
}

static int npu_edu_check_id(struct npu_dma_edu *edu)
{
	struct device *dev = &edu->pdev->dev;
	u32 id, probe = 0x5a5aa5a5;

	id = ioread32(edu->regs + EDU_REG_ID);
	if ((id & EDU_ID_MAGIC_MASK) != EDU_ID_MAGIC || EDU_ID_MAJOR(id) != 1) {
		dev_err(dev, "Unsupported edu ID register 0x%08x\n", id);
		return -ENODEV;
	}

	iowrite32(probe, edu->regs + EDU_REG_LIVENESS);
	if (ioread32(edu->regs + EDU_REG_LIVENESS) != ~probe) {
		dev_err(dev, "Failed liveness check\n");
		return -EIO;
	}

	dev_dbg(dev, "edu %u.%u\n", EDU_ID_MAJOR(id), EDU_ID_MINOR(id));
	return 0;
}

static void npu_edu_free_vectors(void *pdev)
{
	pci_free_irq_vectors(pdev);
}

/* MSI if the platform gives it, else the (shared) INTx line. */
static int npu_edu_irq_init(struct npu_dma_edu *edu)
{
	struct pci_dev *pdev = edu->pdev;
	int ret;

	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI | PCI_IRQ_LEGACY);
	if (ret < 0) {
		dev_err(&pdev->dev, "Failed to allocate IRQ vector: %d\n", ret);
		return ret;
	}
	ret = devm_add_action_or_reset(&pdev->dev, npu_edu_free_vectors, pdev);
	if (ret)
		return ret;

	ret = devm_request_irq(&pdev->dev, pci_irq_vector(pdev, 0), npu_edu_irq,
			       IRQF_SHARED, NPU_DMA_NAME, edu);
	if (ret)
		dev_err(&pdev->dev, "Failed to request IRQ: %d\n", ret);
	return ret;
}

/*
 * Raise an interrupt through the card's raise register and wait for it:
 * proves the whole MSI/INTx path before any DMA depends on it.
 */
static int npu_edu_irq_selftest(struct npu_dma_edu *edu)
{
	reinit_completion(&edu->selftest_done);
	iowrite32(EDU_IRQ_SELFTEST, edu->regs + EDU_REG_IRQ_RAISE);
	if (!wait_for_completion_timeout(&edu->selftest_done,
					 EDU_SELFTEST_TIMEOUT)) {
		dev_err(&edu->pdev->dev, "No interrupt from the device\n");
		return -EIO;
	}
	return 0;
}

static int npu_edu_register(struct npu_dma_edu *edu)
{
	struct npu_dma_device *ndev;
	int ret;

	ndev = npu_dma_device_create(&edu->pdev->dev, NPU_DMA_BACKEND_EDU,
				     &npu_edu_ops, edu);
	if (IS_ERR(ndev))
		return PTR_ERR(ndev);

	ndev->mem_size = (u64)edu_mem_mb << 20;
	ndev->nr_channels = 1;
	ret = npu_dma_device_add(ndev);
	if (ret)
		return ret;
	WRITE_ONCE(edu->ndev, ndev);
	return 0;
}

static int npu_edu_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	struct npu_dma_edu *edu;
	int ret;

	edu = devm_kzalloc(dev, sizeof(*edu), GFP_KERNEL);
	if (!edu)
		return -ENOMEM;
	edu->pdev = pdev;
	init_completion(&edu->selftest_done);
	init_completion(&edu->dma_done);
	mutex_init(&edu->dma_lock);

	ret = pcim_enable_device(pdev);
	if (ret) {
		dev_err(dev, "Failed to enable device: %d\n", ret);
		return ret;
	}
	if (pci_resource_len(pdev, EDU_BAR) < EDU_BAR_SIZE) {
		dev_err(dev, "BAR%d too small\n", EDU_BAR);
		return -ENODEV;
	}
	ret = pcim_iomap_regions(pdev, BIT(EDU_BAR), NPU_DMA_NAME);
	if (ret) {
		dev_err(dev, "Failed to map BAR%d: %d\n", EDU_BAR, ret);
		return ret;
	}
	edu->regs = pcim_iomap_table(pdev)[EDU_BAR];

	ret = npu_edu_check_id(edu);
	if (ret)
		return ret;

	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(edu_dma_bits));
	if (ret) {
		dev_err(dev, "Failed to set %u-bit DMA mask: %d\n",
			edu_dma_bits, ret);
		return ret;
	}
	/*
	 * The engine moves less than its 4 KiB buffer at a time and the
	 * driver walks every mapping page by page: a segment may be any
	 * length. Without this, an exporter that merges contiguous pages (a
	 * huge page, a sim NPU's memory) trips the DMA API's 64 KiB default.
	 */
	ret = dma_set_max_seg_size(dev, UINT_MAX);
	if (ret)
		return ret;
	pci_set_master(pdev);

	ret = npu_edu_irq_init(edu);
	if (ret)
		return ret;
	ret = npu_edu_irq_selftest(edu);
	if (ret)
		return ret;

	ret = npu_edu_register(edu);
	if (ret)
		return ret;
	pci_set_drvdata(pdev, edu);
	return 0;
}

static void npu_edu_remove(struct pci_dev *pdev)
{
	struct npu_dma_edu *edu = pci_get_drvdata(pdev);
	struct npu_dma_device *ndev = edu->ndev;

	/*
	 * The handler counts interrupts in the NPU: detach it from the NPU and
	 * wait out a running handler before the last reference may go.
	 */
	drm_dev_get(&ndev->drm);
	npu_dma_device_remove(ndev);
	WRITE_ONCE(edu->ndev, NULL);
	synchronize_irq(pci_irq_vector(pdev, 0));
	drm_dev_put(&ndev->drm);
}

static const struct pci_device_id npu_edu_ids[] = {
	{ PCI_DEVICE(EDU_VENDOR_ID, EDU_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, npu_edu_ids);

static struct pci_driver npu_edu_driver = {
	.name = NPU_DMA_NAME "_edu",
	.id_table = npu_edu_ids,
	.probe = npu_edu_probe,
	.remove = npu_edu_remove,
};

/**
 * npu_dma_edu_check_params() - check the edu parameters
 *
 * Return: 0, or -EINVAL with a line naming the parameter.
 */
int npu_dma_edu_check_params(void)
{
	if (edu_dma_bits < 24 || edu_dma_bits > 64) {
		pr_err(NPU_DMA_NAME ": edu_dma_bits=%u out of range (24..64)\n",
		       edu_dma_bits);
		return -EINVAL;
	}
	if (!edu_chunk || edu_chunk >= EDU_DMA_BUF_SIZE) {
		pr_err(NPU_DMA_NAME ": edu_chunk=%u out of range (1..%u)\n",
		       edu_chunk, EDU_DMA_BUF_SIZE - 1);
		return -EINVAL;
	}
	if (!edu_mem_mb || edu_mem_mb > 1024) {
		pr_err(NPU_DMA_NAME ": edu_mem_mb=%u out of range (1..1024)\n",
		       edu_mem_mb);
		return -EINVAL;
	}
	return 0;
}

int npu_dma_edu_init(void)
{
	return pci_register_driver(&npu_edu_driver);
}

void npu_dma_edu_exit(void)
{
	pci_unregister_driver(&npu_edu_driver);
}
