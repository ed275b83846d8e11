// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_load: a file -> device loader, the place issue 10 names for
 * liburing. A file is read in chunks into a ring of pinned buffers
 * (aclrtMallocHost) and each chunk is copied to device memory with
 * aclrtMemcpyAsync as soon as it is read; a buffer is read into again
 * once the event recorded after its copy has completed. Three readers
 * fill the same buffers:
 *
 *   pread   pread(2), one chunk at a time, in the loading thread;
 *   uring   io_uring (liburing), up to -q reads in flight, each chunk's
 *           copy queued as its read lands;
 *   fixed   the same with the buffers registered with the ring
 *           (IORING_OP_READ_FIXED: the kernel copies into their pages,
 *           not through their user addresses).
 *
 * Reported: uring and fixed against pread, medians of -n runs taking
 * turns, for each source: a file on tmpfs (/dev/shm: the page cache)
 * and, when $BENCH_OUT names a directory (make bench sets it to the 9p
 * share build/bench), a file there (every read a request to the host,
 * as from a device). Each source's device copy is checked against the
 * file. No target: the figures decide where io_uring is worth using
 * (Documentation/performance.md).
 *
 *   bench_load [-d dev] [-s MiB] [-c KiB] [-q depth] [-n runs] [-j]
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <liburing.h>
#include <stdint.h>
#include <sys/uio.h>
#include <unistd.h>

#include "bench_util.h"

#define MAX_DEPTH	16

struct loader {
	int fd;
	size_t size, chunk;
	unsigned int depth, nbuf;	/* nbuf = 2 * depth buffers */
	bool fixed;			/* this load: READ_FIXED */
	void *bufs[2 * MAX_DEPTH];
	aclrtEvent ev[2 * MAX_DEPTH];
	bool busy[2 * MAX_DEPTH];	/* a copy out of it may be running */
	void *dev;
	aclrtStream s;
	struct io_uring ring;
};

static size_t chunk_len(const struct loader *l, size_t c)
{
	size_t off = c * l->chunk;

	return l->size - off < l->chunk ? l->size - off : l->chunk;
}

/* Wait until no copy reads buffer @b any more. */
static void buf_free(struct loader *l, unsigned int b)
{
	if (l->busy[b])
		BENCH_ACL(aclrtSynchronizeEvent(l->ev[b]));
	l->busy[b] = false;
}

static void copy_chunk(struct loader *l, size_t c)
{
	unsigned int b = c % l->nbuf;
	size_t n = chunk_len(l, c);

	BENCH_ACL(aclrtMemcpyAsync((char *)l->dev + c * l->chunk, n, l->bufs[b],
				   n, ACL_MEMCPY_HOST_TO_DEVICE, l->s));
	BENCH_ACL(aclrtRecordEvent(l->ev[b], l->s));
	l->busy[b] = true;
}

static void die_read(ssize_t got, size_t want)
{
	fprintf(stderr, "bench_load: read %zd of %zu bytes: %s\n", got, want,
		got < 0 ? strerror((int)-got) : "short read");
	exit(1);
}

static void load_read(struct loader *l, size_t nchunks)
{
	size_t c;

	for (c = 0; c < nchunks; c++) {
		unsigned int b = c % l->nbuf;
		size_t n = chunk_len(l, c);
		ssize_t got;

		buf_free(l, b);
		got = pread(l->fd, l->bufs[b], n, (off_t)(c * l->chunk));
		if (got != (ssize_t)n)
			die_read(got < 0 ? -errno : got, n);
		copy_chunk(l, c);
	}
}

static void queue_read(struct loader *l, size_t c)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&l->ring);
	unsigned int b = c % l->nbuf;

	buf_free(l, b);
	if (l->fixed)
		io_uring_prep_read_fixed(sqe, l->fd, l->bufs[b], chunk_len(l, c),
					 c * l->chunk, (int)b);
	else
		io_uring_prep_read(sqe, l->fd, l->bufs[b], chunk_len(l, c),
				   c * l->chunk);
	io_uring_sqe_set_data(sqe, (void *)(uintptr_t)c);
}

