// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-soak: minutes to hours of mixed copies through libacl, every byte
 * checked. On request, not in CI: `make soak SOAK_SECONDS=300`.
 *
 * PROCS processes (fork) each run STREAMS streams, one thread each, for
 * SECONDS seconds. A stream owns two device buffers and keeps a host
 * shadow of what they must hold. It works in batches: a few synchronous
 * calls while the stream is idle, then asynchronous ones queued back to
 * back (H2D, D2H and D2D, 1-D and 2-D, memsets; pinned and pageable
 * host memory; random sizes, offsets and pitches), then one
 * synchronisation. Every D2H result is compared byte for byte with the
 * shadow as it was when the copy was queued, together with the guard
 * bytes around it; every few batches and at the end both device buffers
 * are read back whole and compared, so every byte an H2D, D2D or memset
 * wrote is checked as well.
 *
 * With -k the parent also SIGKILLs a random process at random times,
 * while it has copies queued, and starts a fresh one in its place: the
 * driver's teardown of queued work runs under load. A stream's figures
 * reach the totals only at a full read-back, once every byte it moved is
 * checked, so a killed process's unfinished work is neither counted nor
 * lost. After the last process, the parent checks that the pinned pages
 * (/proc/vmstat) and each NPU's free device memory are back where they
 * were, and each process that exited checks its locked memory.
 *
 * All randomness comes from one seed, printed first: -S replays a run's
 * choices (timing, and so the number of batches, differs), the kill
 * schedule included. Exit status 0 when no byte was lost, no call failed
 * and everything balanced, 1 otherwise, 2 on bad usage.
 *
 * This file is the parent: options, spawning, the kill schedule, main.
 * A stream's work is in soak_stream.c, a process's side and the balance
 * checks in soak_proc.c, what they share in soak.h.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "npu_node.h"
#include "soak.h"

struct opts o = {
	.procs = 4, .streams = 4, .seconds = 60,
	.max_len = 256 << 10, .dev_size = 2 << 20, .batch = 16,
};

struct counters *shared;
double deadline;

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * Simulated NPUs, as acl device ids: libacl numbers the NPUs present in
 * the order of their index (without ASCEND_RT_VISIBLE_DEVICES), which
 * is npu_node_list()'s order; the backend is in each one's sysfs
 * directory.
 */
static int find_sim(void)
{
	struct npu_node nodes[MAX_DEVS];
	char path[600], buf[8];
	int i, n;
	FILE *f;

	n = npu_node_list("/sys", nodes, MAX_DEVS);
	for (i = 0; i < n && o.nr_devs < MAX_DEVS; i++) {
		snprintf(path, sizeof(path), "%.580s/backend", nodes[i].sysdir);
		f = fopen(path, "r");
		if (f && fgets(buf, sizeof(buf), f) && !strncmp(buf, "sim", 3))
			o.devs[o.nr_devs++] = i;
		if (f)
			fclose(f);
	}
	return o.nr_devs;
}

static int parse_devs(const char *arg)
{
	char *end;
	long v;

	o.nr_devs = 0;
	do {
		v = strtol(arg, &end, 0);
		if (end == arg || v < 0 || v >= MAX_DEVS || o.nr_devs == MAX_DEVS ||
		    (*end && *end != ','))
			return -1;
		o.devs[o.nr_devs++] = (int)v;
		arg = end + 1;
	} while (*end == ',');
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [OPTIONS]\n"
"\n"
"Run mixed copies through libacl on several streams of several processes\n"
"for a time, comparing every byte moved with what it must be: H2D, D2H,\n"
"D2D, 2-D copies and memsets, pinned and pageable host memory, sync and\n"
"async calls, random sizes and offsets from one printed seed. Prints\n"
"totals (copies, bytes moved, bytes verified, bytes lost, kills). A\n"
"stream's figures count once a full read-back has checked them: the\n"
"unfinished work of a killed process is neither counted nor lost. At the\n"
"end, pinned pages (/proc/vmstat nr_foll_pin_*) and each device's free\n"
"memory (GET_INFO) must be back to their start values, and each process's\n"
"VmLck after aclFinalize to its value before aclInit.\n"
"\n"
"Options:\n"
"  -t, --seconds N    how long to run (default %u)\n"
"  -p, --procs N      processes (default %d)\n"
"  -s, --streams N    streams per process, one thread each (default %d)\n"
"  -d, --devices L    acl device ids, comma separated, used round-robin\n"
"                     (default: every simulated NPU)\n"
"  -S, --seed X       seed of all random choices (default: from the clock)\n"
"  -m, --max-len N    largest copy in bytes (default %zu)\n"
"  -b, --dev-size N   bytes of each of a stream's two device buffers\n"
"                     (default %zu)\n"
"  -B, --batch N      operations between synchronisations (default %d)\n"
"  -k, --kill-every N SIGKILL a random process every N seconds on average\n"
"                     (uniform in 0..2N), while it has copies queued, and\n"
"                     start a fresh one in its place; 0: no kills (default)\n"
"  -v, --verbose      print the totals every 10 seconds\n"
"  -h, --help         this text\n"
"\n"
"Exit status: 0 if no byte was lost, no call failed and everything\n"
"balanced, 1 otherwise, 2 on a usage error.\n",
		o.seconds, o.procs, o.streams, o.max_len, o.dev_size, o.batch);
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && end != s && !*end && *s != '-';
}

