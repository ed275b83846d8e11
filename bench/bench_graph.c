// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_graph: per-task cost of replaying a captured graph
 * (aclmdlRIExecuteAsync) against submitting the same tasks live
 * (aclrtMemcpyAsync, one call each), in one guest run.
 *
 *   bench_graph [-n tasks] [-r rounds] [-b bytes] [-d device] [-j]
 *
 * The tasks are -b byte device-to-device copies (default 64 bytes, so
 * the copying itself costs little next to the submission). Each round
 * queues -n tasks (default 512) and synchronizes; "submit" is the time
 * spent in the queueing calls, "total" includes the synchronize. Median
 * of -r rounds (default 15). Default device: the first sim NPU. -j prints
 * result lines for scripts/bench.sh.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"

struct bench_cfg {
	int tasks, rounds, dev, json;
	size_t bytes;
};

/* Queue the round's tasks on @s: copies between slots of @src, @dst. */
static void bench_queue(const struct bench_cfg *c, uint8_t *dst,
			const uint8_t *src, aclrtStream s)
{
	int i;

	for (i = 0; i < c->tasks; i++)
		BENCH_ACL(aclrtMemcpyAsync(dst + i * c->bytes, c->bytes,
					   src + i * c->bytes, c->bytes,
					   ACL_MEMCPY_DEVICE_TO_DEVICE, s));
}

/* One round: live (@ri NULL) or a replay; submit and total seconds. */
static void bench_round(const struct bench_cfg *c, aclmdlRI ri, uint8_t *dst,
			const uint8_t *src, aclrtStream s, double *sub,
			double *tot)
{
	double t0 = bench_now(), t1;

	if (ri)
		BENCH_ACL(aclmdlRIExecuteAsync(ri, s));
	else
		bench_queue(c, dst, src, s);
	t1 = bench_now();
	BENCH_ACL(aclrtSynchronizeStream(s));
	*sub = t1 - t0;
	*tot = bench_now() - t0;
}

/* -j: per-task microseconds, live against replay (target: submit). */
static void bench_report(const struct bench_cfg *c, double live_sub,
			 double rep_sub, double live_tot, double rep_tot)
{
	char metric[96];
	struct bench_result r = {
		.bench = "bench_graph", .metric = metric, .unit = "us/task",
		.ours = rep_sub, .ref = live_sub, .ratio = live_sub / rep_sub,
		.op = ">=", .target = 5,
	};

	snprintf(metric, sizeof(metric),
		 "graph submit per task, %d x %zu B, live/replay", c->tasks,
		 c->bytes);
	bench_result_json(&r);
	snprintf(metric, sizeof(metric),
		 "graph total per task, %d x %zu B, live/replay", c->tasks,
		 c->bytes);
	r = (struct bench_result){
		.bench = "bench_graph", .metric = metric, .unit = "us/task",
		.ours = rep_tot, .ref = live_tot, .ratio = live_tot / rep_tot,
	};
	bench_result_json(&r);
}

static void bench_table(const struct bench_cfg *c, double live_sub,
			double rep_sub, double live_tot, double rep_tot)
{
	printf("device  tasks  bytes   path     submit/task   total/task\n");
	printf("npu%-4d %5d  %5zu   live   %9.2f us %9.2f us\n", c->dev,
	       c->tasks, c->bytes, live_sub, live_tot);
	printf("npu%-4d %5d  %5zu   replay %9.2f us %9.2f us\n", c->dev,
	       c->tasks, c->bytes, rep_sub, rep_tot);
	printf("ratio live/replay: submit %.1fx, total %.1fx (target >= 5x "
	       "submit) %s\n", live_sub / rep_sub, live_tot / rep_tot,
	       live_sub / rep_sub >= 5 ? "ok" : "MISSED");
}

static void bench_run(const struct bench_cfg *c)
{
	double ls[c->rounds], lt[c->rounds], rs[c->rounds], rt[c->rounds];
	double live_sub, live_tot, rep_sub, rep_tot;
	uint8_t *src, *dst;
	aclrtStream s;
	aclmdlRI ri;
	int i;

	BENCH_ACL(aclrtSetDevice(c->dev));
	BENCH_ACL(aclrtCreateStream(&s));
	BENCH_ACL(aclrtMalloc((void **)&src, c->tasks * c->bytes, 0));
	BENCH_ACL(aclrtMalloc((void **)&dst, c->tasks * c->bytes, 0));
	BENCH_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	bench_queue(c, dst, src, s);
	BENCH_ACL(aclmdlRICaptureEnd(s, &ri));
	bench_round(c, NULL, dst, src, s, &ls[0], &lt[0]);	/* warm up */
	bench_round(c, ri, dst, src, s, &rs[0], &rt[0]);
	for (i = 0; i < c->rounds; i++) {
		bench_round(c, NULL, dst, src, s, &ls[i], &lt[i]);
		bench_round(c, ri, dst, src, s, &rs[i], &rt[i]);
	}
	live_sub = bench_median(ls, c->rounds) / c->tasks * 1e6;
	live_tot = bench_median(lt, c->rounds) / c->tasks * 1e6;
	rep_sub = bench_median(rs, c->rounds) / c->tasks * 1e6;
	rep_tot = bench_median(rt, c->rounds) / c->tasks * 1e6;
	if (c->json)
		bench_report(c, live_sub, rep_sub, live_tot, rep_tot);
	else
		bench_table(c, live_sub, rep_sub, live_tot, rep_tot);
	BENCH_ACL(aclmdlRIDestroy(ri));
	BENCH_ACL(aclrtFree(src));
	BENCH_ACL(aclrtFree(dst));
	BENCH_ACL(aclrtDestroyStream(s));
	BENCH_ACL(aclrtResetDevice(c->dev));
}

int main(int argc, char **argv)
{
	struct bench_cfg c = { .tasks = 512, .rounds = 15, .dev = -1,
			       .bytes = 64 };
	int opt;

	while ((opt = getopt(argc, argv, "n:r:b:d:j")) != -1) {
		switch (opt) {
		case 'n': c.tasks = atoi(optarg); break;
		case 'r': c.rounds = atoi(optarg); break;
		case 'b': c.bytes = (size_t)atol(optarg); break;
		case 'd': c.dev = atoi(optarg); break;
		case 'j': c.json = 1; break;
		default:
			fprintf(stderr, "usage: bench_graph [-n tasks] [-r rounds] "
				"[-b bytes] [-d device] [-j]\n");
			return 2;
		}
	}
	if (c.tasks < 1 || c.rounds < 1 || !c.bytes) {
		fprintf(stderr, "bench_graph: -n, -r and -b must be positive\n");
		return 2;
	}
	BENCH_ACL(aclInit(NULL));
	if (c.dev < 0)
		c.dev = bench_first_sim("bench_graph");
	bench_run(&c);
	BENCH_ACL(aclFinalize());
	return 0;
}
