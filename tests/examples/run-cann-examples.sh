#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build CANN's own runtime examples, unmodified, against include/acl and
# lib/ (libascendcl.so), run them in the VM and check what they print
# (issue 26 item 10). Only the examples that need no device kernel, no
# operator library (aclnn), no model and no other CANN library, and
# those whose kernels only move data, with tests/examples/
# cann_kernel_shim.cpp standing in for the kernels (nothing else of the
# example is replaced). Which ones, and why the others are left out:
# Documentation/testing.rst.
#
# CANN's code is never copied into this tree: the sources come from a
# CANN runtime repository given by CANN_RUNTIME_SRC, a checkout (a
# directory with example/) or a git directory (bare or not; its HEAD,
# or CANN_RUNTIME_REV, is read with git archive). Without one the test
# prints SKIP and exits 77, so it never fails where there is no CANN.
#
# Usage: run-cann-examples.sh [NAME...]   (default: every example below)
#   CANN_RUNTIME_SRC  default /work/.mirror/hicann+runtime/repo
#   CANN_EX_OUT       build and run directory (default build/cann-examples)
#   NPU_VM_ARGS       more tools/npu-vm options, e.g. "--icount"
# Each example runs on NPU 0 (an edu card) and again with
# ASCEND_RT_VISIBLE_DEVICES=2,3 (the sim NPUs), or on the sim NPUs
# only when it moves megabytes or runs thousands of tasks; it is built
# with the options of its own CMakeLists.txt (-O2 -std=c++17
# -D_GLIBCXX_USE_CXX11_ABI=0 -Wall -Werror where it has them, else
# CMake's Debug build, -g) and its include directories.
#
# Every example has an expectation: "pass" (builds, runs, prints what
# shows it worked), or "build-fails" / "run-fails" with the reason (a
# symbol libacl lacks, a bug in the example). A result other than the
# expectation, better or worse, fails the run, so the table is kept
# true when a gap is closed.
#
# Exit status: 0 when every example did what it is expected to do, 1
# otherwise, 77 without CANN sources.

ROOT=$(cd "$(dirname "$0")/../.." && pwd)

