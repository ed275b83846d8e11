// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: CANN's IPC memory through libacl (aclrtIpcMem*), between real
 * processes, on edu and sim NPUs.
 *
 * - fork+exec: the importer is this program run again (--import), given
 *   the key on its command line, after the exporter put its pid on the
 *   key's list; it reads the exporter's bytes and writes its own.
 * - Unrelated processes started apart: an exporter daemon (double fork,
 *   so not our child) and this process find each other through FIFOs;
 *   likewise, on edu and sim, an IPC event both record and a notify, with
 *   the producer exec'd by us or started apart.
 * - A process not on the list gets ACL_ERROR_RT_NO_PERMISSION.
 * - Double import returns the same pointer, closed twice; the exporter
 *   dying leaves the import working; 2-D copies, memset and a peer copy
 *   through an imported pointer; every bad argument's error and message.
 * Every test ends with pins, memory, queues and files as they began.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_acl.h"
#include "t_apart.h"
#include "t_state.h"

#define SIM_LEN	(64 * 1024)
#define EDU_LEN	4096		/* an edu DMA is slow: one page */
#define KEY_LEN	65

static struct t_state start;

static void setup(void)
{
	struct npu_dma_info infos[8];

	t_state_get(&start, t_find_npus(infos, 8));
	T_ACL_OK(aclInit(NULL));
}

static void teardown(void)
{
	uint32_t n = 0, i;

	aclrtGetDeviceCount(&n);
	for (i = 0; i < n; i++)
		aclrtResetDevice((int32_t)i);
	T_ACL_OK(aclFinalize());
	ck_assert_msg(t_state_back(&start), "pins, memory, queues or files leaked");
}

static void pattern(unsigned char *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 29 + seed + (i >> 10));
}

/* @len bytes of seed @seed at device pointer @dev: 1 if so. */
static int holds(void *dev, size_t len, unsigned int seed)
{
	unsigned char *want = malloc(len), *got = malloc(len);
	int ok;

	pattern(want, len, seed);
	ok = !aclrtMemcpy(got, len, dev, len, ACL_MEMCPY_DEVICE_TO_HOST) &&
	     !memcmp(want, got, len);
	free(want);
	free(got);
	return ok;
}

static int put(void *dev, size_t len, unsigned int seed)
{
	unsigned char *p = malloc(len);
	int ret;

	pattern(p, len, seed);
	ret = aclrtMemcpy(dev, len, p, len, ACL_MEMCPY_HOST_TO_DEVICE);
	free(p);
	return ret;
}

/*
 * The device of loop index @i's backend (0 edu, 1 sim), not yet set:
 * children that use the runtime are forked before the parent opens a
 * device (a forked child does not share its parent's device files).
 * Its length, or 0 (skipped).
 */
static size_t backend(int i, int *dev)
{
	*dev = t_acl_find(i ? "sim" : "edu");
	if (*dev < 0) {
		t_skip("no %s NPU", i ? "sim" : "edu");
		return 0;
	}
	return i ? SIM_LEN : EDU_LEN;
}

/* The importer's side, in any process: an exit status, 0 if all held. */
static int importer(int dev, const char *key, size_t len, unsigned int seed)
{
	void *p = NULL, *q = NULL;

	if (aclInit(NULL) || aclrtSetDevice(dev))
		return 20;
	if (aclrtIpcMemImportByKey(&p, key, ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT))
		return 21;
	if (!holds(p, len, seed) || put(p, len, seed + 1))
		return 22;
	/* A second import is the same memory at the same pointer. */
	if (aclrtIpcMemImportByKey(&q, key, 0) || q != p)
		return 23;
	if (aclrtIpcMemClose(key) || !holds(p, len, seed + 1))
		return 24;
	if (aclrtIpcMemClose(key) || aclrtIpcMemClose(key) != ACL_ERROR_INVALID_PARAM)
		return 25;
	/* The pointer is gone with the last close. */
	if (holds(p, len, seed + 1))
		return 26;
	aclrtResetDevice(dev);
	return aclFinalize() ? 27 : 0;
}

