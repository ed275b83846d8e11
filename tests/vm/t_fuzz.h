/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * t_fuzz's pieces that need nothing of its worker's state (t_fuzz_res.c):
 * the parent's side of a round and the resource oracles it checks after
 * each, the userfaultfd-backed buffer and the program an exec'd child
 * runs.
 */
#ifndef T_FUZZ_H
#define T_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The environment variable that makes main() the exec'd child. */
#define FZ_EXEC_ENV	"NPU_FUZZ_EXEC"

/* How a round's userfaultfd buffer has its faults served. */
enum fz_uffd_mode {
	FZ_UFFD_NONE,
	FZ_UFFD_SLOW,		/* every fault, some after up to 20 ms */
	FZ_UFFD_NEVER,		/* none: only the round's SIGKILL ends it */
};

/*
 * What the parent checks besides struct t_state: its own locked and
 * pinned memory (VmLck, VmPin in kB) and the driver's job objects in
 * use (-1 when the slab cannot be read alone).
 */
struct fz_res {
	long vm_lck, vm_pin;
	long jobs;
};

/* A round, as the parent waits for its worker. */
struct fz_round {
	uint64_t n, seed;
	int kill_ms;		/* SIGKILL the worker then, or -1 */
	int park;		/* a parked round: sample the pins */
	long unit;		/* pages of its largest unit of work */
	long pins;		/* held at the start */
};

/* The budgets of outstanding work: the defaults, or cut down. */
void fz_set_budgets(int tight);
void fz_check_npus_work(int nr_npus);
/*
 * The most pages a parked round may hold pinned over its start, its
 * largest unit of work being @unit pages.
 */
long fz_pin_bound(long unit);
/*
 * Wait for the worker of round @r, killing it when due and, in a
 * parked round, failing if more than fz_pin_bound() pages are pinned
 * (the most seen into *@peak). A worker that does not end within 60 s
 * hangs in the kernel. Return its wait status.
 */
int fz_wait_worker(pid_t pid, const struct fz_round *r, long *peak);

/* 1 if userfaultfd(2) works here; prints why not, once, if not. */
int fz_uffd_probe(void);
/*
 * Make [p, p + len) an empty mapping registered for missing faults and,
 * in FZ_UFFD_SLOW, start a thread serving them (counting into *faults).
 * Return 0, or -errno (the buffer is then plain memory).
 */
int fz_uffd_buffer(void *p, size_t len, enum fz_uffd_mode mode, uint64_t seed,
		   volatile uint64_t *faults);

void fz_res_get(struct fz_res *r);
/*
 * Wait up to 5 s (jobs retire and files are released in work items) for
 * the resources to be back at @start; 1 if they are, else print them
 * and return 0.
 */
int fz_res_back(const struct fz_res *start);
/* 1 if the job cache's objects can be counted (root, not merged). */
int fz_res_jobs_counted(void);

/* main() of the exec'd child, given FZ_EXEC_ENV's value: an exit status. */
int fz_exec_child(const char *arg);

#endif /* T_FUZZ_H */
