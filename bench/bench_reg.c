// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_reg: cost of registering host memory (aclrtHostRegisterV2)
 * against pin_user_pages_fast() alone for the same range, both taken
 * from the driver's own counters in debugfs (npu_dma/npu_dmaN/counters,
 * N the NPU's index:
 * register_ns, the whole HOST_REGISTER ioctl; register_pin_ns, its
 * pin_user_pages_fast() calls), in one run. Target (issue 10): the
 * registration costs at most 2x the pin.
 *
 * The range is anonymous memory in 4 KiB pages (MADV_NOHUGEPAGE), faulted
 * in before the first registration, registered and unregistered -n
 * times on the first sim NPU, then, for comparison and without target,
 * on the first edu NPU, whose pages are also DMA-mapped (or only on -d).
 * The counters are read around each registration; the medians of the
 * rounds are reported, and as the ratio the median of each
 * registration's own ioctl / pin (both timed in the same call, so this
 * pairs them under a changing load).
 *
 *   bench_reg [-d dev] [-s MiB] [-n rounds] [-j]
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <unistd.h>

#include "bench_util.h"

#define DEBUGFS		"/sys/kernel/debug"

struct reg_counters {
	long long calls, ns, pin_calls, pin_ns;
};

/*
 * The NPU index of libacl's device @dev, which names its debugfs
 * directory; looked up once per device, not between the rounds.
 */
static int npu_index_of(int dev)
{
	static int last_dev = -1, last_index;
	struct npu_node n;

	if (dev == last_dev)
		return last_index;
	if (bench_npu(dev, &n)) {
		fprintf(stderr, "bench_reg: no NPU for device %d\n", dev);
		exit(1);
	}
	last_dev = dev;
	last_index = n.index;
	return n.index;
}

static FILE *open_counters(int dev)
{
	char path[96];
	FILE *f;

	snprintf(path, sizeof(path), DEBUGFS "/npu_dma/npu_dma%d/counters",
		 npu_index_of(dev));
	f = fopen(path, "r");
	if (!f && errno == ENOENT &&
	    !mount("debugfs", DEBUGFS, "debugfs", 0, NULL))
		f = fopen(path, "r");
	if (!f) {
		perror(path);
		exit(1);
	}
	return f;
}

static void read_counters(int dev, struct reg_counters *c)
{
	FILE *f = open_counters(dev);
	bool found = false;
	char name[32];
	long long v;

	memset(c, 0, sizeof(*c));
	while (fscanf(f, "%31s %lld", name, &v) == 2) {
		if (!strcmp(name, "register_calls"))
			found = true, c->calls = v;
		else if (!strcmp(name, "register_ns"))
			c->ns = v;
		else if (!strcmp(name, "register_pin_calls"))
			c->pin_calls = v;
		else if (!strcmp(name, "register_pin_ns"))
			c->pin_ns = v;
	}
	fclose(f);
	if (!found) {
		fprintf(stderr, "bench_reg: npu_dma%d/counters has no register_* "
			"lines (module too old?)\n", npu_index_of(dev));
		exit(1);
	}
}

/* @len bytes of faulted anonymous memory in 4 KiB pages. */
static void *small_pages(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	if (madvise(p, len, MADV_NOHUGEPAGE))
		perror("madvise(MADV_NOHUGEPAGE)");
	memset(p, 0x5a, len);
	return p;
}

/* Milliseconds per registration, and the median of ioctl / pin. */
struct reg_times {
	double user, ioctl, pin, ratio;
};

/*
 * Register and unregister @p @rounds times, reading the counters around
 * each registration: medians of the user-side, ioctl and pin times.
 */
static void register_rounds(int dev, void *p, size_t len, int rounds,
			    struct reg_times *t)
{
	double user[64], ioctl[64], pin[64], ratio[64];
	struct reg_counters a, b;
	int i;

	for (i = 0; i < rounds; i++) {
		double t0;

		read_counters(dev, &a);
		t0 = bench_now();
		BENCH_ACL(aclrtHostRegisterV2(p, len, ACL_HOST_REG_MAPPED));
		user[i] = (bench_now() - t0) * 1e3;
		read_counters(dev, &b);
		BENCH_ACL(aclrtHostUnregister(p));
		if (b.calls - a.calls != 1 || b.pin_calls - a.pin_calls != 1) {
			fprintf(stderr, "bench_reg: %lld ioctls counted for one "
				"registration\n", b.calls - a.calls);
			exit(1);
		}
		ioctl[i] = (b.ns - a.ns) / 1e6;
		pin[i] = (b.pin_ns - a.pin_ns) / 1e6;
		ratio[i] = ioctl[i] / pin[i];
	}
	t->user = bench_median(user, rounds);
	t->ioctl = bench_median(ioctl, rounds);
	t->pin = bench_median(pin, rounds);
	t->ratio = bench_median(ratio, rounds);
}