# name | directory under example/ | NPUs | expectation | why, when not
# "pass". NPUs: "edu,sim" runs it on NPU 0 and on the sim NPUs, "sim"
# only on the sim NPUs (it copies megabytes, 25 s per MiB on edu, or
# its shimmed kernels make thousands of 100 ms edu copies), "2,3" once
# with all NPUs visible (it names NPUs 2 and 3 itself, the sim ones).
EXAMPLES='
error_handling|0_quickstart/1_error_handling|edu,sim|pass|
system_info|0_quickstart/2_system_info|edu,sim|pass|
runtime_compat|0_quickstart/3_cross_version/0_runtime_compatibility|edu,sim|pass|
context_query|1_basic_features/context/0_context_query|edu,sim|pass|
device_p2p|1_basic_features/device/2_device_P2P|edu,sim|pass|
h2h_copy|1_basic_features/memory/0_h2h_memory_copy|edu,sim|pass|
h2d_sync_copy|1_basic_features/memory/1_h2d_sync_memory_copy|sim|pass|
h2d_async_copy|1_basic_features/memory/2_h2d_async_memory_copy|sim|pass|
d2h_sync_copy|1_basic_features/memory/3_d2h_sync_memory_copy|sim|pass|
d2h_async_copy|1_basic_features/memory/4_d2h_async_memory_copy|sim|pass|
d2d_sync_copy|1_basic_features/memory/5_d2d_sync_memory_copy|sim|pass|
d2d_async_copy|1_basic_features/memory/6_d2d_async_memory_copy|sim|pass|
phys_share_pid|1_basic_features/memory/7_physical_memory_sharing_withpid|sim|pass|
phys_share_nopid|1_basic_features/memory/8_physical_memory_sharing_withoutpid|sim|pass|
ipc_mem_pid|1_basic_features/memory/10_ipc_memory_withpid|sim|pass|
ipc_mem_nopid|1_basic_features/memory/11_ipc_memory_withoutpid|sim|pass|
multistream_value|1_basic_features/memory/9_multistream_sync_memory|edu,sim|pass|
simple_stream|1_basic_features/stream/0_simple_stream|sim|pass|
multi_stream|1_basic_features/stream/2_multi_stream|sim|pass|
event_status|1_basic_features/event/0_event_status|edu,sim|pass|
event_timestamp|1_basic_features/event/1_event_timestamp|edu,sim|pass|
simple_callback|2_advanced_features/callback/0_simple_callback|edu,sim|pass|
callback_hostfunc|2_advanced_features/callback/1_callback_hostfunc|edu,sim|pass|
stream_config|1_basic_features/stream/3_stream_config_query|edu,sim|run-fails|the example sets ACL_RT_STREAM_FLAG from a 4-byte value; CANN (src/acl/aclrt_c/runtime/stream.c) and libacl want sizeof(size_t) and answer 100000
reduce_task|2_advanced_features/built_in_task/0_reduce_task|sim|pass|
random_num_task|2_advanced_features/built_in_task/1_random_num_task|sim|build-fails|aclrtRandomNumAsync and aclrtRandomNumTaskInfo not in libacl (a compute task)
ipcevent|2_advanced_features/ipcevent/0_ipcevent|edu,sim|pass|
ipcevent_multi_device|2_advanced_features/ipcevent/1_ipcevent_multi_device|edu,sim|pass|
simple_label|2_advanced_features/label/0_simple_label|edu,sim|build-fails|labels (aclrtCreateLabel...) and aclmdlRIBuildBegin/BindStream/EndTask not in libacl
ipc_notify_pid|2_advanced_features/notify/0_ipc_notify_withpid|2,3|pass|
ipc_notify_nopid|2_advanced_features/notify/1_ipc_notify_withoutpid|2,3|pass|
model_sync_external|2_advanced_features/model_ri/4_model_sync_external|edu,sim|pass|
custom_allocator|3_memory_advanced/allocator/0_custom_allocator|edu,sim|pass|
overflow_detection|4_reliability/overflow_detection/0_overflow_detection|edu,sim|build-fails|saturation mode and overflow status (aclrtSetDeviceSatMode...) not in libacl (compute side)
'

# The programs of an example: "binary:source,..." words, sources
# relative to its directory; @FILE is FILE of tests/examples (the
# kernel shim, which stands in for the kernels of kernel_ops.h).
programs() {
	case $1 in
	h2d_*|d2h_*|d2d_*|*_stream|event_*|callback_hostfunc)
		echo "main:main.cpp,@cann_kernel_shim.cpp" ;;
	phys_share_*|ipc_mem_*)
		echo "proc_a:proc_a.cpp,../file_ops.cpp,@cann_kernel_shim.cpp" \
			"proc_b:proc_b.cpp,../file_ops.cpp,@cann_kernel_shim.cpp" ;;
	ipc_notify_*)
		f=../../../1_basic_features/memory/file_ops.cpp
		echo "proc_a:proc_a.cpp,$f,@cann_kernel_shim.cpp" \
			"proc_b:proc_b.cpp,$f,@cann_kernel_shim.cpp" ;;
	simple_callback)
		echo "main:main.cpp,callback_sample.cpp,../callback_utils.cpp,@cann_kernel_shim.cpp" ;;
	multistream_value) echo "main:main.cpp,file_ops.cpp" ;;
	ipcevent) echo "proc_a:proc_a.cpp proc_b:proc_b.cpp" ;;
	ipcevent_multi_device)
		echo "precheck:precheck.cpp proc_a:proc_a.cpp proc_b:proc_b.cpp" ;;
	*) echo "main:main.cpp" ;;
	esac
}

