/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * t_fuzz's worker, in three files: t_fuzz.c (the random source, the
 * round's state, the racer, the worker's loop, the test), t_fuzz_objects.c
 * (the objects a file holds: allocations, GEM handles, registrations,
 * queues) and t_fuzz_work.c (work on them: descriptors on the rings,
 * graphs, the DRM core's ioctls, mappings, files in other processes),
 * t_fuzz_share.c (memory leaving the file: MEM_INFO, PRIME imports of
 * every kind of fd, IPC shares by key, their importers in other
 * processes). The parent's side is t_fuzz.h's.
 */
#ifndef T_FUZZ_WORKER_H
#define T_FUZZ_WORKER_H

#include <stddef.h>
#include <stdint.h>

#include "npu_raw.h"

#define MAX_NPUS	8
#define MAX_CTX		4
#define MAX_ALLOC	12
#define MAX_REG		6
#define MAX_Q		6
#define MAX_GRAPH	4
#define MAX_HANDLES	8	/* imported and closed GEM handles kept */
#define MAX_BUFS_OUT	4	/* exported dma-buf fds kept */
#define MAX_SHARES	4	/* IPC_EXPORTs of a file kept */
#define MAX_MAPPED	4	/* IPC_IMPORTs (mappings) of a file kept */
#define MAX_NAMED	4	/* addresses of imported handles (MEM_INFO) kept */
#define NR_BUFS		6
#define BUF_LEN		(256 << 10)
#define PAGE		4096UL
#define ARENA		(1ULL << 30)

/* What the workers did, kept in shared memory so killed workers count. */
struct fz_stats {
	uint64_t ops;
	uint64_t ioctls;
	uint64_t ioctl_ok;
	uint64_t descs;
	uint64_t munmaps;
	uint64_t efd_closed;
	uint64_t graphs;
	uint64_t gem_closes;
	uint64_t prime;
	uint64_t prime_ok;	/* dma-bufs exported */
	uint64_t foreign;
	uint64_t races;
	uint64_t rounds;
	uint64_t killed;
	uint64_t ro_args;	/* arguments passed in a read-only page */
	uint64_t batches;	/* complete batches written to rings */
	uint64_t tight;		/* rounds under tight budgets */
	uint64_t guesses;	/* racer's destroys of ids a create is about to give */
	uint64_t uffd_rounds;	/* rounds with a userfaultfd-backed buffer */
	uint64_t uffd_never;	/* of which its faults were never served */
	uint64_t uffd_faults;	/* faults served */
	uint64_t execs;		/* children exec'd with a file inherited */
	uint64_t parked;	/* rounds of queues parked at barriers */
	uint64_t mem_info;	/* MEM_INFO calls */
	uint64_t imports;	/* PRIME imports of other NPUs' and vgem's dma-bufs */
	uint64_t junk_fds;	/* PRIME imports of fds that are no dma-buf, refused */
	uint64_t ipc;		/* IPC_* calls */
	uint64_t vmm;		/* VMM_MAP / VMM_UNMAP calls */
	uint64_t vmm_maps;	/* mappings made */
	uint64_t signals;	/* SIGNAL_CREATE / DESTROY and signal shares */
	uint64_t ipc_exports;	/* shares made */
	uint64_t ipc_imports;	/* IPC_IMPORTs made, in the worker and its children */
	uint64_t ipc_closed;	/* of which closed with IPC_CLOSE */
	uint64_t ipc_refused;	/* imports refused as they must be (pid, key, NPU) */
	uint64_t ipc_children;	/* importing children */
	uint64_t held_copies;	/* their copies after the exporter let go */
	int vgem;		/* vgem's dma-bufs were offered */
	long pin_peak;		/* most pages seen pinned in a parked round */
	char fail[256];
};

struct fz_alloc {
	uint64_t addr, size;
	uint32_t handle;
};

struct fz_reg {
	uint64_t addr, size;
};

/* A share by key of one of the file's allocations (IPC_EXPORT). */
struct fz_share {
	uint64_t key[2];
	uint64_t addr, size;	/* the window, whole pages */
	int anyone;		/* NO_PID_CHECK: any process may import */
	int self;		/* the worker's pid is on its list */
	int nr_pids;		/* pids set */
	int pids_unknown;	/* a mutated SET_PIDS succeeded: list unknown */
};

struct fz_queue {
	uint32_t id, entries;
	int efd;		/* -1 once closed under the queue */
	void *map;		/* NULL if not mapped */
	size_t map_size;
	uint64_t map_off;
};

struct fz_ctx {
	int fd;			/* -1: slot free */
	int npu;
	struct fz_alloc alloc[MAX_ALLOC];
	int nr_alloc;
	struct fz_reg reg[MAX_REG];
	int nr_reg;
	struct fz_queue q[MAX_Q];
	int nr_q;
	uint32_t graph[MAX_GRAPH];	/* ids from GRAPH_CREATE */
	uint32_t graph_len[MAX_GRAPH];
	int nr_graph;
	uint32_t imported[MAX_HANDLES];	/* handles from PRIME_FD_TO_HANDLE */
	int nr_imported;
	uint32_t closed[MAX_HANDLES];	/* handles closed, not handed out since */
	int nr_closed;
	uint64_t events_off, events_size;	/* GET_INFO's event table */
	struct fz_share share[MAX_SHARES];
	int nr_share;
	struct fz_reg mapped[MAX_MAPPED];	/* IPC_IMPORTs: windows of others' memory */
	int nr_mapped;
	struct fz_reg named[MAX_NAMED];	/* where imported handles are (may be stale) */
	int nr_named;
	int unsure;		/* an import we do not know of may exist */
};

struct fz_buf {
	uint8_t *p;
	int mapped;
};

struct fz_dmabuf {
	int fd, npu;
};

extern struct fz_stats *stats;
extern int nr_npus;
extern struct npu_dma_info infos[MAX_NPUS];
extern struct fz_ctx ctxs[MAX_CTX];
extern struct fz_buf bufs[NR_BUFS];
extern struct fz_dmabuf dmabufs[MAX_BUFS_OUT];
extern int nr_dmabufs;
/* The buffer backed by a userfaultfd in this round, or -1. */
extern int uffd_buf;
/*
 * The host buffers' PROT_NONE arena (t_fuzz.c says why), its read-only
 * page and its edge page.
 */
extern uint8_t *arena, *ro_page, *edge;
/* The address HOST_REGISTER is about to pin, for the racer to unregister. */
extern volatile uint64_t next_reg;
/* A racing thread runs: operations on tracked resources may fail. */
extern volatile int racing;
extern int cur_op;

/* t_fuzz.c */
uint64_t rnd(void);
uint64_t below(uint64_t n);
int chance(int percent);
uint64_t interesting(uint64_t near);
void fz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int fz_ioctl(int fd, unsigned long cmd, void *arg);
void arm(int ms);
struct fz_ctx *any_ctx(void);
int is_edu(const struct fz_ctx *c);

/* t_fuzz_objects.c */
void mutate_struct(void *s, size_t size);
void random_bytes(void *s, size_t size);
int fz_call(int fd, unsigned long cmd, void *s, size_t size, int *mutated);
void unclose(struct fz_ctx *c, uint32_t h);
void note_closed(struct fz_ctx *c, uint32_t h);
int gem_close(int fd, uint32_t h);
int tracked_handle(const struct fz_ctx *c, uint32_t h);
void untrack_handle(struct fz_ctx *c, uint32_t h);
void host_range(__u64 *addr, __u64 *size, uint64_t cap);
int in_arena(uint64_t addr, uint64_t len);
void drop_queue(struct fz_ctx *c, int i);
void op_info(struct fz_ctx *c);
void op_alloc(struct fz_ctx *c);
void op_free(struct fz_ctx *c);
void op_register(struct fz_ctx *c);
void op_unregister(struct fz_ctx *c);
void op_queue_create(struct fz_ctx *c);
void op_queue_destroy(struct fz_ctx *c);

/* t_fuzz_share.c */
void fz_share_setup(void);
/* May dma-buf @fd of NPU @from_npu be imported into NPU @npu? */
int dmabuf_importable(int fd, int from_npu, int npu);
void share_forget(struct fz_ctx *c, uint64_t addr, uint64_t size);
void share_forget_untracked(struct fz_ctx *c);
void share_forget_ctx(struct fz_ctx *c);
int share_dev_range(struct fz_ctx *c, uint64_t len, uint64_t *addr);
void share_close_all(struct fz_ctx *c);
void share_racer(struct fz_ctx *c, int fd, int k);
void op_share(struct fz_ctx *c);

/* t_fuzz_work.c */
void op_submit(struct fz_ctx *c);
void op_barrier(struct fz_ctx *c);
void op_queue_ctl(struct fz_ctx *c);
void op_graph_create(struct fz_ctx *c);
void op_graph_destroy(struct fz_ctx *c);
void op_graph_replay(struct fz_ctx *c);
void op_bad_cmd(struct fz_ctx *c);
void note_import(struct fz_ctx *c, uint32_t h);
void op_drm_core(struct fz_ctx *c);
void op_prime_roundtrip(struct fz_ctx *c);
void op_close_eventfd(struct fz_ctx *c);
void op_wait(struct fz_ctx *c);
void op_munmap(void);
void op_mmap_events(struct fz_ctx *c);
void close_ctx(struct fz_ctx *c);
void op_open(void);
void op_foreign(void);
void op_exec(struct fz_ctx *c);

#endif /* T_FUZZ_WORKER_H */
