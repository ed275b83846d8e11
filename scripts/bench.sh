#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run the benchmark programs inside the guest (started by `make bench`):
# every bench/bench_* program, one after the other, each printing its own
# table. Benchmarks report; they never fail a build on a missed target.
#
# Usage: bench.sh [PROGRAM...]   (default: every bench/bench_* program)

cd "$(dirname "$0")/../bench" || exit 1
progs=$*
[ -n "$progs" ] || progs=$(ls bench_* | grep -v '\.[ch]$')
rc=0
for p in $progs; do
	echo "== $p"
	"./$p" || rc=1
done
exit $rc
