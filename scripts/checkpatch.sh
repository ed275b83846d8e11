#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The kernel's checkpatch.pl over kernel/ and include/uapi/ (make
# checkpatch). The script comes from Debian's linux-source-6.1 (installed
# by scripts/deps.sh): only checkpatch.pl and the two files it reads
# beside itself (spelling.txt, const_structs.checkpatch) are unpacked,
# once per source package version, into a cache directory.
#
# Usage: checkpatch.sh [--summary] [CHECKPATCH-OPTION...]
#   --summary   print the findings counted by kind and file instead
# Exit status: 0 when checkpatch finds nothing, else 1.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
tarball=/usr/src/linux-source-6.1.tar.xz
cache=${NPU_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/npu-dma}
ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
	{ echo "checkpatch: no linux-source-6.1 (run scripts/deps.sh)" >&2; exit 1; }
dir=$cache/checkpatch-$ver

if [ ! -x "$dir/scripts/checkpatch.pl" ]; then
	echo "checkpatch: unpacking checkpatch.pl from $tarball" >&2
	tmp=$(mktemp -d "$cache.XXXXXX" 2>/dev/null) ||
		{ mkdir -p "$cache"; tmp=$(mktemp -d "$cache/.XXXXXX"); }
	trap 'rm -rf "$tmp"' EXIT
	tar -xJf "$tarball" -C "$tmp" --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
	mkdir -p "$cache"
	rm -rf "$dir"
	mv "$tmp" "$dir"
	trap - EXIT
fi

summary=0
if [ "${1:-}" = --summary ]; then
	summary=1
	shift
fi

cd "$root"
files=$(ls kernel/*.c kernel/*.h 2>/dev/null | grep -v '\.mod\.c$'; find include/uapi -name '*.h' | sort)
# --no-tree: not run from a kernel tree. The files are whole files, not
# patches (-f). --show-types names each finding's kind for --ignore.
# shellcheck disable=SC2086
#
# Ignored, everywhere: BIT_MACRO, which asks for BIT() where the values
# are sizes and limits (1ULL << 40 is 1 TiB, not bit 40). In the
# tracepoint header only: the alignment and open-ended lines of
# TRACE_EVENT()'s own layout, as upstream tracepoint headers have them.
run_checkpatch() {
	perl "$dir/scripts/checkpatch.pl" --no-tree --terse --show-types \
		--strict --ignore BIT_MACRO -f "$@"
}
trace=kernel/npu_dma_trace.h
files=$(printf '%s\n' $files | grep -vx "$trace")
rc=0
out=$(run_checkpatch "$@" $files 2>&1) || rc=1
out="$out
$(run_checkpatch --ignore PARENTHESIS_ALIGNMENT,OPEN_ENDED_LINE \
	"$@" "$trace" 2>&1)" || rc=1
out=$(printf '%s\n' "$out" | grep -v -e '^total: 0 errors, 0 warnings, 0 checks' -e '^$' || true)
if [ $summary -eq 1 ]; then
	printf '%s\n' "$out" | sed -n 's/^\([^:]*\):[0-9]*: \([A-Z]*:[A-Z_0-9]*\):.*/\2 \1/p' |
		sort | uniq -c | sort -k2,2 -k1,1nr
	printf '%s\n' "$out" | sed -n 's/^\([^:]*\):[0-9]*: \([A-Z]*:[A-Z_0-9]*\):.*/\2/p' |
		sort | uniq -c | sort -nr | sed 's/^/total /'
else
	[ -z "$out" ] || printf '%s\n' "$out"
fi
[ $rc -eq 0 ] && echo "checkpatch: kernel/ and include/uapi/ clean" >&2
exit $rc
