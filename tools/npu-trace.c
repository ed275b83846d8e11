// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-trace: record the npu_dma tracepoints while a command runs and
 * write them as a Chrome/Perfetto trace (JSON) and an SVG timeline.
 *
 * Recording uses a tracefs instance of its own (instances/npu-trace.PID)
 * with the "mono" clock, so it leaves the global trace buffer alone and
 * two recordings can run at once. trace_pipe is read while the command
 * runs, so a long run does not overflow the ring buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "npu_attr.h"
#include "trace_out.h"

#define PROG "npu-trace"

struct opts {
	const char *out;	/* Chrome JSON */
	const char *svg;
	const char *raw;	/* the trace text as read */
	const char *input;	/* convert this text instead of recording */
	const char *tracefs;
	unsigned int buffer_kb;
	char **cmd;
};

/* Splits what is read into lines and feeds the model. */
struct feeder {
	struct tr_model *m;
	FILE *raw;
	char line[4096];
	size_t len;
	size_t bad;		/* npu_dma lines that did not parse */
	int err;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " [OPTIONS] -- CMD [ARGS...]\n"
		"       " PROG " [OPTIONS] -i TRACE.txt\n"
		"Record the npu_dma tracepoints while CMD runs (as root), then write a\n"
		"Chrome/Perfetto trace and optionally an SVG timeline. Exits with CMD's\n"
		"status; 1 when recording or writing failed, 2 on a usage error.\n\n"
		"  -o, --output FILE    Chrome trace JSON (default npu-trace.json; - for stdout)\n"
		"  -s, --svg FILE       SVG timeline as well\n"
		"  -r, --raw FILE       keep the tracefs text as recorded\n"
		"  -i, --input FILE     convert tracefs text (from -r, or tracefs \"trace\")\n"
		"                       instead of running a command\n"
		"  -b, --buffer-kb N    ring buffer per CPU in KiB (default 4096)\n"
		"  -t, --tracefs DIR    tracefs mount (default /sys/kernel/tracing)\n"
		"  -h, --help           this text\n\n"
		"Open the JSON in ui.perfetto.dev or chrome://tracing: one process per\n"
		"NPU, one track per queue and per DMA channel; copies are slices with\n"
		"size, direction, seq and status; pins are instants.\n");
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longs[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "svg", required_argument, NULL, 's' },
		{ "raw", required_argument, NULL, 'r' },
		{ "input", required_argument, NULL, 'i' },
		{ "buffer-kb", required_argument, NULL, 'b' },
		{ "tracefs", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	*o = (struct opts){ .out = "npu-trace.json", .buffer_kb = 4096,
			    .tracefs = "/sys/kernel/tracing" };
	while ((c = getopt_long(argc, argv, "+o:s:r:i:b:t:h", longs, NULL)) != -1) {
		switch (c) {
		case 'o': o->out = optarg; break;
		case 's': o->svg = optarg; break;
		case 'r': o->raw = optarg; break;
		case 'i': o->input = optarg; break;
		case 't': o->tracefs = optarg; break;
		case 'b':
			o->buffer_kb = strtoul(optarg, &end, 10);
			if (*end || !o->buffer_kb || o->buffer_kb > (1U << 20)) {
				fprintf(stderr, PROG ": bad --buffer-kb '%s'\n", optarg);
				return 2;
			}
			break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return 2;
		}
	}
	o->cmd = argv + optind;
	if (!o->input == !*o->cmd) {
		fprintf(stderr, PROG ": give either -- CMD or -i FILE\n");
		usage(stderr);
		return 2;
	}
	return 0;
}

static void feed_line(struct feeder *fd, const char *line)
{
	struct tr_event ev;
	int r;

	if (fd->raw)
		fprintf(fd->raw, "%s\n", line);
	r = tr_parse_line(line, &ev);
	if (r < 0)
		fd->bad++;
	else if (r > 0 && tr_model_add(fd->m, &ev))
		fd->err = -ENOMEM;
}

static void feed(struct feeder *fd, const char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] != '\n' && fd->len < sizeof(fd->line) - 1) {
			fd->line[fd->len++] = buf[i];
			continue;
		}
		if (buf[i] != '\n')
			continue;	/* an over-long line is cut */
		fd->line[fd->len] = '\0';
		feed_line(fd, fd->line);
		fd->len = 0;
	}
}

/* Read what is available; return 0 at EAGAIN/EOF, -errno on error. */
static int drain(int fd, struct feeder *f)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		feed(f, buf, (size_t)n);
	return n < 0 && errno != EAGAIN && errno != EINTR ? -errno : 0;
}

static int put(const char *dir, const char *file, const char *text)
{
	char path[512];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Lost events of the instance, summed over CPUs ("overrun:" lines). */
static unsigned long overruns(const char *inst)
{
	unsigned long total = 0, v;
	char path[512], line[128];
	int cpu;

	for (cpu = 0; cpu < 1024; cpu++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", inst, cpu);
		f = fopen(path, "r");
		if (!f)
			break;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "overrun: %lu", &v) == 1)
				total += v;
		fclose(f);
	}
	return total;
}

/* Run the command; feed the trace meanwhile. Return its wait status. */
static int run_cmd(char **cmd, int pipe_fd, struct feeder *f)
{
	struct pollfd p = { .fd = pipe_fd, .events = POLLIN };
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		execvp(cmd[0], cmd);
		fprintf(stderr, PROG ": cannot run %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	for (;;) {
		drain(pipe_fd, f);
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		poll(&p, 1, 100);
	}
}

