/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the unit tests of npu-trace's and acl-bandwidth's parts:
 * fixed tracefs text (a fake recording, in the format the kernel's
 * npu_dma tracepoints print) and an XML oracle. Output capture and the
 * JSON oracle come from the npu-smi tests' fake_smi.h.
 */
#ifndef FAKE_TRACE_H
#define FAKE_TRACE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../smi/fake_smi.h"

/*
 * A fake recording: NPU 2 (two streams, queues 1 and 2, whose H2D copies
 * overlap on channels 0 and 1; a pageable copy with its pin and unpin;
 * a descriptor rejected before it started) and NPU 0 (one D2H copy).
 */
static const char fake_trace_text[] =
	"# tracer: nop\n"
	"#\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"      npu-demo-212     [001] .....   100.000100: npu_dma_submit: npu=2 queue=1 seq=1 op=1 flags=0x1 bytes=1048576 chan=-1 status=0\n"
	"      npu-demo-212     [001] .....   100.000110: npu_dma_submit: npu=2 queue=2 seq=1 op=1 flags=0x1 bytes=1048576 chan=-1 status=0\n"
	"  kworker/u4:1-30      [000] .....   100.000200: npu_dma_start: npu=2 queue=1 seq=1 op=1 flags=0x1 bytes=1048576 chan=0 status=0\n"
	"  kworker/u4:2-31      [001] .....   100.000250: npu_dma_start: npu=2 queue=2 seq=1 op=1 flags=0x1 bytes=1048576 chan=1 status=0\n"
	"  kworker/u4:1-30      [000] .....   100.001200: npu_dma_complete: npu=2 queue=1 seq=1 op=1 flags=0x1 bytes=1048576 chan=0 status=0\n"
	"  kworker/u4:2-31      [001] .....   100.001300: npu_dma_complete: npu=2 queue=2 seq=1 op=1 flags=0x1 bytes=1048576 chan=1 status=0\n"
	"      npu-demo-212     [001] .....   100.002000: npu_dma_pin: npu=2 addr=0x7f0000001000 len=8192 pages=2 longterm=0\n"
	"      npu-demo-212     [001] .....   100.002010: npu_dma_submit: npu=2 queue=1 seq=2 op=1 flags=0x6 bytes=8192 chan=-1 status=0\n"
	"  kworker/u4:1-30      [000] .....   100.002020: npu_dma_start: npu=2 queue=1 seq=2 op=1 flags=0x6 bytes=8192 chan=0 status=0\n"
	"  kworker/u4:1-30      [000] .....   100.002060: npu_dma_complete: npu=2 queue=1 seq=2 op=1 flags=0x6 bytes=8192 chan=0 status=0\n"
	"      npu-demo-212     [001] .....   100.002070: npu_dma_unpin: npu=2 addr=0x7f0000001000 len=8192 pages=2 longterm=0\n"
	"      npu-demo-212     [001] .....   100.003000: npu_dma_submit: npu=2 queue=1 seq=3 op=1 flags=0x0 bytes=8 chan=-1 status=-14\n"
	"      npu-demo-212     [001] .....   100.003001: npu_dma_error: npu=2 queue=1 seq=3 op=1 flags=0x0 bytes=8 chan=-1 status=-14\n"
	"      npu-demo-212     [001] .....   100.003002: npu_dma_complete: npu=2 queue=1 seq=3 op=1 flags=0x0 bytes=8 chan=-1 status=-14\n"
	"      npu-demo-212     [001] .....   100.004000: npu_dma_submit: npu=0 queue=4 seq=1 op=1 flags=0x2 bytes=2048 chan=-1 status=0\n"
	"  kworker/u4:0-9       [001] .....   100.004010: npu_dma_start: npu=0 queue=4 seq=1 op=1 flags=0x2 bytes=2048 chan=0 status=0\n"
	"          <idle>-0       [001] d.h1.   100.104000: npu_dma_irq: npu=0 status=0x100\n"
	"  kworker/u4:0-9       [001] .....   100.104100: npu_dma_complete: npu=0 queue=4 seq=1 op=1 flags=0x2 bytes=2048 chan=0 status=0\n";

/*
 * Well-formed XML per python3's xml.dom.minidom, fed on standard input:
 * 1 yes, 0 no, -1 when there is no python3 to judge.
 */
static inline int fake_xml_ok(const char *text)
{
	FILE *p;

	if (system("python3 -c '' 2>/dev/null"))
		return -1;
	p = popen("python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.stdin)' "
		  "2>/dev/null", "w");
	ck_assert_ptr_nonnull(p);
	fputs(text, p);
	return pclose(p) == 0;
}

#define fake_assert_xml(text) \
	ck_assert_msg(fake_xml_ok(text) != 0, "not well-formed XML:\n%s", text)

#endif /* FAKE_TRACE_H */