struct reg_opts {
	int dev, rounds, json;
	size_t len;
};

static void report_table(const struct reg_opts *o, int dev, bool target,
			 const struct reg_times *t)
{
	printf("npu%-4d %10zu %6d %10.3f %10.3f %10.3f %6.2fx  %s\n", dev,
	       o->len, o->rounds, t->user, t->ioctl, t->pin, t->ratio,
	       !target ? "-" : t->ratio <= 2 ? "<=2 ok" : "<=2 MISS");
}

/*
 * -j: the target row, then the library's share, or (@target false) the
 * row of an NPU that needs DMA mapping, for context.
 */
static void report_json(const struct reg_opts *o, int dev, bool target,
			const struct reg_times *t)
{
	struct bench_result r = {
		.bench = "bench_reg", .unit = "ms", .op = target ? "<=" : NULL,
		.target = 2, .ours = t->ioctl, .ref = t->pin, .ratio = t->ratio,
	};
	char metric[80];

	snprintf(metric, sizeof(metric),
		 "HostRegisterV2 %zu MiB vs pin_user_pages_fast, %s", o->len >> 20,
		 bench_backend_is(dev, "edu") ? "edu" : "sim");
	r.metric = metric;
	bench_result_json(&r);
	if (!target)
		return;
	r = (struct bench_result){
		.bench = "bench_reg", .unit = "ms",
		.metric = "HostRegisterV2 in user space vs its ioctl",
		.ours = t->user, .ref = t->ioctl, .ratio = t->user / t->ioctl,
	};
	bench_result_json(&r);
}

/* One NPU: a warm-up registration (page tables, slabs), then the rounds. */
static void run(const struct reg_opts *o, int dev, void *p, bool target)
{
	struct reg_times t;

	BENCH_ACL(aclrtSetDevice(dev));
	register_rounds(dev, p, o->len, 1, &t);
	register_rounds(dev, p, o->len, o->rounds, &t);
	BENCH_ACL(aclrtResetDevice(dev));
	if (o->json)
		report_json(o, dev, target, &t);
	else
		report_table(o, dev, target, &t);
}

static void usage(int status)
{
	printf("usage: bench_reg [-d dev] [-s MiB] [-n rounds] [-j]\n"
	       "  aclrtHostRegisterV2 of faulted 4 KiB-page memory against\n"
	       "  pin_user_pages_fast() alone, from the driver's debugfs counters\n"
	       "  (default: 64 MiB, 10 rounds, on the first sim NPU, then for\n"
	       "  comparison on the first edu NPU). -j prints JSON.\n");
	exit(status);
}

int main(int argc, char **argv)
{
	struct reg_opts o = { .dev = -1, .rounds = 10, .len = 64 << 20 };
	int c, edu = -1;
	void *p;

	while ((c = getopt(argc, argv, "d:s:n:jh")) != -1) {
		if (c == 'd')
			o.dev = atoi(optarg);
		else if (c == 's')
			o.len = (size_t)atol(optarg) << 20;
		else if (c == 'n')
			o.rounds = atoi(optarg);
		else if (c == 'j')
			o.json = 1;
		else
			usage(c == 'h' ? 0 : 2);
	}
	if (!o.len || o.rounds < 1 || o.rounds > 64)
		usage(2);
	if (o.dev < 0) {
		o.dev = bench_first_sim("bench_reg");
		edu = bench_first_backend("edu");
	}
	BENCH_ACL(aclInit(NULL));
	p = small_pages(o.len);
	if (!o.json)
		printf("%-7s %10s %6s %10s %10s %10s %7s  %s\n", "device",
		       "bytes", "rounds", "user_ms", "ioctl_ms", "pin_ms",
		       "ratio", "target");
	run(&o, o.dev, p, true);
	if (edu >= 0)
		run(&o, edu, p, false);
	munmap(p, o.len);
	BENCH_ACL(aclFinalize());
	return 0;
}
