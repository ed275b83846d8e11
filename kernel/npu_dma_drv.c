// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: module entry points.
 *
 * Copyright (C) 2026 The npu-dma authors
 */

#include <linux/module.h>

#include "npu_dma_queue.h"

static unsigned int nr_sim;
module_param(nr_sim, uint, 0444);
MODULE_PARM_DESC(nr_sim, "Number of simulated NPUs to create (0..32, default 0)");

static bool test_hooks;
module_param(test_hooks, bool, 0444);
MODULE_PARM_DESC(test_hooks,
		 "Create debugfs files that let tests provoke kernel warnings (default off; never on production systems)");

static int __init npu_dma_init(void)
{
	int ret;

	/* Every parameter first: a bad one must not leave devices probed. */
	ret = npu_dma_edu_check_params();
	if (!ret)
		ret = npu_dma_sim_check_params(nr_sim);
	if (ret)
		return ret;

	ret = npu_dma_chrdev_init();
	if (ret) {
		pr_err(NPU_DMA_NAME ": Failed to register char devices: %d\n", ret);
		return ret;
	}
	npu_dma_debugfs_init(test_hooks);
	ret = npu_dma_queue_init();
	if (ret)
		goto err_debugfs;

	ret = npu_dma_edu_init();
	if (ret)
		goto err_queue;
	ret = npu_dma_sim_init(nr_sim);
	if (ret)
		goto err_edu;
	return 0;

err_edu:
	npu_dma_edu_exit();
err_queue:
	npu_dma_queue_exit();
err_debugfs:
	npu_dma_debugfs_exit();
	npu_dma_chrdev_exit();
	return ret;
}
module_init(npu_dma_init);

static void __exit npu_dma_exit(void)
{
	npu_dma_sim_exit();
	npu_dma_edu_exit();
	npu_dma_queue_exit();
	npu_dma_debugfs_exit();
	npu_dma_chrdev_exit();
}
module_exit(npu_dma_exit);

MODULE_DESCRIPTION("NPU DMA engines: device memory, host pinning, submission rings");
MODULE_AUTHOR("The npu-dma authors");
MODULE_LICENSE("GPL");
MODULE_VERSION(NPU_DMA_VERSION);
