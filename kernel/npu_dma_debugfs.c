// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: debugfs. Diagnostics and test knobs; not ABI.
 *
 * /sys/kernel/debug/npu_dma/
 *   test_warn	(only with test_hooks=1) writing 1 triggers a kernel
 *		WARN, so the test bench can prove it catches warnings.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>

#include "npu_dma.h"

static struct dentry *npu_dma_debugfs_root;

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
	if (test_hooks)
		debugfs_create_file("test_warn", 0200, npu_dma_debugfs_root,
				    NULL, &test_warn_fops);
}

void npu_dma_debugfs_exit(void)
{
	debugfs_remove_recursive(npu_dma_debugfs_root);
}