/*
 * Keep up to depth reads in flight; a read that lands has its copy
 * queued at once. A chunk's buffer is taken only after the copy of the
 * chunk nbuf before it, so reads run ahead of the copies by up to
 * depth chunks without waiting on them.
 */
static void load_uring(struct loader *l, size_t nchunks)
{
	size_t next = 0, done = 0, inflight = 0;

	while (done < nchunks) {
		struct io_uring_cqe *cqe;
		unsigned int head, seen = 0;
		int ret;

		for (; inflight < l->depth && next < nchunks; inflight++)
			queue_read(l, next++);
		ret = io_uring_submit_and_wait(&l->ring, 1);
		if (ret < 0)
			die_read(ret, 0);
		io_uring_for_each_cqe(&l->ring, head, cqe) {
			size_t c = (uintptr_t)io_uring_cqe_get_data(cqe);

			if (cqe->res != (int)chunk_len(l, c))
				die_read(cqe->res, chunk_len(l, c));
			copy_chunk(l, c);
			seen++;
		}
		io_uring_cq_advance(&l->ring, seen);
		inflight -= seen;
		done += seen;
	}
}

/* Seconds to load the whole file, up to the end of the synchronize. */
enum reader { READ_PREAD, READ_URING, READ_FIXED, NR_READERS };

static double load(struct loader *l, enum reader how)
{
	size_t nchunks = (l->size + l->chunk - 1) / l->chunk;
	double t = bench_now();
	unsigned int b;

	l->fixed = how == READ_FIXED;
	if (how == READ_PREAD)
		load_read(l, nchunks);
	else
		load_uring(l, nchunks);
	BENCH_ACL(aclrtSynchronizeStream(l->s));
	for (b = 0; b < l->nbuf; b++)
		l->busy[b] = false;
	return bench_now() - t;
}

/* The device copy equals the file (read back in pieces of a buffer). */
static void verify(struct loader *l, const char *path)
{
	char *want = l->bufs[0], *got = l->bufs[1];
	size_t off, n;

	for (off = 0; off < l->size; off += n) {
		n = l->size - off < l->chunk ? l->size - off : l->chunk;
		if (pread(l->fd, want, n, (off_t)off) != (ssize_t)n)
			die_read(-errno, n);
		BENCH_ACL(aclrtMemcpy(got, n, (char *)l->dev + off, n,
				      ACL_MEMCPY_DEVICE_TO_HOST));
		if (memcmp(want, got, n)) {
			fprintf(stderr, "bench_load: %s: device copy differs "
				"at chunk offset %zu\n", path, off);
			exit(1);
		}
	}
}

/* A file of @size pseudo-random bytes at @path, written through buffer 0. */
static void make_file(struct loader *l, const char *path)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL, *w = l->bufs[0];
	size_t off, i, n;

	l->fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (l->fd < 0) {
		perror(path);
		exit(1);
	}
	for (off = 0; off < l->size; off += n) {
		n = l->size - off < l->chunk ? l->size - off : l->chunk;
		for (i = 0; i < n / 8; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			w[i] = x;
		}
		if (pwrite(l->fd, w, n, (off_t)off) != (ssize_t)n) {
			perror(path);
			exit(1);
		}
	}
	fsync(l->fd);
}

static void setup(struct loader *l, int dev)
{
	struct iovec iov[2 * MAX_DEPTH];
	unsigned int b;
	int ret;

	BENCH_ACL(aclrtSetDevice(dev));
	BENCH_ACL(aclrtCreateStream(&l->s));
	BENCH_ACL(aclrtMalloc(&l->dev, l->size, ACL_MEM_MALLOC_HUGE_FIRST));
	for (b = 0; b < l->nbuf; b++) {
		BENCH_ACL(aclrtMallocHost(&l->bufs[b], l->chunk));
		BENCH_ACL(aclrtCreateEvent(&l->ev[b]));
		iov[b].iov_base = l->bufs[b];
		iov[b].iov_len = l->chunk;
	}
	ret = io_uring_queue_init(l->depth, &l->ring, 0);
	if (!ret)
		ret = io_uring_register_buffers(&l->ring, iov, l->nbuf);
	if (ret) {
		fprintf(stderr, "bench_load: io_uring: %s\n", strerror(-ret));
		exit(1);
	}
}

