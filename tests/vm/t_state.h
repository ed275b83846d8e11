/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the reliability tests (t_fuzz, t_isolation, t_teardown). A leak
 * oracle: a snapshot of what the driver holds (pinned pages in
 * /proc/vmstat, every NPU's free device memory, queue count and client
 * list in sysfs) and of this process's open files, taken before and
 * compared after. Also: finding the NPUs, passing a file descriptor.
 */
#ifndef T_STATE_H
#define T_STATE_H

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_vm.h"

#define T_STATE_NPUS 8

struct t_state {
	int nr_npus;
	long pins;
	int fds;
	uint64_t mem_free[T_STATE_NPUS];
	char queues[T_STATE_NPUS][32];
	char clients[T_STATE_NPUS][256];
};

/* GET_INFO of NPU 0, 1, ... up to max: how many there are. */
static inline int t_find_npus(struct npu_dma_info *infos, int max)
{
	int n, fd;

	for (n = 0; n < max; n++) {
		fd = npu_raw_open(n);
		if (fd < 0)
			break;
		ck_assert_int_eq(npu_raw_info(fd, &infos[n]), 0);
		close(fd);
	}
	return n;
}

/* nr_foll_pin_acquired - nr_foll_pin_released, counters folded first. */
static inline long t_pins_held(void)
{
	char buf[16384], *p;
	long acq = -1, rel = -1;

	t_write_file("/proc/sys/vm/stat_refresh", "1");
	ck_assert_int_eq(t_read_file("/proc/vmstat", buf, sizeof(buf)), 0);
	p = strstr(buf, "nr_foll_pin_acquired ");
	if (p)
		sscanf(p, "nr_foll_pin_acquired %ld", &acq);
	p = strstr(buf, "nr_foll_pin_released ");
	if (p)
		sscanf(p, "nr_foll_pin_released %ld", &rel);
	ck_assert(acq >= 0 && rel >= 0);
	return acq - rel;
}

/*
 * The first NPU of @backend (NPU_DMA_BACKEND_*), or -1; without Check
 * assertions, so that a test's main() may call it before its suite.
 */
static inline int t_npu_of(uint32_t backend)
{
	struct npu_dma_info info;
	int i, fd, found = -1;

	for (i = 0; i < T_STATE_NPUS && found < 0; i++) {
		fd = npu_raw_open(i);
		if (fd < 0)
			break;
		if (!npu_raw_info(fd, &info) && info.backend == backend)
			found = i;
		close(fd);
	}
	return found;
}

static inline int t_count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* Snapshot of NPUs 0 .. nr_npus - 1. */
static inline void t_state_get(struct t_state *s, int nr_npus)
{
	struct npu_dma_info info;
	int i, fd;

	memset(s, 0, sizeof(*s));
	s->nr_npus = nr_npus;
	s->pins = t_pins_held();
	for (i = 0; i < nr_npus && i < T_STATE_NPUS; i++) {
		fd = npu_raw_open(i);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(npu_raw_info(fd, &info), 0);
		close(fd);
		s->mem_free[i] = info.mem_free;
		t_npu_attr(i, "queues", s->queues[i], sizeof(s->queues[i]));
		t_npu_attr(i, "clients", s->clients[i], sizeof(s->clients[i]));
	}
	s->fds = t_count_fds();
}

static inline int t_state_same(const struct t_state *a, const struct t_state *b)
{
	int i;

	if (a->pins != b->pins || a->fds != b->fds || a->nr_npus != b->nr_npus)
		return 0;
	for (i = 0; i < a->nr_npus && i < T_STATE_NPUS; i++)
		if (a->mem_free[i] != b->mem_free[i] ||
		    strcmp(a->queues[i], b->queues[i]) ||
		    strcmp(a->clients[i], b->clients[i]))
			return 0;
	return 1;
}

static inline void t_state_print(const struct t_state *a, const struct t_state *b)
{
	int i;

	printf("state: pins %ld -> %ld, fds %d -> %d\n", a->pins, b->pins, a->fds, b->fds);
	for (i = 0; i < a->nr_npus && i < T_STATE_NPUS; i++)
		printf("state: npu %d: mem_free %" PRIu64 " -> %" PRIu64
		       ", queues %s -> %s, clients '%s' -> '%s'\n", i,
		       a->mem_free[i], b->mem_free[i], a->queues[i], b->queues[i],
		       a->clients[i], b->clients[i]);
}

/*
 * Wait up to 10 s (the last reference of a killed process's files may
 * drop after it is reaped) for the state to come back to start; 1 if it
 * did, else print the difference and return 0.
 */
static inline int t_state_back(const struct t_state *start)
{
	struct timespec ts = { 0, 20 * 1000000L };
	struct t_state cur;
	int i;

	for (i = 0; i < 500; i++) {
		t_state_get(&cur, start->nr_npus);
		if (t_state_same(start, &cur))
			return 1;
		nanosleep(&ts, NULL);
	}
	t_state_print(start, &cur);
	return 0;
}

/* Pass fd over a UNIX socket (SCM_RIGHTS) with one byte: 0 or -errno. */
static inline int t_send_fd(int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	char byte = 'f';
	struct iovec iov = { &byte, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &m, 0) == 1 ? 0 : -errno;
}

/* Receive an fd sent by t_send_fd(): the fd, or -1. */
static inline int t_recv_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	char byte;
	struct iovec iov = { &byte, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &m, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&m);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* NPU 0 opens and is an edu card (found without Check): 1 or 0. */
static inline int t_npu0_is_edu(void)
{
	struct npu_dma_info info;
	int fd = npu_raw_open(0), edu;

	if (fd < 0)
		return 0;
	edu = !npu_raw_info(fd, &info) && info.backend == NPU_DMA_BACKEND_EDU;
	close(fd);
	return edu;
}

#endif /* T_STATE_H */
