#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run VM tests inside the guest (started by tools/npu-vm). For each test:
# a marker in the kernel log, the test under a timeout, then a scan of
# the kernel log since the marker for oopses and warnings, and a check
# that every page pinned during the test was unpinned. At the end the
# module must unload (a leaked reference keeps it in).
#
# Usage: runtests.sh [TEST...]   (default: every t_* program here)
# NPU_TEST_EXCLUDE="t_a t_b" leaves those out of the default list.
# A test that exits 77 is a SKIP (its device or feature is absent); one
# that passed but printed "Skips: N of M" (t_check.h) is a PASS with N of
# its M Check tests skipped. Skips are counted and named at the end: a
# guest without the devices does not look all green.
# Exit status: 0 if every test passed or skipped, else 1.

cd "$(dirname "$0")" || exit 1
TIMEOUT=${NPU_TEST_TIMEOUT:-900}
# The patterns npu-vm also scans the whole log for.
SPLAT=$(cat ../../scripts/kernel-splats.re) || exit 1

pins() {
	# Fold the per-CPU counter deltas first, or the sums lag behind.
	echo 1 > /proc/sys/vm/stat_refresh 2>/dev/null
	awk '$1 == "nr_foll_pin_acquired" { a = $2 }
	     $1 == "nr_foll_pin_released" { r = $2 }
	     END { print a - r }' /proc/vmstat
}

# Pins still held $1 pages above the count before the test, waiting up
# to 5 s: the last reference to a file of the test can drop after it
# exited (a queue's worker that held its mm runs exit_mmap(), and the
# file's release is deferred to a work item), unpinning after the
# process is gone. A real leak stays.
pins_left() {
	n=0
	left=$(( $(pins) - $1 ))
	while [ "$left" -ne 0 ] && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
		left=$(( $(pins) - $1 ))
	done
	echo "$left"
}

tests=$*
if [ -z "$tests" ]; then
	for t in $(ls t_* | grep -v '\.[ch]$'); do
		case " ${NPU_TEST_EXCLUDE:-} " in
		*" $t "*) echo "runtests: $t: left out (NPU_TEST_EXCLUDE)" ;;
		*) tests="$tests $t" ;;
		esac
	done
fi

failed=""
skipped=""
partly=""
npass=0
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
for t in $tests; do
	mark="npu-runtests: start $t $$"
	echo "$mark" > /dev/kmsg
	before=$(pins)
	t0=$(date +%s)
	# The output is shown as it comes and kept, for its "Skips:" line.
	{ rc=$( { { timeout -k 10 "$TIMEOUT" "./$t"; echo $? >&3; } 2>&1 |
		tee "$out" >&4; } 3>&1 ); } 4>&1
	t1=$(date +%s)
	leaked=$(pins_left "$before")
	verdict=PASS
	case $rc in
	0) ;;
	77) verdict=SKIP ;;
	124) verdict="FAIL (timeout after $TIMEOUT s)" ;;
	*) verdict="FAIL (exit $rc)" ;;
	esac
	# With the lines before each match: a stack dump's header says
	# what it is even when only one of its frames matched.
	splats=$(dmesg | sed -n "/$mark/,\$p" | grep -E -B4 "$SPLAT")
	if [ -n "$splats" ]; then
		echo "$splats"
		case $verdict in
		FAIL*) verdict="$verdict, kernel log" ;;
		*) verdict="FAIL (kernel log)" ;;
		esac
	fi
	if [ "$leaked" -ne 0 ]; then
		case $verdict in
		FAIL*) verdict="$verdict, pinned pages leaked: $leaked" ;;
		*) verdict="FAIL (pinned pages leaked: $leaked)" ;;
		esac
	fi
	case $verdict in
	PASS)
		npass=$((npass + 1))
		# "Skips: N of M" from t_run_suite().
		part=$(sed -n 's/^Skips: \([0-9]* of [0-9]*\)$/\1/p' "$out" | tail -1)
		if [ -n "$part" ]; then
			verdict="PASS, skipped $part"
			partly="$partly $t(${part%% of*}/${part##*of })"
		fi
		;;
	SKIP) skipped="$skipped $t" ;;
	FAIL*) failed="$failed $t" ;;
	esac
	echo "runtests: $t: $verdict ($((t1 - t0)) s)"
done

if grep -q '^npu_dma ' /proc/modules; then
	if ! rmmod npu_dma; then
		echo "runtests: npu_dma does not unload"
		failed="$failed rmmod"
	fi
fi

count() { set -- $1; echo $#; }
echo "runtests: $npass passed, $(count "$skipped") skipped, $(count "$failed") failed"
[ -z "$skipped" ] || echo "runtests: skipped:$skipped"
[ -z "$partly" ] || echo "runtests: passed with skipped tests (skipped/all):$partly"
if [ -n "$failed" ]; then
	echo "runtests: failed:$failed"
	exit 1
fi
if [ -n "$skipped$partly" ]; then
	echo "runtests: passed, with skips"
else
	echo "runtests: all passed"
fi