static void teardown(struct loader *l)
{
	unsigned int b;

	io_uring_queue_exit(&l->ring);
	for (b = 0; b < l->nbuf; b++) {
		aclrtDestroyEvent(l->ev[b]);
		aclrtFreeHost(l->bufs[b]);
	}
	aclrtFree(l->dev);
	aclrtDestroyStream(l->s);
}

static void report(const struct loader *l, const char *what, const char *how,
		   double ours, double ref, bool json)
{
	char metric[128];

	snprintf(metric, sizeof(metric), "load %zu MiB from %s, %s x%u vs pread",
		 l->size >> 20, what, how, l->depth);
	if (json) {
		struct bench_result r = { "bench_load", metric, "GB/s", ours, ref,
					  ours / ref, NULL, 0 };

		bench_result_json(&r);
	} else {
		printf("%-52s  %.3f GB/s  pread %.3f GB/s  %.2fx\n", metric, ours,
		       ref, ours / ref);
	}
}

/*
 * The readers take turns, so a change of load hits them alike; each
 * one's first load of @dir's file is checked against the file.
 */
static void measure(struct loader *l, const char *dir, const char *what,
		    int runs, bool json)
{
	double t[NR_READERS][32], gbs[NR_READERS];
	char path[512];
	int i, r;

	snprintf(path, sizeof(path), "%s/bench_load.%d", dir, (int)getpid());
	make_file(l, path);
	for (i = 0; i < runs; i++) {
		for (r = 0; r < NR_READERS; r++) {
			t[r][i] = load(l, r);
			if (!i)
				verify(l, path);
		}
	}
	close(l->fd);
	unlink(path);
	for (r = 0; r < NR_READERS; r++)
		gbs[r] = l->size / bench_median(t[r], runs) / 1e9;
	report(l, what, "io_uring", gbs[READ_URING], gbs[READ_PREAD], json);
	report(l, what, "io_uring fixed", gbs[READ_FIXED], gbs[READ_PREAD], json);
}

static void usage(void)
{
	fprintf(stderr, "usage: bench_load [-d dev] [-s MiB] [-c KiB] [-q depth 1..%d] "
		"[-n runs 1..32] [-j]\n", MAX_DEPTH);
	exit(2);
}

int main(int argc, char **argv)
{
	struct loader l = { .size = 64 << 20, .chunk = 1 << 20, .depth = 4 };
	const char *out = getenv("BENCH_OUT");
	int opt, dev = -1, runs = 5;
	bool json = false;

	while ((opt = getopt(argc, argv, "d:s:c:q:n:j")) != -1) {
		switch (opt) {
		case 'd': dev = atoi(optarg); break;
		case 's': l.size = strtoull(optarg, NULL, 0) << 20; break;
		case 'c': l.chunk = strtoull(optarg, NULL, 0) << 10; break;
		case 'q': l.depth = (unsigned int)atoi(optarg); break;
		case 'n': runs = atoi(optarg); break;
		case 'j': json = true; break;
		default: usage();
		}
	}
	if (!l.size || !l.chunk || l.chunk % 4096 || l.depth < 1 ||
	    l.depth > MAX_DEPTH || runs < 1 || runs > 32 || optind != argc)
		usage();
	l.nbuf = 2 * l.depth;
	BENCH_ACL(aclInit(NULL));
	if (dev < 0)
		dev = bench_first_sim("bench_load");
	setup(&l, dev);
	measure(&l, "/dev/shm", "tmpfs", runs, json);
	if (out && *out)
		measure(&l, out, "9p", runs, json);
	teardown(&l);
	BENCH_ACL(aclrtResetDevice(dev));
	BENCH_ACL(aclFinalize());
	return 0;
}