# Runs example $1 (its binaries in $2) in the current directory, output
# in out.txt; returns 0 when it did what the example says is success
# (the checks of its own run.sh, where it has one, else its own
# success lines).
run_example() {
	local name=$1 bin=$2 rc
	case $name in
	multistream_value) rm -rf file && mkdir file ;;
	phys_share_*|ipc_mem_*|ipc_notify_*|ipcevent)
		run_pair "$name" "$bin"
		return ;;
	ipcevent_multi_device)
		# One consumer: NPUs 0 and 1, as its run.sh by default.
		timeout 60 "$bin/precheck" 2 || { echo "precheck: $?"; return 1; }
		run_pair "$name" "$bin" 1 "1 1"
		return ;;
	esac
	timeout 120 "$bin/main" > out.txt 2>&1
	rc=$?
	cat out.txt
	[ $rc -eq 0 ] || { echo "exit status $rc"; return 1; }
	case $name in
	error_handling)
		grep -q 'recentErrMsg=aclrtGetRunMode' out.txt &&
		grep -q 'ACL finalize successfully' out.txt ;;
	system_info)
		grep -q '1.625000 -> 0x3e80 -> 1.625000' out.txt &&
		grep -q 'ACL_FLOAT=4, ACL_FLOAT16=2, ACL_INT64=8' out.txt ;;
	runtime_compat)
		grep -q '\[SUCCESS\] Runtime compatibility' out.txt ;;
	context_query)
		grep -q '\[SUCCESS\] Context query' out.txt ;;
	device_p2p)
		grep -q 'is 103, verify success' out.txt &&
		grep -q 'device_P2P sample successfully' out.txt ;;
	h2h_copy|h2d_*|d2h_*|d2d_*)
		same_value 'Source data:' 'Destination data:' ;;
	multistream_value)
		same_value 'Flag value read by the waiting thread:' \
			'Flag value after the writing thread starts:' ;;
	simple_stream)
		grep -q 'After loop, the current result is: 3002\.' out.txt ;;
	multi_stream)
		# Three ways to order a long and a short kernel, each x = 2;
		# the two timed waits (1 s) give up on a long kernel.
		[ "$(grep -c 'The answer is 2\.' out.txt)" -eq 3 ] &&
		[ "$(grep -c 'WithTimeout.*returned error code' out.txt)" -eq 2 ] ;;
	event_status)
		grep -q 'before synchronize, current event status is 0\.' out.txt &&
		grep -q 'After synchronize, current event status is 1\.' out.txt &&
		grep -q 'The answer is 1\.' out.txt ;;
	event_timestamp)
		# The second interval spans the long kernel (1.5 s).
		grep -q 'short task, the answer is 0\.' out.txt &&
		grep -q 'long task, the answer is 1\.' out.txt &&
		sed -n 's/.*consume time \([0-9.]*\) ms.*/\1/p' out.txt |
			awk 'NR == 2 { ok = $1 >= 1400 } END { exit !ok }' ;;
	simple_callback)
		# The callbacks and the host function on the threads that
		# subscribed, the five after the (long) kernel included.
		grep -q 'After assigning the task, the current int is: 1\.' out.txt &&
		[ "$(grep -c 'after task and loop five times' out.txt)" -eq 5 ] &&
		grep -q 'Hostfunc executed in subscribed thread' out.txt &&
		same_value 'The created hostfunc thread id is' \
			'Hostfunc callback thread id is' &&
		same_value 'The created report thread id is' \
			'Report callback thread id is' ;;
	callback_hostfunc)
		grep -q 'Hostfunc callback!!!' out.txt &&
		grep -q 'the current result is: 1\.' out.txt ;;
	stream_config)
		grep -q '\[SUCCESS\] Stream config query' out.txt ;;
	model_sync_external)
		[ "$(grep -c 'Check result success' out.txt)" -eq 3 ] ;;
	custom_allocator)
		grep -q 'allocCount=2 freeCount=2' out.txt ;;
	reduce_task)
		# Its own comment's expected lines: each input added to itself.
		grep -q 'Reduce SUM result\[0\] = 2\.000000' out.txt &&
		grep -q 'Reduce SUM result\[1\] = 4\.000000' out.txt &&
		grep -q 'Reduce SUM result\[2\] = 6\.000000' out.txt &&
		grep -q 'Reduce SUM result\[3\] = 8\.000000' out.txt &&
		grep -q 'Sample Run Successfully' out.txt ;;
	*)
		echo "no check for $name"; false ;;
	esac
}

