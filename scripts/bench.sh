#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run the benchmark programs inside the guest (started by `make bench`)
# and gather their results into one table and one JSON file. Every
# bench/bench_* program runs once with -j and prints one JSON object per
# line (bench/bench_util.h, bench_result_json()): a metric, our figure
# and its reference measured in the same run, the ratio the target is
# stated in, the target and whether it was met. Benchmarks report; a
# missed target never fails the run, a program that fails does.
#
# Usage: bench.sh [-o DIR] [PROGRAM...]   (default: every bench/bench_*)
#   -o DIR   also write DIR/bench.json (the document below), DIR/bench.txt
#            (the table) and DIR/bench.log (everything the programs said)
#
# bench.json: {"date", "commit", "host_cpu", "host_load", "guest_kernel",
#              "guest_cpus", "seconds", "failed": [program...],
#              "results": [line...]}
# `make bench` sets BENCH_COMMIT (git describe --dirty), BENCH_HOST_CPU and
# BENCH_HOST_LOAD (the host's load average when the run started).
# With -o, BENCH_OUT=DIR is exported: bench_load also reads a file there.

out=
if [ "$1" = -o ]; then
	out=${2:?usage: bench.sh [-o DIR] [PROGRAM...]}
	shift 2
fi
cd "$(dirname "$0")/../bench" || exit 1
# Issue 10's targets first, then the other issues', then any newcomer.
order="bench_bw bench_submit bench_reg bench_p2p bench_copy2d bench_batch
bench_graph bench_load bench_latency bench_priority"
progs=$*
if [ -z "$progs" ]; then
	for p in $order bench_*; do
		case " $progs " in
		*" $p "*) ;;
		*) [ -f "$p" ] && [ -x "$p" ] && progs="$progs $p" ;;
		esac
	done
fi

# bench_load also reads a file in DIR, the 9p share of make bench.
[ -n "$out" ] && export BENCH_OUT="$out"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
failed=
for p in $progs; do
	t=$(date +%s)
	printf '== %s ' "$p"
	if "./$p" -j >"$tmp/out" 2>"$tmp/err"; then
		echo "($(($(date +%s) - t)) s)"
	else
		echo "FAILED, exit $? ($(($(date +%s) - t)) s)"
		failed="$failed $p"
		cat "$tmp/err" "$tmp/out" >&2
	fi
	grep '^{"bench": ' "$tmp/out" >>"$tmp/results"
	{ echo "== $p"; cat "$tmp/out" "$tmp/err"; } >>"$tmp/log"
done
touch "$tmp/results"

# The table: one row per result line.
awk '
function str(k,   v) {
	if (!match($0, "\"" k "\": \"[^\"]*\""))
		return ""
	v = substr($0, RSTART, RLENGTH)
	sub("^\"" k "\": \"", "", v)
	return substr(v, 1, length(v) - 1)
}
function num(k,   v) {
	if (!match($0, "\"" k "\": -?[0-9][-+.0-9eE]*"))
		return ""
	v = substr($0, RSTART, RLENGTH)
	sub("^\"" k "\": ", "", v)
	return v + 0
}
function fig(v, u) {
	return v == "" ? "-" : sprintf("%.4g %s", v, u)
}
BEGIN {
	printf "%-54s %14s %14s %7s %7s  %s\n", "metric", "ours", "reference",
	       "ratio", "target", "result"
}
{
	u = str("unit"); r = num("ratio"); op = str("op")
	res = op == "" ? "-" : ($0 ~ /"pass": true/ ? "pass" : "MISS")
	n += op != ""; ok += res == "pass"
	printf "%-54s %14s %14s %7s %7s  %s\n", str("metric"), fig(num("ours"), u),
	       fig(num("reference"), u), r == "" ? "-" : sprintf("%.2fx", r),
	       op == "" ? "-" : op num("target"), res
}
END { printf "%d targets: %d met, %d missed\n", n, ok, n - ok }
' "$tmp/results" >"$tmp/table"
echo
cat "$tmp/table"
[ -z "$failed" ] || echo "failed:$failed"

if [ -n "$out" ]; then
	mkdir -p "$out" || exit 1
	cp "$tmp/table" "$out/bench.txt"
	cp "$tmp/log" "$out/bench.log"
	{
		printf '{\n  "date": "%s",\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		printf '  "commit": "%s",\n  "host_cpu": "%s",\n' \
			"${BENCH_COMMIT:-unknown}" "${BENCH_HOST_CPU:-unknown}"
		printf '  "host_load": "%s",\n' "${BENCH_HOST_LOAD:-unknown}"
		printf '  "guest_kernel": "%s",\n  "guest_cpus": %s,\n' \
			"$(uname -r)" "$(nproc)"
		printf '  "seconds": %s,\n' $(($(date +%s) - start))
		printf '  "failed": ['
		sep=
		for p in $failed; do
			printf '%s"%s"' "$sep" "$p"
			sep=', '
		done
		printf '],\n  "results": [\n'
		sed -e 's/^/    /' -e '$!s/$/,/' "$tmp/results"
		printf '  ]\n}\n'
	} >"$out/bench.json"
	echo "written: $out/bench.json, bench.txt, bench.log"
fi
[ -z "$failed" ]
