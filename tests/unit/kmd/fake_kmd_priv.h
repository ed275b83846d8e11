/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals of the fake command layer (fake_kmd.h), shared by its two
 * files: fake_kmd.c (NPUs, files, memory, graphs, mappings) and
 * fake_kmd_queue.c (descriptors, queues, the doorbell, running). One
 * lock, fake_lock, protects everything here.
 */
#ifndef FAKE_KMD_PRIV_H
#define FAKE_KMD_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "acl_kmd.h"
#include "fake_kmd.h"

#define FAKE_MAX_NPUS		8
#define FAKE_PAGE		4096ULL
#define FAKE_MAX_QUEUES		64	/* per file, as the driver */
#define FAKE_MAX_GRAPHS		4096
#define FAKE_DESTROY_WAIT_S	5	/* a parked queue's destroy gives up */
#define FAKE_ALL_CAPS		(NPU_DMA_CAP_COPY_2D | NPU_DMA_CAP_FILL | \
				 NPU_DMA_CAP_EVENTS | NPU_DMA_CAP_WAIT | \
				 NPU_DMA_CAP_HOST_BARRIER | NPU_DMA_CAP_BATCH | \
				 NPU_DMA_CAP_PAGEABLE | NPU_DMA_CAP_NEED_WAKEUP | \
				 NPU_DMA_CAP_GRAPH | NPU_DMA_CAP_COPY_INDIRECT | \
				 NPU_DMA_CAP_SUBMIT_INLINE | NPU_DMA_CAP_SUBMIT_HELP)

struct fake_npu;
struct fake_file;

/* A GEM object: alive while its handle is open or a job names it. */
struct fake_alloc {
	struct fake_npu *npu;
	struct fake_file *file;
	uint64_t addr, size;
	uint32_t handle;		/* 0 once closed */
	int refs;
	struct fake_alloc *next;	/* in npu->allocs */
};

struct fake_reg {
	uint64_t addr, size;
	struct fake_reg *next;
};

/* One consumed descriptor (or graph task), resolved. */
struct fake_job {
	struct npu_dma_desc d;
	uint64_t seq;
	int status;			/* failed validation: completes with it */
	bool batch_member;		/* between a BATCH_BEGIN and its END */
	uint8_t *src, *dst;		/* COPY, COPY_2D, FILL */
	struct fake_alloc *hold[3];
	struct fake_job *next;
};

struct fake_queue {
	uint32_t id;
	struct fake_file *file;
	uint32_t entries;
	int memfd;
	size_t size;
	uint64_t offset;		/* mmap offset */
	struct npu_dma_queue_ctrl *ctrl;	/* the fake's own mapping */
	struct npu_dma_desc *ring;
	uint32_t head;
	uint64_t seq;			/* last sequence number given */
	uint64_t released;		/* last barrier released */
	int efd;			/* a dup of the library's, or -1 */
	bool dying;			/* QUEUE_DESTROY under way */
	struct fake_job *jobs, **jobs_tail;
	struct fake_queue *next;	/* in file->queues */
};

struct fake_graph {
	uint32_t id;
	uint32_t n;
	struct npu_dma_desc *d;
	struct fake_graph *next;
};

struct fake_file {
	int fd;				/* an eventfd: a real, unique fd number */
	pid_t opener;			/* the process that opened it */
	struct fake_npu *npu;
	uint32_t next_handle;
	uint32_t next_graph;
	struct fake_reg *regs;
	struct fake_queue *queues;
	struct fake_graph *graphs;
	int ev_memfd;
	struct npu_dma_event_slot *slots;
	size_t slots_size;
	uint64_t ev_offset;
	struct fake_file *next;
};

struct fake_npu {
	struct fake_npu_cfg cfg;
	char path[ACL_KMD_PATH_MAX];
	char pci[32];			/* "" if none */
	uint64_t mem_base;
	uint8_t *mem;
	struct fake_alloc *allocs;
};

extern pthread_mutex_t fake_lock;
extern pthread_cond_t fake_progress;	/* a queue moved (under fake_lock) */
extern struct fake_npu fake_npus[FAKE_MAX_NPUS];
extern int fake_nnpus;
extern struct fake_file *fake_files;
extern uint32_t fake_next_queue;
extern uint64_t fake_next_offset;
extern bool fake_held, fake_is_busy;

/* Shared helpers; the callers hold fake_lock (but fake_begin takes it). */
int fake_begin(enum fake_kmd_op op);
int fake_end(int ret);
struct fake_file *fake_file_of(int fd);
struct fake_queue *fake_queue_find(const struct fake_file *f, uint32_t id,
				   bool dying);
struct fake_queue *fake_queue_of(const struct fake_file *f, uint32_t id);
struct fake_queue *fake_queue_any(uint32_t id);
unsigned int fake_file_queues(const struct fake_file *f);
uint64_t fake_round(uint64_t v, uint64_t to);
uint64_t fake_now_ns(void);
void fake_signal(const struct fake_queue *q);
int fake_shm(size_t size, int *memfd, void **map);
void fake_alloc_put(struct fake_alloc *a);
struct fake_alloc *fake_alloc_covering(const struct fake_file *f,
				       uint64_t addr, uint64_t len, bool peers);
uint8_t *fake_dev_ptr(const struct fake_alloc *a, uint64_t addr);
int fake_prepare(const struct fake_file *f, struct fake_job *j);
void fake_job_free(struct fake_job *j);
void fake_queue_free(struct fake_queue *q);
void fake_pump(void);

#endif /* FAKE_KMD_PRIV_H */