# The examples of two processes, proc_a and proc_b (arguments $3 and
# $4), started together as their run.sh starts them (they meet through
# files in file/ or the current directory): both must succeed, and the
# value one writes is the value the other reads (memory: A writes, B
# reads; notify: B writes, A reads after the notify); for the IPC
# events, the producer A ends with its success line.
run_pair() {
	local name=$1 bin=$2 rc_a=0 rc_b=0 pid_a pid_b a b
	rm -rf file && mkdir file || return 1
	# shellcheck disable=SC2086
	timeout 120 "$bin/proc_a" $3 > a.txt 2>&1 &
	pid_a=$!
	# shellcheck disable=SC2086
	timeout 120 "$bin/proc_b" $4 > b.txt 2>&1 &
	pid_b=$!
	wait $pid_a || rc_a=$?
	wait $pid_b || rc_b=$?
	sed 's/^/proc_a: /' a.txt
	sed 's/^/proc_b: /' b.txt
	if [ $rc_a -ne 0 ] || [ $rc_b -ne 0 ]; then
		echo "exit status: proc_a $rc_a, proc_b $rc_b"
		return 1
	fi
	case $name in
	ipcevent) grep -q 'cleanup completed' a.txt; return ;;
	ipcevent_multi_device) grep -q 'finished successfully' a.txt; return ;;
	ipc_notify_*) cp b.txt src.txt && cp a.txt dst.txt ;;
	*) cp a.txt src.txt && cp b.txt dst.txt ;;
	esac
	a=$(sed -n 's/.*Source data: *//p' src.txt | head -1)
	b=$(sed -n 's/.*Destination data: *//p' dst.txt | head -1)
	[ -n "$a" ] && [ "$a" = "$b" ]
}

# The value after "$1" equals the value after "$2" in out.txt, as the
# example's run.sh compares them.
same_value() {
	local a b
	a=$(sed -n "s/.*$1 *//p" out.txt | head -1)
	b=$(sed -n "s/.*$2 *//p" out.txt | head -1)
	[ -n "$a" ] && [ "$a" = "$b" ]
}

selected() {
	local n
	[ $# -le 1 ] && return 0
	for n in "${@:2}"; do [ "$n" = "$1" ] && return 0; done
	return 1
}

# In the guest: run what was built, compare with the expectations.
guest() {
	local out=$1 name dir npus expect why fails=0 vis label ok
	shift
	cd "$out" || exit 1
	while IFS='|' read -r name dir npus expect why; do
		[ -n "$name" ] || continue
		selected "$name" "$@" || continue
		[ -f "build/$name.built" ] || continue
		for vis in "" 2,3; do
			case $npus,$vis in
			edu,sim,*|sim,2,3|2,3,) ;;
			*) continue ;;
			esac
			label="$name${vis:+ (ASCEND_RT_VISIBLE_DEVICES=$vis)}"
			rm -rf "run/$name" && mkdir -p "run/$name" || exit 1
			echo "=== $label"
			ok=0
			if [ -n "$vis" ]; then
				(cd "run/$name" && ASCEND_RT_VISIBLE_DEVICES=$vis \
					run_example "$name" "$out/bin/$name") || ok=$?
			else
				(cd "run/$name" && unset ASCEND_RT_VISIBLE_DEVICES &&
					run_example "$name" "$out/bin/$name") || ok=$?
			fi
			if [ $ok -eq 0 ] && [ "$expect" = pass ]; then
				echo "RESULT $label: PASS"
			elif [ $ok -ne 0 ] && [ "$expect" = run-fails ]; then
				echo "RESULT $label: XFAIL ($why)"
			elif [ $ok -eq 0 ]; then
				echo "RESULT $label: XPASS (expected $expect: $why)"
				fails=$((fails + 1))
			else
				echo "RESULT $label: FAIL"
				fails=$((fails + 1))
			fi
		done
	done <<< "$EXAMPLES"
	exit $((fails > 0))
}

