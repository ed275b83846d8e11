/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small client of the raw npu_dma ABI (include/uapi/drm/npu_dma_accel.h)
 * for the VM tests, not libacl: thin wrappers that return 0 or -errno.
 * NPU N is found through tools/npu_node.c: the DRM node whose bus device
 * has npu_index N.
 */
#ifndef NPU_RAW_H
#define NPU_RAW_H

#include <stddef.h>
#include <stdint.h>
#include <drm/npu_dma_accel.h>

#include "npu_node.h"

struct npu_raw_queue {
	int fd;			/* device fd */
	int efd;		/* eventfd, or -1 */
	uint32_t id;
	uint32_t entries;
	uint64_t seq;		/* sequence number of the last descriptor pushed */
	uint32_t rung;		/* sq_tail at the last npu_raw_submit() */
	void *map;
	size_t map_size;
	uint64_t map_offset;	/* its mmap offset (a GEM fake offset) */
	struct npu_dma_queue_ctrl *ctrl;
	struct npu_dma_desc *ring;
};

/* open(2) NPU @index's DRM node read-write: an fd, or -errno. */
int npu_raw_open(int index);
/* 1 if NPU 0 can be opened (the module and an NPU are there). */
int npu_raw_present(void);

int npu_raw_ioctl(int fd, unsigned long cmd, void *arg);
int npu_raw_info(int fd, struct npu_dma_info *info);
/*
 * MEM_ALLOC: the device address into *@dev_addr and, if @handle is not
 * NULL, the GEM handle into *@handle.
 */
int npu_raw_alloc(int fd, uint64_t size, uint32_t policy, uint64_t *dev_addr,
		  uint32_t *handle);
/* Free an allocation: DRM_IOCTL_GEM_CLOSE of its @handle. */
int npu_raw_free(int fd, uint32_t handle);
int npu_raw_register(int fd, const void *p, uint64_t size, uint32_t flags);
int npu_raw_unregister(int fd, const void *p);
/*
 * Map the file's event table (read-only, at info.events_offset); its
 * length into *@size. MAP_FAILED (errno set) on failure.
 */
struct npu_dma_event_slot *npu_raw_map_events(int fd, size_t *size);

int npu_raw_queue_create(int fd, uint32_t entries, struct npu_raw_queue *q);
void npu_raw_queue_destroy(struct npu_raw_queue *q);
/* Write one descriptor at the tail; return its sequence number. */
uint64_t npu_raw_push(struct npu_raw_queue *q, const struct npu_dma_desc *d);
/*
 * Write @n descriptors and publish them with one tail store, so a busy
 * queue's worker takes them all at once (a batch must arrive whole);
 * return the last one's sequence number.
 */
uint64_t npu_raw_push_n(struct npu_raw_queue *q, const struct npu_dma_desc *d,
			uint32_t n);
/*
 * Ring the doorbell (always, even when NEED_WAKEUP is clear). Return: the
 * descriptors published since the last call, all consumed by now (by this
 * doorbell or by the busy queue's worker), or -errno.
 */
int npu_raw_submit(struct npu_raw_queue *q);
/* Wait (eventfd + poll, timeout_ms) until seq completed: 0 or -ETIMEDOUT. */
int npu_raw_wait(struct npu_raw_queue *q, uint64_t seq, int timeout_ms);
/*
 * Wait (polling, timeout_ms) until the queue is parked at a HOST_BARRIER:
 * its sequence number, or 0 on timeout.
 */
uint64_t npu_raw_wait_barrier(struct npu_raw_queue *q, int timeout_ms);
/* BARRIER_RELEASE of the barrier with sequence number seq: 0 or -errno. */
int npu_raw_release(struct npu_raw_queue *q, uint64_t seq);
/* Push, submit and wait for one descriptor; return its error (0 if fine). */
int npu_raw_run(struct npu_raw_queue *q, const struct npu_dma_desc *d);

/* Descriptor builders. */
struct npu_dma_desc npu_raw_copy(uint64_t dst, uint64_t src, uint64_t len,
				 uint16_t flags);

#endif /* NPU_RAW_H */