static int setup_instance(const struct opts *o, const char *inst)
{
	char kb[32];
	int ret;

	if (mkdir(inst, 0700)) {
		ret = -errno;
		fprintf(stderr, PROG ": cannot create %s: %s (root and tracefs needed)\n",
			inst, strerror(-ret));
		return ret;
	}
	put(inst, "trace_clock", "mono");
	snprintf(kb, sizeof(kb), "%u", o->buffer_kb);
	put(inst, "buffer_size_kb", kb);
	ret = put(inst, "events/npu_dma/enable", "1");
	if (ret)
		fprintf(stderr, PROG ": cannot enable %s/events/npu_dma: %s (npu_dma loaded?)\n",
			inst, strerror(-ret));
	return ret;
}

static int record(const struct opts *o, struct feeder *f, int *status)
{
	char inst[400], path[512];
	unsigned long lost;
	int pipe_fd, ret;

	snprintf(inst, sizeof(inst), "%s/instances/npu-trace.%d", o->tracefs, (int)getpid());
	ret = setup_instance(o, inst);
	snprintf(path, sizeof(path), "%s/trace_pipe", inst);
	pipe_fd = ret ? -1 : open(path, O_RDONLY | O_NONBLOCK);
	if (!ret && pipe_fd < 0)
		ret = -errno;
	if (!ret) {
		signal(SIGINT, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
		*status = run_cmd(o->cmd, pipe_fd, f);
		put(inst, "events/npu_dma/enable", "0");
		drain(pipe_fd, f);
		if (*status < 0)
			ret = *status;
	}
	if (pipe_fd >= 0)
		close(pipe_fd);
	lost = overruns(inst);
	if (lost)
		fprintf(stderr, PROG ": %lu events lost: try a larger --buffer-kb\n", lost);
	rmdir(inst);
	return ret;
}

static int convert(const char *input, struct feeder *f)
{
	int fd = open(input, O_RDONLY), ret;

	if (fd < 0) {
		fprintf(stderr, PROG ": cannot open %s: %s\n", input, strerror(errno));
		return -errno;
	}
	ret = drain(fd, f);
	close(fd);
	if (f->len) {
		f->line[f->len] = '\0';
		feed_line(f, f->line);
		f->len = 0;
	}
	return ret;
}

/* Backend names of the NPUs present, by index (the tracepoints' npu). */
static void read_backends(struct tr_model *m)
{
	struct npu_node *nodes = calloc(TR_MAX_NPUS, sizeof(*nodes));
	int n, i;

	if (!nodes)
		return;
	n = npu_node_list("/sys", nodes, TR_MAX_NPUS);
	for (i = 0; i < n; i++)
		if (nodes[i].index < TR_MAX_NPUS)
			npu_attr_read(&nodes[i], "backend",
				      m->backend[nodes[i].index],
				      sizeof(m->backend[0]));
	free(nodes);
}

/* The command line as one string (for titles), malloc'ed. */
static char *join(char **argv, const char *input)
{
	size_t len = 1;
	char **a, *s;

	if (!*argv)
		return strdup(input);
	for (a = argv; *a; a++)
		len += strlen(*a) + 1;
	s = calloc(1, len);
	for (a = argv; s && *a; a++) {
		strcat(s, *a);
		if (a[1])
			strcat(s, " ");
	}
	return s;
}

static int write_out(const char *path, const struct tr_model *m, const char *cmd,
		     int (*writer)(FILE *, const struct tr_model *, const char *))
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	int ret;

	if (!f) {
		fprintf(stderr, PROG ": cannot write %s: %s\n", path, strerror(errno));
		return -errno;
	}
	ret = writer(f, m, cmd);
	if (f != stdout && fclose(f))
		ret = -errno;
	if (ret)
		fprintf(stderr, PROG ": writing %s failed: %s\n", path, strerror(-ret));
	return ret;
}

static int write_all(const struct opts *o, struct tr_model *m, const struct feeder *f)
{
	char *cmd = join(o->cmd, o->input);
	int ret = tr_model_finish(m);

	read_backends(m);
	if (!ret)
		ret = write_out(o->out, m, cmd, tr_write_chrome);
	if (!ret && o->svg)
		ret = write_out(o->svg, m, cmd, tr_write_svg);
	if (!ret)
		fprintf(stderr, PROG ": %zu events, %zu copies%s%s%s%s\n", m->nr_events,
			m->nr_slices, strcmp(o->out, "-") ? "; wrote " : "",
			strcmp(o->out, "-") ? o->out : "", o->svg ? ", " : "",
			o->svg ? o->svg : "");
	if (f->bad)
		fprintf(stderr, PROG ": %zu npu_dma lines did not parse\n", f->bad);
	free(cmd);
	return ret;
}

int main(int argc, char **argv)
{
	struct tr_model m;
	struct feeder f = { .m = &m };
	struct opts o;
	int ret, status = 0;

	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret;
	tr_model_init(&m);
	if (o.raw && !(f.raw = fopen(o.raw, "w"))) {
		fprintf(stderr, PROG ": cannot write %s: %s\n", o.raw, strerror(errno));
		return 1;
	}
	ret = o.input ? convert(o.input, &f) : record(&o, &f, &status);
	if (f.raw)
		fclose(f.raw);
	if (!ret && !f.err)
		ret = write_all(&o, &m, &f);
	tr_model_free(&m);
	if (ret || f.err)
		return 1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