# On the host: fetch the sources, build, then run the guest half.
host() {
	local src=${CANN_RUNTIME_SRC:-/work/.mirror/hicann+runtime/repo}
	local out=${CANN_EX_OUT:-$ROOT/build/cann-examples}
	local name dir npus expect why prog bin files f srcs cflags fails=0 rc
	local ex=$out/src/example

	rm -rf "${out:?}/src" "${out:?}/bin" "${out:?}/build" "${out:?}/run" &&
		mkdir -p "$out/src" "$out/bin" "$out/build" || exit 1
	if [ -d "$src/example" ]; then
		cp -r "$src/example" "$out/src/" || exit 1
	elif git --git-dir="$src" rev-parse -q --verify \
			"${CANN_RUNTIME_REV:-HEAD}^{commit}" > /dev/null 2>&1; then
		git --git-dir="$src" archive "${CANN_RUNTIME_REV:-HEAD}" example |
			tar -x -C "$out/src" || exit 1
		echo "CANN runtime $(git --git-dir="$src" rev-parse \
			"${CANN_RUNTIME_REV:-HEAD}") from $src"
	else
		echo "SKIP: no CANN runtime sources at '$src' (set CANN_RUNTIME_SRC)"
		exit 77
	fi
	[ -f "$ROOT/lib/libascendcl.so" ] || {
		echo "lib/libascendcl.so missing: run make userspace first"
		exit 1
	}

	while IFS='|' read -r name dir npus expect why; do
		[ -n "$name" ] || continue
		selected "$name" "$@" || continue
		[ -d "$ex/$dir" ] || {
			echo "RESULT $name: FAIL (no example/$dir in the CANN sources)"
			fails=$((fails + 1))
			continue
		}
		mkdir -p "$out/bin/$name"
		rc=0
		# Its CMakeLists' options; without any, CMake's Debug build.
		cflags="-g -std=c++17"
		grep -q -- -Werror "$ex/$dir/CMakeLists.txt" &&
			cflags="-O2 -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -Wall -Werror"
		# The notify examples use the memory examples' helpers.
		case $name in
		ipc_notify_*) cflags="$cflags -I$ex/1_basic_features/memory" ;;
		esac
		for prog in $(programs "$name"); do
			bin=${prog%%:*}
			files=${prog#*:}
			srcs=
			for f in ${files//,/ }; do
				case $f in
				@*) srcs="$srcs $ROOT/tests/examples/${f#@}" ;;
				*) srcs="$srcs $ex/$dir/$f" ;;
				esac
			done
			# Their CMakeLists' include directories: our headers for
			# the package's, example/ (utils.h) and the parent of
			# the example (mem_utils.h and friends).
			# shellcheck disable=SC2086
			g++ $cflags \
				-I"$ROOT/include" -I"$ex" -I"$ex/$dir/.." $srcs \
				-o "$out/bin/$name/$bin" -L"$ROOT/lib" \
				-Wl,-rpath,"$ROOT/lib" -lascendcl -pthread -ldl \
				> "$out/build/$name.log" 2>&1 || rc=1
		done
		if [ $rc -eq 0 ]; then
			touch "$out/build/$name.built"
			[ "$expect" != build-fails ] && continue
			echo "RESULT $name: XPASS (built, expected build-fails: $why)"
		else
			if [ "$expect" = build-fails ]; then
				echo "RESULT $name: XFAIL (build: $why)"
				continue
			fi
			echo "RESULT $name: FAIL (build)"
		fi
		grep -E 'error|undefined' "$out/build/$name.log" | head -5
		fails=$((fails + 1))
	done <<< "$EXAMPLES"

	rc=0
	# shellcheck disable=SC2086
	"$ROOT/tools/npu-vm" run --no-build --share "$out" $NPU_VM_ARGS -- \
		"$ROOT/tests/examples/run-cann-examples.sh" --guest "$out" "$@" ||
		rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 1 ] || echo "npu-vm failed: exit status $rc"
	[ $rc -eq 0 ] && [ $fails -eq 0 ]
}

if [ "$1" = --guest ]; then
	shift
	guest "$@"
fi
host "$@"
