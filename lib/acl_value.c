// SPDX-License-Identifier: MIT
/*
 * libacl: aclrtValueWrite / aclrtValueWait.
 *
 * The driver has no descriptor that stores an immediate 64-bit value
 * (FILL patterns are at most 4 bytes, so two FILLs could be seen torn)
 * nor one that waits on a memory word. Both are host tasks
 * (acl_callback.c): a HOST_BARRIER on the stream whose runner, once the
 * queue is parked there, moves the word with one 8-byte COPY on a private
 * library queue (one copy, so never torn) and releases the barrier; for a
 * wait it reads the word again, backing off from 10 us to 1 ms, until the
 * comparison holds. Later work of the stream therefore waits for both, as
 * CANN's device-side tasks make it.
 */
#include <errno.h>
#include <unistd.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_ring.h"
#include "acl_stream.h"
#include "acl_htask.h"
#include "acl_mem.h"
#include "acl_copy.h"
#include "acl_submit.h"

#define ACL_VALUE_POLL_MAX_US	1000

bool acl_value_met(uint64_t cur, uint64_t value, uint32_t flag)
{
	switch (flag) {
	case ACL_STREAM_WAIT_VALUE_GEQ:
		return (int64_t)(cur - value) >= 0;
	case ACL_STREAM_WAIT_VALUE_EQ:
		return cur == value;
	case ACL_STREAM_WAIT_VALUE_AND:
		return (cur & value) != 0;
	case ACL_STREAM_WAIT_VALUE_NOR:
		return ~(cur | value) != 0;
	}
	return false;
}

/* Copy the word at device address @addr to or from *@host, and wait. */
static int acl_value_io(struct acl_ring **io, struct acl_device *dev,
			uint64_t addr, uint64_t *host, bool to_dev)
{
	struct npu_dma_desc d = { .opcode = NPU_DMA_OP_COPY, .len = 8 };
	struct acl_work w = acl_work_descs(&d, 1);
	int fd, err;

	if (!*io) {
		fd = __atomic_load_n(&dev->fd, __ATOMIC_ACQUIRE);
		if (fd < 0)
			return -ENODEV;
		*io = acl_ring_create(fd, 16, &err);
		if (!*io)
			return err;
	}
	if (to_dev) {
		d.flags = NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE;
		d.src = (uintptr_t)host;
		d.dst = addr;
	} else {
		d.flags = NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE;
		d.src = addr;
		d.dst = (uintptr_t)host;
	}
	return acl_ring_submit_wait(*io, &w);
}

int acl_value_run(const struct acl_htask *t, struct acl_ring **io)
{
	unsigned int us = 10;
	uint64_t cur = t->value;
	int err;

	if (t->kind == ACL_HT_VALUE_WRITE)
		return acl_value_io(io, t->dev, t->addr, &cur, true);
	for (;;) {
		err = acl_value_io(io, t->dev, t->addr, &cur, false);
		if (err || acl_value_met(cur, t->value, t->flag))
			return err;
		usleep(us);
		if (us < ACL_VALUE_POLL_MAX_US)
			us *= 2;
	}
}

static aclError acl_value_task(void *devAddr, uint64_t value, uint32_t flag,
			       aclrtStream stream, enum acl_htask_kind kind)
{
	struct acl_htask t = { .kind = kind, .block = true };
	struct acl_device *dev;
	struct acl_stream *s;
	aclError ret;

	if (!devAddr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "devAddr is NULL");
	s = acl_stream_for_work(stream, &ret);
	if (!s)
		return ret;
	if (acl_classify(devAddr, &dev) != ACL_LOC_DEVICE || dev != s->ctx->dev)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "devAddr=%p is not memory of the stream's device",
			       devAddr);
	if ((uintptr_t)devAddr % 8)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "devAddr=%p is not 8-byte aligned", devAddr);
	t.dev = dev;
	t.addr = acl_dev_addr(dev, devAddr);
	t.value = value;
	t.flag = flag;
	return acl_htask_submit(s, &t);
}

ACL_FUNC_VISIBILITY aclError aclrtValueWrite(void *devAddr, uint64_t value,
					     uint32_t flag, aclrtStream stream)
{
	ACL_ENTER();
	if (flag)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flag=%#x is reserved, must be 0", flag);
	return acl_value_task(devAddr, value, 0, stream, ACL_HT_VALUE_WRITE);
}

ACL_FUNC_VISIBILITY aclError aclrtValueWait(void *devAddr, uint64_t value,
					    uint32_t flag, aclrtStream stream)
{
	ACL_ENTER();
	if (flag > ACL_STREAM_WAIT_VALUE_NOR)
		return acl_err(ACL_ERROR_INVALID_PARAM, "flag=%#x is invalid",
			       flag);
	return acl_value_task(devAddr, value, flag, stream, ACL_HT_VALUE_WAIT);
}
