// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: debugfs. Diagnostics and test knobs; not ABI.
 *
 * /sys/kernel/debug/npu_dma/
 *   test_warn	(only with test_hooks=1) writing 1 triggers a kernel
 *		WARN, so the test bench can prove it catches warnings.
 *   edu_lose_irqs
 *		(only with test_hooks=1) fault injection: the next N edu
 *		DMAs are started without their completion interrupt, so
 *		the driver sees transfers that never complete and must
 *		time them out and recover the card.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>

#include "npu_dma.h"

static struct dentry *npu_dma_debugfs_root;

atomic_t npu_dma_fault_edu_lost_irqs = ATOMIC_INIT(0);

static ssize_t test_warn_write(struct file *file, const char __user *buf,
			       size_t count, loff_t *ppos)
{
	bool fire;
	int ret;

	ret = kstrtobool_from_user(buf, count, &fire);
	if (ret)
		return ret;
	WARN(fire, NPU_DMA_NAME ": warning requested through debugfs test_warn\n");
	return count;
}

static const struct file_operations test_warn_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = test_warn_write,
	.llseek = no_llseek,
};

/**
 * npu_dma_debugfs_init() - create the driver's debugfs directory
 * @test_hooks: also create the files that provoke kernel warnings
 */
void npu_dma_debugfs_init(bool test_hooks)
{
	npu_dma_debugfs_root = debugfs_create_dir(NPU_DMA_NAME, NULL);
	if (!test_hooks)
		return;
	debugfs_create_file("test_warn", 0200, npu_dma_debugfs_root, NULL,
			    &test_warn_fops);
	debugfs_create_atomic_t("edu_lose_irqs", 0600, npu_dma_debugfs_root,
				&npu_dma_fault_edu_lost_irqs);
}

void npu_dma_debugfs_exit(void)
{
	debugfs_remove_recursive(npu_dma_debugfs_root);
}
