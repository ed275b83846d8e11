#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The shared library exports exactly what its version script lists, each
# symbol in the node the script puts it in: nothing more (a symbol that
# escaped -fvisibility=hidden, a wildcard), nothing less (a listed symbol
# no longer defined, which the linker does not report). check-exports.sh
# compares the headers with the exports; this compares the exports with
# libacl.map (make lint).
#
# Usage: check-symbols.sh MAP LIBRARY
set -eu
. "$(dirname "$0")/set-diff.sh"

map=$1 lib=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "NODE symbol" for every symbol of a global: section of every node.
sed -e 's|/\*.*\*/||' -e '/^[[:space:]]*\*/d' -e '/^[[:space:]]*\/\*/d' "$map" |
	awk '/^[A-Za-z_][A-Za-z0-9_.]* *\{/ { node = $1; scope = ""; next }
	     /^[[:space:]]*global:/ { scope = "g"; next }
	     /^[[:space:]]*local:/ { scope = "l"; next }
	     /^[[:space:]]*\}/ { node = ""; next }
	     scope == "g" && node != "" && $1 ~ /;$/ { sub(/;$/, "", $1); print node, $1 }' |
	sort -u > "$tmp/listed"
# Defined dynamic symbols with their default version: name@@NODE (the
# version nodes themselves are absolute symbols, type A).
nm -D --defined-only "$lib" |
	awk '$2 != "A" { n = split($3, v, "@@"); print (n == 2 ? v[2] : "(none)"), v[1] }' |
	sort -u > "$tmp/exported"

status=0
if grep -q '[*?]' "$tmp/listed"; then
	echo "check-symbols: $map exports by wildcard:" >&2
	grep '[*?]' "$tmp/listed" | sed 's/^/  /' >&2
	status=1
fi
set_diff "$tmp/listed" "$tmp/exported" \
	"check-symbols: listed in $map (node symbol) but not exported so by $lib:" \
	"check-symbols: exported by $lib (node symbol) but not listed so in $map:" ||
	status=1
[ $status -ne 0 ] ||
	echo "check-symbols: $(wc -l < "$tmp/exported") symbols of $lib match $map"
exit $status
