#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Test runner behind make unit / vmcheck / check. Every Check program's
# output is kept in build/logs/, so "summary" can end make check with
# the Check summary line of every suite.
#
#   run-checks.sh unit DIR    run every *_ut program under DIR (host)
#   run-checks.sh vm DIR      run DIR/host/t_* on the host, then
#                             DIR/runtests.sh in one guest boot, and the
#                             tests that patch kernel text in a second,
#                             one-vCPU boot
#   run-checks.sh summary     print the collected summary lines
#   run-checks.sh check       make lint, unit and vmcheck, each even when
#                             one before failed; then each stage's result
#                             and the summary; fails if any stage failed
set -u

ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
LOGS=$ROOT/build/logs
# Check's default of 4 s per test is too tight for tests that start a
# helper process (python3 for JSON checks) on a loaded 2-core machine.
export CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-60}
# The guest tests that patch kernel text (tracepoints, dynamic debug);
# the Makefile passes its CHECK_DEBUG_TEXT_TESTS.
TEXT_TESTS=${TEXT_TESTS:-t_trace t_npu_trace}
cd "$ROOT" || exit 1

# Run one program, keep its output under build/logs/<group>/<name>.log.
# Exit status 77 is a skip (the device or feature is absent): said so
# in the log, for the summary, and not a failure.
run_logged() {
	local group=$1 name=$2 rc log
	shift 2
	log=$LOGS/$group/$name.log
	mkdir -p "$(dirname "$log")"
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	if [ "$rc" -eq 77 ]; then
		echo "SKIP: $name (exit 77)" | tee -a "$log"
		return 0
	fi
	return "$rc"
}

run_unit() {
	local dir=$1 t failed=0
	rm -rf "$LOGS/unit"
	for t in $(find "$dir" -name '*_ut' -type f -perm -u+x | sort); do
		run_logged unit "${t#"$dir"/}" "$t" || failed=1
	done
	return $failed
}

run_vm() {
	local dir=$1 t failed=0
	rm -rf "$LOGS/vm"
	for t in "$dir"/host/t_*; do
		case $t in *.c) continue ;; esac
		run_logged vm "host/$(basename "$t")" "$t" tools/npu-vm || failed=1
	done
	# One boot runs every guest test but those that patch kernel text
	# (about 10 min on an idle 2-core machine; npu-vm's default 600 s is
	# for single commands). Those run in a one-vCPU guest of their own:
	# text patching under multi-threaded TCG can lock up a two-vCPU
	# guest now and then (Documentation/reliability.md, "CI and make
	# check-debug"), as in make check-debug.
	run_logged vm guest tools/npu-vm run --no-build \
		--timeout "${NPU_VM_CHECK_TIMEOUT:-2400}" \
		-e NPU_TEST_EXCLUDE="$TEXT_TESTS" -- \
		"$dir/runtests.sh" || failed=1
	# shellcheck disable=SC2086
	run_logged vm guest-text tools/npu-vm run --no-build --cpus 1 \
		--timeout 600 -- "$dir/runtests.sh" $TEXT_TESTS || failed=1
	return $failed
}

# Check's summary line of every program, the skips next to it
# (t_check.h's "Skips: N of M", a whole program's exit 77), and the
# guest runner's counts.
summary() {
	local f name
	echo "==== Check summary ===="
	for f in $(find "$LOGS" -name '*.log' 2>/dev/null | sort); do
		name=${f#"$LOGS"/}
		grep -E '^([0-9]+%: Checks: |Skips: |SKIP: .*\(exit 77\)$)' "$f" |
			sed "s|^|${name%.log}: |"
		grep -E '^runtests: ([0-9]+ passed|skipped:|passed with skipped)' "$f" |
			sed "s|^|${name%.log}: |"
	done
}

# make check: a failing stage does not hide the results of the others.
# $MAKE is the make that called us (its jobserver, its flags).
run_check() {
	local stage verdict t0 failed=0 results=""
	# No summary lines left from an earlier run of a stage that now
	# fails before its tests start.
	rm -rf "$LOGS"
	for stage in lint unit vmcheck; do
		t0=$SECONDS
		if ${MAKE:-make} --no-print-directory "$stage"; then
			verdict=passed
		else
			verdict=FAILED
			failed=1
		fi
		results="$results$stage: $verdict ($((SECONDS - t0)) s)"$'\n'
	done
	echo "==== make check stages ===="
	printf '%s' "$results"
	summary
	return $failed
}

case "${1:-}" in
unit) run_unit "$2" ;;
vm) run_vm "$2" ;;
summary) summary ;;
check) run_check ;;
*) echo "usage: $0 unit DIR | vm DIR | summary | check" >&2; exit 2 ;;
esac
