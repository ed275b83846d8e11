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

tests=$*
[ -n "$tests" ] || tests=$(ls t_* | grep -v '\.[ch]$')

failed=""
for t in $tests; do
	mark="npu-runtests: start $t $$"
	echo "$mark" > /dev/kmsg
	before=$(pins)
	t0=$(date +%s)
	timeout -k 10 "$TIMEOUT" "./$t"
	rc=$?
	t1=$(date +%s)
	after=$(pins)
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
		verdict="FAIL (kernel log)"
	fi
	if [ "$after" != "$before" ]; then
		verdict="FAIL (pinned pages leaked: $((after - before)))"
	fi
	echo "runtests: $t: $verdict ($((t1 - t0)) s)"
	case $verdict in FAIL*) failed="$failed $t" ;; esac
done

if grep -q '^npu_dma ' /proc/modules; then
	if ! rmmod npu_dma; then
		echo "runtests: npu_dma does not unload"
		failed="$failed rmmod"
	fi
fi

if [ -n "$failed" ]; then
	echo "runtests: failed:$failed"
	exit 1
fi
echo "runtests: all passed"
