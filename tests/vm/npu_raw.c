// SPDX-License-Identifier: GPL-2.0-only
/*
 * A small client of the raw npu_dma ABI for the VM tests: see npu_raw.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "npu_raw.h"

int npu_raw_open(int index)
{
	return npu_node_open(index, O_RDWR);
}

int npu_raw_present(void)
{
	int fd = npu_raw_open(0);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

int npu_raw_ioctl(int fd, unsigned long cmd, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, cmd, arg);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : ret;
}

int npu_raw_info(int fd, struct npu_dma_info *info)
{
	memset(info, 0, sizeof(*info));
	return npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_GET_INFO, info);
}

int npu_raw_alloc(int fd, uint64_t size, uint32_t policy, uint64_t *dev_addr,
		  uint32_t *handle)
{
	struct npu_dma_mem_alloc a = { .size = size, .policy = policy };
	int ret = npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_MEM_ALLOC, &a);

	if (!ret) {
		*dev_addr = a.dev_addr;
		if (handle)
			*handle = a.handle;
	}
	return ret;
}

int npu_raw_free(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return npu_raw_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

int npu_raw_register(int fd, const void *p, uint64_t size, uint32_t flags)
{
	struct npu_dma_host_register r = {
		.addr = (uintptr_t)p, .size = size, .flags = flags,
	};

	return npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_HOST_REGISTER, &r);
}

int npu_raw_unregister(int fd, const void *p)
{
	struct npu_dma_host_unregister u = { .addr = (uintptr_t)p };

	return npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_HOST_UNREGISTER, &u);
}

struct npu_dma_event_slot *npu_raw_map_events(int fd, size_t *size)
{
	struct npu_dma_info info;
	int ret = npu_raw_info(fd, &info);

	if (ret) {
		errno = -ret;
		return MAP_FAILED;
	}
	*size = info.events_size;
	return mmap(NULL, info.events_size, PROT_READ, MAP_SHARED, fd,
		    (off_t)info.events_offset);
}

int npu_raw_queue_create(int fd, uint32_t entries, struct npu_raw_queue *q)
{
	struct npu_dma_queue_create c = { .entries = entries };
	int ret;

	memset(q, 0, sizeof(*q));
	q->fd = fd;
	q->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (q->efd < 0)
		return -errno;
	c.eventfd = q->efd;
	ret = npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, &c);
	if (ret) {
		close(q->efd);
		return ret;
	}
	q->id = c.queue_id;
	q->entries = entries;
	q->map_size = c.mmap_size;
	q->map_offset = c.mmap_offset;
	q->map = mmap(NULL, c.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      (off_t)c.mmap_offset);
	if (q->map == MAP_FAILED) {
		ret = -errno;
		close(q->efd);
		return ret;
	}
	q->ctrl = q->map;
	q->ring = (struct npu_dma_desc *)((char *)q->map + NPU_DMA_QUEUE_RING_OFFSET);
	return 0;
}

void npu_raw_queue_destroy(struct npu_raw_queue *q)
{
	struct npu_dma_queue_destroy d = { .queue_id = q->id };

	npu_raw_ioctl(q->fd, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &d);
	munmap(q->map, q->map_size);
	close(q->efd);
}

uint64_t npu_raw_push_n(struct npu_raw_queue *q, const struct npu_dma_desc *d,
			uint32_t n)
{
	uint32_t tail = q->ctrl->sq_tail, i;

	for (i = 0; i < n; i++)
		q->ring[(tail + i) & (q->entries - 1)] = d[i];
	__atomic_store_n(&q->ctrl->sq_tail, tail + n, __ATOMIC_RELEASE);
	q->seq += n;
	return q->seq;
}

uint64_t npu_raw_push(struct npu_raw_queue *q, const struct npu_dma_desc *d)
{
	return npu_raw_push_n(q, d, 1);
}

int npu_raw_submit(struct npu_raw_queue *q)
{
	struct npu_dma_queue_submit s = { .queue_id = q->id };
	uint32_t tail = q->ctrl->sq_tail, n;
	int ret;

	ret = npu_raw_ioctl(q->fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &s);
	if (ret < 0)
		return ret;
	n = tail - q->rung;
	q->rung = tail;
	return (int)n;
}

int npu_raw_wait(struct npu_raw_queue *q, uint64_t seq, int timeout_ms)
{
	struct pollfd p = { .fd = q->efd, .events = POLLIN };
	uint64_t v;

	while (__atomic_load_n(&q->ctrl->completed_seq, __ATOMIC_ACQUIRE) < seq) {
		int n = poll(&p, 1, timeout_ms);

		if (n == 0)
			return -ETIMEDOUT;
		if (n < 0 && errno != EINTR)
			return -errno;
		if (read(q->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
			return -errno;
	}
	return 0;
}

uint64_t npu_raw_wait_barrier(struct npu_raw_queue *q, int timeout_ms)
{
	struct timespec five_ms = { 0, 5000000L };
	int i;

	for (i = 0; i <= timeout_ms / 5; i++) {
		uint64_t b = __atomic_load_n(&q->ctrl->barrier_seq, __ATOMIC_ACQUIRE);

		if (b)
			return b;
		nanosleep(&five_ms, NULL);
	}
	return 0;
}

int npu_raw_release(struct npu_raw_queue *q, uint64_t seq)
{
	struct npu_dma_barrier_release r = { .queue_id = q->id, .seq = seq };

	return npu_raw_ioctl(q->fd, DRM_IOCTL_NPU_DMA_BARRIER_RELEASE, &r);
}

int npu_raw_run(struct npu_raw_queue *q, const struct npu_dma_desc *d)
{
	uint32_t errs = q->ctrl->error_count;
	uint64_t seq = npu_raw_push(q, d);
	int ret;

	ret = npu_raw_submit(q);
	if (ret < 0)
		return ret;
	ret = npu_raw_wait(q, seq, 120000);
	if (ret)
		return ret;
	if (q->ctrl->error_count == errs)
		return 0;
	return q->ctrl->last_error_seq == seq ? q->ctrl->last_error : -EIO;
}

struct npu_dma_desc npu_raw_copy(uint64_t dst, uint64_t src, uint64_t len,
				 uint16_t flags)
{
	struct npu_dma_desc d = {
		.opcode = NPU_DMA_OP_COPY, .flags = flags,
		.src = src, .dst = dst, .len = len,
	};

	return d;
}