static void exec_importer(int dev, const char *key, size_t len, int go)
{
	char d[16], l[32];
	char c;

	if (read(go, &c, 1) != 1)
		_exit(9);
	snprintf(d, sizeof(d), "%d", dev);
	snprintf(l, sizeof(l), "%zu", len);
	execl("/proc/self/exe", "t_acl_ipc", "--import", d, key, l, (char *)NULL);
	_exit(8);
}

/* fork+exec, the importer on the key's list. */
START_TEST(test_fork_exec)
{
	char key[KEY_LEN] = "";
	int dev, p[2];
	int32_t pid32;
	void *mem = NULL;
	size_t len = backend(_i, &dev);
	pid_t pid;

	if (!len)
		return;
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtMalloc(&mem, len, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(put(mem, len, 3));
	T_ACL_OK(aclrtIpcMemGetExportKey(mem, len, key, sizeof(key),
					 ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT));
	ck_assert_int_gt(strlen(key), 0);
	ck_assert_int_lt(strlen(key), 64);
	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		exec_importer(dev, key, len, p[0]);
	close(p[0]);
	pid32 = pid;
	T_ACL_OK(aclrtIpcMemSetImportPid(key, &pid32, 1));
	ck_assert_int_eq(write(p[1], "g", 1), 1);
	close(p[1]);
	ck_assert_int_eq(t_apart_wait(pid), 0);
	ck_assert(holds(mem, len, 4));
	T_ACL_OK(aclrtIpcMemClose(key));
	T_ACL_OK(aclrtFree(mem));
}
END_TEST

/* A forked child not on the list: no permission, no memory. */
START_TEST(test_not_on_list)
{
	char key[KEY_LEN];
	int dev, p[2];
	void *mem = NULL, *q = NULL;
	size_t len = backend(_i, &dev);
	pid_t pid;

	if (!len)
		return;
	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		int32_t me = 0;
		aclError r;

		close(p[1]);
		if (read(p[0], key, sizeof(key)) != sizeof(key) ||
		    aclrtSetDevice(dev) || aclrtDeviceGetBareTgid(&me) ||
		    me != getpid())
			_exit(2);
		r = aclrtIpcMemImportByKey(&q, key, 0);
		_exit(r == ACL_ERROR_RT_NO_PERMISSION && !q &&
		      strstr(aclGetRecentErrMsg(), "import list") ? 0 : 1);
	}
	close(p[0]);
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtMalloc(&mem, len, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtIpcMemGetExportKey(mem, len, key, sizeof(key), 0));
	ck_assert_int_eq(write(p[1], key, sizeof(key)), sizeof(key));
	close(p[1]);
	ck_assert_int_eq(t_apart_wait(pid), 0);
	/* The exporter itself is not on it either. */
	T_ACL_EQ(aclrtIpcMemImportByKey(&q, key, 0), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("exported by this process");
	T_ACL_OK(aclrtIpcMemClose(key));
	T_ACL_OK(aclrtFree(mem));
}
END_TEST

/* Two FIFOs in a directory of their own, between us and a daemon. */
struct fifos {
	char dir[24];
	char to_imp[64];
	char to_exp[64];
	int in, out;
};

static void fifos_make(struct fifos *f)
{
	snprintf(f->dir, sizeof(f->dir), "/tmp/t_acl_ipcXXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(f->dir));
	snprintf(f->to_imp, sizeof(f->to_imp), "%s/to_imp", f->dir);
	snprintf(f->to_exp, sizeof(f->to_exp), "%s/to_exp", f->dir);
	ck_assert_int_eq(mkfifo(f->to_imp, 0600), 0);
	ck_assert_int_eq(mkfifo(f->to_exp, 0600), 0);
}

/* Our ends, opened once the daemon opens its own; it learns our pid. */
static void fifos_open(struct fifos *f)
{
	int32_t me;

	f->out = open(f->to_exp, O_WRONLY);
	f->in = open(f->to_imp, O_RDONLY);
	ck_assert_int_ge(f->out, 0);
	ck_assert_int_ge(f->in, 0);
	T_ACL_OK(aclrtDeviceGetBareTgid(&me));
	ck_assert_int_eq(write(f->out, &me, sizeof(me)), sizeof(me));
}

static void fifos_remove(struct fifos *f)
{
	close(f->in);
	close(f->out);
	unlink(f->to_imp);
	unlink(f->to_exp);
	rmdir(f->dir);
}

/*
 * Unrelated processes: a daemon (our grandchild, reparented) exports
 * and learns the importer's pid through one FIFO, sends the key through
 * another, then waits to be told it may go.
 */
static void daemon_exporter(int dev, size_t len, const char *to_imp,
			    const char *to_exp)
{
	char key[KEY_LEN];
	int32_t pid;
	void *mem = NULL;
	int in, out;
	char c;

	if (fork())
		_exit(0);	/* the middle process: our child exits at once */
	in = open(to_exp, O_RDONLY);
	out = open(to_imp, O_WRONLY);
	/* The runtime our parent initialized stays initialized. */
	if (in < 0 || out < 0 || aclrtSetDevice(dev) ||
	    aclrtMalloc(&mem, len, ACL_MEM_MALLOC_HUGE_FIRST) || put(mem, len, 11) ||
	    aclrtIpcMemGetExportKey(mem, len, key, sizeof(key), 0) ||
	    read(in, &pid, sizeof(pid)) != sizeof(pid) ||
	    aclrtIpcMemSetImportPid(key, &pid, 1) ||
	    write(out, key, sizeof(key)) != sizeof(key))
		_exit(1);
	/* Until the importer is done; then free first, close after. */
	if (read(in, &c, 1) != 1 || !holds(mem, len, 12) || aclrtFree(mem) ||
	    aclrtIpcMemClose(key) || write(out, "d", 1) != 1)
		_exit(1);
	aclrtResetDevice(dev);
	aclFinalize();
	_exit(0);
}

START_TEST(test_unrelated_processes)
{
	char key[KEY_LEN];
	struct fifos f;
	int dev, in, out;
	void *p = NULL;
	size_t len = backend(_i, &dev);
	pid_t mid;
	char c;

	if (!len)
		return;
	fifos_make(&f);
	mid = fork();
	ck_assert_int_ge(mid, 0);
	if (!mid)
		daemon_exporter(dev, len, f.to_imp, f.to_exp);
	ck_assert_int_eq(t_apart_wait(mid), 0);
	T_ACL_OK(aclrtSetDevice(dev));
	fifos_open(&f);
	in = f.in;
	out = f.out;
	ck_assert_int_eq(read(in, key, sizeof(key)), sizeof(key));
	T_ACL_OK(aclrtIpcMemImportByKey(&p, key, 0));
	ck_assert(holds(p, len, 11));
	T_ACL_OK(put(p, len, 12));
	ck_assert_int_eq(write(out, "g", 1), 1);
	/* The exporter freed its memory and closed its key: ours stays. */
	ck_assert_int_eq(read(in, &c, 1), 1);
	ck_assert(holds(p, len, 12));
	T_ACL_OK(aclrtIpcMemClose(key));
	fifos_remove(&f);
}
END_TEST

/* The exporter is killed while the importer uses the memory. */
START_TEST(test_exporter_killed)
{
	char key[KEY_LEN];
	int dev, p[2];
	void *mem = NULL;
	size_t len = backend(_i, &dev);
	pid_t pid;

	if (!len)
		return;
	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		void *m = NULL;

		if (aclrtSetDevice(dev) || aclrtMalloc(&m, len, ACL_MEM_MALLOC_HUGE_FIRST) || put(m, len, 31) ||
		    aclrtIpcMemGetExportKey(m, len, key, sizeof(key),
					    ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION) ||
		    write(p[1], key, sizeof(key)) != sizeof(key))
			_exit(1);
		pause();
		_exit(2);
	}
	close(p[1]);
	ck_assert_int_eq(read(p[0], key, sizeof(key)), sizeof(key));
	close(p[0]);
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtIpcMemImportByKey(&mem, key, 0));
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
	ck_assert(holds(mem, len, 31));
	T_ACL_OK(put(mem, len, 32));
	ck_assert(holds(mem, len, 32));
	T_ACL_OK(aclrtIpcMemClose(key));
	/* Nobody can import it now. */
	T_ACL_EQ(aclrtIpcMemImportByKey(&mem, key, 0), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("names no shared memory");
}
END_TEST

/*
 * Copies of every kind through an imported pointer, on sim NPUs: 2-D,
 * memset, async, and a peer copy run by another NPU of the importer.
 */
START_TEST(test_copies_through_import)
{
	int a = t_acl_find("sim"), b = -1, can = 0;
	char key[KEY_LEN];
	unsigned char *h = malloc(SIM_LEN), *w = malloc(SIM_LEN);
	void *mem = NULL, *imp = NULL, *local = NULL;
	aclrtStream s;
	pid_t pid;
	int p[2];

	T_SKIP_UNLESS(a >= 0, "no sim NPU");
	if (a + 1 < 8 && !aclrtDeviceCanAccessPeer(&can, a + 1, a) && can)
		b = a + 1;
	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		if (aclrtSetDevice(a) ||
		    aclrtMalloc(&mem, SIM_LEN, ACL_MEM_MALLOC_HUGE_FIRST_P2P) ||
		    put(mem, SIM_LEN, 41) ||
		    aclrtIpcMemGetExportKey(mem, SIM_LEN, key, sizeof(key), 1) ||
		    write(p[1], key, sizeof(key)) != sizeof(key))
			_exit(1);
		pause();
		_exit(2);
	}
	close(p[1]);
	ck_assert_int_eq(read(p[0], key, sizeof(key)), sizeof(key));
	close(p[0]);
	T_ACL_OK(aclrtSetDevice(a));
	T_ACL_OK(aclrtIpcMemImportByKey(&imp, key, 0));
	T_ACL_OK(aclrtCreateStream(&s));
	/* 2-D: every other 256-byte row of the import into host memory. */
	memset(h, 0, SIM_LEN);
	T_ACL_OK(aclrtMemcpy2d(h, 256, imp, 512, 256, SIM_LEN / 512,
			       ACL_MEMCPY_DEVICE_TO_HOST));
	pattern(w, SIM_LEN, 41);
	ck_assert_int_eq(memcmp(h, w, 256), 0);
	ck_assert_int_eq(memcmp(h + 256, w + 512, 256), 0);
	/* memset and an async copy back. */
	T_ACL_OK(aclrtMemsetAsync(imp, SIM_LEN, 0x5a, 4096, s));
	T_ACL_OK(aclrtMemcpyAsync(h, SIM_LEN, imp, SIM_LEN,
				  ACL_MEMCPY_DEVICE_TO_HOST, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	memset(w, 0x5a, 4096);
	ck_assert_int_eq(memcmp(h, w, SIM_LEN), 0);
	T_ACL_OK(aclrtDestroyStream(s));
	if (b >= 0) {
		/* Device b imports with peer access and pulls the bytes over. */
		void *imp2 = NULL;

		T_ACL_OK(aclrtSetDevice(b));
		T_ACL_OK(aclrtMalloc(&local, SIM_LEN, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
		T_ACL_OK(aclrtIpcMemImportByKey(&imp2, key,
						ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS));
		ck_assert_ptr_eq(imp2, imp);
		T_ACL_OK(aclrtMemcpy(local, SIM_LEN, imp2, SIM_LEN,
				     ACL_MEMCPY_DEVICE_TO_DEVICE));
		T_ACL_OK(aclrtMemcpy(h, SIM_LEN, local, SIM_LEN,
				     ACL_MEMCPY_DEVICE_TO_HOST));
		ck_assert_int_eq(memcmp(h, w, SIM_LEN), 0);
		T_ACL_OK(aclrtFree(local));
		T_ACL_OK(aclrtIpcMemClose(key));
	}
	T_ACL_OK(aclrtIpcMemClose(key));
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
	free(h);
	free(w);
}
END_TEST

START_TEST(test_bad_arguments)
{
	char key[KEY_LEN], other[KEY_LEN];
	int dev = t_acl_find("sim") >= 0 ? t_acl_find("sim") : 0;
	int32_t pids[2] = { getpid(), -3 };
	void *mem = NULL, *p = NULL;

	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtMalloc(&mem, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_EQ(aclrtIpcMemGetExportKey(NULL, 8192, key, sizeof(key), 0),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtIpcMemGetExportKey(mem, 0, key, sizeof(key), 0),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtIpcMemGetExportKey(mem, 8192, key, 64, 0),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("len=64");
	T_ACL_EQ(aclrtIpcMemGetExportKey(mem, 8192, key, sizeof(key), 2),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("flags=0x2");
	T_ACL_EQ(aclrtIpcMemGetExportKey(mem, 1 << 20, key, sizeof(key), 0),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("not inside one allocation");
	T_ACL_EQ(aclrtIpcMemGetExportKey(key, 1, key, sizeof(key), 0),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("is not device memory");
	T_ACL_OK(aclrtIpcMemGetExportKey(mem, 8192, key, sizeof(key), 0));

	T_ACL_EQ(aclrtIpcMemSetImportPid(key, pids, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtIpcMemSetImportPid(key, NULL, 1), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtIpcMemSetImportPid(key, pids, 2), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("pid[1]=-3");
	pids[1] = 0x3ffffff0;
	T_ACL_EQ(aclrtIpcMemSetImportPid(key, pids, 2), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("names no process");
	T_ACL_OK(aclrtIpcMemSetImportPid(key, pids, 1));
	snprintf(other, sizeof(other), "%s", key);
	other[strlen(other) - 1] = other[strlen(other) - 1] == '0' ? '1' : '0';
	T_ACL_EQ(aclrtIpcMemSetImportPid(other, pids, 1), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("not a key this process exported");

	T_ACL_EQ(aclrtIpcMemImportByKey(NULL, key, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtIpcMemImportByKey(&p, key, 2), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtIpcMemImportByKey(&p, "npu0:xyz", 0), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("is not a key");
	T_ACL_EQ(aclrtIpcMemImportByKey(&p, other, 0), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("names no shared memory");
	T_ACL_EQ(aclrtIpcMemClose(other), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtIpcMemClose(NULL), ACL_ERROR_INVALID_PARAM);

	T_ACL_OK(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK,
				    ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO));
	T_ACL_EQ(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK,
				    ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS),
		 ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED);
	T_ACL_EQ(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 4),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtIpcMemSetAttr(key, (aclrtIpcMemAttrType)1, 0),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtDeviceGetBareTgid(NULL), ACL_ERROR_INVALID_PARAM);
	/* An imported pointer is not aclrtFree's; freeing the export ends the key. */
	T_ACL_OK(aclrtFree(mem));
	T_ACL_OK(aclrtIpcMemClose(key));
	T_ACL_EQ(aclrtIpcMemClose(key), ACL_ERROR_INVALID_PARAM);
}
END_TEST

/* A host function that holds its stream until a byte arrives. */
static void gate(void *arg)
{
	char c;

	if (read(*(int *)arg, &c, 1) != 1)
		abort();
}

/*
 * Notifies (loop 0) and events (loop 1) across processes: the child (on
 * the other sim NPU if there is one) waits in the driver for the
 * parent's record, then reads IPC memory the parent wrote just before
 * recording: the bytes written before the record, never the older ones.
 */
START_TEST(test_notify_across_processes)
{
	int a = t_acl_find("sim"), b, can = 0, p[2], q[2], g[2];
	char mkey[KEY_LEN], nkey[KEY_LEN];
	unsigned char *h = NULL;
	aclrtIpcEventHandle eh;
	aclrtNotify n = NULL;
	aclrtEvent ev = NULL;
	aclrtStream s;
	void *mem = NULL;
	int32_t child;
	pid_t pid;
	char c;

	T_SKIP_UNLESS(a >= 0, "no sim NPU");
	b = !aclrtDeviceCanAccessPeer(&can, a + 1, a) && can ? a + 1 : a;
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(pipe(q), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		aclrtNotify cn = NULL;
		aclrtEvent ce = NULL;
		aclrtStream cs;
		void *cm = NULL;
		unsigned char *got = NULL, *want = malloc(SIM_LEN);
		aclrtIpcEventHandle eh;

		/* Pinned: an async copy into pageable memory would wait. */
		if (read(p[0], mkey, sizeof(mkey)) != sizeof(mkey) ||
		    read(p[0], nkey, sizeof(nkey)) != sizeof(nkey) ||
		    aclrtSetDevice(b) || aclrtCreateStream(&cs) ||
		    aclrtMallocHost((void **)&got, SIM_LEN) ||
		    aclrtIpcMemImportByKey(&cm, mkey,
					   ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS))
			_exit(1);
		memcpy(eh.reserved, nkey, sizeof(eh.reserved));
		if (_i ? aclrtIpcOpenEventHandle(eh, &ce) :
			 aclrtNotifyImportByKey(&cn, nkey, 0))
			_exit(1);
		memset(got, 0, SIM_LEN);
		if ((_i ? aclrtStreamWaitEvent(cs, ce) :
			  aclrtWaitAndResetNotify(cn, cs, 0)) ||
		    aclrtMemcpyAsync(got, SIM_LEN, cm, SIM_LEN,
				     ACL_MEMCPY_DEVICE_TO_HOST, cs) ||
		    write(q[1], "q", 1) != 1 || aclrtSynchronizeStream(cs))
			_exit(2);
		pattern(want, SIM_LEN, 62);
		if (memcmp(got, want, SIM_LEN))
			_exit(3);
		if ((_i ? aclrtDestroyEvent(ce) : aclrtDestroyNotify(cn)) ||
		    aclrtIpcMemClose(mkey) ||
		    aclrtDestroyStream(cs) || aclrtFreeHost(got))
			_exit(4);
		_exit(0);
	}
	close(p[0]);
	close(q[1]);
	child = pid;
	T_ACL_OK(aclrtSetDevice(a));
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtMalloc(&mem, SIM_LEN, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
	T_ACL_OK(put(mem, SIM_LEN, 61));
	T_ACL_OK(aclrtIpcMemGetExportKey(mem, SIM_LEN, mkey, sizeof(mkey), 0));
	T_ACL_OK(aclrtIpcMemSetImportPid(mkey, &child, 1));
	if (_i) {
		T_ACL_OK(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_IPC));
		T_ACL_OK(aclrtIpcGetEventHandle(ev, &eh));
		memcpy(nkey, eh.reserved, sizeof(nkey) - 1);
		nkey[sizeof(nkey) - 1] = 0;
	} else {
		T_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
		T_ACL_OK(aclrtNotifyGetExportKey(n, nkey, sizeof(nkey), 0));
		T_ACL_OK(aclrtNotifySetImportPid(n, &child, 1));
	}
	/*
	 * Behind a gate on our stream: the new bytes, then the record. An
	 * event's wait waits for the records made before it, so the record
	 * is queued (held) before the child waits; a notify's either way.
	 */
	ck_assert_int_eq(pipe(g), 0);
	T_ACL_OK(aclrtLaunchHostFunc(s, gate, &g[0]));
	T_ACL_OK(aclrtMallocHost((void **)&h, SIM_LEN));
	pattern(h, SIM_LEN, 62);
	T_ACL_OK(aclrtMemcpyAsync(mem, SIM_LEN, h, SIM_LEN,
				  ACL_MEMCPY_HOST_TO_DEVICE, s));
	T_ACL_OK(_i ? aclrtRecordEvent(ev, s) : aclrtRecordNotify(n, s));
	ck_assert_int_eq(write(p[1], mkey, sizeof(mkey)), sizeof(mkey));
	ck_assert_int_eq(write(p[1], nkey, sizeof(nkey)), sizeof(nkey));
	close(p[1]);
	/* The child's wait and copy are queued; give a broken wait time. */
	ck_assert_int_eq(read(q[0], &c, 1), 1);
	close(q[0]);
	usleep(300 * 1000);
	ck_assert_int_eq(write(g[1], "g", 1), 1);
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_int_eq(t_apart_wait(pid), 0);
	T_ACL_OK(_i ? aclrtDestroyEvent(ev) : aclrtDestroyNotify(n));
	T_ACL_OK(aclrtIpcMemClose(mkey));
	T_ACL_OK(aclrtFree(mem));
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtFreeHost(h));
	close(g[0]);
	close(g[1]);
}
END_TEST

/*
 * The producer of test_sync_apart, this program run again: an IPC event
 * recorded by both sides, and a notify. It reports over the FIFO (a
 * daemon's exit status goes to init); a step that fails closes it.
 */
static int producer_sync(int dev, const char *to_imp, const char *to_exp)
{
	aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
	aclrtIpcEventHandle eh;
	char nkey[KEY_LEN], c, r;
	aclrtNotify n = NULL;
	aclrtEvent ev = NULL;
	aclrtStream s = NULL;
	int32_t pid;
	int in, out;

	in = open(to_exp, O_RDONLY);
	out = open(to_imp, O_WRONLY);
	if (in < 0 || out < 0 || aclInit(NULL) || aclrtSetDevice(dev) ||
	    aclrtCreateStream(&s) ||
	    aclrtCreateEventExWithFlag(&ev, ACL_EVENT_IPC) ||
	    aclrtRecordEvent(ev, s) || aclrtSynchronizeEvent(ev) ||
	    aclrtIpcGetEventHandle(ev, &eh) ||
	    aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT) ||
	    aclrtNotifyGetExportKey(n, nkey, sizeof(nkey), 0) ||
	    read(in, &pid, sizeof(pid)) != sizeof(pid) ||
	    aclrtNotifySetImportPid(n, &pid, 1) ||
	    write(out, &eh, sizeof(eh)) != sizeof(eh) ||
	    write(out, nkey, sizeof(nkey)) != sizeof(nkey))
		return 1;
	/* The importer's record is queued and held: the event is not done. */
	if (read(in, &c, 1) != 1 || aclrtQueryEventStatus(ev, &st))
		return 1;
	r = st == ACL_EVENT_RECORDED_STATUS_NOT_READY ? 'n' : 'x';
	/* Our synchronize waits for it; then the notify the importer waits on. */
	if (write(out, &r, 1) != 1 || aclrtSynchronizeEvent(ev) ||
	    aclrtQueryEventStatus(ev, &st) ||
	    st != ACL_EVENT_RECORDED_STATUS_COMPLETE ||
	    aclrtRecordNotify(n, s) || aclrtSynchronizeStream(s) ||
	    write(out, "s", 1) != 1)
		return 1;
	if (read(in, &c, 1) != 1 || aclrtDestroyEvent(ev) ||
	    aclrtDestroyNotify(n) || aclrtDestroyStream(s))
		return 1;
	aclrtResetDevice(dev);
	if (aclFinalize() || write(out, "d", 1) != 1)
		return 1;
	return 0;
}

/*
 * An IPC event and a notify between two processes, on edu and sim: the
 * CANN ipcevent examples' exchange. The producer is this program exec'd
 * by us, or started apart (a daemon). Each side's record is seen by the
 * other's stream wait, query and synchronize; ours is held behind a gate
 * so that both can see it pending.
 */
START_TEST(test_sync_apart)
{
	aclrtEventRecordedStatus st;
	aclrtIpcEventHandle eh;
	char nkey[KEY_LEN], c;
	aclrtNotify n = NULL;
	aclrtEvent ev = NULL;
	aclrtStream s;
	int dev, in, out, g[2], how = _i >> 1;
	struct fifos f;
	char d[16];
	char *argv[] = { "t_acl_ipc", "--sync", d, f.to_imp, f.to_exp, NULL };
	pid_t pid;

	if (!backend(_i & 1, &dev))
		return;
	fifos_make(&f);
	snprintf(d, sizeof(d), "%d", dev);
	pid = t_apart_spawn(argv, how);
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtCreateStream(&s));
	fifos_open(&f);
	in = f.in;
	out = f.out;
	ck_assert_int_eq(read(in, &eh, sizeof(eh)), sizeof(eh));
	ck_assert_int_eq(read(in, nkey, sizeof(nkey)), sizeof(nkey));
	T_ACL_OK(aclrtIpcOpenEventHandle(eh, &ev));
	T_ACL_OK(aclrtNotifyImportByKey(&n, nkey, 0));
	/* The exporter's record, made before the handle: done. */
	T_ACL_OK(aclrtStreamWaitEvent(s, ev));
	T_ACL_OK(aclrtSynchronizeStream(s));
	T_ACL_OK(aclrtQueryEventStatus(ev, &st));
	ck_assert_int_eq(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
	/* Ours, behind a gate: pending for both sides until it opens. */
	ck_assert_int_eq(pipe(g), 0);
	T_ACL_OK(aclrtLaunchHostFunc(s, gate, &g[0]));
	T_ACL_OK(aclrtRecordEvent(ev, s));
	T_ACL_OK(aclrtQueryEventStatus(ev, &st));
	ck_assert_int_eq(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);
	T_ACL_EQ(aclrtSynchronizeEventWithTimeout(ev, 100),
		 ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
	ck_assert_int_eq(write(out, "r", 1), 1);
	ck_assert_int_eq(read(in, &c, 1), 1);
	ck_assert_int_eq(c, 'n');
	ck_assert_int_eq(write(g[1], "g", 1), 1);
	T_ACL_OK(aclrtSynchronizeEvent(ev));
	T_ACL_OK(aclrtQueryEventStatus(ev, &st));
	ck_assert_int_eq(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
	/* The exporter records the notify once its synchronize saw ours. */
	T_ACL_OK(aclrtWaitAndResetNotify(n, s, 0));
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_int_eq(read(in, &c, 1), 1);
	ck_assert_int_eq(c, 's');
	/* An opened event is reset by its exporter only. */
	T_ACL_EQ(aclrtResetEvent(ev, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	T_ACL_OK(aclrtDestroyEvent(ev));
	T_ACL_OK(aclrtDestroyNotify(n));
	ck_assert_int_eq(write(out, "e", 1), 1);
	ck_assert_int_eq(read(in, &c, 1), 1);
	ck_assert_int_eq(c, 'd');
	if (how == T_APART_EXEC)
		ck_assert_int_eq(t_apart_wait(pid), 0);
	T_ACL_OK(aclrtDestroyStream(s));
	close(g[0]);
	close(g[1]);
	fifos_remove(&f);
}
END_TEST

/* The notify's creator dies before recording: the wait fails, no hang. */
START_TEST(test_notify_creator_dies)
{
	int dev = t_acl_find("sim"), p[2];
	char nkey[KEY_LEN];
	aclrtNotify n;
	aclrtStream s;
	aclError r;
	pid_t pid;

	T_SKIP_UNLESS(dev >= 0, "no sim NPU");
	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		aclrtNotify cn;

		if (aclrtSetDevice(dev) || aclrtCreateNotify(&cn, 0) ||
		    aclrtNotifyGetExportKey(cn, nkey, sizeof(nkey),
					    ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION) ||
		    write(p[1], nkey, sizeof(nkey)) != sizeof(nkey))
			_exit(1);
		pause();
		_exit(2);
	}
	close(p[1]);
	ck_assert_int_eq(read(p[0], nkey, sizeof(nkey)), sizeof(nkey));
	close(p[0]);
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtNotifyImportByKey(&n, nkey, 0));
	T_ACL_OK(aclrtWaitAndResetNotify(n, s, 0));
	usleep(200 * 1000);
	T_ACL_EQ(aclrtStreamQuery(s, &(aclrtStreamStatus){ 0 }), ACL_SUCCESS);
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
	r = aclrtSynchronizeStream(s);
	ck_assert_int_ne(r, ACL_SUCCESS);
	T_ACL_OK(aclrtDestroyNotify(n));
	aclrtDestroyStream(s);
	/* Its key died with it. */
	T_ACL_EQ(aclrtNotifyImportByKey(&n, nkey, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtNotifyImportByKey(&n, "ntf0:zz", 0), ACL_ERROR_INVALID_PARAM);
}
END_TEST

static Suite *ipc_suite(void)
{
	Suite *s = suite_create("acl_ipc");
	TCase *tc = tcase_create("acl_ipc");

	tcase_set_timeout(tc, 300);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_fork_exec, 0, 2);
	tcase_add_loop_test(tc, test_not_on_list, 0, 2);
	tcase_add_loop_test(tc, test_unrelated_processes, 0, 2);
	tcase_add_loop_test(tc, test_exporter_killed, 0, 2);
	tcase_add_test(tc, test_copies_through_import);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_loop_test(tc, test_notify_across_processes, 0, 2);
	tcase_add_test(tc, test_notify_creator_dies);
	tcase_add_loop_test(tc, test_sync_apart, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "--import"))
		return importer(atoi(argv[2]), argv[3], strtoul(argv[4], NULL, 10), 3);
	if (argc == 5 && !strcmp(argv[1], "--sync"))
		return producer_sync(atoi(argv[2]), argv[3], argv[4]);
	return t_run_suite(ipc_suite());
}