static int parse_args(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seconds", required_argument, NULL, 't' },
		{ "procs", required_argument, NULL, 'p' },
		{ "streams", required_argument, NULL, 's' },
		{ "devices", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 'S' },
		{ "max-len", required_argument, NULL, 'm' },
		{ "dev-size", required_argument, NULL, 'b' },
		{ "batch", required_argument, NULL, 'B' },
		{ "kill-every", required_argument, NULL, 'k' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	bool seeded = false;
	uint64_t v;
	int c;

	while ((c = getopt_long(argc, argv, "t:p:s:d:S:m:b:B:k:vh", lo, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			exit(0);
		case 'v':
			o.verbose = true;
			continue;
		case 'd':
			if (parse_devs(optarg))
				goto bad;
			continue;
		case '?':
			usage(stderr);
			return -1;
		}
		if (!parse_u64(optarg, &v))
			goto bad;
		switch (c) {
		case 't':
			if (v > 7 * 86400)
				goto bad;
			o.seconds = (unsigned int)v;
			break;
		case 'p':
			if (!v || v > MAX_PROCS)
				goto bad;
			o.procs = (int)v;
			break;
		case 's':
			if (!v || v > 64)
				goto bad;
			o.streams = (int)v;
			break;
		case 'S':
			o.seed = v;
			seeded = true;
			break;
		case 'm':
			if (!v || v > (64 << 20))
				goto bad;
			o.max_len = v;
			break;
		case 'b':
			if (!v || v > (1ULL << 32))
				goto bad;
			o.dev_size = v;
			break;
		case 'B':
			if (!v || v > MAX_BATCH)
				goto bad;
			o.batch = (int)v;
			break;
		case 'k':
			if (v > 86400)
				goto bad;
			o.kill_every = (unsigned int)v;
			break;
		}
	}
	if (optind != argc) {
		fprintf(stderr, PROG ": unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (o.max_len > o.dev_size) {
		fprintf(stderr, PROG ": --max-len is larger than --dev-size\n");
		return -1;
	}
	if (!seeded) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		o.seed = (uint64_t)ts.tv_sec * 1000003ULL ^ (uint64_t)ts.tv_nsec;
	}
	return 0;
bad:
	fprintf(stderr, PROG ": invalid value for -%c: '%s'\n", c, optarg);
	return -1;
}

/*
 * The totals so far, with the pages pinned and the device memory in use
 * now: the balances checked at the end are seen to move.
 */
static void progress(struct counters *t, double secs, const struct run *r,
		     const struct balance *start)
{
	long long used = 0, locked = 0, kb;
	struct balance b;
	int i;

	sum(t);
	read_balance(&b);
	for (i = 0; i < MAX_DEVS; i++)
		used += start->mem_free[i] - b.mem_free[i];
	for (i = 0; i < o.procs; i++) {
		kb = r->pids[i] ? vmlck_kb(r->pids[i]) : 0;
		locked += kb > 0 ? kb : 0;
	}
	printf(PROG ": %.0f s: copies %" PRIu64 ", bytes moved %" PRIu64
	       ", verified %" PRIu64 ", lost %" PRIu64 ", errors %" PRIu64
	       ", kills %d; pinned pages %lld, device memory in use %lld,"
	       " VmLck %lld kB\n", secs, total(t->copies), total(t->bytes),
	       t->verified, t->lost, t->errors, r->kills, b.pins - start->pins,
	       used, locked);
	fflush(stdout);
}

/* Slot @p's process, generation r->gen[p]. */
static int spawn(struct run *r, int p)
{
	pid_t pid;
	int i;

	/* What a killed predecessor left must not pass for the new one's. */
	for (i = 0; i < o.streams; i++)
		__atomic_store_n(&shared[p * o.streams + i].queued, 0, __ATOMIC_RELAXED);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, PROG ": fork: %s\n", strerror(errno));
		return -1;
	}
	if (!pid)
		_exit(proc_main(p, r->gen[p]));
	r->pids[p] = pid;
	return 0;
}

/* Seconds until the next kill: uniform in (0, 2 * mean), from the seed. */
static double kill_interval(struct run *r)
{
	return (splitmix(&r->krng) >> 11) * 0x1p-53 * 2 * o.kill_every;
}

/* Has slot @p's process async copies queued that it has not waited for? */
static bool queued(int p)
{
	int i;

	for (i = 0; i < o.streams; i++) {
		if (__atomic_load_n(&shared[p * o.streams + i].queued, __ATOMIC_RELAXED))
			return true;
	}
	return false;
}

