/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What npu-soak's three sides share: the options, the counters in memory
 * shared with the parent, a stream, the parent's view of the run and its
 * balances, and the functions one side calls in another. The streams are
 * in soak_stream.c, a process and the checks of what it leaves behind in
 * soak_proc.c, the parent (options, spawning, kills) in npu-soak.c.
 */
#ifndef SOAK_H
#define SOAK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "acl/acl.h"

#define PROG		"npu-soak"
#define MAX_DEVS	64
#define MAX_PROCS	64
#define MAX_BATCH	64
#define SYNC_MS		60000		/* a batch that takes longer is a hang */

enum kind { H2D, D2H, D2D, H2D_2D, D2H_2D, D2D_2D, FILL, NR_KINDS };

extern const char *const kind_name[NR_KINDS];

/*
 * One stream's figures, in memory shared with the parent. A stream
 * stages its own (struct stream's @stage) and adds them here at each full
 * read-back; lost, errors, done, queued and locked go here directly.
 */
struct counters {
	uint64_t copies[NR_KINDS];
	uint64_t bytes[NR_KINDS];
	uint64_t pinned, pageable, sync, async;
	uint64_t batches, readbacks;
	uint64_t verified;	/* bytes compared with what they must be */
	uint64_t lost;		/* of those, the ones that differed */
	uint64_t errors;	/* acl calls that failed */
	uint64_t done;		/* the stream finished (cleanly or not) */
	uint64_t queued;	/* async calls not yet synchronised: a kill now is mid-batch */
	uint64_t locked;	/* kB of VmLck not given back (stream 0 of a process) */
};

struct opts {
	int procs, streams;
	unsigned int seconds;
	uint64_t seed;
	size_t max_len, dev_size;
	int batch;
	int devs[MAX_DEVS], nr_devs;
	unsigned int kill_every;	/* mean seconds between kills, 0: none */
	bool verbose;
};

extern struct opts o;
extern struct counters *shared;	/* procs * streams, MAP_SHARED */
extern double deadline;

struct op;

struct pending {
	const char *what;	/* for the report of a mismatch */
	uint8_t *got;		/* host memory the copy wrote */
	uint8_t *want;		/* what it must hold, guards included */
	size_t len;
};

struct stream {
	int proc, gen, index, dev;
	uint64_t rng;
	struct counters *c;
	struct counters stage;		/* figures not yet checked by a read-back */
	aclrtStream st;
	uint8_t *dbuf[2];		/* device buffers */
	uint8_t *shadow[2];		/* what they hold */
	uint8_t *pin_src, *pin_dst;	/* aclrtMallocHost arenas */
	uint8_t *pg_src, *pg_dst;	/* malloc arenas (pageable) */
	uint8_t *want;			/* expected images of the dst arenas */
	uint8_t *back;			/* read-back buffer, dev_size */
	size_t slot;			/* bytes per batch slot of an arena */
	struct pending pend[MAX_BATCH];
	int npend;
	uint64_t batches;		/* this stream's, for the operation log */
	struct op *log;			/* operations since the last read-back */
	int nlog, log_size;
	bool failed;
};

/* The parent's view of the run: its processes and what became of them. */
struct run {
	pid_t pids[MAX_PROCS];	/* 0: the slot's last process has ended */
	int gen[MAX_PROCS];	/* generation running in each slot */
	bool killed[MAX_PROCS];	/* SIGKILLed by the schedule, not yet reaped */
	int running, bad_exits;
	int kills;
	int victim;		/* slot drawn for the next kill, -1: none yet */
	uint64_t krng;		/* the kill schedule's randomness */
	double next_kill;
	bool unbalanced;
};

/*
 * What must be the same after the run as before it: pages pinned with
 * FOLL_PIN system-wide, and each NPU's free device memory. Read in the
 * parent, which never opens a device through libacl: the nodes are
 * opened only for the GET_INFO ioctl, and closed before anything forks.
 */
struct balance {
	long long pins;			/* -1: unknown */
	long long mem_free[MAX_DEVS];	/* by acl device id, -1: unknown */
};

/* npu-soak.c */
double now(void);

/* soak_stream.c */
uint64_t splitmix(uint64_t *x);
uint64_t below(uint64_t *rng, uint64_t n);
void add(uint64_t *v, uint64_t n);
void *stream_main(void *arg);

/* soak_proc.c */
long vmlck_kb(pid_t pid);
int proc_main(int p, int gen);
void sum(struct counters *t);
uint64_t total(const uint64_t *v);
void report(const struct counters *t, double secs, const struct run *r);
void read_balance(struct balance *b);
bool check_balance(const struct balance *start);

#endif /* SOAK_H */
