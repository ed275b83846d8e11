// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: debugfs. Diagnostics and test knobs; not ABI.
 *
 * /sys/kernel/debug/npu_dma/
 *   npu_dmaN/queues	one line per open queue: process, queue id, ring
 *			entries, sequence numbers submitted and completed,
 *			failures, the barrier it is parked at
 *   npu_dmaN/allocations	one line per device allocation: process,
 *			address, size
 *   npu_dmaN/pins	one line per host registration: process, address,
 *			size, pages, writable
 *   npu_dmaN/counters	descriptors submitted, completed and failed,
 *			bytes moved, pins, unpins, interrupts; HOST_REGISTER
 *			ioctls and the nanoseconds spent in them, and of
 *			those in pin_user_pages_fast() (register_*)
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
#include <linux/pid.h>
#include <linux/seq_file.h>

#include "npu_dma_engine.h"
#include "npu_dma_pin.h"
#include "npu_dma_queue.h"
#include "npu_dma_retire.h"

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

/*
 * The listings walk every context of the NPU under ctx_lock, then each
 * context's objects under its lock: a snapshot, never a live pointer.
 */
static int npu_dbgfs_queues_show(struct seq_file *m, void *unused)
{
	struct npu_dma_device *ndev = m->private;
	struct npu_dma_queue *q;
	struct npu_dma_ctx *ctx;
	unsigned long index;

	seq_puts(m, "pid queue entries submitted completed failed barrier\n");
	mutex_lock(&ndev->ctx_lock);
	list_for_each_entry(ctx, &ndev->contexts, node) {
		mutex_lock(&ctx->lock);
		xa_for_each(&ctx->queues, index, q)
			seq_printf(m, "%d %u %u %llu %llu %u %llu\n",
				   pid_vnr(ctx->pid), q->id, q->entries,
				   READ_ONCE(q->seq),
				   npu_dma_queue_completed(q),
				   READ_ONCE(q->ctrl->error_count),
				   READ_ONCE(q->barrier_seq));
		mutex_unlock(&ctx->lock);
	}
	mutex_unlock(&ndev->ctx_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_dbgfs_queues);

static void npu_dbgfs_ranges(struct seq_file *m, bool host)
{
	struct npu_dma_device *ndev = m->private;
	struct npu_dma_ctx *ctx;
	struct rb_node *n;

	mutex_lock(&ndev->ctx_lock);
	list_for_each_entry(ctx, &ndev->contexts, node) {
		mutex_lock(&ctx->lock);
		for (n = rb_first(host ? &ctx->host_tree : &ctx->mem_tree); n;
		     n = rb_next(n)) {
			struct npu_dma_range *r = rb_entry(n, struct npu_dma_range, node);
			struct npu_dma_region *reg;

			seq_printf(m, "%d 0x%llx %llu", pid_vnr(ctx->pid),
				   r->start, r->size);
			if (host) {
				reg = container_of(r, struct npu_dma_region, range);
				seq_printf(m, " %lu %d", reg->nr_pages, reg->writable);
			}
			seq_putc(m, '\n');
		}
		mutex_unlock(&ctx->lock);
	}
	mutex_unlock(&ndev->ctx_lock);
}

static int npu_dbgfs_allocations_show(struct seq_file *m, void *unused)
{
	seq_puts(m, "pid address size\n");
	npu_dbgfs_ranges(m, false);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_dbgfs_allocations);

static int npu_dbgfs_pins_show(struct seq_file *m, void *unused)
{
	seq_puts(m, "pid address size pages writable\n");
	npu_dbgfs_ranges(m, true);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_dbgfs_pins);

static int npu_dbgfs_counters_show(struct seq_file *m, void *unused)
{
	struct npu_dma_device *ndev = m->private;
	struct npu_dma_stats *st = &ndev->stats;

	seq_printf(m, "submitted %lld\ncompleted %lld\nfailed %lld\nbytes %lld\n",
		   atomic64_read(&st->submitted), atomic64_read(&st->completed),
		   atomic64_read(&st->failed), atomic64_read(&st->bytes));
	seq_printf(m, "pins %lld\nunpins %lld\nirqs %lld\n",
		   atomic64_read(&st->pins), atomic64_read(&st->unpins),
		   atomic64_read(&st->irqs));
	seq_printf(m, "register_calls %lld\nregister_ns %lld\n"
		   "register_pin_calls %lld\nregister_pin_ns %lld\n",
		   atomic64_read(&st->reg_calls), atomic64_read(&st->reg_ns),
		   atomic64_read(&st->reg_pin_calls),
		   atomic64_read(&st->reg_pin_ns));
	seq_printf(m, "pin_cache_hits %lld\npin_cache_fills %lld\n",
		   atomic64_read(&st->pin_cache_hits),
		   atomic64_read(&st->pin_cache_fills));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npu_dbgfs_counters);

/**
 * npu_dma_debugfs_add() - create an NPU's debugfs directory
 * @ndev: the NPU, named already
 */
void npu_dma_debugfs_add(struct npu_dma_device *ndev)
{
	ndev->debugfs = debugfs_create_dir(ndev->name, npu_dma_debugfs_root);
	debugfs_create_file("queues", 0400, ndev->debugfs, ndev, &npu_dbgfs_queues_fops);
	debugfs_create_file("allocations", 0400, ndev->debugfs, ndev,
			    &npu_dbgfs_allocations_fops);
	debugfs_create_file("pins", 0400, ndev->debugfs, ndev, &npu_dbgfs_pins_fops);
	debugfs_create_file("counters", 0400, ndev->debugfs, ndev,
			    &npu_dbgfs_counters_fops);
}

/**
 * npu_dma_debugfs_remove() - remove it; waits for readers in progress
 * @ndev: the NPU
 */
void npu_dma_debugfs_remove(struct npu_dma_device *ndev)
{
	debugfs_remove_recursive(ndev->debugfs);
	ndev->debugfs = NULL;
}

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