/*
 * The kill schedule: at each scheduled time a process slot is drawn from
 * the seed; its process is SIGKILLed as soon as it has copies queued
 * (checked at each turn of the parent's loop), so it dies mid-batch and
 * the driver tears down work in flight, even when the slot's process is
 * a replacement still setting up. Its replacement starts when it is
 * reaped. The next time is drawn once the kill is done.
 */
static void kill_turn(struct run *r)
{
	int p = r->victim;

	if (p < 0) {
		if (now() < r->next_kill)
			return;
		r->victim = (int)below(&r->krng, o.procs);
		r->next_kill += kill_interval(r);
		return;
	}
	if (r->killed[p] || !queued(p))
		return;		/* its replacement, or copies, to come */
	if (!r->pids[p] || kill(r->pids[p], SIGKILL)) {
		r->victim = -1;	/* it has ended by itself */
		return;
	}
	r->killed[p] = true;
	r->kills++;
	r->victim = -1;
	if (r->next_kill < now())
		r->next_kill = now();
	if (o.verbose)
		printf(PROG ": killed process %d.%d (pid %d)\n", p, r->gen[p],
		       (int)r->pids[p]);
}

/* A process ended: judge how, and replace it if the schedule killed it. */
static void reaped(struct run *r, pid_t pid, int status)
{
	int p;

	for (p = 0; p < o.procs && r->pids[p] != pid; p++)
		;
	if (p == o.procs)
		return;
	if (r->killed[p] && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
		r->killed[p] = false;
		r->gen[p]++;
		if (!spawn(r, p))
			return;
		r->bad_exits++;
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, PROG ": process %d.%d (pid %d): %s %d\n", p, r->gen[p],
			(int)pid, WIFEXITED(status) ? "exit status" : "killed by signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		r->bad_exits++;
	}
	r->killed[p] = false;
	r->pids[p] = 0;
	r->running--;
}

int main(int argc, char **argv)
{
	static struct run r;
	double start, next_print;
	struct balance bal;
	struct counters t;
	int p, status;
	size_t i;

	if (parse_args(argc, argv))
		return 2;
	if (!o.nr_devs && !find_sim()) {
		fprintf(stderr, PROG ": no simulated NPU (load npu_dma with nr_sim=N,"
			" or name devices with -d)\n");
		return 1;
	}
	printf(PROG ": seed 0x%016" PRIx64 ", %d processes x %d streams, %u s,"
	       " devices", o.seed, o.procs, o.streams, o.seconds);
	for (p = 0; p < o.nr_devs; p++)
		printf("%c%d", p ? ',' : ' ', o.devs[p]);
	printf(", copies up to %zu bytes, batches of %d, ", o.max_len, o.batch);
	if (o.kill_every)
		printf("a kill every %u s on average\n", o.kill_every);
	else
		printf("no kills\n");
	printf(PROG ": replay: " PROG " -S 0x%016" PRIx64 " -t %u -p %d -s %d -m %zu"
	       " -b %zu -B %d -k %u\n", o.seed, o.seconds, o.procs, o.streams,
	       o.max_len, o.dev_size, o.batch, o.kill_every);
	fflush(stdout);

	shared = mmap(NULL, sizeof(*shared) * o.procs * o.streams,
		      PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	read_balance(&bal);
	r.krng = o.seed ^ 0x6b696c6c;	/* "kill": apart from the streams' */
	r.victim = -1;
	start = now();
	deadline = start + o.seconds;
	r.next_kill = o.kill_every ? start + kill_interval(&r) : deadline + 1e9;
	for (p = 0; p < o.procs; p++) {
		if (spawn(&r, p))
			return 1;
		r.running++;
	}

	/* Wait; a process still running long after the deadline hangs. */
	next_print = start + 10;
	while (r.running) {
		pid_t pid = waitpid(-1, &status, WNOHANG);

		if (pid > 0) {
			reaped(&r, pid, status);
			continue;
		}
		if (o.kill_every && now() < deadline)
			kill_turn(&r);
		if (now() > deadline + 2.0 * SYNC_MS / 1000) {
			if (next_print < deadline + 1e9)
				fprintf(stderr, PROG ": %d processes hang; killing them\n",
					r.running);
			for (p = 0; p < o.procs; p++) {
				if (r.pids[p])
					kill(r.pids[p], SIGKILL);
			}
			next_print = deadline + 1e9;
		}
		if (o.verbose && now() >= next_print) {
			progress(&t, now() - start, &r, &bal);
			next_print += 10;
		}
		usleep(10 * 1000);
	}
	sum(&t);
	for (i = 0; i < (size_t)o.procs * o.streams; i++) {
		if (!shared[i].done)
			r.bad_exits++;
	}
	r.unbalanced = !check_balance(&bal);
	printf(PROG ": balance: VmLck after aclFinalize as before aclInit in each"
	       " process that exited: %s\n", t.locked ? "DIFFER" : "equal");
	report(&t, now() - start, &r);
	return t.lost || t.errors || r.bad_exits || r.unbalanced || t.locked ||
	       total(t.copies) == 0;
}
